"""Puzzles: positions where one move is clearly best, proven by the engine (see
``docs/puzzles.md``): made by :mod:`.generate`, proven by :mod:`.prove`, shipped as
``data/<game>.jsonl`` and read by :mod:`.shipped`."""
