"""Helpers shared by the web tests: a real server in a subprocess, and a logged-in client."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
PYTHON = sys.executable
CSRF_RE = re.compile(r'name="csrf" value="([0-9a-f]{64})"')
PASSWORD = "correct horse battery"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``ludoteca``'s web app under uvicorn in its own process, on a free loopback port."""

    def __init__(
        self,
        url: str,
        *,
        toy: bool = True,
        log: Path | None = None,
        port: int = 0,
        options: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        self.url = url
        self.env = env
        self.toy = toy
        self.options = options
        self.log = log
        self.proc: subprocess.Popen | None = None
        self.port = port

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        self.port = self.port or free_port()
        args = [PYTHON, "-m", "tests.web.serve_for_tests", self.url, str(self.port)]
        if self.toy:
            args.append("--toy")
        args += self.options
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        env = {**os.environ, **self.env} if self.env else None
        self.proc = subprocess.Popen(args, stdout=out, stderr=out, start_new_session=True, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}; see {self.log}")
            try:
                if httpx.get(self.base + "/rules", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.kill()
        raise RuntimeError("server did not start within 30 s")

    def kill(self) -> None:
        """Kill the server (and its bot workers) at once, as a crash would."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None


def started_club(tmp_path_factory, name: str, **options) -> Server:
    """A real club on a fresh SQLite file in its own temporary folder (its log beside it),
    started: ``options`` go to :class:`Server` (``toy=False`` for the real games only)."""
    tmp = tmp_path_factory.mktemp(name)
    return Server(f"sqlite:///{tmp / 'club.sqlite3'}", log=tmp / "server.log", **options).start()


def csrf_of(html: str) -> str:
    match = CSRF_RE.search(html)
    assert match, "no CSRF token in page"
    return match.group(1)


def register(client, name: str, password: str = PASSWORD):
    page = client.get("/register")
    return client.post(
        "/register",
        data={
            "name": name,
            "password": password,
            "password2": password,
            "csrf": csrf_of(page.text),
        },
        follow_redirects=False,
    )


def member(base: str, name: str, timeout: float = 30) -> httpx.Client:
    """A new account ``name`` registered on the club at ``base``, as its browser: an HTTP
    client holding its session (``client.name`` is the name)."""
    client = httpx.Client(base_url=base, timeout=timeout)
    assert register(client, name).status_code == 303
    client.name = name  # type: ignore[attr-defined]
    return client


def page_csrf(client, path: str = "/") -> str:
    return csrf_of(client.get(path).text)


def create_game(client, game: str, seats: list[tuple[str, str]], players: int | None = None) -> int:
    """Create a game; ``seats`` is (kind, user-or-level) per seat. Returns the game number."""
    data = {"csrf": page_csrf(client), "game": game}
    if players is not None:
        data["players"] = str(players)
    for i, (kind, extra) in enumerate(seats):
        data[f"seat{i}"] = kind
        data[f"seat{i}_user" if kind == "user" else f"seat{i}_bot"] = extra
    r = client.post("/games", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    return int(r.headers["location"].rsplit("/", 1)[1])


def correspondence_swiss(client, name: str, game: str, rounds: int, *players) -> str:
    """A Swiss tournament of ``game`` on a correspondence clock (two days a move), made by
    ``client``'s member through the club's form and joined by them and ``players`` (not
    started): its number."""
    form = {
        "csrf": page_csrf(client, "/tournaments"), "name": name, "game": game,
        "form": "swiss", "starts_in": "60", "rounds": str(rounds),
        "clock": "correspondence", "clock_days": "2",
    }  # fmt: skip
    made = client.post("/tournaments", data=form, follow_redirects=False)
    assert made.status_code == 303, made.text
    tournament = made.headers["location"].rsplit("/", 1)[1]
    for who in (client, *players):
        answer = who.post(
            f"/tournaments/{tournament}/join", data={"csrf": page_csrf(who, "/tournaments")}
        )
        assert answer.status_code == 303, who
    return tournament


def join(client, pk: int):
    return client.post(
        f"/games/{pk}/join", data={"csrf": page_csrf(client)}, follow_redirects=False
    )


def move(client, pk: int, text: str, ply: int | None = None, csrf: str | None = None):
    """Send a move as the game page does, with the ply of the position it answers: ``ply``,
    or the game's ply as the client sees it now (0 if it may not see the game)."""
    if ply is None:
        seen = client.get(f"/api/games/{pk}")
        ply = seen.json().get("ply", 0) if seen.status_code == 200 else 0
    body: dict = {"move": text, "ply": ply}
    token = page_csrf(client) if csrf is None else csrf
    return client.post(f"/api/games/{pk}/move", json=body, headers={"X-CSRF-Token": token})


def legal_texts(view: dict) -> list[str]:
    """The texts of the structured legal moves a view offers (what a page sends back)."""
    return [m["text"] for m in view["legal"]]


def view(client, pk: int) -> dict:
    r = client.get(f"/api/games/{pk}")
    assert r.status_code == 200, r.text
    return r.json()


def play_randomly(client, pk: int, rng, *, seconds: float = 120, moves: int | None = None) -> dict:
    """Play random legal moves for ``client``'s seat (the other seats answer by themselves,
    computers say) until the game ends, ``moves`` are played, or ``seconds`` pass; returns
    the last view seen."""
    import time

    deadline = time.monotonic() + seconds
    played = 0
    view = client.get(f"/api/games/{pk}").json()
    while time.monotonic() < deadline and view["status"] != "finished":
        if moves is not None and played >= moves and view["your_turn"]:
            break
        if view["your_turn"]:
            move(client, pk, rng.choice(legal_texts(view)), view["ply"])
            played += 1
        else:
            time.sleep(0.02)
        view = client.get(f"/api/games/{pk}").json()
    return view
