"""Big 2 rule profiles: which plays are legal where, as data.

Big 2 is played with different rules by region and app (the sources are in ``docs/big2.md``).
A :class:`Rules` value holds one choice for every switch; :data:`PROFILES` names six of them,
and :func:`make_rules` starts from a named profile and changes single switches, so that
``make_rules("hk", triples=False)`` reads as it sounds.

>>> make_rules("hk", triples=False).name
'hk --no-triples'
>>> [len(PROFILES[name].straight_ranks) for name in PROFILES]
[10, 10, 10, 9, 8, 9]
>>> make_rules("pusoy-dos").suit_order
'dhsc'
>>> try:
...     make_rules("macau")
... except RulesError as error:
...     print(error)
unknown rules 'macau'; choose from seed, hk, taiwan, pusoy-dos, western, online
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any

from handsolver.models.cards import SUITS, InputError, Notation, make_card

__all__ = [
    "PROFILES",
    "SEED_RULES",
    "FlushOrder",
    "Quads",
    "Rules",
    "RulesError",
    "StraightOrder",
    "Straights",
    "make_rules",
    "parse_rules",
    "parse_switches",
]


class RulesError(InputError):
    """An unknown profile name, a bad switch value, or switches that contradict each other."""


class Straights(StrEnum):
    """Which runs of five ranks are straights (ranks run 3 4 ... K A 2 in Big 2)."""

    ACE_ENDS = "ace-ends"
    """A-2-3-4-5, 2-3-4-5-6, 3-4-5-6-7 ... 10-J-Q-K-A: the ace only at an end, no run past it."""
    TWO_HIGH = "two-high"
    """3-4-5-6-7 ... 10-J-Q-K-A and J-Q-K-A-2: the 2 only on top, above the ace."""
    NO_TWOS = "no-twos"
    """3-4-5-6-7 ... 10-J-Q-K-A: no 2 in any straight."""
    WRAP = "wrap"
    """Any five ranks in a row round the circle, J-Q-K-A-2, Q-K-A-2-3 and K-A-2-3-4 included."""


# Poker ranks: 0 is the deuce, 12 the ace.  Each straight lists its ranks low to high.
_RUNS = {
    Straights.ACE_ENDS: ((12, 0, 1, 2, 3), *(tuple(range(low, low + 5)) for low in range(9))),
    Straights.TWO_HIGH: (*(tuple(range(low, low + 5)) for low in range(1, 9)), (9, 10, 11, 12, 0)),
    Straights.NO_TWOS: tuple(tuple(range(low, low + 5)) for low in range(1, 9)),
    Straights.WRAP: tuple(tuple((low + i) % 13 for i in range(5)) for low in (12, *range(12))),
}


class Quads(StrEnum):
    """How four of a kind is played."""

    WITH_KICKER = "with-kicker"
    """Only as a five-card play, with any fifth card."""
    ALONE_OR_KICKER = "alone-or-kicker"
    """Also as a four-card play on its own."""
    NO_KICKER = "no-kicker"
    """Only as a four-card play on its own: four of a kind + 1 is no play."""


class FlushOrder(StrEnum):
    """How two flushes compare (it decides no partition; answers report it)."""

    RANK = "rank"
    """By the highest card, then the next, as in poker; suits break a tie."""
    SUIT = "suit"
    """By suit first, then by the highest card."""
    HIGH_CARD = "high-card"
    """By the highest card alone, as singles compare: its rank, then its suit."""


class StraightOrder(StrEnum):
    """How straights (and straight flushes) rank among themselves."""

    RUN = "run"
    """By where the run ends, as in poker: A2345 lowest, then 23456, 34567 .. TJQKA, then
    (where they are straights) JQKA2, QKA23, KA234."""
    SIX_HIGH_TWO = "23456-high"
    """As ``run``, except that 23456 ranks above every other straight (A2345 stays lowest)."""


#: The switches in the order a profile's name lists its changes.
SWITCHES = (
    "straights",
    "triples",
    "two_pair",
    "two_pair_alone",
    "quads",
    "flushes",
    "flush_order",
    "dragon",
    "suit_order",
    "straight_order",
    "pass_final",
    "bombs",
    "unbeatable_straight_flush",
    "open_alone",
    "players",
)


@dataclass(frozen=True)
class Rules:
    """One Big 2 rule set.  ``base`` is the profile it started from (see :attr:`name`).

    ``suit_order`` lists the suits from highest to lowest (``"shcd"``: spades > hearts > clubs >
    diamonds); ``players`` is 4 (13 cards each) or 3 (17 each).  The game switches say how play
    goes on: ``straight_order`` ranks the straights, ``pass_final`` keeps a player who passed out
    of the rest of the trick, ``bombs`` lets four of a kind + 1 and straight flushes beat a
    single 2, ``unbeatable_straight_flush`` lets nothing beat a straight flush (not even a
    higher one), ``open_alone`` makes the deal's first play the lowest card alone.
    ``two_pair`` is two pair + a fifth card (a five-card play), ``two_pair_alone`` two pair as
    a four-card play (below four of a kind alone).
    """

    base: str = "seed"
    straights: Straights = Straights.ACE_ENDS
    triples: bool = True
    two_pair: bool = False
    two_pair_alone: bool = False
    quads: Quads = Quads.WITH_KICKER
    flushes: bool = True
    flush_order: FlushOrder = FlushOrder.RANK
    dragon: bool = False
    suit_order: str = "shcd"
    straight_order: StraightOrder = StraightOrder.RUN
    pass_final: bool = False
    bombs: bool = False
    unbeatable_straight_flush: bool = False
    open_alone: bool = False
    players: int = 4

    def __post_init__(self) -> None:
        if sorted(self.suit_order) != sorted(SUITS):
            raise RulesError(
                f"the suit order {self.suit_order!r} must list the suits c, d, h, s once each, "
                "highest first",
                about="suit_order",
            )
        if self.players not in (3, 4):
            raise RulesError(f"the players must be 3 or 4, not {self.players}", about="players")

    @property
    def name(self) -> str:
        """The profile's name, followed by every switch that differs from it.

        >>> Rules("taiwan", **{**_TAIWAN, "dragon": True}).name
        'taiwan --dragon'
        """
        base = PROFILES.get(self.base, SEED_RULES)
        changes = [
            _switch_text(key, getattr(self, key))
            for key in SWITCHES
            if getattr(self, key) != getattr(base, key)
        ]
        return " ".join([self.base, *changes])

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player: 13 for four players, 17 for three."""
        return 52 // self.players

    @cached_property
    def straight_ranks(self) -> tuple[tuple[int, ...], ...]:
        """The straights as poker ranks (0 = deuce .. 12 = ace), each low to high."""
        return _RUNS[self.straights]

    @cached_property
    def straights_low_to_high(self) -> tuple[tuple[int, ...], ...]:
        """The straights as poker ranks, from the lowest straight to the highest.

        >>> [ranks[0] for ranks in PROFILES["taiwan"].straights_low_to_high][-2:]
        [8, 0]
        """
        runs = self.straight_ranks
        if self.straight_order is StraightOrder.SIX_HIGH_TWO:
            six_high = tuple(range(5))
            runs = (*(run for run in runs if run != six_high), *(r for r in runs if r == six_high))
        return runs

    @cached_property
    def five_card_order(self) -> tuple[str, ...]:
        """The names of the five-card kinds these rules have, from lowest to highest.

        >>> make_rules("taiwan", two_pair=True).five_card_order
        ('two pair + 1', 'straight', 'full house', 'four of a kind + 1', 'straight flush')
        """
        kinds = ["two pair + 1"] if self.two_pair else []
        kinds.append("straight")
        if self.flushes:
            kinds.append("flush")
        kinds.append("full house")
        if self.quads is not Quads.NO_KICKER:
            kinds.append("four of a kind + 1")
        kinds.append("straight flush")
        return tuple(kinds)

    @cached_property
    def four_card_order(self) -> tuple[str, ...]:
        """The names of the four-card kinds these rules have, from lowest to highest.

        >>> make_rules("seed", two_pair_alone=True, quads="alone").four_card_order
        ('two pair', 'four of a kind')
        """
        kinds = ["two pair"] if self.two_pair_alone else []
        if 4 in self.small_sizes:
            kinds.append("four of a kind")
        return tuple(kinds)

    @property
    def bomb_kinds(self) -> tuple[str, ...]:
        """The kinds that may beat a single 2 (none unless ``bombs``)."""
        if not self.bombs:
            return ()
        bombs = ("four of a kind + 1", "straight flush")
        return tuple(kind for kind in self.five_card_order if kind in bombs)

    @cached_property
    def straight_rank_bits(self) -> frozenset[int]:
        """Each straight as a 13-bit set of poker ranks."""
        return frozenset(sum(1 << rank for rank in ranks) for ranks in self.straight_ranks)

    @cached_property
    def suit_rank(self) -> tuple[int, ...]:
        """Per card suit (0..3 = c d h s), its place in this suit order (0 = lowest)."""
        return tuple(3 - self.suit_order.index(suit) for suit in SUITS)

    @cached_property
    def card_keys(self) -> tuple[int, ...]:
        """Per card, its Big 2 order: the three lowest, the two highest, suits by this order."""
        return tuple(((card >> 2) - 1) % 13 * 4 + self.suit_rank[card & 3] for card in range(52))

    @cached_property
    def small_sizes(self) -> tuple[int, ...]:
        """The sizes of the plays made of one rank: singles, pairs, triples, four alone."""
        sizes = [1, 2]
        if self.triples:
            sizes.append(3)
        if self.quads is not Quads.WITH_KICKER:
            sizes.append(4)
        return tuple(sizes)

    @cached_property
    def small_cost(self) -> tuple[int, ...]:
        """``small_cost[c]``: the fewest one-rank plays for ``c`` cards of a rank (c = 0..4).

        >>> SEED_RULES.small_cost, make_rules("seed", triples=False).small_cost
        ((0, 1, 1, 1, 2), (0, 1, 1, 2, 2))
        """
        cost = [0]
        for count in range(1, 5):
            cost.append(1 + min(cost[count - size] for size in self.small_sizes if size <= count))
        return tuple(cost)

    @cached_property
    def play_sizes(self) -> tuple[int, ...]:
        """Every size a play can have under these rules."""
        sizes = {*self.small_sizes, 5}
        if self.two_pair_alone:
            sizes.add(4)
        if self.dragon:
            sizes.add(13)
        return tuple(sorted(sizes))

    @cached_property
    def fewest_plays_by_size(self) -> tuple[int, ...]:
        """``[n]``: the fewest plays whose sizes add up to ``n`` cards (n = 0..52)."""
        best = [0] + [52] * 52
        for total in range(1, 53):
            best[total] = 1 + min(best[total - s] for s in self.play_sizes if s <= total)
        return tuple(best)

    def card_key(self, card: int) -> int:
        """The card's Big 2 order under these rules (see :attr:`card_keys`)."""
        return self.card_keys[card]

    def to_json(self, notation: Notation | None = None) -> dict[str, Any]:
        """The rules as data: every straight's ranks in ``notation``, and every switch.

        >>> data = make_rules("western").to_json(Notation(ten="0", upper_suits=True))
        >>> data["name"], data["straights"][0], data["straights"][-1], data["suit_order"]
        ('western', ['3', '4', '5', '6', '7'], ['0', 'J', 'Q', 'K', 'A'], 'shcd')
        """
        notation = notation or Notation()
        return {
            "name": self.name,
            "rank_order": [notation.format(make_card((i + 1) % 13, 0))[:-1] for i in range(13)],
            "straights": [
                [notation.format(make_card(rank, 0))[:-1] for rank in ranks]
                for ranks in self.straights_low_to_high
            ],
            "straight_set": self.straights.value,
            "triples": self.triples,
            "two_pair": self.two_pair,
            "two_pair_alone": self.two_pair_alone,
            "quads": self.quads.value,
            "flushes": self.flushes,
            "flush_order": self.flush_order.value,
            "dragon": self.dragon,
            "suit_order": self.suit_order,
            "straight_order": self.straight_order.value,
            "four_card_order": list(self.four_card_order),
            "five_card_order": list(self.five_card_order),
            "pass_final": self.pass_final,
            "bombs": list(self.bomb_kinds),
            "unbeatable_straight_flush": self.unbeatable_straight_flush,
            "open_alone": self.open_alone,
            "players": self.players,
            "hand_size": self.hand_size,
        }


def _switch_text(key: str, value: object) -> str:
    """A switch as the command line spells it, e.g. ``--no-triples`` or ``--quads alone``."""
    flag = key.replace("_", "-")
    if isinstance(value, bool):
        return f"--{flag}" if value else f"--no-{flag}"
    return f"--{flag} {value}"


_TAIWAN: dict[str, Any] = {
    "flushes": False,
    "suit_order": "shdc",
    "straight_order": StraightOrder.SIX_HIGH_TWO,
}
SEED_RULES = Rules()
#: The named profiles; docs/big2.md gives the source of each.
PROFILES: dict[str, Rules] = {
    "seed": SEED_RULES,
    "hk": Rules("hk"),
    "taiwan": Rules("taiwan", **_TAIWAN),
    "pusoy-dos": Rules(
        "pusoy-dos", straights=Straights.TWO_HIGH, flush_order=FlushOrder.SUIT, suit_order="dhsc"
    ),
    "western": Rules("western", straights=Straights.NO_TWOS, flush_order=FlushOrder.SUIT),
    "online": Rules(
        "online",
        straights=Straights.TWO_HIGH,
        two_pair_alone=True,
        quads=Quads.NO_KICKER,
        flush_order=FlushOrder.HIGH_CARD,
        unbeatable_straight_flush=True,
        open_alone=True,
    ),
}


def make_rules(name: str = "seed", **switches: Any) -> Rules:
    """The profile ``name`` with ``switches`` changed (``None`` leaves a switch as it is).

    Switch values may be given as their text (``straights="no-twos"``, ``quads="alone"``).

    >>> make_rules("seed", quads="alone", dragon=True).name
    'seed --quads alone-or-kicker --dragon'
    >>> make_rules("taiwan", flush_order="suit")
    Traceback (most recent call last):
    ...
    handsolver.models.big2_rules.RulesError: a flush order (suit) contradicts no flushes: \
the taiwan rules have no flushes

    :raises RulesError: for an unknown name or switch value, or switches that contradict.
    """
    name = _profile(name)
    given = {key: value for key, value in switches.items() if value is not None}
    unknown = sorted(set(given) - set(SWITCHES))
    if unknown:
        raise RulesError(f"unknown rule switch {unknown[0]!r}")
    kinds = {
        "straights": Straights,
        "quads": Quads,
        "flush_order": FlushOrder,
        "straight_order": StraightOrder,
    }
    for key, kind in kinds.items():
        if key in given:
            given[key] = _choice(kind, given[key], key)
    if "suit_order" in given:
        given["suit_order"] = str(given["suit_order"]).lower()
    rules = dataclasses.replace(PROFILES[name], **given)
    if "flush_order" in given and not rules.flushes:
        why = "you turned them off" if "flushes" in given else f"the {name} rules have no flushes"
        raise RulesError(
            f"a flush order ({rules.flush_order}) contradicts no flushes: {why}",
            about="flush_order",
        )
    return rules


def _profile(text: str) -> str:
    """The profile ``text`` names: case-blind, a unique start enough (``HK``, ``pusoy``).

    >>> _profile("HK"), _profile("pusoy"), _profile("T")
    ('hk', 'pusoy-dos', 'taiwan')
    """
    lowered = text.strip().lower()
    matches = [name for name in PROFILES if name.startswith(lowered)] if lowered else []
    if lowered in PROFILES or len(matches) == 1:
        return lowered if lowered in PROFILES else matches[0]
    raise RulesError(f"unknown rules {text!r}; choose from {', '.join(PROFILES)}")


def _choice(kind: type[StrEnum], value: object, key: str) -> StrEnum:
    """``value`` as a member of ``kind``; a unique prefix is enough (``alone``)."""
    if isinstance(value, kind):
        return value
    text = str(value).strip().lower()
    matches = [member for member in kind if member.value.startswith(text)] if text else []
    exact = [member for member in kind if member.value == text]
    if exact or len(matches) == 1:
        return (exact or matches)[0]
    choices = ", ".join(member.value for member in kind)
    raise RulesError(f"{key.replace('_', ' ')} {value!r} is not one of {choices}", about=key)


def parse_rules(text: str) -> Rules:
    """The rules written as :attr:`Rules.name` writes them: a profile name, then switches, read
    by :func:`parse_switches` as the command line's options are.

    >>> rules = parse_rules("taiwan --no-triples --quads alone-or-kicker")
    >>> rules.name, parse_rules(rules.name) == rules
    ('taiwan --no-triples --quads alone-or-kicker', True)
    >>> parse_rules("--dragon").name
    'seed --dragon'
    >>> parse_rules("hk --straights bent")
    Traceback (most recent call last):
    ...
    handsolver.models.big2_rules.RulesError: in the rules 'hk --straights bent': straights \
'bent' is not one of ace-ends, two-high, no-twos, wrap

    :raises RulesError: for an unknown name, switch or value, or switches that contradict.
    """
    words = text.split()
    name = words.pop(0) if words and not words[0].startswith("-") else "seed"
    switches = parse_switches(words)
    try:
        return make_rules(name, **switches)
    except RulesError as error:
        if error.about is None:  # an unknown name: the message quotes it
            raise
        # A switch's value: say in which rules, as they were written.
        raise RulesError(f"in the rules {text!r}: {error}", about=error.about) from None


def parse_switches(words: list[str]) -> dict[str, Any]:
    """The switches ``words`` give (``--no-triples``, ``--quads alone``, ``--players=3``), as
    :func:`make_rules` takes them: the one reading of rule switches, for a ``--rules`` string
    and for the command line's options alike.

    >>> parse_switches(["--no-triples", "--players", "3"])
    {'triples': False, 'players': 3}
    >>> parse_switches(["--triples", "--no-triples"])
    Traceback (most recent call last):
    ...
    handsolver.models.big2_rules.RulesError: --triples contradicts --no-triples

    :raises RulesError: an unknown switch, a missing or bad value, or a switch given two ways.
    """
    flags = {key.replace("_", "-"): key for key in SWITCHES}
    switches: dict[str, Any] = {}
    said: dict[str, str] = {}
    rest = list(words)
    while rest:
        word = rest.pop(0)
        flag, equals, value = word.removeprefix("--").partition("=")
        if not word.startswith("--"):
            raise RulesError(f"unknown rule switch {word!r}")
        key = flags.get(flag.removeprefix("no-") if flag not in flags else flag)
        if key is None:
            raise RulesError(f"unknown rule switch {word!r}")
        negative = flag != key.replace("_", "-")
        if negative and not isinstance(getattr(SEED_RULES, key), bool):
            raise RulesError(f"unknown rule switch {word!r}")
        if isinstance(getattr(SEED_RULES, key), bool):
            if equals:
                raise RulesError(f"{_switch_text(key, True)} takes no value")
            found: Any = not negative
        else:
            if not equals:
                if not rest or rest[0].startswith("--"):
                    raise RulesError(f"--{flag} needs a value")
                value = rest.pop(0)
            found = _players(value) if key == "players" else value
        text = _switch_text(key, found)
        if key in switches and switches[key] != found:
            first, second = sorted((said[key], text), key=lambda t: t.startswith("--no-"))
            if isinstance(found, bool):
                raise RulesError(f"{first} contradicts {second}")
            raise RulesError(f"{text} contradicts {said[key]}")
        switches[key], said[key] = found, text
    return switches


def _players(value: str) -> int:
    """``--players``: ASCII digits only (``int`` would also read ``３`` as 3)."""
    if not (value.isascii() and value.isdigit()):
        raise RulesError(f"--players {value!r} is not 3 or 4")
    return int(value)
