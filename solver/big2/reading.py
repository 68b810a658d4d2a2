"""What the opponents' turns tell about their hands, read as the ``greedy`` program's.

``greedy`` (:mod:`.strategies`) answers a play with the lowest play of its size that beats it
and passes only when none does, and leads the lowest play of the most cards.  A seat only loses
cards, so what it did not hold at a turn it does not hold now.  From each turn of an opponent
after the deal's first play, singles and plays of one rank are read:

* a pass on a single, a pair, a triple (or four of a kind alone): it held no higher play of
  that kind;
* a reply of one of those: none of its kind between the play beaten and its own;
* a lead of one of those: no lower play of its kind, no play of one rank with more cards, and
  no straight or flush (the plays of more cards are led first).

Nothing is read of turns on five-card plays, of the deal's first play (which must hold the
lowest card), or under rules with bombs.  A seat is read only while what it did agrees with
greedy on the cards it is known to have held (those it played later): a seat seen to break the
rule (a pass on a single followed by a higher single, a single led while holding a pair it
played later) is taken to play otherwise, and nothing is read of it.

:func:`fitted_deals` moves the cards of sampled deals about until each read seat holds nothing
it cannot hold, as far as a few hundred swaps get: a local search, so the deals are near
uniform among those that agree with the reading, not exactly uniform.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from handsolver.models.big2 import ONE_RANK_KINDS, Play, Rules
from handsolver.models.big2_order import play_strength
from handsolver.models.cards import CardSet, cards_of
from handsolver.solver.big2.table import TableView

__all__ = ["FIT_STEPS", "Reading", "fitted_deals", "greedy_readings"]

FULL_DECK: CardSet = (1 << 52) - 1
FIT_STEPS = 300
"""Swaps tried per deal by :func:`fitted_deals`, at most."""
FIT_STALL = 40
"""Swaps tried without a fact fewer broken before :func:`fitted_deals` gives a deal up."""


class Reading(NamedTuple):
    """The cards a seat may still hold, the plays of one rank (masks) it cannot hold, and the
    straights (as rank bits, :func:`_ranks`) and flush it cannot hold, where it has led a play
    of fewer cards (``straights`` empty and ``flush`` False otherwise).  ``by_rank`` lists, for
    each rank with plays ruled out, how many of them each set of its four cards holds."""

    allowed: CardSet
    sets: frozenset[CardSet]
    straights: tuple[CardSet, ...] = ()
    flush: bool = False
    by_rank: tuple[tuple[int, tuple[int, ...]], ...] = ()

    def misfits(self, hand: CardSet) -> int:
        """How many of the reading's facts ``hand`` breaks."""
        broken = (hand & ~self.allowed).bit_count()
        for rank, held in self.by_rank:
            broken += held[hand >> (4 * rank) & 15]
        if self.straights:
            ranks = _ranks(hand)
            broken += any(run & ranks == run for run in self.straights)
        if self.flush:
            broken += any((hand >> suit & _SUIT).bit_count() >= 5 for suit in range(4))
        return broken


_LOW_BITS = sum(1 << (4 * rank) for rank in range(13))
_SUIT = _LOW_BITS  # the cards of suit 0; shifted by the suit for the others


def _ranks(hand: CardSet) -> CardSet:
    """Bit 0 of each rank's nibble set where ``hand`` holds a card of that rank."""
    return (hand | hand >> 1 | hand >> 2 | hand >> 3) & _LOW_BITS


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


@lru_cache(maxsize=16)
def _straight_runs(rules: Rules) -> tuple[CardSet, ...]:
    return tuple(sum(1 << (4 * rank) for rank in run) for run in rules.straight_ranks)


def _singles(rules: Rules, low: int, high: int) -> CardSet:
    """The cards whose keys lie strictly between ``low`` and ``high``."""
    return sum(1 << card for card, key in enumerate(rules.card_keys) if low < key < high)


class _Told(NamedTuple):
    """What one greedy turn says the seat did not hold then: these singles (a mask) and plays
    of one rank, and (``five``) no straight and no flush."""

    singles: CardSet
    sets: frozenset[CardSet]
    five: bool = False


_NOTHING = _Told(0, frozenset())


def _told(move: Play | None, last: Play | None, lead: bool, rules: Rules) -> _Told:
    """What the turn ``move`` (None: a pass) says, on a lead or on the play ``last``."""
    if lead:
        assert move is not None
        size = move.kind.size
        if size not in rules.small_sizes:
            return _NOTHING
        strength = play_strength(move, rules)
        singles = _singles(rules, -1, strength) if size == 1 else 0
        sets = {m for m, s in _one_rank(rules, size) if s < strength} if size > 1 else set()
        larger = [more for more in rules.small_sizes if more > size]
        if larger:
            sets.update(m for m, _ in _one_rank(rules, min(larger)))
        return _Told(singles, frozenset(sets), True)
    assert last is not None
    size = last.kind.size
    if size not in rules.small_sizes:
        return _NOTHING
    floor = play_strength(last, rules)
    ceiling = 1 << 30 if move is None else play_strength(move, rules)
    if size == 1:
        return _Told(_singles(rules, floor, ceiling), frozenset())
    return _Told(0, frozenset(m for m, s in _one_rank(rules, size) if floor < s < ceiling))


def _reading(told: _Told, rules: Rules) -> Reading:
    """The facts of ``told`` as a reading, with its table of the plays of one rank ruled out
    (see :class:`Reading`)."""
    by_rank = []
    for rank in range(13):
        nibbles = [m >> (4 * rank) & 15 for m in told.sets if m >> (4 * rank) & 15]
        if nibbles:
            held = tuple(sum(n & cards == n for n in nibbles) for cards in range(16))
            by_rank.append((rank, held))
    straights = _straight_runs(rules) if told.five else ()
    flush = told.five and rules.flushes
    return Reading(FULL_DECK & ~told.singles, told.sets, straights, flush, tuple(by_rank))


def greedy_readings(view: TableView, opponents: list[int]) -> tuple[Reading | None, ...]:
    """Per seat of ``opponents``, what its turns tell if it plays ``greedy`` (see the module),
    or None where a turn of it is known to break the rule (or the rules have bombs)."""
    if view.rules.bombs:
        return tuple(None for _ in opponents)
    history = view.history
    # The cards each seat played at or after each turn: at that turn it held them all.
    later = [0] * len(history)
    held: dict[int, CardSet] = {}
    for index in range(len(history) - 1, -1, -1):
        seat, move = history[index]
        held[seat] = held.get(seat, 0) | (0 if move is None else move.mask)
        later[index] = held[seat]
    told: dict[int, _Told] = dict.fromkeys(opponents, _NOTHING)
    broken: set[int] = set()
    last: Play | None = None
    by = -1
    for index, (seat, move) in enumerate(history):
        if index and seat in told and seat not in broken:
            turn = _told(move, last, by == seat, view.rules)
            if _reading(turn, view.rules).misfits(later[index]):
                broken.add(seat)
            before = told[seat]
            told[seat] = _Told(
                before.singles | turn.singles, before.sets | turn.sets, before.five or turn.five
            )
        if move is not None:
            last, by = move, seat
    return tuple(None if seat in broken else _reading(told[seat], view.rules) for seat in opponents)


def fitted_deals(
    deals: list[tuple[CardSet, ...]],
    readings: tuple[Reading | None, ...],
    undealt: list[CardSet],
    seed: int,
) -> list[tuple[CardSet, ...]]:
    """The ``deals`` (opponents' hands, ``undealt[i]`` the cards deal ``i`` left out) with
    cards swapped between hands, and with the undealt cards, until every read hand fits its
    reading, :data:`FIT_STEPS` swaps have been tried, or :data:`FIT_STALL` in a row have left
    as many facts broken (the facts may not fit together: a seat read as greedy may not be
    one): a swap is kept when the two hands break no more facts than before.  The same seed
    gives the same deals."""
    rng = random.Random(seed)
    out = []
    for deal, rest in zip(deals, undealt, strict=True):
        hands = [*deal, rest]
        read = [*readings, None]
        costs = [0 if r is None else r.misfits(h) for r, h in zip(read, hands, strict=True)]
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
            give = rng.choice(cards_of(_misfit_cards(read[seat], hands[seat])))
            take = rng.choice(cards_of(hands[other]))
            mine = hands[seat] ^ (1 << give) ^ (1 << take)
            theirs = hands[other] ^ (1 << take) ^ (1 << give)
            cost_mine = _cost(read[seat], mine)
            cost_theirs = _cost(read[other], theirs)
            if cost_mine + cost_theirs <= costs[seat] + costs[other]:
                hands[seat], hands[other] = mine, theirs
                costs[seat], costs[other] = cost_mine, cost_theirs
            stall += 1
            if sum(costs) < best:
                best, stall = sum(costs), 0
        out.append(tuple(hands[:-1]))
    return out


def _misfit_cards(reading: Reading | None, hand: CardSet) -> CardSet:
    """The cards of ``hand`` that break its reading's facts."""
    assert reading is not None
    bad = hand & ~reading.allowed
    for held in reading.sets:
        if held & hand == held:
            bad |= held
    if not bad:  # a straight or a flush: any card may be the one to go
        bad = hand
    return bad


def _cost(reading: Reading | None, hand: CardSet) -> int:
    return 0 if reading is None else reading.misfits(hand)
