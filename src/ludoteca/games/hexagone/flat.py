"""Hexagone's random game on a flat grid of integers, written for numba to compile.

:mod:`.jit` compiles these very functions (same code objects) with numba; the tests also
run them as plain Python, slowly, with the same results. So the code keeps to what both
worlds agree on: one ``int64`` array holds the whole game, every value is an integer well
inside 63 bits, constants are module-level integers and tuples of integers, and functions
call only each other.

**Why a grid.** The rules' hex grid is unbounded, but a game never needs much of it: the
block is connected at every turn start and has at most 42 pieces, so it spans at most 41
cells in ``q`` and in ``r``; within a turn pieces are only taken away, and a reform (or the
search checking one) places at most 38 pool pieces, each touching one already there, so no
piece lands more than 38 cells from where the block was. The grid is :data:`W` x
:data:`W` cells, cell ``q * W + r``; after a capture, at the end of the turn, a block whose
box leaves ``[LO, HI]`` in either axis is moved back to the centre (:func:`recentre`), so
every piece stays at least two cells from the grid's edge and a neighbour is an addition
that never wraps. The offsets :data:`OQ`, :data:`OR` say where the rules' ``(0, 0)`` lies,
so every action is written out in the engine's own cells (:func:`engine_cell`).

**The game array** ``g`` (see :func:`size`): per cell its colour (``-1`` empty), how many
pieces touch it and how many of each colour (three bits per colour, as the engine's reform
search keeps them), the index of its piece in the piece list, and scratch marks; then small
lists (pieces, counts, pool, captured piles, sections, swaps, placement options), the
scalars of the position (:data:`PHASE`, ...), the search's frames, a table of the reform
configurations proved impossible, and Zobrist keys naming them.

**The policy is the protocol's uniform random one**: a roll by two dice retaken while
neither colour is in the block (the chance node's probabilities), a swap uniform over the
legal swaps, ``again``/``stop`` half and half, a main block uniform over the feasible
largest sections, a reform placement uniform over the legal placements (drawn among those
the setup rules allow and kept when the rest of the pool can still be placed: exactly
uniform over the legal ones). Draws come from a xorshift32 generator kept in ``g``.
"""

from __future__ import annotations

from ludoteca.core.xorshift import rand_at, seed_at

W = 128
"""Side of the grid: a cell is ``q * W + r``."""
SIZE = W * W
CENTRE = 64
LO = 40
HI = 88
"""A turn starts with the block's box within ``[LO, HI]`` in both axes (see the module)."""
ENGINE_OFFSET = 1 << 15
ENGINE_STRIDE = 1 << 16
"""The engine's cell packing (:mod:`.geometry`): ``(q + OFFSET) * STRIDE + (r + OFFSET)``."""

DIRS = (W, -W, 1, -1, W - 1, 1 - W)
"""The six neighbours: (q±1, r), (q, r±1), (q+1, r-1), (q-1, r+1)."""
AROUND = (W, W - 1, -1, -W, 1 - W, 1)
"""The six neighbours in order around a cell, each touching the next."""

WHITE = 6
COLOURS = 7
PIECES_PER_COLOUR = 6
SOLO_ROLLS = 15
NO_CAPTURE_LIMIT = 40
SMALL_BLOCK = 10

# phases: :data:`.state.PHASES` names each by its number
ROLL_PHASE = 0
SWAP_PHASE = 1
SECOND = 2
MAIN_PHASE = 3
REFORM = 4
OVER = 5

# move kinds, as :mod:`.notation` numbers them
ROLL = 0
SWAP = 1
AGAIN = 2
STOP = 3
MAIN = 4
PLACE = 5

# why a game ended
NOT_OVER = 0
REASON_SMALL = 1
REASON_NO_TRIPLE = 2
REASON_STALE = 3
REASON_SOLO = 4
REASON_REFORM = 5


# --- the layout of the game array ---------------------------------------------------------
COL = 0
TOUCH = SIZE
NEAR = 2 * SIZE
WHERE = 3 * SIZE
MARK = 4 * SIZE
AUX = 5 * SIZE
AUX2 = 6 * SIZE
AUX3 = 7 * SIZE
AUX4 = 8 * SIZE
PIECES = 9 * SIZE  # 64 cells
COUNTS = PIECES + 64  # 8
POOL = COUNTS + 8  # 8
CAPT = POOL + 8  # 4 players x 8
TAKEN = CAPT + 32  # 64: captured cells, then the flood queue of sections
QUEUE = TAKEN + 64  # 64
SECTSIZE = QUEUE + 64  # 64
SECTLOW = SECTSIZE + 64  # 64
MAINS = SECTLOW + 64  # 64
MOVED = MAINS + 64  # 64 cells, then 64 colours
SHAPE = MOVED + 128  # 64
ORDER = SHAPE + 64  # 64
FRONT = ORDER + 64  # 512
LEFT = FRONT + 512  # 8
SWAPS = LEFT + 8  # 2 x 512
OPTS = SWAPS + 1024  # 1024
GATHER = OPTS + 1024  # 256
BOXQ = GATHER + 256  # 2048: the outside of a box of at most 44 x 44 cells
SC = BOXQ + 2048  # 32 scalars
FRAMES = SC + 32
FRAME = 160
"""One search frame: [0] colours, [1] cells, [2] colour index, [3] cell index, [4] the cell
placed, [8:15] the colours to try, [16:160] the cells to try."""
MAX_DEPTH = 48
MEMO = FRAMES + FRAME * MAX_DEPTH
MEMO_SLOTS = 1 << 15
ZOB = MEMO + 2 * MEMO_SLOTS
TOTAL = ZOB + COLOURS * SIZE

# scalars, at SC + name
NPIECES = 0
PHASE = 1
DICE_A = 2
DICE_B = 3
ROLLED = 4
ROLLS_LEFT = 5
SINCE = 6
PLAYER = 7
NPLAYERS = 8
OQ = 9
OR = 10
REASON = 11
STAMP = 12
RNG = 13
ZKEY = 14
MEMOGEN = 15
NSECT = 16
NMAINS = 17
GAPS = 18
TRACE_CAP = 19
"""Trace rows the caller's trace array holds (three int64 per action)."""
NFRONT = 20
"""The frontier's length while a start block grows."""
FIRST_STAMP = 1 << 20
"""Stamps start far above the section numbers kept in the same scratch cells."""


def size() -> int:
    """The length of a game array."""
    return TOTAL


# --- random numbers ---------------------------------------------------------------------------
def rand(g, n):
    """A number in ``range(n)`` (``n`` below 2**31) from the generator kept in ``g``."""
    return rand_at(g, SC + RNG, n)


def seed(g, value):
    """Seed the generator from any integer."""
    seed_at(g, SC + RNG, value)


def init(g):
    """Make a zeroed array of :func:`size` a game array: an empty board, the Zobrist keys."""
    for c in range(SIZE):
        g[COL + c] = -1
        g[WHERE + c] = -1
    seed(g, 0x5EED)
    for i in range(COLOURS * SIZE):
        hi = rand(g, 1 << 30)
        g[ZOB + i] = (hi << 31) ^ rand(g, 1 << 31)
    g[SC + NPLAYERS] = 2
    g[SC + OQ] = CENTRE
    g[SC + OR] = CENTRE
    g[SC + DICE_A] = -1
    g[SC + DICE_B] = -1
    g[SC + ROLLS_LEFT] = -1
    g[SC + STAMP] = FIRST_STAMP


def new_stamp(g):
    """A fresh value for the scratch marks (a cell is marked when it holds the stamp)."""
    s = g[SC + STAMP] + 1
    g[SC + STAMP] = s
    return s


# --- pieces -----------------------------------------------------------------------------------
def put(g, c, k):
    """A piece of colour ``k`` onto the empty cell ``c``."""
    g[COL + c] = k
    n = g[SC + NPIECES]
    g[PIECES + n] = c
    g[WHERE + c] = n
    g[SC + NPIECES] = n + 1
    g[COUNTS + k] += 1
    unit = 1 << (3 * k)
    for d in DIRS:
        g[TOUCH + c + d] += 1
        g[NEAR + c + d] += unit


def take(g, c):
    """Take the piece on ``c`` off the table; its colour."""
    k = g[COL + c]
    g[COL + c] = -1
    i = g[WHERE + c]
    n = g[SC + NPIECES] - 1
    last = g[PIECES + n]
    g[PIECES + i] = last
    g[WHERE + last] = i
    g[WHERE + c] = -1
    g[SC + NPIECES] = n
    g[COUNTS + k] -= 1
    unit = 1 << (3 * k)
    for d in DIRS:
        g[TOUCH + c + d] -= 1
        g[NEAR + c + d] -= unit
    return k


def recolour(g, c, k):
    """Give the piece on ``c`` colour ``k`` (the counts are the caller's: a swap keeps them)."""
    old = g[COL + c]
    g[COL + c] = k
    delta = (1 << (3 * k)) - (1 << (3 * old))
    for d in DIRS:
        g[NEAR + c + d] += delta


def clear(g):
    """Every piece off the table; the pool and the piles emptied."""
    while g[SC + NPIECES] > 0:
        take(g, g[PIECES + g[SC + NPIECES] - 1])
    for k in range(8):
        g[POOL + k] = 0
        g[COUNTS + k] = 0
    for i in range(32):
        g[CAPT + i] = 0


def engine_cell(g, c):
    """The engine's packed cell for grid cell ``c``."""
    q = c // W - g[SC + OQ]
    r = c % W - g[SC + OR]
    return (q + ENGINE_OFFSET) * ENGINE_STRIDE + (r + ENGINE_OFFSET)


def grid_cell(g, cell):
    """The grid cell for the engine's packed ``cell`` (inverse of :func:`engine_cell`)."""
    q = cell // ENGINE_STRIDE - ENGINE_OFFSET
    r = cell % ENGINE_STRIDE - ENGINE_OFFSET
    return (q + g[SC + OQ]) * W + (r + g[SC + OR])


def put_all(g, cells, colours, n):
    """Put ``n`` pieces on the table: the engine's packed ``cells`` with their ``colours``."""
    for i in range(n):
        put(g, grid_cell(g, cells[i]), colours[i])


def recentre(g):
    """Move the block back to the centre if its box has left ``[LO, HI]`` (see the module)."""
    n = g[SC + NPIECES]
    if n == 0:
        return
    qlo = W
    qhi = -1
    rlo = W
    rhi = -1
    for i in range(n):
        c = g[PIECES + i]
        q = c // W
        r = c % W
        qlo = min(qlo, q)
        qhi = max(qhi, q)
        rlo = min(rlo, r)
        rhi = max(rhi, r)
    if qlo >= LO and qhi <= HI and rlo >= LO and rhi <= HI:
        return
    dq = CENTRE - (qlo + qhi) // 2
    dr = CENTRE - (rlo + rhi) // 2
    for i in range(n):
        c = g[PIECES + i]
        g[MOVED + i] = c
        g[MOVED + 64 + i] = g[COL + c]
    for i in range(n):
        take(g, g[MOVED + i])
    shift = dq * W + dr
    for i in range(n):
        put(g, g[MOVED + i] + shift, g[MOVED + 64 + i])
    g[SC + OQ] += dq
    g[SC + OR] += dr


# --- the start block --------------------------------------------------------------------------
def add_support(g, e, st):
    """One more shape cell touches the empty cell ``e``: count it among the frontier."""
    if g[AUX2 + e] != st:
        g[AUX2 + e] = st
        g[AUX3 + e] = 1
        n = g[SC + NFRONT]
        g[FRONT + n] = e
        g[SC + NFRONT] = n + 1
    else:
        g[AUX3 + e] += 1


def weight(support, gaps):
    """How likely a frontier cell touching ``support`` shape cells is drawn (as the engine's
    generator weighs them: compact shapes prefer well-supported cells)."""
    if support < 2:
        return 0
    if gaps:
        return 1
    return support * support * support


def encloses(g, e, st, qlo, qhi, rlo, rhi):
    """Has adding ``e`` (already in the shape) enclosed a gap? Only if the empty cells around
    it form two arcs or more; then the outside is flooded within the box grown by one, and
    an empty neighbour of ``e`` it misses is in a gap (a shape without gaps before ``e``
    can only have gained one next to ``e``)."""
    ring = 0
    for i in range(6):
        if g[AUX + e + AROUND[i]] == st:
            ring |= 1 << i
    arcs = 0
    for i in range(6):
        if (ring >> i) & 1 and not (ring >> ((i + 1) % 6)) & 1:
            arcs += 1
    if arcs < 2:
        return 0
    fl = new_stamp(g)
    start = (qlo - 1) * W + (rlo - 1)
    g[MARK + start] = fl
    g[BOXQ] = start
    head = 0
    tail = 1
    while head < tail:
        x = g[BOXQ + head]
        head += 1
        for d in DIRS:
            y = x + d
            q = y // W
            r = y % W
            if q < qlo - 1 or q > qhi + 1 or r < rlo - 1 or r > rhi + 1:
                continue
            if g[AUX + y] == st or g[MARK + y] == fl:
                continue
            g[MARK + y] = fl
            g[BOXQ + tail] = y
            tail += 1
    for d in DIRS:
        y = e + d
        if g[AUX + y] != st and g[MARK + y] != fl:
            return 1
    return 0


def grow_shape(g, n, gaps):
    """A random polyhex of ``n`` cells in :data:`SHAPE` (its stamp in :data:`AUX`), grown as
    the engine's generator grows it (see :mod:`.setup`); 0 when it got stuck."""
    st = new_stamp(g)
    centre = CENTRE * W + CENTRE
    count = 0
    if gaps:
        g[AUX + centre] = -st  # the gap in the middle stays empty
        for d in AROUND:
            g[SHAPE + count] = centre + d
            count += 1
    else:
        g[SHAPE] = centre
        g[SHAPE + 1] = centre + W
        g[SHAPE + 2] = centre + 1
        count = 3
    qlo = W
    qhi = -1
    rlo = W
    rhi = -1
    for i in range(count):
        c = g[SHAPE + i]
        g[AUX + c] = st
        qlo = min(qlo, c // W)
        qhi = max(qhi, c // W)
        rlo = min(rlo, c % W)
        rhi = max(rhi, c % W)
    g[SC + NFRONT] = 0
    for i in range(count):
        c = g[SHAPE + i]
        for d in DIRS:
            e = c + d
            if g[AUX + e] != st and g[AUX + e] != -st:
                add_support(g, e, st)
    while count < n:
        rejected = new_stamp(g)
        chosen = -1
        while chosen < 0:
            nf = g[SC + NFRONT]
            total = 0
            for i in range(nf):
                e = g[FRONT + i]
                if g[AUX4 + e] != rejected:
                    total += weight(g[AUX3 + e], gaps)
            if total == 0:
                return 0
            x = rand(g, total)
            pick = -1
            for i in range(nf):
                e = g[FRONT + i]
                if g[AUX4 + e] != rejected:
                    x -= weight(g[AUX3 + e], gaps)
                    if x < 0:
                        pick = i
                        break
            e = g[FRONT + pick]
            g[AUX + e] = st
            if gaps or not encloses(
                g, e, st, min(qlo, e // W), max(qhi, e // W), min(rlo, e % W), max(rhi, e % W)
            ):
                chosen = pick
            else:
                g[AUX + e] = 0
                g[AUX4 + e] = rejected
        e = g[FRONT + chosen]
        nf = g[SC + NFRONT] - 1
        g[FRONT + chosen] = g[FRONT + nf]
        g[SC + NFRONT] = nf
        g[AUX2 + e] = 0
        g[SHAPE + count] = e
        count += 1
        qlo = min(qlo, e // W)
        qhi = max(qhi, e // W)
        rlo = min(rlo, e % W)
        rhi = max(rhi, e % W)
        for d in DIRS:
            f = e + d
            if g[AUX + f] != st and g[AUX + f] != -st:
                add_support(g, f, st)
    return st


def colour_shape(g, n, st):
    """Colour the shape with the piece counts of :data:`LEFT` so that no two touching cells
    share a colour (DSatur, as the engine's generator does); the colours in :data:`AUX2`.
    0 at a dead end."""
    for i in range(n):
        g[ORDER + i] = g[SHAPE + i]
    for i in range(n - 1, 0, -1):  # shuffle: ties between equally constrained cells
        j = rand(g, i + 1)
        t = g[ORDER + i]
        g[ORDER + i] = g[ORDER + j]
        g[ORDER + j] = t
    left0 = g[LEFT]
    left1 = g[LEFT + 1]
    left2 = g[LEFT + 2]
    left3 = g[LEFT + 3]
    left4 = g[LEFT + 4]
    left5 = g[LEFT + 5]
    left6 = g[LEFT + 6]
    for i in range(n):
        c = g[ORDER + i]
        g[AUX2 + c] = -1  # not coloured yet
        g[AUX3 + c] = 0  # colours around it, as a bit mask
        g[AUX4 + c] = 0  # how many distinct ones
    rest = n
    ok = 1
    for _ in range(n):
        bi = 0
        bs = -1
        for i in range(rest):
            s = g[AUX4 + g[ORDER + i]]
            if s > bs:
                bs = s
                bi = i
        best = g[ORDER + bi]
        for i in range(bi, rest - 1):
            g[ORDER + i] = g[ORDER + i + 1]
        rest -= 1
        mask = g[AUX3 + best]
        top = 0
        ties = 0
        for k in range(COLOURS):
            left = g[LEFT + k]
            if left > 0 and not (mask >> k) & 1:
                if left > top:
                    top = left
                    ties = 1
                elif left == top:
                    ties += 1
        if top == 0:
            ok = 0
            break
        j = rand(g, ties)
        colour = -1
        for k in range(COLOURS):
            if g[LEFT + k] == top and not (mask >> k) & 1:
                if j == 0:
                    colour = k
                    break
                j -= 1
        g[AUX2 + best] = colour
        g[LEFT + colour] -= 1
        bit = 1 << colour
        for d in DIRS:
            f = best + d
            if g[AUX + f] == st and g[AUX2 + f] < 0 and not g[AUX3 + f] & bit:
                g[AUX3 + f] |= bit
                g[AUX4 + f] += 1
    g[LEFT] = left0
    g[LEFT + 1] = left1
    g[LEFT + 2] = left2
    g[LEFT + 3] = left3
    g[LEFT + 4] = left4
    g[LEFT + 5] = left5
    g[LEFT + 6] = left6
    return ok


def new_game(g, players, gaps):
    """A fresh game of ``players`` players with a random start block (compact unless
    ``gaps``); 0 if no block could be drawn (never seen)."""
    clear(g)
    g[SC + OQ] = CENTRE
    g[SC + OR] = CENTRE
    n = 0
    for k in range(COLOURS):
        g[LEFT + k] = PIECES_PER_COLOUR
        n += PIECES_PER_COLOUR
    if players == 4:  # the fourth player's handicap: a white piece already captured
        g[LEFT + WHITE] -= 1
        g[CAPT + 3 * 8 + WHITE] = 1
        n -= 1
    done = 0
    for _ in range(1000):
        st = grow_shape(g, n, gaps)
        if st == 0:
            continue
        for _ in range(20):
            if colour_shape(g, n, st):
                done = 1
                break
        if done:
            for i in range(n):
                c = g[SHAPE + i]
                put(g, c, g[AUX2 + c])
            break
    g[SC + NPLAYERS] = players
    g[SC + GAPS] = gaps
    g[SC + PHASE] = ROLL_PHASE
    g[SC + DICE_A] = -1
    g[SC + DICE_B] = -1
    g[SC + ROLLED] = 0
    g[SC + ROLLS_LEFT] = SOLO_ROLLS if players == 1 else -1
    g[SC + SINCE] = 0
    g[SC + PLAYER] = 0
    g[SC + REASON] = NOT_OVER
    recentre(g)
    return done


def start_block(g, value, players, gaps, out):
    """A fresh game's start block drawn from the seed ``value`` (:func:`new_game`), written
    to ``out`` as pairs (the engine's packed cell, colour): the number of pieces, 0 if no
    block could be drawn. One call where the research adapters start a game."""
    seed(g, value)
    if not new_game(g, players, gaps):
        return 0
    n = g[SC + NPIECES]
    for i in range(n):
        c = g[PIECES + i]
        out[2 * i] = engine_cell(g, c)
        out[2 * i + 1] = g[COL + c]
    return n


# --- groups and sections ----------------------------------------------------------------------
def flood_group(g, c, st, tail):
    """Append to :data:`TAKEN` from ``tail`` the group of ``c``'s colour through ``c``;
    keep it only if it has three pieces or more. The new tail."""
    k = g[COL + c]
    base = tail
    g[MARK + c] = st
    g[TAKEN + tail] = c
    tail += 1
    head = base
    while head < tail:
        x = g[TAKEN + head]
        head += 1
        for d in DIRS:
            y = x + d
            if g[COL + y] == k and g[MARK + y] != st:
                g[MARK + y] = st
                g[TAKEN + tail] = y
                tail += 1
    if tail - base >= 3:
        return tail
    return base


def label_sections(g):
    """Number the connected parts of the block: section of each piece in :data:`AUX`, sizes
    in :data:`SECTSIZE`, lowest cells in :data:`SECTLOW`. Their number."""
    st = new_stamp(g)
    n = g[SC + NPIECES]
    count = 0
    for i in range(n):
        c = g[PIECES + i]
        if g[MARK + c] == st:
            continue
        g[MARK + c] = st
        g[QUEUE] = c
        head = 0
        tail = 1
        low = c
        while head < tail:
            x = g[QUEUE + head]
            head += 1
            g[AUX + x] = count
            if x < low:
                low = x
            for d in DIRS:
                y = x + d
                if g[COL + y] >= 0 and g[MARK + y] != st:
                    g[MARK + y] = st
                    g[QUEUE + tail] = y
                    tail += 1
        g[SECTSIZE + count] = tail
        g[SECTLOW + count] = low
        count += 1
    g[SC + NSECT] = count
    return count


def to_pool(g, keep):
    """Every piece outside section ``keep`` (as labelled) leaves the table for the pool; the
    cells and colours moved are in :data:`MOVED`. How many."""
    n = g[SC + NPIECES]
    m = 0
    for i in range(n):
        c = g[PIECES + i]
        if g[AUX + c] != keep:
            g[MOVED + m] = c
            m += 1
    for i in range(m):
        c = g[MOVED + i]
        k = take(g, c)
        g[MOVED + 64 + i] = k
        g[POOL + k] += 1
    return m


def from_pool(g, m):
    """Undo :func:`to_pool` of ``m`` pieces."""
    for i in range(m):
        k = g[MOVED + 64 + i]
        put(g, g[MOVED + i], k)
        g[POOL + k] -= 1


# --- the reform search ------------------------------------------------------------------------
def begin_reform(g):
    """A new reform starts from the table as it is: no placement made, nothing known."""
    g[SC + ZKEY] = 0
    g[SC + MEMOGEN] += 1


def memo_has(g, key):
    gen = g[SC + MEMOGEN]
    slot = (key ^ (key >> 17)) & (MEMO_SLOTS - 1)
    for _ in range(8):
        if g[MEMO + 2 * slot + 1] == gen and g[MEMO + 2 * slot] == key:
            return 1
        slot = (slot + 1) & (MEMO_SLOTS - 1)
    return 0


def memo_add(g, key):
    """Remember that the placements named ``key`` cannot be completed (when a slot is free:
    forgetting only costs a search again)."""
    gen = g[SC + MEMOGEN]
    slot = (key ^ (key >> 17)) & (MEMO_SLOTS - 1)
    for _ in range(8):
        if g[MEMO + 2 * slot + 1] != gen:
            g[MEMO + 2 * slot] = key
            g[MEMO + 2 * slot + 1] = gen
            return
        slot = (slot + 1) & (MEMO_SLOTS - 1)


def place(g, k, c):
    """A pool piece of colour ``k`` onto ``c`` (in the search or for good)."""
    put(g, c, k)
    g[POOL + k] -= 1
    g[SC + ZKEY] ^= g[ZOB + k * SIZE + c]


def unplace(g, c):
    k = take(g, c)
    g[POOL + k] += 1
    g[SC + ZKEY] ^= g[ZOB + k * SIZE + c]


def gather(g):
    """The empty cells touching two pieces or more, into :data:`GATHER`; how many."""
    st = new_stamp(g)
    n = g[SC + NPIECES]
    count = 0
    for i in range(n):
        c = g[PIECES + i]
        for d in DIRS:
            e = c + d
            if g[COL + e] < 0 and g[MARK + e] != st:
                g[MARK + e] = st
                if g[TOUCH + e] >= 2:
                    g[GATHER + count] = e
                    count += 1
    return count


def open_frame(g, depth):
    """The placements to try at ``depth``: pool colours with most pieces first, cells
    touching most pieces first (as the engine's search orders them: feasible reforms are
    usually completed on the first descent)."""
    b = FRAMES + depth * FRAME
    nc = 0
    for v in range(PIECES_PER_COLOUR, 0, -1):
        for k in range(COLOURS):
            if g[POOL + k] == v:
                g[b + 8 + nc] = k
                nc += 1
    m = gather(g)
    nx = 0
    for t in range(6, 1, -1):
        for i in range(m):
            e = g[GATHER + i]
            if g[TOUCH + e] == t:
                g[b + 16 + nx] = e
                nx += 1
    g[b] = nc
    g[b + 1] = nx
    g[b + 2] = 0
    g[b + 3] = 0


def feasible(g):
    """Can every pool piece be placed by the setup rules, in some order? An exact search
    over placements (depth first, the failed configurations remembered by their Zobrist
    key); the table is as it was afterwards."""
    left = 0
    for k in range(COLOURS):
        left += g[POOL + k]
    if left == 0:
        return 1
    if memo_has(g, g[SC + ZKEY]):
        return 0
    depth = 0
    open_frame(g, 0)
    while True:
        b = FRAMES + depth * FRAME
        nc = g[b]
        nx = g[b + 1]
        ci = g[b + 2]
        xi = g[b + 3]
        found = -1
        k = 0
        while ci < nc:
            k = g[b + 8 + ci]
            shift = 3 * k
            while xi < nx:
                c = g[b + 16 + xi]
                xi += 1
                if not (g[NEAR + c] >> shift) & 7:
                    found = c
                    break
            if found >= 0:
                break
            ci += 1
            xi = 0
        g[b + 2] = ci
        g[b + 3] = xi
        if found >= 0:
            place(g, k, found)
            g[b + 4] = found
            left -= 1
            if left == 0:
                for j in range(depth, -1, -1):
                    unplace(g, g[FRAMES + j * FRAME + 4])
                return 1
            if memo_has(g, g[SC + ZKEY]) or depth + 1 >= MAX_DEPTH:
                unplace(g, found)
                left += 1
                continue
            depth += 1
            open_frame(g, depth)
        else:
            memo_add(g, g[SC + ZKEY])
            if depth == 0:
                return 0
            depth -= 1
            unplace(g, g[FRAMES + depth * FRAME + 4])
            left += 1


def pick_placement(g):
    """A placement ``colour * SIZE + cell`` uniform over the legal ones (allowed by the setup
    rules and leaving a pool that can still be placed); -1 if none."""
    m = gather(g)
    n = 0
    left = 0
    for k in range(COLOURS):
        if g[POOL + k] == 0:
            continue
        left += g[POOL + k]
        shift = 3 * k
        for i in range(m):
            e = g[GATHER + i]
            if not (g[NEAR + e] >> shift) & 7:
                g[OPTS + n] = k * SIZE + e
                n += 1
    while n > 0:
        i = rand(g, n)
        option = g[OPTS + i]
        n -= 1
        g[OPTS + i] = g[OPTS + n]
        if left == 1:
            return option
        k = option // SIZE
        c = option % SIZE
        place(g, k, c)
        ok = feasible(g)
        unplace(g, c)
        if ok:
            return option
    return -1


def find_mains(g):
    """The sections the mover may name as the main block: the largest ones whose reform can
    be completed, into :data:`MAINS` (as labelled by :func:`label_sections`); how many."""
    count = g[SC + NSECT]
    largest = 0
    for s in range(count):
        largest = max(largest, g[SECTSIZE + s])
    found = 0
    for s in range(count):
        if g[SECTSIZE + s] != largest:
            continue
        m = to_pool(g, s)
        begin_reform(g)
        ok = feasible(g)
        from_pool(g, m)
        if ok:
            g[MAINS + found] = s
            found += 1
    g[SC + NMAINS] = found
    return found


# --- the turn -----------------------------------------------------------------------------------
def finish(g, reason):
    g[SC + PHASE] = OVER
    g[SC + REASON] = reason
    g[SC + DICE_A] = -1
    g[SC + DICE_B] = -1
    g[SC + ROLLED] = 0


def end_turn(g, captured):
    """The end checks of the rules, in the engine's order, then the next player."""
    if captured:
        g[SC + SINCE] = 0
    else:
        g[SC + SINCE] += 1
    g[SC + DICE_A] = -1
    g[SC + DICE_B] = -1
    most = 0
    for k in range(COLOURS):
        most = max(most, g[COUNTS + k])
    if g[SC + NPIECES] <= SMALL_BLOCK:
        finish(g, REASON_SMALL)
    elif most < 3:
        finish(g, REASON_NO_TRIPLE)
    elif g[SC + SINCE] >= NO_CAPTURE_LIMIT:
        finish(g, REASON_STALE)
    elif g[SC + ROLLS_LEFT] == 0:
        finish(g, REASON_SOLO)
    else:
        g[SC + PLAYER] = (g[SC + PLAYER] + 1) % g[SC + NPLAYERS]
        g[SC + PHASE] = ROLL_PHASE
        g[SC + ROLLED] = 0
        if captured:
            recentre(g)


def choose_main(g, s):
    """Section ``s`` stays; the others go to the pool, to be placed back."""
    to_pool(g, s)
    begin_reform(g)
    g[SC + PHASE] = REFORM


def after_capture(g):
    """A capture may split the block: the main block, the pool, or the end (the engine's
    ``_after_capture``)."""
    count = label_sections(g)
    if count <= 1:
        end_turn(g, 1)
        return
    largest = 0
    ties = 0
    only = 0
    for s in range(count):
        size_ = g[SECTSIZE + s]
        if size_ > largest:
            largest = size_
            ties = 1
            only = s
        elif size_ == largest:
            ties += 1
    if ties == 1:
        to_pool(g, only)
        begin_reform(g)
        if feasible(g):
            g[SC + PHASE] = REFORM
        else:  # the game ends; the other sections' pieces stay in the pool
            g[SC + SINCE] = 0
            finish(g, REASON_REFORM)
        return
    if find_mains(g) == 0:
        g[SC + SINCE] = 0
        finish(g, REASON_REFORM)
        return
    g[SC + PHASE] = MAIN_PHASE


def swap(g, c1, c2):
    """Exchange two pieces, capture, and go on as the engine's ``_apply_swap`` does."""
    k1 = g[COL + c1]
    k2 = g[COL + c2]
    recolour(g, c1, k2)
    recolour(g, c2, k1)
    g[SC + DICE_A] = -1
    g[SC + DICE_B] = -1
    st = new_stamp(g)
    tail = flood_group(g, c1, st, 0)
    tail = flood_group(g, c2, st, tail)
    if tail == 0:
        if g[SC + NPLAYERS] == 1 or g[SC + ROLLED] >= 2:
            end_turn(g, 0)
        else:
            g[SC + PHASE] = SECOND
        return
    pile = CAPT + 8 * g[SC + PLAYER]
    for i in range(tail):
        k = take(g, g[TAKEN + i])
        g[pile + k] += 1
    after_capture(g)


def list_swaps(g, a, b):
    """The legal swaps of a mixed roll ``a``, ``b`` into :data:`SWAPS`; how many."""
    n = g[SC + NPIECES]
    count = 0
    for i in range(n):
        c = g[PIECES + i]
        k = g[COL + c]
        if k != a and k != b:
            continue
        for d in DIRS:
            e = c + d
            j = g[COL + e]
            if j < 0 or j == k:
                continue
            if e < c and (j == a or j == b):  # noqa: SIM109 - no tuple built in compiled code
                continue  # two rolled colours: the pair is met from its lower cell
            g[SWAPS + 2 * count] = c
            g[SWAPS + 2 * count + 1] = e
            count += 1
    return count


def nth_piece(g, colour, same, index):
    """The ``index``-th piece (in piece-list order) whose colour is (``same``) or is not
    ``colour``."""
    n = g[SC + NPIECES]
    for i in range(n):
        c = g[PIECES + i]
        if (g[COL + c] == colour) == (same == 1):
            if index == 0:
                return c
            index -= 1
    return -1


def record(g, trace, plies, kind, x, y):
    if plies < g[SC + TRACE_CAP]:
        trace[3 * plies] = kind
        trace[3 * plies + 1] = x
        trace[3 * plies + 2] = y


def step(g, trace, plies):
    """Play one move of the random policy from the position in ``g``; 0 when the game was
    over, -1 on a position the rules never reach (no swap, no placement), else 1."""
    phase = g[SC + PHASE]
    if phase == ROLL_PHASE:
        a = rand(g, 6)
        b = rand(g, 6)
        while g[COUNTS + a] == 0 and g[COUNTS + b] == 0:
            a = rand(g, 6)
            b = rand(g, 6)
        if a > b:
            a, b = b, a
        record(g, trace, plies, ROLL, a, b)
        g[SC + DICE_A] = a
        g[SC + DICE_B] = b
        g[SC + ROLLED] += 1
        if g[SC + ROLLS_LEFT] > 0:
            g[SC + ROLLS_LEFT] -= 1
        g[SC + PHASE] = SWAP_PHASE
        return 1
    if phase == SWAP_PHASE:
        a = g[SC + DICE_A]
        b = g[SC + DICE_B]
        if a == b:
            mine = g[COUNTS + a]
            others = g[SC + NPIECES] - mine
            if mine == 0 or others == 0:
                return -1
            i = rand(g, mine * others)
            c1 = nth_piece(g, a, 1, i // others)
            c2 = nth_piece(g, a, 0, i % others)
        else:
            n = list_swaps(g, a, b)
            if n == 0:
                return -1
            i = rand(g, n)
            c1 = g[SWAPS + 2 * i]
            c2 = g[SWAPS + 2 * i + 1]
        if c2 < c1:
            c1, c2 = c2, c1
        record(g, trace, plies, SWAP, engine_cell(g, c1), engine_cell(g, c2))
        swap(g, c1, c2)
        return 1
    if phase == SECOND:
        if rand(g, 2) == 0:
            record(g, trace, plies, AGAIN, 0, 0)
            g[SC + PHASE] = ROLL_PHASE
        else:
            record(g, trace, plies, STOP, 0, 0)
            end_turn(g, 0)
        return 1
    if phase == MAIN_PHASE:
        s = g[MAINS + rand(g, g[SC + NMAINS])]
        record(g, trace, plies, MAIN, engine_cell(g, g[SECTLOW + s]), 0)
        choose_main(g, s)
        return 1
    if phase == REFORM:
        option = pick_placement(g)
        if option < 0:
            return -1
        k = option // SIZE
        c = option % SIZE
        record(g, trace, plies, PLACE, k, engine_cell(g, c))
        place(g, k, c)
        left = 0
        for j in range(COLOURS):
            left += g[POOL + j]
        if left == 0:
            end_turn(g, 1)
        return 1
    return 0


def playout(g, trace):
    """Play the position in ``g`` to its end by the random policy; the number of moves (-1 if
    the rules' guarantees failed). ``trace`` (int64, three per move, room for the scalar
    :data:`TRACE_CAP` moves) receives ``kind, x, y`` for each move: the move values of
    :mod:`.notation`, cells packed as the engine packs them."""
    plies = 0
    while True:
        done = step(g, trace, plies)
        if done == 0:
            return plies
        if done < 0 or plies > 100000:
            return -1
        plies += 1


def run_games(g, count, players, gaps, trace):
    """Play ``count`` random complete games from fresh start blocks; the moves played."""
    total = 0
    for _ in range(count):
        new_game(g, players, gaps)
        total += playout(g, trace)
    return total
