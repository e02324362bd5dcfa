"""One package per game. Each exposes ``GAME``; see :mod:`ludoteca.core.registry`."""

from ludoteca.core.registry import get, names

__all__ = ["get", "names"]
