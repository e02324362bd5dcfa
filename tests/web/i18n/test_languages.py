"""Choosing the language: ``Accept-Language`` on a first visit, the menu (remembered in the
browser and in the account), and a member's setting winning over the browser's header;
refusals from the server and page-script messages in the chosen language."""

from __future__ import annotations

import json
import re

import httpx
import pytest

from ludoteca.core.errors import MalformedError
from ludoteca.core.messages import Text
from ludoteca.core.registry import get as get_game
from ludoteca.web.accounts.service import SESSION_COOKIE
from ludoteca.web.i18n.catalogs import language
from ludoteca.web.i18n.languages import from_accept_language, supported
from tests.web.helpers import create_game, join, member, move, page_csrf, started_club, view

DE = language("de")
JA = language("ja")


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("de", "de"),
        ("de-CH,de;q=0.9,en;q=0.8", "de"),
        ("fr-FR,fr;q=0.9,ja;q=0.8,en;q=0.5", "ja"),
        ("en;q=0.4, de;q=0.7", "de"),
        ("ja;q=0, de;q=0.1", "de"),
        ("fr, es", None),
        ("", None),
        ("de;q=abc", None),
        ("*", None),
    ],
)
def test_accept_language_is_read_with_its_weights(header, expected):
    assert from_accept_language(header) == expected


def test_only_the_clubs_languages_are_supported():
    assert supported("ja_JP") == "ja" and supported("DE") == "de"
    assert supported("fr") is None and supported(None) is None


def test_a_refusal_text_is_translated_with_its_fields_and_nested_reasons():
    inner = Text("the game is over")
    outer = Text("Move {text!r} refused: {why}.", {"text": "c3", "why": inner})
    assert str(outer) == "Move 'c3' refused: the game is over."
    german = DE.text(outer)
    assert "'c3'" in german and DE.gettext("the game is over") in german
    assert german != str(outer)


def engine_refusal(game_id: str, text: str) -> Text:
    """The reason the engine of ``game_id`` gives for refusing the move ``text`` as malformed."""
    with pytest.raises(MalformedError) as refused:
        get_game(game_id).new_state(seed=1).str_to_move(text)
    return refused.value.text


def test_a_malformed_moves_refusal_reads_in_english_as_before():
    reason = engine_refusal("comune", "zz9-")
    assert reason.fields == {"cell_text": "zz9"}, "a reason with a field of its own"
    why = Text("it does not parse ({reason})", {"reason": reason})
    refusal = Text("Move {text!r} refused: {why}.", {"text": "zz9-", "why": why})
    assert str(refusal) == f"Move 'zz9-' refused: it does not parse ({reason})."
    assert str(refusal) == (
        "Move 'zz9-' refused: it does not parse ('zz9' is not a cell of the board "
        "(a1..e1 up to e9..i9))."
    )


@pytest.mark.parametrize("text", ["   ", "swap a1", "again 1"])
def test_hexagones_refusal_of_a_moves_shape_is_translated(text):
    """The notation's forms stay as they are written; the sentence around them is German."""
    reason = engine_refusal("hexagone", text)
    english = str(reason)
    german = DE.text(reason)
    assert "moves are roll RG, swap q,r q,r" in english
    assert german != english and "Züge sind roll RG, swap q,r q,r" in german
    if text != "   ":
        assert f"'{text.split()[0]}'" in german


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    srv = started_club(tmp_path_factory, "languages", toy=False)
    yield srv
    srv.kill()


def html_lang(page: str) -> str:
    match = re.search(r'<html lang="([a-z]+)"', page)
    assert match
    return match.group(1)


def test_a_first_visit_follows_accept_language(club):
    with httpx.Client(base_url=club.base) as visitor:
        page = visitor.get("/", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}).text
        assert html_lang(page) == "de"
        assert f">{DE.gettext('New game')}<" in page and ">New game<" not in page
        page = visitor.get("/", headers={"Accept-Language": "ja"}).text
        assert html_lang(page) == "ja" and f">{JA.gettext('Leaderboard')}<" in page
        assert html_lang(visitor.get("/", headers={"Accept-Language": "fr"}).text) == "en"


def test_the_menu_is_remembered_by_the_browser_and_wins_over_the_header(club):
    with httpx.Client(base_url=club.base) as visitor:
        answer = visitor.post(
            "/language",
            data={"lang": "ja", "next": "/rules", "csrf": page_csrf(visitor)},
            follow_redirects=False,
        )
        assert answer.status_code == 303 and answer.headers["location"] == "/rules"
        page = visitor.get("/rules", headers={"Accept-Language": "de"}).text
        assert html_lang(page) == "ja"
        refused = visitor.post(
            "/language", data={"lang": "xx", "csrf": page_csrf(visitor)}, follow_redirects=False
        )
        assert refused.status_code == 400
        assert JA.gettext("There is no such language here.") in refused.text


def test_a_members_setting_follows_them_to_another_browser(club):
    alice = member(club.base, "alice")
    alice.post("/language", data={"lang": "de", "csrf": page_csrf(alice)})
    session = alice.cookies.get(SESSION_COOKIE)
    assert session
    with httpx.Client(base_url=club.base) as other_browser:
        other_browser.cookies.set(SESSION_COOKIE, session)
        page = other_browser.get("/", headers={"Accept-Language": "ja"}).text
        assert html_lang(page) == "de", "the account's setting wins over Accept-Language"


def test_refusals_and_page_script_messages_come_in_the_readers_language(club):
    bob = member(club.base, "bob")
    bob.post("/language", data={"lang": "de", "csrf": page_csrf(bob)})
    pk = create_game(bob, "kuniumi", [("me", ""), ("open", "")])
    refused = move(bob, pk, "E@c3")
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error == DE.text(
        Text("Move {text!r} refused: the game has not started.", {"text": "E@c3"})
    )
    page = bob.get(f"/games/{pk}").text
    block = re.search(r'<script type="application/json" id="messages">(.*?)</script>', page, re.S)
    assert block
    messages = json.loads(block.group(1))
    assert messages["Waiting for players to join…"] == DE.gettext("Waiting for players to join…")
    assert view(bob, pk)["status"] == "open"


def test_a_malformed_move_is_refused_wholly_in_the_readers_language(club):
    dora, emil = member(club.base, "dora"), member(club.base, "emil")
    dora.post("/language", data={"lang": "de", "csrf": page_csrf(dora)})
    pk = create_game(dora, "comune", [("me", ""), ("open", "")])
    assert join(emil, pk).status_code == 303
    assert view(dora, pk)["your_turn"]
    reason = engine_refusal("comune", "zz9-")

    refused = move(dora, pk, "zz9-")
    assert refused.status_code == 400
    error = refused.json()["error"]
    german_reason = DE.gettext(reason.template).format(cell_text="zz9")
    assert german_reason != str(reason), "the engine's reason is in the German catalog"
    assert error == f"Zug 'zz9-' abgelehnt: er lässt sich nicht lesen ({german_reason})."
    assert "parse" not in error and str(reason) not in error

    dora.post("/language", data={"lang": "ja", "csrf": page_csrf(dora)})
    error = move(dora, pk, "zz9-").json()["error"]
    assert JA.gettext(reason.template).format(cell_text="zz9") in error
    assert "parse" not in error and "cell" not in error

    dora.post("/language", data={"lang": "en", "csrf": page_csrf(dora)})
    assert (
        move(dora, pk, "zz9-").json()["error"]
        == f"Move 'zz9-' refused: it does not parse ({reason})."
    )
    assert view(dora, pk)["ply"] == 0, "no refusal changed the game"


def test_the_plots_speak_the_readers_language(club):
    with httpx.Client(base_url=club.base) as visitor:
        drawn = {
            code: visitor.get(f"/stats?lang={code}").text.split('id="by-game"')[1]
            for code in ("en", "de", "ja")
        }
    # A fresh club: the plots' places say so in the reader's words (the drawn plots in
    # every language: tests/web/community/test_stats_plots.py).
    assert "最初の対局が終わるとこのグラフが表示されます" in drawn["ja"]
    assert "sobald die erste Partie endet" in drawn["de"]
    assert len(set(drawn.values())) == 3, "each language has its own words on the plot"
