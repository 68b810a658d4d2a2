"""Big 2 plays: which card sets may be played together, and every such play in a hand.

A play is a single, a pair, a triple (cards of one rank), or five cards forming a straight, a
flush, a straight flush, a full house (three of one rank and two of another) or four of a kind
plus any one card of another rank.  A straight is five consecutive ranks in any suits; the two
is an ordinary rank in it (``23456`` is a straight) and the ace is only ever an end: the only
straights holding an ace are ``A2345`` and ``TJQKA`` (so ``JQKA2``, ``QKA23``, ``KA234`` are
not straights).

>>> play_kind(parse_cards("As 2s 3d 4h 5c"))
<PlayKind.STRAIGHT: 4>
>>> play_kind(parse_cards("Ts Js Qs Ks As"))
<PlayKind.STRAIGHT_FLUSH: 8>
>>> try:
...     play_kind(parse_cards("Js Qd Kh As 2c"))
... except IllegalPlayError as error:
...     print(error)
'2c Js Qd Kh As' is not a play: an ace only ends A2345 or TJQKA

Big 2 ranks run from three (low) to two (high) and suits diamonds < clubs < hearts < spades;
:func:`big2_card_key` orders cards that way for output.  The card model is the shared one of
:mod:`handsolver.models.cards` (poker rank order inside the int).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from enum import IntEnum
from itertools import combinations
from typing import NamedTuple

from handsolver.models.cards import (
    Card,
    CardSet,
    InputError,
    Notation,
    card_name,
    cards_of,
    mask_of,
    parse_cards,
    rank_of,
    suit_of,
)

__all__ = [
    "FIVE_CARD_KINDS",
    "STRAIGHT_RANKS",
    "IllegalPlayError",
    "Play",
    "PlayKind",
    "answer_readings",
    "big2_card_key",
    "count_plays",
    "five_card_masks",
    "iter_legal_plays",
    "legal_plays",
    "parse_answer",
    "play_kind",
]


class PlayKind(IntEnum):
    """The kind of a play; among five-card plays a greater value beats a smaller one."""

    SINGLE = 1
    PAIR = 2
    TRIPLE = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """The kind in words, e.g. ``'full house'`` or ``'four of a kind + 1'``."""
        return _LABELS[self]

    @property
    def size(self) -> int:
        """How many cards a play of this kind has."""
        return int(self) if self <= PlayKind.TRIPLE else 5


_LABELS = {
    PlayKind.SINGLE: "single",
    PlayKind.PAIR: "pair",
    PlayKind.TRIPLE: "triple",
    PlayKind.STRAIGHT: "straight",
    PlayKind.FLUSH: "flush",
    PlayKind.FULL_HOUSE: "full house",
    PlayKind.FOUR_OF_A_KIND: "four of a kind + 1",
    PlayKind.STRAIGHT_FLUSH: "straight flush",
}
FIVE_CARD_KINDS = frozenset(kind for kind in PlayKind if kind.size == 5)


class IllegalPlayError(ValueError):
    """A card set that is not a Big 2 play; the message says why."""


class Play(NamedTuple):
    """One legal play: its cards as a mask and its kind.

    >>> Play.from_text("8d 8c As Ah Ad")
    Play.from_text('8c 8d Ad Ah As')
    >>> Play.from_text("8d 8c As Ah Ad").kind.label
    'full house'
    """

    mask: CardSet
    kind: PlayKind

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> Play:
        """The play made of ``cards``.

        :raises IllegalPlayError: if the cards are not a play.
        """
        mask = mask_of(cards)
        return cls(mask, play_kind(mask))

    @classmethod
    def from_text(cls, text: str) -> Play:
        """The play written in ``text`` (any card notation :func:`parse_cards` reads)."""
        return cls.from_cards(parse_cards(text))

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, lowest Big 2 card first."""
        return tuple(sorted(cards_of(self.mask), key=big2_card_key))

    @property
    def size(self) -> int:
        return self.kind.size

    def format(self, notation: Notation) -> str:
        return notation.format_cards(self.cards)

    def __repr__(self) -> str:
        return f"Play.from_text({' '.join(card_name(card) for card in cards_of(self.mask))!r})"


def big2_card_key(card: Card) -> int:
    """Big 2 order of single cards: three lowest, two highest; diamonds < clubs < hearts < spades.

    >>> [card_name(c) for c in sorted(parse_cards("2c 3s Ad 3d 3c"), key=big2_card_key)]
    ['3d', '3c', '3s', 'Ad', '2c']
    """
    return ((rank_of(card) - 1) % 13) * 4 + _BIG2_SUIT[suit_of(card)]


_BIG2_SUIT = (1, 0, 2, 3)  # clubs, diamonds, hearts, spades -> diamonds lowest

# Bit layout helpers: card ``rank*4+suit`` is bit ``4*rank+suit``, so a rank is a nibble and a
# suit is every fourth bit.
_LOW_BITS = int("1" * 13, 16)  # bit 0 of every rank nibble
_SUIT_BITS = tuple(_LOW_BITS << suit for suit in range(4))
# The ten straights as rank lists: A2345, then 23456 .. TJQKA (poker ranks: 0 = deuce, 12 = ace).
STRAIGHT_RANKS = ((12, 0, 1, 2, 3), *(tuple(range(low, low + 5)) for low in range(9)))
_STRAIGHT_RANK_BITS = frozenset(sum(1 << rank for rank in ranks) for ranks in STRAIGHT_RANKS)
# A straight's ranks marked by bit 0 of their nibbles, to test a hand for it in one step.
_STRAIGHT_NIBBLES = tuple(sum(1 << (4 * rank) for rank in ranks) for ranks in STRAIGHT_RANKS)
_STRAIGHT_FLUSH_MASKS = frozenset(m << suit for m in _STRAIGHT_NIBBLES for suit in range(4))
# _SUBSETS[nibble][k]: the k-card subsets of the suits present in one rank, as nibbles.
_SUBSETS = tuple(
    tuple(
        tuple(sub for sub in range(16) if sub & ~nib == 0 and sub.bit_count() == k)
        for k in range(5)
    )
    for nib in range(16)
)


def _ranks_present(hand: CardSet) -> CardSet:
    """Bit 0 of each nibble set when the hand holds a card of that rank."""
    return (hand | hand >> 1 | hand >> 2 | hand >> 3) & _LOW_BITS


def _rank_cards(hand: CardSet) -> list[list[CardSet]]:
    """Per poker rank, the hand's cards of that rank as one-bit masks."""
    return [
        [1 << (4 * rank + suit) for suit in range(4) if hand >> (4 * rank + suit) & 1]
        for rank in range(13)
    ]


def _straights(hand: CardSet, by_rank: list[list[CardSet]]) -> Iterator[CardSet]:
    present = _ranks_present(hand)
    for ranks, nibbles in zip(STRAIGHT_RANKS, _STRAIGHT_NIBBLES, strict=True):
        if present & nibbles != nibbles:
            continue
        r0, r1, r2, r3, r4 = (by_rank[rank] for rank in ranks)
        for a in r0:
            for b in r1:
                ab = a | b
                for c in r2:
                    abc = ab | c
                    for d in r3:
                        abcd = abc | d
                        for e in r4:
                            yield abcd | e


def _flushes(hand: CardSet) -> Iterator[CardSet]:
    """Five cards of one suit that are not a straight flush (those come with the straights)."""
    for bits in _SUIT_BITS:
        in_suit = hand & bits
        if in_suit.bit_count() < 5:
            continue
        for combo in combinations([1 << card for card in cards_of(in_suit)], 5):
            mask = sum(combo)
            if mask not in _STRAIGHT_FLUSH_MASKS:
                yield mask


def _full_houses(hand: CardSet) -> Iterator[CardSet]:
    nibbles = [hand >> (4 * rank) & 15 for rank in range(13)]
    pairs = [
        (rank, sub << (4 * rank)) for rank, nib in enumerate(nibbles) for sub in _SUBSETS[nib][2]
    ]
    if not pairs:
        return
    for rank, nib in enumerate(nibbles):
        for sub in _SUBSETS[nib][3]:
            triple = sub << (4 * rank)
            for other, pair in pairs:
                if other != rank:
                    yield triple | pair


def _fours(hand: CardSet) -> Iterator[CardSet]:
    for rank in range(13):
        quad = 15 << (4 * rank)
        if hand & quad == quad:
            rest = hand ^ quad
            while rest:
                low = rest & -rest
                yield quad | low
                rest ^= low


def five_card_masks(hand: CardSet) -> list[CardSet]:
    """Every five-card play in ``hand`` as a mask, each once, in a fixed order.

    This is the fast path the solvers use; :func:`iter_legal_plays` gives the same plays with
    their kinds.
    """
    by_rank = _rank_cards(hand)
    out = list(_straights(hand, by_rank))
    out.extend(_flushes(hand))
    out.extend(_full_houses(hand))
    out.extend(_fours(hand))
    return out


def iter_legal_plays(hand: CardSet, sizes: Iterable[int] = (1, 2, 3, 5)) -> Iterator[Play]:
    """Yield every legal play within ``hand`` (a mask) exactly once, with its kind.

    Plays come by kind: singles, pairs, triples, straights, flushes, straight flushes, full
    houses, four of a kind + 1.  ``sizes`` restricts the play sizes generated.

    >>> from handsolver.models.cards import FULL_DECK_MASK
    >>> count_plays(FULL_DECK_MASK)[PlayKind.STRAIGHT]
    10200
    """
    wanted = set(sizes)
    nibbles = [hand >> (4 * rank) & 15 for rank in range(13)]
    for size, kind in ((1, PlayKind.SINGLE), (2, PlayKind.PAIR), (3, PlayKind.TRIPLE)):
        if size in wanted:
            for rank, nib in enumerate(nibbles):
                for sub in _SUBSETS[nib][size]:
                    yield Play(sub << (4 * rank), kind)
    if 5 not in wanted:
        return
    straight_flushes = []
    for mask in _straights(hand, _rank_cards(hand)):
        if mask in _STRAIGHT_FLUSH_MASKS:
            straight_flushes.append(mask)
        else:
            yield Play(mask, PlayKind.STRAIGHT)
    for mask in _flushes(hand):
        yield Play(mask, PlayKind.FLUSH)
    for mask in straight_flushes:
        yield Play(mask, PlayKind.STRAIGHT_FLUSH)
    for mask in _full_houses(hand):
        yield Play(mask, PlayKind.FULL_HOUSE)
    for mask in _fours(hand):
        yield Play(mask, PlayKind.FOUR_OF_A_KIND)


def legal_plays(hand: CardSet | Iterable[Card]) -> list[Play]:
    """Every legal play in ``hand`` (a mask or cards), in the order of :func:`iter_legal_plays`.

    >>> [str(p.kind.label) for p in legal_plays(parse_cards("3c 3d 4c"))]
    ['single', 'single', 'single', 'pair']
    """
    mask = hand if isinstance(hand, int) else mask_of(hand)
    return list(iter_legal_plays(mask))


def count_plays(hand: CardSet) -> dict[PlayKind, int]:
    """How many plays of each kind ``hand`` holds (every kind listed, zeros included)."""
    counts = dict.fromkeys(PlayKind, 0)
    for play in iter_legal_plays(hand):
        counts[play.kind] += 1
    return counts


def play_kind(cards: CardSet | Iterable[Card]) -> PlayKind:
    """The kind of play the cards make (a mask or a collection of distinct cards).

    >>> play_kind(parse_cards("4d 4s 4h 4c Ad")).label
    'four of a kind + 1'
    >>> try:
    ...     play_kind(parse_cards("Tc Th Td Kc Qc"))
    ... except IllegalPlayError as error:
    ...     print(error)
    'Tc Td Th Qc Kc' is not a play: a full house needs a pair
    >>> play_kind(parse_cards("3c 4c 5c 6c"))
    Traceback (most recent call last):
    ...
    handsolver.models.big2.IllegalPlayError: '3c 4c 5c 6c' is not a play: no play has 4 cards

    :raises IllegalPlayError: naming the cards and the reason they are not a play.
    """
    mask = cards if isinstance(cards, int) else mask_of(cards)
    size = mask.bit_count()
    nibbles = [n for n in (mask >> (4 * rank) & 15 for rank in range(13)) if n]
    rank_bits = sum(1 << rank for rank in range(13) if mask >> (4 * rank) & 15)
    if size in (1, 2, 3):
        if len(nibbles) == 1:
            return (PlayKind.SINGLE, PlayKind.PAIR, PlayKind.TRIPLE)[size - 1]
        noun = "pair" if size == 2 else "triple"
        raise _illegal(mask, f"a {noun} needs {size} cards of one rank")
    if size != 5:
        raise _illegal(mask, f"no play has {size} cards" if size else "a play needs cards")
    is_flush = any(mask & bits == mask for bits in _SUIT_BITS)
    if rank_bits in _STRAIGHT_RANK_BITS:
        return PlayKind.STRAIGHT_FLUSH if is_flush else PlayKind.STRAIGHT
    if is_flush:
        return PlayKind.FLUSH
    counts = sorted(n.bit_count() for n in nibbles)
    if counts == [2, 3]:
        return PlayKind.FULL_HOUSE
    if counts == [1, 4]:
        return PlayKind.FOUR_OF_A_KIND
    if len(nibbles) == 5 and _is_wrapped_run(rank_bits):
        raise _illegal(mask, "an ace only ends A2345 or TJQKA")
    if counts == [1, 1, 3]:
        raise _illegal(mask, "a full house needs a pair")
    raise _illegal(mask, "five cards must be a straight, flush, full house or four + 1")


def _is_wrapped_run(rank_bits: int) -> bool:
    """Five ranks consecutive only if the ace is followed by the deuce (JQKA2, QKA23, KA234)."""
    doubled = rank_bits | rank_bits << 13
    return any((doubled >> low) & 31 == 31 for low in range(13))


def _illegal(mask: CardSet, reason: str) -> IllegalPlayError:
    return IllegalPlayError(
        f"{' '.join(card_name(c) for c in cards_of(mask))!r} is not a play: {reason}"
    )


_INNER_LIST = re.compile(r"\[([^\[\]]*)\]")
_BRACKETS = str.maketrans("(){}", "[][]")
_PLAY_SEPARATOR = re.compile(r"[|;/-]")


def answer_readings(text: str) -> Iterator[list[str]]:
    """The ways a claimed partition can be cut into plays, the most structured first.

    The seed allows any delimiting: nested brackets (``[[2H, 3D], [7S]]``, also ``(...)``),
    one play per line, ``|``, ``;``, ``/`` or ``-`` (the hand separator of
    :func:`~handsolver.models.cards.parse_deal`), commas, or whitespace.  Inside a play, cards may
    be run together.  Each reading is a list of chunks, one per play.

    >>> next(answer_readings("[[AS, AH], [4C]]"))
    ['AS, AH', '4C']
    >>> list(answer_readings("ASAH, 4C 5C"))
    [['ASAH', ' 4C 5C'], ['ASAH,', '4C', '5C']]
    """
    stripped = text.strip().translate(_BRACKETS)
    if stripped.count("[") > 1:
        yield _INNER_LIST.findall(stripped)
    lines = [line for line in stripped.splitlines() if line.strip()]
    if len(lines) > 1:
        yield lines
    if _PLAY_SEPARATOR.search(stripped):
        yield _PLAY_SEPARATOR.split(stripped)
    if "," in stripped:
        yield stripped.split(",")
    yield stripped.split()


def parse_answer(text: str) -> tuple[tuple[Card, ...], ...]:
    """The plays of a claimed partition: the first of :func:`answer_readings` that reads.

    >>> parse_answer("ASAHAD8D8C, 2S3S4H5H6D, 4C") == parse_answer("AS AH AD 8D 8C | 2S3S4H5H6D|4C")
    True
    >>> parse_answer("AS AH AD 8D 8C - 4C") == parse_answer("[ [AS, AH, AD, 8D, 8C], [4C] ]")
    True
    >>> len(parse_answer("[[2H, 3D, 4H, 5C, 6S], [7S, 7D, 7H]]"))
    2

    :raises InputError: for a token that is not a card, or no plays at all.
    """
    first_error: InputError | None = None
    for chunks in answer_readings(text):
        try:
            plays = tuple(cards for chunk in chunks if (cards := parse_cards(chunk)))
        except InputError as error:
            first_error = first_error or error
            continue
        if plays:
            return plays
    raise first_error or InputError("the answer has no plays")
