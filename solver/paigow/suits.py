"""Player hands up to a permutation of the four suits, each with how many hands it stands for."""

from __future__ import annotations

import math
from functools import cache


@cache
def suit_patterns(counts: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The ways to give suits to ranks held ``counts`` times each, up to a permutation of the
    four suits: for each, the suit set (a 4-bit mask) of every rank, and how many hands it
    stands for.

    >>> masks, weights = suit_patterns((1, 1))
    >>> masks, weights  # offsuit or suited
    (((1, 2), (1, 1)), (12, 4))
    >>> sum(suit_patterns((2, 1, 1, 1, 1, 1))[1]) == math.comb(4, 2) * 4**5
    True
    """
    found: list[tuple[tuple[int, ...], int]] = []

    def extend(
        index: int, blocks: tuple[tuple[int, ...], ...], masks: tuple[int, ...], weight: int
    ) -> None:
        if index == len(counts):
            found.append((masks, weight))
            return
        for take in _takes(tuple(len(b) for b in blocks), counts[index]):
            mask, new_blocks, ways = 0, [], weight
            for block, n in zip(blocks, take, strict=True):
                ways *= math.comb(len(block), n)
                for suit in block[:n]:
                    mask |= 1 << suit
                new_blocks += [part for part in (block[:n], block[n:]) if part]
            extend(index + 1, tuple(new_blocks), (*masks, mask), ways)

    extend(0, ((0, 1, 2, 3),), (), 1)
    return tuple(m for m, _ in found), tuple(w for _, w in found)


def _takes(sizes: tuple[int, ...], total: int) -> list[tuple[int, ...]]:
    """Every way to take ``total`` items from blocks of these sizes (counts per block)."""
    if not sizes:
        return [()] if total == 0 else []
    return [
        (n, *rest) for n in range(min(sizes[0], total) + 1) for rest in _takes(sizes[1:], total - n)
    ]
