"""Challenges and rematches: sent, listed, notified, accepted into a started game with the
asked seats, declined, withdrawn; refusals; blocks hide challenges; rematches swap seats."""

from __future__ import annotations

from tests.web.helpers import move, view

from .helpers import accepted, challenge, finish, form, notes, pending_ids


def test_a_challenge_is_notified_accepted_and_played(person):
    alice, bob = person(), person()
    r = challenge(alice, bob.name, seat="first", clock="correspondence", clock_days="2")
    assert r.status_code == 303 and r.headers["location"] == "/challenges?sent=1"
    [pk] = pending_ids(bob, "incoming")
    assert pending_ids(alice, "outgoing") == [pk]
    told = notes(bob)
    assert told["unread"] == 1 and f"{alice.name} challenges you" in told["items"][0]["text"]
    assert f'data-id="{pk}"' in bob.get("/").text  # the lobby shows it too
    r = form(bob, f"/challenges/{pk}/accept", "/challenges")
    assert r.status_code == 303
    game = int(r.headers["location"].rsplit("/", 1)[1])
    seen = view(alice, game)
    assert seen["status"] == "active"
    assert [s["label"] for s in seen["seats"]] == [alice.name, bob.name]
    assert "accepted your challenge" in notes(alice)["items"][0]["text"]
    assert pending_ids(bob, "incoming") == [] and pending_ids(alice, "outgoing") == []
    # Accepting again is refused; the game can be played.
    assert form(bob, f"/challenges/{pk}/accept", "/challenges").status_code == 409
    mover = alice if view(alice, game)["your_turn"] else bob
    assert move(mover, game, view(mover, game)["legal"][0]["text"]).status_code == 200


def test_declined_and_withdrawn(person):
    alice, bob = person(), person()
    challenge(alice, bob.name)
    [pk] = pending_ids(bob, "incoming")
    assert form(alice, f"/challenges/{pk}/decline", "/challenges").status_code == 403
    assert form(bob, f"/challenges/{pk}/decline", "/challenges").status_code == 303
    assert "declined" in notes(alice)["items"][0]["text"]
    challenge(alice, bob.name)
    [pk2] = pending_ids(alice, "outgoing")
    assert form(bob, f"/challenges/{pk2}/cancel", "/challenges").status_code == 403
    assert form(alice, f"/challenges/{pk2}/cancel", "/challenges").status_code == 303
    assert pending_ids(bob, "incoming") == []


def test_refusals_say_why(person):
    alice, bob = person(), person()
    assert "yourself" in challenge(alice, alice.name).text
    r = challenge(alice, "nobody-at-all")
    assert r.status_code == 404 and "no user called" in r.text
    assert "no game called" in challenge(alice, bob.name, game="chess").text
    assert challenge(alice, bob.name, seat="middle").status_code == 400
    assert challenge(alice, bob.name).status_code == 303
    twice = challenge(alice, bob.name)
    assert twice.status_code == 409 and "already challenged" in twice.text


def test_a_blocked_challenger_is_hidden_and_not_notified(person):
    alice, bob = person(), person()
    form(bob, f"/users/{alice.name}/block", "/forum", next="/")
    assert challenge(alice, bob.name).status_code == 303  # the block is not announced
    assert pending_ids(bob, "incoming") == []
    assert notes(bob)["unread"] == 0
    [pk] = pending_ids(alice, "outgoing")
    assert form(bob, f"/challenges/{pk}/accept", "/challenges").status_code == 403


def test_rematch_swaps_seats_and_needs_both(person):
    alice, bob = person(), person()
    game = accepted(alice, bob, seat="first")
    finish(alice, bob, game)
    ended = notes(alice)["items"][0]
    assert ended["kind"] == "ended" and "has ended" in ended["text"]
    r = form(alice, f"/games/{game}/rematch", f"/games/{game}")
    assert r.headers["location"] == f"/games/{game}"  # waits for bob
    assert "Rematch offered" in alice.get(f"/games/{game}").text
    offer = notes(bob)["items"][0]
    assert offer["kind"] == "rematch" and offer["link"] == f"/games/{game}"
    assert "offers a rematch" in bob.get(f"/games/{game}").text
    r = form(bob, f"/games/{game}/rematch", f"/games/{game}")
    new = int(r.headers["location"].rsplit("/", 1)[1])
    assert new != game
    assert [s["label"] for s in view(bob, new)["seats"]] == [bob.name, alice.name]
    # A spectator cannot ask for one.
    carol = person()
    assert form(carol, f"/games/{game}/rematch").status_code == 403


def test_refusals_are_shown_on_the_form_with_what_was_typed(person):
    alice = person()
    for name, status, why in ((alice.name, 400, "yourself"), ("nobody-here", 404, "no user")):
        r = challenge(alice, name, seat="second", clock="live", clock_base="7")
        assert r.status_code == status
        form_html = r.text.split('id="challenge-form"', 1)[1].split("</form>", 1)[0]
        assert 'id="challenge-error"' in form_html and why in form_html
        assert f'name="name" required maxlength="32" value="{name}"' in form_html
        assert '<option value="second" selected>' in form_html
        assert '<option value="live" selected>' in form_html and 'value="7"' in form_html
    fresh = alice.get("/challenges").text.split('id="challenge-form"', 1)[1]
    assert '<span class="clock-live" hidden>' in fresh  # untimed: no clock fields
    assert '<span class="clock-correspondence" hidden>' in fresh
