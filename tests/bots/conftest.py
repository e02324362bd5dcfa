"""Registers the toy games of :mod:`tests.support.toygames.small` for every bot test."""

from tests.support.toygames import small as toygames  # noqa: F401 - importing registers the toy games
