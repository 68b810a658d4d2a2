"""The flush corrections of one player rank class, for every suit mask at once (step 3 of the
whole-game algorithm in :mod:`.game`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from handsolver.models.paigow import (
    NUM_HIGH_KEYS,
    NUM_LOW_KEYS,
)
from handsolver.solver.paigow.game_tables import Setup

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


class FlushBins:
    """The flush corrections of one rank class, binned by what they depend on."""

    def __init__(
        self, s: Setup, support: tuple[int, ...], player: NDArray[np.int64], joker: bool
    ) -> None:
        import numpy as np

        self.k = k = len(support)
        index = slice(0, s.flush_plain if joker else len(s.flush_mask))
        # The flush suit's ranks among the player's, as bits over the player's ranks.
        every = np.arange(1 << 13)
        within = np.zeros(1 << 13, dtype=np.int64)
        for i, r in enumerate(support):
            within |= ((every >> r) & 1) << i
        y = within[s.flush_mask[index]]
        lo, hi = s.flush_low_rank[index], s.flush_high_rank[index]
        code_table, const_table, self.weights = _other_rank_tables(support, player)
        bucket = code_table[lo + 1, hi + 1] * (1 << k) + y
        self.bucket = bucket
        self.const = const_table[lo + 1, hi + 1]
        self.buckets = int(self.weights.shape[0]) << k
        self.points = (
            s.flush_high[index],
            s.flush_low[index],
            s.class_high[index],
            s.class_low[index],
        )

    def moved_hands(self) -> NDArray[np.int64]:
        """For each mask of ranks the player holds in a suit: the dealer hands flushing in that
        suit whose result moves."""
        import numpy as np

        sums = np.bincount(self.bucket, weights=self.const, minlength=self.buckets)
        return self._by_mask(np.rint(sums).astype(np.int64)[:, None])[:, 0]

    def corrections(
        self, high: NDArray[np.int64], low: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """For each mask and query (h, l): the change in wins and in losses when the dealer's
        flush hands in that suit move from their rank class's result to their own."""
        import numpy as np

        hs, hq = np.unique(high, return_inverse=True)
        ls, lq = np.unique(low, return_inverse=True)
        nh, nl = len(hs) + 1, len(ls) + 1
        fh, fl, ch, cl = self.points
        cells = self.buckets * nh * nl
        # Where each key falls among the queries': how many query keys are at most it.
        above_h = np.searchsorted(hs, np.arange(NUM_HIGH_KEYS), "right")
        above_l = np.searchsorted(ls, np.arange(NUM_LOW_KEYS), "right")
        cell_f = (self.bucket * nh + above_h[fh]) * nl + above_l[fl]
        cell_c = (self.bucket * nh + above_h[ch]) * nl + above_l[cl]
        grid = np.bincount(cell_f, weights=self.const, minlength=cells) - np.bincount(
            cell_c, weights=self.const, minlength=cells
        )
        # Whole numbers far below 2**53: exact in float64.
        grid = np.rint(grid).astype(np.int64).reshape(self.buckets, nh, nl)
        prefix = grid.cumsum(axis=1).cumsum(axis=2)
        win = prefix[:, hq, lq]
        loss = prefix[:, -1, -1][:, None] - prefix[:, hq, -1] - prefix[:, -1, lq] + win
        return self._by_mask(win), self._by_mask(loss)

    def _by_mask(self, values: NDArray[np.int64]) -> NDArray[np.int64]:
        """Bucketed sums (code, Y) x Q -> per player mask m: sum over codes of the code's weight
        for m times the sum over Y disjoint from m."""
        import numpy as np

        k = self.k
        z = values.reshape(-1, 1 << k, values.shape[-1]).copy()
        for bit in range(k):
            step = 1 << bit
            view = z.reshape(z.shape[0], -1, 2 * step, z.shape[-1])
            view[:, :, step:, :] += view[:, :, :step, :]
        full = (1 << k) - 1
        complement = full ^ np.arange(1 << k)
        result: NDArray[np.int64] = np.einsum("cm,cmq->mq", self.weights, z[:, complement, :])
        return result


def _other_rank_tables(
    support: tuple[int, ...], player: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """How a flush class's other cards (ranks lo <= hi, -1 absent) weigh for this rank class:
    a code for the part among the player's ranks, a constant factor for the rest, and for each
    code and player mask m (ranks held in the flush suit) the factor of the part among them."""
    import numpy as np

    k = len(support)
    place = {r: i for i, r in enumerate(support)}
    codes: dict[tuple[int, ...], int] = {(): 0}
    code_table = np.zeros((14, 14), dtype=np.int64)
    const_table = np.zeros((14, 14), dtype=np.int64)
    for lo in range(-1, 13):
        for hi in range(-1, 13):
            if (lo < 0 <= hi) or 0 <= hi < lo:
                continue  # one other card is (rank, -1); two are lowest first
            cards = [r for r in (lo, hi) if r >= 0]
            inside = tuple(place[r] for r in cards if r in place)
            outside = [r for r in cards if r not in place]
            const = (
                math.comb(3, len(outside))
                if len(set(outside)) == 1 and len(outside) == 2
                else 3 ** len(outside)
            )
            codes.setdefault(inside, len(codes))
            code_table[lo + 1, hi + 1] = codes[inside]
            const_table[lo + 1, hi + 1] = const
    weights = np.zeros((len(codes), 1 << k), dtype=np.int64)
    left = [3 - int(player[r]) for r in support]  # the player's ranks left in the other suits
    for inside, code in codes.items():
        for m in range(1 << k):
            value = 1
            for i in set(inside):
                n = left[i] + ((m >> i) & 1)
                value *= math.comb(n, inside.count(i)) if n >= 0 else 0
            weights[code, m] = value
    return code_table, const_table, weights
