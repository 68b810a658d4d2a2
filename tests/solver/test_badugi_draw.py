"""The draw engines against an independent brute force that plays every card sequence.

The brute force judges hands and chooses the kept cards straight from the rules (every subset of
the hand), deals unknown hands and draws in seat order by enumerating every subset of the stub,
and weighs each branch by its probability, ``1 / C(m, k)`` for ``k`` cards out of ``m``: the
answer is a probability, whatever the number of branches below each choice.  Reduced decks are
made with dead cards: every card of the ranks left out is dead.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb, lcm

import pytest

from handsolver.models.badugi_draw import Situation, parse_situation
from handsolver.models.cards import STANDARD, Card, InputError, parse_cards
from handsolver.solver.badugi import equity as badugi_equity
from handsolver.solver.badugi.equity import best_discard, draw_equity, is_exact, keep_choices
from handsolver.solver.badugi.unknown import unknown_counts

# --- the brute force --------------------------------------------------------------------------

LOW = "A23456789TJQK"


def low_rank(card: Card) -> int:
    return (card // 4 + 1) % 13  # ace low: A=0 .. K=12


def value(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """Greater is better: the most cards of distinct ranks and suits, then the lowest ranks."""
    return _value(tuple(sorted(cards)))


@cache
def _value(cards: tuple[Card, ...]) -> tuple[int, tuple[int, ...]]:
    return max(_candidates(cards))[0]


def _candidates(cards: Sequence[Card]) -> list[tuple[tuple[int, tuple[int, ...]], tuple[int, ...]]]:
    out = []
    for n in range(1, len(cards) + 1):
        for subset in combinations(cards, n):
            ranks = [low_rank(c) for c in subset]
            if len(set(ranks)) == n and len({c % 4 for c in subset}) == n:
                out.append(((n, tuple(-r for r in sorted(ranks, reverse=True))), subset))
    return out


def played(cards: Sequence[Card]) -> set[Card]:
    """The played sub-hand; between equal values, the one whose cards (by rank, then suit
    c<d<h<s) are lowest from the top down, as ``played_cards`` documents."""
    return set(_played(tuple(sorted(cards))))


@cache
def _played(cards: tuple[Card, ...]) -> frozenset[Card]:
    candidates = _candidates(cards)
    best = max(v for v, _ in candidates)
    order = {c: low_rank(c) * 4 + c % 4 for c in cards}
    return frozenset(
        min(
            (s for v, s in candidates if v == best),
            key=lambda s: sorted((order[c] for c in s), reverse=True),
        )
    )


def keep(spec: str, hand: Sequence[Card], draw: int) -> set[Card]:
    """The kept cards, from the rule's words."""
    name, _, arg = spec.partition(":")
    if name == "pat" and not arg:
        return set(hand)
    if name == "keep" and draw == 0:
        wanted = {STANDARD.format(c) for c in hand} & set(arg.split())
        return {c for c in hand if STANDARD.format(c) in wanted}
    kept = played(hand)
    if name in ("break", "pat") and arg and len(kept) == 4:
        ranks = sorted((low_rank(c) for c in hand), reverse=True)
        limit = [LOW.index(r) for r in arg.split("-")]
        if ranks[: len(limit)] > limit:
            kept -= {max(hand, key=low_rank)}
    return kept


Counts = dict[int, list[int]]
"""Probabilities as whole numbers over their denominators: {denominator: numerators}."""


def _add_counts(total: Counts, part: Counts, ways: int) -> None:
    """Adds ``part`` divided by ``ways`` into ``total``."""
    for denominator, numerators in part.items():
        into = total.setdefault(denominator * ways, [0] * len(numerators))
        for i, n in enumerate(numerators):
            into[i] += n


def brute(spot: Situation) -> list[tuple[Fraction, Fraction, Fraction]]:
    """Each player's (win, tie, equity) probabilities over every card sequence."""
    players = len(spot.hands)
    specs = [rule.spec for rule in spot.rules]
    scale = lcm(*range(1, players + 1))  # a tied share 1/k, counted in whole units

    def showdown(hands: list[tuple[Card, ...]]) -> Counts:
        """(win, tie, equity) of each player, one after another."""
        values = [value(h) for h in hands]
        best = max(values)
        tied = values.count(best)
        out = [0] * (3 * players)
        for i, v in enumerate(values):
            if v == best:
                out[3 * i + (0 if tied == 1 else 1)] = scale
                out[3 * i + 2] = scale // tied
        return {scale: out}

    def play(hands: list[tuple[Card, ...]], stub: tuple[Card, ...], turn: int) -> Counts:
        draw, player = divmod(turn, players)
        if draw == spot.draws:
            return showdown(hands)
        kept = keep(specs[player], hands[player], draw)
        need = 4 - len(kept)
        ways = comb(len(stub), need)
        total: Counts = {}
        for cards in combinations(stub, need):
            new = list(hands)
            new[player] = tuple(c for c in hands[player] if c in kept) + cards
            _add_counts(total, play(new, tuple(c for c in stub if c not in cards), turn + 1), ways)
        return total

    def deal(hands: list[tuple[Card, ...] | None], stub: tuple[Card, ...]) -> Counts:
        if None not in hands:
            return play(list(hands), stub, 0)  # type: ignore[arg-type]
        i = hands.index(None)
        ways = comb(len(stub), 4)
        total: Counts = {}
        for cards in combinations(stub, 4):
            new = list(hands)
            new[i] = cards
            _add_counts(total, deal(new, tuple(c for c in stub if c not in cards)), ways)
        return total

    flat = [Fraction(0)] * (3 * players)
    for denominator, numerators in deal(list(spot.hands), spot.stub).items():
        flat = [f + Fraction(n, denominator) for f, n in zip(flat, numerators, strict=True)]
    return [tuple(flat[3 * i : 3 * i + 3]) for i in range(players)]  # type: ignore[misc]


def reduced(ranks: str, hands: list[str], **options: object) -> Situation:
    """A spot on a deck of only ``ranks`` (all four suits): the other ranks are dead."""
    dead = " ".join(r + s for r in "A23456789TJQK" if r not in ranks for s in "cdhs")
    extra = str(options.pop("dead", ""))
    return parse_situation(hands, dead=f"{dead} {extra}", **options)  # type: ignore[arg-type]


# --- exact counts against the brute force -----------------------------------------------------

ONE_DRAW = [
    # reduced decks, every kind of rule, draws of one to four cards, pat hands, ties
    ("A2345", ["Ac 2d 3h 3c", "4c 5d 2h 2s"], {}),
    ("A23456", ["Ac 2c 3c 4c", "5d 6d 5h 6h"], {}),
    ("A23456", ["Ac 2d 3h 4s", "5c 6c 5d 6d"], {"rules": ["best", "keep:"]}),  # pat vs four
    ("A2345", ["Ac 2d 3h 4s", "Ad 2c 3s 4h"], {}),  # two pat number ones: always a tie
    ("A23456", ["Ac 2d 3h 6s", "4c 5d 2h 2s"], {"rules": ["break:5"]}),
    ("A23456", ["Ac 2d 3h 6s", "4c 5d 2h 2s"], {"rules": ["pat:6-3", "pat"]}),
    ("A23456", ["Ac 2d 3h 6s", "4c 5d 2h 2s"], {"keep": "Ac 6s", "dead": "5h"}),
    # the full deck, small draws
    ("A23456789TJQK", ["Ac 2d 3h Kh", "5c 6d 7h 8h"], {}),
    ("A23456789TJQK", ["Ac 2d 3h Kh", "5c 6d 7c 8c"], {"dead": "4s 4c"}),
]


MORE_DRAWS = [
    # known hands, two and three draws: every path of each hand listed
    ("A2345", ["Ac 2d 3h 3c", "4c 5d 2h 2s"], {"draws": 2}),
    ("A2345", ["Ac 2d 3h 4s", "4c 5d 2h 2s"], {"draws": 2, "rules": ["break:3"]}),
    ("A2345", ["Ac 2d 3h 3c", "4c 5d 2h 2s"], {"draws": 2, "keep": "Ac 2d"}),
    ("A23456", ["Ac 2d 3h 6c", "4c 5d 2h 6s"], {"draws": 2}),
    ("A234567", ["Ac 2d 3h 7c", "4c 5d 6h 7s"], {"draws": 3}),
    ("A234567", ["Ac 2d 3h 7c", "4c 5d 6h 7s"], {"draws": 3, "rules": ["pat:7", "best"]}),
]


@pytest.mark.parametrize(("ranks", "hands", "options"), ONE_DRAW + MORE_DRAWS)
def test_exact_counts_equal_the_brute_force(
    ranks: str, hands: list[str], options: dict[str, object]
) -> None:
    spot = reduced(ranks, hands, **options)
    assert is_exact(spot)
    answer = draw_equity(spot)
    expected = brute(spot)
    for share, (win, tie, equity) in zip(answer.players, expected, strict=True):
        assert (share.win, share.tie, share.equity) == (win, tie, equity)
        assert share.win + share.tie + share.loss == 1


UNKNOWN = [
    ("A234", ["Ac 2d 3h 3c", "?"], {}),
    ("A2345", ["Ac 2d 3h 4c", "?"], {"dead": "5s 5h 5d"}),
    ("A234", ["Ac 2d 3h 4s", "?"], {}),  # standing pat
    ("A234", ["?", "Ac 2d 3h 4s"], {"rules": ["break:3"]}),  # the unknown hand first
    ("A2345", ["Ac 2d 5h 3c", "?"], {"dead": "5s 4s 4d"}),
    ("A234", ["Ac 2d 4h 3s", "?"], {"rules": ["break:3", "pat:3"]}),
    # the known hand drawing two, three and four cards; the unknown one first; dead cards
    ("A234", ["Ac 2c 3h 3d", "?"], {}),
    ("A234", ["Ac Ad 3h 3d", "?"], {"rules": ["best", "break:3"]}),
    ("A234", ["Ac Ad Ah 3d", "?"], {"dead": "4s"}),
    ("A234", ["Ac 2c 3c 4c", "?"], {}),
    ("A234", ["Ac Ad Ah As", "?"], {"keep": ""}),
    ("A234", ["?", "Ac 2c 3h 4s"], {"rules": ["pat:3", "keep:2c"]}),
    ("A2345", ["Ac 2c 3h 3d", "?"], {"dead": "5s 5h 4d"}),
    ("A2345", ["Ac 2c 3c 5d", "?"], {"dead": "5s 5h 4d", "rules": ["best", "break:4"]}),
    ("A2345", ["Ac Ad 2c 2d", "?"], {"dead": "5s 4d 3h", "keep": ""}),
]


@pytest.mark.parametrize(("ranks", "hands", "options"), UNKNOWN)
def test_unknown_opponent_exact_equals_the_brute_force(
    ranks: str, hands: list[str], options: dict[str, object]
) -> None:
    spot = reduced(ranks, hands, **options)
    assert is_exact(spot)
    answer = draw_equity(spot)
    for share, (win, tie, equity) in zip(answer.players, brute(spot), strict=True):
        assert (share.win, share.tie, share.equity) == (win, tie, equity)


@pytest.mark.parametrize(
    ("hand", "keep"), [("Ac 2c 3h 3d", "Ac 3d"), ("Ac 2c 3c 4c", "Ac"), ("Ac 2c 3c 4c", "")]
)
def test_a_bigger_draw_is_the_mean_over_its_first_card(hand: str, keep: str) -> None:
    """On a seven-rank deck (too big for the brute force): A drawing ``a`` cards is A drawing
    one card ``c`` first, uniform over the stub, then ``a - 1`` against an unknown hand dealt
    from the stub less ``c`` — each count by a different route through the engine."""
    spot = reduced("A234567", [hand, "?"])
    kept = parse_cards(keep)
    whole = unknown_counts(spot.stub, kept, 4 - len(kept), spot.rules[1])
    parts = [
        unknown_counts([d for d in spot.stub if d != c], (*kept, c), 3 - len(kept), spot.rules[1])
        for c in spot.stub
    ]
    n = len(spot.stub)
    assert whole.win == sum(part.win for part in parts) / n
    assert whole.tie == sum(part.tie for part in parts) / n
    assert whole.sequences * (4 - len(kept)) == sum(part.sequences for part in parts)


def test_more_draws_with_too_many_sequences_are_estimated() -> None:
    spot = parse_situation(["Ac 5c 9c Kc", "2d 6d Td Qd"], draws=2)  # three cards each, twice
    assert not is_exact(spot)
    assert not draw_equity(spot, samples=2_000).exact
    assert is_exact(parse_situation(["Ac 2d 3h Kh", "5c 6d 7h 8c"], draws=3))  # one card each


def test_discard_table_with_two_draws_equals_the_brute_force() -> None:
    hands, rules = ["Ac 2d 3h 3c", "4c 5d 2h 3s"], ["best", "pat"]
    spot = reduced("A2345", hands, draws=2, rules=rules)
    table = best_discard(spot)
    assert all(isinstance(row.equity, Fraction) for row in table)
    for row in table:
        spec = "keep:" + " ".join(STANDARD.format(c) for c in row.keep)
        forced = reduced("A2345", hands, draws=2, rules=[spec, "pat"])
        assert row.equity == brute(forced)[0][2]


def test_discard_table_needs_cards_for_throwing_four() -> None:
    spot = reduced("A234", ["Ac 2d 3h 3c", "?"], dead="4s 4d")  # 10 cards: a hand, two 3-card draws
    with pytest.raises(InputError, match="too few cards"):
        best_discard(spot)


def test_sequence_count_is_every_pair_of_draws() -> None:
    spot = parse_situation(["Ac 2d 3h Kh", "5c 6d 7c 8c"])
    assert draw_equity(spot).sequences == comb(44, 1) * comb(43, 2)


def test_discard_table_equals_the_brute_force_for_every_choice() -> None:
    spot = reduced("A23456", ["Ac 2d 5h 5s", "4c 3d 2h 2s"])
    table = best_discard(spot)
    assert len(table) == 16 and len({row.keep for row in table}) == 16
    assert [row.equity for row in table] == sorted((row.equity for row in table), reverse=True)
    hand = spot.hands[0]
    assert hand is not None
    for row in table:
        spec = "keep:" + " ".join(STANDARD.format(c) for c in row.keep)
        forced = parse_situation(
            [STANDARD.format_cards(h or ()) for h in spot.hands],
            dead=STANDARD.format_cards(spot.dead),
            rules=[spec],
        )
        assert row.equity == brute(forced)[0][2]
        assert row.cost == table[0].equity - row.equity
    assert sum(row.default for row in table) == 1
    assert set(next(r for r in table if r.default).keep) == played(hand)


@pytest.mark.slow  # CI only (python -m pytest -m slow): one of the slowest checks
def test_discard_table_against_an_unknown_hand_equals_the_brute_force() -> None:
    spot = reduced("A234", ["Ac 2c 3h 3d", "?"], dead="4s")
    assert is_exact(spot)
    table = best_discard(spot)
    assert len({row.keep for row in table}) == 16
    for row in table:
        spec = "keep:" + " ".join(STANDARD.format(c) for c in row.keep)
        forced = parse_situation(
            ["Ac 2c 3h 3d", "?"], dead=STANDARD.format_cards(spot.dead), rules=[spec]
        )
        assert row.equity == brute(forced)[0][2]
    assert [row.equity for row in table] == sorted((row.equity for row in table), reverse=True)
    badugi_equity._unknown.cache_clear()  # counted again, the keeps spread over two processes
    assert best_discard(spot, workers=2) == table


# --- estimates against exact answers ----------------------------------------------------------


def _close(estimate: float, exact: Fraction, stderr: float) -> bool:
    return abs(estimate - float(exact)) <= 5 * stderr + 1e-12


@pytest.mark.parametrize(("ranks", "hands", "options"), ONE_DRAW[4:9])
def test_one_draw_estimate_agrees_with_the_exact_answer(
    ranks: str, hands: list[str], options: dict[str, object]
) -> None:
    spot = reduced(ranks, hands, **options)
    exact = draw_equity(spot)
    estimate = draw_equity(spot, samples=40_000, seed=7, estimate=True)
    assert not estimate.exact and estimate.samples == 40_000
    for guess, share in zip(estimate.players, exact.players, strict=True):
        assert guess.stderr is not None
        assert _close(float(guess.win), Fraction(share.win), guess.stderr["win"])
        assert _close(float(guess.equity), Fraction(share.equity), guess.stderr["equity"])


def test_unknown_opponent_estimate_agrees_with_the_exact_answer() -> None:
    spot = parse_situation(["Ac 2c 3h Kh", "?"])  # the full deck, the known hand drawing two
    exact = draw_equity(spot)
    estimate = draw_equity(spot, samples=40_000, seed=9, estimate=True)
    assert exact.exact and not estimate.exact
    for guess, share in zip(estimate.players, exact.players, strict=True):
        assert guess.stderr is not None
        assert _close(float(guess.win), Fraction(share.win), guess.stderr["win"])
        assert _close(float(guess.equity), Fraction(share.equity), guess.stderr["equity"])


def test_one_draw_discard_estimates_agree_with_the_exact_table() -> None:
    spot = reduced("A23456", ["Ac 2d 5h 5s", "4c 3d 2h 2s"])
    exact = {row.keep: row.equity for row in best_discard(spot)}
    for row in best_discard(spot, samples=20_000, seed=3, estimate=True):
        assert row.stderr is not None
        assert _close(float(row.equity), Fraction(exact[row.keep]), row.stderr)


TWO_DRAWS = [
    ("A2345", ["Ac 2d 3h 3c", "4c 5d 2h 2s"], {"draws": 2}),
    ("A2345", ["Ac 2d 3h 4s", "4c 5d 2h 2s"], {"draws": 2, "rules": ["break:3"]}),
    ("A2345", ["Ac 2c 3h 3d", "?"], {"draws": 2, "rules": ["best", "pat"], "dead": "5s 5h 5d"}),
    ("A2345", ["Ac 2d 3h 3c", "4c 5d 5h 2s", "?"], {"rules": ["best", "best", "pat"]}),
]


@pytest.mark.parametrize(("ranks", "hands", "options"), TWO_DRAWS)
def test_estimates_agree_with_the_brute_force(
    ranks: str, hands: list[str], options: dict[str, object]
) -> None:
    spot = reduced(ranks, hands, **options)
    estimate = draw_equity(spot, samples=30_000, seed=11, estimate=True)
    assert not estimate.exact
    for guess, (win, tie, equity) in zip(estimate.players, brute(spot), strict=True):
        assert guess.stderr is not None
        assert _close(float(guess.win), win, guess.stderr["win"])
        assert _close(float(guess.tie), tie, guess.stderr["tie"] + 1e-3 * (tie == 0))
        assert _close(float(guess.equity), equity, guess.stderr["equity"])


def test_estimates_do_not_depend_on_the_workers() -> None:
    spot = parse_situation(["Ac 2d 3h Kh", "?", "?"], draws=3)
    one = draw_equity(spot, samples=60_000, seed=5)
    two = draw_equity(spot, samples=60_000, seed=5, workers=2)
    assert one == two
    assert draw_equity(spot, samples=60_000, seed=6) != one


def test_common_random_numbers_make_differences_sharper_than_equities() -> None:
    spot = parse_situation(["Ac 2d 3h Kh", "?"], draws=2)
    table = best_discard(spot, samples=25_000, seed=2)
    second = table[1]
    assert second.cost_stderr is not None and second.stderr is not None
    assert second.cost_stderr < second.stderr * 1.5
    assert all(row.keep in keep_choices(spot.hands[0] or ()) for row in table)
