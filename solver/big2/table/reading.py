"""What the opponents' turns tell about their hands, read as the ``greedy`` program's.

``greedy`` (:mod:`.strategies`) answers a play with the lowest play of its size that beats it
and passes only when none does, leads the lowest play of the most cards, and opens a deal the
same way among the plays that hold the lowest card.  Its move is a function of the hand it
holds, so each turn of a greedy seat is a fact about its hand.  A seat only loses cards: the
hand it held at a turn is the hand it holds now and the cards it played at that turn or later.
A hand *fits* a seat's turns when greedy, holding at each turn the hand so made, makes every
move the seat made; :meth:`Reading.misfits` counts the turns it does not:

* a pass on a single, a pair or a triple: no higher play of that kind was held; a reply: none
  between the play beaten and its own;
* the same on a play of five cards, among the plays of five cards;
* a lead: no play of more cards, nor a lower one of its size (at the deal's first play, among
  the plays that hold the lowest card; where the deal opens with the lowest card alone, that
  first play is forced and tells nothing);
* on a single two where the rules have bombs, or a dragon led: greedy replayed on the hand.

Plays of five cards of equal strength (straights of one top card) are not told apart: which of
them greedy takes depends only on the order it lists them in.  A seat is read only while its
turns agree with greedy on the cards it is known to have held (those it played later; more
cards only add plays greedy would rather make): a seat seen to break the rule (a pass on a
single followed by a higher single, a single led while holding a pair it played later) is
taken to play otherwise, and nothing is read of it.

:func:`fitted_deals` moves the cards of sampled deals about until each read hand fits, as far
as a few hundred swaps get: a local search, so the deals are near uniform among those that fit,
not exactly uniform.  A seat whose turns it cannot fit in most deals is taken not to play
greedy either (a random player's turns seldom fit any hand), and is not read.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from handsolver.models.big2 import (
    ONE_RANK_KINDS,
    Play,
    Rules,
    dragon_masks,
    five_card_masks,
    has_five_card_play,
    play_kind,
)
from handsolver.models.big2_order import KIND_STEP, lowest_card, play_strength
from handsolver.models.cards import CardSet, cards_of
from handsolver.solver.big2.game.state import DEUCE_KEY
from handsolver.solver.big2.table.playout import HandPlays, greedy_choice
from handsolver.solver.big2.table.views import TableView

__all__ = [
    "FIT_STEPS",
    "MISFIT_SHARE",
    "Reading",
    "fitted_deals",
    "greedy_readings",
]

FIT_STEPS = 300
"""Swaps tried per deal by :func:`fitted_deals`, at most."""
FIT_STALL = 40
"""Swaps tried without a turn fewer misfit before :func:`fitted_deals` gives a deal up."""
MISFIT_SHARE = 0.5
"""A read seat whose hand misfits in more of the fitted deals than this share is taken not to
play greedy (:func:`fitted_deals`)."""

_ABOVE_ALL = 1 << 30  # above every strength


class _Window(NamedTuple):
    """No play of five cards holding ``must`` with a strength strictly between ``low`` and
    ``high`` (and, on a ``lead``, no dragon)."""

    low: int
    high: int
    must: CardSet
    lead: bool


class _Turn(NamedTuple):
    """One turn of a seat: the cards it played at this turn or later (it held them then); the
    singles it did not hold and, for each rank with plays of one rank ruled out, how many of
    them each set of the rank's four cards holds; the plays of five cards it did not hold; and
    where none of those decides the turn, the turn to replay greedy on, as (size and strength
    of the play faced, the card a first play holds, the play made)."""

    later: CardSet
    singles: CardSet = 0
    by_rank: tuple[tuple[int, tuple[int, ...]], ...] = ()
    window: _Window | None = None
    replay: tuple[int, int, CardSet, CardSet] | None = None


class Reading(NamedTuple):
    """A seat's turns read as greedy's, under ``rules``."""

    turns: tuple[_Turn, ...]
    rules: Rules

    def misfits(self, hand: CardSet, most: int = _ABOVE_ALL) -> int:
        """How many of the seat's turns greedy would have made otherwise holding ``hand`` now,
        counted up to ``most`` + 1."""
        count = 0
        for turn in self.turns:
            if _preferred(turn, hand, self.rules, False):
                count += 1
                if count > most:
                    break
        return count

    def culprits(self, hand: CardSet) -> CardSet:
        """Cards of ``hand`` that make the first turn it misfits go otherwise (the cards of a
        play greedy would rather have made), or 0 where it fits."""
        for turn in self.turns:
            cards = _preferred(turn, hand, self.rules, True)
            if cards:
                return cards & hand or hand
        return 0


def _preferred(turn: _Turn, hand: CardSet, rules: Rules, cards: bool) -> CardSet:
    """Nonzero where greedy, holding ``hand`` and the turn's later cards, would have made
    another move than the turn's; with ``cards``, the cards that say so (a play greedy would
    rather have made, or the cards of ranks it would rather have played)."""
    held = hand | turn.later
    if turn.replay is not None:
        size, strength, must, made = turn.replay
        play = greedy_choice(_plays(held, rules), held, size, strength, 0, must)
        chosen = 0 if play is None else play[0]
        return 0 if chosen == made else chosen or held
    bad = held & turn.singles
    for rank, ruled_out in turn.by_rank:
        if ruled_out[held >> (4 * rank) & 15]:
            bad |= held & 15 << (4 * rank)
            if not cards:
                return bad
    if bad or turn.window is None:
        return bad
    low, high, must, lead = turn.window
    if not has_five_card_play(held, rules):
        return 0
    if low < 0 and high == _ABOVE_ALL and not must and not cards:
        return held  # any play of five cards (a dragon holds one) would have gone first
    if lead and rules.dragon and next(dragon_masks(held), 0):
        return held
    order = rules.five_card_order
    kinds = order[max(low, 0) // KIND_STEP : min(high, _ABOVE_ALL - 1) // KIND_STEP + 1]
    for mask in five_card_masks(held, rules, kinds):
        if mask & must == must and low < _five_strength(mask, rules) < high:
            return mask
    return 0


# The strength of each play of five cards met, per rules: the same plays recur across hands.
_FIVE_STRENGTHS: dict[Rules, dict[CardSet, int]] = {}


def _five_strength(mask: CardSet, rules: Rules) -> int:
    strengths = _FIVE_STRENGTHS.setdefault(rules, {})
    strength = strengths.get(mask)
    if strength is None:
        if len(strengths) > 1 << 17:  # bounded: a long tournament meets many
            strengths.clear()
        strength = strengths[mask] = play_strength(Play(mask, play_kind(mask, rules)), rules)
    return strength


@lru_cache(maxsize=1 << 10)
def _plays(hand: CardSet, rules: Rules) -> HandPlays:
    # Its own cache: the hands read here would crowd out the playouts' cache.
    return HandPlays(hand, rules)


@lru_cache(maxsize=16)
def _one_rank(rules: Rules, size: int) -> tuple[tuple[CardSet, int], ...]:
    """Every play of ``size`` cards of one rank (2, 3 or 4) as (mask, strength)."""
    kind = ONE_RANK_KINDS[size]
    plays = []
    for rank in range(13):
        for cards in combinations(range(rank * 4, rank * 4 + 4), size):
            mask = sum(1 << card for card in cards)
            plays.append((mask, play_strength(Play(mask, kind), rules)))
    return tuple(plays)


def _singles(rules: Rules, low: int, high: int) -> CardSet:
    """The cards whose keys lie strictly between ``low`` and ``high``."""
    return sum(1 << card for card, key in enumerate(rules.card_keys) if low < key < high)


def _by_rank(sets: set[CardSet]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The plays of one rank ``sets`` as a table per rank (see :class:`_Turn`)."""
    by_rank = []
    for rank in range(13):
        nibbles = [m >> (4 * rank) & 15 for m in sets if m >> (4 * rank) & 15]
        if nibbles:
            held = tuple(sum(n & cards == n for n in nibbles) for cards in range(16))
            by_rank.append((rank, held))
    return tuple(by_rank)


def _turn(
    later: CardSet, move: Play | None, facing: Play | None, must: CardSet, rules: Rules
) -> _Turn:
    """The turn ``move`` (None: a pass) on the play ``facing`` (None on a lead) as facts (see
    the module); ``must`` holds the lowest card at a deal's first play."""
    # Where two pair alone is a play, plays of four cards are replayed, not read by rank.
    small = tuple(size for size in rules.small_sizes if size != 4 or not rules.two_pair_alone)
    made = 0 if move is None else move.mask
    made_strength = _ABOVE_ALL if move is None else play_strength(move, rules)
    if facing is None:
        assert move is not None
        size = move.kind.size
        if size == 5:
            return _Turn(later, window=_Window(-1, made_strength, must, True))
        # Where two pair alone is a play, a lead of fewer cards says no two pair was held.
        if size not in small or rules.two_pair_alone:
            return _Turn(later, replay=(0, 0, must, made))
        singles = _singles(rules, -1, made_strength) if size == 1 else 0
        sets = {m for m, s in _one_rank(rules, size) if s < made_strength} if size > 1 else set()
        larger = [more for more in small if more > size]
        if larger:  # a play of one rank with more cards holds one of the next size
            sets.update(m for m, _ in _one_rank(rules, min(larger)))
        sets = {m for m in sets if m & must == must}
        return _Turn(later, singles, _by_rank(sets), _Window(-1, _ABOVE_ALL, must, True))
    size = facing.kind.size
    floor = play_strength(facing, rules)
    if size == 5:
        return _Turn(later, window=_Window(floor, made_strength, 0, False))
    if size not in small or (rules.bombs and size == 1 and floor >= DEUCE_KEY):
        return _Turn(later, replay=(size, floor, 0, made))
    if size == 1:
        return _Turn(later, _singles(rules, floor, made_strength))
    sets = {m for m, s in _one_rank(rules, size) if floor < s < made_strength}
    return _Turn(later, by_rank=_by_rank(sets))


def greedy_readings(view: TableView, opponents: list[int]) -> tuple[Reading | None, ...]:
    """Per seat of ``opponents``, its turns read as greedy's (see the module), or None where a
    turn of it is known to break the rule."""
    rules = view.rules
    history = view.history
    # The cards each seat played at or after each turn: at that turn it held them all.
    later = [0] * len(history)
    held: dict[int, CardSet] = {}
    for index in range(len(history) - 1, -1, -1):
        seat, move = history[index]
        held[seat] = held.get(seat, 0) | (0 if move is None else move.mask)
        later[index] = held[seat]
    turns: dict[int, list[_Turn]] = {seat: [] for seat in opponents}
    broken: set[int] = set()
    last: Play | None = None
    by = -1
    for index, (seat, move) in enumerate(history):
        forced = index == 0 and rules.open_alone  # the lowest card alone tells nothing
        if seat in turns and seat not in broken and not forced:
            must = 0
            if index == 0:
                assert move is not None  # a deal's first play is never a pass
                must = 1 << lowest_card(move.mask, rules)
            turn = _turn(later[index], move, None if by == seat else last, must, rules)
            if _preferred(turn, 0, rules, False):
                broken.add(seat)
            else:
                turns[seat].append(turn)
        if move is not None:
            last, by = move, seat
    # The turns masks decide come first: a count stopped early skips the costly ones.
    return tuple(
        None if seat in broken else Reading(tuple(sorted(turns[seat], key=_cost_rank)), rules)
        for seat in opponents
    )


def _cost_rank(turn: _Turn) -> int:
    return 2 if turn.replay is not None else 1 if turn.window is not None else 0


def fitted_deals(
    deals: list[tuple[CardSet, ...]],
    readings: tuple[Reading | None, ...],
    undealt: list[CardSet],
    seed: int,
) -> list[tuple[CardSet, ...]]:
    """The ``deals`` (opponents' hands, ``undealt[i]`` the cards deal ``i`` left out) with
    cards swapped between hands, and with the undealt cards, until every read hand fits its
    reading, :data:`FIT_STEPS` swaps have been tried, or :data:`FIT_STALL` in a row have left
    as many turns misfit.  A swap gives away a card that made a turn misfit
    (:meth:`Reading.culprits`) for a card of another hand, and is kept when the two hands
    misfit no more turns than before.

    The turns of a seat read as greedy may fit no hand: it may not play greedy.  A seat whose
    hand still misfits in more than :data:`MISFIT_SHARE` of the deals is taken not to, and
    the deals are fitted again without its reading.  The same seed gives the same deals."""
    read = list(readings)
    while True:
        rng = random.Random(seed)
        fitted = [
            _fitted([*deal, rest], [*read, None], rng)
            for deal, rest in zip(deals, undealt, strict=True)
        ]
        implausible = [
            seat
            for seat in range(len(read))
            if sum(costs[seat] > 0 for _, costs in fitted) > MISFIT_SHARE * len(fitted)
        ]
        if not implausible:
            return [tuple(hands[:-1]) for hands, _ in fitted]
        for seat in implausible:
            read[seat] = None


def _fitted(
    hands: list[CardSet], read: list[Reading | None], rng: random.Random
) -> tuple[list[CardSet], list[int]]:
    """``hands`` (the last the undealt cards) after the local search of :func:`fitted_deals`,
    and the turns each still misfits."""
    costs = [_cost(r, h) for r, h in zip(read, hands, strict=True)]
    best, stall = sum(costs), 0
    for _ in range(FIT_STEPS):
        wrong = [seat for seat, cost in enumerate(costs) if cost]
        if not wrong or stall == FIT_STALL:
            break
        seat = rng.choice(wrong)
        others = [other for other in range(len(hands)) if other != seat and hands[other]]
        if not others:
            break
        other = rng.choice(others)
        reading = read[seat]
        assert reading is not None
        give = rng.choice(cards_of(reading.culprits(hands[seat])))
        take = rng.choice(cards_of(hands[other]))
        mine = hands[seat] ^ (1 << give) ^ (1 << take)
        theirs = hands[other] ^ (1 << take) ^ (1 << give)
        allowed = costs[seat] + costs[other]
        cost_mine = reading.misfits(mine, allowed)
        cost_theirs = _cost(read[other], theirs, allowed - cost_mine)
        if cost_mine + cost_theirs <= allowed:
            hands[seat], hands[other] = mine, theirs
            costs[seat], costs[other] = cost_mine, cost_theirs
        stall += 1
        if sum(costs) < best:
            best, stall = sum(costs), 0
    return hands, costs


def _cost(reading: Reading | None, hand: CardSet, most: int = _ABOVE_ALL) -> int:
    return 0 if reading is None or most < 0 else reading.misfits(hand, most)
