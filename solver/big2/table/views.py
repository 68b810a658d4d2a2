"""A Big 2 deal as played at a table: what each player may see, the strategy interface, and
playing a deal to its end.

A :class:`TableView` is everything a seat sees when it must move: its own hand, every play so
far, how many cards each seat holds and the state of the trick.  A :class:`Strategy` takes
views and gives moves (a :class:`~handsolver.models.big2.Play`, or None to pass); the
tournament, the advisor and anyone's own code share it.  Strategies choose for many views at
once (one program run for a whole batch of decisions), each view with its own random seed, so
that a choice never depends on which other views came with it.

The flow of play is the one rules machine's (:mod:`handsolver.solver.big2.game.state`): seats
move in turn; a new trick starts when every other seat has passed since the last play (where
passes are final, a seat that passed is skipped until the trick ends), and the seat that made
the last play leads; the holder of the lowest card leads the deal and must play it; the deal
ends when a seat empties its hand.

>>> from handsolver.models.cards import mask_of, parse_cards
>>> hands = tuple(mask_of(parse_cards(text)) for text in ("3d 4c", "5d 6c"))
>>> table = Table.deal(hands)
>>> table = table.after(table.view().legal_moves()[0])  # 3d
>>> [None if move is None else move.format(STANDARD) for move in table.view().legal_moves()]
['5d', '6c', None]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple, Protocol

from handsolver.models.big2 import SEED_RULES, Play, Rules
from handsolver.models.big2_order import legal_leads, legal_replies, lowest_card
from handsolver.models.cards import STANDARD, CardSet
from handsolver.solver.big2.game.state import DealState

__all__ = ["STANDARD", "Move", "Strategy", "Table", "TableView", "Turn", "deal_score"]

Move = Play | None
"""A play, or None for a pass."""


class Turn(NamedTuple):
    """One turn of a deal: the seat and its move."""

    seat: int
    move: Move


@dataclass(frozen=True)
class TableView:
    """What ``seat`` sees when it is to move.

    ``counts`` holds every seat's number of cards, in seat order (its own included);
    ``played`` every card played so far; ``history`` every turn of the deal so far (empty where
    only the cards played are known); ``beat`` and ``by`` the play to beat and the
    seat that made it (both None on a free lead); ``passed`` the seats out of this trick (where
    passes are final); ``start`` whether this is the deal's first play, which must hold the
    seat's lowest card (the lowest of the deal).
    """

    seat: int
    hand: CardSet
    counts: tuple[int, ...]
    played: CardSet
    history: tuple[Turn, ...]
    beat: Play | None
    by: int | None
    passed: frozenset[int]
    start: bool
    rules: Rules = SEED_RULES

    def legal_moves(self) -> list[Move]:
        """Every legal move: the plays, then None (a pass) where passing is allowed.

        A free lead may not pass; the deal's first play must hold the lowest card.
        """
        if self.beat is None:
            must = 1 << lowest_card(self.hand, self.rules) if self.start else 0
            return list(legal_leads(self.hand, self.rules, must))
        return [*legal_replies(self.hand, self.beat, self.rules), None]


class Strategy(Protocol):
    """Chooses a move for each view; ``seeds[i]`` is the random stream of ``views[i]``."""

    @property
    def name(self) -> str: ...

    def choose(self, views: Sequence[TableView], seeds: Sequence[int]) -> list[Move]: ...


@dataclass(frozen=True)
class Table:
    """A deal in progress: the hands in seat order, the seat to move and the trick's state."""

    hands: tuple[CardSet, ...]
    to_move: int
    rules: Rules = SEED_RULES
    beat: Play | None = None
    by: int | None = None
    passed: frozenset[int] = field(default_factory=frozenset)
    history: tuple[Turn, ...] = ()
    played: CardSet = 0

    @classmethod
    def deal(cls, hands: tuple[CardSet, ...], rules: Rules = SEED_RULES) -> Table:
        """The start of a deal: the holder of the lowest card is to move."""
        low = lowest_card(sum(hands), rules)
        leader = next(seat for seat, hand in enumerate(hands) if hand >> low & 1)
        return cls(hands, leader, rules)

    @property
    def winner(self) -> int | None:
        """The seat that emptied its hand, once one has."""
        return next((seat for seat, hand in enumerate(self.hands) if not hand), None)

    def view(self) -> TableView:
        """What the seat to move sees."""
        return TableView(
            self.to_move,
            self.hands[self.to_move],
            tuple(hand.bit_count() for hand in self.hands),
            self.played,
            self.history,
            self.beat,
            self.by,
            self.passed,
            not self.history,
            self.rules,
        )

    def after(self, move: Move) -> Table:
        """The table after the seat to move makes ``move`` (it must be legal: see
        :meth:`TableView.legal_moves`); the trick steps as a deal's state does
        (:meth:`~handsolver.solver.big2.game.state.DealState.after`)."""
        seat = self.to_move
        history = (*self.history, Turn(seat, move))
        # The flow of the trick needs no strengths: the play to beat is kept here as a Play.
        now = DealState(
            self.hands,
            seat,
            0 if self.beat is None else self.beat.kind.size,
            0,
            -1 if self.by is None else self.by,
            sum(1 << other for other in self.passed),
        )
        outcome = now.after(None if move is None else (move.mask, move.kind.size, 0), self.rules)
        played = self.played if move is None else self.played | move.mask
        if isinstance(outcome, int):  # the seat went out
            hands = (*self.hands[:seat], 0, *self.hands[seat + 1 :])
            return replace(self, hands=hands, beat=None, by=None, passed=frozenset(),
                           history=history, played=played)  # fmt: skip
        if outcome.by < 0:  # a new trick
            beat, by = None, None
        else:
            beat, by = (self.beat if move is None else move), outcome.by
        passed = frozenset(other for other in range(len(self.hands)) if outcome.passed >> other & 1)
        return replace(self, hands=outcome.hands, to_move=outcome.to_move, beat=beat, by=by,
                       passed=passed, history=history, played=played)  # fmt: skip


def deal_score(cards_left: int) -> int:
    """The points a seat pays for the cards it holds when another goes out: 1 a card up to 9
    cards, 2 a card for 10 to 12, 3 a card for 13 or more.

    >>> [deal_score(cards) for cards in (0, 9, 10, 12, 13)]
    [0, 9, 20, 24, 39]
    """
    if cards_left >= 13:
        return 3 * cards_left
    if cards_left >= 10:
        return 2 * cards_left
    return cards_left
