"""How Chinese poker opponents set their hands, sampled deals, and the best-response study.

Strategies choose a setting for many hands at once (rows of 13 sorted cards):

- ``greedy``: the strongest back, then the strongest middle from the rest, then the front;
  among equal backs the one leaving the strongest middle, then the strongest front (then the
  lowest setting index).  It is never fouled.
- ``best-response:X``: the best setting against opponents who play ``X``, their hands sampled
  from the cards the player cannot see (``samples`` deals, the same for every setting).
- ``program:COMMAND``: the user's program reads one hand per line on stdin and prints one
  setting ``FRONT|MIDDLE|BACK`` per line, in order (one run for all the hands).

>>> from handsolver.models.cards import parse_cards
>>> hand = sorted(parse_cards("As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7d"))
>>> from handsolver.models.chinese import format_setting
>>> from handsolver.solver.chinese.indexing import setting_cards
>>> from handsolver.models.cards import STANDARD
>>> chosen = strategy_from_spec("greedy").choose([hand], Context())
>>> format_setting(setting_cards(hand, int(chosen[0])), STANDARD)
'7d 6c 5c | 9h 9d 9c 2h 2d | As Ks Qs Js Ts'
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from handsolver.models.cards import STANDARD, Card, InputError, Notation
from handsolver.models.chinese import HAND_SIZE, NUM_FRONT_KEYS, Royalties
from handsolver.solver.chinese.indexing import (
    MIDDLES_PER_BACK,
    Keys,
    hand_keys,
    layout,
    setting_index,
    setting_of_text,
)
from handsolver.solver.chinese.scoring import Scenarios, chosen_scenarios, rank_settings

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

_HANDS_PER_BLOCK = 1024  # hands keyed at once: (block x 1287 x 5) cards stay near 50 MB
DEFAULT_BR_SAMPLES = 200
DEFAULT_TIMEOUT = 60.0
"""Seconds a strategy program may run for one batch of hands."""


@dataclass(frozen=True)
class Context:
    """What a strategy knows about the game: the table, the scoring, and its random stream."""

    opponents: int = 1
    scoring: str = "1-6"
    royalties: Royalties | None = None
    seed: int = 0
    notation: Notation = field(default=STANDARD)

    def reseeded(self, seed: int) -> Context:
        """The same context with its own random stream ``seed``."""
        return replace(self, seed=seed)


class Strategy(Protocol):
    @property
    def name(self) -> str: ...

    def choose(self, hands: Any, context: Context) -> NDArray[np.intp]:
        """The setting index chosen for each hand (rows of 13 sorted cards)."""
        ...


@dataclass(frozen=True)
class Greedy:
    name: str = "greedy"

    def choose(self, hands: Any, context: Context) -> NDArray[np.intp]:
        import numpy as np

        rows = np.asarray(hands, dtype=np.intp).reshape(-1, HAND_SIZE)
        blocks = range(0, len(rows), _HANDS_PER_BLOCK)
        chosen = [greedy_choice(hand_keys(rows[i : i + _HANDS_PER_BLOCK])) for i in blocks]
        return np.concatenate(chosen) if chosen else np.zeros(0, dtype=np.intp)


def greedy_choice(keys: Keys) -> NDArray[np.intp]:
    """The greedy setting of each hand from its keys (see the module docstring)."""
    import numpy as np

    tables = layout()
    middles = tables.middle.reshape(-1, MIDDLES_PER_BACK)
    fronts = tables.front.reshape(-1, MIDDLES_PER_BACK)
    best_back = keys.five.max(axis=1)
    hand, back = np.nonzero(keys.five == best_back[:, None])  # hand-major, backs increasing
    middle_keys = keys.five[hand[:, None], middles[back]].astype(np.int64)
    rest = middle_keys * NUM_FRONT_KEYS + keys.front[hand[:, None], fronts[back]]
    pick = rest.argmax(axis=1)
    value = rest[np.arange(len(back)), pick]
    setting = back * MIDDLES_PER_BACK + pick
    # Per hand: the greatest value, then the lowest setting index.
    order = np.lexsort((setting, -value, hand))
    _, first = np.unique(hand[order], return_index=True)
    return setting[order[first]]  # type: ignore[no-any-return]


@dataclass(frozen=True)
class BestResponse:
    target: Strategy
    samples: int = DEFAULT_BR_SAMPLES

    @property
    def name(self) -> str:
        return f"best-response:{self.target.name}"

    def choose(self, hands: Any, context: Context) -> NDArray[np.intp]:
        import numpy as np

        rows = np.asarray(hands, dtype=np.intp).reshape(-1, HAND_SIZE)
        seeds = np.random.SeedSequence(context.seed).generate_state(max(1, len(rows)))
        out = np.empty(len(rows), dtype=np.intp)
        for i, row in enumerate(rows.tolist()):
            inner = context.reseeded(int(seeds[i]))
            scenarios = sampled_scenarios(row, self.target, self.samples, inner)
            ranking = rank_settings(row, scenarios, context.scoring, context.royalties)
            out[i] = ranking.order[0]
        return out


@dataclass(frozen=True)
class Program:
    """A strategy program: one hand a line in, one setting a line out, run isolated by
    ``sandbox`` (see :func:`handsolver.solver.sandbox.resolve`; ``none`` only on request)."""

    command: str
    timeout: float = DEFAULT_TIMEOUT
    output_cap: int = 1 << 24
    sandbox: str = "auto"

    @property
    def name(self) -> str:
        return f"program:{self.command}"

    def choose(self, hands: Any, context: Context) -> NDArray[np.intp]:
        import numpy as np

        from handsolver.solver.sandbox.answers import answer_lines

        rows = np.asarray(hands, dtype=np.intp).reshape(-1, HAND_SIZE).tolist()
        lines = [context.notation.format_cards(row) for row in rows]
        answers = answer_lines(
            self.command,
            lines,
            timeout=self.timeout,
            sandbox=self.sandbox,
            answers="settings",
            questions="hands",
            output_cap=self.output_cap,
        )
        name = f"strategy program {self.command!r}"
        out = np.empty(len(rows), dtype=np.intp)
        for i, (row, answer) in enumerate(zip(rows, answers, strict=True)):
            try:
                out[i] = setting_index(row, setting_of_text(answer))
            except InputError as error:
                raise InputError(
                    f"{name} answered {answer.strip()!r} for hand {lines[i]!r}: {error}"
                ) from None
        return out


MAX_NESTING = 3
"""How deep ``best-response:`` may nest."""


def strategy_from_spec(
    spec: str,
    br_samples: int = DEFAULT_BR_SAMPLES,
    timeout: float = DEFAULT_TIMEOUT,
    sandbox: str = "auto",
) -> Strategy:
    """``greedy``, ``best-response:X`` or ``program:COMMAND``; a program, at any depth of
    ``best-response:``, may run ``timeout`` seconds, isolated by ``sandbox``.

    >>> strategy_from_spec("best-response:greedy").name
    'best-response:greedy'
    >>> try:
    ...     strategy_from_spec("random")
    ... except InputError as error:
    ...     print(error)
    unknown strategy 'random'; use greedy, best-response:X or program:COMMAND

    :raises InputError: for an unknown strategy, ``best-response:`` nested more than
        :data:`MAX_NESTING` deep, or a program where ``sandbox`` cannot run (checked now, before
        any work).
    """
    text = spec.strip()
    depth = 0
    while text.startswith("best-response:"):
        text = text.removeprefix("best-response:").strip()
        depth += 1
        if depth > MAX_NESTING:
            # Each level samples deals and solves every one of them: the work grows with depth.
            raise InputError(f"best-response: is nested more than {MAX_NESTING} deep")
    strategy: Strategy
    if text == "greedy":
        strategy = Greedy()
    elif text.startswith("program:") and text.removeprefix("program:").strip():
        command = text.removeprefix("program:").strip()
        try:
            shlex.split(command)  # checked before any work, and named as the user wrote it
        except ValueError as error:
            raise InputError(f"cannot split the program command {command!r}: {error}") from None
        from handsolver.solver.sandbox.isolation import resolve

        resolve(sandbox)  # refused here, before any work, where no isolation can run
        strategy = Program(command, timeout, sandbox=sandbox)
    else:
        import difflib

        close = difflib.get_close_matches(text, ["greedy"], n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise InputError(
            f"unknown strategy {spec!r}{hint}; use greedy, best-response:X or program:COMMAND"
        )
    for _ in range(depth):
        strategy = BestResponse(strategy, br_samples)
    return strategy


def deal_opponents(dead: Sequence[Card], opponents: int, deals: int, seed: int) -> NDArray[np.intp]:
    """``deals`` deals of ``opponents`` hands from the cards not in ``dead``: shape
    (deals * opponents, 13), each row sorted, deal major."""
    import numpy as np

    blocks = list(dealt_blocks(dead, opponents, deals, seed))
    return np.concatenate(blocks) if blocks else np.zeros((0, HAND_SIZE), dtype=np.intp)


def dealt_blocks(
    dead: Sequence[Card], opponents: int, deals: int, seed: int, block: int = _HANDS_PER_BLOCK
) -> Iterator[NDArray[np.intp]]:
    """:func:`deal_opponents` ``block`` deals at a time, the same deals: the generator's numbers
    are drawn in the same order, so memory stays bounded however many deals there are."""
    import numpy as np

    rest = np.setdiff1d(np.arange(52), np.asarray(dead, dtype=np.intp))
    rng = np.random.default_rng(seed)
    for start in range(0, deals, block):
        count = min(block, deals - start)
        picks = rng.random((count, len(rest))).argsort(axis=1)[:, : HAND_SIZE * opponents]
        yield np.sort(rest[picks].reshape(count * opponents, HAND_SIZE), axis=1)


ProgressWrapper: TypeAlias = Callable[[Iterable[int], int, str], Iterable[int]]
"""Wraps the loop over blocks of deals, e.g. with a progress bar: (items, total, label)."""


@dataclass(frozen=True)
class SampledScenarios:
    """``deals`` random deals of the opponents' hands from the cards left, each set by
    ``strategy``: the common random numbers every setting of ``hand`` is scored on.

    The deals are dealt and set a block at a time whenever they are read (one program run per
    block), and never held all at once: ``--samples 10000000`` needs the memory of a few
    blocks.  Reading them twice deals and sets them twice, alike."""

    hand: Sequence[Card]
    strategy: Strategy
    deals: int
    context: Context
    progress: ProgressWrapper | None = None
    sampled: bool = True

    @property
    def opponents(self) -> int:
        return self.context.opponents

    def blocks(self) -> Iterator[Scenarios]:
        """The deals, :data:`_HANDS_PER_BLOCK` at a time."""
        import numpy as np

        context = self.context
        dealing, choosing = np.random.SeedSequence(context.seed).generate_state(2)
        count = -(-self.deals // _HANDS_PER_BLOCK)
        seeds = np.random.SeedSequence(int(choosing)).generate_state(count)
        dealt = dealt_blocks(self.hand, context.opponents, self.deals, int(dealing))
        numbers: Iterable[int] = range(count)
        if self.progress is not None:
            numbers = self.progress(numbers, count, "opponents' hands")
        for number, hands in zip(numbers, dealt, strict=True):
            chosen = self.strategy.choose(hands, context.reseeded(int(seeds[number])))
            shape = (len(hands) // context.opponents, context.opponents)
            yield chosen_scenarios(hands, chosen, shape, context.royalties, sampled=True)

    def parts(self, size: int) -> Iterator[Scenarios]:
        """The deals in consecutive parts of ``size`` deals (the last may be shorter)."""
        held: list[Scenarios] = []
        count = 0
        for block in self.blocks():
            held.append(block)
            count += block.deals
            while count >= size:
                joined = _joined(held)
                yield joined.deals_slice(0, size)
                held, count = [joined.deals_slice(size, joined.deals)], joined.deals - size
        if count:
            yield _joined(held)

    def arrays(self) -> Scenarios:
        """Every deal in arrays (for the CP-SAT model, which needs them all at once)."""
        return _joined(list(self.blocks()))


def _joined(parts: list[Scenarios]) -> Scenarios:
    import numpy as np

    return Scenarios(
        np.concatenate([p.back for p in parts]),
        np.concatenate([p.middle for p in parts]),
        np.concatenate([p.front for p in parts]),
        np.concatenate([p.royalty for p in parts]),
        sampled=True,
    )


def sampled_scenarios(
    hand: Sequence[Card],
    strategy: Strategy,
    deals: int,
    context: Context,
    progress: ProgressWrapper | None = None,
) -> Scenarios:
    """The deals of :class:`SampledScenarios` in arrays."""
    return SampledScenarios(hand, strategy, deals, context, progress).arrays()
