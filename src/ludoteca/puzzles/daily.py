"""Which game the club's daily solo challenge is played on.

Hexagone is the one game of the four that is also played alone (its solo puzzle, with the
planner as the computer's player), so the challenge is its solo puzzle. The club names no
game itself: it takes the game and its options from here, as it takes the puzzles' games
from their data.
"""

GAME = "hexagone"
OPTIONS: dict[str, int] = {"players": 1}
