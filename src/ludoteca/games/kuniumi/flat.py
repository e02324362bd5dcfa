"""Kuniumi's hot bitboard functions, written once as plain functions over integers.

The engine calls them as ordinary Python; :mod:`.jit` compiles these very functions with
numba (same code objects, see :func:`.jit.compiled`), so the rules that matter for speed
have one source of truth. That is why the code below keeps to what both worlds agree on:
non-negative integers that stay well inside 63 bits (every board is masked to 36 bits, the
random generator to 32), module-level integer constants, no Python objects, and no calls
except to other functions of this module.

Board layout: bit ``6 * rank + file`` with rank 0 = rank 1 and file 0 = file ``a``; so bit 0
is a1, bit 5 is f1 and bit 35 is f6. A side's board holds its tokens *and* its God, because a
God belongs to the group of its own tokens it touches.

Actions (a fixed integer action space, handy for learning adapters):
``kind * 36 + square`` places a setup piece (kinds: 0 Earth God, 1 Sea God, 2 Land token,
3 Sea token); ``CHOOSE + side`` is the second player's choice (0 land, 1 sea);
``MOVE + 36 * origin + destination`` moves the God of the side to move.
"""

from __future__ import annotations

from ludoteca.core.xorshift import rng_next
from ludoteca.core.xorshift import rng_seed as rng_seed  # the kernel draws with it too

SQUARES = 36
FULL = (1 << 36) - 1
FILE_A = 0x041041041  # bits 0, 6, ..., 30
FILE_F = FILE_A << 5
RANK_1 = 0x3F
NOT_A = FULL & ~FILE_A
NOT_F = FULL & ~FILE_F
NOT_AB = FULL & ~(FILE_A | (FILE_A << 1))
NOT_ABCD = FULL & ~(FILE_A | (FILE_A << 1) | (FILE_A << 2) | (FILE_A << 3))

LAND = 0
SEA = 1
NO_SIDE = -1

# phases, as the position text names them
SETUP = 0
CHOOSE_PHASE = 1
PLAY = 2

# setup piece kinds, and the fixed placement order (rules: E, S, l, l, s, s)
EARTH_GOD = 0
SEA_GOD = 1
LAND_TOKEN = 2
SEA_TOKEN = 3
SETUP_PIECES = 6

# action space
CHOOSE = 4 * SQUARES  # 144: choose land, 145: choose sea
MOVE = CHOOSE + 2  # 146 + 36 * origin + destination
NUM_ACTIONS = MOVE + SQUARES * SQUARES

# outcome codes of :func:`outcome` (by side) and :func:`playout` (by player)
NOT_OVER = -2
DRAW = -1
OVER_BASE = -3
""":func:`after_god_move` returns ``OVER_BASE + outcome`` when the move ended the game."""


# --- geometry ---------------------------------------------------------------------------------
def neighbours(x: int) -> int:
    """Every square orthogonally adjacent to a square of ``x`` (edges do not wrap)."""
    return ((x & NOT_F) << 1) | ((x & NOT_A) >> 1) | ((x << 6) & FULL) | (x >> 6)


def fill(seed: int, within: int) -> int:
    """The squares of ``within`` orthogonally connected (inside ``within``) to ``seed``."""
    f = seed & within
    while True:  # neighbours(f), written out: this loop is the engine's hottest
        g = f | ((((f & NOT_F) << 1) | ((f & NOT_A) >> 1) | ((f << 6) & FULL) | (f >> 6)) & within)
        if g == f:
            return f
        f = g


def popcount(x: int) -> int:
    """Number of set bits of a board (36 bits): SWAR, exact for both ints and int64."""
    x = x - ((x >> 1) & 0x555555555555)
    x = (x & 0x333333333333) + ((x >> 2) & 0x333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


def square_of(bit: int) -> int:
    """Index of the lowest set bit (``bit`` is usually a single square)."""
    return popcount((bit & -bit) - 1)


def nth_square(x: int, k: int) -> int:
    """The bit of the ``k``-th (from 0, lowest first) set square of ``x``."""
    while k > 0:
        x &= x - 1
        k -= 1
    return x & -x


def lines_of(group: int) -> int:
    """Every square in a row or a column holding a square of ``group``.

    Rows: smear each row's bits down to file a, then multiply that file-a bit back across the
    row. Columns: smear down to rank 1, then multiply across the column. No carries occur,
    because the bits being multiplied are six apart.
    """
    r = group | ((group & NOT_A) >> 1)
    r = r | ((r & NOT_AB) >> 2)
    r = r | ((r & NOT_ABCD) >> 4)
    rows = (r & FILE_A) * RANK_1
    c = group | (group >> 6)
    c = c | (c >> 12)
    c = c | (c >> 24)
    cols = (c & RANK_1) * FILE_A
    return rows | cols


# --- groups -----------------------------------------------------------------------------------
def closed_pieces(mine: int, empty: int) -> int:
    """The pieces of ``mine`` that lie in closed groups: groups touching no empty square."""
    return mine & ~fill(neighbours(empty) & mine, mine)


def largest_group(x: int) -> int:
    """The size of the largest connected group within ``x`` (0 for an empty board)."""
    best = 0
    while x:
        g = fill(x & -x, x)
        n = popcount(g)
        if n > best:
            best = n
        x &= ~g
    return best


def outcome(land: int, sea: int) -> int:
    """Who a board's closed groups make the winner: ``LAND``, ``SEA``, ``DRAW``, or ``NOT_OVER``.

    One side with closed groups wins; with both, the larger largest closed group wins and
    equal sizes draw (rules, **Decision**).
    """
    empty = FULL & ~(land | sea)
    cl = closed_pieces(land, empty)
    cs = closed_pieces(sea, empty)
    if cl == 0 and cs == 0:
        return NOT_OVER
    if cs == 0:
        return LAND
    if cl == 0:
        return SEA
    gl = largest_group(cl)
    gs = largest_group(cs)
    if gl > gs:
        return LAND
    if gs > gl:
        return SEA
    return DRAW


def outcome_after(land: int, sea: int, placed: int) -> int:
    """:func:`outcome` of a board that held no closed group before square ``placed`` was filled.

    Filling one square can only close a group that touches it: its own side's group through
    it, or a group of either side next to it. Every other group keeps the empty neighbours
    it had. An occupied square there that still touches an empty square keeps its group
    open; only the groups of the others are flooded, and only when one of them is closed
    is the board worked out in full. Same answer as :func:`outcome`, in a few operations on
    most moves.
    """
    empty = FULL & ~(land | sea)
    near = (
        ((placed & NOT_F) << 1) | ((placed & NOT_A) >> 1) | ((placed << 6) & FULL) | (placed >> 6)
    )
    open_ = ((empty & NOT_F) << 1) | ((empty & NOT_A) >> 1) | ((empty << 6) & FULL) | (empty >> 6)
    risky = (placed | near) & ~empty & ~open_  # neighbours() written out, as in fill()
    while risky:  # a touched piece with no empty neighbour: is its whole group closed?
        sq = risky & -risky
        group = fill(sq, land) if land & sq else fill(sq, sea)
        if neighbours(group) & empty == 0:
            return outcome(land, sea)
        risky &= ~group
    return NOT_OVER


def after_god_move(land: int, sea: int, placed: int, god: int, mine: int) -> int:
    """After a God move filled square ``placed`` on a board with no closed group: where the
    side to move now may send its God (``god``, its pieces ``mine``), as a board; or, when
    the move closed a group, ``OVER_BASE + outcome`` (:func:`outcome`'s code, so a negative
    number). One call for the engine's hottest step, so that compiled it costs one call."""
    won = outcome_after(land, sea, placed)
    if won != NOT_OVER:
        return OVER_BASE + won
    return lines_of(fill(god, mine)) & ~(land | sea)


# --- setup and moves --------------------------------------------------------------------------
def setup_kind(placed: int) -> int:
    """The kind of the next setup piece after ``placed`` pieces (order E, S, l, l, s, s)."""
    if placed == 0:
        return EARTH_GOD
    if placed == 1:
        return SEA_GOD
    if placed < 4:
        return LAND_TOKEN
    return SEA_TOKEN


def kind_side(kind: int) -> int:
    """The side a setup piece kind belongs to: kinds alternate land (even), sea (odd)."""
    return kind % 2


def setup_targets(land: int, sea: int, kind: int) -> int:
    """Squares where the setup piece ``kind`` may go: empty, and leaving no closed group.

    Set-up boards never hold a closed group (the ban itself sees to it), so only a group
    touching the new piece can close. The piece is surely allowed when it keeps an empty
    neighbour of its own and no piece next to it has that square as its *only* empty
    neighbour: every touched group then stays open. Those squares are found for the whole
    board at once (a square lying away from every piece is one of them); only the rest are
    tried one by one.
    """
    occupied = land | sea
    empty = FULL & ~occupied
    side = kind_side(kind)
    # the four directions of neighbours(empty), kept apart to tell one empty neighbour from two
    a = (empty & NOT_F) << 1
    b = (empty & NOT_A) >> 1
    c = (empty << 6) & FULL
    d = empty >> 6
    two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    last_breath = occupied & (a | b | c | d) & ~two
    targets = empty & (a | b | c | d) & ~neighbours(last_breath)
    e = empty & ~targets
    while e:
        sq = e & -e
        e &= e - 1
        nl = land
        ns = sea
        if side == LAND:
            nl = land | sq
        else:
            ns = sea | sq
        if outcome_after(nl, ns, sq) == NOT_OVER:
            targets |= sq
    return targets


def god_targets(god: int, mine: int, occupied: int) -> int:
    """Free squares in a row or column of the God's whole group (lines are not blocked)."""
    return lines_of(fill(god, mine)) & ~occupied & FULL


# --- a seeded random generator both worlds compute identically: :mod:`ludoteca.core.xorshift`
def pick_index(s: int, n: int) -> int:
    """An index in ``range(n)`` from generator state ``s``, using its high bits."""
    return (s * n) >> 32


# --- what a search learns across moves ----------------------------------------------------------
AMAF_SIZE = MOVE + SQUARES
"""The number of :func:`amaf_index` values."""


def amaf_index(action: int) -> int:
    """The action as "all moves as first" statistics know it: a God move by the square it
    fills (the same square filled from another origin counts alike), any other as itself."""
    if action < MOVE:
        return action
    return MOVE + (action - MOVE) % SQUARES


# --- playout policies -------------------------------------------------------------------------
UNIFORM = 0
"""Playout policy: every God destination alike (that of the C speed limit)."""
DECISIVE = 1
"""Playout policy: a move that wins at once is played, moves that end the game otherwise
(a loss or a draw) only when nothing else is left; the rest alike."""
WARY = 2
"""Playout policy: :data:`DECISIVE`, and among the moves that do not end the game, those
after which the opponent cannot win at once are preferred."""


def policy_targets(
    land: int, sea: int, earth_god: int, sea_god: int, side: int, policy: int
) -> int:
    """The God destinations a playout of ``policy`` draws from (uniformly), for ``side`` to
    move: every target (:data:`UNIFORM`); else one winning square if there is one, else the
    squares that do not end the game (with :data:`WARY`, those of them that leave the
    opponent no winning reply, where there are any), else every target."""
    occupied = land | sea
    if side == LAND:
        targets = god_targets(earth_god, land, occupied)
    else:
        targets = god_targets(sea_god, sea, occupied)
    if policy == UNIFORM or targets == 0:
        return targets
    best, rest = first_look(land, sea, side, targets)
    if best == 1:
        return rest  # the winning square
    if rest == 0:
        return targets
    if policy != WARY:
        return rest
    safe = 0
    t = rest
    while t:
        to = t & -t
        t &= t - 1
        if side == LAND:
            nl = land | to
            replies = god_targets(sea_god, sea, nl | sea)
            best, _ = first_look(nl, sea, SEA, replies)
        else:
            ns = sea | to
            replies = god_targets(earth_god, land, land | ns)
            best, _ = first_look(land, ns, LAND, replies)
        if best != 1:
            safe |= to
    if safe == 0:
        return rest
    return safe


# --- one random game --------------------------------------------------------------------------
def playout(
    land: int,
    sea: int,
    earth_god: int,
    sea_god: int,
    phase: int,
    first: int,
    side: int,
    s: int,
    trace,
    policy: int = UNIFORM,
) -> tuple[int, int, int]:
    """Play random moves to the end from the given position.

    The policy is that of the C speed limit: uniform over legal setup placements, over the
    two sides at the choice, and over God destinations; with another ``policy``, uniform
    over the God destinations :func:`policy_targets` keeps. ``first`` is the first player's
    side (ignored before the choice), ``side`` the side to move in play; gods are single-bit
    boards (0 while not yet placed). Each action is written to ``trace`` (an int64 array of
    at least 40 entries). Returns ``(winner, plies, s)``: the winning *player* (0 first,
    1 second) or ``DRAW``, the number of actions played, and the generator state after.
    """
    plies = 0
    if phase == SETUP:
        placed = popcount(land | sea)
        while placed < SETUP_PIECES:
            kind = setup_kind(placed)
            targets = setup_targets(land, sea, kind)
            if targets == 0:  # cannot happen on a 6x6 board; the rule says: no move loses
                return 1, plies, s
            s = rng_next(s)
            b = nth_square(targets, pick_index(s, popcount(targets)))
            if kind_side(kind) == LAND:
                land |= b
            else:
                sea |= b
            if kind == EARTH_GOD:
                earth_god = b
            elif kind == SEA_GOD:
                sea_god = b
            trace[plies] = kind * SQUARES + square_of(b)
            plies += 1
            placed += 1
        phase = CHOOSE_PHASE
    if phase == CHOOSE_PHASE:
        s = rng_next(s)
        chosen = pick_index(s, 2)
        trace[plies] = CHOOSE + chosen
        plies += 1
        first = 1 - chosen
        side = first
    while True:
        occupied = land | sea
        if side == LAND:
            god = earth_god
            mine = land
        else:
            god = sea_god
            mine = sea
        if policy == UNIFORM:
            targets = god_targets(god, mine, occupied)
        else:
            targets = policy_targets(land, sea, earth_god, sea_god, side, policy)
        if targets == 0:  # the player to move has no legal move: that player loses
            if side == first:
                return 1, plies, s
            return 0, plies, s
        s = rng_next(s)
        to = nth_square(targets, pick_index(s, popcount(targets)))
        trace[plies] = MOVE + SQUARES * square_of(god) + square_of(to)
        plies += 1
        if side == LAND:
            land |= to
            earth_god = to
        else:
            sea |= to
            sea_god = to
        won = outcome_after(land, sea, to)
        if won != NOT_OVER:
            if won == DRAW:
                return DRAW, plies, s
            if won == first:
                return 0, plies, s
            return 1, plies, s
        side = 1 - side


def run_games(s: int, count: int, trace) -> tuple[int, int]:
    """Play ``count`` random complete games from the empty board; ``(plies, s)``."""
    plies = 0
    for _ in range(count):
        result = playout(0, 0, 0, 0, SETUP, NO_SIDE, NO_SIDE, s, trace)
        plies += result[1]
        s = result[2]
    return plies, s


# --- exact endgame solver ---------------------------------------------------------------------
UNKNOWN = 9
"""What :func:`solve` returns when its work limit ran out before the value was known."""


def empty_count(land: int, sea: int) -> int:
    """How many squares are still empty."""
    return SQUARES - popcount(land | sea)


def tt_index(a: int, b: int, mask: int) -> int:
    """A slot of the transposition table for the key ``(a, b)`` (both below 2**48)."""
    h = a ^ (b << 7) ^ (b >> 11) ^ (a >> 23)
    h ^= h >> 19
    h ^= (h >> 5) & 0xFFFFFFFF
    return h & mask


def first_look(land: int, sea: int, side: int, targets: int) -> tuple[int, int]:
    """How the God moves to ``targets`` end the game at once: ``(best, rest)``, the best
    value among the moves that end it for ``side`` (1 as soon as one wins, -2 if none
    ends it) and the squares of the moves that do not; once a win is found, ``rest`` is its
    square alone, which a playout plays, and :func:`solve`, whose windows never reach past
    a win, does not search."""
    best = -2
    rest = 0
    t = targets
    while t:
        to = t & -t
        t &= t - 1
        if side == LAND:
            won = outcome_after(land | to, sea, to)
        else:
            won = outcome_after(land, sea | to, to)
        if won == NOT_OVER:
            rest |= to
        elif won == side:
            return 1, to
        elif won == DRAW:
            if best < 0:
                best = 0
        elif best < -1:
            best = -1
    return best, rest


def bound_entry(best: int, alpha: int, beta: int, lo: int, hi: int) -> int:
    """The table entry after a fail-soft search of window ``(alpha, beta)`` returned
    ``best`` in a position the table knew to lie in ``[lo, hi]``: the bounds, packed."""
    if best <= alpha:
        if best < hi:
            hi = best
    elif best >= beta:
        if best > lo:
            lo = best
    else:
        lo = best
        hi = best
    return (lo + 1) | ((hi + 1) << 2)


def push_child(stack, f: int, to: int, alpha: int, beta: int) -> None:
    """Write the frame after :func:`solve`'s frame at ``f``: its mover's God gone to
    ``to``, the other side to move, searched with the window ``(alpha, beta)``."""
    g = f + FRAME
    land = stack[f]
    sea = stack[f + 1]
    if stack[f + 4] == LAND:
        stack[g] = land | to
        stack[g + 1] = sea
        stack[g + 2] = to
        stack[g + 3] = stack[f + 3]
        stack[g + 4] = SEA
    else:
        stack[g] = land
        stack[g + 1] = sea | to
        stack[g + 2] = stack[f + 2]
        stack[g + 3] = to
        stack[g + 4] = LAND
    stack[g + 5] = alpha
    stack[g + 6] = beta


FRAME = 16
"""Fields of one ply in :func:`solve`'s stack (see there)."""
SOLVE_STACK = FRAME * (SQUARES + 2)
"""The length of the stack array :func:`solve` needs: a frame per empty square, and one."""


def solve(
    land: int,
    sea: int,
    earth_god: int,
    sea_god: int,
    side: int,
    tt_a,
    tt_b,
    tt_v,
    work,
    stack,
) -> int:
    """The exact value of a play position for ``side``, to move: 1 win, 0 draw, -1 loss.

    Negamax with alpha-beta (fail-soft) over the God moves, every move's immediate end
    checked first (a winning move is taken at once, moves that end the game are not searched
    below). It is written as a loop over an explicit ``stack`` (an int64 array of
    :data:`SOLVE_STACK`), not as recursion, which numba's on-disk cache does not keep
    reliably. ``tt_a``, ``tt_b``, ``tt_v`` (int64 arrays of one power-of-two length) are a
    transposition table of bounds kept by the caller, so solving many positions of one game
    shares the work. ``work`` is an int64 array ``[nodes so far, node limit]``: past the
    limit the search gives up and returns :data:`UNKNOWN` (nothing uncertain is stored).

    Frame fields: 0 land, 1 sea, 2 Earth God, 3 Sea God, 4 side, 5 alpha and 6 beta as
    searched, 7 the running alpha, 8 best so far, 9 moves left, 10 table slot, 11 and 12 the
    table key, 13 and 14 the bounds the table held.
    """
    mask = len(tt_a) - 1
    d = 0
    stack[0] = land
    stack[1] = sea
    stack[2] = earth_god
    stack[3] = sea_god
    stack[4] = side
    stack[5] = -1
    stack[6] = 1
    entering = True
    result = 0
    while True:
        f = d * FRAME
        if entering:
            work[0] += 1
            if work[0] > work[1]:
                return UNKNOWN
            land = stack[f]
            sea = stack[f + 1]
            earth_god = stack[f + 2]
            sea_god = stack[f + 3]
            side = stack[f + 4]
            alpha = stack[f + 5]
            beta = stack[f + 6]
            occupied = land | sea
            if side == LAND:
                targets = god_targets(earth_god, land, occupied)
            else:
                targets = god_targets(sea_god, sea, occupied)
            finished = False
            best = -2
            rest = 0
            lo = -1
            hi = 1
            key_a = land | (square_of(earth_god) << 36) | (square_of(sea_god) << 42)
            key_b = sea | (side << 36) | (1 << 40)
            slot = tt_index(key_a, key_b, mask)
            if targets == 0:  # cannot happen in play (a God without a move is closed in)
                result = -1
                finished = True
            elif tt_a[slot] == key_a and tt_b[slot] == key_b:
                entry = tt_v[slot]
                lo = (entry & 3) - 1
                hi = ((entry >> 2) & 3) - 1
                if lo >= beta or lo == hi:
                    result = lo
                    finished = True
                elif hi <= alpha:
                    result = hi
                    finished = True
                else:
                    if lo > alpha:
                        alpha = lo
                    if hi < beta:
                        beta = hi
            if not finished:
                best, rest = first_look(land, sea, side, targets)
                a = alpha
                if best > a:
                    a = best
                stack[f + 5] = alpha
                stack[f + 6] = beta
                stack[f + 7] = a
                stack[f + 10] = slot
                stack[f + 11] = key_a
                stack[f + 12] = key_b
                stack[f + 13] = lo
                stack[f + 14] = hi
        else:
            finished = False
            best = stack[f + 8]
            rest = stack[f + 9]
            a = stack[f + 7]
            beta = stack[f + 6]
            v = -result
            if v > best:
                best = v
                if v > a:
                    a = v
                    stack[f + 7] = a
        if not finished:
            if rest and a < beta:  # search the next move
                to = rest & -rest
                rest &= rest - 1
                stack[f + 8] = best
                stack[f + 9] = rest
                push_child(stack, f, to, -beta, -a)
                d += 1
                entering = True
                continue
            # every move searched (or a cut): store the bound proved, merged with the table's
            slot = stack[f + 10]
            tt_a[slot] = stack[f + 11]
            tt_b[slot] = stack[f + 12]
            tt_v[slot] = bound_entry(best, stack[f + 5], beta, stack[f + 13], stack[f + 14])
            result = best
        if d == 0:
            return result
        d -= 1
        entering = False
