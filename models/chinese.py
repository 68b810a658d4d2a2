"""Chinese poker: 13 cards set into a back (5), a middle (5) and a front (3), scored row by row.

Rules (each choice is documented in ``docs/chinese.md``):

- 52 cards, 2 to 4 players, 13 cards each.
- Back and middle are 5-card poker hands with the project's keys (:mod:`handsolver.models.poker`;
  A-2-3-4-5 is the lowest straight).  The front is three cards: three of a kind > pair > high
  card, no straights or flushes, then ranks from the top (the pair before its kicker).
- Order rule: back >= middle >= front, the front compared with the middle by category first
  (high card < pair < [two pair] < three of a kind < [straight ...]) and then rank by rank from
  the top, as far as the front has cards.  A front equal to the top of the middle is allowed.
  A setting that breaks the order is fouled.
- Per row the higher hand wins a point, equal hands tie.  ``1-6``: a scoop (all three rows won)
  is +6 instead of +3.  ``2-4``: one more point for winning more rows than the opponent, so a
  scoop is +4.  A fouled setting loses every row to one that is not fouled (it is scooped); two
  fouled settings score 0.  Royalties are off by default (:class:`Royalties`).

The game is an instance of the split-game engine, parts in order back, middle, front, so that
the order key must not increase from the first part to the last:

>>> from handsolver.models.cards import parse_cards
>>> game = chinese_game()
>>> mine = setting_of(parse_cards("Qs 5d 4c"), parse_cards("Jh Jc 8d 7d 2s"),
...                   parse_cards("Ac Ad Ah Ks 3h"))
>>> theirs = setting_of(parse_cards("As 9s 5c"), parse_cards("Th Tc 6h 6s 2c"),
...                     parse_cards("9h 9c 9d 8c 4h"))
>>> game.is_foul(mine), game.outcomes(mine, theirs), game.score(mine, theirs)
(False, (1, -1, -1), -1)
>>> fouled = setting_of(parse_cards("Kc Kd 4d"), parse_cards("Jh Jc 8d 7d 2s"),
...                     parse_cards("Ac Ad Ah Ks 3h"))  # front pair of kings over middle jacks
>>> game.is_foul(fouled), game.score(fouled, theirs), chinese_game("2-4").score(fouled, theirs)
(True, -6, -4)
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TypeAlias

from handsolver.models.cards import RANKS, Card, InputError, Notation, rank_of
from handsolver.models.poker import (
    CATEGORY_NAMES,
    NUM_KEYS,
    PAIR,
    TRIPS,
    category_index,
    key_ranks,
    poker_key,
)
from handsolver.models.split import Outcomes, Setting, SplitGame

BACK, MIDDLE, FRONT = 0, 1, 2
PART_NAMES = ("back", "middle", "front")
PART_SIZES = (5, 5, 3)
HAND_SIZE = 13
MIN_PLAYERS, MAX_PLAYERS = 2, 4
NUM_SETTINGS = 72_072
"""13! / (5! 5! 3!): every way to set 13 distinct cards, fouled or not."""

FRONT_CATEGORIES = ("high card", "pair", "three of a kind")
NUM_FRONT_KEYS = 3 * 13**3
"""Front keys are ``category * 13**3`` plus the three ranks in the order they count, base 13."""

SCORING_RULES = ("1-6", "2-4")

ChineseSetting: TypeAlias = Setting
"""Parts in the engine's order: (back, middle, front), each a tuple of cards."""


def setting_of(front: Sequence[Card], middle: Sequence[Card], back: Sequence[Card]) -> Setting:
    """The engine's setting from the rows as players write them, front first."""
    return (tuple(back), tuple(middle), tuple(front))


def front_ranks(cards: Sequence[Card]) -> tuple[int, int, int]:
    """The front's ranks in the order they count: trips, or the pair then its kicker, or high to
    low.

    >>> from handsolver.models.cards import parse_cards
    >>> front_ranks(parse_cards("4c Kd 4s"))
    (2, 2, 11)
    """
    a, b, c = sorted((rank_of(card) for card in cards), reverse=True)
    if a != b and b == c:
        return (b, c, a)
    return (a, b, c)


def front_category(cards: Sequence[Card]) -> int:
    """0 high card, 1 pair, 2 three of a kind (an index into :data:`FRONT_CATEGORIES`)."""
    return 3 - len({rank_of(card) for card in cards})


def front_key(cards: Sequence[Card]) -> int:
    """The front's row key: greater is stronger, equal is a tie.

    >>> from handsolver.models.cards import parse_cards
    >>> trips, aces, aces_too = (parse_cards(t) for t in ("2c 2d 2h", "Ac Ad 3c", "Ah As 3d"))
    >>> front_key(trips) > front_key(aces) == front_key(aces_too)
    True
    >>> front_key(aces) > front_key(parse_cards("Ac Kd Qh"))
    True
    """
    r1, r2, r3 = front_ranks(cards)
    return front_category(cards) * 13**3 + r1 * 169 + r2 * 13 + r3


def _five_card_category(front_category_index: int) -> int:
    return (0, PAIR, TRIPS)[front_category_index]


@cache
def front_order_table() -> tuple[int, ...]:
    """Front key -> the weakest 5-card key that the front does not beat (see front_order)."""
    # 5-card keys sorted by (category, top three ranks): non-decreasing along the key order.
    tops = [(category_index(key), *key_ranks(key)[:3]) for key in range(NUM_KEYS)]
    table = [NUM_KEYS] * NUM_FRONT_KEYS
    for code in range(NUM_FRONT_KEYS):
        category, rest = divmod(code, 13**3)
        ranks = (rest // 169, rest // 13 % 13, rest % 13)
        table[code] = bisect_left(tops, (_five_card_category(category), *ranks))
    return tuple(table)


def front_order(cards: Sequence[Card]) -> int:
    """The front on the scale of the 5-card keys, for the order rule.

    It is the weakest 5-card key whose category and top three ranks are not below the front's,
    so a middle of key ``m`` is at least the front exactly when ``m >= front_order(front)``.

    >>> from handsolver.models.cards import parse_cards
    >>> kings = front_order(parse_cards("Kc Kd 9h"))
    >>> poker_key(parse_cards("Kh Ks 9c 3d 2d")) >= kings  # equal on the front's ranks: legal
    True
    >>> poker_key(parse_cards("Kh Ks 8c 7d 6d")) >= kings  # lower kicker: fouled
    False
    """
    return front_order_table()[front_key(cards)]


def row_key(row: int, part: Sequence[Card]) -> int:
    """The key a row is compared with against the opponent's same row."""
    return front_key(part) if row == FRONT else poker_key(part)


def order_key(row: int, part: Sequence[Card]) -> int:
    """The key of the order rule: the poker key, and the front on the same scale."""
    return front_order(part) if row == FRONT else poker_key(part)


def points_1_6(outcomes: Outcomes) -> int:
    """One point per row won, less one per row lost; a scoop is worth 6.

    >>> [points_1_6(rows) for rows in ((1, 1, 1), (1, 0, -1), (-1, -1, -1), (1, 1, 0))]
    [6, 0, -6, 2]
    """
    total = sum(outcomes)
    return total * 2 if abs(total) == 3 else total


def points_2_4(outcomes: Outcomes) -> int:
    """One point per row won, less one per row lost, and one for winning more rows.

    >>> [points_2_4(rows) for rows in ((1, 1, 1), (1, -1, 0), (1, 0, 0), (-1, -1, 1))]
    [4, 0, 2, -2]
    """
    total = sum(outcomes)
    return total + (total > 0) - (total < 0)


def check_scoring(name: str) -> str:
    """``name`` if it is a scoring rule.

    :raises InputError: naming the rule otherwise.
    """
    if name not in SCORING_RULES:
        raise InputError(f"unknown scoring rule {name!r}; use {' or '.join(SCORING_RULES)}")
    return name


@cache
def chinese_game(scoring: str = "1-6") -> SplitGame[int]:
    """The game under a scoring rule, as an instance of the split-game engine (no royalties).

    :raises InputError: for an unknown scoring rule.
    """
    points = points_1_6 if check_scoring(scoring) == "1-6" else points_2_4
    return SplitGame(
        name="chinese",
        part_names=PART_NAMES,
        part_sizes=PART_SIZES,
        row_key=row_key,
        points=points,
        order_key=order_key,
    )


@dataclass(frozen=True)
class Royalties:
    """Bonus points for strong rows, paid by each opponent whose setting is not fouled.

    A table gives, for each row, points for a category (``"four of a kind"``) or for a category
    and the rank of its main cards (``"pair 6"``: a pair of sixes; ``"straight A"``: the
    ace-high straight; for flushes and high cards the top card).  The rank entry wins over the
    category entry.  A fouled setting earns none.  The file is JSON:
    ``{"back": {"four of a kind": 4}, "front": {"pair 6": 1, "three of a kind": 10}}``.
    Points are whole numbers from ``-MAX_ROYALTY`` to :data:`MAX_ROYALTY`, so that every sum
    over rows, opponents and sampled deals is exact in 64-bit arithmetic and in CP-SAT.

    >>> from handsolver.models.cards import parse_cards
    >>> table = parse_royalties('{"back": {"four of a kind": 4}, "front": {"pair 6": 1}}')
    >>> quads, sixes = parse_cards("9c 9d 9h 9s 2c"), parse_cards("6c 6d 2h")
    >>> table.of_row(BACK, quads), table.of_row(FRONT, sixes)
    (4, 1)
    >>> table.of_row(MIDDLE, quads)
    0
    """

    back: tuple[int, ...]
    """Royalty by 5-card key."""
    middle: tuple[int, ...]
    """Royalty by 5-card key."""
    front: tuple[int, ...]
    """Royalty by front key."""

    def of_row(self, row: int, part: Sequence[Card]) -> int:
        table = (self.back, self.middle, self.front)[row]
        return table[row_key(row, part)]

    def of_setting(self, setting: Setting) -> int:
        """The setting's royalties, ignoring fouls (the caller knows whether it is fouled)."""
        return sum(self.of_row(row, part) for row, part in enumerate(setting))


def _main_rank(row: int, key: int) -> int:
    if row == FRONT:
        return key % 13**3 // 169
    return key_ranks(key)[0]


def _category_name(row: int, key: int) -> str:
    if row == FRONT:
        return FRONT_CATEGORIES[key // 13**3]
    return CATEGORY_NAMES[category_index(key)]


MAX_ROYALTY = 1_000_000
"""The largest royalty (and, negated, the smallest) a table may give one row."""


class _Number(str):
    """A JSON number as written (``json.loads`` hooks), checked by :func:`_royalty_points`."""


def _royalty_points(value: object, what: str) -> int:
    """``value`` (a JSON number kept as text) as a whole number of at most MAX_ROYALTY."""
    if not isinstance(value, _Number) or not re.fullmatch(r"-?[0-9]+", value):
        raise InputError(f"{what} must be an integer")
    if len(value.lstrip("-")) > len(str(MAX_ROYALTY)) or abs(int(value)) > MAX_ROYALTY:
        raise InputError(
            f"{what} is out of range: royalties are whole numbers from -{MAX_ROYALTY:,} to "
            f"{MAX_ROYALTY:,}"
        )
    return int(value)


def parse_royalties(
    text: str, source: str = "royalties", row_names: tuple[str, str, str] = PART_NAMES
) -> Royalties:
    """A royalty table from JSON text (see :class:`Royalties`).

    ``row_names`` are the rows as the file names them, in the order back, middle, front (open-face
    Chinese poker writes ``("bottom", "middle", "top")``).

    >>> parse_royalties('{"front": {"straight": 2}}')
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: royalties: unknown front hand 'straight'

    :raises InputError: naming the bad row, hand or points.
    """
    try:
        # Numbers stay text until checked: a 5,000-digit integer is refused, not converted.
        table = json.loads(
            text.removeprefix("\ufeff"),
            parse_int=_Number,
            parse_float=_Number,
            parse_constant=_Number,
        )
    except json.JSONDecodeError as error:
        raise InputError(f"{source}: not JSON ({error.msg} at line {error.lineno})") from None
    except RecursionError:
        raise InputError(f"{source}: JSON nested too deeply for a royalty table") from None
    if not isinstance(table, dict):
        raise InputError(f"{source}: expected an object of rows")
    rows: list[tuple[int, ...]] = []
    for row, name in enumerate(row_names):
        entries = table.get(name, {})
        if not isinstance(entries, dict):
            raise InputError(f"{source}: row {name!r} must map hands to points")
        categories = FRONT_CATEGORIES if row == FRONT else CATEGORY_NAMES
        wanted: dict[tuple[str, int | None], int] = {}
        for hand, points in entries.items():
            words = hand.strip().lower().split()
            rank: int | None = None
            if words and words[-1].upper() in RANKS and " ".join(words[:-1]) in categories:
                rank = RANKS.index(words.pop().upper())
            category = " ".join(words)
            if category not in categories:
                raise InputError(f"{source}: unknown {name} hand {hand!r}")
            wanted[(category, rank)] = _royalty_points(
                points, f"{source}: points for {name} {hand!r}"
            )
        size = NUM_FRONT_KEYS if row == FRONT else NUM_KEYS
        values = []
        for key in range(size):
            category = _category_name(row, key)
            exact = wanted.get((category, _main_rank(row, key)))
            values.append(exact if exact is not None else wanted.get((category, None), 0))
        rows.append(tuple(values))
    unknown = sorted(set(table) - set(row_names))
    if unknown:
        raise InputError(f"{source}: unknown row {unknown[0]!r}; rows are {', '.join(row_names)}")
    return Royalties(*rows)


def format_setting(setting: Setting, notation: Notation) -> str:
    """The setting as players write it, ``FRONT|MIDDLE|BACK``.

    >>> from handsolver.models.cards import STANDARD, parse_cards
    >>> format_setting(setting_of(parse_cards("2c 3c 4c"), parse_cards("5c 6c 7c 8c Td"),
    ...                           parse_cards("Ac Kc Qc Jc 9d")), STANDARD)
    '2c 3c 4c | 5c 6c 7c 8c Td | Ac Kc Qc Jc 9d'
    """
    back, middle, front = setting
    return " | ".join(notation.format_cards(part) for part in (front, middle, back))
