"""Chinese poker settings scored exactly, all 72,072 at once, against known or sampled opponents.

A hand's settings are indices into tables shared by every hand, and its five- and three-card
subsets are keyed in one numpy batch (:mod:`handsolver.solver.chinese.indexing`).

Scoring against opponents: a row's outcome depends only on that row's cards, so for each
opponent scenario (one opponent's setting in one deal) the outcomes of the 1,287 possible backs
and middles and 286 fronts are three small tables.  Row points are then sums gathered per
setting; the scoop (and the 2-4 majority point) is not additive, so the win and loss tables are
packed into bitsets over scenarios and combined per setting with AND and popcount.

Deals are packed into bitset words of up to 64 scenarios, and the words summed into at most
256 batches; the per-batch totals give the sample mean and its standard error (from the
between-batch variance, unbiased for independent deals; with 256 deals or fewer every deal is
its own batch and this is the usual sample standard error).

>>> from handsolver.models.cards import parse_cards
>>> hand = parse_cards("As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7d")
>>> from handsolver.solver.chinese.indexing import setting_of_text
>>> theirs = setting_of_text("Ah Ad 3c | Kh Kd 4c 4d 8s | 8c 8d 8h Jc Jd")
>>> ranking = rank_settings(hand, known_scenarios([theirs]))
>>> ranking.legal, ranking.best.points, ranking.ties_with_best
(20678, Fraction(1, 1), 9)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from handsolver.models.cards import Card
from handsolver.models.chinese import Royalties, check_scoring, chinese_game, front_key
from handsolver.models.poker import poker_key
from handsolver.models.split import Setting
from handsolver.solver.chinese.indexing import (
    Keys,
    check_hand,
    front_keys,
    hand_keys,
    layout,
    legal_mask,
    setting_cards,
)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

FOULED = -1
"""The row keys of a fouled opponent: every row of a setting that is not fouled beats them."""
_MAX_BATCHES = 256
_CHUNK = 4096  # settings per block of the bitset pass: (chunk x batches) words stay small
_SLAB_SCENARIOS = 8192  # opponent hands whose outcome tables are held at once


@dataclass(frozen=True)
class Scenarios:
    """What the opponents play: row keys per deal and opponent, shape (deals, opponents).

    A fouled opponent has keys :data:`FOULED` and royalty 0.  ``sampled`` says whether the
    deals are a random sample (else they are all the cases, usually one deal).
    """

    back: NDArray[np.int32]
    middle: NDArray[np.int32]
    front: NDArray[np.int32]
    royalty: NDArray[np.int32]
    sampled: bool = False

    @property
    def deals(self) -> int:
        return int(self.back.shape[0])

    def deals_slice(self, start: int, stop: int) -> Scenarios:
        """The scenarios of deals ``start`` to ``stop``."""
        return Scenarios(
            self.back[start:stop],
            self.middle[start:stop],
            self.front[start:stop],
            self.royalty[start:stop],
            self.sampled,
        )

    @property
    def opponents(self) -> int:
        return int(self.back.shape[1])

    def parts(self, size: int) -> Iterator[Scenarios]:
        """The deals in consecutive parts of ``size`` deals (the last may be shorter)."""
        for start in range(0, self.deals, size):
            yield self.deals_slice(start, start + size)


class ScenarioSource(Protocol):
    """Scenarios held in arrays (:class:`Scenarios`) or produced part by part when read
    (:class:`~handsolver.solver.chinese.strategies.SampledScenarios`), so that scoring
    millions of sampled deals needs no more memory than scoring a few thousand."""

    @property
    def deals(self) -> int: ...

    @property
    def opponents(self) -> int: ...

    @property
    def sampled(self) -> bool: ...

    def parts(self, size: int) -> Iterator[Scenarios]:
        """The deals in consecutive parts of ``size`` deals (the last may be shorter)."""
        ...


def known_scenarios(settings: Sequence[Setting], royalties: Royalties | None = None) -> Scenarios:
    """One deal against known opponent settings (fouled settings are allowed: they are scooped)."""
    import numpy as np

    game = chinese_game()
    rows = []
    for setting in settings:
        if game.is_foul(setting):
            rows.append((FOULED, FOULED, FOULED, 0))
        else:
            royalty = royalties.of_setting(setting) if royalties else 0
            back, middle, front = setting
            rows.append((poker_key(back), poker_key(middle), front_key(front), royalty))
    table = np.array(rows, dtype=np.int32).reshape(1, len(settings), 4)
    return Scenarios(table[..., 0], table[..., 1], table[..., 2], table[..., 3])


def chosen_scenarios(
    hands: NDArray[Any],
    chosen: NDArray[np.intp],
    shape: tuple[int, int],
    royalties: Royalties | None = None,
    *,
    sampled: bool,
) -> Scenarios:
    """Scenarios from hands (rows of 13 sorted cards) and the setting each one chose, reshaped
    to ``shape`` (deals, opponents).  Only the chosen rows are keyed."""
    import numpy as np

    from handsolver.models.poker_batch import rank_hands

    tables = layout()
    hands = np.asarray(hands, dtype=np.intp)
    rows = np.arange(len(chosen))[:, None]
    back = rank_hands(hands[rows, tables.fives[tables.back[chosen]]])
    middle = rank_hands(hands[rows, tables.fives[tables.middle[chosen]]])
    front, order = front_keys(hands[rows, tables.threes[tables.front[chosen]]])
    fouled = (back < middle) | (middle < order)
    royalty = np.zeros(len(chosen), dtype=np.int32)
    if royalties is not None:
        royalty = (
            np.asarray(royalties.back)[back]
            + np.asarray(royalties.middle)[middle]
            + np.asarray(royalties.front)[front]
        ).astype(np.int32)

    def shaped(values: NDArray[Any], foul_value: int) -> NDArray[np.int32]:
        return np.where(fouled, foul_value, values).astype(np.int32).reshape(shape)

    return Scenarios(
        shaped(back, FOULED),
        shaped(middle, FOULED),
        shaped(front, FOULED),
        shaped(royalty, 0),
        sampled,
    )


class Scores(NamedTuple):
    """Points of some settings of one hand against the scenarios, batch by batch."""

    settings: NDArray[np.intp]
    """The setting indices scored."""
    batches: NDArray[np.int64]
    """(settings, batches): total points in each batch of deals."""
    batch_deals: NDArray[np.int64]
    """(batches,): deals per batch."""

    @property
    def totals(self) -> NDArray[np.int64]:
        return self.batches.sum(axis=1)  # type: ignore[no-any-return]

    def stderrs(self) -> NDArray[np.float64]:
        """Standard error of each sample mean, from the between-batch variance."""
        import numpy as np

        deals = self.batch_deals.sum()
        count = len(self.batch_deals)
        if count < 2:
            return np.full(len(self.settings), np.nan)
        mean = self.totals / deals
        spread = (self.batches - mean[:, None] * self.batch_deals) ** 2 / self.batch_deals
        return np.sqrt(spread.sum(axis=1) / (count - 1) / deals)  # type: ignore[no-any-return]


def _bits(table: NDArray[np.bool_], batches: int) -> NDArray[np.uint64]:
    """(scenarios padded, subsets) booleans -> (subsets, batches) words, one bit per scenario."""
    import numpy as np

    subsets = table.shape[1]
    # Packed along the last axis, where packbits reads contiguous memory, and only to whole
    # bytes: a word often holds a few scenarios, so padding each to 64 booleans first cost more
    # than all the rest of the pass.
    grouped = np.ascontiguousarray(table.T).reshape(subsets, batches, -1)
    packed = np.packbits(grouped, axis=2, bitorder="little")  # (subsets, batches, bytes)
    words = np.zeros((subsets, batches, 8), dtype=np.uint8)
    words[..., : packed.shape[2]] = packed
    return words.view(np.uint64)[..., 0]


def score_settings(
    keys: Keys,
    scenarios: ScenarioSource,
    settings: NDArray[np.intp],
    scoring: str = "1-6",
    royalties: Royalties | None = None,
) -> Scores:
    """Points of the given settings of one hand against every scenario, in batches of deals.

    A fouled setting is scooped by every opponent that is not fouled and pays their royalties.
    Deals are scored a slab at a time, so memory stays bounded however many there are.
    """
    import numpy as np

    check_scoring(scoring)
    tables = layout()
    deals, opponents = scenarios.deals, scenarios.opponents
    per_word = max(1, min(-(-deals // _MAX_BATCHES), 64 // opponents))
    words = -(-deals // per_word)
    words_per_batch = -(-words // _MAX_BATCHES)
    deals_per_batch = per_word * words_per_batch
    slab = deals_per_batch * max(1, _SLAB_SCENARIOS // (deals_per_batch * opponents))
    mine_royalty = np.zeros(len(settings), dtype=np.int64)
    if royalties is not None:
        mine_royalty = (
            np.asarray(royalties.back)[keys.five[tables.back[settings]]]
            + np.asarray(royalties.middle)[keys.five[tables.middle[settings]]]
            + np.asarray(royalties.front)[keys.front[tables.front[settings]]]
        ).astype(np.int64)
    fouled = ~legal_mask(keys)[settings]
    columns, counts = [], []
    for part in scenarios.parts(slab):
        points, word_deals = _score_words(
            keys, part, settings, per_word, scoring, mine_royalty, fouled
        )
        # Sum whole words into batches (the last may be short; padding words hold no deal).
        count = -(-points.shape[1] // words_per_batch)
        grown = np.zeros((len(settings), count * words_per_batch), dtype=np.int64)
        grown[:, : points.shape[1]] = points
        columns.append(grown.reshape(len(settings), count, words_per_batch).sum(axis=2))
        padded_deals = np.zeros(count * words_per_batch, dtype=np.int64)
        padded_deals[: len(word_deals)] = word_deals
        counts.append(padded_deals.reshape(count, words_per_batch).sum(axis=1))
    return Scores(settings, np.hstack(columns), np.concatenate(counts))


def _score_words(
    keys: Keys,
    scenarios: Scenarios,
    settings: NDArray[np.intp],
    per_word: int,
    scoring: str,
    mine_royalty: NDArray[np.int64],
    fouled: NDArray[np.bool_],
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Points per bitset word (``per_word`` deals each) and the deals in each word."""
    import numpy as np

    tables = layout()
    deals, opponents = scenarios.deals, scenarios.opponents
    words = -(-deals // per_word)
    padded = words * per_word
    word_deals = np.full(words, per_word, dtype=np.int64)
    word_deals[-1] = deals - per_word * (words - 1)

    def outcomes(mine: NDArray[np.int32], theirs: NDArray[np.int32]) -> NDArray[np.int8]:
        column = theirs.ravel()[:, None]
        table = np.zeros((padded * opponents, len(mine)), dtype=np.int8)
        # Padding scenarios stay at 0: they tie every row, so they add no points.
        table[: deals * opponents] = (mine > column).view(np.int8) - (mine < column).view(np.int8)
        return table

    rows = (
        outcomes(keys.five, scenarios.back),
        outcomes(keys.five, scenarios.middle),
        outcomes(keys.front, scenarios.front),
    )
    sums = [
        np.ascontiguousarray(t.reshape(words, -1, t.shape[1]).sum(axis=1, dtype=np.int64).T)
        for t in rows
    ]
    wins = [_bits(t > 0, words) for t in rows]
    losses = [_bits(t < 0, words) for t in rows]

    def per_word_sum(values: NDArray[Any]) -> NDArray[np.int64]:
        padded_values = np.zeros(padded, dtype=np.int64)
        padded_values[:deals] = values
        return padded_values.reshape(words, per_word).sum(axis=1)  # type: ignore[no-any-return]

    their_royalty = per_word_sum(scenarios.royalty.sum(axis=1))
    standing = per_word_sum((scenarios.back != FOULED).sum(axis=1))
    scoop = 6 if scoring == "1-6" else 4
    out = np.empty((len(settings), words), dtype=np.int64)
    for start in range(0, len(settings), _CHUNK):
        block = settings[start : start + _CHUNK]
        parts = (tables.back[block], tables.middle[block], tables.front[block])
        total = sums[0][parts[0]] + sums[1][parts[1]] + sums[2][parts[2]]
        wb, wm, wf = (w[p] for w, p in zip(wins, parts, strict=True))
        lb, lm, lf = (w[p] for w, p in zip(losses, parts, strict=True))
        if scoring == "1-6":
            bonus = np.bitwise_count(wb & wm & wf).astype(np.int64)
            bonus -= np.bitwise_count(lb & lm & lf)
            total += 3 * bonus
        else:
            total += _majority(wb, wm, wf, lb | lm | lf)
            total -= _majority(lb, lm, lf, wb | wm | wf)
        total += mine_royalty[start : start + _CHUNK, None] * (word_deals * opponents)
        total -= their_royalty
        total[fouled[start : start + _CHUNK]] = -scoop * standing - their_royalty
        out[start : start + _CHUNK] = total
    return out, word_deals


def _majority(
    a: NDArray[np.uint64], b: NDArray[np.uint64], c: NDArray[np.uint64], other: NDArray[np.uint64]
) -> NDArray[np.int64]:
    """Per word, how many scenarios have more rows in ``a, b, c`` than in the other outcome:
    two or three of them, or exactly one and no row of the ``other`` kind."""
    import numpy as np

    two = (a & b) | (a & c) | (b & c)
    one = (a ^ b ^ c) & ~other
    count: NDArray[np.int64] = np.bitwise_count(two | one).astype(np.int64)
    return count


class RankedSetting(NamedTuple):
    """One setting with its points: exact (``stderr`` None) or a sample mean."""

    number: int
    """The setting's index in :func:`layout`."""
    setting: Setting
    points: Fraction
    stderr: float | None


@dataclass(frozen=True)
class Ranking:
    """The legal settings of a hand, best first (ties: lower setting index first)."""

    hand: tuple[Card, ...]
    legal: int
    deals: int
    opponents: int
    sampled: bool
    order: NDArray[np.intp]
    """Setting indices, best first."""
    totals: NDArray[np.int64]
    """Total points over all deals, in ``order``."""
    stderr: NDArray[np.float64] | None
    """Standard errors of the means, in ``order`` (sampled only)."""

    @property
    def best(self) -> RankedSetting:
        return self.entry(0)

    @property
    def ties_with_best(self) -> int:
        """How many other settings score exactly what the best one scores."""
        return int((self.totals == self.totals[0]).sum()) - 1

    def entry(self, place: int) -> RankedSetting:
        index = int(self.order[place])
        stderr = float(self.stderr[place]) if self.stderr is not None else None
        points = Fraction(int(self.totals[place]), self.deals)
        return RankedSetting(index, setting_cards(self.hand, index), points, stderr)

    def top(self, count: int | None = None) -> list[RankedSetting]:
        size = len(self.order) if count is None else min(count, len(self.order))
        return [self.entry(place) for place in range(size)]


def rank_settings(
    hand: Sequence[Card],
    scenarios: ScenarioSource,
    scoring: str = "1-6",
    royalties: Royalties | None = None,
) -> Ranking:
    """Every legal setting of ``hand`` ranked by its points against the scenarios."""
    import numpy as np

    cards = check_hand(hand)
    keys = hand_keys(np.array([cards]))
    one = Keys(keys.five[0], keys.front[0], keys.front_order[0])
    legal = np.flatnonzero(legal_mask(one))
    scores = score_settings(one, scenarios, legal, scoring, royalties)
    totals = scores.totals
    order = np.lexsort((legal, -totals))
    stderr = scores.stderrs()[order] if scenarios.sampled else None
    return Ranking(
        hand=cards,
        legal=len(legal),
        deals=scenarios.deals,
        opponents=scenarios.opponents,
        sampled=scenarios.sampled,
        order=legal[order],
        totals=totals[order],
        stderr=stderr,
    )
