"""Start the web club for a test:
``python -m tests.web.serve_for_tests DATABASE_URL PORT [--toy] [--club-limits]
[--smtp=URL] [--turn-mail-delay=SECONDS]`` from the repository's root (turn e-mails go at
once unless the delay is given).

A real uvicorn server in its own process, so a test can kill it and start another on the
same database. ``--toy`` registers the toy game first (and thinks for computer seats in
threads, since a forked worker would not know the toy game). The tests register many users
from 127.0.0.1, so registrations per address are unlimited unless ``--club-limits`` asks for
the limits ``ludoteca serve`` applies; the log-in limits are always the club's.
"""

from __future__ import annotations

import sys

import uvicorn


def main() -> None:
    url, port = sys.argv[1], int(sys.argv[2])
    toy = "--toy" in sys.argv[3:]
    club_limits = "--club-limits" in sys.argv[3:]
    if toy:
        from tests.support.toygames.toss import install

        install()
    from ludoteca.cli.commands.serve import WS_MAX_SIZE
    from ludoteca.web.app import create_app
    from ludoteca.web.infra.throttle import Limit, Limits
    from ludoteca.web.infra.wsprotocol import WebSocketProtocol

    limits = Limits() if club_limits else Limits(register_per_address=Limit(10**6, 60))
    smtp = next((a.split("=", 1)[1] for a in sys.argv[3:] if a.startswith("--smtp=")), None)
    delay = next(
        (float(a.split("=", 1)[1]) for a in sys.argv[3:] if a.startswith("--turn-mail-delay=")),
        0.0,
    )
    import logging

    from ludoteca.web.ops import logs

    # As `ludoteca serve` does, records go to stderr (the test's log file); warnings and
    # errors only, as before the club had a log format: a line per request costs time.
    logs.configure("plain", level=logging.WARNING)
    app = create_app(
        url,
        bot_pool="thread" if toy else "process",
        limits=limits,
        smtp=smtp,
        public_url=f"http://127.0.0.1:{port}",
        turn_mail_delay=delay,
    )
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        log_config=None,  # uvicorn's records go through the club's handler, as in `serve`
        ws=WebSocketProtocol,
        ws_max_size=WS_MAX_SIZE,
    )


if __name__ == "__main__":
    main()
