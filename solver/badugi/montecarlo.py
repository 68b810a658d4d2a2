"""Monte Carlo for the draws that cannot be counted: shuffles of the stub, played out.

One sample is one shuffle of the stub.  Unknown hands are dealt from its top, then on every
draw each player in seat order applies their rule and draws the next cards.  The samples come
in chunks, and chunk ``i`` of seed ``s`` always shuffles with the generator seeded ``(s, i)``,
so the answer is the same with any number of workers.

Common random numbers: the best-discard table plays every keep/throw choice of the first
player on the *same* shuffles, so the differences between choices (what a choice costs) have a
much smaller error than the choices' equities themselves.

Results are kept as exact integer sums (a pot share ``1/k`` is counted as ``L/k`` units, ``L``
divisible by every possible ``k``), so adding chunks never depends on their order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from handsolver.models.badugi import HAND_SIZE
from handsolver.models.badugi_draw import Situation, keep_masks

if TYPE_CHECKING:
    import numpy as np

CHUNK = 25_000  # samples per chunk: a job for a worker, and one step of the progress bar


class Chunk(NamedTuple):
    """One job: ``size`` samples, chunk number ``number`` of ``seed``; ``options`` are keep
    masks (bit i keeps the first player's card i) to try on this draw, or () for the rules."""

    spot: Situation
    number: int
    size: int
    seed: int
    options: tuple[int, ...] = ()


@dataclass(frozen=True)
class Tally:
    """Exact sums over samples.  Rows are players (or, with options, the first player under each
    option): sole wins, shared wins (ties), pot units won, and the products of units between
    rows (for standard errors of equities and of their differences)."""

    samples: int
    units: int  # pot units per sample: L
    win: tuple[int, ...]
    tie: tuple[int, ...]
    won: tuple[int, ...]
    products: tuple[tuple[int, ...], ...]

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.samples + other.samples,
            self.units,
            _add(self.win, other.win),
            _add(self.tie, other.tie),
            _add(self.won, other.won),
            tuple(_add(a, b) for a, b in zip(self.products, other.products, strict=True)),
        )

    def equity(self, row: int) -> float:
        return self.won[row] / (self.units * self.samples)

    def stderr(self, row: int, other: int | None = None) -> float:
        """The standard error of row's equity, or of ``row - other`` (paired samples); NaN
        from one sample, which cannot estimate it."""
        n = self.samples
        if n < 2:
            return math.nan
        if other is None:
            mean, square = self.won[row], self.products[row][row]
        else:
            mean = self.won[row] - self.won[other]
            square = (
                self.products[row][row]
                - 2 * self.products[row][other]
                + self.products[other][other]
            )
        variance = (square / n - (mean / n) ** 2) / self.units**2
        return math.sqrt(max(variance, 0.0) / (n - 1))

    def share_stderr(self, count: int) -> float:
        """The standard error of a frequency ``count / samples`` (NaN from one sample)."""
        if self.samples < 2:
            return math.nan
        p = count / self.samples
        return math.sqrt(p * (1 - p) / (self.samples - 1))


def _add(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def pot_units(players: int) -> int:
    """Units in one pot, so that every split of it between tied players is whole."""
    return math.lcm(*range(1, players + 1))


def shuffled_tops(spot: Situation, count: int, need: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` independent shuffles of the stub, each cut to its first ``need`` cards
    (a partial Fisher-Yates shuffle, one column at a time for all shuffles together)."""
    import numpy as np

    stub = np.array(spot.stub, dtype=np.int64)
    deck = np.tile(stub, (count, 1))
    rows = np.arange(count)
    for j in range(need):
        pick = j + rng.integers(0, len(stub) - j, size=count)
        chosen = deck[rows, pick]
        deck[rows, pick] = deck[:, j]
        deck[:, j] = chosen
    return deck[:, :need]


def final_keys(spot: Situation, tops: np.ndarray, first_keep: int | None = None) -> np.ndarray:
    """Every player's final badugi key on every shuffle: an ``(n, players)`` array.

    ``first_keep`` (a 4-bit mask) overrides the first player's rule on the first draw.
    """
    import numpy as np

    from handsolver.models.badugi import badugi_keys

    count, players = len(tops), len(spot.hands)
    hands = np.empty((count, players, HAND_SIZE), dtype=np.int64)
    dealt = 0
    for player, hand in enumerate(spot.hands):
        if hand is None:
            hands[:, player] = tops[:, dealt : dealt + HAND_SIZE]
            dealt += HAND_SIZE
        else:
            hands[:, player] = hand
    pointer = np.full(count, dealt, dtype=np.int64)
    for draw in range(spot.draws):
        for player, rule in enumerate(spot.rules):
            if draw == 0 and player == 0 and first_keep is not None:
                bits = [bool(first_keep >> i & 1) for i in range(HAND_SIZE)]
                keep = np.broadcast_to(np.array(bits), (count, HAND_SIZE))
            else:
                keep = keep_masks(rule, hands[:, player], draw)
            for position in range(HAND_SIZE):
                rows = np.flatnonzero(~keep[:, position])
                hands[rows, player, position] = tops[rows, pointer[rows]]
                pointer[rows] += 1
    keys: np.ndarray = badugi_keys(hands.reshape(-1, HAND_SIZE)).reshape(count, players)
    return keys


def _shares(keys: np.ndarray, units: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per sample and player: sole win, tie for the best, and pot units won."""
    import numpy as np

    best = keys == keys.max(axis=1, keepdims=True)
    winners = best.sum(axis=1, keepdims=True)
    return best & (winners == 1), best & (winners > 1), np.where(best, units // winners, 0)


def sample_chunk(job: Chunk) -> Tally:
    """The tally of one chunk (top level, so worker processes can run it)."""
    import numpy as np

    spot = job.spot
    rng = np.random.default_rng([job.seed, job.number])
    units = pot_units(len(spot.hands))
    need = spot.cards_needed()
    if job.options:
        need += HAND_SIZE - spot.rules[0].most_drawn(0)
    tops = shuffled_tops(spot, job.size, need, rng)
    if not job.options:
        sole, tied, won = _shares(final_keys(spot, tops), units)
        rows = won.T
    else:
        results = [_shares(final_keys(spot, tops, keep), units) for keep in job.options]
        sole = np.stack([r[0][:, 0] for r in results], axis=1)
        tied = np.stack([r[1][:, 0] for r in results], axis=1)
        rows = np.stack([r[2][:, 0] for r in results])
    products = rows @ rows.T
    return Tally(
        job.size,
        units,
        tuple(int(x) for x in sole.sum(axis=0)),
        tuple(int(x) for x in tied.sum(axis=0)),
        tuple(int(x) for x in rows.sum(axis=1)),
        tuple(tuple(int(x) for x in row) for row in products),
    )


def chunks(spot: Situation, samples: int, seed: int, options: tuple[int, ...] = ()) -> list[Chunk]:
    """The jobs for ``samples`` samples: chunks of :data:`CHUNK`, the last one shorter."""
    return [
        Chunk(spot, index, min(CHUNK, samples - start), seed, options)
        for index, start in enumerate(range(0, samples, CHUNK))
    ]
