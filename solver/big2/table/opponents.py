"""Who the opponents are, read from their turns: a Bayesian mixture of players, and the sampled
deals weighted by how likely each opponent's turns are with the hand the deal gives it.

The advisor (:mod:`.advise`) deals the cards it cannot see at random.  Every opponent's turn
so far is a fact about its hand: a player who passed on a single probably held no single it
wanted to play.  How probable a turn is depends on who plays it, so each opponent is taken
to be one of the :data:`TYPES`, each giving every legal move of a turn a probability:

* ``learned``: the learned player's network (:mod:`.learned`) values each legal move; the
  probabilities are the softmax of those values at :data:`TEMPERATURE` (a value is a chance
  of going out first, so a move 0.05 below the best is ``e`` times less likely), mixed with
  :data:`TREMBLE` spread evenly over the legal moves (a strong player who is not this
  network, or a slip);
* ``greedy``: the conventional program's move (:func:`~.greedy_rule.greedy_among`) with
  probability 1 - :data:`TREMBLE`, the tremble spread evenly over the legal moves;
* ``random``: every legal move alike.

With a hand ``h`` for an opponent, the likelihood of its turns under a type is the product
over its turns of the probability of the move it made, holding at each turn ``h`` and the
cards it played at that turn or later (its latest :data:`READ_TURNS` turns; the
earlier are not read: a bound on the time a decision takes).  A model is a prior over the
types (:data:`PRIORS`); under it the weight of a deal is the product over the opponents of
``sum over types of prior(type) * likelihood(type)`` (each opponent is of one type, unknown),
and the type of an opponent in that deal is drawn from its posterior there, proportional to
``prior(type) * likelihood(type)``.  :func:`weighted_deals` deals ``CANDIDATES`` times the
deals asked for, weights them so, tempers the weights (:func:`tempered`: raised to a power
below 1 where a few deals would take nearly all the weight, so that at least half as many
deals as weighed keep some of it) and draws the deals asked for among them in proportion
(systematic resampling), each with its opponents' types.

>>> TYPES
('learned', 'greedy', 'random')
>>> PRIORS["mix"]
(0.5, 0.25, 0.25)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from handsolver.models.cards import CardSet
from handsolver.solver.big2.game.state import PlayTuple
from handsolver.solver.big2.table.greedy_rule import greedy_among
from handsolver.solver.big2.table.views import Move, Table, TableView

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "CANDIDATES",
    "OPPONENT_MODELS",
    "PRIORS",
    "READ_TURNS",
    "TEMPERATURE",
    "TREMBLE",
    "TYPES",
    "tempered",
    "ObservedTurn",
    "WeightedDeals",
    "deal_weights",
    "observed_turns",
    "turn_probabilities",
    "type_likelihoods",
    "weighted_deals",
]

TYPES = ("learned", "greedy", "random")
"""The kinds of player an opponent may be (see the module)."""
OPPONENT_MODELS = ("greedy", "adaptive", "learned", "mix")
"""The advisor's models of its opponents: ``greedy`` reads and plays every opponent as the
conventional program (:mod:`.reading`); ``adaptive`` does so for every opponent whose turns
agree with greedy's, and plays the others as the learned player; ``learned`` and ``mix``
weight the deals by the priors of :data:`PRIORS`."""
PRIORS: dict[str, tuple[float, ...]] = {"learned": (1.0, 0.0, 0.0), "mix": (0.5, 0.25, 0.25)}
"""Per model, the prior probability of each of :data:`TYPES`."""
TEMPERATURE = 0.05
TREMBLE = 0.05
READ_TURNS = 12
"""An opponent's latest turns that are read, at most."""
CANDIDATES = 1
"""Deals dealt per deal asked for, before the weighted draw."""
MIN_ESS = 0.5
"""The effective sample size the weights keep, at least, as a share of the deals weighed
(:func:`tempered`)."""


class ObservedTurn(NamedTuple):
    """An opponent's turn: what it saw then (its hand replaced, see :func:`observed_turns`),
    the cards it played at that turn or later, and the move it made."""

    view: TableView
    later: CardSet
    move: Move


def observed_turns(view: TableView, opponents: Sequence[int]) -> tuple[list[ObservedTurn], ...]:
    """Per seat of ``opponents``, its turns in ``view.history`` (latest first), each with the
    view that seat had then.  The hands in those views are stand-ins (the cards the seat
    played, and the lowest others for the rest): a turn's probabilities are asked for with a
    hand put in their place.  Empty where the history does not hold every card played (it
    starts later than the deal)."""
    history, players = view.history, len(view.counts)
    out: tuple[list[ObservedTurn], ...] = tuple([] for _ in opponents)
    spent = [0] * players
    for seat, move in history:
        spent[seat] |= 0 if move is None else move.mask
    if not history or sum(spent) != view.played:
        return out
    hands = []
    for seat in range(players):
        own = view.hand if seat == view.seat else 0
        rest = view.counts[seat] - own.bit_count()
        free = [card for card in range(52) if not (spent[seat] | own) >> card & 1]
        hands.append(spent[seat] | own | sum(1 << card for card in free[:rest]))
    table = Table(tuple(hands), history[0].seat, view.rules)
    views = []
    for _, move in history:
        views.append(table.view())
        table = table.after(move)
    where = {seat: k for k, seat in enumerate(opponents)}
    later = [0] * players
    for index in range(len(history) - 1, -1, -1):
        seat, move = history[index]
        later[seat] |= 0 if move is None else move.mask
        if seat in where:
            out[where[seat]].append(ObservedTurn(views[index], later[seat], move))
    return out


def turn_probabilities(turns: Sequence[ObservedTurn], hands: Sequence[CardSet]) -> np.ndarray:
    """For each turn with the seat's hand now ``hands[i]`` (so that it held that hand and the
    turn's later cards then), the probability of the move it made under each of :data:`TYPES`,
    as rows.  The network runs once over every turn's moves."""
    import numpy as np

    from handsolver.solver.big2.table.learned import (
        network,
        view_moves,
        view_state,
    )

    out = np.ones((len(turns), len(TYPES)))
    blocks, spans, states = [], [], {}
    # A reply's legality depends only on the play and the trick: the replies of every hand
    # asked about at a turn are those of all of them together that the hand holds.
    together: dict[int, CardSet] = {}
    for turn, hand in zip(turns, hands, strict=True):
        if turn.view.beat is not None and turn.view.beat.kind.size < 5:
            together[id(turn.view)] = together.get(id(turn.view), 0) | hand | turn.later
    replies = {}
    for turn in turns:
        key = id(turn.view)
        if key in together and key not in replies:
            replies[key] = view_moves(replace(turn.view, hand=together[key]))
    for row, (turn, hand) in enumerate(zip(turns, hands, strict=True)):
        then = replace(turn.view, hand=hand | turn.later)
        key = id(turn.view)
        if key in replies:
            moves, tuples = _held(replies[key], then.hand)
        else:
            moves, tuples = view_moves(then)
        made = _mask(turn.move)
        chosen = next(k for k, move in enumerate(moves) if _mask(move) == made)
        count = len(moves)
        if count == 1:
            continue
        strengths = [0 if play is None else play[2] for play in tuples]
        greedy = greedy_among(moves, then.beat is not None, then.rules, strengths)
        out[row, 1] = TREMBLE / count + (1 - TREMBLE) * (_mask(greedy) == made)
        out[row, 2] = 1 / count
        if key not in states:
            states[key] = view_state(turn.view)
        blocks.append((states[key], then.hand, tuples))
        spans.append((row, chosen, count))
    if blocks:
        values = network().values_of_positions(blocks) / TEMPERATURE
        start = 0
        for row, chosen, count in spans:
            mine = values[start : start + count]
            shares = np.exp(mine - mine.max())
            out[row, 0] = TREMBLE / count + (1 - TREMBLE) * shares[chosen] / shares.sum()
            start += count
    return out


def _held(
    listed: tuple[list[Move], list[PlayTuple | None]], hand: CardSet
) -> tuple[list[Move], list[PlayTuple | None]]:
    """The moves of ``listed`` (moves and their tuples) that ``hand`` holds (a pass always)."""
    moves, tuples = [], []
    for move, play in zip(*listed, strict=True):
        if move is None or move.mask & hand == move.mask:
            moves.append(move)
            tuples.append(play)
    return moves, tuples


def _mask(move: Move) -> CardSet:
    return 0 if move is None else move.mask


def type_likelihoods(turns: Sequence[ObservedTurn], deals: Sequence[CardSet]) -> np.ndarray:
    """Per deal (the seat's hand now in each), the likelihood of the seat's read turns (see
    the module) under each of :data:`TYPES`, as rows."""
    import numpy as np

    read = list(turns[:READ_TURNS])
    if not read:
        return np.ones((len(deals), len(TYPES)))
    rows = [turn for _ in deals for turn in read]
    hands = [hand for hand in deals for _ in read]
    probabilities = turn_probabilities(rows, hands).reshape(len(deals), len(read), len(TYPES))
    return probabilities.prod(axis=1)


def deal_weights(likelihoods: Sequence[np.ndarray], prior: Sequence[float]) -> np.ndarray:
    """Per deal, the product over the opponents of the prior-weighted sum of its types'
    likelihoods (``likelihoods[o]`` is opponent ``o``'s rows, one a deal)."""
    return _deal_weights(likelihoods, [prior] * len(likelihoods))


class WeightedDeals(NamedTuple):
    """The deals drawn (opponents' hands each), each opponent's type in each (an index into
    :data:`TYPES`), and each opponent's posterior over the types, over every deal dealt."""

    deals: list[tuple[CardSet, ...]]
    types: list[tuple[int, ...]]
    posterior: list[tuple[float, ...]]


def weighted_deals(
    view: TableView,
    opponents: Sequence[int],
    candidates: list[tuple[CardSet, ...]],
    samples: int,
    model: str | Sequence[tuple[float, ...] | None],
    seed: int,
    read: bool = True,
) -> WeightedDeals:
    """``samples`` of the ``candidates`` drawn in proportion to their weights under ``model``,
    each with its opponents' types drawn from their posteriors in it (see the module); one
    deal where only one is dealt.  ``model`` is a name of :data:`PRIORS` (its prior for every
    opponent) or a prior per opponent, None for an opponent whose turns are not read here
    (its type is ``greedy``, its hand as dealt).  Where every weight is 0 (no candidate
    explains the turns), the candidates are kept as dealt.  Without ``read``, no turn is read:
    the deals are drawn uniformly, the types from the prior.  The same seed gives the same
    answer."""
    import numpy as np

    priors = [PRIORS[model]] * len(opponents) if isinstance(model, str) else list(model)
    if len(candidates) == 1:
        samples = 1
    turns = observed_turns(view, opponents) if read else tuple([] for _ in opponents)
    likelihoods = [
        type_likelihoods(turns[k] if priors[k] else [], [deal[k] for deal in candidates])
        for k in range(len(opponents))
    ]
    unread = (0.0, 1.0, 0.0)  # greedy's type, and a likelihood of 1 in every deal
    priors = [unread if prior is None else prior for prior in priors]
    weights = tempered(_deal_weights(likelihoods, priors))
    total = float(weights.sum())
    rng = random.Random(seed)
    if total > 0 and math.isfinite(total):
        chosen = _systematic(weights / total, samples, rng.random())
    else:
        chosen = [k % len(candidates) for k in range(samples)]
    posterior = []
    for rows, prior in zip(likelihoods, priors, strict=True):
        mass = (rows * np.asarray(prior)).sum(axis=0)
        posterior.append(tuple(float(x) for x in mass / mass.sum()) if mass.sum() > 0 else prior)
    types = []
    for k in chosen:
        drawn = []
        for rows, prior in zip(likelihoods, priors, strict=True):
            mass = rows[k] * np.asarray(prior)
            drawn.append(_draw(mass, rng.random()) if mass.sum() > 0 else int(np.argmax(prior)))
        types.append(tuple(drawn))
    return WeightedDeals([candidates[k] for k in chosen], types, posterior)


def _deal_weights(
    likelihoods: Sequence[np.ndarray], priors: Sequence[Sequence[float]]
) -> np.ndarray:
    """As :func:`deal_weights`, with a prior per opponent."""
    import numpy as np

    weights = np.ones(len(likelihoods[0]) if likelihoods else 0)
    for rows, prior in zip(likelihoods, priors, strict=True):
        weights = weights * (rows @ np.asarray(prior))
    return weights


def tempered(weights: np.ndarray) -> np.ndarray:
    """``weights`` raised to the largest power at most 1 whose effective sample size (the
    square of their sum over the sum of their squares) is at least :data:`MIN_ESS` of their
    count: the turns still rank the deals, but a few deals that fit best do not crowd out the
    rest (adaptive tempering).  Zero weights stay zero."""
    import numpy as np

    positive = weights > 0
    if not positive.any():
        return weights
    logs = np.where(positive, np.log(np.where(positive, weights, 1.0)), -np.inf)
    logs = logs - logs[positive].max()

    def powered(power: float) -> np.ndarray:
        return np.where(positive, np.exp(power * np.where(positive, logs, 0.0)), 0.0)

    def enough(power: float) -> bool:
        shares = powered(power)
        return shares.sum() ** 2 >= MIN_ESS * len(weights) * (shares**2).sum()

    if enough(1.0):
        return powered(1.0)
    low, high = 0.0, 1.0
    for _ in range(30):
        middle = (low + high) / 2
        low, high = (middle, high) if enough(middle) else (low, middle)
    return powered(low)


def _systematic(shares: np.ndarray, count: int, offset: float) -> list[int]:
    """``count`` indices drawn by systematic resampling: index ``i`` about ``count *
    shares[i]`` times, the points ``(offset + j) / count`` placed on the shares' running
    sum."""
    out, running, index = [], float(shares[0]), 0
    for j in range(count):
        point = (offset + j) / count
        while point > running and index < len(shares) - 1:
            index += 1
            running += float(shares[index])
        out.append(index)
    return out


def _draw(mass: np.ndarray, point: float) -> int:
    running, total = 0.0, float(mass.sum())
    for index, value in enumerate(mass):
        running += float(value) / total
        if point < running:
            return index
    return len(mass) - 1
