"""Computer opponents, written once against the game protocol.

- :func:`make_bot` makes a bot from a spec such as ``mcts:seconds=1`` or a level (``hard``);
- every bot answers ``choose(state, seconds=, iterations=, depth=)`` (:mod:`.base`);
- :mod:`.arena` plays bots against each other, :mod:`.analysis` studies a game by self-play.
"""

from .base import Bot, BotError, Budget
from .levels import LEVELS
from .registry import bot_names, make_bot

__all__ = ["LEVELS", "Bot", "BotError", "Budget", "bot_names", "make_bot"]
