"""The numbered stub sets, the tables over them and the ``(Z, S)`` the unknown hand asks for
(solver/badugi/stub_sets.py, unknown.py), each against its plain definition on a small stub."""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest

from handsolver.models.badugi import badugi_keys
from handsolver.solver.badugi.exact import colex_index, key_table
from handsolver.solver.badugi.stub_sets import StubSets, colex_sets, set_ids, superset_counts
from handsolver.solver.badugi.unknown import _queries


def _number(cards: tuple[int, ...]) -> int:
    """The colex number of a set, from its definition."""
    return sum(comb(card, i + 1) for i, card in enumerate(sorted(cards)))


@pytest.mark.parametrize("n", [0, 1, 4, 7, 10])
def test_every_set_is_numbered_by_its_row(n: int) -> None:
    for size in range(5):
        rows = colex_sets(n, size)
        expected = sorted(combinations(range(n), size), key=_number)
        assert rows.shape == (comb(n, size), size)
        assert [tuple(row) for row in rows.tolist()] == expected
        assert [_number(row) for row in expected] == list(range(comb(n, size)))
        assert set_ids(rows).tolist() == list(range(comb(n, size)))


@pytest.mark.parametrize("n", [4, 7, 10])
def test_plus_adds_a_card_or_gives_no_set(n: int) -> None:
    sets = StubSets(n)
    for k in range(4):
        plus = sets.plus[k]
        assert plus.shape == (comb(n, k) + 1, n)
        assert plus.dtype == np.int64
        assert (plus[-1] == comb(n, k + 1)).all()
        for v, row in enumerate(sets.members[k].tolist()):
            for card in range(n):
                grown = comb(n, k + 1) if card in row else _number((*row, card))
                assert plus[v, card] == grown


@pytest.mark.parametrize(("n", "size"), [(6, 1), (7, 2), (8, 3), (9, 4), (10, 4)])
@pytest.mark.parametrize("above", [False, True])
def test_superset_tables_count_the_sets_containing_each_set(n: int, size: int, above: bool) -> None:
    sets = StubSets(n)
    width = 7
    ranks = np.random.default_rng(n * size).integers(0, width - 1, comb(n, size))
    tables = superset_counts(sets, size, ranks, width, above)
    assert len(tables) == size
    every = [
        (frozenset(row), int(rank)) for row, rank in zip(colex_sets(n, size), ranks, strict=True)
    ]
    for k, table in enumerate(tables):
        assert table.shape == (comb(n, k) + 1, width)
        assert table.dtype == np.int32
        assert not table[-1].any()
        for v, row in enumerate(sets.members[k].tolist()):
            held = [rank for cards, rank in every if cards >= set(row)]
            for x in range(width):
                expected = sum(rank >= x if above else rank < x for rank in held)
                assert table[v, x] == expected, (k, row, x)


def test_superset_tables_take_the_largest_table_in_chunks() -> None:
    """More rows than one chunk holds: the chunks join up."""
    sets = StubSets(40)
    width = 1500  # a chunk of ~175 rows of C(40, 3)
    ranks = np.random.default_rng(3).integers(0, width - 1, comb(40, 4))
    (table,) = superset_counts(sets, 4, ranks, width, above=False)[3:]
    by_rows = np.zeros_like(table)
    for positions in combinations(range(4), 3):
        np.add.at(by_rows, (sets.subset_ids(4, positions), ranks + 1), 1)
    assert (table == np.cumsum(by_rows, axis=1)).all()


def test_key_table_is_every_hand_by_its_colex_index() -> None:
    hands = np.array(list(combinations(range(52), 4)))
    expected = np.empty(len(hands), dtype=np.int64)
    expected[colex_index(hands)] = badugi_keys(hands)
    table = key_table()
    assert table.dtype == np.int64
    assert (table == expected).all()


def _queries_by_definition(
    n: int, kept: np.ndarray
) -> dict[tuple[int, int], dict[tuple[int, int], list[int]]]:
    """For each hand ``K + X``, each ``R ⊆ X`` and ``S ⊆ R``: ``(-1)**|R|`` added to
    ``(K + R - S, S)`` under ``b = |X|``; zero sums dropped."""
    asked: dict[tuple[int, int], dict[tuple[int, int], list[int]]] = {}
    for hand, keeps in zip(colex_sets(n, 4).tolist(), kept.tolist(), strict=True):
        keep = [card for card, kept_card in zip(hand, keeps, strict=True) if kept_card]
        throw = [card for card, kept_card in zip(hand, keeps, strict=True) if not kept_card]
        for r in range(len(throw) + 1):
            for held in combinations(throw, r):
                for s in range(r + 1):
                    for drawn in combinations(held, s):
                        z = [*keep, *(card for card in held if card not in drawn)]
                        key = (_number(tuple(z)), _number(drawn))
                        by_size = asked.setdefault((len(z), s), {})
                        by_size.setdefault(key, [0] * 4)[len(throw)] += -1 if r % 2 else 1
    return {
        sizes: {key: row for key, row in pairs.items() if any(row)}
        for sizes, pairs in asked.items()
    }


@pytest.mark.parametrize("seed", range(4))
def test_queries_are_the_pairs_each_hand_asks_for(seed: int) -> None:
    n = 9
    sets = StubSets(n)
    rng = np.random.default_rng(seed)
    kept = rng.integers(0, 2, (comb(n, 4), 4)).astype(bool)
    kept[rng.integers(0, comb(n, 4), 20)] = True  # some hands stand pat
    kept[np.flatnonzero(~kept.any(axis=1)), rng.integers(0, 4)] = True  # each keeps a card
    queries = _queries(sets, kept)
    expected = _queries_by_definition(n, kept)
    assert {sizes for sizes, pairs in expected.items() if pairs} <= set(queries)
    for sizes, batch in queries.items():
        assert batch.coefficients.dtype == np.int64
        codes = batch.z_ids * sets.counts[sizes[1]] + batch.s_ids
        assert (np.diff(codes) > 0).all()  # ascending, each pair once
        got = {
            (int(z), int(s)): row
            for z, s, row in zip(batch.z_ids, batch.s_ids, batch.coefficients.tolist(), strict=True)
        }
        assert got == expected.get(sizes, {}), sizes
