"""Pai Gow poker as a whole game, exactly: every player hand against every dealer hand.

Over the C(53,7) player hands and the C(46,7) dealer hands each leaves (8,250,459,031,214,400
pairs) it counts the player's wins, pushes and losses, for the player setting by the house way
and for the player setting every hand to its best EV, both against a dealer who sets by the
house way.  Never one pair at a time; the algorithm (docs/paigow.md, "The whole game"):

1. **Player hands by rank class and suit pattern.**  The 67,600 rank classes of seven cards
   (the joker apart) are the jobs.  Inside a class the hands are enumerated up to a permutation
   of the suits, each with its multiplicity (:func:`suit_patterns`): 6,972,147 hands instead
   of 154,143,080.
2. **The dealer without flushes, once per rank class.**  A dealer hand that cannot make a flush
   is set by its ranks, and from the 46 cards a player hand leaves there are
   ``prod_r C(4 - p_r, d_r)`` dealer hands of rank class ``d`` (``p`` the player's rank
   counts), whatever the player's suits.  The counts of dealer classes with high key below
   ``h`` and low key below ``l`` are read from cumulative sums grouped by low key.
3. **The dealer's flushes, once per rank class and suit mask.**  A dealer hand that can make a
   flush has one flush suit ``s``: its cards in ``s`` (a rank set ``F``), at most two cards of
   other suits and perhaps the joker.  Counted as above it sits at its rank class's result;
   the correction moves it to its flush class's result.  For a player hand, the correction of
   suit ``s`` depends only on the ranks the player holds in ``s`` (``m``: ``F`` must avoid
   them) and the player's other cards of the (at most two) other ranks.  So for each rank class
   the flush classes are binned once by (their other ranks among the player's, ``F`` within the
   player's ranks) and by where their two results fall among the class's query keys; a
   subset-sum over the player's ranks then gives the correction for every mask ``m`` at once.
4. **A hand's value** at a setting ``(h, l)`` is the no-flush count plus its four suits'
   corrections.  Best play needs only the settings that can be best: a correction moves at
   most the hand's flush dealer hands, so a setting more than twice that below the best
   no-flush value is never computed exactly (``prune=False`` computes every one).

All counts are Python ints or int64 sums bounded far below 2**63: one class contributes at most
16,384 hands times 53,524,680 dealer hands (< 2**40); EV numerators at most the commission's
denominator (<= 10**9) times 2 * 53,524,680 per hand (< 2**57).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, NamedTuple

from handsolver.models.paigow import (
    DEFAULT_RULES,
    JOKER,
    NUM_LOW_KEYS,
    Rules,
)
from handsolver.models.paigow_houseway import TRUMP_PLAZA, HouseWay
from handsolver.solver.paigow.flush_bins import FlushBins
from handsolver.solver.paigow.game_tables import Setup, setup
from handsolver.solver.paigow.hand_types import (
    CATEGORIES,
    COLUMNS,
    FULL_DECK,
    HAND_TYPES,
    Deck,
    binomials,
    hand_type_category,
)
from handsolver.solver.paigow.keys import pick, setting_keys
from handsolver.solver.paigow.suits import suit_patterns

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


# --- one chunk of rank classes ---------------------------------------------------------------


class HandResults(NamedTuple):
    """Per hand of a chunk (one per suit pattern): the cards (sorted, the joker last), how many
    hands it stands for, its hand-type row, and win/push/loss of the house-way setting and of
    the best setting (indices into LOW_POSITIONS)."""

    cards: NDArray[np.int64]
    weight: NDArray[np.int64]
    hand_type: NDArray[np.int64]
    house: NDArray[np.int64]  # N x 3
    best: NDArray[np.int64]  # N x 3
    house_setting: NDArray[np.int64]
    best_setting: NDArray[np.int64]


class GameJob(NamedTuple):
    """One chunk of player rank classes of one game: small, so it travels to workers cheaply
    (each worker builds the game's tables once)."""

    way: HouseWay
    rules: Rules
    deck: Deck
    classes: tuple[int, ...]


def chunk_counts(job: GameJob) -> list[list[int]]:
    """The table of one chunk of player rank classes: for each row of :data:`HAND_TYPES`, the
    :data:`COLUMNS` counts (hands, and pairs won, pushed, lost by house way and best play)."""
    import numpy as np

    results = hand_results(setup(job.way, job.rules, job.deck), job.classes)
    table = np.zeros((len(HAND_TYPES), len(COLUMNS)), dtype=np.int64)
    w = results.weight
    values = np.column_stack([w, results.house * w[:, None], results.best * w[:, None]])
    np.add.at(table, results.hand_type, values)
    rows: list[list[int]] = table.tolist()
    return rows


def hand_results(s: Setup, classes: Iterable[int], *, prune: bool = True) -> HandResults:
    """Every hand (up to suits) of these player rank classes (indices into the tables' rank
    classes) against every dealer hand its cards leave."""
    import numpy as np

    t = s.tables
    hands, weights, masks, owners, supports = _hands_of(s, classes)
    n = len(hands)
    high32, low = setting_keys(t, hands)
    house_setting = pick(t, hands, high32, low)
    high = high32.astype(np.int64)
    legal = ~s.foul[high, low]
    hand_type = s.hand_type[high.max(axis=1)] if n else np.zeros(0, dtype=np.int64)
    house = np.zeros((n, 3), dtype=np.int64)
    best = np.zeros((n, 3), dtype=np.int64)
    best_setting = np.zeros(n, dtype=np.int64)
    a, b = s.commission
    # Every dealer hand is seven of the cards the player's seven leave.
    deck = Deck(tuple(rank for rank in range(13) if s.deck_mask >> rank & 1))
    dealer_hands = deck.dealer_hands
    for start, stop, support in zip(owners[:-1], owners[1:], supports, strict=True):
        rows = slice(start, stop)
        win, loss = _class_values(
            s,
            support,
            hands[start],
            high[rows],
            low[rows],
            legal[rows],
            masks[rows],
            house_setting[rows],
            (a, b),
            prune,
        )
        value = np.where(win >= 0, (b - a) * win - b * loss, np.iinfo(np.int64).min)
        # Best first as `paigow settings` sorts: EV, then the high key, then the low key.
        score = np.stack([value, high[rows], low[rows]], axis=-1)
        chosen = _argmax_lex(score)
        r = np.arange(stop - start)
        best_setting[rows] = chosen
        for target, which in ((best, chosen), (house, house_setting[rows])):
            w, lo = win[r, which], loss[r, which]
            target[rows] = np.column_stack([w, dealer_hands - w - lo, lo])
    return HandResults(
        hands, weights, hand_type, house, best, house_setting.astype(np.int64), best_setting
    )


def _argmax_lex(score: NDArray[np.int64]) -> NDArray[np.int64]:
    """Per row, the column with the greatest (value, high, low) (the first among equals)."""
    import numpy as np

    value, high, low = score[..., 0], score[..., 1], score[..., 2]
    top = value == value.max(axis=1, keepdims=True)
    high = np.where(top, high, -1)
    top &= high == high.max(axis=1, keepdims=True)
    low = np.where(top, low, -1)
    top &= low == low.max(axis=1, keepdims=True)
    pick: NDArray[np.int64] = top.argmax(axis=1)
    return pick


def _hands_of(
    s: Setup, classes: Iterable[int]
) -> tuple[
    NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], list[int], list[tuple[int, ...]]
]:
    """The suit patterns of each class as sorted 7-card rows, their weights, each hand's ranks
    held in each suit as masks over the class's distinct ranks (N x 4), where each class's rows
    start, and each class's distinct ranks."""
    import numpy as np

    t = s.tables
    rows: list[list[int]] = []
    weights: list[int] = []
    suit_masks: list[list[int]] = []
    owners = [0]
    supports = []
    for index in classes:
        counts = t.class_counts[index]
        joker = bool(t.class_joker[index])
        support = tuple(int(r) for r in np.flatnonzero(counts))
        patterns, ways = suit_patterns(tuple(int(counts[r]) for r in support))
        for pattern, way in zip(patterns, ways, strict=True):
            cards = [
                r * 4 + suit
                for r, m in zip(support, pattern, strict=True)
                for suit in range(4)
                if (m >> suit) & 1
            ]
            rows.append(cards + [JOKER] * joker)
            weights.append(way)
            suit_masks.append(
                [sum(1 << i for i, m in enumerate(pattern) if (m >> suit) & 1) for suit in range(4)]
            )
        owners.append(len(rows))
        supports.append(support)
    return (
        np.array(rows, dtype=np.int64).reshape(len(rows), 7),
        np.array(weights, dtype=np.int64),
        np.array(suit_masks, dtype=np.int64).reshape(len(rows), 4),
        owners,
        supports,
    )


def _class_values(
    s: Setup,
    support: tuple[int, ...],
    hand: NDArray[np.int64],
    high: NDArray[np.int64],
    low: NDArray[np.int64],
    legal: NDArray[np.bool_],
    masks: NDArray[np.int64],
    house_setting: NDArray[np.intp],
    commission: tuple[int, int],
    prune: bool,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Wins and losses (N x 21) of the hands of one rank class against every dealer hand; -1
    where not computed (fouls, and settings that cannot be best unless ``prune`` is off)."""
    import numpy as np

    player = np.zeros(13, dtype=np.int64)
    for card in hand:
        if card != JOKER:
            player[card >> 2] += 1
    joker = bool(hand[-1] == JOKER)
    codes = high * NUM_LOW_KEYS + low
    xs, where = np.unique(codes[legal], return_inverse=True)
    x_index = np.full(codes.shape, -1, dtype=np.int64)
    x_index[legal] = where
    base_win, base_loss = _base_counts(s, player, joker, xs // NUM_LOW_KEYS, xs % NUM_LOW_KEYS)

    flush = FlushBins(s, support, player, joker)
    n = len(high)
    needed = legal.copy()
    if prune:
        a, b = commission
        base_value = np.where(legal, (b - a) * base_win[x_index] - b * base_loss[x_index], 0)
        floor = np.where(legal, base_value, np.iinfo(np.int64).min).max(axis=1)
        moved = flush.moved_hands()[masks].sum(axis=1)
        needed &= base_value >= (floor - 2 * (2 * b - a) * moved)[:, None]
    needed[np.arange(n), house_setting] = True
    query = np.unique(x_index[needed])
    corr_win, corr_loss = flush.corrections(xs[query] // NUM_LOW_KEYS, xs[query] % NUM_LOW_KEYS)
    slot = np.full(len(xs), -1, dtype=np.int64)
    slot[query] = np.arange(len(query))
    q = slot[np.where(needed, x_index, 0)]
    # Each hand's four suits: its ranks held in the suit pick that suit's correction.
    win = base_win[query][q] + corr_win[masks[:, :, None], q[:, None, :]].sum(axis=1)
    loss = base_loss[query][q] + corr_loss[masks[:, :, None], q[:, None, :]].sum(axis=1)
    win = np.where(needed, win, -1)
    loss = np.where(needed, loss, -1)
    return win, loss


def _base_counts(
    s: Setup,
    player: NDArray[np.int64],
    joker: bool,
    high: NDArray[np.int64],
    low: NDArray[np.int64],
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Dealer hands counted by rank class alone (every one at its rank class's result) with
    high key below and low key below each query, and at or above both."""
    import numpy as np

    choose_table = binomials()
    ways = s.base_ways.copy()
    for r in np.flatnonzero(player):
        d = s.base_counts[r]
        # prod_r C(4, d_r) -> C(4 - p_r, d_r) for the player's ranks (C(4, d) divides it).
        ways = ways // choose_table[4, d] * choose_table[4 - player[r], d]
    if joker:
        ways = np.where(s.base_joker, 0, ways)
    cum = np.concatenate([[0], ways.cumsum()])
    start = s.group_start
    # [query, group]: classes of the group with H < h, and the group's bounds in `cum`.
    inside = start[None, :-1] + s.below_high[:, high].T
    below = cum[inside] - cum[start[None, :-1]]
    above = cum[start[None, 1:]] - cum[inside]
    groups = np.arange(NUM_LOW_KEYS)[None, :]
    win = np.where(groups < low[:, None], below, 0).sum(axis=1)
    loss = np.where(groups >= low[:, None], above, 0).sum(axis=1)
    return win, loss


# --- the whole game --------------------------------------------------------------------------


class Outcome(NamedTuple):
    """Pairs the player wins, pushes and loses, and the EV per hand with the commission."""

    win: int
    push: int
    loss: int
    ev: Fraction


class GameResult(NamedTuple):
    """The whole game for one house way, rule switches and deck."""

    way: str
    rules: Rules
    deck: Deck
    pairs: int
    house_way: Outcome
    best: Outcome
    rows: dict[str, tuple[int, ...]]  # hand type -> COLUMNS counts

    @property
    def frequencies(self) -> dict[str, int]:
        out = dict.fromkeys(CATEGORIES, 0)
        hands = COLUMNS.index("hands")
        for name, row in self.rows.items():
            out[hand_type_category(name)] += row[hands]
        return out


def outcome(win: int, push: int, loss: int, commission: Fraction) -> Outcome:
    total = win + push + loss
    ev = (win * (1 - commission) - loss) / total if total else Fraction(0)
    return Outcome(win, push, loss, ev)


CHUNK_CLASSES = 256


def game_jobs(
    way: HouseWay, rules: Rules, deck: Deck = FULL_DECK, size: int = CHUNK_CLASSES
) -> list[GameJob]:
    """The player's rank classes in deterministic chunks (the unit of work and of checkpoints):
    the same chunks whatever runs them."""
    classes = [int(c) for c in setup(way, rules, deck).player_classes]
    return [
        GameJob(way, rules, deck, tuple(classes[i : i + size]))
        for i in range(0, len(classes), size)
    ]


def combine(
    way: HouseWay, rules: Rules, deck: Deck, tables_by_chunk: Iterable[Sequence[Sequence[int]]]
) -> GameResult:
    """Sum chunk tables (Python ints: exact) into the game's result."""
    sums = [[0] * len(COLUMNS) for _ in HAND_TYPES]
    for table in tables_by_chunk:
        for row, values in zip(sums, table, strict=True):
            for i, v in enumerate(values):
                row[i] += int(v)
    totals = {name: sum(row[i] for row in sums) for i, name in enumerate(COLUMNS)}
    return GameResult(
        way.name,
        rules,
        deck,
        deck.pairs,
        outcome(totals["hw_win"], totals["hw_push"], totals["hw_loss"], rules.commission),
        outcome(totals["best_win"], totals["best_push"], totals["best_loss"], rules.commission),
        {name: tuple(row) for name, row in zip(HAND_TYPES, sums, strict=True)},
    )


def whole_game(
    way: HouseWay = TRUMP_PLAZA, rules: Rules = DEFAULT_RULES, deck: Deck = FULL_DECK
) -> GameResult:
    """The whole game in this process (tests and small decks; the command spreads it)."""
    return combine(way, rules, deck, map(chunk_counts, game_jobs(way, rules, deck)))


def rank_pattern_count() -> int:
    """How many 7-card rank classes there are (with the joker apart): 67,600."""
    plain = sum(
        1
        for r in combinations_with_replacement(range(13), 7)
        if all(r[i] != r[i + 4] for i in range(3))
    )
    joker = sum(
        1
        for r in combinations_with_replacement(range(13), 6)
        if all(r[i] != r[i + 4] for i in range(2))
    )
    return plain + joker
