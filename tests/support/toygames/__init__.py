"""The toy games the tests use, in one place: small games whose every line of play can be
worked out by hand, registered with :func:`ludoteca.core.registry.register` (not discovered:
they are for tests, not for players).

- :mod:`.small`: Nim, a three-player Nim, a dice gamble, a picking game and a solo coin game,
  for the bots (exact values, chance nodes, several players, solo play);
- :mod:`.race`: a two-player race with a die, for the core protocol and records;
- :mod:`.toss`: three in a row after a coin toss, for the web club (``install()``).

A fifth *real* game, played through discovery rather than registration, is
``tests/support/threerow``.
"""
