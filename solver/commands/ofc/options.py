"""What the ``ofc`` commands share: the rules' options, points as typed, boards as JSON."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from handsolver.models.cards import Notation
    from handsolver.models.ofc import OfcRules

MAX_STAY_VALUE = 10_000
RoyaltiesOption = Annotated[
    Path | None,
    typer.Option(
        "--royalties",
        metavar="FILE",
        help="Royalty table (JSON, rows bottom, middle, top); the common table by default.",
        show_default=False,
    ),
]
StayRuleOption = Annotated[
    str,
    typer.Option(
        "--stay-rule",
        metavar="standard|no-middle",
        help="What keeps fantasyland: standard (trips on top, a full house or better in the "
        "middle, quads or better on the bottom) or no-middle (the same without the middle).",
    ),
]

FantasyOption = Annotated[
    str,
    typer.Option(
        "--fantasy",
        metavar="progressive|flat",
        help="Cards fantasyland deals: progressive (QQ 14, KK 15, AA 16, trips 17) or flat (14).",
    ),
]
STAY_RULE_WORDS = {
    "standard": "a board not fouled with trips on top, a full house or better in the middle, or "
    "quads or better on the bottom",
    "no-middle": "a board not fouled with trips on top or quads or better on the bottom",
}
"""What keeps fantasyland under each stay rule, as the help and ``ofc royalties`` say it."""
FANTASY_WORDS = {
    "progressive": "a board not fouled with QQ or better on top: QQ 14 cards, KK 15, AA 16, "
    "trips 17",
    "flat": "a board not fouled with QQ or better on top: 14 cards",
}
"""What earns fantasyland, and how many cards, under each fantasyland rule."""

# The variant: how the streets deal (its own block, beside the rules' other options).
VariantOption = Annotated[
    str,
    typer.Option(
        "--variant",
        metavar="pineapple|classic",
        help="How a hand is dealt: pineapple (5 cards, then four streets of 3: 2 placed, 1 "
        "discarded) or classic open-face (5 cards, then eight streets of 1, placed; "
        "fantasyland deals 13 cards, whatever --fantasy says).",
    ),
]
VARIANT_WORDS = {
    "pineapple": "5 cards, then four streets of 3 cards: 2 placed, 1 discarded",
    "classic": "5 cards, then eight streets of 1 card, placed",
}
"""How each variant deals a normal hand, as ``ofc royalties`` says it."""
CLASSIC_FANTASY_WORDS = "a board not fouled with QQ or better on top: 13 cards, all set"
"""What earns classic fantasyland, and how many cards."""


def ofc_rules(
    royalties: Path | None,
    stay_rule: str,
    fantasy: str = "progressive",
    variant: str = "pineapple",
) -> OfcRules:
    """The rules of the options (the royalty file read bounded, named on error)."""
    from handsolver.models.ofc import OfcRules, default_royalties, parse_ofc_royalties
    from handsolver.solver.commands.inputs import read_small_file, source_name

    table = default_royalties()
    if royalties is not None:
        table = parse_ofc_royalties(
            read_small_file(str(royalties)), source=source_name(str(royalties))
        )
    return OfcRules(royalties=table, fantasy=fantasy, stay=stay_rule, variant=variant)


def points_value(text: str, what: str) -> Fraction:
    """A number of points as typed (``12``, ``12.5``, ``25/2``, ``1e2``), exactly, from 0 to
    the maximum, read by :func:`~handsolver.models.numbers.parse_fraction`: ASCII digits only
    (no ``1_000``), and digits and exponent bounded before the fraction is built.

    :raises InputError: naming the option and the text.
    """
    from handsolver.models.cards import InputError
    from handsolver.models.numbers import parse_fraction

    written = text.strip()
    negative = written.startswith("-")
    try:
        value = parse_fraction(written[1:] if written[:1] in "+-" else written, what)
    except InputError:
        raise InputError(
            f"{what}: {text[:40]!r} is not a number of points from 0 to {MAX_STAY_VALUE:,} "
            "(such as 12, 12.5 or 25/2)"
        ) from None
    if negative and value:
        value = -value
    if not 0 <= value <= MAX_STAY_VALUE:
        raise InputError(f"{what} must be 0 to {MAX_STAY_VALUE:,}, got {written}")
    return value


def points_text(value: Fraction) -> str:
    """Points for a table: a whole number as it is, else a decimal, exact when it ends within
    four places, else cut to four places and marked with an ellipsis (``--json`` keeps the
    fraction).

    >>> [points_text(Fraction(n, d)) for n, d in ((35, 1), (1024, 25), (-1, 8), (100, 3))]
    ['35', '40.96', '-0.125', '33.3333…']
    """
    if value.denominator == 1:
        return str(value.numerator)
    sign = "-" if value < 0 else ""
    scaled = abs(value) * 10**4
    text = f"{int(scaled) // 10**4}.{int(scaled) % 10**4:04d}"
    if scaled.denominator == 1:
        return sign + text.rstrip("0")
    return f"{sign}{text}…"


def rows_json(setting: Any, notation: Notation) -> dict[str, list[str]]:
    """A board (bottom, middle, top) as JSON rows, top first, in the user's notation."""
    bottom, middle, top = setting
    return {
        "top": notation.card_strings(top),
        "middle": notation.card_strings(middle),
        "bottom": notation.card_strings(bottom),
    }


# Who plays the boards a command samples: one switch for ofc study and ofc fantasyland.
OpponentPlayOption = Annotated[
    str,
    typer.Option(
        "--opponent-play",
        metavar="rollout|policy|player",
        help="Who plays the sampled opponent boards (and a study's normal hands) out: rollout "
        "(the rollout player of 'ofc play', which fouls a few boards in a hundred, about 1 ms a "
        "board), policy (the hand-written policy, which fouls about four in ten) or player (the "
        "player of 'ofc play' itself, heads-up against a rollout board: seconds a board).",
    ),
]
PLAYED_BY = {"rollout": "rollout player", "policy": "policy", "player": "player of ofc play"}
"""How the commands name the player of the sampled boards in their headers."""


def check_opponent_play(player: str) -> None:
    """Refuse a player that cannot play sampled boards, naming the option.

    :raises InputError: naming the player typed and the ones that may play.
    """
    from handsolver.models.cards import InputError
    from handsolver.solver.ofc.opponents import BOARD_PLAYERS, players_named

    if player not in BOARD_PLAYERS:
        raise InputError(
            f"--opponent-play: {player[:40]!r} is not a player of sampled boards; use "
            f"{players_named()}"
        )


# The joker deck: one switch for every ofc command.
JokersOption = Annotated[
    bool,
    typer.Option(
        "--jokers",
        help="Deal the 54-card deck: 52 cards and two jokers, written X1 and X2, each the best "
        "card it may stand for that its row does not hold, chosen so that the board is not "
        "fouled where it can be.",
    ),
]


JOKER_WORDS = (
    "54 cards with two jokers (X1, X2): a joker is the best card its row does not hold, the "
    "jokers of a board chosen together so that it is not fouled where it can be (each row the "
    "strongest that keeps the order, from the bottom up); the same royalties and fantasyland "
    "rules, by the hands the jokers make"
)
"""The joker deck's rule, as ``ofc royalties --jokers`` says it."""


def with_jokers(rules: OfcRules, jokers: bool) -> OfcRules:
    """The rules with the joker deck (two jokers) when ``jokers``."""
    from dataclasses import replace

    from handsolver.models.ofc import MAX_JOKERS

    return replace(rules, jokers=MAX_JOKERS) if jokers else rules


def check_jokers(cards: Sequence[int], rules: OfcRules) -> None:
    """Refuse a joker typed when the deck has none, naming the switch.

    :raises InputError: naming the card.
    """
    from handsolver.models.cards import JOKERS, InputError, card_name

    if not rules.jokers:
        for card in cards:
            if card in JOKERS:
                raise InputError(
                    f"card {card_name(card)!r} is a joker: add --jokers to play "
                    "with the 54-card deck"
                )
