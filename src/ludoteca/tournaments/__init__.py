"""Tournaments: who plays whom, and who leads. Pure Python, no web, no engine.

The formats pair *players* (any hashable names: a member's number, a bot spec) from the
games already played (:class:`~.results.Played`); the club (:mod:`ludoteca.web.tournaments`)
and the command line (``ludoteca tournament``) both play the games and feed the results back.

- :mod:`.swiss`: a set number of rounds, players of equal or close scores paired by a
  maximum-weight matching (networkx), no repeats while avoidable, seats balanced, byes spread.
- :mod:`.arena`: a fixed duration; free players paired again at once, close in the standings.
- :mod:`.roundrobin`: everyone meets everyone (Berger tables), or tables of three or four
  whose players meet as evenly as the numbers allow.
- :mod:`.standings`: points, Buchholz and Sonneborn-Berger, recounted from the results.
"""

from ludoteca.tournaments.results import BYE, Played, points_for
from ludoteca.tournaments.standings import Standing, standings

FORMATS = ("swiss", "arena", "round-robin")

__all__ = ["BYE", "FORMATS", "Played", "Standing", "points_for", "standings"]
