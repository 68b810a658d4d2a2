"""What the Big 2 engines answer with (a partition, all optimal partitions, a checked answer),
the preferences among equally short partitions, and how a partition is built from its chosen
five-card plays: every other card goes out by rank in singles, pairs and triples.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from handsolver.models.big2 import Play, PlayKind, big2_card_key, play_kind
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
    """Most straight flushes, then four of a kind + 1, full houses, flushes, straights,
    triples, pairs (compared in that order)."""


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

    def card_lists(self, notation: Notation) -> list[list[str]]:
        return [notation.card_strings(play.cards) for play in self.plays]


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


def hand_mask(hand: CardSet | Iterable[Card]) -> CardSet:
    """The hand as a card mask, whether given as one or as cards."""
    return hand if isinstance(hand, int) else mask_of(hand)


def small_plays(rest: CardSet, prefer: Prefer) -> list[Play]:
    """Play ``rest`` by rank in the fewest singles, pairs and triples."""
    plays: list[Play] = []
    for rank in range(13):
        nib = rest >> (4 * rank) & 15
        if not nib:
            continue
        cards = sorted(cards_of(nib << (4 * rank)), key=big2_card_key)
        if len(cards) < 4:
            groups = [cards]
        elif prefer is Prefer.STRONGEST:
            groups = [cards[1:], cards[:1]]
        else:
            groups = [cards[:2], cards[2:]]
        plays.extend(Play(mask_of(group), PlayKind(len(group))) for group in groups)
    return plays


def _play_order(play: Play) -> tuple[int, int, list[int]]:
    return (-play.size, -play.kind, [big2_card_key(card) for card in play.cards])


def sorted_plays(plays: Iterable[Play]) -> tuple[Play, ...]:
    """Plays in the order answers print them: larger plays first, then the stronger kind, then
    by the cards in Big 2 order."""
    return tuple(sorted(plays, key=_play_order))


def partition_of(hand: CardSet, fives: Iterable[CardSet], prefer: Prefer) -> tuple[Play, ...]:
    """The whole partition of ``hand``: the chosen five-card plays, the rest by rank."""
    plays = [Play(mask, play_kind(mask)) for mask in fives]
    rest = hand
    for play in plays:
        rest ^= play.mask
    return sorted_plays(plays + small_plays(rest, prefer))


STRENGTH_ORDER = (
    PlayKind.STRAIGHT_FLUSH,
    PlayKind.FOUR_OF_A_KIND,
    PlayKind.FULL_HOUSE,
    PlayKind.FLUSH,
    PlayKind.STRAIGHT,
    PlayKind.TRIPLE,
    PlayKind.PAIR,
)


def preference_key(plays: Iterable[Play], prefer: Prefer) -> tuple[int, ...]:
    """Smaller is better among partitions with the same count, for ``prefer``."""
    kinds = [play.kind for play in plays]
    if prefer is Prefer.FEWEST_SINGLES:
        return (kinds.count(PlayKind.SINGLE),)
    if prefer is Prefer.STRONGEST:
        return tuple(-kinds.count(kind) for kind in STRENGTH_ORDER)
    return ()
