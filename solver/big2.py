"""The fewest Big 2 plays that empty a hand: exact search, CP-SAT, enumeration, answer checking.

Once the five-card plays are chosen, the other cards go out by rank in singles, pairs and
triples, and a rank with ``c`` cards left needs ``ceil(c / 3)`` of them.  So the problem is to
choose disjoint five-card plays minimising their number plus the sum of ``ceil(c / 3)`` over
the ranks.  Three engines solve it:

* an exact search over sets of five-card plays (fastest for small hands: a 13-card hand takes
  about a tenth of a millisecond);
* a strengthened CP-SAT model that counts interchangeable plays instead of naming them: a
  straight, full house or four of a kind + 1 only needs so many cards of each rank, and any
  five cards of one suit are a flush, so the model has one integer per straight window and
  one Boolean per full-house and four-of-a-kind rank pair, a flush flag per card, and the
  small plays per rank; the count of plays is bounded below by what play sizes 1, 2, 3 and 5
  allow (:func:`count_lower_bound`);
* the plain set-partition model (one Boolean per legal play, every card covered once) kept as
  the reference the strengthened model is measured against.

>>> result = fewest_plays(parse_cards("4D 4S 4H 4C 5H 5D 5C 5S 9S 9D 9H 9C AD"))
>>> result.count, result.optimal
(3, True)
>>> [play.kind.label for play in result.plays]
['four of a kind + 1', 'four of a kind + 1', 'triple']

:func:`fewest_plays` and :func:`check_answer` are what the golf verifier calls.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from handsolver.models.big2 import (
    STRAIGHT_RANKS,
    IllegalPlayError,
    Play,
    PlayKind,
    answer_readings,
    big2_card_key,
    five_card_masks,
    legal_plays,
    play_kind,
)
from handsolver.models.cards import (
    Card,
    CardSet,
    InputError,
    Notation,
    cards_of,
    mask_of,
    parse_cards,
)

__all__ = [
    "EXACT_MAX_CARDS",
    "Check",
    "check_answer_text",
    "Enumeration",
    "Method",
    "Partition",
    "Prefer",
    "all_optimal",
    "build_partition_model",
    "build_strong_model",
    "check_answer",
    "count_lower_bound",
    "exact_search",
    "fewest_plays",
    "plays_lower_bound",
    "preference_key",
    "small_plays_needed",
    "solve_partition_model",
    "solve_strong_model",
]

# Above this many cards the CP-SAT model beats the exact search (see scripts/bench_big2.py).
EXACT_MAX_CARDS = 18
DEFAULT_TIME_LIMIT = 10.0


class Prefer(StrEnum):
    """Which optimal partition to return when several reach the fewest plays."""

    ANY = "any"
    """The first one found (still deterministic)."""
    FEWEST_SINGLES = "fewest-singles"
    """Fewest single-card plays."""
    STRONGEST = "strongest"
    """Most straight flushes, then four of a kind + 1, full houses, flushes, straights,
    triples, pairs (compared in that order)."""


class Method(StrEnum):
    """Which engine :func:`fewest_plays` uses."""

    AUTO = "auto"
    EXACT = "exact"
    CPSAT = "cp-sat"
    PLAIN = "plain"


@dataclass(frozen=True)
class Partition:
    """A partition of a hand into plays.

    ``optimal`` says whether no partition has fewer plays was proven; ``bound`` is the best
    proven lower bound on the count (equal to ``count`` when optimal).
    """

    count: int
    plays: tuple[Play, ...]
    optimal: bool
    bound: int
    method: str

    def card_lists(self, notation: Notation) -> list[list[str]]:
        return [notation.card_strings(play.cards) for play in self.plays]


@dataclass(frozen=True)
class Enumeration:
    """Optimal partitions: ``count`` of them exist (at least, unless ``complete``), of which
    ``partitions`` lists up to the requested limit."""

    best: int
    count: int
    complete: bool
    partitions: tuple[tuple[Play, ...], ...]


@dataclass(frozen=True)
class Check:
    """The verdict on a claimed answer: ``valid`` (a partition of the hand into legal plays),
    ``optimal`` (valid and no partition has fewer plays), and every ``problem`` found."""

    valid: bool
    optimal: bool
    count: int
    best: int
    problems: tuple[str, ...] = field(default=())


# --- the count of small plays, and bounds -------------------------------------------------

_NIBBLES_1 = int("1" * 13, 16)
_NIBBLES_3 = _NIBBLES_1 * 3
_NIBBLES_5 = _NIBBLES_1 * 5


def small_plays_needed(rest: CardSet) -> int:
    """The fewest singles, pairs and triples that play ``rest``: sum of ``ceil(c / 3)`` by rank.

    >>> small_plays_needed(mask_of(parse_cards("3c 3d 3h 3s 4c 5c 5d")))
    4
    """
    # Per-rank card counts, one per nibble; ceil(c/3) is 1 for any card plus 1 for all four.
    x = rest - ((rest >> 1) & _NIBBLES_5)
    x = (x & _NIBBLES_3) + ((x >> 2) & _NIBBLES_3)
    return ((x | x >> 1 | x >> 2) & _NIBBLES_1).bit_count() + ((x >> 2) & _NIBBLES_1).bit_count()


def _fewest_with_fives(rest: CardSet, least: int) -> int:
    """A lower bound on the plays for ``rest`` when at least ``least`` of them have five cards.

    Relax five-card plays to "any five cards": taking ``b`` cards out of the small plays saves
    at most one play per card from ranks holding one card (or the first card of four), one per
    two cards from ranks of two, one per three from ranks of three (or the rest of four).
    """
    x = rest - ((rest >> 1) & _NIBBLES_5)
    x = (x & _NIBBLES_3) + ((x >> 2) & _NIBBLES_3)
    low, mid, high = x & _NIBBLES_1, (x >> 1) & _NIBBLES_1, (x >> 2) & _NIBBLES_1
    fours = high.bit_count()
    cheap = (low & ~mid).bit_count() + fours  # ranks of one card, first card of four
    twos = (mid & ~low).bit_count()
    threes = (low & mid).bit_count() + fours
    small = cheap + twos + threes
    best = small if least == 0 else rest.bit_count()
    for plays in range(max(least, 1), rest.bit_count() // 5 + 1):
        budget = 5 * plays
        saved = min(budget, cheap)
        budget -= saved
        by_two = min(budget // 2, twos)
        saved += by_two + min((budget - 2 * by_two) // 3, threes)
        best = min(best, plays + small - saved)
    return best


def plays_lower_bound(hand: CardSet) -> int:
    """A lower bound on the fewest plays for ``hand`` from its rank counts and size alone.

    >>> spades = mask_of(parse_cards("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"))
    >>> count_lower_bound(13), plays_lower_bound(spades)
    (3, 5)
    """
    return max(count_lower_bound(hand.bit_count()), _fewest_with_fives(hand, 0))


_EXTRA_PLAYS = (0, 1, 1, 1, 2)


def count_lower_bound(cards: int) -> int:
    """The fewest plays that can hold ``cards`` cards, when plays have 1, 2, 3 or 5 cards.

    Five-card plays take ``cards // 5`` plays; a remainder of 1, 2 or 3 takes one more play and
    a remainder of 4 two more (there is no four-card play).

    >>> [count_lower_bound(n) for n in (13, 39, 52)]
    [3, 9, 11]
    """
    return cards // 5 + _EXTRA_PLAYS[cards % 5]


def _hand_mask(hand: CardSet | Iterable[Card]) -> CardSet:
    return hand if isinstance(hand, int) else mask_of(hand)


# --- building a partition from chosen five-card plays ---------------------------------------


def _small_plays(rest: CardSet, prefer: Prefer) -> list[Play]:
    """Play ``rest`` by rank in the fewest singles, pairs and triples."""
    plays: list[Play] = []
    for rank in range(13):
        nib = rest >> (4 * rank) & 15
        if not nib:
            continue
        cards = sorted(cards_of(nib << (4 * rank)), key=big2_card_key)
        if len(cards) < 4:
            groups = [cards]
        elif prefer is Prefer.STRONGEST:
            groups = [cards[1:], cards[:1]]
        else:
            groups = [cards[:2], cards[2:]]
        plays.extend(Play(mask_of(group), PlayKind(len(group))) for group in groups)
    return plays


def _play_order(play: Play) -> tuple[int, int, list[int]]:
    return (-play.size, -play.kind, [big2_card_key(card) for card in play.cards])


def _sorted_plays(plays: Iterable[Play]) -> tuple[Play, ...]:
    return tuple(sorted(plays, key=_play_order))


def _partition_of(hand: CardSet, fives: Iterable[CardSet], prefer: Prefer) -> tuple[Play, ...]:
    plays = [Play(mask, play_kind(mask)) for mask in fives]
    rest = hand
    for play in plays:
        rest ^= play.mask
    return _sorted_plays(plays + _small_plays(rest, prefer))


_STRENGTH_ORDER = (
    PlayKind.STRAIGHT_FLUSH,
    PlayKind.FOUR_OF_A_KIND,
    PlayKind.FULL_HOUSE,
    PlayKind.FLUSH,
    PlayKind.STRAIGHT,
    PlayKind.TRIPLE,
    PlayKind.PAIR,
)


def preference_key(plays: Iterable[Play], prefer: Prefer) -> tuple[int, ...]:
    """Smaller is better among partitions with the same count, for ``prefer``."""
    kinds = [play.kind for play in plays]
    if prefer is Prefer.FEWEST_SINGLES:
        return (kinds.count(PlayKind.SINGLE),)
    if prefer is Prefer.STRONGEST:
        return tuple(-kinds.count(kind) for kind in _STRENGTH_ORDER)
    return ()


# --- exact search ---------------------------------------------------------------------------


def _optimal_five_sets(hand: CardSet, collect_all: bool) -> tuple[int, list[tuple[CardSet, ...]]]:
    """The fewest plays, and the first (or every) set of five-card plays reaching it.

    Sets are built in the fixed order of :func:`five_card_masks`, each once; a branch stops
    when even another five-card play and the count bound on what is left cannot do better.
    """
    fives = five_card_masks(hand)
    best = small_plays_needed(hand)
    found: list[tuple[CardSet, ...]] = [()]

    def extend(rest: CardSet, start: int, chosen: tuple[CardSet, ...]) -> None:
        nonlocal best, found
        taken = len(chosen) + 1
        left = rest.bit_count() - 5
        for index in range(start, len(fives)):
            play = fives[index]
            if rest & play != play:
                continue
            after = rest ^ play
            cost = taken + small_plays_needed(after)
            if cost < best:
                best = cost
                found = [(*chosen, play)]
            elif cost == best and collect_all:
                found.append((*chosen, play))
            if left >= 5:
                reachable = taken + _fewest_with_fives(after, 1)
                if reachable < best or (collect_all and reachable == best):
                    extend(after, index + 1, (*chosen, play))

    extend(hand, 0, ())
    return best, found


def exact_search(hand: CardSet | Iterable[Card], prefer: Prefer = Prefer.ANY) -> Partition:
    """The fewest plays by exhaustive search over sets of five-card plays (proven optimal).

    Fast for small hands; its work grows quickly past about 16 cards.
    """
    mask = _hand_mask(hand)
    best, sets = _optimal_five_sets(mask, collect_all=prefer is not Prefer.ANY)
    partitions = (_partition_of(mask, fives, prefer) for fives in sets)
    plays = min(partitions, key=lambda plays: preference_key(plays, prefer))
    return Partition(best, plays, True, best, "exact")


def _rank_choices(rest: CardSet) -> list[list[list[list[Card]]]]:
    """Per rank left, every way to play its cards in the fewest small plays."""
    choices: list[list[list[list[Card]]]] = []
    for rank in range(13):
        cards = sorted(cards_of(rest & (15 << (4 * rank))), key=big2_card_key)
        if len(cards) < 4:
            if cards:
                choices.append([[cards]])
            continue
        splits = [[[cards[0], other], [c for c in cards[1:] if c != other]] for other in cards[1:]]
        splits += [[[c for c in cards if c != single], [single]] for single in cards]
        choices.append(splits)
    return choices


# --- CP-SAT ---------------------------------------------------------------------------------


def _solver(time_limit: float, workers: int, seed: int) -> Any:
    from ortools.sat.python import cp_model

    from handsolver.solver.interrupt import stoppable

    solver = stoppable(cp_model.CpSolver())
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    return solver


def build_partition_model(
    hand: CardSet | Iterable[Card], count: int | None = None
) -> tuple[Any, list[tuple[Play, Any]]]:
    """The plain set-partition model: one Boolean per legal play, each card in exactly one.

    Minimises the number of plays, or, given ``count``, requires exactly that many (used to
    enumerate optimal partitions).
    """
    from ortools.sat.python import cp_model

    mask = _hand_mask(hand)
    model = cp_model.CpModel()
    plays = [(play, model.new_bool_var(f"play {i}")) for i, play in enumerate(legal_plays(mask))]
    covering: dict[Card, list[Any]] = {card: [] for card in cards_of(mask)}
    for play, var in plays:
        for card in cards_of(play.mask):
            covering[card].append(var)
    for card_vars in covering.values():
        model.add_exactly_one(card_vars)
    total = sum(var for _, var in plays)
    if count is None:
        model.minimize(total)
    else:
        model.add(total == count)
    return model, plays


def solve_partition_model(
    hand: CardSet | Iterable[Card],
    *,
    prefer: Prefer = Prefer.ANY,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
    seed: int = 0,
) -> Partition:
    """Solve :func:`build_partition_model` (the unstrengthened reference); with a preference,
    a second solve fixes the count to the optimum and optimises the preference."""
    from ortools.sat.python import cp_model

    mask = _hand_mask(hand)
    model, plays = build_partition_model(mask)
    solver = _solver(time_limit, workers, seed)
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return _fallback(mask, "plain", count_lower_bound(mask.bit_count()))
    optimal = status == cp_model.OPTIMAL
    bound = round(solver.best_objective_bound)
    chosen = [play for play, var in plays if solver.boolean_value(var)]
    if prefer is not Prefer.ANY and optimal:
        count = sum(var for _, var in plays)
        weight = sum(_play_weight(play.kind, prefer) * var for play, var in plays)
        variables = [var for _, var in plays]
        if _resolve_by_preference(model, solver, variables, count, len(chosen), weight):
            chosen = [play for play, var in plays if solver.boolean_value(var)]
    return Partition(len(chosen), _sorted_plays(chosen), optimal, bound, "plain")


def _resolve_by_preference(
    model: Any, solver: Any, variables: list[Any], count: Any, best: int, weight: Any
) -> bool:
    """The second solve of a preference: keep the proven count ``best``, minimise ``weight``,
    starting from the first solution.  False when it finds nothing in time, in which case the
    first optimal partition (still in the caller's hands) stands."""
    from ortools.sat.python import cp_model

    for var in variables:
        model.add_hint(var, solver.value(var))
    model.add(count == best)
    model.minimize(weight)
    return solver.solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def _play_weight(kind: PlayKind, prefer: Prefer) -> int:
    """A play's weight in a linear objective that ranks partitions like :func:`preference_key`."""
    if prefer is Prefer.FEWEST_SINGLES:
        return int(kind is PlayKind.SINGLE)
    if kind is PlayKind.SINGLE:
        return 0
    return -int(_BASE ** (len(_STRENGTH_ORDER) - 1 - _STRENGTH_ORDER.index(kind)))


def _fallback(mask: CardSet, method: str, bound: int) -> Partition:
    """Only small plays: what a solver that found nothing in time can still offer."""
    plays = _sorted_plays(_small_plays(mask, Prefer.ANY))
    return Partition(len(plays), plays, len(plays) == bound, bound, method)


_BASE = 16  # more than any kind's count in a partition, so weights compare lexicographically


@dataclass(frozen=True)
class StrongModel:
    """The strengthened model and its variables (poker ranks 0..12, suits 0..3).

    ``in_flush[card]`` puts a card in some flush of its suit (``flushes[suit]`` of them);
    ``straights[window]``, ``full_houses[(triple rank, pair rank)]`` and
    ``fours[(quad rank, kicker rank)]`` count plays that need ranks, not particular cards;
    ``left[(rank, n)]`` says ``n`` cards of the rank are played as singles, pairs, triples;
    ``straight_flushes[(suit, window)]`` exist only when preferring strong plays.
    """

    model: Any
    count: Any
    in_flush: dict[Card, Any]
    flushes: dict[int, Any]
    straight_flushes: dict[tuple[int, int], Any]
    straights: dict[int, Any]
    full_houses: dict[tuple[int, int], Any]
    fours: dict[tuple[int, int], Any]
    left: dict[tuple[int, int], Any]


def build_strong_model(hand: CardSet | Iterable[Card], prefer: Prefer = Prefer.ANY) -> StrongModel:
    """The strengthened model: interchangeable plays counted, the count bounded below.

    Minimises the number of plays, which is at least :func:`count_lower_bound` of the hand size.
    """
    from ortools.sat.python import cp_model

    mask = _hand_mask(hand)
    model = cp_model.CpModel()
    counts = [(mask >> (4 * rank) & 15).bit_count() for rank in range(13)]
    # Cards of each rank each kind of play takes; the sums must use every card exactly once.
    uses: list[list[Any]] = [[] for _ in range(13)]

    in_flush: dict[Card, Any] = {}
    flushes: dict[int, Any] = {}
    for suit in range(4):
        suited = [card for card in cards_of(mask) if card & 3 == suit]
        if len(suited) < 5:
            continue
        for card in suited:
            in_flush[card] = model.new_bool_var(f"{card} in a flush")
            uses[card >> 2].append(in_flush[card])
        flushes[suit] = model.new_int_var(0, len(suited) // 5, f"flushes in suit {suit}")
        model.add(sum(in_flush[card] for card in suited) == 5 * flushes[suit])

    straight_flushes: dict[tuple[int, int], Any] = {}
    if prefer is Prefer.STRONGEST:
        for suit in flushes:
            for index, ranks in enumerate(STRAIGHT_RANKS):
                cards = [rank * 4 + suit for rank in ranks]
                if all(mask >> card & 1 for card in cards):
                    var = model.new_bool_var(f"straight flush {index} in suit {suit}")
                    straight_flushes[suit, index] = var
                    for card in cards:
                        uses[card >> 2].append(var)
        for card, var in in_flush.items():
            holders = [
                sf
                for (suit, i), sf in straight_flushes.items()
                if card & 3 == suit and card >> 2 in STRAIGHT_RANKS[i]
            ]
            model.add(var + sum(holders) <= 1)

    straights: dict[int, Any] = {}
    for index, ranks in enumerate(STRAIGHT_RANKS):
        most = min(counts[rank] for rank in ranks)
        if most:
            straights[index] = model.new_int_var(0, most, f"straights {index}")
            for rank in ranks:
                uses[rank].append(straights[index])

    full_houses: dict[tuple[int, int], Any] = {}
    fours: dict[tuple[int, int], Any] = {}
    for high, low in itertools.permutations(range(13), 2):
        if counts[high] >= 3 and counts[low] >= 2:
            var = model.new_bool_var(f"full house {high} over {low}")
            full_houses[high, low] = var
            uses[high].append(3 * var)
            uses[low].append(2 * var)
        if counts[high] == 4 and counts[low] >= 1:
            var = model.new_bool_var(f"four {high} with {low}")
            fours[high, low] = var
            uses[high].append(4 * var)
            uses[low].append(var)

    left: dict[tuple[int, int], Any] = {}
    for rank in range(13):
        if not counts[rank]:
            continue
        options = [model.new_bool_var(f"{n} of rank {rank} left") for n in range(counts[rank] + 1)]
        model.add_exactly_one(options)
        for n, var in enumerate(options):
            left[rank, n] = var
            uses[rank].append(n * var)
        model.add(sum(uses[rank]) == counts[rank])

    count = (
        sum(flushes.values())
        + sum(straight_flushes.values())
        + sum(straights.values())
        + sum(full_houses.values())
        + sum(fours.values())
        + sum(_EXTRA_PLAYS[n] * var for (_, n), var in left.items())
    )
    model.add(count >= plays_lower_bound(mask))
    model.minimize(count)
    return StrongModel(
        model, count, in_flush, flushes, straight_flushes, straights, full_houses, fours, left
    )


def _preference_objective(strong: StrongModel, prefer: Prefer) -> Any:
    """A linear objective to minimise that ranks optimal partitions like :func:`preference_key`."""
    singles = sum(var for (_, n), var in strong.left.items() if n == 1)
    if prefer is Prefer.FEWEST_SINGLES:
        return singles
    # Four cards left play as triple + single when preferring strength.
    per_kind = [
        sum(strong.straight_flushes.values()),
        sum(strong.fours.values()),
        sum(strong.full_houses.values()),
        sum(strong.flushes.values()),
        sum(strong.straights.values()),
        sum(var for (_, n), var in strong.left.items() if n >= 3),
        sum(var for (_, n), var in strong.left.items() if n == 2),
    ]
    return -sum(_BASE ** (len(per_kind) - 1 - i) * expr for i, expr in enumerate(per_kind))


def _strong_plays(mask: CardSet, strong: StrongModel, solver: Any, prefer: Prefer) -> list[Play]:
    """Turn counts into concrete plays: every choice of cards within a rank works."""
    value = solver.value
    pool = [
        sorted(cards_of(mask & (15 << (4 * rank))), key=big2_card_key, reverse=True)
        for rank in range(13)
    ]
    groups: list[list[Card]] = []
    for (suit, index), var in strong.straight_flushes.items():
        if value(var):
            groups.append([rank * 4 + suit for rank in STRAIGHT_RANKS[index]])
    for suit in strong.flushes:
        chosen = [card for card, var in strong.in_flush.items() if card & 3 == suit and value(var)]
        groups.extend(chosen[i : i + 5] for i in range(0, len(chosen), 5))
    for group in groups:
        for card in group:
            pool[card >> 2].remove(card)
    wanted: list[list[tuple[int, int]]] = []
    for index, var in strong.straights.items():
        wanted += [[(rank, 1) for rank in STRAIGHT_RANKS[index]]] * value(var)
    for (high, low), var in strong.full_houses.items():
        wanted += [[(high, 3), (low, 2)]] * value(var)
    for (high, low), var in strong.fours.items():
        wanted += [[(high, 4), (low, 1)]] * value(var)
    for need in wanted:
        groups.append([pool[rank].pop() for rank, n in need for _ in range(n)])
    plays = [Play.from_cards(group) for group in groups]
    rest = mask
    for play in plays:
        rest ^= play.mask
    return plays + _small_plays(rest, prefer)


def solve_strong_model(
    hand: CardSet | Iterable[Card],
    *,
    prefer: Prefer = Prefer.ANY,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
    seed: int = 0,
) -> Partition:
    """Solve :func:`build_strong_model`; with a preference, a second solve fixes the count to
    the optimum and optimises the preference."""
    from ortools.sat.python import cp_model

    mask = _hand_mask(hand)
    strong = build_strong_model(mask, prefer)
    solver = _solver(time_limit, workers, seed)
    status = solver.solve(strong.model)
    bound = plays_lower_bound(mask)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return _fallback(mask, "cp-sat", bound)
    optimal = status == cp_model.OPTIMAL
    best = round(solver.objective_value)
    bound = max(bound, round(solver.best_objective_bound))
    plays = _sorted_plays(_strong_plays(mask, strong, solver, prefer))
    if prefer is not Prefer.ANY and optimal:
        weight = _preference_objective(strong, prefer)
        variables = list(_all_vars(strong))
        if _resolve_by_preference(strong.model, solver, variables, strong.count, best, weight):
            plays = _sorted_plays(_strong_plays(mask, strong, solver, prefer))
    return Partition(len(plays), plays, optimal, bound, "cp-sat")


def _all_vars(strong: StrongModel) -> Iterator[Any]:
    for group in (
        strong.in_flush,
        strong.flushes,
        strong.straight_flushes,
        strong.straights,
        strong.full_houses,
        strong.fours,
        strong.left,
    ):
        yield from group.values()


# --- the public entry points ----------------------------------------------------------------


def fewest_plays(
    hand: CardSet | Iterable[Card],
    *,
    prefer: Prefer = Prefer.ANY,
    method: Method = Method.AUTO,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
    seed: int = 0,
) -> Partition:
    """Partition ``hand`` (a card mask or a collection of cards) into the fewest legal plays.

    ``method`` AUTO uses the exact search up to :data:`EXACT_MAX_CARDS` cards and the
    strengthened CP-SAT model above; ``time_limit``, ``workers`` and ``seed`` go to CP-SAT, and
    a time limit that stops it early gives the best partition found with ``optimal=False``.
    Plays are sorted (biggest first) and so are the cards in each, so the result is
    deterministic.  This is the function the golf verifier calls.

    >>> fewest_plays(parse_cards("AS 4H 6D 8C 7C 3S 5H 8D 4C 2S 0C AD AH")).count
    5
    """
    mask = _hand_mask(hand)
    if not mask:
        return Partition(0, (), True, 0, "exact")
    if method is Method.EXACT or (method is Method.AUTO and mask.bit_count() <= EXACT_MAX_CARDS):
        return exact_search(mask, prefer)
    if method is Method.PLAIN:
        return solve_partition_model(
            mask, prefer=prefer, time_limit=time_limit, workers=workers, seed=seed
        )
    return solve_strong_model(
        mask, prefer=prefer, time_limit=time_limit, workers=workers, seed=seed
    )


def all_optimal(
    hand: CardSet | Iterable[Card],
    *,
    limit: int = 100,
    time_limit: float = DEFAULT_TIME_LIMIT,
    workers: int = 1,
    seed: int = 0,
) -> Enumeration:
    """Every partition of ``hand`` into the fewest plays, listing at most ``limit`` of them.

    Up to :data:`EXACT_MAX_CARDS` cards the exact search counts them all (``complete``);
    larger hands enumerate with the plain CP-SAT model fixed to the optimal count and stop at
    ``limit`` or the time limit.

    >>> found = all_optimal(parse_cards("3c 3d 3h 3s"))
    >>> found.best, found.count, found.complete
    (2, 7, True)
    """
    mask = _hand_mask(hand)
    if mask.bit_count() <= EXACT_MAX_CARDS:
        return _all_exact(mask, limit)
    return _all_cpsat(mask, limit, time_limit, workers, seed)


def _all_exact(mask: CardSet, limit: int) -> Enumeration:
    best, sets = _optimal_five_sets(mask, collect_all=True)
    total = 0
    listed: list[tuple[Play, ...]] = []
    for fives in sets:
        rest = mask
        for play in fives:
            rest ^= play
        choices = _rank_choices(rest)
        ways = 1
        for options in choices:
            ways *= len(options)
        total += ways
        if len(listed) >= limit:
            continue
        fixed = [Play(play, play_kind(play)) for play in fives]
        for combo in itertools.islice(itertools.product(*choices), limit - len(listed)):
            small = [Play.from_cards(group) for groups in combo for group in groups]
            listed.append(_sorted_plays(fixed + small))
    return Enumeration(best, total, True, tuple(listed))


def _all_cpsat(
    mask: CardSet, limit: int, time_limit: float, workers: int, seed: int
) -> Enumeration:
    from ortools.sat.python import cp_model

    best = fewest_plays(mask, time_limit=time_limit, workers=workers, seed=seed)
    model, plays = build_partition_model(mask, count=best.count)
    listed: list[tuple[Play, ...]] = []

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            listed.append(_sorted_plays(p for p, var in plays if self.boolean_value(var)))
            if len(listed) >= limit:
                self.stop_search()

    solver = _solver(time_limit, workers, seed)
    solver.parameters.enumerate_all_solutions = True
    status = solver.solve(model, Collect())
    complete = best.optimal and status == cp_model.OPTIMAL and len(listed) < limit
    return Enumeration(best.count, len(listed), complete, tuple(listed))


def check_answer(
    hand: CardSet | Iterable[Card],
    plays: Sequence[Iterable[Card]],
    *,
    notation: Notation | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    best: Partition | None = None,
) -> Check:
    """Judge a claimed answer: is it a partition of ``hand`` into legal plays, with fewest plays?

    ``plays`` is a sequence of plays, each a collection of cards (duplicates allowed, so they
    can be reported).  Problems name cards in ``notation`` (standard by default): cards not in
    the hand, cards played twice, cards missing, illegal plays and why, too many plays.
    This is the function the golf verifier calls.

    >>> hand = parse_cards("4D 4S 4H 4C 5H 5D 5C 5S 9S 9D 9H 9C AD")
    >>> check_answer(hand, [parse_cards("4D4S4H4CAD"), parse_cards("5D5H5C5S9S"),
    ...                     parse_cards("9D9H9C")]).optimal
    True
    >>> check_answer(hand, [parse_cards("4D4S4H4C"), parse_cards("AD 5D5H5C5S9S"),
    ...                     parse_cards("9D9H9C")]).problems[0]
    "play 1 '4d 4c 4h 4s' is not a play: no play has 4 cards"
    """
    notation = notation or Notation()
    mask = _hand_mask(hand)
    problems: list[str] = []
    seen: dict[Card, int] = {}
    for number, play in enumerate(plays, 1):
        cards = list(play)
        for card in cards:
            seen[card] = seen.get(card, 0) + 1
        if len(set(cards)) != len(cards):
            continue  # reported below as a card played twice
        try:
            play_kind(cards)
        except IllegalPlayError as error:
            reason = str(error).split(" is not a play: ", 1)[-1]
            shown = " ".join(notation.card_strings(sorted(cards, key=big2_card_key)))
            problems.append(f"play {number} {shown!r} is not a play: {reason}")
    for card in sorted(seen, key=big2_card_key):
        if not mask >> card & 1:
            problems.append(f"card {notation.format(card)} is not in the hand")
        elif seen[card] > 1:
            problems.append(f"card {notation.format(card)} is played {seen[card]} times")
    for card in sorted(cards_of(mask), key=big2_card_key):
        if card not in seen:
            problems.append(f"card {notation.format(card)} is missing")
    best = best or fewest_plays(mask, time_limit=time_limit)
    valid = not problems
    # A valid answer can never beat the proven bound, so reaching it proves it optimal.
    optimal = valid and len(plays) <= best.bound
    if valid and len(plays) > best.count:
        fewest = "the fewest is" if best.optimal else "there is a partition with"
        problems.append(f"{len(plays)} plays; {fewest} {best.count}")
    elif valid and not optimal:
        problems.append(f"could not prove {len(plays)} plays optimal within the time limit")
    return Check(valid, optimal, len(plays), best.count, tuple(problems))


def check_answer_text(
    hand: CardSet | Iterable[Card],
    answer: str,
    *,
    notation: Notation | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Check:
    """Judge an answer as written: optimal if *any* reading of its delimiters is an optimal
    partition (see :func:`~handsolver.models.big2.answer_readings`); otherwise the verdict on the
    first reading whose tokens are all cards.  The golf verifier and ``big2 check`` both use it.

    >>> hand = parse_cards("AS,4H,6D,8C,7C,3S,5H,8D,4C,2S,0C,AD,AH")
    >>> check_answer_text(hand, "ASAHAD8D8C, 2S3S4H5H6D, 4C, 7C, 0C").optimal
    True
    >>> check_answer_text(hand, "(AS AH AD 8D 8C) (2S 3S 4H 5H 6D) (4C) (7C) (0C)").optimal
    True

    :raises InputError: when no reading consists of cards only.
    """
    mask = _hand_mask(hand)
    best = fewest_plays(mask, time_limit=time_limit)
    first: Check | None = None
    first_error: InputError | None = None
    for chunks in answer_readings(answer):
        try:
            plays = [cards for chunk in chunks if (cards := parse_cards(chunk))]
        except InputError as error:
            first_error = first_error or error
            continue
        if not plays:
            continue
        verdict = check_answer(mask, plays, notation=notation, time_limit=time_limit, best=best)
        if verdict.optimal:
            return verdict
        first = first or verdict
    if first is None:
        raise first_error or InputError("the answer has no plays")
    return first
