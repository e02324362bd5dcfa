"""What Kuniumi's kernel and solver tests share: the compiled kernel."""

from __future__ import annotations

import pytest

from ludoteca.games.kuniumi.jit import compiled


@pytest.fixture(scope="module")
def k():
    kernel = compiled()
    assert kernel.jit, "numba is a dependency: the kernel must be compiled"
    return kernel
