"""The count of one-rank plays a set of cards needs, and lower bounds on the plays of a whole
hand (what the play sizes of the rules allow).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from handsolver.models.big2 import SEED_RULES, Rules
from handsolver.models.cards import CardSet

_NIBBLES_1 = int("1" * 13, 16)
_NIBBLES_3 = _NIBBLES_1 * 3
_NIBBLES_5 = _NIBBLES_1 * 5


def _rank_counts(rest: CardSet) -> int:
    """The number of cards of each rank, one count per nibble."""
    x = rest - ((rest >> 1) & _NIBBLES_5)
    return (x & _NIBBLES_3) + ((x >> 2) & _NIBBLES_3)


@dataclass(frozen=True)
class PlayBounds:
    """The counting of :func:`small_plays_needed` and :func:`fewest_with_fives` for one set of
    rules, with its tables looked up once (the exact search calls these at every node)."""

    extra_three: int
    extra_four: int
    cost: tuple[int, ...]
    items: tuple[tuple[int, ...], ...]
    least_size: int = 5
    """The fewest cards a play of several ranks holds (4 where two pair alone is a play)."""

    def small(self, rest: CardSet) -> int:
        """See :func:`small_plays_needed`."""
        x = _rank_counts(rest)
        # Every rank present costs one play; three and four cards may cost one more.
        plays = ((x | x >> 1 | x >> 2) & _NIBBLES_1).bit_count()
        if self.extra_four:
            plays += ((x >> 2) & _NIBBLES_1).bit_count()
        if self.extra_three:
            plays += (x & (x >> 1) & _NIBBLES_1).bit_count()
        return plays

    def with_fives(self, rest: CardSet, least: int, size: int = 5) -> int:
        """See :func:`fewest_with_fives`."""
        x = _rank_counts(rest)
        low, mid, high = x & _NIBBLES_1, (x >> 1) & _NIBBLES_1, (x >> 2) & _NIBBLES_1
        ranks = (
            0,
            (low & ~mid).bit_count(),
            (mid & ~low).bit_count(),
            (low & mid).bit_count(),
            high.bit_count(),
        )
        items = [0, 0, 0, 0, 0]
        small = 0
        for count in (1, 2, 3, 4):
            n = ranks[count]
            if n:
                small += n * self.cost[count]
                for item in self.items[count]:
                    items[item] += n
        cards = rest.bit_count()
        best = small if least == 0 else cards
        for plays in range(max(least, 1), cards // self.least_size + 1):
            budget = size * plays
            saved = 0
            for item in (1, 2, 3, 4):
                if items[item]:
                    taken = min(budget // item, items[item])
                    saved += taken
                    budget -= taken * item
            best = min(best, plays + small - saved)
        return best


@cache
def play_bounds(rules: Rules) -> PlayBounds:
    """The bounds of ``rules`` (cached: fetch once per search, not per node)."""
    cost = rules.small_cost
    least_size = 4 if rules.two_pair_alone else 5
    return PlayBounds(cost[3] - 1, cost[4] - 1, cost, saving_items(rules), least_size)


def small_plays_needed(rest: CardSet, rules: Rules = SEED_RULES) -> int:
    """The fewest one-rank plays (singles, pairs, triples, four alone) that play ``rest``.

    That is the sum over ranks of ``rules.small_cost`` of the rank's count: ``ceil(c / 3)``
    under the seed's rules.

    >>> from handsolver.models.cards import mask_of, parse_cards
    >>> small_plays_needed(mask_of(parse_cards("3c 3d 3h 3s 4c 5c 5d")))
    4
    >>> from handsolver.models.big2 import make_rules
    >>> small_plays_needed(mask_of(parse_cards("3c 3d 3h 3s 4c 5c 5d")), make_rules(quads="alone"))
    3
    """
    return play_bounds(rules).small(rest)


@cache
def saving_items(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Per rank count ``c`` (0..4), the sizes of the "items" taking cards out of that rank
    saves: ``k`` cards taken save at most as many one-rank plays as the smallest items that
    fit in ``k`` (each item saves one).

    >>> saving_items(SEED_RULES)
    ((), (1,), (2,), (3,), (1, 3))
    """
    cost = rules.small_cost
    table: list[tuple[int, ...]] = []
    for count in range(5):
        # best[k]: the most plays that taking k of the count cards can save.
        best = [max(cost[count] - cost[count - j] for j in range(k + 1)) for k in range(count + 1)]
        sizes, last = [], 0
        for saved in range(1, best[count] + 1):
            at = next(k for k in range(count + 1) if best[k] >= saved)
            sizes.append(at - last)
            last = at
        table.append(tuple(sorted(sizes)))
    return tuple(table)


def fewest_with_fives(rest: CardSet, least: int, rules: Rules = SEED_RULES, size: int = 5) -> int:
    """A lower bound on the plays for ``rest`` when at least ``least`` of them take several
    ranks (five-card plays or two pair alone, at most ``size`` cards each; 13 where a dragon
    may come).

    Relax those plays to "any ``size`` cards": taking cards out of the one-rank plays saves at
    most one play per item of :func:`saving_items`, and the smallest items go first.  Under
    the seed's rules that is one play per card from ranks holding one card (or the first card
    of four), one per two cards from ranks of two, one per three from ranks of three.
    """
    return play_bounds(rules).with_fives(rest, least, size)


def plays_lower_bound(hand: CardSet, rules: Rules = SEED_RULES) -> int:
    """A lower bound on the fewest plays for ``hand`` from its rank counts and size alone.

    >>> from handsolver.models.cards import mask_of, parse_cards
    >>> spades = mask_of(parse_cards("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"))
    >>> count_lower_bound(13), plays_lower_bound(spades)
    (3, 5)
    """
    size = 13 if rules.dragon else 5
    return max(count_lower_bound(hand.bit_count(), rules), fewest_with_fives(hand, 0, rules, size))


def count_lower_bound(cards: int, rules: Rules = SEED_RULES) -> int:
    """The fewest plays that can hold ``cards`` cards, given the play sizes of the rules.

    Under the seed's rules plays have 1, 2, 3 or 5 cards: five-card plays take ``cards // 5``
    plays; a remainder of 1, 2 or 3 takes one more play and a remainder of 4 two more.

    >>> [count_lower_bound(n) for n in (13, 39, 52)]
    [3, 9, 11]
    """
    return rules.fewest_plays_by_size[cards]
