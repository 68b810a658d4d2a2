"""Advice at a Big 2 table: deal the unseen cards many times, score every move in each deal
with every hand face up, and rank the moves by their mean score.

For a :class:`~handsolver.solver.big2.table.views.TableView`, :func:`advise` deals the cards the
player cannot see (:mod:`.sampling`) ``samples`` times consistently with the opponents' counts.
Each deal gives every legal move a score (:mod:`.deal_scores`): 1 or 0 by
the exact verdict of :func:`~..game.positions.solve_position` where it is proven within the
node budget, else by playouts of the deal to its end, the opponents playing the conventional
program (``greedy``), then by a search of the player's own lines against them.

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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeAlias

from handsolver.models.big2_order import lowest_card
from handsolver.models.cards import CardSet, InputError, card_name
from handsolver.solver.batch import run_batch
from handsolver.solver.big2.game.positions import check_position, root_state
from handsolver.solver.big2.table.advice_settings import (
    DEFAULT_ADVICE,
    DEFAULT_LEAF,
    DEFAULT_LINE_NODES,
    DEFAULT_NODES,
    DEFAULT_OPPONENTS,
    DEFAULT_REPLY_ROUNDS,
    DEFAULT_SAMPLES,
    DEFAULT_SOLVE_CARDS,
    LEAVES,
    TABLE_ADVICE,
    TABLE_NODES,
    TABLE_SAMPLES,
    TABLE_SOLVE_CARDS,
    AdviceSettings,
)
from handsolver.solver.big2.table.deal_scores import (
    PLAYER_POLICIES,
    network_scores,
    position_of,
    replied_states,
    score_deal,
    seat_hands,
    tupled,
)
from handsolver.solver.big2.table.move_order import plays_left, tie_key, tie_order
from handsolver.solver.big2.table.opponents import (
    CANDIDATES,
    OPPONENT_MODELS,
    PRIORS,
    TYPES,
    weighted_deals,
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
    # The settings (from :mod:`.advice_settings`), named here too: the advisor's public face.
    "DEFAULT_ADVICE",
    "DEFAULT_LEAF",
    "DEFAULT_LINE_NODES",
    "DEFAULT_NODES",
    "DEFAULT_OPPONENTS",
    "DEFAULT_REPLY_ROUNDS",
    "DEFAULT_SAMPLES",
    "DEFAULT_SOLVE_CARDS",
    "LEAVES",
    "TABLE_ADVICE",
    "TABLE_NODES",
    "TABLE_SAMPLES",
    "TABLE_SOLVE_CARDS",
    "Advice",
    "AdviceSettings",
    "MoveAdvice",
    "ProgressWrapper",
    "advise",
    "known_undealt",
]

ProgressWrapper: TypeAlias = Callable[[Iterable[Any], int, str], Iterable[Any]]
"""Wraps a loop over results, e.g. with a progress bar: (items, total, label)."""
LEARNED = TYPES.index("learned")


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
    check_position(position_of(seat_hands(view, opponents, deals[0]), view), view.rules)
    moves = view.legal_moves()
    if settings.passes:
        hands = [seat_hands(view, opponents, deal) for deal in deals]
        return _tree_advice(view, hands, learned, moves, settings, consistent, progress)
    hands = [seat_hands(view, opponents, deal) for deal in deals]
    if settings.leaf == "network" and any(learned):
        scores = network_scores(view, hands, learned, moves, settings, workers, scheduler)
        return _ranked(view, len(deals), moves, scores, consistent)
    replied = replied_states(view, hands, learned, moves, settings.reply_rounds)
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
    left = plays_left(view, moves)
    order = tie_order(moves, left, rules)
    roots = [root_state(check_position(position_of(hands, view), rules), rules) for hands in deals]
    ordered = [tupled(moves[i], rules) for i in order]
    tree = PlayerTree(
        roots, view.seat, ordered, rules, PLAYER_POLICIES, settings.line_nodes, settings.compiled
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


def _ranked(
    view: TableView,
    samples: int,
    moves: list[Move],
    scores: list[list[tuple[bool, int | Fraction]]],
    consistent: int,
) -> Advice:
    rules = view.rules
    left = plays_left(view, moves)
    results = []
    for index, move in enumerate(moves):
        exact = sum(deal[index][0] for deal in scores)
        mean, stderr = _mean_and_stderr([Fraction(deal[index][1]) for deal in scores])
        results.append(MoveAdvice(move, mean, stderr, exact, left[index]))
    order = sorted(
        range(len(moves)), key=lambda i: (-results[i].share, *tie_key(moves[i], left[i], rules), i)
    )
    return Advice(view, samples, consistent, tuple(results[i] for i in order))


def _mean_and_stderr(scores: list[Fraction]) -> tuple[Fraction, float]:
    count = len(scores)
    mean = sum(scores, Fraction(0)) / count
    if count < 2:
        return mean, 0.0
    variance = sum((score - mean) ** 2 for score in scores) / (count - 1)
    return mean, math.sqrt(variance / count)
