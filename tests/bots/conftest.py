"""Registers the toy games of :mod:`tests.bots.toygames` for every bot test."""

from tests.bots import toygames  # noqa: F401 - importing registers the toy games
