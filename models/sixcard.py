"""The six-card game of Doug Hull's MATLAB puzzler: rules, hands, splits and deal odds.

The deck has ``copies`` cards of each value ``1..values`` (16 cards: four each of 1-4).  Each
player is dealt ``hand_size`` cards and splits them into parts of ``part_sizes`` cards, each part
ranked by its own rule (:data:`SIX_CARD`: High = 3 cards by their sum, Middle = 2 cards where a
pair beats a non-pair, then the higher card, then the lower; Low = 1 card, higher wins).  A part
won is worth 1 point and a drawn part 1/2; the round is won with more than half the points, drawn
with exactly half (the contest harness scores a drawn round 1/2) and lost otherwise.

Suits play no part, so a hand is the sorted tuple of its values and a split is the tuple of its
sorted parts, High first:

>>> hand = parse_hand("1,1,2,2,3,4")
>>> hand
(1, 1, 2, 2, 3, 4)
>>> len(splits(hand))
24
>>> format_split(sorted_split(hand))
'234|12|1'
>>> round_score(parse_split("123|44|1"), parse_split("114|23|2"))
Fraction(1, 2)
>>> parse_hand("11223")
Traceback (most recent call last):
...
handsolver.models.cards.InputError: hand '11223' has 5 cards; this game needs 6

The deal is exact: the first hand is a uniform ``hand_size``-subset of the deck and the second a
uniform subset of the rest, so both hands have the same law and the game is symmetric.

>>> len(hands()), sum(hand_probability(h) for h in hands())
(68, Fraction(1, 1))
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb, prod
from typing import Literal, TypeAlias

from handsolver.models.cards import InputError, cards_count
from handsolver.models.split import Outcomes, SplitGame

Hand: TypeAlias = tuple[int, ...]
"""A hand or a part of one: card values in increasing order."""

Split: TypeAlias = tuple[Hand, ...]
"""A hand's parts, in the game's part order (High, Middle, Low), each sorted."""

PartRule: TypeAlias = Literal["sum", "pair", "high"]
"""How a part is ranked: ``sum`` by its total; ``pair`` all-equal cards first, then the cards
from the highest down; ``high`` by the cards from the highest down."""


@dataclass(frozen=True)
class Game:
    """Every parameter of the game in one place; a variant is another instance.

    >>> Game(values=3, copies=2, part_sizes=(2, 1), part_rules=("sum", "high")).hand_size
    3
    >>> Game(part_sizes=(3, 3))
    Traceback (most recent call last):
    ...
    ValueError: part_sizes (3, 3) and part_rules ('sum', 'pair', 'high') differ in length
    """

    values: int = 4
    copies: int = 4
    part_sizes: tuple[int, ...] = (3, 2, 1)
    part_rules: tuple[PartRule, ...] = ("sum", "pair", "high")
    part_names: tuple[str, ...] = ("High", "Middle", "Low")

    def __post_init__(self) -> None:
        if len(self.part_sizes) != len(self.part_rules):
            raise ValueError(
                f"part_sizes {self.part_sizes} and part_rules {self.part_rules} differ in length"
            )
        if len(self.part_names) < len(self.part_sizes):
            # Unnamed parts are numbered, so a variant need not invent names.
            extra = tuple(
                f"Part {i + 1}" for i in range(len(self.part_names), len(self.part_sizes))
            )
            object.__setattr__(self, "part_names", self.part_names + extra)
        if min(self.part_sizes) < 1 or self.values < 1 or self.copies < 1:
            raise ValueError("values, copies and part sizes must be positive")
        if 2 * self.hand_size > self.deck_size:
            raise ValueError(f"two hands of {self.hand_size} do not fit in {self.deck_size} cards")

    @property
    def hand_size(self) -> int:
        return sum(self.part_sizes)

    @property
    def deck_size(self) -> int:
        return self.values * self.copies


SIX_CARD = Game()
"""The puzzler's game: values 1-4, four copies each, parts of 3, 2 and 1 cards."""


def _value_tokens(text: str, game: Game) -> list[str]:
    """The value tokens of ``text``; a run of digits is one value per digit when values < 10."""
    tokens = [token for token in re.split(r"[\s,;\[\]()]+", text) if token]
    if game.values < 10 and len(tokens) == 1 and tokens[0].isdigit():
        return list(tokens[0])
    return tokens


def _parse_values(text: str, game: Game) -> Hand:
    values = []
    for token in _value_tokens(text, game):
        # isascii first: int() takes '²' and '٣'; a bound on length before int() of 5,000 digits.
        if not (token.isascii() and token.isdigit() and len(token) <= 3) or not (
            1 <= int(token) <= game.values
        ):
            raise InputError(f"bad card value {token!r} in {text!r}; values are 1 to {game.values}")
        values.append(int(token))
    return tuple(sorted(values))


def _check_copies(cards: Sequence[int], text: str, game: Game) -> None:
    for value, count in sorted(Counter(cards).items()):
        if count > game.copies:
            raise InputError(
                f"value {value} appears {count} times in {text!r}; the deck has {game.copies}"
            )


def parse_hand(text: str, game: Game = SIX_CARD) -> Hand:
    """A hand from ``"112234"``, ``"1 1 2 2 3 4"`` or ``"1,1,2,2,3,4"``, in any card order.

    >>> parse_hand("432211")
    (1, 1, 2, 2, 3, 4)
    >>> parse_hand("1 1 2 5 3 4")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: bad card value '5' in '1 1 2 5 3 4'; values are 1 to 4
    >>> parse_hand("111112")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: value 1 appears 5 times in '111112'; the deck has 4

    :raises InputError: for a token that is not a value, a wrong card count or too many copies.
    """
    hand = _parse_values(text, game)
    if len(hand) != game.hand_size:
        raise InputError(
            f"hand {text.strip()!r} has {cards_count(len(hand))}; this game needs {game.hand_size}"
        )
    _check_copies(hand, text.strip(), game)
    return hand


def format_hand(hand: Sequence[int], game: Game = SIX_CARD) -> str:
    """The hand as :func:`parse_hand` reads it: digits run together, else comma separated.

    >>> format_hand((1, 1, 2, 2, 3, 4))
    '112234'
    """
    return "".join(map(str, hand)) if game.values < 10 else ",".join(map(str, hand))


def parse_split(text: str, game: Game = SIX_CARD) -> Split:
    """A split written part by part in the game's order, parts separated by ``|``, ``/`` or ``-``.

    >>> parse_split("3 4 2 / 2 1 / 1")
    ((2, 3, 4), (1, 2), (1,))
    >>> try:
    ...     parse_split("23|124|1")
    ... except InputError as error:
    ...     print(error)
    split '23|124|1' has parts of 2,3,1 cards; this game needs 3,2,1

    :raises InputError: for a bad value, wrong part sizes or too many copies of a value.
    """
    parts = tuple(_parse_values(part, game) for part in re.split(r"[|/-]", text))
    sizes = tuple(len(part) for part in parts)
    if sizes != game.part_sizes:
        raise InputError(
            f"split {text.strip()!r} has parts of {','.join(map(str, sizes))} cards; "
            f"this game needs {','.join(map(str, game.part_sizes))}"
        )
    _check_copies([card for part in parts for card in part], text.strip(), game)
    return parts


def format_split(split: Split, game: Game = SIX_CARD) -> str:
    """The split as :func:`parse_split` reads it, e.g. ``'234|12|1'``."""
    return "|".join(format_hand(part, game) for part in split)


def split_hand(split: Split) -> Hand:
    """The hand a split was made from."""
    return tuple(sorted(card for part in split for card in part))


def hands(game: Game = SIX_CARD) -> tuple[Hand, ...]:
    """Every distinct hand (multiset of values the deck can deal), in increasing order."""
    return _hands(game)


@cache
def _hands(game: Game) -> tuple[Hand, ...]:
    counts = (
        c
        for c in product(range(min(game.copies, game.hand_size) + 1), repeat=game.values)
        if sum(c) == game.hand_size
    )
    return tuple(sorted(_hand_of_counts(c) for c in counts))


def _hand_of_counts(counts: Sequence[int]) -> Hand:
    return tuple(value for value, count in enumerate(counts, 1) for _ in range(count))


def counts_of(hand: Sequence[int], game: Game = SIX_CARD) -> tuple[int, ...]:
    """How many cards of each value ``1..values`` the hand holds.

    >>> counts_of((1, 1, 2, 2, 3, 4))
    (2, 2, 1, 1)
    """
    counts = [0] * game.values
    for card in hand:
        counts[card - 1] += 1
    return tuple(counts)


def splits(hand: Hand, game: Game = SIX_CARD) -> tuple[Split, ...]:
    """The distinct splits of ``hand``: High part largest first, then Middle, then Low.

    Splits are distinct as value multisets per part.  The first split is :func:`sorted_split`.

    >>> splits((1, 1, 1, 1, 2, 2))[:3]
    (((1, 2, 2), (1, 1), (1,)), ((1, 1, 2), (1, 2), (1,)), ((1, 1, 2), (1, 1), (2,)))
    """
    return _splits(hand, game)


@cache
def _splits(hand: Hand, game: Game) -> tuple[Split, ...]:
    # The engine keeps the hand's (increasing) card order in every part and gives each
    # distinct split once; the game lists them High part largest first.
    return tuple(sorted(split_game(game).settings(hand), reverse=True))


@cache
def split_game(game: Game = SIX_CARD) -> SplitGame[int]:
    """The game as an instance of the split-game engine: no order rule, the round score.

    >>> six = split_game()
    >>> six.part_names, six.hand_size, six.order_key is None
    (('High', 'Middle', 'Low'), 6, True)
    >>> six.outcomes(((2, 3, 4), (1, 2), (1,)), ((1, 2, 4), (3, 3), (2,)))
    (1, -1, -1)
    """
    return SplitGame(
        name="six-card",
        part_names=game.part_names[: len(game.part_sizes)],
        part_sizes=game.part_sizes,
        row_key=lambda row, part: part_key(game.part_rules[row], part),
        points=_round_points,
    )


def _round_points(outcomes: Outcomes) -> Fraction:
    """Parts score 1, 1/2 or 0 and the round is won with more than half of them: that is, with
    more parts won than lost (1), as many (1/2), or fewer (0)."""
    balance = sum(outcomes)
    return Fraction((balance > 0) * 2 + (balance == 0), 2)


def sorted_split(hand: Hand, game: Game = SIX_CARD) -> Split:
    """High gets the largest cards, Middle the next, Low the smallest."""
    parts = []
    end = len(hand)
    for size in game.part_sizes:
        parts.append(hand[end - size : end])
        end -= size
    return tuple(parts)


def part_key(rule: PartRule, part: Hand) -> tuple[int, ...]:
    """A key where greater means a stronger part under ``rule``.

    >>> part_key("pair", (1, 1)) > part_key("pair", (3, 4)) > part_key("pair", (2, 4))
    True
    >>> part_key("sum", (1, 2, 4)) == part_key("sum", (2, 2, 3))
    True
    """
    if rule == "sum":
        return (sum(part),)
    descending = tuple(sorted(part, reverse=True))
    if rule == "pair":
        return (int(len(part) > 1 and len(set(part)) == 1), *descending)
    return descending


def part_score(rule: PartRule, mine: Hand, theirs: Hand) -> Fraction:
    """1 if ``mine`` beats ``theirs`` under ``rule``, 1/2 for a draw, 0 for a loss.

    >>> part_score("high", (3,), (3,)), part_score("pair", (1, 1), (3, 4))
    (Fraction(1, 2), Fraction(1, 1))
    """
    a, b = part_key(rule, mine), part_key(rule, theirs)
    return Fraction((a > b) * 2 + (a == b), 2)


def round_score(mine: Split, theirs: Split, game: Game = SIX_CARD) -> Fraction:
    """The round's result for the first player: 1 win, 1/2 draw, 0 loss.

    Parts score 1, 1/2 or 0; the round is won with more than half the points.

    >>> round_score(((2, 3, 4), (1, 2), (1,)), ((1, 2, 4), (3, 3), (2,)))
    Fraction(0, 1)
    """
    score: Fraction = split_game(game).score(mine, theirs)
    return score


def hand_ways(hand: Sequence[int], game: Game = SIX_CARD, taken: Sequence[int] = ()) -> int:
    """How many sets of physical cards make ``hand``, from a deck without the cards ``taken``."""
    left = [game.copies - c for c in counts_of(taken, game)]
    return prod(comb(n, k) for n, k in zip(left, counts_of(hand, game), strict=True))


def hand_probability(hand: Hand, game: Game = SIX_CARD) -> Fraction:
    """The chance a player is dealt ``hand``: a uniform ``hand_size``-subset of the deck.

    >>> hand_probability((1, 1, 1, 1, 2, 2))
    Fraction(3, 4004)
    """
    return Fraction(hand_ways(hand, game), comb(game.deck_size, game.hand_size))


def opponent_probability(theirs: Hand, mine: Hand, game: Game = SIX_CARD) -> Fraction:
    """The chance the opponent holds ``theirs`` given that ``mine`` was dealt first.

    >>> opponent_probability((1, 1, 1, 1, 2, 2), (1, 1, 2, 2, 3, 4))
    Fraction(0, 1)
    >>> opponent_probability((3, 3, 3, 4, 4, 4), (1, 1, 2, 2, 3, 4))
    Fraction(1, 210)
    """
    rest = game.deck_size - game.hand_size
    return Fraction(hand_ways(theirs, game, taken=mine), comb(rest, game.hand_size))


def check_compatible(mine: Hand, theirs: Hand, game: Game = SIX_CARD) -> None:
    """Raise unless the deck holds both hands at once.

    >>> check_compatible((1, 1, 1, 2, 2, 3), (1, 1, 3, 3, 4, 4))
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: hands 111223 and 113344 hold value 1 5 times; the deck has 4
    """
    both = counts_of(mine, game)
    for value, (a, b) in enumerate(zip(both, counts_of(theirs, game), strict=True), 1):
        if a + b > game.copies:
            raise InputError(
                f"hands {format_hand(mine, game)} and {format_hand(theirs, game)} hold value "
                f"{value} {a + b} times; the deck has {game.copies}"
            )
