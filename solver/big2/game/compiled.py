"""The compiled search: :class:`GameSearch` with :meth:`~GameSearch.wins` and
:meth:`~GameSearch.wins_within` run by the numba kernel of
:mod:`~handsolver.solver.big2.game.kernel`, which gives the same answers many times faster.

The rest (the moves at the root, the states after them, the line) stays in Python.  The
kernel runs in slices of :data:`SLICE` nodes; between two, the budget, the deadline and the
progress callback are checked here, and Ctrl-C stops the search at once.
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Callable
from typing import cast

import numpy as np

from handsolver.models.big2_rules import Rules
from handsolver.models.cards import CardSet, cards_of
from handsolver.solver.big2.game import kernel
from handsolver.solver.big2.game import kernel_layout as layout
from handsolver.solver.big2.game.kernel_layout import MOST_CARDS, Entries, GamePlays, Scratch, Stack
from handsolver.solver.big2.game.plays import DEUCE_KEY, HandPlays, PlayTuple
from handsolver.solver.big2.game.search import DEFAULT_TABLE_SIZE, GameSearch, OutOfBudget
from handsolver.solver.big2.game.state import DealState, Outcome

#: Nodes the kernel searches between two looks at the clock (a few hundredths of a second).
SLICE = 1 << 16
# The kernel's arguments are arrays that numba's typing does not follow.
_search = cast(Callable[..., int], kernel.search)
_CODES = {size: int(kernel.size_code(size)) for size in (1, 2, 3, 4, 5, 13)}
_SIZES = {0: 0, **{code: size for size, code in _CODES.items()}}
_list_moves = cast(Callable[..., None], kernel.list_moves)
_play = cast(Callable[..., int], kernel.play)


def fits(hands: tuple[CardSet, ...]) -> bool:
    """Whether the compiled search takes these hands (at most :data:`MOST_CARDS` cards each)."""
    return max(hand.bit_count() for hand in hands) <= MOST_CARDS


def _entry_slots(entries: int) -> int:
    """The slots of the transposition entries: the power of two at or above ``entries``."""
    return 1 << max(10, (entries - 1).bit_length())


class CompiledSearch(GameSearch):
    """:class:`GameSearch` with the searches compiled (see the module).  The hands must
    :func:`fit`; ``table_size`` is the number of entries of the one table (rounded up to a
    power of two, 20 bytes each)."""

    def __init__(
        self,
        hands: tuple[CardSet, ...],
        rules: Rules,
        *,
        max_nodes: int | None = None,
        deadline: float | None = None,
        table_size: int = DEFAULT_TABLE_SIZE,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        super().__init__(
            hands,
            rules,
            max_nodes=max_nodes,
            deadline=deadline,
            table_size=table_size,
            progress=progress,
        )
        if not fits(hands):
            raise ValueError(f"the compiled search takes hands of at most {MOST_CARDS} cards")
        players = self.players
        self._starts = hands
        self._cards = [cards_of(hand) for hand in hands]
        offsets = np.zeros(players, dtype=np.int64)
        for p in range(1, players):
            offsets[p] = offsets[p - 1] + len(self._cards[p - 1])
        # Each size's plays from every hand, by strength: a play's rank is its place from 1.
        # Singles take every card's key, so that a deuce to beat is known by its rank alone.
        strengths: dict[int, set[int]] = {1: set(range(52))}
        for mine in self.plays:
            for size, (listed, _) in mine.replies.items():
                strengths.setdefault(size, set()).update(listed)
        self._ranked = {size: sorted(values) for size, values in strengths.items()}
        self._rows: list[list[PlayTuple]] = [[] for _ in range(players)]  # the kernel's plays
        self._kernel_plays = self._game_arrays(offsets)
        slots = _entry_slots(table_size)
        self._entries = Entries(
            np.zeros(slots, dtype=np.int64),
            np.zeros(slots, dtype=np.int64),
            np.zeros(slots, dtype=np.int16),
            np.zeros(slots, dtype=np.int16),
        )
        total = sum(len(cards) for cards in self._cards)
        frames = total * players + 2
        most_moves = max(len(mine.leads) for mine in self.plays) + 1
        self._stack = Stack(
            np.zeros((frames, players), dtype=np.int64),
            np.zeros((frames, layout.FRAME_WIDTH), dtype=np.int64),
            np.zeros((frames, most_moves), dtype=np.int64),
        )
        self._ctl = np.zeros(layout.REGISTERS, dtype=np.int64)
        self._scratch = Scratch(
            np.zeros(most_moves, dtype=np.int64),
            np.zeros(MOST_CARDS + 2, dtype=np.int64),
            np.zeros(MOST_CARDS + 2, dtype=np.int64),
            np.zeros(most_moves, dtype=np.int64),
            np.zeros(most_moves, dtype=np.int64),
            kernel.new_counts(),
        )

    def _rank(self, size: int, strength: int) -> int:
        """The play to beat's rank: how many strengths of its size are at most its own."""
        return bisect_right(self._ranked.get(size, ()), strength)

    def _local(self, player: int, mask: CardSet) -> int:
        """``mask`` (cards of the player's starting hand) in the player's local bits."""
        return sum(1 << j for j, card in enumerate(self._cards[player]) if mask >> card & 1)

    def _game_arrays(self, offsets: np.ndarray) -> GamePlays:
        players = self.players
        widest = max(len(mine.leads) for mine in self.plays)
        pmask = np.zeros((players, widest), dtype=np.int64)
        pcode = np.zeros((players, widest), dtype=np.int64)
        prank = np.zeros((players, widest), dtype=np.int64)
        bstart = np.zeros((players, layout.SIZE_CODES), dtype=np.int64)
        bend = np.zeros((players, layout.SIZE_CODES), dtype=np.int64)
        lead = np.zeros((players, widest), dtype=np.int64)
        nplays = np.zeros(players, dtype=np.int64)
        bombs = np.zeros((players, widest), dtype=np.int64)
        nbombs = np.zeros(players, dtype=np.int64)
        most = max(len(cards) for cards in self._cards)
        fewest = np.zeros((players, 1 << most), dtype=np.int8)
        for p, mine in enumerate(self.plays):
            index = self._player_arrays(p, mine, pmask[p], pcode[p], prank[p], bstart[p], bend[p])
            for j, (mask, _, _) in enumerate(mine.leads):
                lead[p, j] = index[mask]
            nplays[p] = len(mine.leads)
            for j, (mask, _, _) in enumerate(mine.bombs):
                bombs[p, j] = index[mask]
            nbombs[p] = len(mine.bombs)
            self._fill_fewest(p, pmask[p, : nplays[p]], fewest[p])
        rules = self.rules
        params = np.array(
            [
                players,
                int(rules.pass_final),
                int(rules.bombs),
                self._largest_play,
                self._rank(1, DEUCE_KEY),
            ],
            dtype=np.int64,
        )
        return GamePlays(
            params,
            offsets,
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
        )

    def _player_arrays(
        self,
        player: int,
        mine: HandPlays,
        pmask: np.ndarray,
        pcode: np.ndarray,
        prank: np.ndarray,
        bstart: np.ndarray,
        bend: np.ndarray,
    ) -> dict[CardSet, int]:
        """Fill the player's plays grouped by size code, by strength within; the index of each
        play's mask."""
        index: dict[CardSet, int] = {}
        rows = self._rows[player]
        at = 0
        for size in sorted(mine.replies, key=_CODES.__getitem__):
            code = _CODES[size]
            bstart[code] = at
            # Equal strengths by mask, the order of the Python search's replies.
            for mask, _, strength in sorted(mine.replies[size][1], key=lambda p: (p[2], p[0])):
                pmask[at] = self._local(player, mask)
                pcode[at] = code
                prank[at] = self._rank(size, strength)
                index[mask] = at
                rows.append((mask, size, strength))
                at += 1
            bend[code] = at
        return index

    def _fill_fewest(self, player: int, masks: np.ndarray, out: np.ndarray) -> None:
        cards = len(self._cards[player])
        lowest = [(int(mask) & -int(mask)).bit_length() - 1 for mask in masks]
        lows = np.array(sorted(range(len(lowest)), key=lowest.__getitem__), dtype=np.int64)
        low_start = np.zeros(cards + 1, dtype=np.int64)
        for card in lowest:
            low_start[card + 1] += 1
        low_start = np.cumsum(low_start)
        kernel.fill_fewest(masks, lows, low_start, cards, out[: 1 << cards])

    # -- the searches ------------------------------------------------------------------

    def fewest_plays(self, hand: CardSet) -> int:
        """The fewest plays that empty ``hand``, a part of one player's starting hand."""
        if not hand:
            return 0
        for player, start in enumerate(self._starts):
            if hand & start == hand:
                fewest = self._kernel_plays.fewest
                return int(fewest[player, self._local(player, hand)])
        return super().fewest_plays(hand)

    def wins(self, state: DealState, target: int) -> bool:
        return self._run(state, target, layout.WINS, 0)

    def wins_within(self, state: DealState, target: int, plies: int) -> bool:
        return self._run(state, target, layout.WITHIN, min(plies, layout.NO_BOUND - 1))

    def _load(self, state: DealState, plies: int = 0) -> None:
        """Write ``state`` to the stack's first frame, with ``plies`` turns left."""
        hands, mover, size, strength, by, passed = state
        st_hands, st_info, _ = self._stack
        for p, hand in enumerate(hands):
            st_hands[0, p] = self._local(p, hand)
        code = _CODES[size] if size else 0
        st_info[0, : layout.NMOVES] = (
            mover,
            code,
            self._rank(size, strength) if size else 0,
            by,
            passed,
            plies,
        )

    def _frame(self, frame: int) -> DealState:
        """The state a frame of the stack holds (its play to beat one of the hands' plays)."""
        st_hands, st_info, _ = self._stack
        hands = tuple(
            sum(1 << card for j, card in enumerate(cards) if int(st_hands[frame, p]) >> j & 1)
            for p, cards in enumerate(self._cards)
        )
        mover, code, rank, by, passed = (int(value) for value in st_info[frame, : layout.DEPTH])
        size = _SIZES[code]
        strength = self._ranked[size][rank - 1] if size else 0
        return DealState(hands, mover, size, strength, by, passed)

    # -- one step of the kernel, for the lockstep tests ----------------------------------

    def compiled_moves(self, state: DealState) -> list[PlayTuple]:
        """The moves the kernel lists in ``state``, in its order (:meth:`moves`'s), a pass
        ``(0, 0, 0)``."""
        self._load(state)
        plays, scratch = self._kernel_plays, self._scratch
        _list_moves(0, *self._stack, plays.params, *plays[2:], *scratch[3:])
        _, st_info, st_moves = self._stack
        mover = state.to_move
        return [
            self._rows[mover][row] if row >= 0 else (0, 0, 0)
            for row in st_moves[0, : st_info[0, layout.NMOVES]]
        ]

    def compiled_after(self, state: DealState, index: int) -> Outcome:
        """The kernel's state after its ``index``-th move of :meth:`compiled_moves`."""
        self.compiled_moves(state)
        plays = self._kernel_plays
        out = _play(0, index, *self._stack, plays.params, plays.pmask, plays.pcode, plays.prank)
        return int(out) if out >= 0 else self._frame(1)

    def _run(self, state: DealState, target: int, mode: int, plies: int) -> bool:
        self._load(state, plies)
        ctl = self._ctl
        ctl[:] = (0, layout.ENTER, 0, self.nodes, target, mode)
        while True:
            # Past the deadline, only what the table already holds is answered.
            late = self.deadline is not None and time.perf_counter() > self.deadline
            limit = self.nodes if late else self.nodes + SLICE
            if self.max_nodes is not None:
                limit = min(limit, self.max_nodes)
            status = _search(
                self._kernel_plays, self._entries, self._stack, ctl, limit, self._scratch
            )
            self.nodes = int(ctl[layout.NODES])
            if status == layout.DONE:
                return bool(ctl[layout.RET])
            if late or self.max_nodes is not None and self.nodes >= self.max_nodes:
                raise OutOfBudget
            if self.progress is not None:
                self.progress(self.nodes)


def ensure_compiled() -> None:
    """Compile the kernel now, or load it from numba's cache, by searching a tiny deal, so that
    whatever is timed next times searching only."""
    from handsolver.models.big2_rules import SEED_RULES

    hands = (0b111, 0b111 << 4)
    CompiledSearch(hands, SEED_RULES, table_size=1000).wins((hands, 0, 0, 0, -1, 0), 0)
