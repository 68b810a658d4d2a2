"""The known hand's tables of the unknown-hand count (solver/badugi/unknown_tables.py and
unknown_hands.py) against a direct enumeration on reduced decks.

Given both sides' ranks (A's for every draw, B's for every final hand), the enumeration lists
every pair of B's final hand ``Y`` and A's draw ``D`` as bitmasks and counts the disjoint pairs
where A wins (``>``) or wins or ties (``>=``); each piece must give exactly those counts:

* ``W(S, Y)``: A's draws holding ``S`` (no card or one) that miss ``Y``;
* ``F(Z, S)``: the pairs with ``Y ⊇ Z`` and ``D ⊇ S``, for every class the count asks for, over
  B's hands (``|S| <= 1``) and over A's completions (``|S| >= 2``).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from handsolver.models.badugi import HAND_SIZE
from handsolver.models.badugi_draw import parse_rule
from handsolver.models.cards import parse_cards
from handsolver.solver.badugi.known_tables import KnownTables
from handsolver.solver.badugi.unknown import UnknownOpponent
from handsolver.solver.badugi.unknown_hands import level_three, w_top
from handsolver.solver.badugi.unknown_tables import counts_over_draws, counts_over_hands


def _stub(ranks: str, hand: tuple[int, ...]) -> list[int]:
    """The cards of ``ranks`` (all four suits) outside ``hand``."""
    deck = parse_cards(" ".join(r + s for r in ranks for s in "cdhs"))
    return [card for card in deck if card not in hand]


def _masks(members: np.ndarray) -> np.ndarray:
    """Each row of stub positions as a bitmask (0 for the empty set)."""
    masks: np.ndarray = (np.int64(1) << members).sum(axis=1, dtype=np.int64)
    return masks


def _pairs(table: KnownTables) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every (B's final hand, A's draw): disjoint and A wins, disjoint and A wins or ties, as
    0/1 matrices in float64 (sums of them stay far below 2**53, so products are exact); and
    the hands' and draws' bitmasks."""
    sets = table.sets
    hands = _masks(sets.members[HAND_SIZE])
    draws = _masks(sets.members[table.a])
    disjoint = (hands[:, None] & draws[None, :]) == 0
    rank_b = table.rank_b[:-1, None]
    rank_a = table.rank_a[None, :-1]
    win = (disjoint & (rank_a > rank_b)).astype(np.float64)
    win_or_tie = (disjoint & (rank_a >= rank_b)).astype(np.float64)
    return win, win_or_tie, hands, draws


def _containing(sets_masks: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """``[i, j]``: 1 if set ``i`` holds all of set ``j``."""
    return ((sets_masks[:, None] & masks[None, :]) == masks[None, :]).astype(np.float64)


def _enumerated(pairs: np.ndarray, above: np.ndarray, below: np.ndarray) -> np.ndarray:
    """``above @ pairs @ below``, the cheaper way round, as integers."""
    if len(above) <= below.shape[1]:
        product = (above @ pairs) @ below
    else:
        product = above @ (pairs @ below)
    return product.round().astype(np.int64)


SPOTS = [
    ("A23456", "Ac 2d 3h 4s", "best"),
    ("A23456", "Ac 2c 3h 3d", "break:5"),
    ("23456T", "4c 5d 6h 6s", "pat:4"),
]


def _opponent(ranks: str, hand: str, rule: str) -> tuple[UnknownOpponent, tuple[int, ...]]:
    cards = parse_cards(hand)
    return UnknownOpponent(_stub(ranks, cards), parse_rule(rule)), cards


@pytest.mark.parametrize(("ranks", "hand", "rule"), SPOTS)
@pytest.mark.parametrize("a", [1, 2, 3, 4])
@pytest.mark.parametrize("s", [0, 1])
def test_w_top_counts_the_winning_draws_that_miss_each_hand(
    ranks: str, hand: str, rule: str, a: int, s: int
) -> None:
    opponent, cards = _opponent(ranks, hand, rule)
    keeps = list(combinations(cards, HAND_SIZE - a))[:3]  # several known hands side by side
    tables = [KnownTables(opponent, keep, a) for keep in keeps]
    got = w_top(tables, s)  # (hands + 1, at least / above, S, known hand)
    sets = opponent.sets
    singles = _masks(sets.members[s])
    assert got.shape == (sets.counts[HAND_SIZE] + 1, 2, len(singles), len(keeps))
    assert not got[-1].any()
    for i, table in enumerate(tables):
        win, win_or_tie, _, draws = _pairs(table)
        holding = _containing(draws, singles)  # (draws, S)
        assert (got[:-1, 1, :, i] == (win @ holding).round()).all()
        assert (got[:-1, 0, :, i] == (win_or_tie @ holding).round()).all()


@pytest.mark.parametrize(("ranks", "hand", "rule"), SPOTS)
@pytest.mark.parametrize("a", [1, 2, 3, 4])
def test_level_three_sums_the_winning_draws_over_the_hands_holding_each_three_set(
    ranks: str, hand: str, rule: str, a: int
) -> None:
    """The sums over ``Y ⊇ Z`` (3-sets ``Z``) built a block of hands at a time, never the
    whole top level, against the enumerated pairs."""
    opponent, cards = _opponent(ranks, hand, rule)
    keeps = list(combinations(cards, HAND_SIZE - a))[:3]
    tables = [KnownTables(opponent, keep, a) for keep in keeps]
    got = level_three(tables, 1)  # (3-sets + 1, at least / above, S, known hand)
    sets = opponent.sets
    assert got.shape == (sets.counts[3] + 1, 2, sets.n, len(keeps))
    assert not got[-1].any()
    for i, table in enumerate(tables):
        win, win_or_tie, hands, draws = _pairs(table)
        above = _containing(hands, _masks(sets.members[3])).T  # (Z, hands)
        holding = _containing(draws, _masks(sets.members[1]))  # (draws, S)
        assert (got[:-1, 1, :, i] == _enumerated(win, above, holding)).all()
        assert (got[:-1, 0, :, i] == _enumerated(win_or_tie, above, holding)).all()


@pytest.mark.parametrize(("ranks", "hand", "rule"), SPOTS)
@pytest.mark.parametrize("a", [0, 1, 2, 3, 4])
def test_every_class_equals_the_enumeration(ranks: str, hand: str, rule: str, a: int) -> None:
    """``F(Z, S)`` for every ``(Z, S)`` the unknown hand asks for, by both methods where both
    apply, several known hands at once."""
    opponent, cards = _opponent(ranks, hand, rule)
    keeps = list(combinations(cards, HAND_SIZE - a))
    tables = [KnownTables(opponent, keep, a) for keep in keeps]
    sets = opponent.sets
    pairs = [_pairs(table) for table in tables]
    checked = 0
    for (z, s), batch in sorted(opponent.queries.items()):
        if s > a:
            continue
        methods = []
        if s <= 1:
            methods.append(counts_over_hands)
        if z + a - s <= HAND_SIZE:  # over A's completions: Z and D - S fit in four cards
            methods.append(counts_over_draws)
        for table_index, (win, win_or_tie, hands, draws) in enumerate(pairs):
            # every Z of |Z| cards against every S of |S|, then the queries picked out
            above = _containing(hands, _masks(sets.members[z])).T  # (Z, hands)
            below = _containing(draws, _masks(sets.members[s]))  # (draws, S)
            expected = np.stack(
                [
                    _enumerated(counts, above, below)[batch.z_ids, batch.s_ids]
                    for counts in (win, win_or_tie)
                ]
            )
            for method in methods:
                got = method(tables, z, s, batch.z_ids, batch.s_ids)[table_index]
                assert got.shape == expected.shape
                assert (got == expected).all(), (method.__name__, z, s, keeps[table_index])
                checked += 1
    assert checked > 0


def test_over_hands_is_recomputed_for_other_known_hands() -> None:
    """The sums kept on the first table serve only the same known hands."""
    opponent, cards = _opponent("A23456", "Ac 2d 3h 4s", "best")
    first = KnownTables(opponent, cards[:2], 2)
    others = [KnownTables(opponent, keep, 2) for keep in [cards[1:3], cards[2:]]]
    batch = opponent.queries[(3, 1)]
    alone = counts_over_hands([first], 3, 1, batch.z_ids, batch.s_ids)[0]
    together = counts_over_hands([first, *others], 3, 1, batch.z_ids, batch.s_ids)
    assert (together[0] == alone).all()
    for table, values in zip(others, together[1:], strict=True):
        assert (counts_over_hands([table], 3, 1, batch.z_ids, batch.s_ids)[0] == values).all()
