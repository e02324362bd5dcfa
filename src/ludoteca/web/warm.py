"""What the server loads as it starts, so that no page's first visit waits for it.

A first visit after a start paid for things made once a process: compiling its template
(1.4 s for all sixty on a busy core), the scripts' messages (read from the JavaScript files
with Babel's extractor), the games' modules, the day's challenge (a whole game played by
the computer's planner) and the first numbers and plots of ``/stats``. :func:`warm_up` makes
them in a thread of its own once the server has started (``bench/first_visits.py``
measures every page's first visit); a page asked for meanwhile makes what it needs itself,
as before.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger("ludoteca.web")


def _steps(stats: Callable[[], object] | None) -> list[tuple[str, Callable[[], object]]]:
    from ludoteca.web.i18n.languages import LANGUAGES
    from ludoteca.web.i18n.scripts import script_messages
    from ludoteca.web.kernel.requests import warm_templates
    from ludoteca.web.learn import solo
    from ludoteca.web.round.catalog import available_games

    return [
        ("templates", warm_templates),
        ("games", available_games),
        *((f"script messages ({code})", lambda c=code: script_messages(c)) for code in LANGUAGES),
        ("the day's challenge", lambda: solo.planner_score(solo.today())),
        *([("the stats", stats)] if stats is not None else []),
    ]


def warm_up(stats: Callable[[], object] | None = None) -> None:
    """Each step in turn; one that fails is logged and left to its page, as before.
    ``stats``: makes the numbers and plots of ``/stats`` once, to be thrown away (the page
    shows numbers as fresh as its first visit): that visit then finds the code loaded and
    the database's pages read, and makes its own in 55 ms instead of 0.45 s on a club with
    a million finished games."""
    for name, step in _steps(stats):
        try:
            step()
        except Exception:
            log.exception("warming up %s failed; its first page will make it", name)
