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
- The joker deck (``OfcRules(jokers=2)``: 54 cards, the jokers 52 and 53): a joker stands for
  the card its row does not hold that serves best (:func:`row_keys`: no five of a kind), and
  the jokers of a board are chosen together, each row the strongest that keeps the order
  (:func:`chosen_keys`); royalties, fantasyland and staying go by the hands they make.

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

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import combinations
from typing import NamedTuple

from handsolver.models.cards import DECK, JOKERS, Card, InputError, card_name, parse_cards
from handsolver.models.chinese import (
    BACK,
    FRONT,
    PART_SIZES,
    Royalties,
    front_key,
    front_order_table,
    order_key,
    parse_royalties,
    points_1_6,
    row_key,
    setting_of,
)
from handsolver.models.chinese import MIDDLE as CHINESE_MIDDLE
from handsolver.models.poker import FULL_HOUSE, QUADS, category_index
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
    """The rows, order rule and row points (no royalties) as a split game, for the 52-card deck
    (a board's jokers are chosen together, which a split game's rows cannot do: see
    :func:`board_keys`).

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


def board_of_text(text: str, jokers: bool = False) -> Setting:
    """A complete board from ``TOP | MIDDLE | BOTTOM`` (3, 5 and 5 distinct cards; with
    ``jokers``, ``X1`` and ``X2`` are the jokers).

    >>> board_of_text("Qc Qd | 9h 9c 9d 5c 2s | Ah Kh 8h 6h 3h")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: board '...': top needs 3 cards, got 2

    :raises InputError: naming the board and what is wrong with it.
    """
    rows = partial_board_of_text(text, jokers)
    for name, size, cards in zip(("top", "middle", "bottom"), (3, 5, 5), rows, strict=True):
        if len(cards) != size:
            raise InputError(f"board {text.strip()!r}: {name} needs {size} cards, got {len(cards)}")
    top, middle, bottom = rows
    return board_of(top, middle, bottom)


def partial_board_of_text(text: str, jokers: bool = False) -> tuple[tuple[Card, ...], ...]:
    """The rows ``TOP | MIDDLE | BOTTOM`` of a board being built, top first; a row may be
    empty or short, never over its size, and no card may appear twice.

    >>> partial_board_of_text("Kc | | 2c 2d")
    ((44,), (), (0, 1))

    :raises InputError: naming the board and the bad row or card.
    """
    parts = text.split("|")
    if len(parts) != 3:
        raise InputError(f"board {text.strip()!r}: write three rows, TOP | MIDDLE | BOTTOM")
    rows = tuple(parse_cards(part, jokers) if part.strip() else () for part in parts)
    for name, size, cards in zip(("top", "middle", "bottom"), (3, 5, 5), rows, strict=True):
        if len(cards) > size:
            raise InputError(f"board {text.strip()!r}: {name} holds {size} cards, got {len(cards)}")
    seen: set[Card] = set()
    for card in (card for row in rows for card in row):
        if card in seen:
            raise InputError(f"board {text.strip()!r}: card {card_name(card)!r} is given twice")
        seen.add(card)
    return rows


MAX_JOKERS = len(JOKERS)


def ofc_deck(jokers: int = 0) -> tuple[Card, ...]:
    """The cards dealt: the 52, and with ``jokers`` the first that many jokers (52, 53).

    >>> len(ofc_deck()), ofc_deck(2)[-2:]
    (52, (52, 53))
    """
    return DECK + JOKERS[:jokers]


def row_keys(row: int, cards: Sequence[Card]) -> tuple[int, ...]:
    """Every key a complete row can take, weakest first.  Without a joker that is its one key
    (:func:`~handsolver.models.chinese.row_key`); a joker stands for any card that is not in
    its row (two jokers for two different ones), so a row never holds a card twice and there
    is no five of a kind, while a joker may be a card seen elsewhere.  (At most 26 cards need
    trying a joker, :func:`_stand_ins`, not the 48 or more the row leaves.)

    >>> from handsolver.models.chinese import front_key
    >>> tops = row_keys(TOP, parse_cards("Qc Qd X1", jokers=True))
    >>> tops[-1] == front_key(parse_cards("Qc Qd Qh")), len(tops)  # any rank for the joker
    (True, 13)
    >>> quads = parse_cards("Ac Ad Ah As X2", jokers=True)
    >>> row_keys(BOTTOM, quads)[-1] == row_key(BOTTOM, parse_cards("Ac Ad Ah As Kc"))
    True
    """
    real = tuple(sorted(card for card in cards if card not in JOKERS))
    if len(real) == len(cards):
        return (row_key(row, cards),)
    return _joker_row_keys(row, real, len(cards) - len(real))


@lru_cache(maxsize=1 << 16)
def _joker_row_keys(row: int, real: tuple[Card, ...], jokers: int) -> tuple[int, ...]:
    """The keys of the row with its jokers replaced by every card (pair of cards) of
    :func:`_stand_ins`, each distinct key once."""
    stand_ins = _stand_ins(real)
    return tuple(sorted({row_key(row, real + extra) for extra in combinations(stand_ins, jokers)}))


def _stand_ins(real: tuple[Card, ...]) -> list[Card]:
    """Cards not in the row that give its jokers every key they may make: a key depends on the
    ranks and on whether the row is a flush, so for each rank the card of the real cards' suit
    (when they share one) and one other do, or two others (two jokers of a rank).

    >>> len(_stand_ins(parse_cards("Ah Kh Qh"))), len(_stand_ins(parse_cards("Ah Kd Qh")))
    (26, 26)
    """
    held = set(real)
    suits = {card & 3 for card in real}
    suited = suits.pop() if len(suits) == 1 else None
    kept = []
    for rank in range(13):
        free = [rank * 4 + suit for suit in range(4) if rank * 4 + suit not in held]
        if suited is not None and rank * 4 + suited in free:
            others = [card for card in free if card & 3 != suited]
            kept += [rank * 4 + suited, *others[:1]]
        else:
            kept += free[:2]
    return kept


def order_of_key(row: int, key: int) -> int:
    """A row's order key (:func:`~handsolver.models.chinese.order_key`) from its row key: the
    key itself for the middle and bottom, the top's place on the 5-card scale."""
    return front_order_table()[key] if row == TOP else key


def chosen_keys(options: Sequence[Sequence[int]]) -> tuple[int, int, int] | None:
    """The keys a complete board's rows take, from each row's :func:`row_keys` (bottom,
    middle, top), or None when the board is fouled.

    The jokers of a board are chosen together: each row is the strongest it can be without
    breaking the order, from the bottom up: the bottom its strongest key, the middle its
    strongest not above the bottom, the top its strongest not above the middle.  The board is
    fouled only when no choice keeps the order.  No other choice that keeps it has a stronger
    row (a weaker bottom only lowers the middle's ceiling, a weaker middle the top's), so this
    one is the best for every row at once.  With one key a row (no jokers) it is the order rule
    of :func:`order_fouls`.

    >>> chosen_keys([(10,), (4, 8, 12), (0, 5)]) == (10, 8, 5)  # the middle held to the bottom
    True
    >>> chosen_keys([(10,), (11, 12), (0,)]) is None
    True
    """
    bottom_keys, middle_keys, top_keys = options
    bottom = bottom_keys[-1]
    at = bisect_right(middle_keys, bottom)
    if not at:
        return None
    middle = middle_keys[at - 1]
    # The top's order keys rise with its keys (front_order_table is monotone).
    at = bisect_right(top_keys, middle, key=front_order_table().__getitem__)
    if not at:
        return None
    return bottom, middle, top_keys[at - 1]


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
    """Whether a complete board breaks the order rule (bottom >= middle >= top) however its
    jokers are chosen (:func:`chosen_keys`)."""
    return chosen_keys([row_keys(row, part) for row, part in enumerate(board)]) is None


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


def keys_of_options(options: Sequence[Sequence[int]], royalties: Royalties) -> BoardKeys:
    """A complete board's :class:`BoardKeys` from each row's :func:`row_keys`, its jokers
    chosen by :func:`chosen_keys` (a fouled board keeps each row's strongest key)."""
    chosen = chosen_keys(options)
    if chosen is None:
        return BoardKeys(True, (options[0][-1], options[1][-1], options[2][-1]), 0, False)
    bottom, middle, top = chosen
    paid = royalties.back[bottom] + royalties.middle[middle] + royalties.front[top]
    return BoardKeys(False, chosen, paid, earns_fantasy_key(top, False))


def board_keys(board: Setting, royalties: Royalties) -> BoardKeys:
    """A complete board's :class:`BoardKeys` under a royalty table."""
    return keys_of_options([row_keys(row, part) for row, part in enumerate(board)], royalties)


def row_royalties(board: Setting, royalties: Royalties) -> RowRoyalties:
    """The royalties a complete board earns, row by row (the rows as its jokers are chosen);
    a fouled board earns none."""
    keys = board_keys(board, royalties)
    if keys.fouled:
        return RowRoyalties(0, 0, 0, 0)
    bottom, middle, top = keys.rows
    paid = (royalties.front[top], royalties.middle[middle], royalties.back[bottom])
    return RowRoyalties(*paid, sum(paid))


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


_TOP_CATEGORY = 13**3  # a front key is its category times this plus its ranks, base 13


@dataclass(frozen=True)
class OfcRules:
    """One table's rules: royalties, how fantasyland is entered and how it is kept, and the
    jokers in the deck (0, or up to 2: the 54-card deck, :func:`row_keys`)."""

    royalties: Royalties = field(default_factory=default_royalties)
    fantasy: str = "progressive"
    stay: str = "standard"
    variant: str = "pineapple"
    jokers: int = 0

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise InputError(f"unknown variant {self.variant!r}; use {' or '.join(VARIANTS)}")
        if self.fantasy not in FANTASY_RULES:
            raise InputError(
                f"unknown fantasyland rule {self.fantasy!r}; use {' or '.join(FANTASY_RULES)}"
            )
        if self.stay not in STAY_RULES:
            raise InputError(f"unknown stay rule {self.stay!r}; use {' or '.join(STAY_RULES)}")
        if not 0 <= self.jokers <= MAX_JOKERS:
            raise InputError(f"a deck holds 0 to {MAX_JOKERS} jokers, got {self.jokers}")

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

    @property
    def deck(self) -> tuple[Card, ...]:
        """The cards dealt at this table (:func:`ofc_deck`)."""
        return ofc_deck(self.jokers)

    def check_cards(self, cards: Sequence[Card]) -> None:
        """Refuse a card the deck does not hold: a joker when it has none.

        :raises InputError: naming the card.
        """
        for card in cards:
            if card not in self.deck:
                raise InputError(f"card {card_name(card)!r} is a joker: the deck has none")

    def fantasy_cards(self, board: Setting) -> int | None:
        """The cards a complete board's owner is dealt in fantasyland next, or None; the top's
        hand is the one its jokers make (:func:`chosen_keys`).

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
        >>> rules.fantasy_cards(board_of_text("Ks X1 2h | 9c 9d 9h 3c 3d | 4s 5s 6s 7s 8s", True))
        15
        """
        keys = board_keys(board, self.royalties)
        if not keys.fantasy:
            return None
        if self.streets.fantasy_cards is not None:
            return self.streets.fantasy_cards
        top = keys.rows[TOP]
        if self.fantasy == "flat":
            return REFANTASY_CARDS
        if top // _TOP_CATEGORY == 2:
            return MAX_FANTASY_CARDS
        pair = top % _TOP_CATEGORY // 169  # a pair's rank counts first
        return {_QUEEN: 14, _KING: 15, _ACE: 16}[pair]

    def key_stays(self, row: int, key: int) -> bool:
        """Whether this row, of this key, alone would keep a board (that is not fouled) in
        fantasyland."""
        rule = self.stay_rule
        if row == TOP:
            return rule.top is not None and key // _TOP_CATEGORY >= rule.top
        least = rule.middle if row == MIDDLE else rule.bottom
        return least is not None and category_index(key) >= least

    def stays(self, board: Setting) -> bool:
        """Whether a complete board set in fantasyland keeps its owner there (its rows as
        its jokers are chosen)."""
        keys = board_keys(board, self.royalties)
        if keys.fouled:
            return False
        return any(self.key_stays(row, key) for row, key in enumerate(keys.rows))
