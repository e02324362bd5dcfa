"""The game service: one database's games as a server process plays them.

Each role is an object of its own, built here from what it uses and handed the other roles
it calls, as lila's ``modules/round`` wires its parts: reading and the kept games
(:mod:`.reading`, :mod:`.cached`, :mod:`.storage`), ending games (:mod:`.finishing`),
playing moves (:mod:`.playing`), setting games up (:mod:`.setup`) and the computer's turns
(:mod:`.bot_turns`). No role inherits another. :class:`GameService` only wires them and
names their public methods, which the rest of the club calls; a caller that needs one role
only may take that role (``service.reader``, ``service.playing`` ...).
"""

from __future__ import annotations

from ludoteca.web.infra.store import Store
from ludoteca.web.round.bot_turns import BotTurns
from ludoteca.web.round.cached import MAX_CACHED_GAMES, GameCache, ListChanges, Live
from ludoteca.web.round.finishing import FinishHook, Finishing
from ludoteca.web.round.playing import MAX_MOVE_TEXT, MovesHook, Playing, probe
from ludoteca.web.round.reading import GameReader, TurnHook
from ludoteca.web.round.setup import SEAT_KINDS, GameSettings, SeatSpec, SetUp, rated_refusal
from ludoteca.web.round.storage import PlayedMove, record_of

__all__ = [
    "MAX_CACHED_GAMES",
    "MAX_MOVE_TEXT",
    "SEAT_KINDS",
    "FinishHook",
    "GameService",
    "GameSettings",
    "Live",
    "MovesHook",
    "PlayedMove",
    "SeatSpec",
    "probe",
    "rated_refusal",
    "record_of",
]


class GameService:
    """Every role of the round over one store; what the routes and the hub are handed."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.cache = GameCache()
        self.changes = ListChanges()
        self.reader = GameReader(store, self.cache)
        self.finishing = Finishing(store, self.cache, self.reader, self.changes)
        self.playing = Playing(store, self.cache, self.reader, self.finishing)
        self.setup = SetUp(store, self.cache, self.reader, self.playing, self.changes)
        self.bot_turns = BotTurns(store, self.reader)

        # the hooks, shared with the roles that run them (append to these lists)
        self.on_finish: list[FinishHook] = self.finishing.on_finish
        self.on_moves: list[MovesHook] = self.playing.on_moves
        self.on_turn: list[TurnHook] = self.reader.on_turn

        # reading
        self.lock = self.reader.lock
        self.make_game = self.reader.make_game
        self.row = self.reader.row
        self.state = self.reader.state
        self.snapshot = self.reader.snapshot
        self.moves = self.reader.moves
        self.start_state = self.reader.start_state
        self.states_along = self.reader.states_along
        self.record = self.reader.record
        self.may_have_bots = self.reader.may_have_bots
        # setting up, playing, finishing
        self.create = self.setup.create
        self.join = self.setup.join
        self.cancel = self.setup.cancel
        self.submit = self.playing.submit
        self.resign = self.finishing.resign
        self.expire_overdue = self.finishing.expire_overdue
        # computer seats
        self.bot_turn = self.bot_turns.bot_turn
        self.games_waiting_for_bots = self.bot_turns.games_waiting_for_bots

    @property
    def listed(self) -> int:
        """Counts changes to which games are open, in progress or finished here, so that
        the lobby's lists kept for a second (``Club.lists``) are made again at once."""
        return self.changes.count
