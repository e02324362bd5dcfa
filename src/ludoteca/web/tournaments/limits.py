"""What a member may ask of a new tournament: the bounds the form is checked against."""

from __future__ import annotations

NAME_CHARS = 80
OPEN_PER_MEMBER = 3
"""Upcoming or running tournaments one member may have created: a club's list of upcoming
tournaments stays readable, and nobody fills it alone."""
MAX_PLAYERS = 200
"""Players in one arena or Swiss (a round-robin takes 3 to 10)."""
ARENA_MINUTES = (1, 240)
SWISS_ROUNDS = (1, 15)
STARTS_WITHIN_MINUTES = 7 * 24 * 60
"""How far ahead a tournament may be announced: a week."""
MAKE_GAME_AGAIN_SECONDS = 30
"""A pairing whose game no process has made for this long (its maker stopped) is made by
whichever process looks next."""
TICK_SECONDS = 0.25
"""How often each server process's director looks at the running tournaments. A player
whose arena game ends is paired at the next look: within this time plus the pairing's own
(``bench/tournament.py`` measures it with 500 players)."""
REPEAT_DAYS = 28
"""The longest gap between two of a recurring tournament's editions: four weeks."""
