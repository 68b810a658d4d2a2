"""What every challenge tells the verifier: its cases, how to write them, how to judge an answer.

A case is a tuple of hands (each a tuple of ints: cards, or six-card values), so cases hash,
sort and shrink the same way for every challenge.  A challenge is configured once (input
format, answer map) and then judges answer lines; ``judge`` returns ``None`` for a correct
answer and the reason otherwise.
"""

from __future__ import annotations

import json
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, TypeAlias

from handsolver.models.cards import (
    Card,
    CardParseError,
    InputError,
    Notation,
    make_card,
    parse_cards,
    rank_of,
    suit_of,
)

Hands: TypeAlias = tuple[tuple[int, ...], ...]

SIDES = ("left", "right", "both")

#: The most random cases one run may ask for: generating them takes about 2 s and 150 MB, so
#: a mistyped ``--cases`` cannot exhaust memory before the budget starts.
MAX_CASES = 200_000


class Case(NamedTuple):
    """One input for the answer program: an id for reports and the hands it shows."""

    id: str
    hands: Hands


class Challenge(ABC):
    """The verifier's view of one challenge (see the subclasses for the rules they judge)."""

    name: str = ""
    seed_file: str = ""
    formats: tuple[str, ...] = ("seed", "json", "compact")
    #: Whether an answer may span several lines (then only ``--per-case`` can delimit it).
    multiline: bool = False
    #: Whether wrong answers can be shrunk to simpler failing cases.
    shrinkable: bool = True
    #: How many random cases ``--cases`` gives when not told.
    default_cases: int = 1000

    def __init__(self, input_format: str = "seed") -> None:
        if input_format not in self.formats:
            raise InputError(
                f"unknown --input-format {input_format!r} for {self.name}; "
                f"choose from {', '.join(self.formats)}"
            )
        self.input_format = input_format

    @abstractmethod
    def format_input(self, hands: Hands) -> str:
        """The case as one input line, in the configured format."""

    @abstractmethod
    def seed_cases(self) -> list[Case]:
        """Every test case the seed itself gives."""

    @abstractmethod
    def generated_cases(self, count: int, seed: int) -> list[Case]:
        """Adversarial and exhaustive-class cases, then ``count`` random ones, from ``seed``."""

    @abstractmethod
    def answer(self, hands: Hands) -> str:
        """A correct answer in the seed's own form (what a case file lists as expected)."""

    def explain(self, hands: Hands) -> str:
        """The expected answer for a report; by default the same as :meth:`answer`."""
        return self.answer(hands)

    @abstractmethod
    def judge(self, hands: Hands, answer: str) -> str | None:
        """``None`` when ``answer`` is a correct answer to the case, else the reason it is not."""

    def notes(self) -> list[str]:
        """Anything the report should say about how this challenge was checked."""
        return []

    def settings_json(self) -> dict[str, Any]:
        """How the challenge was configured, for every JSON report (the Big 2 rules)."""
        return {}

    def report_extra(self, cases: Sequence[Case], answers: Sequence[str | None]) -> dict[str, Any]:
        """Further results for an answer that passed every case (the six-card scores)."""
        return {}

    def neighbours(self, hands: Hands) -> Iterable[Hands]:
        """Nearby cases to try while shrinking; only those of smaller :meth:`measure` count."""
        return ()

    def measure(self, hands: Hands) -> tuple[int, ...]:
        """How complicated a case looks; shrinking walks to smaller values."""
        return tuple(card for hand in hands for card in hand)

    def cases(self, count: int, seed: int) -> list[Case]:
        """Seed cases first, then the generated ones, without repeats.

        :raises InputError: for a negative ``count`` or one above :data:`MAX_CASES`.
        """
        if not 0 <= count <= MAX_CASES:
            raise InputError(f"--cases must be between 0 and {MAX_CASES:,}, not {count:,}")
        seen: set[Hands] = set()
        out = []
        for case in self.seed_cases() + self.generated_cases(count, seed):
            if case.hands not in seen:
                seen.add(case.hands)
                out.append(case)
        return out


# Shared machinery for card challenges ------------------------------------------------------


def json_cards(notation: Notation, hands: Hands) -> str:
    return json.dumps([notation.card_strings(hand) for hand in hands], separators=(",", ":"))


class CardChallenge(Challenge):
    """A challenge whose cases are hands of distinct cards from one 52-card deck.

    ``rank_order[r]`` is the game's rank position of poker rank ``r`` (0 = lowest in the game);
    shrinking moves cards to lower game ranks and to fewer distinct suits.
    """

    notation: Notation = Notation()
    rank_order: tuple[int, ...] = tuple(range(13))

    def measure(self, hands: Hands) -> tuple[int, ...]:
        cards = [card for hand in hands for card in hand]
        ranks = [self.rank_order[rank_of(card)] for card in cards]
        flat = [
            value
            for card, rank in zip(cards, ranks, strict=True)
            for value in (rank, suit_of(card))
        ]
        return (sum(ranks), len({suit_of(card) for card in cards}), *flat)

    def neighbours(self, hands: Hands) -> Iterator[Hands]:
        """Every case with one card moved to a lower game rank or to another suit."""
        used = {card for hand in hands for card in hand}
        by_position = {position: rank for rank, position in enumerate(self.rank_order)}
        for h, hand in enumerate(hands):
            for i, card in enumerate(hand):
                rank, suit = rank_of(card), suit_of(card)
                moves = [make_card(rank, other) for other in range(4) if other != suit]
                moves += [
                    make_card(by_position[position], suit)
                    for position in range(self.rank_order[rank])
                ]
                for new in moves:
                    if new not in used:
                        changed = hand[:i] + (new,) + hand[i + 1 :]
                        yield hands[:h] + (changed,) + hands[h + 1 :]


def random_hands(rng: random.Random, sizes: Sequence[int]) -> Hands:
    """Random hands of the given sizes dealt from one deck."""
    cards = rng.sample(range(52), sum(sizes))
    out = []
    for size in sizes:
        out.append(tuple(cards[:size]))
        cards = cards[size:]
    return tuple(out)


def find(
    rng: random.Random, make: Callable[[], Hands | None], ok: Callable[[Hands], bool], tries: int
) -> Hands | None:
    """The first case ``make`` builds that passes ``ok``, or ``None`` after ``tries`` attempts."""
    for _ in range(tries):
        hands = make()
        if hands is not None and ok(hands):
            return hands
    return None


def distinct(hands: Hands) -> bool:
    cards = [card for hand in hands for card in hand]
    return len(set(cards)) == len(cards)


# Two-sided challenges ----------------------------------------------------------------------


def parse_answer_map(text: str) -> dict[str, str]:
    """Read ``--map``: ``TOKEN=left,TOKEN=right,TOKEN=both``; tokens may contain commas.

    Whitespace inside tokens is ignored when answers are matched.

    >>> parse_answer_map("1=left,-1=right,0=both")
    {'1': 'left', '-1': 'right', '0': 'both'}
    >>> parse_answer_map("[1, 0]=left,[0, 1]=right,[1, 1]=both")
    {'[1,0]': 'left', '[0,1]': 'right', '[1,1]': 'both'}
    >>> parse_answer_map("1=left,1=right")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: --map gives '1' two meanings

    :raises InputError: for text that is not such a list, or a token given twice.
    """
    pattern = re.compile(r"\s*(.+?)\s*=\s*(left|right|both)\s*(?:,|$)", re.IGNORECASE)
    out: dict[str, str] = {}
    pos = 0
    while pos < len(text):
        match = pattern.match(text, pos)
        if match is None:
            raise InputError(
                f"cannot read --map at {text[pos:]!r}; write e.g. '1=left,2=right,0=both'"
            )
        token = re.sub(r"\s+", "", match.group(1))
        if token in out:
            raise InputError(f"--map gives {token!r} two meanings")
        out[token] = match.group(2).lower()
        pos = match.end()
    if not out:
        raise InputError("--map is empty")
    if len(set(out.values())) != len(out):
        raise InputError("--map must give each of left, right, both at most one token")
    return out


_DEFAULT_WORDS = {
    "left": "left",
    "1": "left",
    "right": "right",
    "2": "right",
    "both": "both",
    "draw": "both",
    "tie": "both",
}


class Showdown(CardChallenge):
    """Two hands in, the winner(s) out: ``left``, ``right`` or ``both`` for a draw.

    Without a map an answer may print those words, ``1``/``2``, ``draw`` or ``tie`` (any case);
    with a map exactly its tokens.  Either way the winning hand's cards (or all cards, for a
    draw) are accepted too, in any order and separation.
    """

    hand_size = 4

    def __init__(self, input_format: str = "seed", answer_map: dict[str, str] | None = None):
        super().__init__(input_format)
        self.answer_map = answer_map

    @abstractmethod
    def winners(self, hands: Hands) -> Sequence[int]:
        """The reference: 0-based indices of the winning hands."""

    def side(self, hands: Hands) -> str:
        won = tuple(self.winners(hands))
        return "both" if len(won) == 2 else SIDES[won[0]]

    def format_input(self, hands: Hands) -> str:
        if self.input_format == "json":
            return json_cards(self.notation, hands)
        if self.input_format == "compact":
            return "".join(self.notation.format(card) for hand in hands for card in hand)
        return self.seed_line(hands)

    def seed_line(self, hands: Hands) -> str:
        return " - ".join(self.notation.format_cards(hand) for hand in hands)

    def side_cards(self, hands: Hands, side: str) -> str:
        if side == "both":
            return self.seed_line(hands)
        return self.notation.format_cards(hands[SIDES.index(side)])

    def token_for(self, side: str) -> str | None:
        if self.answer_map is None:
            return None
        return next((token for token, meaning in self.answer_map.items() if meaning == side), None)

    def read_side(self, hands: Hands, answer: str) -> tuple[str | None, str]:
        """The side an answer names, or ``None`` and why it cannot be read."""
        text = answer.strip()
        if self.answer_map is not None:
            meaning = self.answer_map.get(re.sub(r"\s+", "", text))
            if meaning is not None:
                return meaning, ""
        else:
            meaning = _DEFAULT_WORDS.get(" ".join(text.lower().split()))
            if meaning is not None:
                return meaning, ""
        if not text:
            return None, "empty answer"
        try:
            cards = parse_cards(re.sub(r"[-|]", " ", text))
        except CardParseError:
            known = "the --map tokens" if self.answer_map else "left/right/both, 1/2/both"
            return None, f"cannot read answer {text[:80]!r} (expected cards or {known})"
        left, right = set(hands[0]), set(hands[1])
        shown = set(cards)
        if len(shown) == len(cards):
            if shown == left:
                return "left", ""
            if shown == right:
                return "right", ""
            if shown == left | right:
                return "both", ""
        return None, "the cards printed are neither hand nor both hands"

    def judge(self, hands: Hands, answer: str) -> str | None:
        said, why = self.read_side(hands, answer)
        if said is None:
            return why
        expected = self.side(hands)
        if said == expected:
            return None
        said_words = {"left": "left wins", "right": "right wins", "both": "a draw"}
        truth = {"left": "left wins", "right": "right wins", "both": "it is a draw"}
        return f"the answer says {said_words[said]}, but {truth[expected]}"

    def answer(self, hands: Hands) -> str:
        return self.side_cards(hands, self.side(hands))

    def explain(self, hands: Hands) -> str:
        side = self.side(hands)
        token = self.token_for(side)
        shown = f"{token!r} = {side}" if token is not None else side
        return f"{shown} ({self.describe(hands)})"

    def describe(self, hands: Hands) -> str:
        """Why the expected side wins, for reports."""
        return self.side_cards(hands, self.side(hands))


class CaseList(list[Case]):
    """Generated cases, numbered as they come: ``add("draw", hands)`` appends ``draw-12``.

    With ``rng`` (two-sided challenges) each case's hands are put in random order, so an
    answer biased to one side cannot hide.
    """

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__()
        self.rng = rng

    def add(self, prefix: str, hands: Hands | None) -> None:
        """Keep a case; ``None`` (a search that found nothing) is skipped."""
        if hands is None:
            return
        if self.rng is not None:
            hands = oriented(self.rng, hands)
        self.append(Case(f"{prefix}-{len(self) + 1}", hands))


def swap(hands: Hands) -> Hands:
    return (hands[1], hands[0])


def oriented(rng: random.Random, hands: Hands) -> Hands:
    """The case with its hands in random order, so a side-biased answer cannot hide."""
    return swap(hands) if rng.random() < 0.5 else hands


def card(text: str) -> Card:
    """One card from its name (used to write fixed cases readably)."""
    (out,) = parse_cards(text)
    return out
