"""The compiled AND-OR search behind :class:`~handsolver.solver.big2.game.compiled.CompiledSearch`:
the same search as :class:`~handsolver.solver.big2.game.search.GameSearch`, over numpy arrays,
compiled by numba.  Its table keys lower the play to beat as the Python search's do
(:meth:`~handsolver.solver.big2.game.search.GameSearch.key_of`, :func:`_beat_floor`).

Imported only when a search runs (numba takes a while to load), never by a command at start.

Each player's hand is a mask of *local* bits: bit ``j`` is the player's ``j``-th starting card,
so that the fewest plays of every part of a hand fit in one array indexed by the mask.  A play
to beat is a size code and a rank (:mod:`~handsolver.solver.big2.game.kernel_layout`).

The search is iterative, with its stack in arrays, so that it can stop after a number of nodes
and go on where it stopped: the caller checks the clock, shows progress and lets Ctrl-C through
between two slices.  Its inputs are named bundles of arrays, laid out in
:mod:`~handsolver.solver.big2.game.kernel_layout`.  One open-addressing table holds proven
values for every target player and both searches (a forced win, a forced win within some
turns); a full bucket gives up an entry, which only repeats work.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from handsolver.solver.big2.game.kernel_entries import entry_for, find_entry
from handsolver.solver.big2.game.kernel_layout import (
    BOMBS,
    BY,
    CODE,
    DEPTH,
    DEUCE_RANK,
    DONE,
    ENTER,
    FLOOR,
    LARGEST,
    MODE,
    MOST_CARDS,
    MOVER,
    NEXT,
    NMOVES,
    NODES,
    PASS_FINAL,
    PASSED,
    PAUSED,
    PHASE,
    PLAYERS,
    RANK,
    RET,
    RETURN,
    SP,
    TARGET,
    WINS,
    WITHIN,
)


@njit(cache=True)
def fill_fewest(masks, lows, low_start, cards, out):  # type: ignore[no-untyped-def]
    """``out[h]``: the fewest plays that empty the local hand ``h``, for every ``h``.

    A hand's lowest card goes out in one of the plays whose lowest card it is (``lows``,
    indices into ``masks`` grouped by lowest card, ``low_start`` where each card's group
    starts); the rest is a smaller number, already filled."""
    out[0] = 0
    for hand in range(1, 1 << cards):
        low = hand & -hand
        card = 0
        while (1 << card) != low:
            card += 1
        best = 127
        for k in range(low_start[card], low_start[card + 1]):
            mask = masks[lows[k]]
            if mask & hand == mask:
                value = out[hand ^ mask] + 1
                if value < best:
                    best = value
        out[hand] = best


@njit(cache=True, inline="always")
def size_code(size):  # type: ignore[no-untyped-def]
    """The code of a play's size (:data:`SIZE_CODES`)."""
    return size if size <= 5 else 6


@njit(cache=True, inline="always")
def popcount(x):  # type: ignore[no-untyped-def]
    """The bits set in ``x``."""
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True, inline="always")
def _first_above(prank, p, low, high, rank):  # type: ignore[no-untyped-def]
    """The index of player ``p``'s first play in ``low:high`` (one size, weakest first) that is
    ranked above ``rank`` (``high`` for none)."""
    while low < high:
        middle = (low + high) // 2
        if prank[p, middle] > rank:
            high = middle
        else:
            low = middle + 1
    return low


@njit(cache=True)
def _beat_floor(st_hands, st_info, sp, params, pmask, prank, bstart, bend):  # type: ignore[no-untyped-def]
    """The play to beat's rank as the table keeps it (:meth:`GameSearch.key_of`): the rank of
    the strongest play of its size at or below it held by a player who may still reply (0 for
    none), a deuce or above never below the lowest deuce."""
    code = st_info[sp, CODE]
    rank = st_info[sp, RANK]
    if code == 0:
        return rank
    by = st_info[sp, BY]
    passed = st_info[sp, PASSED]
    floor = 0
    if code == 1 and rank >= params[DEUCE_RANK]:
        floor = params[DEUCE_RANK]
    for p in range(params[PLAYERS]):
        if p == by or passed >> p & 1:
            continue
        hand = st_hands[sp, p]
        low = _first_above(prank, p, bstart[p, code], bend[p, code], rank)
        for i in range(low - 1, bstart[p, code] - 1, -1):
            if prank[p, i] <= floor:
                break
            mask = pmask[p, i]
            if mask & hand == mask:
                floor = prank[p, i]
                break
    return floor


@njit(cache=True, inline="always")
def _keys(st_hands, st_info, sp, offsets, players, target, mode, floor):  # type: ignore[no-untyped-def]
    """The frame's state as two table keys: every hand, then the rest (with the play to beat's
    rank as ``floor``, from :func:`_beat_floor`) with the target and which search the value
    belongs to."""
    key1 = 0
    for p in range(players):
        key1 |= st_hands[sp, p] << offsets[p]
    key2 = (
        st_info[sp, MOVER]
        | (st_info[sp, BY] + 1) << 2
        | st_info[sp, PASSED] << 5
        | st_info[sp, CODE] << 9
        | floor << 12
        | target << 30
        | mode << 32
    )
    return key1, key2


@njit(cache=True)
def _splits(hand, safe, count, fewest_row, rests, nexts):  # type: ignore[no-untyped-def]
    """Whether ``hand`` splits into plays of ``safe[:count]``, each used once, and perhaps one
    last play of any kind (depth first, with the stack in ``rests`` and ``nexts``)."""
    if fewest_row[hand] == 1:
        return True
    depth = 0
    rests[0] = hand
    nexts[0] = 0
    while depth >= 0:
        rest = rests[depth]
        index = nexts[depth]
        pushed = False
        while index < count:
            mask = safe[index]
            index += 1
            if mask & rest == mask:
                after = rest ^ mask
                if after == 0 or fewest_row[after] == 1:
                    return True
                nexts[depth] = index
                depth += 1
                rests[depth] = after
                nexts[depth] = index
                pushed = True
                break
        if not pushed:
            depth -= 1
    return False


@njit(cache=True)
def _sure_out(  # type: ignore[no-untyped-def]
    hands, leader, params, pmask, prank, bstart, bend, bombs, nbombs, fewest, safe, rests, nexts
):
    """Whether the leader splits the hand into plays nobody else can beat, except perhaps the
    last (:meth:`GameSearch.sure_out`)."""
    players = params[PLAYERS]
    hand = hands[leader]
    if fewest[leader, hand] == 1:
        return True
    held = False
    if params[BOMBS]:
        for q in range(players):
            if q != leader:
                for k in range(nbombs[q]):
                    mask = pmask[q, bombs[q, k]]
                    if mask & hands[q] == mask:
                        held = True
                        break
    covered = 0
    count = 0
    for code in range(6, 0, -1):
        start, end = bstart[leader, code], bend[leader, code]
        if start == end:
            continue
        best = 0
        for q in range(players):
            if q == leader:
                continue
            other = hands[q]
            for i in range(bend[q, code] - 1, bstart[q, code] - 1, -1):
                mask = pmask[q, i]
                if mask & other == mask:
                    if prank[q, i] > best:
                        best = prank[q, i]
                    break
        for i in range(start, end):
            rank = prank[leader, i]
            if rank > best:
                mask = pmask[leader, i]
                if mask & hand == mask and not (held and code == 1 and rank >= params[DEUCE_RANK]):
                    safe[count] = mask
                    count += 1
                    covered |= mask
    if count == 0 or popcount(hand & ~covered) > params[LARGEST]:
        return False
    return _splits(hand, safe, count, fewest[leader], rests, nexts)


@njit(cache=True)
def list_moves(  # type: ignore[no-untyped-def]
    sp,
    st_hands,
    st_info,
    st_moves,
    params,
    pmask,
    pcode,
    prank,
    bstart,
    bend,
    lead,
    nplays,
    bombs,
    nbombs,
    fewest,
    keys,
    order,
    counts,
):
    """The frame's moves in search order into ``st_moves[sp]`` (:meth:`GameSearch.moves`):
    by the fewest plays left, larger plays first among equals, then the listing order (leads
    big and low first, replies low first); a pass (-1) last where allowed.  The arrays are
    those of the bundles of :mod:`~handsolver.solver.big2.game.kernel_layout`, passed one by
    one: numba counts a reference for every array a call takes, and this is every node's call."""
    mover = st_info[sp, MOVER]
    code = st_info[sp, CODE]
    rank = st_info[sp, RANK]
    hand = st_hands[sp, mover]
    row = fewest[mover]
    n = 0
    if code == 0:
        for j in range(nplays[mover]):
            i = lead[mover, j]
            mask = pmask[mover, i]
            if mask & hand == mask:
                order[n] = i
                keys[n] = row[hand ^ mask] * 8 + 6 - pcode[mover, i]
                n += 1
    else:
        low = _first_above(prank, mover, bstart[mover, code], bend[mover, code], rank)
        for i in range(low, bend[mover, code]):
            mask = pmask[mover, i]
            if mask & hand == mask:
                order[n] = i
                keys[n] = row[hand ^ mask] * 8 + 6 - code
                n += 1
        if params[BOMBS] and code == 1 and rank >= params[DEUCE_RANK]:
            for k in range(nbombs[mover]):
                i = bombs[mover, k]
                mask = pmask[mover, i]
                if mask & hand == mask:
                    order[n] = i
                    keys[n] = row[hand ^ mask] * 8 + 6 - pcode[mover, i]
                    n += 1
    # A stable sort by key: counting for long lists, insertion for short ones.
    if n > 16:
        counts[:] = 0
        for k in range(n):
            counts[keys[k] + 1] += 1
        for key in range(1, counts.shape[0]):
            counts[key] += counts[key - 1]
        for k in range(n):
            st_moves[sp, counts[keys[k]]] = order[k]
            counts[keys[k]] += 1
    else:
        for k in range(n):
            key, play = keys[k], order[k]
            j = k
            while j > 0 and keys[j - 1] > key:
                keys[j] = keys[j - 1]
                st_moves[sp, j] = st_moves[sp, j - 1]
                j -= 1
            keys[j] = key
            st_moves[sp, j] = play
    if code:
        st_moves[sp, n] = -1
        n += 1
    st_info[sp, NMOVES] = n
    st_info[sp, NEXT] = 0


@njit(cache=True)
def play(sp, k, st_hands, st_info, st_moves, params, pmask, pcode, prank):  # type: ignore[no-untyped-def]
    """Write the state after the frame's ``k``-th move to frame ``sp + 1``
    (:meth:`GameSearch.after`); the mover's number when the move empties the hand, else -1."""
    players = params[PLAYERS]
    mover = st_info[sp, MOVER]
    passed = st_info[sp, PASSED]
    by = st_info[sp, BY]
    move = st_moves[sp, k]
    child = sp + 1
    for p in range(players):
        st_hands[child, p] = st_hands[sp, p]
    st_info[child, DEPTH] = st_info[sp, DEPTH] - 1
    if move >= 0:
        rest = st_hands[sp, mover] ^ pmask[mover, move]
        if rest == 0:
            return mover
        st_hands[child, mover] = rest
        after = (mover + 1) % players
        while passed >> after & 1:
            after = (after + 1) % players
        if after == mover:
            _set(st_info, child, mover, 0, 0, -1, 0)
        else:
            _set(st_info, child, after, pcode[mover, move], prank[mover, move], mover, passed)
        return -1
    if params[PASS_FINAL]:
        passed |= 1 << mover
    after = (mover + 1) % players
    while passed >> after & 1:
        after = (after + 1) % players
    if after == by:
        _set(st_info, child, by, 0, 0, -1, 0)
    else:
        _set(st_info, child, after, st_info[sp, CODE], st_info[sp, RANK], by, passed)
    return -1


@njit(cache=True, inline="always")
def _set(st_info, frame, mover, code, rank, by, passed):  # type: ignore[no-untyped-def]
    st_info[frame, MOVER] = mover
    st_info[frame, CODE] = code
    st_info[frame, RANK] = rank
    st_info[frame, BY] = by
    st_info[frame, PASSED] = passed


@njit(cache=True)
def search(plays, entries, stack, ctl, limit, scratch):  # type: ignore[no-untyped-def]
    """Run the search held in ``stack`` and ``ctl`` until it is proven (:data:`DONE`, the
    value in ``ctl[RET]``) or ``ctl[NODES]`` reaches ``limit`` (:data:`PAUSED`: call again to
    go on); ``plays`` a :class:`GamePlays`, ``entries`` the :class:`Entries`, ``scratch`` the
    :class:`Scratch`.

    ``ctl[MODE]`` :data:`WINS` is :meth:`GameSearch.wins`; :data:`WITHIN` is
    :meth:`GameSearch.wins_within`, with the turns left in each frame's ``DEPTH``."""
    params, offsets, pmask, pcode, prank = (
        plays.params, plays.offsets, plays.pmask, plays.pcode, plays.prank
    )  # fmt: skip
    bstart, bend, lead, nplays = plays.bstart, plays.bend, plays.lead, plays.nplays
    bombs, nbombs, fewest = plays.bombs, plays.nbombs, plays.fewest
    t_key1, t_key2, t_lo, t_hi = entries.key1, entries.key2, entries.lo, entries.hi
    st_hands, st_info, st_moves = stack.hands, stack.info, stack.moves
    safe, rests, nexts = scratch.safe, scratch.rests, scratch.nexts
    keys, order, counts = scratch.keys, scratch.order, scratch.counts
    players = params[PLAYERS]
    target = ctl[TARGET]
    mode = ctl[MODE]
    sp, phase, ret, nodes = ctl[SP], ctl[PHASE], ctl[RET], ctl[NODES]
    status = DONE
    while True:
        mover = st_info[sp, MOVER]
        ours = 1 if mover == target else 0
        resolved = -1
        if phase == ENTER:
            floor = _beat_floor(st_hands, st_info, sp, params, pmask, prank, bstart, bend)
            st_info[sp, FLOOR] = floor
            key1, key2 = _keys(st_hands, st_info, sp, offsets, players, target, mode, floor)
            known = -1
            if mode == WINS:
                slot = find_entry(t_key1, t_key2, key1, key2)
                if slot >= 0:
                    known = t_hi[slot]
            else:
                depth = st_info[sp, DEPTH]
                if depth <= 0:
                    known = 0
                else:
                    slot = find_entry(t_key1, t_key2, key1, key2)
                    if slot >= 0:
                        if depth <= t_lo[slot]:
                            known = 0
                        elif depth >= t_hi[slot]:
                            known = 1
                if known < 0:
                    needed = fewest[target, st_hands[sp, target]]
                    if params[PASS_FINAL]:
                        least = needed + (1 if mover != target else 0)
                    else:
                        least = (needed - 1) * players + 1 + (target - mover) % players
                    if least > depth:
                        known = 0
                if known < 0:
                    # Where the target cannot force going out at all, nor can it within a bound;
                    # with two players, a position the other can force is lost for the target.
                    slot = find_entry(t_key1, t_key2, key1, key2 ^ WITHIN << 32)
                    if slot >= 0 and t_hi[slot] == 0:
                        known = 0
                    elif players == 2:
                        rival = key2 ^ WITHIN << 32 ^ target << 30 ^ (1 - target) << 30
                        slot = find_entry(t_key1, t_key2, key1, rival)
                        if slot >= 0 and t_hi[slot] == 1:
                            known = 0
            if known >= 0:
                ret = known
                sp -= 1
                phase = RETURN
                if sp < 0:
                    break
                continue
            if nodes >= limit:
                status = PAUSED
                break
            nodes += 1
            if (
                mode == WINS
                and st_info[sp, CODE] == 0
                and _sure_out(
                    st_hands[sp],
                    mover,
                    params,
                    pmask,
                    prank,
                    bstart,
                    bend,
                    bombs,
                    nbombs,
                    fewest,
                    safe,
                    rests,
                    nexts,
                )
            ):
                resolved = ours
            else:
                list_moves(
                    sp,
                    st_hands,
                    st_info,
                    st_moves,
                    params,
                    pmask,
                    pcode,
                    prank,
                    bstart,
                    bend,
                    lead,
                    nplays,
                    bombs,
                    nbombs,
                    fewest,
                    keys,
                    order,
                    counts,
                )
        elif ret == ours:
            resolved = ours
        if resolved < 0:
            pushed = False
            while True:
                k = st_info[sp, NEXT]
                if k == st_info[sp, NMOVES]:
                    resolved = 1 - ours
                    break
                st_info[sp, NEXT] = k + 1
                winner = play(sp, k, st_hands, st_info, st_moves, params, pmask, pcode, prank)
                if winner < 0:
                    pushed = True
                    break
                if (1 if winner == target else 0) == ours:
                    resolved = ours
                    break
            if pushed:
                sp += 1
                phase = ENTER
                continue
        key1, key2 = _keys(
            st_hands, st_info, sp, offsets, players, target, mode, st_info[sp, FLOOR]
        )
        slot = entry_for(t_key1, t_key2, t_lo, t_hi, key1, key2)
        if mode == WINS:
            t_hi[slot] = resolved
        else:
            depth = st_info[sp, DEPTH]
            if resolved:
                t_hi[slot] = min(t_hi[slot], depth)
            else:
                t_lo[slot] = max(t_lo[slot], depth)
        ret = resolved
        sp -= 1
        phase = RETURN
        if sp < 0:
            break
    ctl[SP], ctl[PHASE], ctl[RET], ctl[NODES] = sp, phase, ret, nodes
    return status


def new_counts() -> np.ndarray:
    """The counting sort's buckets: a key is at most :data:`MOST_CARDS` plays times 8 plus 6."""
    return np.zeros(8 * (MOST_CARDS + 2), dtype=np.int64)
