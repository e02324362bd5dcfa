"""Start the web club for a test: ``python serve_for_tests.py DATABASE_URL PORT [--toy]``.

A real uvicorn server in its own process, so a test can kill it and start another on the
same database. ``--toy`` registers the toy game first (and thinks for computer seats in
threads, since a forked worker would not know the toy game).
"""

from __future__ import annotations

import sys
from pathlib import Path

import uvicorn


def main() -> None:
    url, port = sys.argv[1], int(sys.argv[2])
    toy = "--toy" in sys.argv[3:]
    if toy:
        sys.path.insert(0, str(Path(__file__).parent))
        from toygame import install

        install()
    from ludoteca.web.app import create_app

    app = create_app(url, bot_pool="thread" if toy else "process")
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=64 * 1024)


if __name__ == "__main__":
    main()
