"""Open-face Chinese poker, Pineapple and classic: the rows, fouls, royalties, scoring, the
streets and fantasyland.

Rules (the defaults and their sources are in ``docs/ofc.md``):

- Each player sets 13 cards into a top (3), a middle (5) and a bottom (5), with the rows of
  Chinese poker (:mod:`handsolver.models.chinese`): the bottom at least the middle, the middle at
  least the top, or the board is fouled.  A fouled board loses every row and earns no royalty.
- Pineapple deals 5 cards on the first street, all placed, then four streets of 3 cards, 2
  placed and 1 discarded face down; classic open-face deals the same 5, then eight streets of
  one card, placed (:data:`VARIANTS`).  Placed cards never move.
- Two players score 1 a row, 3 more for winning all three, plus the difference of their
  royalties; two fouled boards score 0.  With three players every pair scores.
- QQ or better on top without fouling earns fantasyland: all cards at once, 13 set, the rest
  discarded.  Progressive (the default): QQ 14 cards, KK 15, AA 16, three of a kind 17; flat:
  14.  A board in fantasyland stays there with three of a kind on top, a full house or better in
  the middle or four of a kind or better on the bottom (:data:`STAY_RULES`); staying deals 14.
  Classic fantasyland deals 13 cards, all set, whatever the top and when staying.

The game is an instance of the split-game engine with Chinese poker's row keys, parts in the
order bottom, middle, top:

>>> from handsolver.models.cards import parse_cards
>>> rules = OfcRules()
>>> mine = board_of_text("Qc Qd 4s | 9h 9c 9d 5c 2s | Ah Kh 8h 6h 3h")
>>> theirs = board_of_text("Ac 7d 2c | Jh Jc 8d 7s 6c | Ts Tc Td 5s 5d")
>>> row_royalties(mine, rules.royalties)
RowRoyalties(top=7, middle=2, bottom=4, total=13)
>>> row_royalties(theirs, rules.royalties)
RowRoyalties(top=0, middle=0, bottom=6, total=6)
>>> ofc_game().outcomes(mine, theirs), score(mine, theirs, rules.royalties)
((-1, 1, 1), 8)
>>> rules.fantasy_cards(mine), rules.stays(mine)
(14, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

from handsolver.models.cards import Card, InputError, parse_cards, rank_of
from handsolver.models.chinese import (
    BACK,
    FRONT,
    PART_SIZES,
    Royalties,
    front_category,
    front_key,
    order_key,
    parse_royalties,
    points_1_6,
    row_key,
    setting_of,
)
from handsolver.models.chinese import MIDDLE as CHINESE_MIDDLE
from handsolver.models.poker import FULL_HOUSE, QUADS, category_index, poker_key
from handsolver.models.split import Setting, SplitGame

BOTTOM, MIDDLE, TOP = BACK, CHINESE_MIDDLE, FRONT
"""Row indices in the engine's order (bottom, middle, top), Chinese poker's."""
ROW_NAMES = ("bottom", "middle", "top")
"""The rows in the engine's order, as the royalty file and ``--json`` name them."""
HAND_SIZE = 13
FIRST_STREET, LATER_STREET = 5, 3  # Pineapple's cards dealt on the first street and each later one
MIN_FANTASY_CARDS, MAX_FANTASY_CARDS = 13, 17
REFANTASY_CARDS = 14
_QUEEN, _KING, _ACE = 10, 11, 12
FANTASY_ENTRY_KEY = front_key(parse_cards("Qc Qd 2h"))
"""The weakest top row (its front key) that earns fantasyland: a pair of queens, deuce kicker."""

DEFAULT_ROYALTIES = """{
  "bottom": {"straight": 2, "flush": 4, "full house": 6, "four of a kind": 10,
             "straight flush": 15, "straight flush A": 25},
  "middle": {"three of a kind": 2, "straight": 4, "flush": 8, "full house": 12,
             "four of a kind": 20, "straight flush": 30, "straight flush A": 50},
  "top": {"pair 6": 1, "pair 7": 2, "pair 8": 3, "pair 9": 4, "pair T": 5, "pair J": 6,
          "pair Q": 7, "pair K": 8, "pair A": 9,
          "three of a kind 2": 10, "three of a kind 3": 11, "three of a kind 4": 12,
          "three of a kind 5": 13, "three of a kind 6": 14, "three of a kind 7": 15,
          "three of a kind 8": 16, "three of a kind 9": 17, "three of a kind T": 18,
          "three of a kind J": 19, "three of a kind Q": 20, "three of a kind K": 21,
          "three of a kind A": 22}
}"""
"""The common royalty table, in the royalty file format (Chinese poker's, rows named
bottom, middle, top); a royal flush is the ace-high straight flush."""


def parse_ofc_royalties(text: str, source: str = "royalties") -> Royalties:
    """A royalty table from JSON text with rows ``bottom``, ``middle`` and ``top``.

    >>> table = parse_ofc_royalties('{"top": {"pair Q": 7}}')
    >>> table.of_row(TOP, parse_cards("Qc Qd 2s")), table.of_row(TOP, parse_cards("Jc Jd As"))
    (7, 0)

    :raises InputError: naming the bad row, hand or points.
    """
    bottom, middle, top = ROW_NAMES
    return parse_royalties(text, source, row_names=(bottom, middle, top))


@cache
def default_royalties() -> Royalties:
    """The common table (:data:`DEFAULT_ROYALTIES`)."""
    return parse_ofc_royalties(DEFAULT_ROYALTIES, "default royalties")


@cache
def ofc_game() -> SplitGame[int]:
    """The rows, order rule and row points (no royalties) as a split game.

    Row points are Chinese poker's 1-6: a row is worth 1 and winning all three 3 more.
    """
    return SplitGame(
        name="ofc",
        part_names=ROW_NAMES,
        part_sizes=PART_SIZES,
        row_key=row_key,
        points=points_1_6,
        order_key=order_key,
    )


def board_of(top: Sequence[Card], middle: Sequence[Card], bottom: Sequence[Card]) -> Setting:
    """The engine's setting (bottom, middle, top) from the rows as players write them."""
    return setting_of(top, middle, bottom)


def board_of_text(text: str) -> Setting:
    """A complete board from ``TOP | MIDDLE | BOTTOM`` (3, 5 and 5 distinct cards).

    >>> board_of_text("Qc Qd | 9h 9c 9d 5c 2s | Ah Kh 8h 6h 3h")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: board '...': top needs 3 cards, got 2

    :raises InputError: naming the board and what is wrong with it.
    """
    rows = partial_board_of_text(text)
    for name, size, cards in zip(("top", "middle", "bottom"), (3, 5, 5), rows, strict=True):
        if len(cards) != size:
            raise InputError(f"board {text.strip()!r}: {name} needs {size} cards, got {len(cards)}")
    top, middle, bottom = rows
    return board_of(top, middle, bottom)


def partial_board_of_text(text: str) -> tuple[tuple[Card, ...], ...]:
    """The rows ``TOP | MIDDLE | BOTTOM`` of a board being built, top first; a row may be
    empty or short, never over its size, and no card may appear twice.

    >>> partial_board_of_text("Kc | | 2c 2d")
    ((44,), (), (0, 1))

    :raises InputError: naming the board and the bad row or card.
    """
    parts = text.split("|")
    if len(parts) != 3:
        raise InputError(f"board {text.strip()!r}: write three rows, TOP | MIDDLE | BOTTOM")
    rows = tuple(parse_cards(part) if part.strip() else () for part in parts)
    for name, size, cards in zip(("top", "middle", "bottom"), (3, 5, 5), rows, strict=True):
        if len(cards) > size:
            raise InputError(f"board {text.strip()!r}: {name} holds {size} cards, got {len(cards)}")
    seen: set[Card] = set()
    for card in (card for row in rows for card in row):
        if card in seen:
            from handsolver.models.cards import card_name

            raise InputError(f"board {text.strip()!r}: card {card_name(card)!r} is given twice")
        seen.add(card)
    return rows


class RowRoyalties(NamedTuple):
    """A board's royalties row by row (all 0 when it is fouled)."""

    top: int
    middle: int
    bottom: int
    total: int


def order_fouls(order_keys: Sequence[int]) -> bool:
    """Whether a complete board's order keys (bottom, middle, top, each row's
    :func:`~handsolver.models.chinese.order_key`) break the order rule: a row above outranks the
    row below it.

    >>> order_fouls((5, 5, 4)), order_fouls((5, 6, 1)), order_fouls((9, 5, 6))
    (False, True, True)
    """
    bottom, middle, top = order_keys
    return middle > bottom or top > middle


def is_foul(board: Setting) -> bool:
    """Whether a complete board breaks the order rule (bottom >= middle >= top)."""
    return order_fouls([order_key(row, part) for row, part in enumerate(board)])


def earns_fantasy_key(top_key: int, fouled: bool) -> bool:
    """Whether a board with this top row (its front key) earns fantasyland: QQ or better on top
    and not fouled."""
    return not fouled and top_key >= FANTASY_ENTRY_KEY


class BoardKeys(NamedTuple):
    """What the score needs of a complete board: fouled or not, the row keys (bottom, middle,
    top: :func:`~handsolver.models.chinese.row_key`), its royalties (0 when fouled) and whether
    it earns fantasyland."""

    fouled: bool
    rows: tuple[int, int, int]
    royalty: int
    fantasy: bool


def keys_of_rows(
    rows: tuple[int, int, int], orders: Sequence[int], royalties: Sequence[int]
) -> BoardKeys:
    """A board's :class:`BoardKeys` from each row's key, order key and royalty."""
    fouled = order_fouls(orders)
    royalty = 0 if fouled else sum(royalties)
    return BoardKeys(fouled, rows, royalty, earns_fantasy_key(rows[TOP], fouled))


def board_keys(board: Setting, royalties: Royalties) -> BoardKeys:
    """A complete board's :class:`BoardKeys` under a royalty table."""
    rows = tuple(row_key(row, part) for row, part in enumerate(board))
    orders = [order_key(row, part) for row, part in enumerate(board)]
    paid = [royalties.of_row(row, part) for row, part in enumerate(board)]
    return keys_of_rows((rows[0], rows[1], rows[2]), orders, paid)


def row_royalties(board: Setting, royalties: Royalties) -> RowRoyalties:
    """The royalties a complete board earns, row by row; a fouled board earns none."""
    if is_foul(board):
        return RowRoyalties(0, 0, 0, 0)
    bottom, middle, top = (royalties.of_row(row, part) for row, part in enumerate(board))
    return RowRoyalties(top, middle, bottom, top + middle + bottom)


def score_keys(mine: BoardKeys, theirs: BoardKeys) -> int:
    """My points against one opponent, from both boards' keys: the row points (1 a row, 3 more
    for all three: :func:`~handsolver.models.chinese.points_1_6`) plus my royalties less
    theirs; a fouled board loses every row, two fouled boards score 0."""
    if mine.fouled or theirs.fouled:
        outcome = int(theirs.fouled) - int(mine.fouled)
        outcomes: tuple[int, ...] = (outcome, outcome, outcome)
    else:
        outcomes = tuple((a > b) - (a < b) for a, b in zip(mine.rows, theirs.rows, strict=True))
    return points_1_6(outcomes) + mine.royalty - theirs.royalty


def score(mine: Setting, theirs: Setting, royalties: Royalties) -> int:
    """My points against one opponent: the row points (1 a row, 3 more for all three) plus my
    royalties less theirs; a fouled board loses every row and earns nothing."""
    return score_keys(board_keys(mine, royalties), board_keys(theirs, royalties))


def scores(boards: Sequence[Setting], royalties: Royalties) -> tuple[int, ...]:
    """Each player's total against every other (2 or 3 players, scored in pairs); the totals
    sum to 0.

    >>> boards = [board_of_text(text) for text in (
    ...     "Qc Qd 4s | 9h 9c 9d 5c 2s | Ah Kh 8h 6h 3h",
    ...     "Ac 7d 2c | Jh Jc 8d 7s 6c | Ts Tc Td 5s 5d",
    ...     "Kc Kd Ks | 2c 3c 4c 5c 7h | 6d 7c 8c 9s Js")]  # fouled: trips over a high card
    >>> scores(boards, default_royalties())
    (27, 4, -31)
    """
    if not 2 <= len(boards) <= 3:
        raise InputError(f"a scoring needs 2 or 3 boards, got {len(boards)}")
    keys = [board_keys(board, royalties) for board in boards]
    return tuple(
        sum(score_keys(mine, theirs) for j, theirs in enumerate(keys) if j != i)
        for i, mine in enumerate(keys)
    )


@dataclass(frozen=True)
class StayRule:
    """Which rows keep a board in fantasyland: the weakest category that stays in each row, or
    None when that row cannot (top categories: 0 high card, 1 pair, 2 three of a kind; middle and
    bottom: :data:`handsolver.models.poker.CATEGORY_NAMES` indices)."""

    top: int | None
    middle: int | None
    bottom: int | None


STAY_RULES: dict[str, StayRule] = {
    "standard": StayRule(top=2, middle=FULL_HOUSE, bottom=QUADS),
    "no-middle": StayRule(top=2, middle=None, bottom=QUADS),
}
"""``standard``: three of a kind on top, a full house or better in the middle, or four of a
kind or better on the bottom; ``no-middle``: the same without the middle."""
FANTASY_RULES = ("progressive", "flat")
PROGRESSIVE_SIZES = (14, 15, 16, 17)
"""The cards Pineapple's fantasyland may deal (flat deals 14 of them)."""


@dataclass(frozen=True)
class Streets:
    """How a variant deals a normal hand: the first street's cards, all placed, then streets of
    ``dealt`` cards of which ``placed`` are placed and the rest discarded face down, until the
    board holds 13; and the cards its fantasyland deals (None: by the fantasyland rule).

    >>> PINEAPPLE.count, [PINEAPPLE.before(street) for street in range(PINEAPPLE.count)]
    (5, [0, 5, 7, 9, 11])
    >>> CLASSIC.count, CLASSIC.street_of(12), CLASSIC.dealt_on(12), CLASSIC.discards
    (9, 8, 1, 0)
    >>> PINEAPPLE.street_of(6) is None, PINEAPPLE.to_deal(0), CLASSIC.to_deal(0)
    (True, 17, 13)
    """

    name: str
    first: int
    dealt: int
    placed: int
    fantasy_cards: int | None

    def __post_init__(self) -> None:
        if not 0 <= self.dealt - self.placed <= 1:  # an action holds at most one discard
            raise ValueError(f"a street discards 0 or 1 cards, not {self.dealt - self.placed}")

    @property
    def discards(self) -> int:
        """Cards discarded a later street."""
        return self.dealt - self.placed

    @property
    def count(self) -> int:
        """Streets in a hand, the first included."""
        return 1 + (HAND_SIZE - self.first) // self.placed

    def before(self, street: int) -> int:
        """The cards a board holds before street ``street`` (0 the first)."""
        return 0 if street == 0 else self.first + (street - 1) * self.placed

    def street_of(self, placed: int) -> int | None:
        """The street (0 the first) a board holding ``placed`` cards stands before, or None when
        no street starts there (13 cards: the board is complete)."""
        if placed == 0:
            return 0
        later, rest = divmod(placed - self.first, self.placed)
        if placed < self.first or rest or placed >= HAND_SIZE:
            return None
        return 1 + later

    def dealt_on(self, placed: int) -> int:
        """The cards the street before a board of ``placed`` cards deals."""
        return self.first if placed == 0 else self.dealt

    def placed_on(self, placed: int) -> int:
        """The cards that street places."""
        return self.first if placed == 0 else self.placed

    def is_last(self, placed: int) -> bool:
        """Whether the street before a board of ``placed`` cards completes it."""
        return placed + self.placed_on(placed) == HAND_SIZE

    def to_deal(self, placed: int) -> int:
        """The cards a board of ``placed`` cards is still dealt before it holds 13."""
        first = self.first if placed == 0 else 0
        return first + (HAND_SIZE - max(placed, self.first)) // self.placed * self.dealt


PINEAPPLE = Streets("pineapple", FIRST_STREET, dealt=LATER_STREET, placed=2, fantasy_cards=None)
CLASSIC = Streets("classic", first=FIRST_STREET, dealt=1, placed=1, fantasy_cards=HAND_SIZE)
VARIANTS: dict[str, Streets] = {"pineapple": PINEAPPLE, "classic": CLASSIC}
"""``pineapple``: 5 cards, then four streets of 3 (2 placed, 1 discarded), fantasyland by the
fantasyland rule; ``classic``: 5 cards, then eight streets of 1, fantasyland 13 cards."""


@dataclass(frozen=True)
class OfcRules:
    """One table's rules: royalties, how fantasyland is entered and how it is kept."""

    royalties: Royalties = field(default_factory=default_royalties)
    fantasy: str = "progressive"
    stay: str = "standard"
    variant: str = "pineapple"

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise InputError(f"unknown variant {self.variant!r}; use {' or '.join(VARIANTS)}")
        if self.fantasy not in FANTASY_RULES:
            raise InputError(
                f"unknown fantasyland rule {self.fantasy!r}; use {' or '.join(FANTASY_RULES)}"
            )
        if self.stay not in STAY_RULES:
            raise InputError(f"unknown stay rule {self.stay!r}; use {' or '.join(STAY_RULES)}")

    @property
    def stay_rule(self) -> StayRule:
        return STAY_RULES[self.stay]

    @property
    def streets(self) -> Streets:
        """How the variant deals (:data:`VARIANTS`)."""
        return VARIANTS[self.variant]

    @property
    def fantasy_sizes(self) -> tuple[int, ...]:
        """The cards fantasyland may deal: classic 13; Pineapple 14 to 17, or 14 when flat.

        >>> OfcRules().fantasy_sizes, OfcRules(variant="classic").fantasy_sizes
        ((14, 15, 16, 17), (13,))
        """
        fixed = self.streets.fantasy_cards
        if fixed is not None:
            return (fixed,)
        return (REFANTASY_CARDS,) if self.fantasy == "flat" else PROGRESSIVE_SIZES

    @property
    def refantasy_cards(self) -> int:
        """The cards a board that stays in fantasyland is dealt next (14; classic 13)."""
        fixed = self.streets.fantasy_cards
        return REFANTASY_CARDS if fixed is None else fixed

    def fantasy_cards(self, board: Setting) -> int | None:
        """The cards a complete board's owner is dealt in fantasyland next, or None.

        >>> rules = OfcRules()
        >>> [rules.fantasy_cards(board_of_text(top + " | 9c 9d 9h 3c 3d | 4s 5s 6s 7s 8s"))
        ...  for top in ("Jc Jd 2s", "Qc Qd 2s", "Kc Kd 2s", "As Ah 2s", "2c 2d 2h")]
        [None, 14, 15, 16, 17]
        >>> OfcRules(fantasy="flat").fantasy_cards(board_of_text(
        ...     "2c 2d 2h | Ac Ad Ah 3c 3d | 4s 5s 6s 7s 8s"))
        14
        >>> OfcRules(variant="classic").fantasy_cards(board_of_text(
        ...     "2c 2d 2h | Ac Ad Ah 3c 3d | 4s 5s 6s 7s 8s"))
        13
        """
        top = board[TOP]
        if not earns_fantasy_key(front_key(top), is_foul(board)):
            return None
        if self.streets.fantasy_cards is not None:
            return self.streets.fantasy_cards
        category = front_category(top)
        pair = sorted((rank_of(card) for card in top), reverse=True)[1]  # in any pair
        if self.fantasy == "flat":
            return REFANTASY_CARDS
        if category == 2:
            return MAX_FANTASY_CARDS
        return {_QUEEN: 14, _KING: 15, _ACE: 16}[pair]

    def row_stays(self, row: int, cards: Sequence[Card]) -> bool:
        """Whether this row alone would keep a board (that is not fouled) in fantasyland."""
        rule = self.stay_rule
        if row == TOP:
            return rule.top is not None and front_category(cards) >= rule.top
        least = rule.middle if row == MIDDLE else rule.bottom
        return least is not None and category_index(poker_key(cards)) >= least

    def stays(self, board: Setting) -> bool:
        """Whether a complete board set in fantasyland keeps its owner there."""
        if is_foul(board):
            return False
        return any(self.row_stays(row, part) for row, part in enumerate(board))
