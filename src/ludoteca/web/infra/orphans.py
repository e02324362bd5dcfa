"""Helper processes die with the server that started them.

The server thinks in a pool of worker processes forked by multiprocessing's *forkserver*
(and the forkserver starts a *resource tracker*). Killed with ``kill -9``, the server left all
of them running: the workers wait on their job queue for ever (each holds both ends of its
own pipe), and the others wait for them. So every helper asks Linux to be killed when its
parent goes (``prctl(PR_SET_PDEATHSIG, SIGKILL)``): the forkserver when the server goes, the
workers when the forkserver goes. The resource tracker then sees the last of its pipe's
writers gone and ends by itself.

Elsewhere (no ``prctl``) a thread in each helper watches its parent's id and ends the
process once it changes. The forkserver itself is started from the thread that runs the
server's event loop (:func:`start_forkserver`): Linux ties the signal to the *thread* that
forked, so a forkserver started from a short-lived thread would die with that thread.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
WATCH_SECONDS = 1.0
"""How often a helper without ``prctl`` looks whether its parent is still there."""
GUARD_MODULE = "ludoteca.web.infra.forkserver_guard"
"""Imported by the forkserver as it starts (its preload): it calls :func:`die_with_parent`."""


def die_with_parent() -> None:
    """End this process when its parent process ends (a pool's initializer, the
    forkserver's preload)."""
    parent = os.getppid()
    if sys.platform.startswith("linux") and _prctl_deathsig():
        if os.getppid() != parent:  # the parent went before the request was made
            os._exit(1)
        return
    watcher = threading.Thread(target=_watch, args=(parent,), name="parent-watch", daemon=True)
    watcher.start()


def _prctl_deathsig() -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def start_forkserver(preload_modules: tuple[str, ...] = ()) -> None:
    """Start multiprocessing's forkserver now, from the calling thread (the event loop's,
    which lives as long as the server), with :data:`GUARD_MODULE` and ``preload_modules``
    among its preloads (the first call's: a forkserver already running keeps its own)."""
    from multiprocessing import forkserver

    preload = ["__main__", GUARD_MODULE, *preload_modules]
    multiprocessing.get_context("forkserver").set_forkserver_preload(preload)
    forkserver.ensure_running()
