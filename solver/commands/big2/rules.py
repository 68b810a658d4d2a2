"""The Big 2 rule switches every ``big2`` command takes: ``--rules NAME`` and one option per
switch (``--no-triples``, ``--straights two-high``, ``--suit-order dhsc``...).

:func:`takes_rules` adds them to a command: the command declares a ``rules`` parameter (one
:class:`~handsolver.models.big2.Rules`, or a list of them with ``many=True``) and receives the
rules built from the options; unknown names, bad values and contradicting switches are one line
and exit code 2 before the command runs.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, TypeVar, get_type_hints

import typer

from handsolver.models.big2 import PROFILES, Rules, RulesError, make_rules, parse_switches
from handsolver.models.big2_rules import SWITCHES
from handsolver.models.cards import InputError
from handsolver.solver.commands.errors import option_named, user_errors
from handsolver.solver.commands.options import whole_number

F = TypeVar("F", bound=Callable[..., Any])
_PANEL = "Rules"


def _flag(name: str, help_text: str) -> Any:
    return Annotated[bool, typer.Option(name, help=help_text, rich_help_panel=_PANEL)]


# name -> (annotation, default): the options every big2 command gains.
_OPTIONS: dict[str, tuple[Any, Any]] = {
    "rules_names": (
        Annotated[
            list[str] | None,
            typer.Option(
                "--rules",
                metavar="NAME",
                help=f"Rule profile: {', '.join(PROFILES)} "
                "(default seed, the code-golf challenge's rules).",
                rich_help_panel=_PANEL,
            ),
        ],
        None,
    ),
    "straights": (
        Annotated[
            str | None,
            typer.Option(
                "--straights",
                metavar="SET",
                help="Which runs are straights: ace-ends (A2345 23456 .. TJQKA), two-high "
                "(34567 .. TJQKA JQKA2), no-twos (34567 .. TJQKA) or wrap (any five in a row).",
                rich_help_panel=_PANEL,
            ),
        ],
        None,
    ),
    "triples": (_flag("--triples", "Triples are a play."), False),
    "no_triples": (_flag("--no-triples", "Triples are not a play."), False),
    "two_pair": (_flag("--two-pair", "Two pair + one card is a five-card play."), False),
    "no_two_pair": (_flag("--no-two-pair", "Two pair + one card is not a play."), False),
    "two_pair_alone": (
        _flag("--two-pair-alone", "Two pair is a four-card play, below four of a kind alone."),
        False,
    ),
    "no_two_pair_alone": (_flag("--no-two-pair-alone", "Two pair alone is not a play."), False),
    "quads": (
        Annotated[
            str | None,
            typer.Option(
                "--quads",
                metavar="HOW",
                help="Four of a kind: with-kicker (a five-card play only), alone-or-kicker, "
                "or no-kicker (a four-card play only).",
                rich_help_panel=_PANEL,
            ),
        ],
        None,
    ),
    "flushes": (_flag("--flushes", "Flushes are a play."), False),
    "no_flushes": (_flag("--no-flushes", "Flushes are not a play (straight flushes are)."), False),
    "flush_order": (
        Annotated[
            str | None,
            typer.Option(
                "--flush-order",
                metavar="BY",
                help="How flushes compare: rank (card by card from the top, as in poker), "
                "suit (the suit first) or high-card (the highest card alone, as singles).",
                rich_help_panel=_PANEL,
            ),
        ],
        None,
    ),
    "dragon": (
        _flag("--dragon", "A 13-card straight (one card of every rank) is one play."),
        False,
    ),
    "no_dragon": (_flag("--no-dragon", "The dragon is not a play."), False),
    "suit_order": (
        Annotated[
            str | None,
            typer.Option(
                "--suit-order",
                metavar="ORDER",
                help="Suits highest first, e.g. shcd (spades > hearts > clubs > diamonds).",
                rich_help_panel=_PANEL,
            ),
        ],
        None,
    ),
    "straight_order": (
        Annotated[
            str | None,
            typer.Option(
                "--straight-order",
                metavar="ORDER",
                help="How straights rank: run (A2345 lowest, then by where the run ends) or "
                "23456-high (as run, with 23456 above every other straight).",
                rich_help_panel=_PANEL,
            ),
        ],
        None,
    ),
    "pass_final": (
        _flag("--pass-final", "A player who passes sits out the rest of the trick."),
        False,
    ),
    "no_pass_final": (
        _flag("--no-pass-final", "A player who passed may play when the turn comes round."),
        False,
    ),
    "bombs": (
        _flag("--bombs", "Four of a kind + 1 and straight flushes beat a single 2."),
        False,
    ),
    "no_bombs": (_flag("--no-bombs", "Nothing but a higher single beats a single 2."), False),
    "unbeatable_straight_flush": (
        _flag(
            "--unbeatable-straight-flush",
            "Nothing beats a straight flush, not even a higher straight flush.",
        ),
        False,
    ),
    "no_unbeatable_straight_flush": (
        _flag("--no-unbeatable-straight-flush", "A higher straight flush beats a straight flush."),
        False,
    ),
    "open_alone": (
        _flag("--open-alone", "The deal's first play is the lowest card (3 of diamonds) alone."),
        False,
    ),
    "no_open_alone": (
        _flag("--no-open-alone", "The deal's first play is any play holding the lowest card."),
        False,
    ),
    "players": (
        Annotated[
            str | None,
            typer.Option(
                "--players",
                metavar="N",
                help="The players at the table: 2, 3 or 4 in game, game-batch, advise and "
                "tournament (default: as many as the hands, --counts or --strategies give), "
                "else 3 or 4 (default 4). Three are dealt 17 cards each, two and four 13.",
                rich_help_panel=_PANEL,
            ),
        ],
        None,
    ),
}


def table_rules(rules: Rules, players: int | None, seats: int, what: str) -> Rules:
    """``rules`` for a table of ``seats`` players, which ``--players`` (``players``), where
    given, must agree with; ``what`` says where the seats come from (``the 2 hands given``).
    Three players are dealt 17 cards each, two and four 13 (two as four are), so the rules
    say 3 players for three and 4 otherwise.

    >>> from handsolver.models.big2 import SEED_RULES
    >>> table_rules(SEED_RULES, None, 3, "the 3 hands given").players
    3
    >>> table_rules(SEED_RULES, 3, 4, "the 4 hands given")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: --players 3 contradicts the 4 hands given

    :raises InputError: ``--players`` says another number.
    """
    if players is not None and players != seats:
        raise InputError(f"--players {players} contradicts {what}")
    return dataclasses.replace(rules, players=3 if seats == 3 else 4)


def seat_cards(rules: Rules, seats: int) -> int:
    """The most cards a hand holds at a table of ``seats`` players under ``rules`` (seated by
    :func:`table_rules`): the cards each is dealt.

    >>> from handsolver.models.big2 import SEED_RULES
    >>> [seat_cards(table_rules(SEED_RULES, None, n, ""), n) for n in (2, 3, 4)]
    [13, 17, 13]
    """
    from handsolver.solver.big2.table.tournament_games import hand_size

    return hand_size(seats, rules)


def rules_from_options(options: dict[str, Any], many: bool = False) -> list[Rules]:
    """The rules the options name: one per ``--rules`` (the challenge's, seed, when none), each
    with the switches applied.  The switches are read back as words by
    :func:`~handsolver.models.big2.parse_switches`, the reader of a ``--rules`` string too.

    :raises RulesError: for an unknown name or value, ``--rules`` twice where one is taken, or
        a switch given both ways.
    """
    names = options.pop("rules_names") or ["seed"]
    if len(names) > 1 and not many:
        raise RulesError("give --rules once (big2 stats compares several)")
    if len(set(names)) < len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise RulesError(f"--rules {twice} is given twice")
    words: list[str] = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            words.append(flag)
        elif value not in (None, False):
            words += [flag, str(value)]
    switches = parse_switches(words)
    # The rules speak of the game ("a flush order contradicts no flushes"): name the option.
    with option_named({key: "--" + key.replace("_", "-") for key in SWITCHES}):
        return [make_rules(name, **switches) for name in names]


def takes_rules(many: bool = False, seats: bool = False) -> Callable[[F], F]:
    """Give a command the rule options; it receives them as its ``rules`` parameter.

    A command that seats its own players (``seats``: the hands, counts or strategies it is
    given say how many) receives ``--players`` apart, as its ``players`` parameter (None when
    not given), and seats the rules with :func:`table_rules`.
    """

    def decorate(command: F) -> F:
        hints = get_type_hints(command, include_extras=True)
        apart = {"rules", "players"} if seats else {"rules"}
        own = [
            param.replace(annotation=hints[param.name])
            for param in inspect.signature(command).parameters.values()
            if param.name not in apart
        ]
        added = [
            inspect.Parameter(
                name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=kind
            )
            for name, (kind, default) in _OPTIONS.items()
        ]

        @functools.wraps(command)
        def run(*args: Any, **kwargs: Any) -> Any:
            options = {name: kwargs.pop(name) for name in _OPTIONS}
            with user_errors():
                if seats:
                    given = options.pop("players")
                    players = None if given is None else whole_number(given, "--players", 2, 4)
                    kwargs["players"] = players
                found = rules_from_options(options, many)
            return command(*args, rules=found if many else found[0], **kwargs)

        positional = [p for p in own if p.kind is not inspect.Parameter.KEYWORD_ONLY]
        keyword = [p for p in own if p.kind is inspect.Parameter.KEYWORD_ONLY]
        run.__signature__ = inspect.Signature([*positional, *keyword, *added])  # type: ignore[attr-defined]
        run.__annotations__ = {
            **{p.name: p.annotation for p in own},
            **{name: kind for name, (kind, _) in _OPTIONS.items()},
        }
        del run.__wrapped__
        return run  # type: ignore[return-value]

    return decorate
