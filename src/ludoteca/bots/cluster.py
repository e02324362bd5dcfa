"""The arena's games on a Dask distributed cluster (``ludoteca arena … --cluster ADDRESS``).

:func:`cluster_executor` connects to a running Dask scheduler and hands out a
``concurrent.futures`` executor whose games run on the cluster's workers; the arena plays on it
exactly as on its local pool (:func:`ludoteca.bots.arena.run_jobs`), so each game, seeded by
its index, comes out the same wherever it is played. The ``distributed`` package is an
optional extra (``pip install 'ludoteca[cluster]'``), imported only here and only when asked.

Before any game is sent the connection is checked so that a mistake is a one-line refusal,
not a hang or a traceback: the address must parse, the scheduler must answer within
:data:`CONNECT_SECONDS`, it must have a worker within the same time (a scheduler without
workers would otherwise wait for ever), and every worker must run the same ludoteca with the
same rules for the game (else its games would differ from the local ones).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from concurrent.futures import CancelledError, Executor
from contextlib import contextmanager
from typing import Any

from ludoteca.core.errors import GameError

CONNECT_SECONDS = 10.0
"""How long to wait for the scheduler to answer, and then for its first worker. A scheduler
on a local network answers in milliseconds; ten seconds covers one starting up alongside."""

INSTALL_HINT = "pip install 'ludoteca[cluster]'"

DEFAULT_SCHEME = "tcp://"


class ClusterError(GameError):
    """The cluster cannot be used: no ``distributed``, a bad address, no scheduler or
    workers, workers that would play other rules, or the cluster lost mid-tournament."""

    kind = "cluster"


def normalise_address(address: str) -> str:
    """``HOST:PORT`` or ``SCHEME://HOST:PORT`` as Dask wants it, or a :class:`ClusterError`.

    Checked here because Dask, given a bad address, raises from deep inside its client and
    then hangs for seconds closing it.
    """
    from distributed.comm import get_address_host_port

    text = address.strip()
    full = text if "://" in text else DEFAULT_SCHEME + text
    try:
        host, port = get_address_host_port(full)
    except (ValueError, TypeError) as exc:
        raise ClusterError(address, f"not a scheduler address ({exc}); {_EXAMPLE}") from None
    if not text or not host or not 0 < port < 65536:
        raise ClusterError(address, f"not a scheduler address; {_EXAMPLE}")
    return full


_EXAMPLE = "write tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786"


def worker_versions(game_id: str, options: dict[str, Any]) -> tuple[str, str]:
    """On a worker: its ludoteca version and the rules version of the game it would play."""
    import ludoteca
    from ludoteca.core.registry import get

    return ludoteca.__version__, get(game_id, **options).rules_version


@contextmanager
def cluster_executor(
    address: str,
    game: Any = None,
    *,
    timeout: float | None = None,
) -> Iterator[Executor]:
    """An executor whose tasks run on the Dask cluster at ``address``.

    ``game`` (a :class:`~ludoteca.core.protocol.Game`), when given, is checked on every
    worker: same ludoteca version and same rules version. Errors become
    :class:`ClusterError`, which the command line reports in one line with exit status 2.
    ``timeout`` defaults to :data:`CONNECT_SECONDS`.
    """
    timeout = CONNECT_SECONDS if timeout is None else timeout
    try:
        import distributed
    except ImportError:
        raise ClusterError(
            address, f"running games on a cluster needs the distributed package: {INSTALL_HINT}"
        ) from None
    full = normalise_address(address)
    with _dask_quiet():
        try:
            client = distributed.Client(full, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError):
            raise ClusterError(
                address, f"no Dask scheduler answered within {timeout:g} s"
            ) from None
        try:
            _check_workers(client, address, game, timeout)
            executor = WatchedExecutor(client.get_executor(pure=False), client, address, timeout)
            try:
                yield executor
            except (CancelledError, distributed.KilledWorker) as exc:
                reason = (
                    f"a game ended its worker process every time it was tried ({exc})"
                    if isinstance(exc, distributed.KilledWorker)
                    else "the connection to the scheduler was lost"
                )
                raise ClusterError(address, reason) from None
            finally:
                executor.shutdown(wait=False)  # cancels what an error left unplayed
        finally:
            client.close(timeout=timeout)


class WatchedExecutor(Executor):
    """The cluster's executor, which can tell that its workers are gone: a scheduler whose
    every worker died keeps the games waiting for ever, silently. :meth:`check_alive`, asked
    while no game ends (:func:`ludoteca.bots.arena.run_jobs` does), gives up after
    ``timeout`` seconds without a worker."""

    def __init__(self, inner: Executor, client: Any, address: str, timeout: float) -> None:
        self._inner, self._client, self._address, self._timeout = inner, client, address, timeout
        self._alone_since: float | None = None

    def submit(self, fn, /, *args, **kwargs):
        return self._inner.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._inner.shutdown(wait=wait)

    def check_alive(self) -> None:
        """Raise :class:`ClusterError` once the cluster has had no worker for ``timeout``
        seconds (a worker that comes back in time resumes the games)."""
        try:
            workers = len(self._client.nthreads())
        except (OSError, TimeoutError):
            workers = 0
        if workers:
            self._alone_since = None
            return
        now = time.monotonic()
        if self._alone_since is None:
            self._alone_since = now
        elif now - self._alone_since >= self._timeout:
            raise ClusterError(
                self._address,
                f"every worker left the cluster and none came back within {self._timeout:g} s; "
                "the games not played are lost (start workers and run the command again)",
            )


@contextmanager
def _dask_quiet() -> Iterator[None]:
    """Silence Dask's own logging while we use the cluster.

    Dask logs every failed connection attempt, and a lost scheduler as a traceback on
    stderr; the :class:`ClusterError` raised instead says it in one line. Its loggers carry
    their own levels (``distributed.client``, ``distributed.core``, ...), so each is raised.
    """
    names = ["distributed"] + [
        name for name in logging.root.manager.loggerDict if name.startswith("distributed.")
    ]
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _check_workers(client: Any, address: str, game: Any, timeout: float) -> None:
    try:
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        raise ClusterError(
            address,
            f"the scheduler has no workers (waited {timeout:g} s); start some with "
            f"`dask worker {address} --nworkers N --nthreads 1`",
        ) from None
    if game is None:
        return
    import ludoteca

    here = (ludoteca.__version__, game.rules_version)
    answers = client.run(worker_versions, game.id, dict(game.options), on_error="return")
    for worker, answer in sorted(answers.items()):
        if isinstance(answer, BaseException):
            raise ClusterError(
                address,
                f"worker {worker} cannot play {game.id}: {type(answer).__name__}: "
                f"{answer} (install this ludoteca on every worker)",
            )
        if tuple(answer) != here:
            raise ClusterError(
                address,
                f"worker {worker} runs ludoteca {answer[0]} with {game.id} rules "
                f"{answer[1]}, here ludoteca {here[0]} with rules {here[1]}: its games would "
                "differ",
            )
