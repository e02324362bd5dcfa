"""The CPU's bit instructions for compiled kernels: what a game's plain functions compute
with ``int`` methods (``bit_count``, ``bit_length``), which numba cannot compile, in one
instruction each. :func:`ludoteca.core.compiled.compile_functions` puts these in place of
the functions its ``cpu`` argument names.

Importing this module imports numba, so only the compile helper imports it, and only then.
"""

from __future__ import annotations

from numba import njit, types
from numba.core import errors
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic


@intrinsic
def _ctpop(typingctx, src):
    """The CPU's population count of an integer."""
    if not isinstance(src, types.Integer):
        raise errors.NumbaTypeError("popcount needs an integer")

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return src(src), codegen


@njit(cache=True)
def popcount(x):
    """Number of set bits of ``x``."""
    return _ctpop(x)


@njit(cache=True)
def low_index(x):
    """Index of the lowest set bit of a non-zero ``x``."""
    return trailing_zeros(x)


INSTRUCTIONS = {"popcount": popcount, "low_index": low_index}
"""By the name a game's plain function has: the compiled function that replaces it."""
