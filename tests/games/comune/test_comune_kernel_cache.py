"""Where the compiled Comune kernels are cached, and that a rules change clears them.

numba keys its cache by the kernel's own file, not by the rules modules compiled into it, so
the kernel keeps a digest of those beside the cache and clears the cache when they change:
in whichever folder numba uses (here ``$NUMBA_CACHE_DIR``, as for an install the user
cannot write to).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = (
    "from ludoteca.games.comune import jit as kernel; print(kernel._cache_folder(kernel.playout))"
)


def _import_kernel(cache: Path) -> Path:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NUMBA_CACHE_DIR": str(cache)},
    )
    assert out.returncode == 0, out.stderr
    return Path(out.stdout.strip())


def test_stale_kernels_are_cleared_where_numba_caches_them(tmp_path):
    folder = _import_kernel(tmp_path)
    assert folder.is_relative_to(tmp_path)
    stamp = folder / "kernel.rules-digest"
    digest = stamp.read_text()
    stale = folder / "kernel.playout-1.py311.nbi"
    stale.write_bytes(b"compiled from other rules")
    assert _import_kernel(tmp_path) == folder
    assert stale.exists()  # the rules did not change: the cache is kept
    stamp.write_text("the digest of other rules")
    _import_kernel(tmp_path)
    assert not stale.exists() and stamp.read_text() == digest
