"""Computer opponents, written once against the game protocol."""

from .base import Bot
from .registry import bot_names, make_bot

__all__ = ["Bot", "bot_names", "make_bot"]
