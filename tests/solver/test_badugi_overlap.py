"""The overlap count of solver/badugi/unknown_overlap.py against a direct enumeration.

``F(Z, S)`` counts the pairs of disjoint 2-sets ``E`` and ``D'`` of the stub outside ``Z`` and
``S`` where the known hand's draw ``S + D'`` beats (or ties) the unknown hand's ``Z + E``.  Here
every such pair is listed and compared by the rules' own key (models.badugi), on a reduced deck.
"""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest

from handsolver.models.badugi import badugi_key
from handsolver.models.badugi_draw import parse_rule
from handsolver.models.cards import Card, parse_cards
from handsolver.solver.badugi import unknown_overlap
from handsolver.solver.badugi.known_tables import KnownTables
from handsolver.solver.badugi.unknown import UnknownOpponent
from handsolver.solver.badugi.unknown_overlap import KnownSide, UnknownSide, overlap_counts


def _stub(ranks: str, hand: str) -> list[Card]:
    """The cards of ``ranks`` (all four suits) outside ``hand``."""
    deck = parse_cards(" ".join(r + s for r in ranks for s in "cdhs"))
    held = parse_cards(hand)
    return [card for card in deck if card not in held]


def _enumerated(
    stub: list[Card], key: dict[tuple[Card, ...], int], z: tuple[Card, ...], s: tuple[Card, ...]
) -> tuple[int, int]:
    """Wins and wins-or-ties of the draw ``s + d`` against the hand ``z + e``, listed (``key``:
    the badugi key of each ascending 4-set of the stub)."""
    rest = [card for card in stub if card not in z + s]
    win = win_or_tie = 0
    for e in combinations(rest, 2):
        theirs = key[tuple(sorted(z + e))]
        for d in combinations([card for card in rest if card not in e], 2):
            mine = key[tuple(sorted(s + d))]
            win += mine > theirs
            win_or_tie += mine >= theirs
    return win, win_or_tie


@pytest.mark.parametrize(
    ("ranks", "hand", "rule"),
    [
        ("A234567", "Ac 2d 3h Kh", "best"),  # Kh is not in the reduced deck: a 25-card stub
        ("A234567", "Ac 2c 3h 4s", "break:6-5"),
    ],
)
@pytest.mark.parametrize("chunk", [4096, 8])  # one chunk, or many (and parts of them)
def test_overlap_counts_equal_the_enumeration(
    ranks: str, hand: str, rule: str, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(unknown_overlap, "_CHUNK", chunk)
    opponent = UnknownOpponent(_stub(ranks, hand), parse_rule(rule))
    sets, cards = opponent.sets, opponent.cards
    batch = opponent.queries[(2, 2)]
    assert len(batch.z_ids) > 1000  # the rule asks for many of them
    generator = random.Random(20)
    # the rule's own queries, and other disjoint pairs of 2-sets
    chosen = generator.sample(range(len(batch.z_ids)), 12)
    z_ids, s_ids = list(batch.z_ids[chosen]), list(batch.s_ids[chosen])
    pairs = sets.members[2]
    while len(z_ids) < 24:
        z, s = generator.sample(range(len(pairs)), 2)
        if not set(pairs[z]) & set(pairs[s]):
            z_ids.append(z)
            s_ids.append(s)
    tables = KnownTables(opponent, (), 4)
    got = overlap_counts(
        sets,
        UnknownSide(opponent.rank_b, opponent.below_b),
        [KnownSide(tables.rank_a, tables.at_least_a)] * 2,  # every known hand gets its row
        np.array(z_ids),
        np.array(s_ids),
    )
    stub = [int(card) for card in cards]
    key = {four: badugi_key(four) for four in combinations(stub, 4)}
    for query, (z, s) in enumerate(zip(z_ids, s_ids, strict=True)):
        expected = _enumerated(
            stub,
            key,
            tuple(int(c) for c in cards[pairs[z]]),
            tuple(int(c) for c in cards[pairs[s]]),
        )
        for counts in got:
            assert (int(counts[0, query]), int(counts[1, query])) == expected
