"""The open-face players a match seats.  Each answers a batch of positions at once, an action or,
for a reply that is not a legal action, the reason (that hand is then lost).

- ``player``: the player of :mod:`handsolver.solver.ofc.player` (playouts by the rollout player),
  with its budgets.
- ``policy``: the policy of :mod:`handsolver.solver.ofc.play` (every street but the last by
  :func:`~handsolver.solver.ofc.play.policy_score`, the last by its best action for its own
  royalties and fantasyland).
- ``rollout``: the rollout player alone (:mod:`handsolver.solver.ofc.rollout`).
- ``random``: a legal action uniformly at random.
- ``program:COMMAND``: an outside program, run isolated by the project's sandbox
  (:mod:`handsolver.solver.sandbox`), once a street for all the positions of a batch.  It reads
  one JSON object a line, a decision each: ``variant`` (``pineapple`` or ``classic``),
  ``street`` (1 to 5 in Pineapple, 1 to 9 in classic), ``dealt`` (the cards dealt), ``board``
  (``top``, ``middle`` and ``bottom``: lists of cards), ``discards`` (mine so far),
  ``opponents`` (their boards, in seat order after mine); and prints one JSON object a line:
  the cards it adds to ``top``, ``middle`` and ``bottom``, and ``discard`` (a card, or null on
  the first street and on every street of classic).
"""

from __future__ import annotations

import json
import random
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from handsolver.models.cards import STANDARD, InputError, parse_cards
from handsolver.models.ofc import OfcRules
from handsolver.solver.ofc.play import (
    Action,
    Board,
    Position,
    Scorer,
    _policy_action,
    after,
    legal_actions,
)

Reply = Action | str
"""A legal action, or why the reply was not one."""
PLAYER_NAMES = ("player", "policy", "rollout", "random")
DEFAULT_TIMEOUT = 60.0
"""Seconds an outside program may take for one street of a batch."""


@dataclass(frozen=True)
class NewPlayer:
    """The player of :mod:`~handsolver.solver.ofc.player`."""

    rules: OfcRules
    fantasy_value: Fraction
    samples: int | None = None
    kept: int | None = None
    name: str = "player"

    def choose(self, positions: Sequence[Position], seeds: Sequence[int]) -> list[Reply]:
        from handsolver.solver.ofc.player import chosen

        return [
            chosen(p, self.rules, self.fantasy_value, self.samples, self.kept, seed)
            for p, seed in zip(positions, seeds, strict=True)
        ]


@dataclass(frozen=True)
class Policy:
    """Today's hand-written policy, its last street by its best action for itself."""

    rules: OfcRules
    fantasy_value: Fraction
    name: str = "policy"

    def choose(self, positions: Sequence[Position], seeds: Sequence[int]) -> list[Reply]:
        scorer = Scorer(self.rules, self.fantasy_value)
        out: list[Reply] = []
        for position in positions:
            board, dealt = position.board, position.dealt
            if position.streets.is_last(position.placed):
                options = legal_actions(board, dealt, position.streets)
                out.append(max(options, key=lambda a: scorer.own(after(board, a))))
            else:
                out.append(_policy_action(board, dealt, scorer))
        return out


@dataclass(frozen=True)
class Rollout:
    """The rollout player alone: each street by the judgement, the last by its best action."""

    rules: OfcRules
    fantasy_value: Fraction
    name: str = "rollout"

    def choose(self, positions: Sequence[Position], seeds: Sequence[int]) -> list[Reply]:
        from handsolver.solver.ofc.player import screen
        from handsolver.solver.ofc.rollout import Judge

        judge = Judge(Scorer(self.rules, self.fantasy_value), float(self.fantasy_value))
        return [
            screen(p.board, legal_actions(p.board, p.dealt, p.streets), judge)[0] for p in positions
        ]


@dataclass(frozen=True)
class RandomPlayer:
    """A legal action uniformly at random, from each decision's own seed."""

    name: str = "random"

    def choose(self, positions: Sequence[Position], seeds: Sequence[int]) -> list[Reply]:
        return [
            random.Random(seed).choice(legal_actions(p.board, p.dealt, p.streets))
            for p, seed in zip(positions, seeds, strict=True)
        ]


def rows_json(board: Board) -> dict[str, list[str]]:
    """A board (bottom, middle, top) as JSON rows, top first."""
    return {
        "top": STANDARD.card_strings(board[2]),
        "middle": STANDARD.card_strings(board[1]),
        "bottom": STANDARD.card_strings(board[0]),
    }


def position_json(position: Position) -> str:
    """The line an outside program reads for a position (see the module)."""
    street = position.streets.street_of(position.placed)
    assert street is not None  # a position stands before a street
    return json.dumps(
        {
            "variant": position.streets.name,
            "street": 1 + street,
            "dealt": STANDARD.card_strings(position.dealt),
            "board": rows_json(position.board),
            "discards": STANDARD.card_strings(position.dead),
            "opponents": [rows_json(board) for board in position.opponents],
        },
        separators=(",", ":"),
    )


def reply_action(position: Position, text: str) -> Reply:
    """The legal action a program's reply names, or why it names none."""
    try:
        reply = json.loads(text)
        if not isinstance(reply, dict):
            raise ValueError
        rows = []
        for name in ("bottom", "middle", "top"):
            cards = reply.get(name, [])
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                raise ValueError
            rows.append(frozenset(parse_cards(" ".join(cards), True)) if cards else frozenset())
        discard = reply.get("discard")
        if discard is not None and not isinstance(discard, str):
            raise ValueError
        dropped = None if discard is None else parse_cards(discard, True)
        if dropped is not None and len(dropped) != 1:
            raise ValueError
    except (ValueError, InputError):
        return f"the reply {text[:80]!r} is not a placement"
    wanted = (tuple(rows), None if dropped is None else dropped[0])
    for action in legal_actions(position.board, position.dealt, position.streets):
        if (tuple(frozenset(row) for row in action.rows), action.discard) == wanted:
            return action
    return f"the reply {text[:80]!r} is not a legal action with {position_json(position)}"


@dataclass(frozen=True)
class Program:
    """An outside program (see the module), run isolated by ``sandbox``."""

    command: str
    timeout: float = DEFAULT_TIMEOUT
    sandbox: str = "auto"

    @property
    def name(self) -> str:
        return f"program:{self.command}"

    def choose(self, positions: Sequence[Position], seeds: Sequence[int]) -> list[Reply]:
        from handsolver.solver.sandbox.answers import answer_lines

        if not positions:
            return []
        lines = [position_json(position) for position in positions]
        try:
            answers = answer_lines(
                self.command, lines, timeout=self.timeout, sandbox=self.sandbox,
                answers="placements", questions="decisions",
            )  # fmt: skip
        except InputError as error:
            return [str(error)] * len(positions)
        return [reply_action(p, a) for p, a in zip(positions, answers, strict=True)]


Player = NewPlayer | Policy | Rollout | RandomPlayer | Program


def player_from_spec(
    spec: str,
    rules: OfcRules,
    fantasy_value: Fraction,
    samples: int | None = None,
    kept: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    sandbox: str = "auto",
) -> Player:
    """``player``, ``policy``, ``rollout``, ``random`` or ``program:COMMAND``.

    >>> player_from_spec("policy", OfcRules(), Fraction(0)).name
    'policy'

    :raises InputError: an unknown player, or a program the sandbox cannot run (checked now).
    """
    text = spec.strip()
    if text == "player":
        return NewPlayer(rules, fantasy_value, samples, kept)
    if text == "policy":
        return Policy(rules, fantasy_value)
    if text == "rollout":
        return Rollout(rules, fantasy_value)
    if text == "random":
        return RandomPlayer()
    if text.startswith("program:") and text.removeprefix("program:").strip():
        command = text.removeprefix("program:").strip()
        try:
            shlex.split(command)
        except ValueError as error:
            raise InputError(f"cannot split the program command {command!r}: {error}") from None
        from handsolver.solver.sandbox.isolation import resolve

        resolve(sandbox)
        return Program(command, timeout, sandbox)
    raise InputError(f"unknown player {spec!r}; use {', '.join(PLAYER_NAMES)} or program:COMMAND")
