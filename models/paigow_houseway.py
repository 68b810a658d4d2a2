"""House ways as data: how a Pai Gow dealer must set seven cards, one table per casino.

A house way here decides at the level of ranks.  The hand's *pattern* is read from its rank
counts, the joker counting as an ace (A + joker is a pair of aces, four aces + joker are five
aces).  The pattern names which two ranks go to the low hand; the solver then picks, among the
settings whose low hand has those ranks, the one with the strongest high hand (so a flush is
never broken needlessly).  For the patterns listed in :attr:`HouseWay.straight_flush_over`, a
hand that can put a straight, flush or straight flush in the high hand plays one instead: the one
that leaves the highest low hand, then the strongest high hand.

The rules of a pattern, in the order they are checked (ranks ``2`` to ``A`` are 0 to 12):

- **five aces** (four aces and the joker): together, with the other two cards low, when those
  are a pair at least :attr:`HouseWay.five_aces_keep_pair`; otherwise a pair of aces goes low.
- **quads and trips**: a pair of the trips low.  **quads and a pair**: the pair low.
- **quads**: together, with the two highest singles low, when the highest single reaches the
  quads rule's ``keep_with`` rank (:class:`RankRule`); otherwise split, a pair of them low.
- **two trips**: a pair of the higher trips low.  **trips and two pairs**: the higher pair low.
- **full house**: the pair low, unless the pair's rank is in :attr:`HouseWay.full_house_keep`
  and the singles are an ace and a king (then together, A-K low).
- **trips**: the two highest singles low; **three aces** (with :attr:`HouseWay.split_three_aces`):
  an ace and the highest single low, a pair of aces high.
- **three pair**: the highest pair low.
- **two pair**: the first :class:`TwoPairRule` matching the two pairs decides: together (the two
  highest singles low) when the highest single reaches ``keep_with``, else split (the lower pair
  low).  No matching rule: split.
- **one pair**: the two highest singles low; **one pair with an ace** (a pair in
  :attr:`HouseWay.pair_ace_low` and an ace single): the same, and a straight or flush is played
  over it only when it leaves a low hand at least as high (:attr:`Plan.unless_lower`).
  **no pair**: the second and third highest cards low.

>>> plan_of(TRUMP_PLAZA, counts_of_ranks("KKQQ532"))[:3]  # pattern, low ranks, straight/flush
('two pair, split', (10, 10), False)
>>> plan_of(TRUMP_PLAZA, counts_of_ranks("55332A9"))[:3]
('two pair, together', (12, 7), False)
>>> plan_of(DEALER_GUIDE, counts_of_ranks("KQJT9A5"))[:3]
('no pair', (11, 10), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from handsolver.models.cards import RANKS, InputError

ACE, KING = 12, 11
NEVER = 13
"""A ``keep_with`` rank no single reaches: always split."""
ALWAYS = 0
"""A ``keep_with`` rank every single reaches: always keep together."""

PATTERNS = (
    "no pair",
    "one pair",
    "one pair with an ace",
    "two pair, together",
    "two pair, split",
    "three pair",
    "trips",
    "three aces",
    "two trips",
    "full house",
    "full house, together",
    "trips and two pairs",
    "quads, together",
    "quads, split",
    "quads and pair",
    "quads and trips",
    "five aces, together",
    "five aces, split",
)


def rank_index(symbol: str) -> int:
    """The rank index of a rank symbol, ``'2'`` -> 0 .. ``'A'`` -> 12."""
    return RANKS.index(symbol)


@dataclass(frozen=True)
class TwoPairRule:
    """Two pair whose higher pair is in ``high`` and lower pair in ``low`` (inclusive rank
    ranges, e.g. ``("J", "K")``) stay together when the highest single is at least
    ``keep_with`` (a rank symbol; ``"never"`` always splits, ``"always"`` never does)."""

    high: tuple[str, str]
    low: tuple[str, str]
    keep_with: str

    def matches(self, high: int, low: int) -> bool:
        return _within(high, self.high) and _within(low, self.low)

    @property
    def keep_rank(self) -> int:
        return _keep_rank(self.keep_with)


@dataclass(frozen=True)
class RankRule:
    """Quads of a rank in ``ranks`` stay together when the highest single is at least
    ``keep_with`` (as in :class:`TwoPairRule`)."""

    ranks: tuple[str, str]
    keep_with: str

    @property
    def keep_rank(self) -> int:
        return _keep_rank(self.keep_with)


def _within(rank: int, bounds: tuple[str, str]) -> bool:
    return rank_index(bounds[0]) <= rank <= rank_index(bounds[1])


def _keep_rank(keep_with: str) -> int:
    special = {"never": NEVER, "always": ALWAYS}
    return special[keep_with] if keep_with in special else rank_index(keep_with)


@dataclass(frozen=True)
class HouseWay:
    """One casino's house way: the rules above, with these parameters."""

    name: str
    title: str
    source: str
    two_pair: tuple[TwoPairRule, ...]
    quads: tuple[RankRule, ...]
    straight_flush_over: frozenset[str]
    split_three_aces: bool
    full_house_keep: frozenset[str]
    five_aces_keep_pair: str
    pair_ace_low: tuple[str, str] | None = None
    """Pairs of these ranks (inclusive) with an ace single: the ace and the next single go low
    rather than a straight or flush high, when that gives the higher low hand."""
    pair_straight_by_cards: bool = False
    """One pair and a straight or flush: the straight or flush that leaves the two highest
    cards low, a pair counting as its rank (7-7 below A-K), instead of the highest low hand."""

    def __post_init__(self) -> None:
        unknown = self.straight_flush_over - set(PATTERNS)
        if unknown:
            raise ValueError(f"{self.name}: unknown patterns {sorted(unknown)}")


class Plan(NamedTuple):
    """What a house way does with a pattern: its name, the low hand's two ranks (high first,
    the joker as an ace) and whether a straight, flush or straight flush is played instead."""

    pattern: str
    low: tuple[int, int]
    straight_flush: bool
    unless_lower: bool = False
    """Play the straight or flush only when it leaves a low hand at least as high as ``low``."""
    by_cards: bool = False
    """Choose among straights and flushes by the low hand's two ranks, a pair as its rank."""


TRUMP_PLAZA = HouseWay(
    name="trump-plaza",
    title="Trump Plaza (Atlantic City)",
    source=(
        "two-pair rule as published by M. Shackleford (Wizard of Odds, sonofdave.com appendix 2);"
        " the other rules are the usual ones of Atlantic City and Las Vegas house ways"
    ),
    two_pair=(
        TwoPairRule(("A", "A"), ("2", "K"), "never"),
        TwoPairRule(("J", "K"), ("7", "K"), "never"),
        TwoPairRule(("J", "K"), ("2", "6"), "A"),
        TwoPairRule(("7", "T"), ("7", "T"), "A"),
        TwoPairRule(("7", "T"), ("2", "6"), "K"),
        TwoPairRule(("2", "6"), ("2", "6"), "K"),
    ),
    quads=(
        RankRule(("2", "6"), "always"),
        RankRule(("7", "T"), "K"),
        RankRule(("J", "K"), "A"),
        RankRule(("A", "A"), "never"),
    ),
    straight_flush_over=frozenset({"no pair", "one pair", "trips", "three aces"}),
    split_three_aces=True,
    full_house_keep=frozenset({"2"}),
    five_aces_keep_pair="K",
)

DEALER_GUIDE = HouseWay(
    name="dealer-guide",
    title="Dealer-school house way (Las Vegas)",
    source=(
        "two-pair rule as taught in Las Vegas dealer guides (vegas-aces.com, part 6): J-6 and"
        " higher split, 6-5 and lower together, else split unless an ace"
    ),
    two_pair=(
        TwoPairRule(("A", "A"), ("2", "K"), "never"),
        TwoPairRule(("J", "K"), ("6", "K"), "never"),
        TwoPairRule(("2", "6"), ("2", "6"), "always"),
        TwoPairRule(("2", "K"), ("2", "K"), "A"),
    ),
    quads=(
        RankRule(("2", "6"), "always"),
        RankRule(("7", "K"), "A"),
        RankRule(("A", "A"), "never"),
    ),
    straight_flush_over=frozenset({"no pair", "one pair", "trips", "three aces"}),
    split_three_aces=True,
    full_house_keep=frozenset(),
    five_aces_keep_pair="K",
)

FOXWOODS = HouseWay(
    name="foxwoods",
    title="Foxwoods (Connecticut)",
    source=(
        "the Foxwoods house way as published with the only exact analysis of the whole game"
        " (summarized in its short form); every reading chosen is listed in docs/paigow.md"
    ),
    two_pair=(
        TwoPairRule(("J", "A"), ("2", "K"), "never"),
        TwoPairRule(("7", "T"), ("2", "T"), "A"),
        TwoPairRule(("2", "6"), ("2", "6"), "K"),
    ),
    quads=(
        RankRule(("2", "6"), "always"),
        RankRule(("7", "T"), "K"),
        RankRule(("J", "A"), "never"),
    ),
    straight_flush_over=frozenset(
        {"no pair", "one pair", "one pair with an ace", "trips", "three aces"}
    ),
    split_three_aces=True,
    full_house_keep=frozenset(),
    five_aces_keep_pair="K",
    pair_ace_low=("T", "K"),
)

HOUSE_WAYS: dict[str, HouseWay] = {way.name: way for way in (TRUMP_PLAZA, DEALER_GUIDE, FOXWOODS)}


def house_way_named(name: str) -> HouseWay:
    """The shipped house way called ``name``.

    >>> house_way_named("mgm")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: unknown house way 'mgm' (known: dealer-guide, ...)
    """
    try:
        return HOUSE_WAYS[name]
    except KeyError:
        import difflib

        known = ", ".join(sorted(HOUSE_WAYS))
        close = difflib.get_close_matches(name.lower(), sorted(HOUSE_WAYS), n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise InputError(f"unknown house way {name!r} (known: {known}){hint}") from None


def counts_of_ranks(symbols: str) -> tuple[int, ...]:
    """Rank counts of rank symbols such as ``"KKQQ532"`` (for examples and tests)."""
    counts = [0] * 13
    for symbol in symbols:
        counts[rank_index(symbol)] += 1
    return tuple(counts)


def plan_of(way: HouseWay, counts: Sequence[int]) -> Plan:
    """The house way's plan for seven cards with these rank counts (the joker counted as an
    ace, so the ace count may be 5)."""
    pattern, low = _pattern_and_low(way, counts)
    one_pair = pattern in ("one pair", "one pair with an ace")
    return Plan(
        pattern,
        low,
        pattern in way.straight_flush_over,
        pattern == "one pair with an ace",
        one_pair and way.pair_straight_by_cards,
    )


def _pattern_and_low(way: HouseWay, counts: Sequence[int]) -> tuple[str, tuple[int, int]]:
    by_count: dict[int, list[int]] = {n: [] for n in range(1, 6)}
    for rank in range(12, -1, -1):
        if counts[rank]:
            by_count[counts[rank]].append(rank)
    singles, pairs, trips, quads = by_count[1], by_count[2], by_count[3], by_count[4]
    if by_count[5]:
        if pairs and pairs[0] >= rank_index(way.five_aces_keep_pair):
            return "five aces, together", (pairs[0], pairs[0])
        return "five aces, split", (ACE, ACE)
    if quads:
        quad = quads[0]
        if trips:
            return "quads and trips", (trips[0], trips[0])
        if pairs:
            return "quads and pair", (pairs[0], pairs[0])
        quad_rule = next(rule for rule in way.quads if _within(quad, rule.ranks))
        if singles[0] >= quad_rule.keep_rank:
            return "quads, together", (singles[0], singles[1])
        return "quads, split", (quad, quad)
    if len(trips) == 2:
        return "two trips", (trips[0], trips[0])
    if trips and len(pairs) == 2:
        return "trips and two pairs", (pairs[0], pairs[0])
    if trips and pairs:
        keep = RANKS[pairs[0]] in way.full_house_keep and singles == [ACE, KING]
        if keep:
            return "full house, together", (ACE, KING)
        return "full house", (pairs[0], pairs[0])
    if trips:
        if trips[0] == ACE and way.split_three_aces:
            return "three aces", (ACE, singles[0])
        return "trips", (singles[0], singles[1])
    if len(pairs) == 3:
        return "three pair", (pairs[0], pairs[0])
    if len(pairs) == 2:
        high, low = pairs
        rule = next((rule for rule in way.two_pair if rule.matches(high, low)), None)
        if rule is not None and singles[0] >= rule.keep_rank:
            return "two pair, together", (singles[0], singles[1])
        return "two pair, split", (low, low)
    if pairs:
        ace_rule = way.pair_ace_low
        if ace_rule is not None and singles[0] == ACE and _within(pairs[0], ace_rule):
            return "one pair with an ace", (singles[0], singles[1])
        return "one pair", (singles[0], singles[1])
    return "no pair", (singles[1], singles[2])
