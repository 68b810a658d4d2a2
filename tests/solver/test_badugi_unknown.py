"""The inner pieces of the exact count against an unknown hand (solver/badugi/unknown.py).

The count itself is checked against a brute force in test_badugi_draw.py; here the pieces that
share work between known hands must give what each hand's own count gives."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handsolver.models.badugi_draw import DrawRule, parse_rule
from handsolver.models.cards import parse_cards
from handsolver.solver.badugi.equity import keep_choices
from handsolver.solver.badugi.unknown import UnknownOpponent


def _stub(ranks: str, hand: tuple[int, ...]) -> list[int]:
    """The cards of ``ranks`` (all four suits) outside ``hand``."""
    deck = parse_cards(" ".join(r + s for r in ranks for s in "cdhs"))
    return [card for card in deck if card not in hand]


@pytest.mark.parametrize(
    ("ranks", "hand", "rule"),
    [
        ("A2345", "Ac 2d 3h 3c", "best"),
        ("A23456", "Ac 2c 3h 4s", "break:3"),
    ],
)
def test_counts_many_equals_one_count_per_keep(ranks: str, hand: str, rule: str) -> None:
    cards = parse_cards(hand)
    opponent = UnknownOpponent(_stub(ranks, cards), parse_rule(rule))
    keeps = keep_choices(cards)
    assert opponent.counts_many(keeps) == [opponent.counts(keep) for keep in keeps]
    # any order, repeats and a single draw size give the same rows
    shuffled = keeps[::-3] + keeps[:2]
    assert opponent.counts_many(shuffled) == [opponent.counts(keep) for keep in shuffled]


def test_counts_many_refuses_a_stub_too_small_for_the_draws() -> None:
    cards = parse_cards("Ac 2d 3h 3c")
    opponent = UnknownOpponent(_stub("A23", cards), DrawRule())
    with pytest.raises(ValueError, match="cannot deal"):
        opponent.counts_many([(), cards])


@pytest.mark.parametrize(
    ("ranks", "hand", "rule"),
    [
        ("A23456", "Ac 2d 3h 3c", "best"),
        ("A2345678", "Ac 2c 3c 4c", "best"),
        ("A234567", "Ac 2d 3h 4s", "break:5"),
    ],
)
def test_overlap_count_equals_the_count_over_completions(ranks: str, hand: str, rule: str) -> None:
    """Two known cards a side, A drawing four: by the hands' overlap as over A's draws."""
    from handsolver.solver.badugi.known_tables import KnownTables
    from handsolver.solver.badugi.unknown_overlap import KnownSide, UnknownSide, overlap_counts
    from handsolver.solver.badugi.unknown_tables import counts_over_draws

    opponent = UnknownOpponent(_stub(ranks, parse_cards(hand)), parse_rule(rule))
    tables = [KnownTables(opponent, keep, 4) for keep in [(), ()]]
    batch = opponent.queries[(2, 2)]
    expected = counts_over_draws(tables, 2, 2, batch.z_ids, batch.s_ids)
    got = overlap_counts(
        opponent.sets,
        UnknownSide(opponent.rank_b, opponent.below_b),
        [KnownSide(table.rank_a, table.at_least_a) for table in tables],
        batch.z_ids,
        batch.s_ids,
    )
    assert len(batch.z_ids) > 100
    for mine, theirs in zip(got, expected, strict=True):
        assert (mine == theirs).all()


# Win and tie of the 16 keeps of Ac 2d 3h Kh (keep_choices order) against an unknown hand on
# the full deck, as the first exact engine counted them (stub_sets and the counts over hands
# and draws before the overlap, row and block forms; itself checked against the brute force on
# small decks and a Monte Carlo on this one).  Here the full-size paths run: int16 and uint16
# sums that wrap only at this size, chunked blocks, packed win-and-tie words.
FULL_DECK_KEEPS = [
    ("1999116491/2577017520", "11633759/2577017520"),
    ("88038860543/316973154960", "4256393/1320721479"),
    ("3868881059/13781441520", "1137861883/316973154960"),
    ("966113148373/6339463099200", "1800003223/1267892619840"),
    ("117335024461/316973154960", "13249087/7371468720"),
    ("54941178643/253578523968", "1868312671/1584865774800"),
    ("10221267053/46958985920", "7970891/6142890600"),
    ("326437214569/1831400450880", "348289277/490553692200"),
    ("1072962019/1320721479", "565336117/158486577480"),
    ("571983476521/1267892619840", "202081967/73714687200"),
    ("191661718949/422630873280", "3823071643/1267892619840"),
    ("8742162720677/27471006763200", "3298283627/2113154366400"),
    ("25640703373/56602349100", "21439168903/6339463099200"),
    ("75403025483/238878319680", "245559371/140876957760"),
    ("8709855087607/27471006763200", "82243847/42656842800"),
    ("222930003557099/782923692751200", "818911141513/782923692751200"),
]


@pytest.mark.slow  # CI only (python -m pytest -m slow): one of the slowest checks
def test_full_deck_table_equals_the_first_engines_counts() -> None:
    hand = parse_cards("Ac 2d 3h Kh")
    opponent = UnknownOpponent([card for card in range(52) if card not in hand], DrawRule())
    counts = opponent.counts_many(keep_choices(hand))
    assert [(str(c.win), str(c.tie)) for c in counts] == [
        (str(Fraction(win)), str(Fraction(tie))) for win, tie in FULL_DECK_KEEPS
    ]


@given(
    st.lists(st.integers(-(2**40), 2**40), min_size=1, max_size=30),
    st.integers(0, 2**16),
    st.integers(1, 2**61),
)
def test_exact_dot_is_the_python_integer_sum(values: list[int], seed: int, scale: int) -> None:
    """The digit-by-digit int64 products equal the plain Python sum, coefficients small or so
    large that only the Python fallback is exact."""
    import numpy as np

    from handsolver.solver.badugi.unknown import _exact_dot

    rng = np.random.default_rng(seed)
    coefficients = rng.integers(-scale, scale + 1, size=(len(values), 4))
    pairs = np.array([values, values[::-1]])
    expected = [
        [sum(v * int(c) for v, c in zip(row, column, strict=True)) for column in coefficients.T]
        for row in pairs.tolist()
    ]
    assert _exact_dot(pairs, coefficients).tolist() == expected
