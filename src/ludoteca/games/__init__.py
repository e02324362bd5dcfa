"""One package per game. Each exposes ``GAME``; the registry (:mod:`ludoteca.core.registry`)
finds them."""
