"""The layout of the compiled game search's inputs (:mod:`.kernel`): the named bundles of
arrays it takes, the columns and registers it reads, and its limits.  Plain Python, so that a
caller may read the limits without loading numba; the kernel reads these ints as compile-time
constants.

A play to beat is a size code (:data:`SIZE_CODES`: 0 for a free lead, then 1 to 5 for the sizes
1 to 5 and 6 for 13) and a rank: the plays of one size from every hand, ranked by strength from
1, so that a play beats the play to beat exactly when its rank is higher.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import numpy as np

#: The most cards a hand may hold: the fewest plays of every part of a hand are kept in an
#: array of 2**cards entries, and a hand's local bits are one number.
MOST_CARDS = 20
#: Size codes: 0 a free lead, 1 to 5 the sizes 1 to 5, 6 the dragon (13 cards).
SIZE_CODES = 7
# ctl: the search's registers, kept between slices.
SP, PHASE, RET, NODES, TARGET, MODE = range(6)
REGISTERS = 6
ENTER, RETURN = 0, 1
WINS, WITHIN = 0, 1
DONE, PAUSED = 0, 1
# params: the rules and shape of the game.
PLAYERS, PASS_FINAL, BOMBS, LARGEST, DEUCE_RANK = range(5)
#: The most turns a within-search may count (an int16 in the table); "enough" when unknown.
NO_BOUND = 30_000
# Stack.info columns: one frame of the stack (FLOOR: the play to beat's rank in the key).
MOVER, CODE, RANK, BY, PASSED, DEPTH, NMOVES, NEXT, FLOOR = range(9)
FRAME_WIDTH = 9


class GamePlays(NamedTuple):
    """The game's plays, as the kernel reads them: ``params`` (:data:`PLAYERS` ..
    :data:`DEUCE_RANK`); each player's first bit in a key, ``offsets``; per player, the plays
    grouped by size code and by strength within (``pmask`` in local bits, ``pcode``, ``prank``),
    each code's rows ``bstart[code]:bend[code]``; ``lead``, the rows in lead order, ``nplays``
    of them; ``bombs``, the rows of the bombs, ``nbombs`` of them; ``fewest[p, hand]``, the
    fewest plays that empty a local hand."""

    params: np.ndarray
    offsets: np.ndarray
    pmask: np.ndarray
    pcode: np.ndarray
    prank: np.ndarray
    bstart: np.ndarray
    bend: np.ndarray
    lead: np.ndarray
    nplays: np.ndarray
    bombs: np.ndarray
    nbombs: np.ndarray
    fewest: np.ndarray


class Entries(NamedTuple):
    """The transposition entries, one open-addressing table for every target and both
    searches: two keys a slot, and the bounds known (``lo``: most turns known too few; ``hi``:
    fewest known enough, or the value of a forced win)."""

    key1: np.ndarray
    key2: np.ndarray
    lo: np.ndarray
    hi: np.ndarray


class Stack(NamedTuple):
    """The search's frames: the ``hands`` (local bits), the ``info`` columns (:data:`MOVER`
    .. :data:`FLOOR`) and the ``moves`` listed (rows of ``GamePlays``; -1 a pass)."""

    hands: np.ndarray
    info: np.ndarray
    moves: np.ndarray


class Scratch(NamedTuple):
    """Work arrays: the safe plays and the split's stack (:func:`_sure_out`), the sort's keys,
    plays and buckets (:func:`list_moves`)."""

    safe: np.ndarray
    rests: np.ndarray
    nexts: np.ndarray
    keys: np.ndarray
    order: np.ndarray
    counts: np.ndarray
