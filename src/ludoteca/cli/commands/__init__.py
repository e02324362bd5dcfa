"""One module per ``ludoteca`` sub-command; each defines ``register(subparsers)``."""
