"""The round's roles are objects of their own, wired explicitly (``service.GameService``
builds them and hands each the others it calls), not a chain of subclasses."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from ludoteca.web.infra.store import Store
from ludoteca.web.round.bot_turns import BotTurns
from ludoteca.web.round.finishing import Finishing
from ludoteca.web.round.playing import Playing
from ludoteca.web.round.reading import GameReader
from ludoteca.web.round.service import GameService
from ludoteca.web.round.setup import SetUp

ROLES = (GameReader, Finishing, Playing, SetUp, BotTurns)
MAX_MODULE_LINES = 500


@pytest.mark.parametrize("role", [*ROLES, GameService], ids=lambda c: c.__name__)
def test_no_role_inherits_another(role):
    inherited = [c.__name__ for c in role.__mro__[1:] if c in ROLES]
    assert inherited == [], f"{role.__name__} inherits {inherited}: hand it the role instead"


@pytest.mark.parametrize("role", [*ROLES, GameService], ids=lambda c: c.__name__)
def test_each_role_module_is_small_enough_to_read_at_once(role):
    lines = len(Path(inspect.getfile(role)).read_text().splitlines())
    assert lines < MAX_MODULE_LINES, f"{role.__module__} has {lines} lines"


def test_the_service_hands_each_role_the_same_collaborators(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'club.db'}")
    service = GameService(store)
    roles = [service.reader, service.finishing, service.playing, service.setup]
    assert [type(r) for r in roles] == [GameReader, Finishing, Playing, SetUp]
    assert all(r.store is store and r.cache is service.cache for r in roles)
    assert service.finishing.reader is service.playing.reader is service.setup.reader
    assert service.playing.finishing is service.finishing
    assert service.setup.playing is service.playing
    assert service.bot_turns.reader is service.reader
    assert service.on_finish is service.finishing.on_finish
    store.dispose()
