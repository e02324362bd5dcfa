"""The number of players is checked in one place, the engine's registry, and the club shows
that refusal in the reader's language rather than checking the range again itself."""

from __future__ import annotations

import pytest

from ludoteca.core.errors import MalformedError
from ludoteca.core.registry import check_players, game_class
from ludoteca.web.i18n.catalogs import language


@pytest.mark.parametrize(
    ("game", "players", "german"),
    [
        ("hexagone", 9, "Hexagone ist für 1 bis 4 Spieler."),
        ("comune", "3", "Comune ist für 2 Spieler."),
        ("hexagone", "many", "Die Spielerzahl muss eine Zahl sein."),
    ],
)
def test_the_registry_refusal_reads_in_the_club_language(game, players, german):
    with pytest.raises(MalformedError) as refused:
        check_players(game_class(game), players)
    assert language("de").text(refused.value.text) == german
