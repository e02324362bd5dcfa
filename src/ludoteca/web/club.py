"""The club object every route reaches through ``request.app.state.club``: storage,
accounts, the game service, the live hub, the bot pool and the forum, each a typed field
built by :func:`ludoteca.web.app.create_app` and handed to what needs it."""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ludoteca.web.accounts.service import Accounts
from ludoteca.web.analysis.sharing import ByUseQueue
from ludoteca.web.infra.briefly import Briefly
from ludoteca.web.infra.store import Store
from ludoteca.web.round.botqueue import FairQueue
from ludoteca.web.round.hub import Hub
from ludoteca.web.round.service import GameService

if TYPE_CHECKING:
    from ludoteca.web.analysis.review import Reviews
    from ludoteca.web.challenges.service import Challenges
    from ludoteca.web.forum.service import Forum
    from ludoteca.web.lobby.pairing.socket import Seekers
    from ludoteca.web.notify.live import Inbox
    from ludoteca.web.notify.mail import Mailer
    from ludoteca.web.ops.metrics import ClubMetrics
    from ludoteca.web.stats.service import Stats
    from ludoteca.web.tournaments.director import Director
    from ludoteca.web.tournaments.service import Tournaments


@dataclass
class Club:
    store: Store
    accounts: Accounts
    games: GameService
    hub: Hub
    bot_pool_kind: str = "process"
    bot_delay: float = 0.0
    bot_pool: Executor | None = None
    """Where computer moves are searched (processes, or threads in tests)."""
    public_url: str | None = None
    """The club's address as players reach it (``ludoteca serve --public-url``)."""
    forum: Forum | None = None
    """Made on the forum's first request."""
    challenges: Challenges | None = None
    inbox: Inbox | None = None
    seekers: Seekers | None = None
    """The quick-pairing pool and this process's sockets seeking in it."""
    """The ``/ws/me`` sockets of this process."""
    mailer: Mailer | None = None
    """Sends e-mail when the server was given ``--smtp``; None sends none."""
    stats: Stats | None = None
    site_pages: Path | None = None
    """The operator's contact, privacy and terms pages (:mod:`.help.site_pages`)."""
    analysis_pool: Executor | None = None
    """Where the analysis board and game reviews search: one worker of its own, so that
    they never take a worker from a live game's computer player."""
    analysis_queue: FairQueue = field(default_factory=lambda: ByUseQueue(workers=1, per_owner=1))
    """The analysis worker's slices, shared between the people asking by their recent use
    (the analysis board's and the reviews' alike): :mod:`ludoteca.web.analysis.sharing`."""
    reviews: Reviews | None = None
    tournaments: Tournaments | None = None
    director: Director | None = None
    """Starts, pairs and ends the tournaments (:mod:`.tournaments.director`)."""
    metrics: ClubMetrics | None = None
    """The Prometheus metrics this process reports at ``/metrics``."""
    lists: Briefly = field(default_factory=lambda: Briefly(seconds=1.0, size=2048))
    """The lobby's public lists and the players' line of each game page with their ratings:
    the same for every visitor (see :mod:`.infra.briefly`)."""
    boards: Briefly = field(default_factory=lambda: Briefly(seconds=10.0))
    """The leaderboards: they change only as rated games end."""
