"""The split-game engine: a hand is set into parts, each ranked on its own, and scored by rows.

The six-card game, Pai Gow poker and Chinese poker are instances of one :class:`SplitGame`:

- **parts** with sizes (Pai Gow: high 5, low 2; Chinese: back 5, middle 5, front 3);
- a **row key** per part: greater beats the opponent's same part;
- an optional **order rule**: an *order key* comparable across parts, which must not increase
  from the first part to the last; a setting that breaks it is a *foul* (the six-card game has
  none);
- a **scoring rule** from the row outcomes (+1 won, 0 tied, -1 lost, first part first) to the
  player's points.  A fouled setting loses every row to a setting that is not fouled, and two
  fouled settings tie every row; the scoring rule then decides what that is worth (a Pai Gow
  foul loses the bet, a Chinese foul is scooped).

A setting is a tuple of parts, each a tuple of cards in the hand's order.  Cards may be any
values: ints for the 52-card games, card values for the six-card game, where equal values are
interchangeable and :meth:`SplitGame.settings` gives each distinct setting once.

>>> game = SplitGame(
...     name="toy",
...     part_names=("high", "low"),
...     part_sizes=(2, 1),
...     row_key=lambda row, part: sum(part),
...     order_key=lambda row, part: max(part),
...     points=lambda outcomes: sum(outcomes),
... )
>>> game.settings((1, 2, 3))
(((1, 2), (3,)), ((1, 3), (2,)), ((2, 3), (1,)))
>>> game.legal_settings((1, 2, 3))
(((1, 3), (2,)), ((2, 3), (1,)))
>>> game.score(((2, 3), (1,)), ((1, 3), (2,)))
0
>>> game.score(((2, 3), (1,)), ((1, 2), (3,)))  # the opponent's setting is fouled
2
>>> len(game.settings((1, 1, 2)))  # equal values: each distinct setting once
2
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import Any, Generic, TypeAlias, TypeVar

C = TypeVar("C", bound=Hashable)

Setting: TypeAlias = tuple[tuple[Any, ...], ...]
"""A hand's parts in the game's part order; each part keeps the hand's card order."""

Outcomes: TypeAlias = tuple[int, ...]
"""Row by row, first part first: +1 won, 0 tied, -1 lost."""


@dataclass(frozen=True)
class SplitGame(Generic[C]):
    """The rules of one split game: parts, how each is ranked, the order rule and the scoring.

    ``row_key(row, part)`` ranks a part against the opponent's part in the same row;
    ``order_key(row, part)``, when given, ranks parts against each other for the foul rule;
    ``points(outcomes)`` is the player's score for the row outcomes.
    """

    name: str
    part_names: tuple[str, ...]
    part_sizes: tuple[int, ...]
    row_key: Callable[[int, tuple[C, ...]], Any]
    points: Callable[[Outcomes], Any]
    order_key: Callable[[int, tuple[C, ...]], Any] | None = None

    def __post_init__(self) -> None:
        if len(self.part_names) != len(self.part_sizes) or not self.part_sizes:
            raise ValueError(f"{self.name}: one name for each part size")
        if min(self.part_sizes) < 1:
            raise ValueError(f"{self.name}: part sizes must be positive")

    @property
    def hand_size(self) -> int:
        return sum(self.part_sizes)

    def settings(self, hand: Sequence[C]) -> tuple[Setting, ...]:
        """Every way to set ``hand`` into the parts, fouled or not, each distinct setting once.

        Parts keep the hand's card order.  With distinct cards there are
        ``hand_size! / prod(size!)`` settings (72,072 for Chinese poker, 21 for Pai Gow).
        """
        if len(hand) != self.hand_size:
            raise ValueError(f"{self.name}: a hand has {self.hand_size} cards, got {len(hand)}")
        # Equal cards (six-card values) give equal tuples, so each setting is kept once.
        return tuple(dict.fromkeys(_partitions(tuple(hand), self.part_sizes)))

    def is_foul(self, setting: Setting) -> bool:
        """Whether ``setting`` breaks the order rule (a part outranks the one before it)."""
        if self.order_key is None:
            return False
        keys = [self.order_key(row, part) for row, part in enumerate(setting)]
        return any(later > earlier for earlier, later in pairwise(keys))

    def legal_settings(self, hand: Sequence[C]) -> tuple[Setting, ...]:
        """The settings of ``hand`` that are not fouled, in :meth:`settings` order."""
        return tuple(s for s in self.settings(hand) if not self.is_foul(s))

    def outcomes(self, mine: Setting, theirs: Setting) -> Outcomes:
        """Row outcomes for ``mine``: a foul loses every row to a setting that is not fouled."""
        foul_mine, foul_theirs = self.is_foul(mine), self.is_foul(theirs)
        if foul_mine or foul_theirs:
            return (foul_theirs - foul_mine,) * len(self.part_sizes)
        return tuple(
            _sign(self.row_key(row, a), self.row_key(row, b))
            for row, (a, b) in enumerate(zip(mine, theirs, strict=True))
        )

    def score(self, mine: Setting, theirs: Setting) -> Any:
        """The player's points for ``mine`` against ``theirs`` under the scoring rule."""
        return self.points(self.outcomes(mine, theirs))


def _sign(a: Any, b: Any) -> int:
    return int(a > b) - int(a < b)


def _partitions(cards: tuple[C, ...], sizes: tuple[int, ...]) -> Iterator[Setting]:
    """Every ordered partition of ``cards`` into parts of ``sizes``, by position."""
    if not sizes:
        yield ()
        return
    positions = range(len(cards))
    for chosen in combinations(positions, sizes[0]):
        rest = tuple(cards[i] for i in positions if i not in chosen)
        part = tuple(cards[i] for i in chosen)
        for tail in _partitions(rest, sizes[1:]):
            yield (part, *tail)
