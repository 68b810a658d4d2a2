"""The Big 2 strategies a tournament seats, each a :class:`~.table.Strategy`.

- ``random``: a legal move uniformly at random, the pass among them where it is allowed.
- ``greedy``, a conventional program: on a play to beat, the lowest play that beats it (passing
  only when none does); on a lead, the plays of the most cards first (five-card plays, then
  triples, pairs, singles last), the lowest of them; at the start of a deal, the same among the
  plays that hold the lowest card.
- ``fewest``: plays along its own fewest-plays partition: on a lead, of the plays whose removal
  leaves a hand that needs one play fewer, the one of the most cards, the lowest of them; on a
  play to beat, the lowest reply that does the same, else a pass (a play that empties the hand
  is always made).
- ``shed``: the advisor's playout policy (:func:`~.playout.shed_choice`): greedy that makes a
  play emptying the hand, keeps groups of one rank whole, keeps its twos for later, passes
  rather than break a group unless the hand or an opponent is down to a few cards, and blocks
  with its highest single when an opponent has one card left.
- ``advise``: the move :func:`~.advise.advise` ranks first, with its settings.
- ``learned``: the legal move the learned player values most (:mod:`.learned`: a network
  trained by self-play, not derived from any of the players above).
- ``program:COMMAND``: the user's program, run isolated as Chinese poker's programs are (see
  :mod:`handsolver.solver.sandbox`).  It reads one JSON object a line, a decision each, with
  the keys ``seat``, ``hand``, ``counts``, ``history`` (a list of ``[seat, cards]``, cards
  ``""`` for a pass), ``beat``, ``by``, ``passed``, ``start`` and ``moves`` (the legal moves,
  ``"pass"`` among them where allowed), seats counted from 0, and prints one line a decision:
  the cards of its play, or ``pass``.

Ties between plays of one size go to the lower by the rules' order, so greedy and fewest are
deterministic; random uses each view's own seed.
"""

from __future__ import annotations

import json
import random
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from handsolver.models.big2 import Play, Rules
from handsolver.models.big2_order import lowest_card, play_strength
from handsolver.models.cards import STANDARD, CardSet, InputError, mask_of, parse_cards
from handsolver.solver.big2.table.advise import TABLE_ADVICE, AdviceSettings, advise
from handsolver.solver.big2.table.greedy_rule import greedy_among
from handsolver.solver.big2.table.learned import Learned
from handsolver.solver.big2.table.move_order import fewest_count
from handsolver.solver.big2.table.playout import hand_plays, shed_choice
from handsolver.solver.big2.table.views import Move, Strategy, TableView

__all__ = [
    "DEFAULT_TIMEOUT",
    "STRATEGY_NAMES",
    "Advise",
    "Fewest",
    "Greedy",
    "Program",
    "Random",
    "Shed",
    "strategy_from_spec",
]

DEFAULT_TIMEOUT = 60.0
"""Seconds a strategy program may run for one batch of decisions."""
STRATEGY_NAMES = ("random", "greedy", "fewest", "shed", "advise", "learned")


def _lowest(plays: list[Play], rules: Rules) -> Play:
    return min(plays, key=lambda play: play_strength(play, rules))


def _largest_lowest(plays: list[Play], rules: Rules) -> Play:
    size = max(play.kind.size for play in plays)
    return _lowest([play for play in plays if play.kind.size == size], rules)


@dataclass(frozen=True)
class Random:
    name: str = "random"

    def choose(self, views: Sequence[TableView], seeds: Sequence[int]) -> list[Move]:
        return [
            random.Random(seed).choice(view.legal_moves())
            for view, seed in zip(views, seeds, strict=True)
        ]


@dataclass(frozen=True)
class Greedy:
    name: str = "greedy"

    def choose(self, views: Sequence[TableView], seeds: Sequence[int]) -> list[Move]:
        return [greedy_move(view) for view in views]


def greedy_move(view: TableView) -> Move:
    """The greedy move (see the module)."""
    return greedy_among(view.legal_moves(), view.beat is not None, view.rules)


@dataclass(frozen=True)
class Fewest:
    name: str = "fewest"

    def choose(self, views: Sequence[TableView], seeds: Sequence[int]) -> list[Move]:
        return [fewest_move(view) for view in views]


def fewest_move(view: TableView) -> Move:
    """The move along the fewest-plays partition (see the module)."""
    plays = [move for move in view.legal_moves() if move is not None]
    rules = view.rules

    def count(hand: CardSet) -> int:
        return fewest_count(hand, rules)

    for play in plays:
        if play.mask == view.hand:
            return play
    need = count(view.hand) - 1
    along = [play for play in plays if count(view.hand ^ play.mask) <= need]
    if view.beat is not None:
        return _lowest(along, rules) if along else None
    return _largest_lowest(along or plays, rules)


@dataclass(frozen=True)
class Shed:
    name: str = "shed"

    def choose(self, views: Sequence[TableView], seeds: Sequence[int]) -> list[Move]:
        return [shed_move(view) for view in views]


def shed_move(view: TableView) -> Move:
    """The playout policy's move (see the module)."""
    rules = view.rules
    size = strength = 0
    if view.beat is not None:
        size, strength = view.beat.kind.size, play_strength(view.beat, rules)
    danger = min(count for seat, count in enumerate(view.counts) if seat != view.seat)
    moves = view.legal_moves()
    if len(moves) == 1:  # forced (a deal opened by the lowest card alone)
        return moves[0]
    must = 1 << lowest_card(view.hand, rules) if view.start else 0
    play = shed_choice(hand_plays(view.hand, rules), view.hand, size, strength, danger, must)
    if play is None:
        return None
    return next(move for move in moves if move is not None and move.mask == play[0])


@dataclass(frozen=True)
class Advise:
    settings: AdviceSettings = TABLE_ADVICE

    @property
    def name(self) -> str:
        return "advise"

    def choose(self, views: Sequence[TableView], seeds: Sequence[int]) -> list[Move]:
        out: list[Move] = []
        for view, seed in zip(views, seeds, strict=True):
            moves = view.legal_moves()
            if len(moves) == 1:
                out.append(moves[0])
                continue
            settings = replace(self.settings, seed=seed)
            out.append(advise(view, settings).best)
        return out


def _cards(move: Move) -> str:
    return "" if move is None else STANDARD.format_cards(move.cards)


def view_json(view: TableView) -> str:
    """The line a strategy program reads for ``view`` (see the module)."""
    return json.dumps(
        {
            "seat": view.seat,
            "hand": STANDARD.format_cards(_sorted(view.hand)),
            "counts": list(view.counts),
            "history": [[turn.seat, _cards(turn.move)] for turn in view.history],
            "beat": None if view.beat is None else _cards(view.beat),
            "by": view.by,
            "passed": sorted(view.passed),
            "start": view.start,
            "moves": [_cards(move) or "pass" for move in view.legal_moves()],
        },
        separators=(",", ":"),
    )


def _sorted(hand: CardSet) -> list[int]:
    from handsolver.models.cards import cards_of

    return list(cards_of(hand))


@dataclass(frozen=True)
class Program:
    """A strategy program (see the module), run isolated by ``sandbox``."""

    command: str
    timeout: float = DEFAULT_TIMEOUT
    sandbox: str = "auto"

    @property
    def name(self) -> str:
        return f"program:{self.command}"

    def choose(self, views: Sequence[TableView], seeds: Sequence[int]) -> list[Move]:
        from handsolver.solver.sandbox.answers import answer_lines

        if not views:
            return []
        lines = [view_json(view) for view in views]
        answers = answer_lines(
            self.command, lines, timeout=self.timeout, sandbox=self.sandbox,
            answers="moves", questions="decisions",
        )  # fmt: skip
        return [self._move(view, answer) for view, answer in zip(views, answers, strict=True)]

    def _move(self, view: TableView, answer: str) -> Move:
        moves = view.legal_moves()
        text = answer.strip()
        legal = {0 if move is None else move.mask: move for move in moves}
        try:
            mask = 0 if text.lower() == "pass" else mask_of(parse_cards(text))
        except InputError:
            mask = -1
        if mask not in legal:
            raise InputError(
                f"strategy program {self.command!r} answered {text!r}, not a legal move "
                f"with hand {STANDARD.format_cards(_sorted(view.hand))!r}"
            )
        return legal[mask]


def strategy_from_spec(
    spec: str,
    settings: AdviceSettings = TABLE_ADVICE,
    timeout: float = DEFAULT_TIMEOUT,
    sandbox: str = "auto",
) -> Strategy:
    """``random``, ``greedy``, ``fewest``, ``shed``, ``advise`` (with ``settings``),
    ``learned`` or ``program:COMMAND``.

    >>> strategy_from_spec("greedy").name
    'greedy'
    >>> try:
    ...     strategy_from_spec("greed")
    ... except InputError as error:
    ...     print(error)  # doctest: +ELLIPSIS
    unknown strategy 'greed' (did you mean 'greedy'?); use random, greedy, fewest, shed, ...

    :raises InputError: for an unknown strategy, or a program where ``sandbox`` cannot run
        (checked now, before any work).
    """
    text = spec.strip()
    # Only the strategy named is built (the learned player's reads its weights' digest).
    fixed: dict[str, Callable[[], Strategy]] = {
        "random": Random,
        "greedy": Greedy,
        "fewest": Fewest,
        "shed": Shed,
        "advise": lambda: Advise(settings),
        "learned": Learned,
    }
    if text in fixed:
        return fixed[text]()
    if text.startswith("program:") and text.removeprefix("program:").strip():
        command = text.removeprefix("program:").strip()
        try:
            shlex.split(command)
        except ValueError as error:
            raise InputError(f"cannot split the program command {command!r}: {error}") from None
        from handsolver.solver.sandbox.isolation import resolve

        resolve(sandbox)
        return Program(command, timeout, sandbox)
    import difflib

    close = difflib.get_close_matches(text, list(fixed), n=1, cutoff=0.6)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise InputError(
        f"unknown strategy {spec!r}{hint}; use random, greedy, fewest, shed, advise, learned or "
        "program:COMMAND"
    )
