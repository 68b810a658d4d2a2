"""The compiled playouts and line search (:mod:`.playout_kernel`) driven from Python: a deal's
plays as arrays, the table of refuted positions, and the calls that take and give the states
of a deal in play (:class:`~handsolver.solver.big2.game.state.DealState`).

>>> from handsolver.models.big2 import SEED_RULES
>>> from handsolver.models.cards import mask_of, parse_cards
>>> from handsolver.solver.big2.game.state import DealState
>>> from handsolver.solver.big2.table.playout import greedy_choice, hand_plays
>>> hands = tuple(mask_of(parse_cards(text)) for text in ("3c 9h Qc", "3d 7h Ah"))
>>> deal = CompiledDeal([hand_plays(hand, SEED_RULES) for hand in hands], SEED_RULES)
>>> state = DealState(hands, 0, 0, 0, -1, 0)
>>> deal.deal_won(state, 0, [greedy_choice] * 2, (greedy_choice,), 0, RefutedStates(2))
False
>>> deal.deal_won(state, 0, [greedy_choice] * 2, (greedy_choice,), 100, RefutedStates(2))
True

(as in :mod:`.line_search`: greedy's line loses, the queen led first wins).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import cast

import numpy as np

from handsolver.models.big2_rules import Rules
from handsolver.solver.big2.game.kernel import size_code
from handsolver.solver.big2.game.kernel_layout import SIZE_CODES
from handsolver.solver.big2.game.plays import HandPlays
from handsolver.solver.big2.game.state import DealState, Outcome, PlayOrPass
from handsolver.solver.big2.table import playout_kernel as kernel
from handsolver.solver.big2.table.playout import Policy, greedy_choice, shed_choice

__all__ = ["CompiledDeal", "RefutedStates"]

_CODES: dict[Policy, int] = {greedy_choice: kernel.GREEDY, shed_choice: kernel.SHED}
# The kernel's functions, typed for the calls here (numba's dispatchers are untyped).
_deal_won = cast(Callable[..., bool], kernel.deal_won)
_winning_line = cast(Callable[..., int], kernel.winning_line)
_play_until = cast(Callable[..., int], kernel.play_until)
_legal_moves = cast(Callable[..., int], kernel.legal_moves)
_after = cast(Callable[..., int], kernel.after)
_choice = cast(Callable[..., int], kernel.choice)
_FIRST_SLOTS = 1 << 12


_ARRAYS: dict[tuple[Policy, ...], np.ndarray] = {}


def _codes(policies: Sequence[Policy]) -> np.ndarray:
    """The kernel's codes of ``policies`` (one array for each list of them, made once: the
    calls here are many and short)."""
    key = tuple(policies)
    codes = _ARRAYS.get(key)
    if codes is None:
        codes = _ARRAYS[key] = np.array([_CODES[policy] for policy in key], np.int64)
    return codes


@lru_cache(maxsize=1 << 12)
def _seat_arrays(mine: HandPlays) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One seat's plays as arrays: the leads (mask, size, strength rows, in lead order), the
    replies of each size code (indices into the leads, by strength) and their counts, and the
    bombs (indices, by strength).  Cached: a hand's plays (:func:`~.playout.hand_plays`, itself
    cached) recur in every deal of a decision."""
    leads = np.array(mine.leads, np.int64).reshape(-1, 3)
    index = {play[0]: k for k, play in enumerate(mine.leads)}
    replies = np.zeros((SIZE_CODES, max(1, len(leads))), np.int64)
    n_replies = np.zeros(SIZE_CODES, np.int64)
    for size, (_, listed) in mine.replies.items():
        code = int(size_code(size))
        n_replies[code] = len(listed)
        replies[code, : len(listed)] = [index[play[0]] for play in listed]
    bombs = np.array([index[play[0]] for play in mine.bombs], np.int64)
    return leads, replies, n_replies, bombs


class RefutedStates:
    """Positions the line search proved lost, for the deals of one decision (a state holds every
    hand, so a refutation holds wherever it comes up); grown before it is half full."""

    def __init__(self, players: int, slots: int = _FIRST_SLOTS) -> None:
        self.hands = np.zeros((slots, players), np.int64)
        self.meta = np.full(slots, -1, np.int64)
        self.used = np.zeros(1, np.int64)

    def __len__(self) -> int:
        return int(self.used[0])

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The kernel's table: the hands, the packed rest and the count of states."""
        return self.hands, self.meta, self.used

    def make_room(self, more: int) -> None:
        """Grow the table so that ``more`` states fit with it at most half full."""
        slots = len(self.meta)
        while 2 * (int(self.used[0]) + more) > slots:
            slots *= 2
        if slots == len(self.meta):
            return
        hands, meta = self.hands, self.meta
        self.hands = np.zeros((slots, hands.shape[1]), np.int64)
        self.meta = np.full(slots, -1, np.int64)
        kernel.insert_all(self.hands, self.meta, hands, meta)


def _state_arrays(state: DealState) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's state: the hands, and (mover, size, strength, by, passed)."""
    hands, mover, size, strength, by, passed = state
    return np.array(hands, np.int64), np.array([mover, size, strength, by, passed], np.int64)


def _state_of(hands: np.ndarray, meta: np.ndarray) -> DealState:
    """The state the kernel's arrays hold."""
    mover, size, strength, by, passed = (int(value) for value in meta)
    return DealState(tuple(int(hand) for hand in hands), mover, size, strength, by, passed)


class CompiledDeal:
    """The plays of each seat's hand in a deal
    (:class:`~handsolver.solver.big2.game.plays.HandPlays`, of the hands now or of any hands
    holding them) as the kernel's arrays, and the rules' pass."""

    def __init__(self, plays: Sequence[HandPlays], rules: Rules) -> None:
        seats = [_seat_arrays(mine) for mine in plays]
        players = len(seats)
        width = max(1, *(len(seat[0]) for seat in seats))
        masks = np.zeros((players, width), np.int64)
        sizes = np.zeros((players, width), np.int64)
        strengths = np.zeros((players, width), np.int64)
        counts = np.zeros(players, np.int64)
        replies = np.zeros((players, SIZE_CODES, width), np.int64)
        n_replies = np.zeros((players, SIZE_CODES), np.int64)
        bombs = np.zeros((players, width), np.int64)
        n_bombs = np.zeros(players, np.int64)
        for seat, (leads, seat_replies, seat_n_replies, seat_bombs) in enumerate(seats):
            count = len(leads)
            counts[seat] = count
            masks[seat, :count] = leads[:, 0]
            sizes[seat, :count] = leads[:, 1]
            strengths[seat, :count] = leads[:, 2]
            replies[seat, :, :count] = seat_replies
            n_replies[seat] = seat_n_replies
            bombs[seat, : len(seat_bombs)] = seat_bombs
            n_bombs[seat] = len(seat_bombs)
        self.deal = (masks, sizes, strengths, counts, replies, n_replies, bombs, n_bombs)
        self.pass_final = rules.pass_final

    def deal_won(
        self,
        state: DealState,
        seat: int,
        policies: Sequence[Policy],
        first: Sequence[Policy],
        line_nodes: int,
        refuted: RefutedStates,
    ) -> bool:
        """:func:`~.line_search.deal_won`, compiled (``refuted`` in place of the set)."""
        refuted.make_room(line_nodes)
        hands, meta = _state_arrays(state)
        return bool(
            _deal_won(self.deal, self.pass_final, _codes(policies), _codes(first), hands, meta,
                      seat, line_nodes, refuted.arrays())
        )  # fmt: skip

    def winning_line(
        self,
        state: DealState,
        seat: int,
        policies: Sequence[Policy],
        first: Sequence[Policy],
        max_nodes: int,
        refuted: RefutedStates,
    ) -> bool | None:
        """:func:`~.line_search.winning_line`, compiled (``refuted`` in place of the set)."""
        refuted.make_room(max_nodes)
        hands, meta = _state_arrays(state)
        answer = _winning_line(self.deal, self.pass_final, _codes(policies), _codes(first), hands,
                               meta, seat, max_nodes, refuted.arrays())  # fmt: skip
        return None if answer == kernel.OUT_OF_NODES else answer == kernel.WON

    # -- one step of the kernel, for the lockstep tests ----------------------------------

    def _play(self, seat: int, index: int) -> PlayOrPass:
        """The kernel's play ``index`` of ``seat`` (-1: a pass)."""
        if index < 0:
            return None
        masks, sizes, strengths = self.deal[:3]
        return int(masks[seat, index]), int(sizes[seat, index]), int(strengths[seat, index])

    def compiled_moves(self, state: DealState) -> list[PlayOrPass]:
        """The legal moves the kernel lists in ``state``, in its order
        (:meth:`DealState.legal_moves`'s)."""
        seat = state.to_move
        out = np.empty(self.deal[0].shape[1] + 1, np.int64)
        count = _legal_moves(self.deal, seat, state.hands[seat], state.size, state.strength, out)
        return [self._play(seat, int(index)) for index in out[:count]]

    def compiled_after(self, state: DealState, index: int) -> Outcome:
        """The kernel's state after its ``index``-th move of :meth:`compiled_moves`."""
        seat = state.to_move
        out = np.empty(self.deal[0].shape[1] + 1, np.int64)
        _legal_moves(self.deal, seat, state.hands[seat], state.size, state.strength, out)
        hands, meta = _state_arrays(state)
        went_out = _after(self.deal, self.pass_final, hands, meta, out[index])
        return int(went_out) if went_out >= 0 else _state_of(hands, meta)

    def compiled_choice(self, policy: Policy, state: DealState, danger: int) -> PlayOrPass:
        """The kernel's move by ``policy`` for the seat to move (``danger``: the fewest cards
        an opponent holds)."""
        seat = state.to_move
        scratch = np.empty(self.deal[0].shape[1] + 1, np.int64)
        index = _choice(_CODES[policy], self.deal, seat, state.hands[seat], state.size,
                        state.strength, danger, scratch)  # fmt: skip
        return self._play(seat, int(index))

    def play_until(self, state: DealState, policies: Sequence[Policy], until: int) -> Outcome:
        """:func:`~.playout.play_until`, compiled."""
        now, meta = _state_arrays(state)
        scratch = np.empty(self.deal[0].shape[1] + 1, np.int64)
        out = _play_until(self.deal, self.pass_final, _codes(policies), now, meta, until, scratch)
        if out >= 0:
            return int(out)
        return _state_of(now, meta)


def ensure_compiled() -> None:
    """Compile :meth:`CompiledDeal.deal_won`'s kernel now, or load it from numba's cache, on a
    tiny deal, so that whatever is timed next times playing only."""
    from handsolver.models.big2_rules import SEED_RULES
    from handsolver.solver.big2.game.plays import hand_plays

    hands = (0b111, 0b111 << 4)
    deal = CompiledDeal([hand_plays(hand, SEED_RULES) for hand in hands], SEED_RULES)
    state = DealState(hands, 0, 0, 0, -1, 0)
    deal.deal_won(state, 0, [greedy_choice] * 2, (greedy_choice,), 100, RefutedStates(2))
