"""Shared test set-up: the toy games of tests/core are registered for every test."""

from tests.support.toygames.race import register_toys

register_toys()
