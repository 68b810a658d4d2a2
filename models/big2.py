"""Big 2 plays: which card sets may be played together, and every such play in a hand.

Under the seed's rules (the default, :data:`SEED_RULES`) a play is a single, a pair, a triple
(cards of one rank), or five cards forming a straight, a flush, a straight flush, a full house
(three of one rank and two of another) or four of a kind plus any one card of another rank.  A
straight is five consecutive ranks in any suits; the two is an ordinary rank in it (``23456``
is a straight) and the ace is only ever an end: the only straights holding an ace are ``A2345``
and ``TJQKA`` (so ``JQKA2``, ``QKA23``, ``KA234`` are not straights).  Other rules
(:mod:`handsolver.models.big2_rules`) change the straights, drop triples or flushes, add two
pair (with a fifth card, or alone as a four-card play), four of a kind alone or the
thirteen-card dragon; every function here takes them.

>>> play_kind(parse_cards("As 2s 3d 4h 5c"))
<PlayKind.STRAIGHT: 4>
>>> play_kind(parse_cards("Ts Js Qs Ks As"))
<PlayKind.STRAIGHT_FLUSH: 8>
>>> try:
...     play_kind(parse_cards("Js Qd Kh As 2c"))
... except IllegalPlayError as error:
...     print(error)
'2c Js Qd Kh As' is not a play: an ace only ends A2345 or TJQKA
>>> play_kind(parse_cards("Js Qd Kh As 2c"), PROFILES["pusoy-dos"]).label
'straight'

Big 2 ranks run from three (low) to two (high) and, by default, suits diamonds < clubs < hearts
< spades; :func:`big2_card_key` orders cards that way for output.  The card model is the shared
one of :mod:`handsolver.models.cards` (poker rank order inside the int).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator
from enum import IntEnum
from functools import cache
from itertools import combinations, product
from typing import NamedTuple

from handsolver.models.big2_answers import answer_readings, parse_answer
from handsolver.models.big2_rules import (
    PROFILES,
    SEED_RULES,
    FlushOrder,
    Quads,
    Rules,
    RulesError,
    Straights,
    make_rules,
    parse_rules,
    parse_switches,
)
from handsolver.models.cards import (
    Card,
    CardSet,
    Notation,
    card_name,
    cards_of,
    mask_of,
    parse_cards,
    rank_mask,
)

__all__ = [
    "FIVE_CARD_KINDS",
    "PROFILES",
    "SEED_RULES",
    "STRAIGHT_RANKS",
    "FlushOrder",
    "IllegalPlayError",
    "Play",
    "PlayKind",
    "Quads",
    "Rules",
    "RulesError",
    "Straights",
    "answer_readings",
    "big2_card_key",
    "count_plays",
    "dragon_masks",
    "five_card_masks",
    "four_card_masks",
    "has_five_card_play",
    "iter_legal_plays",
    "legal_plays",
    "make_rules",
    "parse_answer",
    "parse_rules",
    "parse_switches",
    "play_kind",
]


class PlayKind(IntEnum):
    """The kind of a play.

    Among the seed's five-card plays a greater value beats a smaller one; the kinds other rules
    add (four of a kind alone, two pair + 1, the dragon, two pair alone) come after them.
    """

    SINGLE = 1
    PAIR = 2
    TRIPLE = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FOUR = 9
    TWO_PAIR = 10
    DRAGON = 11
    TWO_PAIR_ALONE = 12

    @property
    def label(self) -> str:
        """The kind in words, e.g. ``'full house'`` or ``'four of a kind + 1'``."""
        return _LABELS[self]

    @property
    def size(self) -> int:
        """How many cards a play of this kind has."""
        return _SIZES.get(self, 5)


_LABELS = {
    PlayKind.SINGLE: "single",
    PlayKind.PAIR: "pair",
    PlayKind.TRIPLE: "triple",
    PlayKind.STRAIGHT: "straight",
    PlayKind.FLUSH: "flush",
    PlayKind.FULL_HOUSE: "full house",
    PlayKind.FOUR_OF_A_KIND: "four of a kind + 1",
    PlayKind.STRAIGHT_FLUSH: "straight flush",
    PlayKind.FOUR: "four of a kind",
    PlayKind.TWO_PAIR: "two pair + 1",
    PlayKind.DRAGON: "dragon",
    PlayKind.TWO_PAIR_ALONE: "two pair",
}
_SIZES = {
    PlayKind.SINGLE: 1,
    PlayKind.PAIR: 2,
    PlayKind.TRIPLE: 3,
    PlayKind.FOUR: 4,
    PlayKind.TWO_PAIR_ALONE: 4,
    PlayKind.DRAGON: 13,
}
FIVE_CARD_KINDS = frozenset(kind for kind in PlayKind if kind.size == 5)
#: The kinds made of one rank's cards, by their size.
ONE_RANK_KINDS = {1: PlayKind.SINGLE, 2: PlayKind.PAIR, 3: PlayKind.TRIPLE, 4: PlayKind.FOUR}


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
    def from_cards(cls, cards: Iterable[Card], rules: Rules = SEED_RULES) -> Play:
        """The play made of ``cards``.

        :raises IllegalPlayError: if the cards are not a play.
        """
        mask = mask_of(cards)
        return cls(mask, play_kind(mask, rules))

    @classmethod
    def from_text(cls, text: str, rules: Rules = SEED_RULES) -> Play:
        """The play written in ``text`` (any card notation :func:`parse_cards` reads)."""
        return cls.from_cards(parse_cards(text), rules)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, lowest Big 2 card first (the seed's suit order)."""
        return self.cards_in(SEED_RULES)

    def cards_in(self, rules: Rules) -> tuple[Card, ...]:
        """The cards, lowest first in the order of ``rules`` (its suit order)."""
        return tuple(sorted(cards_of(self.mask), key=rules.card_keys.__getitem__))

    @property
    def size(self) -> int:
        return self.kind.size

    def format(self, notation: Notation) -> str:
        return notation.format_cards(self.cards)

    def __repr__(self) -> str:
        return f"Play.from_text({' '.join(card_name(card) for card in cards_of(self.mask))!r})"


def big2_card_key(card: Card, rules: Rules = SEED_RULES) -> int:
    """Big 2 order of single cards: three lowest, two highest; suits by the rules' order
    (diamonds < clubs < hearts < spades by default).

    >>> [card_name(c) for c in sorted(parse_cards("2c 3s Ad 3d 3c"), key=big2_card_key)]
    ['3d', '3c', '3s', 'Ad', '2c']
    >>> pusoy = PROFILES["pusoy-dos"]
    >>> [card_name(c) for c in sorted(parse_cards("3s 3d 3c"), key=pusoy.card_key)]
    ['3c', '3s', '3d']
    """
    return rules.card_keys[card]


# Bit layout helpers: card ``rank*4+suit`` is bit ``4*rank+suit``, so a rank is a nibble and a
# suit is every fourth bit.
_LOW_BITS = int("1" * 13, 16)  # bit 0 of every rank nibble
_SUIT_BITS = tuple(_LOW_BITS << suit for suit in range(4))
_PAIR_BITS = 0x5555555555555  # bit 0 of every two bits of the 52
_QUAD_BITS = 0x3333333333333  # bits 0 and 1 of every nibble
#: The seed's ten straights as rank lists: A2345, then 23456 .. TJQKA (0 = deuce, 12 = ace).
STRAIGHT_RANKS = SEED_RULES.straight_ranks
# _SUBSETS[nibble][k]: the k-card subsets of the suits present in one rank, as nibbles.
_SUBSETS = tuple(
    tuple(
        tuple(sub for sub in range(16) if sub & ~nib == 0 and sub.bit_count() == k)
        for k in range(5)
    )
    for nib in range(16)
)


@cache
def _straight_nibbles(straights: Straights) -> tuple[int, ...]:
    """Each straight's ranks marked by bit 0 of their nibbles, to test a hand in one step."""
    runs = Rules(straights=straights).straight_ranks
    return tuple(sum(1 << (4 * rank) for rank in ranks) for ranks in runs)


@cache
def _straight_flush_masks(straights: Straights) -> frozenset[CardSet]:
    return frozenset(m << suit for m in _straight_nibbles(straights) for suit in range(4))


def _ranks_present(hand: CardSet) -> CardSet:
    """Bit 0 of each nibble set when the hand holds a card of that rank."""
    return (hand | hand >> 1 | hand >> 2 | hand >> 3) & _LOW_BITS


def _rank_cards(hand: CardSet) -> list[list[CardSet]]:
    """Per poker rank, the hand's cards of that rank as one-bit masks."""
    return [
        [1 << (4 * rank + suit) for suit in range(4) if hand >> (4 * rank + suit) & 1]
        for rank in range(13)
    ]


def _straights(hand: CardSet, rules: Rules) -> Iterator[CardSet]:
    present = _ranks_present(hand)
    runs = zip(rules.straight_ranks, _straight_nibbles(rules.straights), strict=True)
    for ranks, nibbles in runs:
        if present & nibbles != nibbles:
            continue
        r0, r1, r2, r3, r4 = (
            [sub << (4 * rank) for sub in _SUBSETS[hand >> (4 * rank) & 15][1]] for rank in ranks
        )
        for a in r0:
            for b in r1:
                ab = a | b
                for c in r2:
                    abc = ab | c
                    for d in r3:
                        abcd = abc | d
                        for e in r4:
                            yield abcd | e


def _flushes(hand: CardSet, rules: Rules) -> Iterator[CardSet]:
    """Five cards of one suit that are not a straight flush (those come with the straights)."""
    straight_flushes = _straight_flush_masks(rules.straights)
    for bits in _SUIT_BITS:
        in_suit = hand & bits
        if in_suit.bit_count() < 5:
            continue
        for combo in combinations([1 << card for card in cards_of(in_suit)], 5):
            mask = sum(combo)
            if mask not in straight_flushes:
                yield mask


def _pairs(nibbles: list[int]) -> list[tuple[int, CardSet]]:
    """Every pair in the hand as (rank, mask), by rank."""
    return [
        (rank, sub << (4 * rank)) for rank, nib in enumerate(nibbles) for sub in _SUBSETS[nib][2]
    ]


def _full_houses(hand: CardSet) -> Iterator[CardSet]:
    nibbles = [hand >> (4 * rank) & 15 for rank in range(13)]
    pairs = _pairs(nibbles)
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
        quad = rank_mask(rank)
        if hand & quad == quad:
            rest = hand ^ quad
            while rest:
                low = rest & -rest
                yield quad | low
                rest ^= low


def _pair_pairs(hand: CardSet) -> Iterator[tuple[int, int, CardSet]]:
    """Two pairs of different ranks, as (low rank, high rank, mask)."""
    pairs = _pairs([hand >> (4 * rank) & 15 for rank in range(13)])
    for index, (low_rank, low_pair) in enumerate(pairs):
        for high_rank, high_pair in pairs[index + 1 :]:
            if high_rank != low_rank:
                yield low_rank, high_rank, low_pair | high_pair


def _two_pairs(hand: CardSet) -> Iterator[CardSet]:
    """Two pairs of different ranks and a fifth card of a third rank."""
    for low_rank, high_rank, pairs in _pair_pairs(hand):
        rest = hand & ~rank_mask(low_rank) & ~rank_mask(high_rank)
        while rest:
            bit = rest & -rest
            yield pairs | bit
            rest ^= bit


def four_card_masks(hand: CardSet, rules: Rules = SEED_RULES) -> list[CardSet]:
    """Every play of four cards of two ranks in ``hand`` (two pair alone, where the rules have
    it) as a mask, each once: the four-card plays the fewest-plays search chooses like
    five-card plays (four of a kind alone is a play of one rank).

    >>> hand = mask_of(parse_cards("3c 3d 4c 4d 4h"))
    >>> len(four_card_masks(hand)), len(four_card_masks(hand, make_rules(two_pair_alone=True)))
    (0, 3)
    """
    if not rules.two_pair_alone:
        return []
    return [mask for _, _, mask in _pair_pairs(hand)]


def five_card_masks(
    hand: CardSet, rules: Rules = SEED_RULES, kinds: Container[str] | None = None
) -> list[CardSet]:
    """Every five-card play in ``hand`` as a mask, each once, in a fixed order; with ``kinds``
    (names as :attr:`Rules.five_card_order` gives them), the plays of those kinds only.

    This is the fast path the solvers use; :func:`iter_legal_plays` gives the same plays with
    their kinds.

    >>> hand = mask_of(parse_cards("3c 4c 5c 6c 7c 7d 7h 3d"))
    >>> len(five_card_masks(hand)), len(five_card_masks(hand, kinds=["full house"]))
    (7, 1)
    """
    if kinds is None:
        kinds = rules.five_card_order
    out: list[CardSet] = []
    straight, straight_flush = "straight" in kinds, "straight flush" in kinds
    if straight or straight_flush:
        runs = _straights(hand, rules)
        if straight and straight_flush:
            out.extend(runs)
        else:
            flushes = _straight_flush_masks(rules.straights)
            out.extend(mask for mask in runs if (mask in flushes) == straight_flush)
    if rules.flushes and "flush" in kinds:
        out.extend(_flushes(hand, rules))
    if "full house" in kinds:
        out.extend(_full_houses(hand))
    if "four of a kind + 1" in kinds and "four of a kind + 1" in rules.five_card_order:
        out.extend(_fours(hand))
    if rules.two_pair and "two pair + 1" in kinds:
        out.extend(_two_pairs(hand))
    return out


def has_five_card_play(hand: CardSet, rules: Rules) -> bool:
    """Whether ``hand`` holds a play of five cards (or a dragon, which holds a straight),
    under ``rules``.

    >>> has_five_card_play(mask_of(parse_cards("3c 3d 3h 4s 4c")), SEED_RULES)
    True
    >>> has_five_card_play(mask_of(parse_cards("3c 3d 5h 6s 4c 8d")), SEED_RULES)
    False
    """
    present = _ranks_present(hand)
    if any(run & present == run for run in _straight_nibbles(rules.straights)):
        return True
    if rules.flushes and any((hand & bits).bit_count() >= 5 for bits in _SUIT_BITS):
        return True
    if hand.bit_count() < 5:
        return False
    # Each rank's count of cards in its nibble, all ranks at once.
    twos = (hand & _PAIR_BITS) + (hand >> 1 & _PAIR_BITS)
    counts = (twos & _QUAD_BITS) + (twos >> 2 & _QUAD_BITS)
    pairs = (counts >> 1 | counts >> 2) & _LOW_BITS  # ranks held twice or more
    if counts & _LOW_BITS << 2 and rules.quads is not Quads.NO_KICKER:
        return True  # four of a kind + 1
    triples = (counts >> 1 & counts | counts >> 2) & _LOW_BITS  # ranks held three times or four
    if triples and pairs.bit_count() >= 2:
        return True  # a full house: three of one rank, two of another
    return rules.two_pair and pairs.bit_count() >= 2


def dragon_masks(hand: CardSet) -> Iterator[CardSet]:
    """Every dragon in ``hand``: one card of each of the thirteen ranks.

    >>> hand = mask_of(parse_cards("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As Ah"))
    >>> sum(1 for _ in dragon_masks(hand))
    2
    """
    by_rank = _rank_cards(hand)
    if all(by_rank):
        for cards in product(*by_rank):
            yield sum(cards)


def iter_legal_plays(
    hand: CardSet, sizes: Iterable[int] = (1, 2, 3, 4, 5, 13), rules: Rules = SEED_RULES
) -> Iterator[Play]:
    """Yield every legal play within ``hand`` (a mask) exactly once, with its kind.

    Plays come by kind: singles, pairs, triples, four of a kind alone, two pair alone,
    straights, flushes, straight flushes, full houses, four of a kind + 1, two pair + 1,
    dragons.  ``sizes`` restricts the play sizes generated.

    >>> from handsolver.models.cards import FULL_DECK_MASK
    >>> count_plays(FULL_DECK_MASK)[PlayKind.STRAIGHT]
    10200
    >>> count_plays(FULL_DECK_MASK, PROFILES["western"])[PlayKind.STRAIGHT]
    8160
    """
    wanted = set(sizes)
    nibbles = [hand >> (4 * rank) & 15 for rank in range(13)]
    for size in rules.small_sizes:
        if size in wanted:
            kind = ONE_RANK_KINDS[size]
            for rank, nib in enumerate(nibbles):
                for sub in _SUBSETS[nib][size]:
                    yield Play(sub << (4 * rank), kind)
    if 4 in wanted:
        for mask in four_card_masks(hand, rules):
            yield Play(mask, PlayKind.TWO_PAIR_ALONE)
    if 5 in wanted:
        straight_flushes = []
        sf_masks = _straight_flush_masks(rules.straights)
        for mask in _straights(hand, rules):
            if mask in sf_masks:
                straight_flushes.append(mask)
            else:
                yield Play(mask, PlayKind.STRAIGHT)
        if rules.flushes:
            for mask in _flushes(hand, rules):
                yield Play(mask, PlayKind.FLUSH)
        for mask in straight_flushes:
            yield Play(mask, PlayKind.STRAIGHT_FLUSH)
        for mask in _full_houses(hand):
            yield Play(mask, PlayKind.FULL_HOUSE)
        if rules.quads is not Quads.NO_KICKER:
            for mask in _fours(hand):
                yield Play(mask, PlayKind.FOUR_OF_A_KIND)
        if rules.two_pair:
            for mask in _two_pairs(hand):
                yield Play(mask, PlayKind.TWO_PAIR)
    if 13 in wanted and rules.dragon:
        for mask in dragon_masks(hand):
            yield Play(mask, PlayKind.DRAGON)


def legal_plays(hand: CardSet | Iterable[Card], rules: Rules = SEED_RULES) -> list[Play]:
    """Every legal play in ``hand`` (a mask or cards), in the order of :func:`iter_legal_plays`.

    >>> [str(p.kind.label) for p in legal_plays(parse_cards("3c 3d 4c"))]
    ['single', 'single', 'single', 'pair']
    """
    mask = hand if isinstance(hand, int) else mask_of(hand)
    return list(iter_legal_plays(mask, rules=rules))


def count_plays(hand: CardSet, rules: Rules = SEED_RULES) -> dict[PlayKind, int]:
    """How many plays of each kind ``hand`` holds (every kind listed, zeros included)."""
    counts = dict.fromkeys(PlayKind, 0)
    for play in iter_legal_plays(hand, rules=rules):
        counts[play.kind] += 1
    return counts


def play_kind(cards: CardSet | Iterable[Card], rules: Rules = SEED_RULES) -> PlayKind:
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
    >>> play_kind(parse_cards("7c 7d 7h"), make_rules(triples=False))
    Traceback (most recent call last):
    ...
    handsolver.models.big2.IllegalPlayError: '7c 7d 7h' is not a play: the seed --no-triples \
rules have no triples

    :raises IllegalPlayError: naming the cards and the reason they are not a play.
    """
    mask = cards if isinstance(cards, int) else mask_of(cards)
    size = mask.bit_count()
    nibbles = [n for n in (mask >> (4 * rank) & 15 for rank in range(13)) if n]
    rank_bits = sum(1 << rank for rank in range(13) if mask >> (4 * rank) & 15)
    if len(nibbles) == 1 and size in ONE_RANK_KINDS:
        if size in rules.small_sizes:
            return ONE_RANK_KINDS[size]
        if size == 3:
            raise _illegal(mask, f"the {rules.name} rules have no triples")
    if size in (1, 2, 3):
        noun = "pair" if size == 2 else "triple"
        raise _illegal(mask, f"a {noun} needs {size} cards of one rank")
    if size == 4 and rules.two_pair_alone and sorted(n.bit_count() for n in nibbles) == [2, 2]:
        return PlayKind.TWO_PAIR_ALONE
    if size == 13 and rules.dragon:
        if len(nibbles) == 13:
            return PlayKind.DRAGON
        raise _illegal(mask, "a dragon needs one card of every rank")
    if size == 4 and rules.four_card_order:
        raise _illegal(mask, f"four cards must be {' or '.join(rules.four_card_order)}")
    if size != 5:
        raise _illegal(mask, f"no play has {size} cards" if size else "a play needs cards")
    is_flush = any(mask & bits == mask for bits in _SUIT_BITS)
    if rank_bits in rules.straight_rank_bits:
        return PlayKind.STRAIGHT_FLUSH if is_flush else PlayKind.STRAIGHT
    if is_flush:
        if rules.flushes:
            return PlayKind.FLUSH
        raise _illegal(mask, f"the {rules.name} rules have no flushes")
    counts = sorted(n.bit_count() for n in nibbles)
    if counts == [2, 3]:
        return PlayKind.FULL_HOUSE
    if counts == [1, 4]:
        if rules.quads is not Quads.NO_KICKER:
            return PlayKind.FOUR_OF_A_KIND
        raise _illegal(mask, f"four of a kind goes alone under the {rules.name} rules")
    if counts == [1, 2, 2] and rules.two_pair:
        return PlayKind.TWO_PAIR
    if len(nibbles) == 5 and _is_run(rank_bits):
        if rules.straights is Straights.ACE_ENDS:
            raise _illegal(mask, "an ace only ends A2345 or TJQKA")
        raise _illegal(mask, f"not a straight under the {rules.name} rules ({rules.straights})")
    if counts == [1, 1, 3]:
        raise _illegal(mask, "a full house needs a pair")
    raise _illegal(mask, "five cards must be a straight, flush, full house or four + 1")


def _is_run(rank_bits: int) -> bool:
    """Five ranks in a row somewhere round the circle of ranks (the ace next to the deuce)."""
    doubled = rank_bits | rank_bits << 13
    return any((doubled >> low) & 31 == 31 for low in range(13))


def _illegal(mask: CardSet, reason: str) -> IllegalPlayError:
    return IllegalPlayError(
        f"{' '.join(card_name(c) for c in cards_of(mask))!r} is not a play: {reason}"
    )
