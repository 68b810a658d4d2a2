"""Advice at a Big 2 table: deal the unseen cards many times, score every move in each deal
with every hand face up, and rank the moves by their mean score.

For a :class:`~handsolver.solver.big2.table.views.TableView`, :func:`advise` deals the cards the
player cannot see (:mod:`.sampling`) ``samples`` times consistently with the opponents' counts.
In each deal every legal move gets a score of 1 or 0:

* the exact verdict of :func:`~..game.positions.solve_position`, where it is proven
  within the node budget per move (and, if asked, a time limit) and says something about the
  deal: the move scores 1 where it keeps a forced win (going out first against every other
  player together) and, with two players, 0 where it is proven not to.  Deals with more than
  ``solve_cards`` cards in hand are not searched;
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
  :data:`LINE_MOVES` moves in the order that breaks ties (below): the move scores 1 when some
  line of the player's goes out first.  Against greedy opponents with every hand face up the
  player then wins far more often than by a playout; the budget keeps a decision quick.

Past the replies the opponents play greedy rather than the player's own policy because the
advisor played stronger so, against ``greedy`` and ``random`` opponents alike, in trials of a
hundred deals while it was built: the policy that beats and leads the most models opponents
who shed their cards fastest.

A move's ``share`` is its mean score, with the standard error of that mean; ``exact`` counts the
deals in which its verdict was proven.

Moves are ranked by share, then by the player's fewest plays after the move (fewer first), a
play before a pass, more cards before fewer, the lower play before the higher, and then in the
order :meth:`~handsolver.solver.big2.table.views.TableView.legal_moves` lists them.

With ``passes`` set, the deals are not scored one by one: a tree of the player's own turns is
searched over them instead (:mod:`.tree_search`), so that the player's later moves are chosen
from what it sees rather than from one deal's cards; where the tree ends, a deal is scored as
above without the solver (the playouts, then the line search).  A move's ``share`` is then the
share of the passes through it that won, ``passes`` how many went through it, ``exact`` 0, and
the moves are ranked by passes, then share, then the order above.

The opponents are modelled by ``settings.opponents`` (:mod:`.opponents`).  With ``mix`` or
``learned``, each opponent is one of the players of :data:`~.opponents.TYPES` (the
learned player, greedy, a random player) with the model's prior; the sampled deals are
weighted by how likely each opponent's turns are with the hand the deal gives it, a Bayesian
mixture over the players, and drawn again in proportion (:func:`~.opponents.weighted_deals`),
each opponent's player drawn from its posterior in the deal.  After each of the player's
moves the opponents drawn as the learned player reply by its network, the others by greedy's
rule, up to the player's next turn (:func:`~.playout_learned.replies_until`, once for every
deal and move); the playouts and the line search go on from there with greedy opponents (the
compiled playouts cannot run the network).  The solver's verdicts are the same whatever the
model.  With ``greedy`` (the default: it measured best, against the learned player too) the
turns are read as below and the opponents play greedy throughout.  With ``adaptive`` they are
read so too, but an opponent whose turns broke greedy's rule (:func:`~.reading.greedy_readings`
reads nothing of it) is the learned player: the fitted deals are weighted and drawn again by
its turns' likelihood under the network, and it replies by the network; against opponents
whose every turn is greedy's it advises as ``greedy``.  The replies go on for
``reply_rounds`` of the player's turns (3 by default), the player's own moves in between by
the learned player's network.  Where they stop, with ``leaf`` ``network`` (the default) a
deal in which some opponent is the learned player is scored by the learned player's network,
not played out: the value of the player's best move there (its chance of going out first by
the network, kept between 0 and 1), or 1 or 0 where a seat went out first; the solver's proven
verdicts stand.  The playouts' greedy opponents are the weak part against a player that is
not greedy; the network's value is an estimate learned against such players.  With ``leaf``
``playout`` such a deal is played out as the others are.  A deal whose opponents are all
greedy is played out either way.

Facts of the deal narrow the sampling: cards below the lowest card of the deal's first play were
never dealt (its leader held the lowest card dealt), which matters with fewer than four players.
With ``reading`` on (the default) and the ``greedy`` model, the opponents' turns are read as
greedy's
(:mod:`.reading`): a hand fits a seat when greedy, holding it and the cards the seat played
later, makes every move the seat made (a pass on a single means no higher single, a single led
means no pair and no play of five cards, and so on), for every seat whose turns agree with
greedy on the cards it is known to have held.  Each sampled deal is then refitted, by swapping
cards, until every read seat's hand fits (as far as a bounded local search gets: near uniform
among the deals that fit, not exactly).  Off, nothing but the counts and the undealt cards
narrows the deals.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeAlias

from handsolver.models.big2 import Rules
from handsolver.models.big2_order import lowest_card, play_strength
from handsolver.models.cards import CardSet, InputError, card_name
from handsolver.solver.batch import run_batch
from handsolver.solver.big2.game.positions import Position, check_position, root_state
from handsolver.solver.big2.game.state import DealState, Outcome
from handsolver.solver.big2.table.line_search import deal_won
from handsolver.solver.big2.table.opponents import (
    CANDIDATES,
    OPPONENT_MODELS,
    PRIORS,
    TYPES,
    weighted_deals,
)
from handsolver.solver.big2.table.playout import Policy, greedy_choice, hand_plays, shed_choice
from handsolver.solver.big2.table.playout_learned import (
    Replied,
    Reply,
    beat_after,
    network_values,
    replies_in_rounds,
)
from handsolver.solver.big2.table.reading import Reading, fitted_deals, greedy_readings
from handsolver.solver.big2.table.sampling import (
    FULL_DECK,
    consistent_deals,
    sample_hands,
    unseen_cards,
)
from handsolver.solver.big2.table.views import Move, TableView

__all__ = [
    "DEFAULT_ADVICE",
    "DEFAULT_NODES",
    "DEFAULT_LINE_NODES",
    "DEFAULT_SAMPLES",
    "LINE_MOVES",
    "PLAYER_POLICIES",
    "TABLE_ADVICE",
    "TABLE_NODES",
    "TABLE_SAMPLES",
    "TABLE_SOLVE_CARDS",
    "Advice",
    "AdviceSettings",
    "MoveAdvice",
    "ProgressWrapper",
    "advise",
    "fewest_count",
    "known_undealt",
]

ProgressWrapper: TypeAlias = Callable[[Iterable[Any], int, str], Iterable[Any]]
"""Wraps a loop over results, e.g. with a progress bar: (items, total, label)."""
DEFAULT_SAMPLES = 12
DEFAULT_NODES = 2_000
DEFAULT_SOLVE_CARDS = 52
DEFAULT_LINE_NODES = 30
LINE_MOVES = 6
"""Moves searched by the line search in a deal (the first in the order that breaks ties)."""
# A seat in a tournament decides a dozen times a deal, thousands of deals: only deals of at most
# TABLE_SOLVE_CARDS cards in hand are searched, with fewer nodes.  The playouts are cheap, so
# the seat samples more deals than the command (against three greedy seats, 32 samples won
# 60.1% of 400 deals where 12 won 55.9%).
TABLE_SAMPLES = 32
TABLE_NODES = 1_000
TABLE_SOLVE_CARDS = 12
DEFAULT_OPPONENTS = "greedy"
LEAVES = ("playout", "network")
"""How a deal is scored past the opponents' replies (see the module)."""
DEFAULT_LEAF = "network"
DEFAULT_REPLY_ROUNDS = 3
LEAF_SCALE = 10**6
"""A network leaf's value is kept to this many parts of one (an exact share of such parts)."""
LEARNED = TYPES.index("learned")
PLAYER_POLICIES: tuple[Policy, ...] = (shed_choice, greedy_choice)
"""The player's policies in a playout, tried in turn until one goes out first."""


@dataclass(frozen=True)
class AdviceSettings:
    """How hard :func:`advise` works: deals sampled, the node budget of each deal's solve
    (None: unbounded), an optional time limit per deal's solve in seconds (which makes the
    answer depend on the machine's speed), the seed of the sampling, the most cards in hand of
    a deal that is solved, the player's turns searched per move for a line of its own (0: no
    such search), whether the opponents' turns are read as greedy's, and the passes of a tree
    of the player's own turns over the deals, which then chooses in place of scoring each deal
    (0: no tree; the solver's budgets are then unused, the line search's scores the tree's
    leaves; see the module), whether the tree's leaves are scored by the compiled
    playouts and line search (the same answers as in Python, faster), the model of the
    opponents, the rounds of the replies of those it takes for the learned player, and how a
    deal with such an opponent is scored where the replies stop (``leaf``; a tree plays its
    deals out whatever it says)."""

    samples: int = DEFAULT_SAMPLES
    max_nodes: int | None = DEFAULT_NODES
    time_limit: float | None = None
    seed: int = 0
    solve_cards: int = DEFAULT_SOLVE_CARDS
    line_nodes: int = DEFAULT_LINE_NODES
    reading: bool = True
    passes: int = 0
    compiled: bool = True
    opponents: str = DEFAULT_OPPONENTS
    reply_rounds: int = DEFAULT_REPLY_ROUNDS
    leaf: str = DEFAULT_LEAF


DEFAULT_ADVICE = AdviceSettings()
TABLE_ADVICE = AdviceSettings(TABLE_SAMPLES, TABLE_NODES, None, 0, TABLE_SOLVE_CARDS)


@dataclass(frozen=True)
class MoveAdvice:
    """One legal move (``play`` None for a pass): its share of the sampled deals won, the
    standard error of that share, how many deals gave it an exact verdict, the fewest plays
    left in the hand after it, and with a tree, the passes through it (the share is then of
    those passes)."""

    play: Move
    share: Fraction
    stderr: float
    exact: int
    plays_left: int
    passes: int = 0


@dataclass(frozen=True)
class Advice:
    """Every legal move ranked best first, over ``samples`` deals of the unseen cards (1 when
    only one deal is consistent with what the player sees), and the passes of the tree that
    ranked them (0: the deals were scored one by one)."""

    view: TableView
    samples: int
    consistent: int
    moves: tuple[MoveAdvice, ...]
    passes: int = 0

    @property
    def best(self) -> Move:
        """The move ranked first."""
        return self.moves[0].play


def known_undealt(view: TableView) -> CardSet:
    """The cards the player knows were never dealt: those below the lowest card of the deal
    (the first play's lowest card, or at the start the player's own lowest card, since the
    player leads it)."""
    rules = view.rules
    if view.history:
        first = view.history[0].move
        assert first is not None  # a deal's first play is never a pass
        low = lowest_card(first.mask, rules)
    elif view.start:
        low = lowest_card(view.hand, rules)
    else:
        return 0
    keys = rules.card_keys
    return sum(1 << card for card in range(52) if keys[card] < keys[low])


def _opponents(view: TableView) -> list[int]:
    players = len(view.counts)
    return [(view.seat + step) % players for step in range(1, players)]


def advise(
    view: TableView,
    settings: AdviceSettings = DEFAULT_ADVICE,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    progress: ProgressWrapper | None = None,
) -> Advice:
    """Every legal move of ``view`` ranked by the share of sampled deals it wins (see the module).

    ``progress`` wraps the loop over the solved deals (a progress bar).  The answer is the same
    for any ``workers`` and ``scheduler``.

    :raises InputError: a card both in the hand and played (or in the play to beat), more cards
        counted than unseen (with four players, other than every unseen card), an opponent with
        no cards, a trick state that cannot happen.
    """
    unseen = unseen_cards(view.hand, view.played)
    opponents = _opponents(view)
    counts = tuple(view.counts[seat] for seat in opponents)
    for seat, count in zip(opponents, counts, strict=True):
        if count < 1:
            raise InputError(f"player {seat + 1} has no cards, so the deal is over", about="counts")
    if view.start and view.played:
        raise InputError(
            "cards are played, but no card has been played at the start of a deal", about="start"
        )
    if len(view.counts) == 4:
        _check_all_dealt(view, unseen, counts)
    pool = unseen & ~known_undealt(view)
    consistent = consistent_deals(pool, counts)
    deals, learned = _sampled_deals(view, opponents, pool, counts, consistent, settings)
    check_position(_position(_seat_hands(view, opponents, deals[0]), view), view.rules)
    moves = view.legal_moves()
    if settings.passes:
        hands = [_seat_hands(view, opponents, deal) for deal in deals]
        return _tree_advice(view, hands, learned, moves, settings, consistent, progress)
    hands = [_seat_hands(view, opponents, deal) for deal in deals]
    if settings.leaf == "network" and any(learned):
        scores = _network_scores(view, hands, learned, moves, settings, workers, scheduler)
        return _ranked(view, len(deals), moves, scores, consistent)
    replied = _replied(view, hands, learned, moves, settings.reply_rounds)
    jobs = [
        (deal, view, moves, settings, after) for deal, after in zip(hands, replied, strict=True)
    ]
    results: Iterable[list[tuple[bool, int]]]
    results = run_batch(score_deal, jobs, workers=workers, scheduler=scheduler, chunksize=1)
    if progress is not None:
        results = progress(results, len(jobs), "big2 advise")
    scores = list(results)
    return _ranked(view, len(deals), moves, scores, consistent)


def _sampled_deals(
    view: TableView,
    opponents: list[int],
    pool: CardSet,
    counts: tuple[int, ...],
    consistent: int,
    settings: AdviceSettings,
) -> tuple[list[tuple[CardSet, ...]], list[frozenset[int]]]:
    """The deals to score (the opponents' hands each) and, in each, the seats played by the
    learned player's network (see the module)."""
    if settings.opponents not in OPPONENT_MODELS:
        raise InputError(
            f"unknown opponents' model {settings.opponents!r}; use {', '.join(OPPONENT_MODELS)}",
            about="opponents",
        )
    samples, seed = settings.samples, settings.seed
    if settings.opponents in ("greedy", "adaptive"):
        deals = sample_hands(pool, counts, samples=samples, seed=seed)
        readings = greedy_readings(view, opponents) if settings.reading else ()
        if consistent > 1 and any(reading is not None for reading in readings):
            undealt = [pool & ~sum(deal) for deal in deals]
            deals = fitted_deals(deals, readings, undealt, seed)
        broken = _broken(opponents, readings, settings.opponents)
        if not broken:
            return deals, [frozenset()] * len(deals)
        # The seats that broke greedy's rule are read as the learned player's: the deals
        # fitted to the others' readings are weighted by their turns' likelihood under it.
        priors = [PRIORS["learned"] if seat in broken else None for seat in opponents]
        drawn = weighted_deals(view, opponents, deals, samples, priors, seed, settings.reading)
        return drawn.deals, [broken] * len(drawn.deals)
    candidates = sample_hands(pool, counts, samples=samples * CANDIDATES, seed=seed)
    drawn = weighted_deals(
        view, opponents, candidates, samples, settings.opponents, seed, settings.reading
    )
    learned = [
        frozenset(seat for seat, kind in zip(opponents, kinds, strict=True) if kind == LEARNED)
        for kinds in drawn.types
    ]
    return drawn.deals, learned


def _broken(
    opponents: list[int], readings: tuple[Reading | None, ...], model: str
) -> frozenset[int]:
    """The seats played by the learned player's network under ``model``: with ``adaptive``,
    those seen to break greedy's rule (no reading), none with ``greedy``."""
    if model != "adaptive":
        return frozenset()
    return frozenset(seat for seat, read in zip(opponents, readings, strict=True) if read is None)


def _check_all_dealt(view: TableView, unseen: CardSet, counts: tuple[int, ...]) -> None:
    """With four players every card is dealt: the opponents hold every unseen card, and the
    deal's first play holds the lowest card of the deck."""
    if sum(counts) != unseen.bit_count():
        raise InputError(
            f"the opponents' counts {','.join(map(str, counts))} add up to {sum(counts)} cards, "
            f"but with four players they hold all {unseen.bit_count()} cards neither in the "
            "hand nor played",
            about="counts",
        )
    low = lowest_card(FULL_DECK, view.rules)
    if view.start and not view.hand >> low & 1:
        raise InputError(
            f"with four players the deal's first play holds {card_name(low)}, the lowest card, "
            "and it is not in the hand",
            about="start",
        )


def _position(hands: tuple[CardSet, ...], view: TableView) -> Position:
    return Position(hands, view.seat, view.beat, view.by, view.passed, view.start)


def _seat_hands(
    view: TableView, opponents: list[int], deal: tuple[CardSet, ...]
) -> tuple[CardSet, ...]:
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


def _replied(
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
    """Per deal and move, where the opponents' replies stop (as :func:`_replied` says; the
    seats not in ``learned[i]`` reply by greedy's rule)."""
    rules = view.rules
    beat = 0 if view.beat is None else view.beat.mask
    starts = []
    for hands, seats in zip(deals, learned, strict=True):
        root = root_state(check_position(_position(hands, view), rules), rules)
        plays = [hand_plays(hand, rules) for hand in hands]
        for move in moves:
            child = root.after(_tupled(move, rules), rules)
            after = beat_after(_tupled(move, rules), beat, child)
            starts.append(Reply(child, plays, view.played | _mask(move), after, seats))
    replies = replies_in_rounds(starts, view.seat, rules, rounds)
    count = len(moves)
    return [replies[at : at + count] for at in range(0, len(replies), count)]


def _network_scores(
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
    position = check_position(_position(hands, view), rules)
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
    root = root_state(check_position(_position(hands, view), rules), rules)
    plays = [hand_plays(hand, rules) for hand in hands]
    policies: list[Policy] = [greedy_choice] * len(hands)
    refuted: set[DealState] = set()
    searched = _first_moves(view, moves, LINE_MOVES if settings.line_nodes else 0)
    children: dict[int, Outcome] = {}
    for index, verdict in enumerate(verdicts):
        if verdict or (verdict is False and two_players):
            continue  # proven: no playout
        if replied is None:
            children[index] = root.after(_tupled(moves[index], rules), rules)
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


def _tree_advice(
    view: TableView,
    deals: list[tuple[CardSet, ...]],
    learned: list[frozenset[int]],
    moves: list[Move],
    settings: AdviceSettings,
    consistent: int,
    progress: ProgressWrapper | None,
) -> Advice:
    """The moves ranked by a tree of the player's turns over ``deals`` (see the module)."""
    from handsolver.solver.big2.table.tree_search import PlayerTree

    rules, passes = view.rules, settings.passes
    left = _plays_left(view, moves)
    order = _tie_order(moves, left, rules)
    roots = [root_state(check_position(_position(hands, view), rules), rules) for hands in deals]
    tupled = [_tupled(moves[i], rules) for i in order]
    tree = PlayerTree(
        roots, view.seat, tupled, rules, PLAYER_POLICIES, settings.line_nodes, settings.compiled
    )
    if any(learned):
        tree.learned_replies(learned, view.played, 0 if view.beat is None else view.beat.mask)
    slices = min(passes, 100)
    steps: Iterable[int] = range(slices)
    if progress is not None:
        steps = progress(steps, slices, "big2 advise")
    for step in steps:
        tree.run(passes * (step + 1) // slices - passes * step // slices)
    results = []
    for i, (through, won) in zip(order, tree.root_stats(), strict=True):
        share = Fraction(won, through) if through else Fraction(0)
        # The passes through a move are not independent draws (the tree learns as it goes);
        # the binomial error is a guide to the share's spread, no more.
        stderr = math.sqrt(share * (1 - share) / through) if through else 0.0
        results.append(MoveAdvice(moves[i], share, stderr, 0, left[i], through))
    ranked = sorted(results, key=lambda move: (-move.passes, -move.share))
    return Advice(view, len(deals), consistent, tuple(ranked), passes)


def _tupled(move: Move, rules: Rules) -> tuple[int, int, int] | None:
    return None if move is None else (move.mask, move.kind.size, play_strength(move, rules))


def _first_moves(view: TableView, moves: list[Move], count: int) -> set[int]:
    """The indices of the first ``count`` moves in the order that breaks ties of share."""
    return set(_tie_order(moves, _plays_left(view, moves), view.rules)[:count])


def _plays_left(view: TableView, moves: list[Move]) -> list[int]:
    """The fewest plays left in the hand after each move."""
    hand, rules = view.hand, view.rules
    return [fewest_count(hand ^ (0 if move is None else move.mask), rules) for move in moves]


def _tie_order(moves: list[Move], left: list[int], rules: Rules) -> list[int]:
    """The indices of the moves in the order that breaks ties of share (then as listed)."""
    return sorted(range(len(moves)), key=lambda i: (*_tie_key(moves[i], left[i], rules), i))


def _ranked(
    view: TableView,
    samples: int,
    moves: list[Move],
    scores: list[list[tuple[bool, int | Fraction]]],
    consistent: int,
) -> Advice:
    rules = view.rules
    left = _plays_left(view, moves)
    results = []
    for index, move in enumerate(moves):
        exact = sum(deal[index][0] for deal in scores)
        mean, stderr = _mean_and_stderr([Fraction(deal[index][1]) for deal in scores])
        results.append(MoveAdvice(move, mean, stderr, exact, left[index]))
    order = sorted(
        range(len(moves)), key=lambda i: (-results[i].share, *_tie_key(moves[i], left[i], rules), i)
    )
    return Advice(view, samples, consistent, tuple(results[i] for i in order))


def _tie_key(move: Move, plays_left: int, rules: Rules) -> tuple[int, int, int]:
    """Among equal shares: fewer plays left, then a play before a pass, more cards, and the
    lower play (the high cards kept)."""
    if move is None:
        return plays_left, 1, 0
    return plays_left, -move.kind.size, play_strength(move, rules)


@lru_cache(maxsize=1 << 16)
def fewest_count(hand: CardSet, rules: Rules) -> int:
    """The fewest plays that empty ``hand`` (cached: hands recur from move to move and deal to
    deal)."""
    from handsolver.solver.big2.fewest import fewest_plays

    return fewest_plays(hand, rules=rules).count


def _mean_and_stderr(scores: list[Fraction]) -> tuple[Fraction, float]:
    count = len(scores)
    mean = sum(scores, Fraction(0)) / count
    if count < 2:
        return mean, 0.0
    variance = sum((score - mean) ** 2 for score in scores) / (count - 1)
    return mean, math.sqrt(variance / count)
