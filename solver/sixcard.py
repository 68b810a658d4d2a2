"""Exact strategy research for the six-card game: best splits, best responses, the equilibrium.

Everything is exact.  A strategy gives every hand a distribution over its distinct splits; the
contest score of one strategy against another is the expected round result (1 win, 1/2 draw) under
the exact deal law of :mod:`~handsolver.models.sixcard`, as a :class:`~fractions.Fraction`.

The work is done on integers: :class:`Tables` numbers the 68 hands and 760 splits of the game,
holds the 760 x 760 round result (in half points) of every split against every split, and the
number of ways each pair of hands can be dealt together.  A value against a strategy is then an
integer over a common denominator, so best responses compare integers and never round.

>>> t = tables()
>>> evaluate(sorted_strategy(t), random_strategy(t)).score
Fraction(404549, 840840)
>>> evaluate(random_strategy(t), random_strategy(t)).score
Fraction(1, 2)
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from handsolver.models.cards import InputError
from handsolver.models.numbers import parse_fraction
from handsolver.models.sixcard import (
    SIX_CARD,
    Game,
    Hand,
    Split,
    counts_of,
    format_hand,
    format_split,
    hand_ways,
    hands,
    parse_hand,
    parse_split,
    sorted_split,
    split_game,
    split_hand,
    splits,
)

Plays = tuple[tuple[int, Fraction], ...]
"""A distribution over splits: (split index, probability > 0) pairs in split-index order."""

IntArray = NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Tables:
    """The game's hands and splits as indices, and the integer data every computation shares.

    ``results[s, t]`` is the round result of split ``s`` against split ``t`` in half points
    (2 win, 1 draw, 0 loss), ``wins`` and ``draws`` its indicators.  ``pair_ways[h, g]`` counts
    the ways hand ``g`` can be dealt from the deck left after hand ``h`` (0 when the deck cannot
    hold both) and ``hand_ways[h]`` the ways hand ``h`` can be dealt; probabilities are these
    counts over ``deals`` and ``replies``.
    """

    game: Game
    hands: tuple[Hand, ...]
    hand_index: Mapping[Hand, int]
    splits: tuple[Split, ...]
    split_index: Mapping[Split, int]
    split_hand: IntArray
    hand_splits: tuple[range, ...]
    results: IntArray
    wins: IntArray
    draws: IntArray
    hand_ways: tuple[int, ...]
    pair_ways: IntArray
    deals: int
    replies: int

    def hand_of(self, text: str) -> int:
        return self.hand_index[parse_hand(text, self.game)]

    def split_of(self, text: str) -> int:
        return self.split_index[parse_split(text, self.game)]


@cache
def tables(game: Game = SIX_CARD) -> Tables:
    """The :class:`Tables` of ``game`` (computed once per game)."""
    all_hands = hands(game)
    all_splits: list[Split] = []
    ranges = []
    owner = []
    for index, hand in enumerate(all_hands):
        start = len(all_splits)
        all_splits.extend(splits(hand, game))
        ranges.append(range(start, len(all_splits)))
        owner.extend([index] * (len(all_splits) - start))
    halves = np.zeros((len(all_splits), len(all_splits)), dtype=np.int64)
    row_key = split_game(game).row_key
    for part in range(len(game.part_sizes)):
        keys = [row_key(part, split[part]) for split in all_splits]
        rank_of = {key: rank for rank, key in enumerate(sorted(set(keys)))}
        rank = np.array([rank_of[key] for key in keys], dtype=np.int64)
        halves += 2 * (rank[:, None] > rank[None, :]) + (rank[:, None] == rank[None, :])
    parts = len(game.part_sizes)
    results = 2 * (halves > parts) + (halves == parts)
    pair_ways = np.array(
        [[hand_ways(g, game, taken=h) for g in all_hands] for h in all_hands], dtype=np.int64
    )
    return Tables(
        game=game,
        hands=all_hands,
        hand_index={hand: i for i, hand in enumerate(all_hands)},
        splits=tuple(all_splits),
        split_index={split: i for i, split in enumerate(all_splits)},
        split_hand=np.array(owner, dtype=np.int64),
        hand_splits=tuple(ranges),
        results=results.astype(np.int64),
        wins=(results == 2).astype(np.int64),
        draws=(results == 1).astype(np.int64),
        hand_ways=tuple(hand_ways(hand, game) for hand in all_hands),
        pair_ways=pair_ways,
        deals=math.comb(game.deck_size, game.hand_size),
        replies=math.comb(game.deck_size - game.hand_size, game.hand_size),
    )


# --- strategies -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Strategy:
    """A name and, for every hand index, the distribution of the splits it plays."""

    name: str
    plays: tuple[Plays, ...]

    def mixed_hands(self) -> tuple[int, ...]:
        """The hand indices whose play is a proper mixture."""
        return tuple(h for h, plays in enumerate(self.plays) if len(plays) > 1)


def _strategy(t: Tables, name: str, plays: Iterable[Mapping[int, Fraction]]) -> Strategy:
    checked = []
    for h, dist in enumerate(plays):
        kept = tuple(sorted((s, p) for s, p in dist.items() if p))
        if not kept or sum(p for _, p in kept) != 1 or any(p < 0 for _, p in kept):
            raise InputError(
                f"{name}: hand {format_hand(t.hands[h], t.game)} is not a distribution"
            )
        if any(int(t.split_hand[s]) != h for s, _ in kept):
            raise InputError(f"{name}: a split given for hand {format_hand(t.hands[h])} is not its")
        checked.append(kept)
    return Strategy(name, tuple(checked))


def pure_strategy(t: Tables, name: str, choice: Callable[[Hand], Split]) -> Strategy:
    """The strategy that plays ``choice(hand)`` with every hand."""
    return _strategy(t, name, ({t.split_index[choice(hand)]: Fraction(1)} for hand in t.hands))


def sorted_strategy(t: Tables) -> Strategy:
    """High = the largest cards, Middle = the next, Low = the smallest."""
    return pure_strategy(t, "sorted", lambda hand: sorted_split(hand, t.game))


def random_strategy(t: Tables) -> Strategy:
    """The seed's plan: shuffle the hand, deal the parts in order (High, Middle, Low).

    A split whose part ``p`` holds ``n[v, p]`` cards of value ``v`` arises from
    ``prod_v count_v! / prod_p n[v, p]!`` choices of physical cards, each in
    ``prod_p size_p!`` orders, out of ``hand_size!`` permutations.

    >>> t = tables()
    >>> [str(p) for _, p in random_strategy(t).plays[t.hand_of("111122")]]
    ['1/5', '2/5', '1/5', '1/15', '2/15']
    """
    game = t.game
    orders = math.prod(math.factorial(size) for size in game.part_sizes)
    total = math.factorial(game.hand_size)
    plays = []
    for h, hand in enumerate(t.hands):
        dist = {}
        for s in t.hand_splits[h]:
            ways = math.prod(math.factorial(c) for c in counts_of(hand, game))
            for part in t.splits[s]:
                ways //= math.prod(math.factorial(c) for c in counts_of(part, game))
            dist[s] = Fraction(ways * orders, total)
        plays.append(dist)
    return _strategy(t, "random", plays)


# Limits on what a strategy spec or table file may ask for (listed in docs/cli.md).
MAX_NESTING = 8  # best-response:best-response:... levels
MAX_TABLE_BYTES = 1 << 20  # a table file's size


def strategy_from_spec(spec: str, t: Tables | None = None) -> Strategy:
    """``random``, ``sorted``, ``equilibrium``, ``best-response:X`` or a CSV/JSON table file.

    >>> strategy_from_spec("best-response:sorted").name
    'best-response:sorted'
    >>> strategy_from_spec("bogus")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: unknown strategy 'bogus'; use random, sorted, equilibrium, \
best-response:X or a .csv/.json table file
    """
    t = t or tables()
    name = spec.strip()
    depth = 0
    while name.startswith("best-response:"):
        name = name.removeprefix("best-response:").strip()
        depth += 1
        if depth > MAX_NESTING:
            raise InputError(f"best-response: is nested more than {MAX_NESTING} deep")
    strategy = _base_strategy(name, t)
    for _ in range(depth):
        strategy = best_response(t, strategy).strategy
    return strategy


def _base_strategy(name: str, t: Tables) -> Strategy:
    if name == "random":
        return random_strategy(t)
    if name == "sorted":
        return sorted_strategy(t)
    if name == "equilibrium":
        return equilibrium(t).strategy
    path = Path(name)
    if path.suffix.lower() in (".csv", ".json") or path.is_file():
        return read_table(path, t)
    shown = name if len(name) <= 60 else name[:45] + "..."
    raise InputError(
        f"unknown strategy {shown!r}; use random, sorted, equilibrium, best-response:X "
        "or a .csv/.json table file"
    )


# --- tables on disk ---------------------------------------------------------------------------


def _probability(text: object, where: str) -> Fraction:
    """A probability written as a fraction or a decimal, in ASCII, of bounded size (so that
    ``1e-999999999`` is refused instead of computing a billion-digit denominator)."""
    try:
        value = parse_fraction(text, "probability")
    except InputError as error:
        raise InputError(f"{where}: {error}") from None
    if not 0 <= value <= 1:
        raise InputError(f"{where}: probability {str(text).strip()!r} is not between 0 and 1")
    return value


def _ascii(text: str, where: str) -> str:
    if not text.isascii():
        raise InputError(f"{where}: {text[:40]!r} is not plain ASCII")
    return text


def _table_strategy(t: Tables, name: str, rows: Iterable[tuple[str, str, object]]) -> Strategy:
    """A strategy from (hand, split, probability) rows; every hand needs rows summing to 1."""
    dists: list[dict[int, Fraction]] = [{} for _ in t.hands]
    for hand_text, split_text, prob_text in rows:
        where = f"{name}: hand {hand_text[:40]!r}"
        hand = parse_hand(_ascii(hand_text, name), t.game)
        split = parse_split(_ascii(split_text, where), t.game)
        if split_hand(split) != hand:
            raise InputError(f"{where}: split {split_text!r} is not a split of this hand")
        s = t.split_index[split]
        dist = dists[t.hand_index[hand]]
        dist[s] = dist.get(s, Fraction(0)) + _probability(prob_text, where)
    for h, dist in enumerate(dists):
        hand_text = format_hand(t.hands[h], t.game)
        if not dist:
            raise InputError(f"{name}: no entry for hand {hand_text}")
        if sum(dist.values()) != 1:
            raise InputError(f"{name}: probabilities for hand {hand_text} do not sum to 1")
    return _strategy(t, name, dists)


def _table_text(path: Path) -> str:
    """The file's text: at most :data:`MAX_TABLE_BYTES`, UTF-8, a byte order mark dropped."""
    name = str(path)
    with path.open("rb") as handle:
        data = handle.read(MAX_TABLE_BYTES + 1)
    if len(data) > MAX_TABLE_BYTES:
        raise InputError(f"{name}: larger than {MAX_TABLE_BYTES:,} bytes; not a strategy table")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InputError(f"{name}: line {line} is not UTF-8 text ({error.reason})") from None


def read_table(path: Path, t: Tables | None = None) -> Strategy:
    """A strategy table from a file; every hand of the game must have an entry.

    JSON: an object (or an object's ``"table"``) mapping each hand to a split, or to an object
    mapping splits to probabilities (numbers or fraction strings).  CSV: rows
    ``hand,split[,probability]`` (probability 1 when left out; a header row is allowed); several
    rows for one hand make a mixture.  Hands and splits are written as
    :mod:`~handsolver.models.sixcard` parses them, e.g. ``112234`` and ``234|12|1``.  Numbers
    are read exactly as written (``0.1`` is one tenth).

    :raises InputError: for a malformed file, an unknown hand or split, or a missing hand.
    """
    t = t or tables()
    text = _table_text(path)
    name = str(path)
    if path.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        try:
            # Numbers stay text so that they are read exactly and never overflow a float.
            data = json.loads(text, parse_float=str, parse_int=str)
        except json.JSONDecodeError as error:
            raise InputError(f"{name}: not JSON ({error.msg} at line {error.lineno})") from None
        except RecursionError:
            raise InputError(f"{name}: JSON nested too deeply for a strategy table") from None
        if isinstance(data, dict) and isinstance(data.get("table"), dict):
            data = data["table"]
        if not isinstance(data, dict):
            raise InputError(f"{name}: expected a JSON object mapping hands to splits")
        rows: list[tuple[str, str, object]] = []
        for hand_text, entry in data.items():
            if isinstance(entry, str):
                rows.append((hand_text, entry, 1))
            elif isinstance(entry, dict) and all(
                isinstance(prob, str | int) for prob in entry.values()
            ):
                rows.extend((hand_text, str(split), prob) for split, prob in entry.items())
            else:
                shown = json.dumps(entry)[:40]
                raise InputError(f"{name}: hand {hand_text[:40]!r} maps to {shown}, not a split")
        return _table_strategy(t, name, rows)
    csv_rows = []
    reader = csv.reader(io.StringIO(text))
    try:
        for row in reader:
            number = reader.line_num
            cells = [cell.strip() for cell in row]
            if not any(cells) or cells[0].startswith("#"):
                continue
            if number == 1 and cells[0].lower() == "hand":
                continue
            if len(cells) not in (2, 3):
                raise InputError(
                    f"{name}: line {number} has {len(cells)} fields; need hand,split[,p]"
                )
            csv_rows.append((cells[0], cells[1], cells[2] if len(cells) == 3 else 1))
    except csv.Error as error:
        raise InputError(f"{name}: line {reader.line_num}: {error}") from None
    return _table_strategy(t, name, csv_rows)


def table_json(strategy: Strategy, t: Tables) -> dict[str, str | dict[str, str]]:
    """The strategy as JSON: hand -> split, or hand -> {split: probability} when it mixes."""
    out: dict[str, str | dict[str, str]] = {}
    for h, plays in enumerate(strategy.plays):
        hand = format_hand(t.hands[h], t.game)
        if len(plays) == 1:
            out[hand] = format_split(t.splits[plays[0][0]], t.game)
        else:
            out[hand] = {format_split(t.splits[s], t.game): str(p) for s, p in plays}
    return out


def table_csv(strategy: Strategy, t: Tables) -> str:
    """The strategy as CSV rows ``hand,split,probability`` with a header."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["hand", "split", "probability"])
    for h, plays in enumerate(strategy.plays):
        for s, p in plays:
            writer.writerow(
                [format_hand(t.hands[h], t.game), format_split(t.splits[s], t.game), str(p)]
            )
    return buffer.getvalue()


# --- exact values -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SplitValues:
    """Every split's expected payoff against an opponent strategy, given its own hand.

    ``numerators[s] / denominator`` is the expected payoff of playing split ``s`` (payoff matrix
    entries per round over the opponent's hands and splits, given ``s``'s hand).
    """

    numerators: NDArray[Any]
    denominator: int

    def value(self, s: int) -> Fraction:
        return Fraction(int(self.numerators[s]), self.denominator)


def split_values(t: Tables, opponent: Strategy, payoff: IntArray | None = None) -> SplitValues:
    """The expected payoff (default: round result in half points) of every split vs ``opponent``.

    Integers stay in int64 when the strategy's common denominator is small, else exact Python ints.
    """
    matrix = t.results if payoff is None else payoff
    scale = math.lcm(*(p.denominator for plays in opponent.plays for _, p in plays))
    dtype: Any = np.int64 if scale < 2**40 else object
    total = np.zeros(len(t.splits), dtype=dtype)
    ways_by_split = t.pair_ways[t.split_hand]
    for g, plays in enumerate(opponent.plays):
        columns = [s for s, _ in plays]
        weights = np.array([p.numerator * (scale // p.denominator) for _, p in plays], dtype=dtype)
        total += ways_by_split[:, g].astype(dtype) * (matrix[:, columns].astype(dtype) @ weights)
    return SplitValues(total, scale * t.replies)


@dataclass(frozen=True)
class Evaluation:
    """The contest score of one strategy against another, with the round shares, all exact."""

    score: Fraction
    win: Fraction
    draw: Fraction
    loss: Fraction

    @property
    def percent(self) -> float:
        return float(self.score * 100)


def _expected(t: Tables, strategy: Strategy, values: SplitValues) -> Fraction:
    total = Fraction(0)
    for h, plays in enumerate(strategy.plays):
        total += t.hand_ways[h] * sum(p * int(values.numerators[s]) for s, p in plays)
    return total / (t.deals * values.denominator)


def evaluate(me: Strategy, opponent: Strategy, t: Tables | None = None) -> Evaluation:
    """The exact contest score of ``me`` against ``opponent`` (the harness's human average).

    >>> t = tables()
    >>> e = evaluate(sorted_strategy(t), sorted_strategy(t), t)
    >>> e.score, e.win == e.loss
    (Fraction(1, 2), True)
    """
    t = t or tables()
    win = _expected(t, me, split_values(t, opponent, t.wins))
    draw = _expected(t, me, split_values(t, opponent, t.draws))
    return Evaluation(win + draw / 2, win, draw, 1 - win - draw)


@dataclass(frozen=True)
class BestResponse:
    """A pure best response, its exact score against the opponent, and per-hand values."""

    strategy: Strategy
    score: Fraction
    hand_scores: tuple[Fraction, ...]


def best_response(t: Tables, opponent: Strategy) -> BestResponse:
    """The best split of every hand against ``opponent``; ties go to the split listed first.

    >>> t = tables()
    >>> br = best_response(t, random_strategy(t))
    >>> br.score >= evaluate(sorted_strategy(t), random_strategy(t), t).score
    True
    """
    values = split_values(t, opponent)
    choices = []
    hand_scores = []
    for splits_of_hand in t.hand_splits:
        best = max(splits_of_hand, key=lambda s: (values.numerators[s], -s))
        choices.append({best: Fraction(1)})
        hand_scores.append(values.value(best) / 2)
    strategy = _strategy(t, f"best-response:{opponent.name}", choices)
    score = sum((t.hand_ways[h] * v for h, v in enumerate(hand_scores)), Fraction(0)) / t.deals
    return BestResponse(strategy, score, tuple(hand_scores))


# --- single hands -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SplitScore:
    """A split's expected result against a set of opponent scenarios."""

    split: Split
    score: Fraction
    win: Fraction
    draw: Fraction
    worst: Fraction

    @property
    def percent(self) -> float:
        return float(self.score * 100)


def scenarios_vs_split(t: Tables, split: Split) -> Plays:
    """The opponent's split is known: (a)."""
    return ((t.split_index[split], Fraction(1)),)


def scenarios_vs_hand(t: Tables, hand: Hand, opponent: Strategy) -> Plays:
    """The opponent's hand and strategy are known: (b)."""
    return opponent.plays[t.hand_index[hand]]


def scenarios_vs_strategy(t: Tables, mine: Hand, opponent: Strategy) -> Plays:
    """Only the opponent's strategy is known: their hand is dealt from the rest of the deck: (c)."""
    h = t.hand_index[mine]
    dist: dict[int, Fraction] = defaultdict(Fraction)
    for g, plays in enumerate(opponent.plays):
        ways = int(t.pair_ways[h, g])
        for s, p in plays if ways else ():
            dist[s] += Fraction(ways, t.replies) * p
    return tuple(sorted(dist.items()))


def rank_splits(t: Tables, hand: Hand, scenarios: Plays) -> list[SplitScore]:
    """Every split of ``hand`` scored against ``scenarios``, best first (ties in split order).

    ``worst`` is the lowest round result over the scenarios: the maximin criterion.
    """
    scale = math.lcm(*(p.denominator for _, p in scenarios))
    columns = [s for s, _ in scenarios]
    weights = [p.numerator * (scale // p.denominator) for _, p in scenarios]
    ranked = []
    for s in t.hand_splits[t.hand_index[hand]]:
        row = [int(r) for r in t.results[s, columns]]
        win = sum(w for w, r in zip(weights, row, strict=True) if r == 2)
        draw = sum(w for w, r in zip(weights, row, strict=True) if r == 1)
        ranked.append(
            SplitScore(
                split=t.splits[s],
                score=Fraction(2 * win + draw, 2 * scale),
                win=Fraction(win, scale),
                draw=Fraction(draw, scale),
                worst=Fraction(min(row), 2),
            )
        )
    return sorted(ranked, key=lambda item: -item.score)


def maximin_splits(t: Tables, hand: Hand, theirs: Hand) -> list[SplitScore]:
    """The splits of ``hand`` ranked by their worst result over all splits of ``theirs``.

    Ties on the worst case are broken by the average over the opponent's distinct splits.
    """
    their_splits = t.hand_splits[t.hand_index[theirs]]
    uniform = tuple((s, Fraction(1, len(their_splits))) for s in their_splits)
    return sorted(rank_splits(t, hand, uniform), key=lambda item: (-item.worst, -item.score))


# --- CP-SAT split model -----------------------------------------------------------------------


@dataclass(frozen=True)
class SplitModel:
    """A CP-SAT model choosing a split, and the variables to read the answer from."""

    model: Any
    assignment: tuple[tuple[Any, ...], ...]
    hand: Hand
    scale: int


@dataclass(frozen=True)
class SplitModelResult:
    status: str
    split: Split
    score: Fraction
    wall_time: float


def build_split_model(t: Tables, hand: Hand, scenarios: Plays) -> SplitModel:
    """Assign each card of ``hand`` to one part, maximising the expected round result.

    Each part picks one of the multisets it can hold (``add_exactly_one``), tied to the cards
    assigned to it value by value.  Against every scenario two literals are equivalent to the
    round's half points reaching ``parts`` (at least a draw) and ``parts + 1`` (a win), so their
    sum is the round result (0, 1, 2 half points) and fixing the cards fixes everything.  The
    objective weighs results by the scenario probabilities, scaled to integers by their common
    denominator.  Equal cards fill the parts in order (symmetry breaking), and the search
    branches on the cards first.
    """
    from ortools.sat.python import cp_model

    game = t.game
    model = cp_model.CpModel()
    parts = range(len(game.part_sizes))

    # Variables: card c goes to part p.
    assignment = tuple(
        tuple(model.new_bool_var(f"card {c} ({value}) in {game.part_names[p]}") for p in parts)
        for c, value in enumerate(hand)
    )
    for c in range(len(hand)):
        model.add_exactly_one(assignment[c])
    for p in parts:
        model.add(sum(assignment[c][p] for c in range(len(hand))) == game.part_sizes[p])
    # Copies of a value are interchangeable: the later copy never goes to an earlier part.
    for c in range(len(hand) - 1):
        if hand[c] == hand[c + 1]:
            for p in parts:
                model.add(sum(assignment[c + 1][: p + 1]) <= sum(assignment[c][: p + 1]))

    # Each part is exactly one of the multisets it can be, matching the cards assigned to it.
    candidates = [
        sorted({t.splits[s][p] for s in t.hand_splits[t.hand_index[hand]]}) for p in parts
    ]
    chosen = []
    for p in parts:
        picks = {
            part: model.new_bool_var(f"{game.part_names[p]} = {part}") for part in candidates[p]
        }
        model.add_exactly_one(picks.values())
        for value in range(1, game.values + 1):
            held = sum(assignment[c][p] for c, v in enumerate(hand) if v == value)
            model.add(sum(part.count(value) * var for part, var in picks.items()) == held)
        chosen.append(picks)

    # Scenarios grouped by the opponent's part keys, weights as integers.
    grouped: dict[tuple[tuple[int, ...], ...], Fraction] = defaultdict(Fraction)
    row_key = split_game(game).row_key
    for s, chance in scenarios:
        keys = tuple(row_key(q, part) for q, part in enumerate(t.splits[s]))
        grouped[keys] += chance
    scale = math.lcm(*(chance.denominator for chance in grouped.values()))
    objective = []
    for index, (keys, chance) in enumerate(sorted(grouped.items())):
        halves = []
        for q in parts:
            for part, var in chosen[q].items():
                mine = row_key(q, part)
                halves.append((2 * (mine > keys[q]) + (mine == keys[q])) * var)
        results = []
        for threshold in (len(game.part_sizes), len(game.part_sizes) + 1):
            reached = model.new_bool_var(f"scenario {index} reaches {threshold} half points")
            model.add(sum(halves) >= threshold).only_enforce_if(reached)
            model.add(sum(halves) < threshold).only_enforce_if(~reached)
            results.append(reached)
        weight = chance.numerator * (scale // chance.denominator)
        objective.append(weight * sum(results))
    model.maximize(sum(objective))
    model.add_decision_strategy(
        [var for row in assignment for var in row],
        cp_model.CHOOSE_FIRST,
        cp_model.SELECT_MAX_VALUE,
    )
    return SplitModel(model, assignment, hand, scale)


def solve_split_model(
    built: SplitModel, *, time_limit: float = 30.0, workers: int = 1, seed: int = 0
) -> SplitModelResult:
    """Solve a :func:`build_split_model` model; raise unless CP-SAT proves the optimum."""
    from ortools.sat.python import cp_model

    from handsolver.solver.interrupt import stoppable

    solver = stoppable(cp_model.CpSolver())
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    status = solver.solve(built.model)
    if status != cp_model.OPTIMAL:
        raise RuntimeError(f"CP-SAT split model ended {solver.status_name(status)}")
    parts: list[list[int]] = [[] for _ in built.assignment[0]]
    for c, row in enumerate(built.assignment):
        for p, var in enumerate(row):
            if solver.boolean_value(var):
                parts[p].append(built.hand[c])
    return SplitModelResult(
        status=solver.status_name(status),
        split=tuple(tuple(sorted(part)) for part in parts),
        score=Fraction(round(solver.objective_value), 2 * built.scale),
        wall_time=solver.wall_time,
    )


# --- equilibrium ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Equilibrium:
    """An exact equilibrium strategy of the symmetric game and its certificate.

    ``exploitability`` is the best response's exact score against ``strategy``; it equals
    ``value`` (1/2) exactly, which proves the strategy optimal.  ``lp_value`` is the LP's float
    objective and ``lp`` the solved model, for :func:`must_mix`.
    """

    strategy: Strategy
    value: Fraction
    exploitability: Fraction
    lp_value: float
    lp: EquilibriumLP = field(repr=False, compare=False)


@dataclass(frozen=True)
class EquilibriumLP:
    """The GLOP model of :func:`build_equilibrium_lp`: its solver, ``x`` and reply rows."""

    solver: Any
    x: tuple[Any, ...]
    replies: tuple[Any, ...]


def build_equilibrium_lp(t: Tables) -> EquilibriumLP:
    """Maximise the worst-case score over the opponent's replies (a GLOP model).

    Variables: ``x[s]`` the chance a hand plays split ``s`` (summing to 1 per hand), and ``z[g]``
    the least expected score the opponent's hand ``g`` can hold the player to; every opponent
    split ``t`` of ``g`` bounds ``z[g] <= sum_s P(hand(s), g) x[s] result(s, t)``.  The duals of
    these reply rows are the opponent's strategy.
    """
    from ortools.linear_solver import pywraplp

    solver = pywraplp.Solver.CreateSolver("GLOP")
    if solver is None:
        raise RuntimeError("OR-Tools GLOP is not available")
    # Re-solves after tightening bounds start from a dual feasible basis.
    solver.SetSolverSpecificParametersAsString("use_dual_simplex: true")
    n_splits, n_hands = len(t.splits), len(t.hands)
    x = [solver.NumVar(0.0, 1.0, f"x{s}") for s in range(n_splits)]
    z = [solver.NumVar(-solver.infinity(), solver.infinity(), f"z{g}") for g in range(n_hands)]
    for splits_of_hand in t.hand_splits:
        row = solver.Constraint(1.0, 1.0)
        for s in splits_of_hand:
            row.SetCoefficient(x[s], 1.0)
    # Coefficients are P(h, g) * result / 2 = hand_ways * pair_ways * halves / (2 deals replies).
    weight = (
        np.asarray(t.hand_ways, dtype=np.float64)[t.split_hand][:, None] * t.pair_ways[t.split_hand]
    )
    weight /= 2.0 * t.deals * t.replies
    replies = []
    for s_opp in range(n_splits):
        g = int(t.split_hand[s_opp])
        coefficients = weight[:, g] * t.results[:, s_opp]
        row = solver.Constraint(0.0, solver.infinity())
        row.SetCoefficient(z[g], -1.0)
        for s in np.flatnonzero(coefficients).tolist():
            row.SetCoefficient(x[s], float(coefficients[s]))
        replies.append(row)
    objective = solver.Objective()
    for var in z:
        objective.SetCoefficient(var, 1.0)
    objective.SetMaximization()
    return EquilibriumLP(solver, tuple(x), tuple(replies))


def _solve_lp(lp: EquilibriumLP) -> float:
    from ortools.linear_solver import pywraplp

    if lp.solver.Solve() != pywraplp.Solver.OPTIMAL:
        raise RuntimeError("the equilibrium LP did not reach an optimum")
    return float(lp.solver.Objective().Value())


def solve_equilibrium_lp(t: Tables) -> tuple[float, NDArray[np.float64]]:
    """The LP's value and its ``x`` (floats)."""
    lp = build_equilibrium_lp(t)
    value = _solve_lp(lp)
    return value, np.array([var.solution_value() for var in lp.x])


def _rounded_replies(t: Tables, lp: EquilibriumLP, denominator: int = 2**30) -> Strategy:
    """The opponent strategy in the LP's duals, rounded to multiples of ``1 / denominator``."""
    duals = np.abs(np.array([row.dual_value() for row in lp.replies]))
    dists = []
    for splits_of_hand in t.hand_splits:
        chosen = np.array(list(splits_of_hand))
        weights = duals[chosen] / max(duals[chosen].sum(), 1e-300)
        numerators = np.rint(weights * denominator).astype(np.int64)
        numerators[int(np.argmax(numerators))] += denominator - int(numerators.sum())
        dists.append(
            {int(s): Fraction(int(n), denominator) for s, n in zip(chosen, numerators, strict=True)}
        )
    return _strategy(t, "lp-duals", dists)


def must_mix(t: Tables, strategy: Strategy, lp: EquilibriumLP | None = None) -> tuple[bool, ...]:
    """For each mixed hand of ``strategy``: is it proved that every optimal strategy mixes it?

    For each split ``s`` the hand plays, GLOP re-solves the LP with the hand held to ``s``; the
    duals give an opponent strategy ``y``, which is rounded to exact fractions.  If every strategy
    playing ``s`` with that hand scores below 1/2 against ``y`` (the best such strategy, computed
    exactly), no optimal strategy plays ``s`` purely with it.
    """
    lp = lp or build_equilibrium_lp(t)
    proved = []
    for h in strategy.mixed_hands():
        splits_of_hand = t.hand_splits[h]
        held_below = True
        for s, _ in strategy.plays[h]:
            for other in splits_of_hand:
                lp.x[other].SetUb(1.0 if other == s else 0.0)
            _solve_lp(lp)
            values = split_values(t, _rounded_replies(t, lp))
            best = [
                values.numerators[s] if g == h else max(values.numerators[hand_splits])
                for g, hand_splits in enumerate(t.hand_splits)
            ]
            score = Fraction(
                sum(int(t.hand_ways[g]) * int(b) for g, b in enumerate(best)),
                2 * t.deals * values.denominator,
            )
            held_below = held_below and score < Fraction(1, 2)
        for other in splits_of_hand:
            lp.x[other].SetUb(1.0)
        proved.append(held_below)
    return tuple(proved)


def _solve_exactly(
    rows: list[list[Fraction]], rhs: list[Fraction], guess: list[Fraction]
) -> list[Fraction]:
    """Solve ``rows @ v = rhs`` by Gaussian elimination; free unknowns take ``guess``.

    >>> _solve_exactly([[Fraction(2), Fraction(1)], [Fraction(1), Fraction(-1)]],
    ...                [Fraction(3), Fraction(0)], [Fraction(0), Fraction(0)])
    [Fraction(1, 1), Fraction(1, 1)]
    """
    n = len(guess)
    matrix = [row[:] + [b] for row, b in zip(rows, rhs, strict=True)]
    pivots: list[int] = []
    r = 0
    for col in range(n):
        pivot = next((i for i in range(r, len(matrix)) if matrix[i][col]), None)
        if pivot is None:
            continue
        matrix[r], matrix[pivot] = matrix[pivot], matrix[r]
        lead = matrix[r][col]
        matrix[r] = [v / lead for v in matrix[r]]
        for i in range(len(matrix)):
            if i != r and matrix[i][col]:
                factor = matrix[i][col]
                matrix[i] = [a - factor * b for a, b in zip(matrix[i], matrix[r], strict=True)]
        pivots.append(col)
        r += 1
    solution = guess[:]
    free = [col for col in range(n) if col not in pivots]
    for i, col in enumerate(pivots):
        solution[col] = matrix[i][n] - sum((matrix[i][f] * guess[f] for f in free), Fraction(0))
    return solution


def exact_on_support(t: Tables, lp_x: NDArray[np.float64], tolerance: float = 1e-9) -> Strategy:
    """The exact strategy on the LP's support that leaves the opponent indifferent on it.

    In a symmetric zero-sum game an optimal strategy is also optimal for the opponent, so every
    split it plays is a best reply to it: for each hand ``g``, the opponent's value
    ``u_g(s)`` is equal across the support of ``g``.  With one unknown per extra split in a
    hand's support and one equation per extra split, the rational system is square.
    """
    support = [
        [s for s in splits_of_hand if lp_x[s] > tolerance] for splits_of_hand in t.hand_splits
    ]
    unknowns = [(h, s) for h, sup in enumerate(support) for s in sup[1:]]
    position = {s: i for i, (_, s) in enumerate(unknowns)}
    rows: list[list[Fraction]] = []
    rhs: list[Fraction] = []
    for g, sup_g in enumerate(support):
        for reply in sup_g[1:]:
            # The opponent's split ``reply`` scores the same as ``sup_g[0]`` against us:
            # sum over our hands h, splits s of ways(h, g) x[s] (result[s, reply] - result[s, t0]).
            diff = t.results[:, reply] - t.results[:, sup_g[0]]
            row = [Fraction(0)] * len(unknowns)
            constant = Fraction(0)
            for h, sup in enumerate(support):
                ways = t.hand_ways[h] * int(t.pair_ways[h, g])
                if not ways:
                    continue
                base = ways * int(diff[sup[0]])
                constant += base
                for s in sup[1:]:
                    row[position[s]] += ways * int(diff[s]) - base
            rows.append(row)
            rhs.append(-constant)
    guess = [Fraction(float(lp_x[s])).limit_denominator(10**6) for _, s in unknowns]
    solution = _solve_exactly(rows, rhs, guess)
    dists = []
    for sup in support:
        dist = {s: solution[position[s]] for s in sup[1:]}
        dist[sup[0]] = 1 - sum(dist.values(), Fraction(0))
        if min(dist.values()) < 0:
            raise RuntimeError("the LP support has no exact equilibrium (a probability < 0)")
        dists.append(dist)
    return _strategy(t, "equilibrium", dists)


@cache
def equilibrium(t: Tables) -> Equilibrium:
    """The game's equilibrium: LP by GLOP, made exact on its support, certified exactly.

    :raises RuntimeError: if the exact strategy is not a distribution or is exploitable.
    """
    lp = build_equilibrium_lp(t)
    lp_value = _solve_lp(lp)
    strategy = exact_on_support(t, np.array([var.solution_value() for var in lp.x]))
    exploitability = best_response(t, strategy).score
    value = Fraction(1, 2)
    if exploitability != value:
        raise RuntimeError(f"the LP support gives an exploitable strategy ({exploitability})")
    return Equilibrium(strategy, value, exploitability, lp_value, lp)


# --- simulation of the contest harness --------------------------------------------------------


@dataclass(frozen=True)
class Simulation:
    """Monte Carlo estimate of the human's score over ``rounds`` harness rounds."""

    rounds: int
    seed: int
    mean: float
    stderr: float
    wins: int
    draws: int

    @property
    def percent(self) -> float:
        return 100 * self.mean


def _sampler(t: Tables, strategy: Strategy) -> tuple[IntArray, NDArray[np.float64]]:
    width = max(len(plays) for plays in strategy.plays)
    choices = np.zeros((len(t.hands), width), dtype=np.int64)
    cumulative = np.ones((len(t.hands), width), dtype=np.float64)
    for h, plays in enumerate(strategy.plays):
        running = Fraction(0)
        for i, (s, p) in enumerate(plays):
            running += p
            choices[h, i] = s
            cumulative[h, i] = float(running)
        choices[h, len(plays) :] = plays[-1][0]
    return choices, cumulative


def simulation_chunks(rounds: int, chunk: int = 100_000) -> list[int]:
    """The chunk sizes :func:`simulate` plays ``rounds`` in."""
    return [min(chunk, rounds - start) for start in range(0, rounds, chunk)]


def simulate(
    t: Tables,
    human: Strategy,
    computer: Strategy,
    rounds: int,
    seed: int,
    wrap: Callable[[Iterable[int]], Iterable[int]] = lambda chunks: chunks,
) -> Simulation:
    """Play the seed's ``main.m`` ``rounds`` times: shuffle ``ceil(randperm(16)/4)``, give the
    computer positions 1, 3, .., 11 and the human 2, 4, .., 12, score the human.

    ``wrap`` wraps the iterable of chunk sizes (for a progress bar).
    """
    game = t.game
    rng = np.random.default_rng(seed)
    code_base = game.hand_size + 1
    lookup = np.full(code_base**game.values, -1, dtype=np.int64)
    powers = code_base ** np.arange(game.values)
    for h, hand in enumerate(t.hands):
        lookup[int(np.dot(counts_of(hand, game), powers))] = h
    samplers = (_sampler(t, human), _sampler(t, computer))
    total = 0.0
    squares = 0.0
    wins = draws = 0
    for size in wrap(simulation_chunks(rounds)):
        deck = rng.random((size, game.deck_size)).argsort(axis=1) // game.copies
        dealt = (deck[:, 1 : 2 * game.hand_size : 2], deck[:, 0 : 2 * game.hand_size : 2])
        chosen = []
        for cards, (choices, cumulative) in zip(dealt, samplers, strict=True):
            counts = np.stack([(cards == v).sum(axis=1) for v in range(game.values)], axis=1)
            dealt_hands = lookup[counts @ powers]
            pick = (cumulative[dealt_hands] < rng.random(size)[:, None]).sum(axis=1)
            chosen.append(choices[dealt_hands, np.minimum(pick, choices.shape[1] - 1)])
        result = t.results[chosen[0], chosen[1]]
        wins += int((result == 2).sum())
        draws += int((result == 1).sum())
        scores = result / 2.0
        total += float(scores.sum())
        squares += float((scores * scores).sum())
    mean = total / rounds
    variance = max(squares / rounds - mean * mean, 0.0) * rounds / max(rounds - 1, 1)
    return Simulation(rounds, seed, mean, math.sqrt(variance / rounds), wins, draws)


# --- MATLAB export ----------------------------------------------------------------------------


def _matlab_vector(part: Sequence[int]) -> str:
    return f"[{' '.join(map(str, part))}]" if len(part) > 1 else str(part[0])


def matlab_source(strategy: Strategy, t: Tables) -> str:
    """A complete ``humanHand.m`` playing ``strategy`` as a lookup table.

    The sorted hand is read as a number (one digit per card for values below 10); a mixed hand
    draws ``rand`` once and walks its cumulative probabilities.
    """
    game = t.game
    base = 10 ** len(str(game.values))
    names = [name.lower() for name in game.part_names]
    lines = [
        f"function [{', '.join(names)}] = humanHand(hand)",
        f"% Plays the strategy {strategy.name!r} as a lookup table from the sorted hand",
        "% to its split (generated by handsolver sixcard export-matlab).",
        "hand = sort(hand(:)');",
        f"key = sum(hand .* {base} .^ (numel(hand) - 1:-1:0));",
        "switch key",
    ]

    def assign(split: Split, indent: str) -> str:
        return indent + " ".join(
            f"{name} = {_matlab_vector(part)};" for name, part in zip(names, split, strict=True)
        )

    for h, plays in enumerate(strategy.plays):
        key = sum(v * base**i for i, v in enumerate(reversed(t.hands[h])))
        lines.append(f"  case {key}")
        if len(plays) == 1:
            lines.append(assign(t.splits[plays[0][0]], "    "))
            continue
        lines.append("    r = rand;")
        running = Fraction(0)
        for i, (s, p) in enumerate(plays):
            running += p
            if i == 0:
                lines.append(f"    if r < {float(running)!r}")
            elif i < len(plays) - 1:
                lines.append(f"    elseif r < {float(running)!r}")
            else:
                lines.append("    else")
            lines.append(assign(t.splits[s], "      "))
        lines.append("    end")
    lines += [
        "  otherwise",
        "    error('humanHand:badHand', 'not a hand of this game: %s', mat2str(hand));",
        "end",
        "",
    ]
    return "\n".join(lines)


def iter_hands_report(t: Tables, strategy: Strategy) -> Iterator[tuple[str, str]]:
    """(hand, play) pairs for display: a split, or splits with their probabilities."""
    for h, plays in enumerate(strategy.plays):
        play = ", ".join(
            format_split(t.splits[s], t.game) + ("" if p == 1 else f" ({p})") for s, p in plays
        )
        yield format_hand(t.hands[h], t.game), play
