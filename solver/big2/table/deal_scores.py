"""Each legal move of a Big 2 table scored in one sampled deal, with every hand face up: the
scores :func:`~.advise.advise` takes the mean of.

In a deal (:func:`score_deal`) every legal move gets a score of 1 or 0:

* the exact verdict of :func:`~..game.positions.solve_position`, where it is proven
  within the node budget per move (and, if asked, a time limit) and says something about the
  deal: the move scores 1 where it keeps a forced win (going out first against every other
  player together) and, with two players, 0 where it is proven not to.  Deals with more than
  ``solve_cards`` cards in hand are not searched (:func:`solve_deal`);
* elsewhere playouts (:mod:`.playout`): the deal played on to its end after the move (the
  opponents' replies up to the player's next turn by their models, below), every opponent then
  playing the conventional program (``greedy``: the lowest play that beats, the largest lowest
  lead) and the player each of :data:`PLAYER_POLICIES` in turn (the playout
  policy :func:`~.playout.shed_choice`, then greedy's); the move scores 1
  when the player goes out first in either.  The player chooses its own later moves, so the
  better of two ways on stands for its play better than one fixed way does.  With three or four
  players a proof that the others *together* can stop the player does not decide the deal
  (they do not play as a team), so the playout decides it;
* where both playouts lose, a search of the player's own moves against the same greedy
  opponents (:mod:`.line_search`), ``line_nodes`` of the player's turns at most, for the first
  :data:`LINE_MOVES` moves in the order that breaks ties (:mod:`.move_order`): the move scores 1
  when some line of the player's goes out first.  Against greedy opponents with every hand face
  up the player then wins far more often than by a playout; the budget keeps a decision quick.

Past the replies the opponents play greedy rather than the player's own policy because the
advisor played stronger so, against ``greedy`` and ``random`` opponents alike, in trials of a
hundred deals while it was built: the policy that beats and leads the most models opponents
who shed their cards fastest.

Where the model takes some opponents of a deal for the learned player, they reply to each move
by its network for ``reply_rounds`` of the player's turns, the player's own moves in between by
the network too (:func:`replied_states`); with the leaf ``network`` such a deal is then not
played out but valued by the network (:func:`network_scores`): the value of the player's best
move there, kept between 0 and 1 as a share of :data:`LEAF_SCALE` parts, or 1 or 0 where a seat
went out first.  The solver's proven verdicts stand whatever the model.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import TypeAlias

from handsolver.models.big2 import Rules
from handsolver.models.big2_order import play_strength
from handsolver.models.cards import CardSet
from handsolver.solver.batch import run_batch
from handsolver.solver.big2.game.positions import Position, check_position, root_state
from handsolver.solver.big2.game.state import DealState, Outcome
from handsolver.solver.big2.table.advice_settings import AdviceSettings
from handsolver.solver.big2.table.line_search import deal_won
from handsolver.solver.big2.table.move_order import first_moves
from handsolver.solver.big2.table.playout import Policy, greedy_choice, hand_plays, shed_choice
from handsolver.solver.big2.table.playout_learned import (
    Replied,
    Reply,
    beat_after,
    network_values,
    replies_in_rounds,
)
from handsolver.solver.big2.table.views import Move, TableView

__all__ = [
    "LEAF_SCALE",
    "LINE_MOVES",
    "PLAYER_POLICIES",
    "Job",
    "network_scores",
    "position_of",
    "replied_states",
    "score_deal",
    "seat_hands",
    "solve_deal",
    "tupled",
]

LINE_MOVES = 6
"""Moves searched by the line search in a deal (the first in the order that breaks ties)."""
LEAF_SCALE = 10**6
"""A network leaf's value is kept to this many parts of one (an exact share of such parts)."""
PLAYER_POLICIES: tuple[Policy, ...] = (shed_choice, greedy_choice)
"""The player's policies in a playout, tried in turn until one goes out first."""


def position_of(hands: tuple[CardSet, ...], view: TableView) -> Position:
    """The position of ``view`` with every hand as ``hands`` says."""
    return Position(hands, view.seat, view.beat, view.by, view.passed, view.start)


def seat_hands(
    view: TableView, opponents: list[int], deal: tuple[CardSet, ...]
) -> tuple[CardSet, ...]:
    """Every seat's hand: the player's own, and the opponents' (``opponents`` their seats) as
    ``deal`` deals them."""
    hands = [0] * len(view.counts)
    hands[view.seat] = view.hand
    for seat, hand in zip(opponents, deal, strict=True):
        hands[seat] = hand
    return tuple(hands)


Job: TypeAlias = tuple[
    tuple[CardSet, ...], TableView, list[Move], AdviceSettings, tuple[Outcome, ...] | None
]
"""A deal to score: every hand, the view, its legal moves, the settings and, where the
learned player's network plays some opponent, where each move leads once the opponents have
replied (None: every opponent plays greedy's rule)."""


def replied_states(
    view: TableView,
    deals: list[tuple[CardSet, ...]],
    learned: list[frozenset[int]],
    moves: list[Move],
    rounds: int = 1,
) -> list[tuple[Outcome, ...] | None]:
    """Per deal, where each move leads once the opponents have replied up to the player's next
    turn, the seats ``learned[i]`` by the network (:func:`~.playout_learned.replies_until`,
    once for every deal and move), ``rounds`` times, the player's moves in between by the
    learned player's network (:func:`~.playout_learned.network_moves`); None for a deal with
    no learned seat."""
    if not any(learned):
        return [None] * len(deals)
    where = [index for index, seats in enumerate(learned) if seats]
    replies = _replies(view, [deals[i] for i in where], [learned[i] for i in where], moves, rounds)
    out: list[tuple[Outcome, ...] | None] = [None] * len(deals)
    for index, replied in zip(where, replies, strict=True):
        out[index] = tuple(reply.outcome for reply in replied)
    return out


def _replies(
    view: TableView,
    deals: list[tuple[CardSet, ...]],
    learned: list[frozenset[int]],
    moves: list[Move],
    rounds: int,
) -> list[list[Replied]]:
    """Per deal and move, where the opponents' replies stop (as :func:`replied_states` says; the
    seats not in ``learned[i]`` reply by greedy's rule)."""
    rules = view.rules
    beat = 0 if view.beat is None else view.beat.mask
    starts = []
    for hands, seats in zip(deals, learned, strict=True):
        root = root_state(check_position(position_of(hands, view), rules), rules)
        plays = [hand_plays(hand, rules) for hand in hands]
        for move in moves:
            child = root.after(tupled(move, rules), rules)
            after = beat_after(tupled(move, rules), beat, child)
            starts.append(Reply(child, plays, view.played | _mask(move), after, seats))
    replies = replies_in_rounds(starts, view.seat, rules, rounds)
    count = len(moves)
    return [replies[at : at + count] for at in range(0, len(replies), count)]


def network_scores(
    view: TableView,
    deals: list[tuple[CardSet, ...]],
    learned: list[frozenset[int]],
    moves: list[Move],
    settings: AdviceSettings,
    workers: int,
    scheduler: str | None,
) -> list[list[tuple[bool, Fraction]]]:
    """Per deal and move, as :func:`score_deal` gives, with the leaf ``network`` where some
    opponent of the deal is the learned player (``learned[i]``): a proven verdict where the
    solver finds one, else the learned player's network's value of the player's position once
    the opponents have replied (1 or 0 where a seat went out first).  The deals with no such
    opponent are scored by :func:`score_deal` (the playouts model greedy opponents exactly)."""
    netted = [i for i, seats in enumerate(learned) if seats]
    jobs: list[Job] = [(hands, view, moves, settings, None) for hands in deals]
    out: list[list[tuple[bool, Fraction]]] = [[] for _ in deals]
    played_out = [i for i, seats in enumerate(learned) if not seats]
    scored = run_batch(
        score_deal, [jobs[i] for i in played_out], workers=workers, scheduler=scheduler, chunksize=1
    )
    for i, row in zip(played_out, scored, strict=True):
        out[i] = [(exact, Fraction(score)) for exact, score in row]
    verdicts = run_batch(
        solve_deal, [jobs[i] for i in netted], workers=workers, scheduler=scheduler, chunksize=1
    )
    replies = _replies(
        view, [deals[i] for i in netted], [learned[i] for i in netted], moves, settings.reply_rounds
    )
    seat, rules = view.seat, view.rules
    mine = hand_plays(view.hand, rules)  # the player's plays, of any hand its hand holds
    waiting = [
        (k, j) for k, replied in enumerate(replies) for j, reply in enumerate(replied)
        if _waiting(reply)
    ]  # fmt: skip
    states = [replies[k][j] for k, j in waiting]
    values = dict(
        zip(
            waiting,
            network_values(
                [reply.outcome for reply in states],  # type: ignore[misc]
                [mine] * len(states),
                [reply.played for reply in states],
                [reply.beat for reply in states],
            ),
            strict=True,
        )
    )
    two_players = len(view.counts) == 2
    for k, (i, deal_verdicts, replied) in enumerate(zip(netted, verdicts, replies, strict=True)):
        for j, (verdict, reply) in enumerate(zip(deal_verdicts, replied, strict=True)):
            if verdict or (verdict is False and two_players):
                out[i].append((True, Fraction(int(verdict))))
            elif isinstance(reply.outcome, int):
                out[i].append((verdict is not None, Fraction(int(reply.outcome == seat))))
            else:
                value = min(max(values[k, j], 0.0), 1.0)  # a chance
                out[i].append(
                    (verdict is not None, Fraction(round(value * LEAF_SCALE), LEAF_SCALE))
                )
    return out


def _waiting(reply: Replied) -> bool:
    """Whether the deal goes on where the replies stopped (no seat went out)."""
    return not isinstance(reply.outcome, int)


def solve_deal(job: Job) -> list[bool | None]:
    """Per move of the view, whether it keeps a forced win in this deal with every hand face up
    (None: not proven within the budget, or the deal is over the size the solver is tried on).
    Top level, so that pool workers and Dask can run it.

    These are the verdicts :func:`~..game.positions.solve_position` gives the
    player's moves, searched for the player alone (not for every player, nor a line), each
    move with its own budget."""
    from handsolver.solver.big2.game.search import GameSearch, OutOfBudget

    hands, view, moves, settings, _ = job
    if sum(hand.bit_count() for hand in hands) > settings.solve_cards:
        return [None] * len(moves)
    rules = view.rules
    position = check_position(position_of(hands, view), rules)
    search = GameSearch(hands, rules)
    root = root_state(position, rules)
    verdicts: list[bool | None] = []
    for move in moves:
        if move is None:
            child = search.after(root, (0, 0, 0))
        else:
            child = search.after(root, (move.mask, move.kind.size, play_strength(move, rules)))
        if isinstance(child, int):
            verdicts.append(child == view.seat)
            continue
        if settings.max_nodes is not None:
            search.max_nodes = search.nodes + settings.max_nodes
        if settings.time_limit is not None:
            search.deadline = time.perf_counter() + settings.time_limit
        try:
            verdicts.append(search.wins(child, view.seat))
        except OutOfBudget:
            verdicts.append(None)
    return verdicts


def score_deal(job: Job) -> list[tuple[bool, int]]:
    """Per move of the view, in this deal with every hand face up: whether its verdict was
    proven, and its score (1 or 0; see the module).  Top level, so that pool workers and Dask
    can run it."""
    hands, view, moves, settings, replied = job
    verdicts = solve_deal(job)
    rules = view.rules
    two_players = len(hands) == 2
    root = root_state(check_position(position_of(hands, view), rules), rules)
    plays = [hand_plays(hand, rules) for hand in hands]
    policies: list[Policy] = [greedy_choice] * len(hands)
    refuted: set[DealState] = set()
    searched = first_moves(view, moves, LINE_MOVES if settings.line_nodes else 0)
    children: dict[int, Outcome] = {}
    for index, verdict in enumerate(verdicts):
        if verdict or (verdict is False and two_players):
            continue  # proven: no playout
        if replied is None:
            children[index] = root.after(tupled(moves[index], rules), rules)
        else:
            children[index] = replied[index]
    out = []
    for index, verdict in enumerate(verdicts):
        if index not in children:
            out.append((True, int(bool(verdict))))
            continue
        child = children[index]
        if isinstance(child, int):
            won = child == view.seat
        else:
            line_nodes = settings.line_nodes if index in searched else 0
            won = deal_won(
                plays, child, view.seat, rules, policies, PLAYER_POLICIES, line_nodes, refuted
            )
        out.append((verdict is not None, int(won)))
    return out


def _mask(move: Move) -> CardSet:
    return 0 if move is None else move.mask


def tupled(move: Move, rules: Rules) -> tuple[int, int, int] | None:
    return None if move is None else (move.mask, move.kind.size, play_strength(move, rules))
