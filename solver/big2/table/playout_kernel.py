"""The playouts and the line search of :mod:`.playout` and :mod:`.line_search`, over numpy
arrays, compiled by numba: the same moves in the same order, so the same answers.

Imported only when the advisor runs (numba takes a while to load), never by a command at start.

A deal's plays (:class:`~handsolver.solver.big2.table.playout_compiled.CompiledDeal`) are one tuple
of arrays, ``deal``: for each seat, its starting hand's plays in lead order (most cards first,
then lowest first) as rows of ``masks`` (0), ``sizes`` (1) and ``strengths`` (2), ``counts``
(3) of them; ``replies`` (4), by seat and size code (1 to 5 for sizes 1 to 5, 6 for 13), the
plays of one size by strength, ``n_replies`` (5) of them; ``bombs`` (6), the plays that beat a
single two where the rules have bombs, by strength, ``n_bombs`` (7) of them.  A state is the
hands (a row of masks) and ``meta``, ``(mover, size, strength, by, passed)``; a policy is 0
(greedy) or 1 (shed).

Positions the line search refutes go into ``refuted``, an open-addressing set of states (rows
of hands, one packed number a slot, and the count of states in it), which the caller keeps
across searches and grows before it is half full, so nothing is ever dropped and the search's
node counts are the Python search's.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from handsolver.solver.big2.game.kernel import popcount, size_code
from handsolver.solver.big2.game.plays import DEUCE_KEY
from handsolver.solver.big2.table.playout import BREAK_AT, DANGER_AT  # constants to numba

GREEDY, SHED = 0, 1
MAX_DEPTH = 64
"""More of one seat's turns than a line can hold: between two of them a card is played."""
# A line search's answers.
LOST, WON, OUT_OF_NODES = 0, 1, 2
_MIX = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def _fewest_of_others(hands, seat):  # type: ignore[no-untyped-def]
    """The fewest cards a seat other than ``seat`` holds."""
    fewest = 64
    for other in range(hands.shape[0]):
        if other != seat:
            fewest = min(fewest, popcount(hands[other]))
    return fewest


@njit(cache=True, inline="always")
def _keeps_groups(mask, hand):  # type: ignore[no-untyped-def]
    """Whether every rank ``mask`` uses goes out whole from ``hand``."""
    while mask:
        nibble = mask & 15
        if nibble and hand & 15 != nibble:
            return False
        mask >>= 4
        hand >>= 4
    return True


@njit(cache=True)
def _beating(deal, s, hand, size, strength, out):  # type: ignore[no-untyped-def]
    """Fill ``out`` with the plays (indices) inside ``hand`` that beat (size, strength), lowest
    first, bombs last; their number."""
    d_masks, d_strengths = deal[0], deal[2]
    replies, n_replies, bombs, n_bombs = deal[4], deal[5], deal[6], deal[7]
    n = 0
    code = size_code(size)
    for j in range(n_replies[s, code]):
        k = replies[s, code, j]
        if d_strengths[s, k] > strength:
            mask = d_masks[s, k]
            if mask & hand == mask:
                out[n] = k
                n += 1
    if n_bombs[s] > 0 and size == 1 and strength >= DEUCE_KEY:
        for j in range(n_bombs[s]):
            k = bombs[s, j]
            mask = d_masks[s, k]
            if mask & hand == mask:
                out[n] = k
                n += 1
    return n


@njit(cache=True)
def legal_moves(deal, s, hand, size, strength, out):  # type: ignore[no-untyped-def]
    """Fill ``out`` with seat ``s``'s legal moves (indices; -1 a pass) in the order of
    :meth:`~handsolver.solver.big2.game.state.DealState.legal_moves`; their number."""
    if size == 0:
        n = 0
        d_masks, counts = deal[0], deal[3]
        for j in range(counts[s]):
            mask = d_masks[s, j]
            if mask & hand == mask:
                out[n] = j
                n += 1
        return n
    n = _beating(deal, s, hand, size, strength, out)
    out[n] = -1
    return n + 1


@njit(cache=True)
def choice(policy, deal, s, hand, size, strength, danger, scratch):  # type: ignore[no-untyped-def]
    """The play (an index) ``policy`` makes for seat ``s``, or -1 for a pass."""
    d_masks, d_sizes, d_strengths, counts = deal[0], deal[1], deal[2], deal[3]
    if size == 0:
        if policy == GREEDY:
            for k in range(counts[s]):
                mask = d_masks[s, k]
                if mask & hand == mask:
                    return k
            return -1  # never: a hand always has a lead
        first = -1
        last = -1
        for k in range(counts[s]):
            mask = d_masks[s, k]
            if mask & hand == mask:
                if mask == hand:
                    return k
                if first < 0:
                    first = k
                last = k
        if danger == 1:
            return first if d_sizes[s, first] > 1 else last
        for k in range(counts[s]):
            mask = d_masks[s, k]
            if mask & hand == mask and _keeps_groups(mask, hand):
                if not (d_sizes[s, k] == 1 and d_strengths[s, k] >= DEUCE_KEY):
                    return k
        return first
    n = _beating(deal, s, hand, size, strength, scratch)
    if n == 0:
        return -1
    if policy == GREEDY:
        return scratch[0]
    for j in range(n):
        if d_masks[s, scratch[j]] == hand:
            return scratch[j]
    if danger == 1 and size == 1:
        best = -1
        for j in range(n):
            if d_sizes[s, scratch[j]] == 1:
                best = scratch[j]
        return best if best >= 0 else scratch[0]
    short = popcount(hand) <= BREAK_AT or danger <= DANGER_AT
    for j in range(n):
        k = scratch[j]
        if d_sizes[s, k] == 5 or _keeps_groups(d_masks[s, k], hand):
            if d_sizes[s, k] <= 2 and d_strengths[s, k] >= DEUCE_KEY and not short:
                return -1
            return k
    return scratch[0] if short else -1


@njit(cache=True, inline="always")
def _next_seat(seat, passed, players):  # type: ignore[no-untyped-def]
    seat = (seat + 1) % players
    while (passed >> seat) & 1:
        seat = (seat + 1) % players
    return seat


@njit(cache=True)
def play_until(deal, pass_final, policies, hands, meta, until, scratch):  # type: ignore[no-untyped-def]
    """Play from the state (``hands``, ``meta`` = mover, size, strength, by, passed: both
    changed in place) until seat ``until`` is to move: -1 then, else the seat that went out
    first (its hand is left as it was before the last play)."""
    while meta[0] != until:
        mover = meta[0]
        policy = policies[mover]
        danger = 0
        if policy != GREEDY:
            danger = _fewest_of_others(hands, mover)
        k = choice(policy, deal, mover, hands[mover], meta[1], meta[2], danger, scratch)
        out = after(deal, pass_final, hands, meta, k)
        if out >= 0:
            return out
    return -1


@njit(cache=True, inline="always")
def after(deal, pass_final, hands, meta, k):  # type: ignore[no-untyped-def]
    """The seat to move makes play ``k`` (-1: a pass), in place: -1, or that seat when the play
    empties its hand."""
    d_masks, d_sizes, d_strengths = deal[0], deal[1], deal[2]
    players = hands.shape[0]
    mover, by, passed = meta[0], meta[3], meta[4]
    if k >= 0:
        rest = hands[mover] ^ d_masks[mover, k]
        if rest == 0:
            return mover
        hands[mover] = rest
        nxt = _next_seat(mover, passed, players)
        if nxt == mover:
            meta[1], meta[2], meta[3], meta[4] = 0, 0, -1, 0
        else:
            meta[0], meta[1], meta[2], meta[3] = (
                nxt,
                d_sizes[mover, k],
                d_strengths[mover, k],
                mover,
            )
        return -1
    if pass_final:
        passed |= 1 << mover
    nxt = _next_seat(mover, passed, players)
    if nxt == by:
        meta[0], meta[1], meta[2], meta[3], meta[4] = by, 0, 0, -1, 0
    else:
        meta[0], meta[4] = nxt, passed
    return -1


@njit(cache=True, inline="always")
def _packed(meta):  # type: ignore[no-untyped-def]
    return meta[0] | (meta[1] << 3) | ((meta[3] + 1) << 8) | (meta[4] << 12) | (meta[2] << 16)


@njit(cache=True)
def _slot(t_hands, t_meta, hands, packed):  # type: ignore[no-untyped-def]
    """The slot of the state in the set, or the empty slot where it would go."""
    size = t_meta.shape[0]
    h = np.uint64(packed) * _MIX
    for s in range(hands.shape[0]):
        h = (h ^ np.uint64(hands[s])) * _MIX
    h ^= h >> np.uint64(29)
    i = np.int64(h & np.uint64(size - 1))
    while True:
        if t_meta[i] == -1:
            return i
        if t_meta[i] == packed:
            same = True
            for s in range(hands.shape[0]):
                if t_hands[i, s] != hands[s]:
                    same = False
                    break
            if same:
                return i
        i = (i + 1) & (size - 1)


@njit(cache=True)
def insert_all(t_hands, t_meta, old_hands, old_meta):  # type: ignore[no-untyped-def]
    """Put every state of an old set into a (larger, empty) one."""
    for i in range(old_meta.shape[0]):
        if old_meta[i] != -1:
            j = _slot(t_hands, t_meta, old_hands[i], old_meta[i])
            t_hands[j] = old_hands[i]
            t_meta[j] = old_meta[i]


@njit(cache=True)
def winning_line(deal, pass_final, policies, first, hands0, meta0, seat, max_nodes, refuted):  # type: ignore[no-untyped-def]
    """:func:`~handsolver.solver.big2.table.line_search.winning_line`: WON, LOST or OUT_OF_NODES.
    ``first``: the seat's policies whose moves it tries first; ``refuted``: the set of refuted
    states, ``t_used[0]`` of them (the caller keeps room for ``max_nodes`` more)."""
    d_masks = deal[0]
    t_hands, t_meta, t_used = refuted
    players = hands0.shape[0]
    width = d_masks.shape[1] + 1
    scratch = np.empty(width, np.int64)
    st_hands = np.empty((MAX_DEPTH, players), np.int64)
    st_meta = np.empty((MAX_DEPTH, 5), np.int64)
    st_tried = np.full((MAX_DEPTH, 2), -2, np.int64)  # the moves of ``first``, tried first
    st_phase = np.zeros(MAX_DEPTH, np.int64)  # moves of ``first`` taken, then the others' cursor
    st_cursor = np.zeros(MAX_DEPTH, np.int64)
    st_moves = np.empty((MAX_DEPTH, width), np.int64)
    st_count = np.zeros(MAX_DEPTH, np.int64)
    hands = hands0.copy()
    meta = meta0.copy()
    out = play_until(deal, pass_final, policies, hands, meta, seat, scratch)
    if out >= 0:
        return WON if out == seat else LOST
    nodes = 0
    if t_meta[_slot(t_hands, t_meta, hands, _packed(meta))] != -1:
        return LOST
    nodes += 1
    if nodes > max_nodes:
        return OUT_OF_NODES
    sp = 0
    st_hands[0] = hands
    st_meta[0] = meta
    st_phase[0] = 0
    st_tried[0, 0] = -2
    st_tried[0, 1] = -2
    st_count[0] = -1
    while sp >= 0:
        hand = st_hands[sp, seat]
        size = st_meta[sp, 1]
        strength = st_meta[sp, 2]
        # The next move of this position: those of ``first`` (each once), then the rest.
        k = -3
        while st_phase[sp] < first.shape[0]:
            danger = _fewest_of_others(st_hands[sp], seat)
            move = choice(first[st_phase[sp]], deal, seat, hand, size, strength, danger, scratch)
            st_phase[sp] += 1
            if move != st_tried[sp, 0] and move != st_tried[sp, 1]:
                st_tried[sp, st_phase[sp] - 1] = move
                k = move
                break
        if k == -3:
            if st_count[sp] < 0:
                st_count[sp] = legal_moves(deal, seat, hand, size, strength, st_moves[sp])
                st_cursor[sp] = 0
            while st_cursor[sp] < st_count[sp]:
                move = st_moves[sp, st_cursor[sp]]
                st_cursor[sp] += 1
                if move != st_tried[sp, 0] and move != st_tried[sp, 1]:
                    k = move
                    break
        if k == -3:  # every move lost: the position is refuted
            i = _slot(t_hands, t_meta, st_hands[sp], _packed(st_meta[sp]))
            if t_meta[i] == -1:
                t_hands[i] = st_hands[sp]
                t_meta[i] = _packed(st_meta[sp])
                t_used[0] += 1
            sp -= 1
            continue
        hands[:] = st_hands[sp]
        meta[:] = st_meta[sp]
        out = after(deal, pass_final, hands, meta, k)
        if out < 0:
            out = play_until(deal, pass_final, policies, hands, meta, seat, scratch)
        if out >= 0:
            if out == seat:
                return WON
            continue
        if t_meta[_slot(t_hands, t_meta, hands, _packed(meta))] != -1:
            continue
        nodes += 1
        if nodes > max_nodes:
            return OUT_OF_NODES
        sp += 1
        st_hands[sp] = hands
        st_meta[sp] = meta
        st_phase[sp] = 0
        st_tried[sp, 0] = -2
        st_tried[sp, 1] = -2
        st_count[sp] = -1
    return LOST


@njit(cache=True)
def deal_won(deal, pass_final, policies, first, hands0, meta0, seat, line_nodes, refuted):  # type: ignore[no-untyped-def]
    """:func:`~handsolver.solver.big2.table.line_search.deal_won`: whether ``seat`` goes out first,
    played out by each policy of ``first`` in turn, else by a line the line search finds within
    ``line_nodes`` of the seat's turns (0: none)."""
    d_masks = deal[0]
    scratch = np.empty(d_masks.shape[1] + 1, np.int64)
    own = policies[seat]
    for policy in first:
        policies[seat] = policy
        hands = hands0.copy()
        meta = meta0.copy()
        out = play_until(deal, pass_final, policies, hands, meta, -1, scratch)
        if out == seat:
            policies[seat] = own
            return True
    policies[seat] = own
    if line_nodes == 0:
        return False
    answer = winning_line(
        deal, pass_final, policies, first, hands0, meta0, seat, line_nodes, refuted
    )
    return answer == WON
