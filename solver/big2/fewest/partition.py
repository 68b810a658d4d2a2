"""What the Big 2 engines answer with (a partition, all optimal partitions, a checked answer),
the preferences among equally short partitions, and how a partition is built from its chosen
five-card plays: every other card goes out by rank in singles, pairs and triples.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from handsolver.models.big2 import ONE_RANK_KINDS, SEED_RULES, Play, PlayKind, Rules, play_kind
from handsolver.models.cards import Card, CardSet, Notation, cards_of, mask_of

# Above this many cards the CP-SAT model beats the exact search (see scripts/bench_big2.py).
EXACT_MAX_CARDS = 18
DEFAULT_TIME_LIMIT = 10.0


class Prefer(StrEnum):
    """Which optimal partition to return when several reach the fewest plays."""

    ANY = "any"
    """The first one found (still deterministic)."""
    FEWEST_SINGLES = "fewest-singles"
    """Fewest single-card plays."""
    STRONGEST = "strongest"
    """Most dragons, then straight flushes, four of a kind + 1, full houses, flushes,
    straights, two pair + 1, four of a kind alone, two pair alone, triples, pairs (compared in
    that order)."""


class Method(StrEnum):
    """Which engine :func:`fewest_plays` uses."""

    AUTO = "auto"
    EXACT = "exact"
    CPSAT = "cp-sat"
    PLAIN = "plain"


@dataclass(frozen=True)
class Partition:
    """A partition of a hand into plays.

    ``optimal`` says whether no partition has fewer plays was proven; ``bound`` is the best
    proven lower bound on the count (equal to ``count`` when optimal).
    """

    count: int
    plays: tuple[Play, ...]
    optimal: bool
    bound: int
    method: str
    rules: Rules = SEED_RULES

    def card_lists(self, notation: Notation) -> list[list[str]]:
        """Each play's cards in ``notation``, lowest first in the rules' suit order."""
        return [notation.card_strings(play.cards_in(self.rules)) for play in self.plays]


@dataclass(frozen=True)
class Enumeration:
    """Optimal partitions: ``count`` of them exist (at least, unless ``complete``), of which
    ``partitions`` lists up to the requested limit."""

    best: int
    count: int
    complete: bool
    partitions: tuple[tuple[Play, ...], ...]


@dataclass(frozen=True)
class Check:
    """The verdict on a claimed answer: ``valid`` (a partition of the hand into legal plays),
    ``optimal`` (valid and no partition has fewer plays), and every ``problem`` found."""

    valid: bool
    optimal: bool
    count: int
    best: int
    problems: tuple[str, ...] = field(default=())
    rules: Rules = SEED_RULES


def hand_mask(hand: CardSet | Iterable[Card]) -> CardSet:
    """The hand as a card mask, whether given as one or as cards."""
    return hand if isinstance(hand, int) else mask_of(hand)


def rank_groups(cards: list[Card], rules: Rules, prefer: Prefer) -> list[list[Card]]:
    """One rank's ``cards`` (lowest first in the rules' suit order) split into the fewest
    one-rank plays the rules allow: whole if they are a play, otherwise a pair and a single
    (three cards without triples), a triple and the lowest single (four cards, preferring
    strength) or two pairs (four cards, otherwise)."""
    if not cards:
        return []
    if len(cards) in rules.small_sizes:
        return [cards]
    if len(cards) == 4 and 3 in rules.small_sizes and prefer is Prefer.STRONGEST:
        return [cards[1:], cards[:1]]
    if len(cards) == 4:
        return [cards[:2], cards[2:]]
    return [cards[1:], cards[:1]]


def rank_kinds(count: int, rules: Rules, prefer: Prefer) -> list[PlayKind]:
    """The kinds of the plays :func:`rank_groups` makes of ``count`` cards of a rank."""
    return [ONE_RANK_KINDS[len(group)] for group in rank_groups(list(range(count)), rules, prefer)]


def small_plays(rest: CardSet, prefer: Prefer, rules: Rules = SEED_RULES) -> list[Play]:
    """Play ``rest`` by rank in the fewest one-rank plays (see :func:`rank_groups`)."""
    plays: list[Play] = []
    key = rules.card_keys.__getitem__
    for rank in range(13):
        nib = rest >> (4 * rank) & 15
        if not nib:
            continue
        cards = sorted(cards_of(nib << (4 * rank)), key=key)
        plays.extend(
            Play(mask_of(group), ONE_RANK_KINDS[len(group)])
            for group in rank_groups(cards, rules, prefer)
        )
    return plays


STRENGTH_ORDER = (
    PlayKind.DRAGON,
    PlayKind.STRAIGHT_FLUSH,
    PlayKind.FOUR_OF_A_KIND,
    PlayKind.FULL_HOUSE,
    PlayKind.FLUSH,
    PlayKind.STRAIGHT,
    PlayKind.TWO_PAIR,
    PlayKind.FOUR,
    PlayKind.TWO_PAIR_ALONE,
    PlayKind.TRIPLE,
    PlayKind.PAIR,
)
_KIND_ORDER = {kind: index for index, kind in enumerate((*STRENGTH_ORDER, PlayKind.SINGLE))}


def sorted_plays(plays: Iterable[Play], rules: Rules = SEED_RULES) -> tuple[Play, ...]:
    """Plays in the order answers print them: larger plays first, then the stronger kind, then
    by the cards in Big 2 order (the rules' suit order)."""
    keys = rules.card_keys

    def order(play: Play) -> tuple[int, int, list[int]]:
        cards = sorted(keys[card] for card in cards_of(play.mask))
        return (-play.size, _KIND_ORDER[play.kind], cards)

    return tuple(sorted(plays, key=order))


def partition_of(
    hand: CardSet, fives: Iterable[CardSet], prefer: Prefer, rules: Rules = SEED_RULES
) -> tuple[Play, ...]:
    """The whole partition of ``hand``: the chosen plays of several ranks, the rest by rank."""
    plays = [Play(mask, play_kind(mask, rules)) for mask in fives]
    rest = hand
    for play in plays:
        rest ^= play.mask
    return sorted_plays(plays + small_plays(rest, prefer, rules), rules)


def preference_key(plays: Iterable[Play], prefer: Prefer) -> tuple[int, ...]:
    """Smaller is better among partitions with the same count, for ``prefer``: the number of
    singles, or the counts of each kind from :data:`STRENGTH_ORDER` (more is better)."""
    kinds = [play.kind for play in plays]
    if prefer is Prefer.FEWEST_SINGLES:
        return (kinds.count(PlayKind.SINGLE),)
    if prefer is Prefer.STRONGEST:
        return tuple(-kinds.count(kind) for kind in STRENGTH_ORDER)
    return ()
