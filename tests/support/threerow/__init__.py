"""Three in a Row: a fifth game as one package, outside ``ludoteca``.

It shows what adding a game takes: this package and nothing else. Named in
``LUDOTECA_GAME_PACKAGES=tests.support.threerow`` (or published under the ``ludoteca.games``
entry point group), it is listed by ``ludoteca games``, played by ``ludoteca play`` and
``ludoteca arena`` with every bot, and in the web club, with no edit to ``bots/``, ``web/``
or the page's JavaScript. The layout is every game's: ``game.py`` (options, start, hooks),
``state.py`` (rules), ``notation.py`` (moves and positions), ``render.py`` (text and SVG),
``ai.py`` (what the bots may know).

Rules: two players, X and O, mark empty squares of a 3 x 3 grid in turn; three of one's
marks in a row, column or diagonal win; a full grid without a line is a draw.
"""

from __future__ import annotations

from .game import ThreeRow

GAME = ThreeRow
