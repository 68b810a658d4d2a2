"""The ``sixcard`` challenge (the MATLAB six-card puzzler): a strategy program, hand -> split.

There is no single right answer: any split of the hand into High (3 cards), Middle (2) and
Low (1) is legal.  The verifier asks the program about every one of the 68 hands, checks each
answer is a split of that hand, and then scores the strategy the answers make exactly against
the built-in ``random``, ``sorted`` and ``equilibrium`` strategies.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from handsolver.models import sixcard
from handsolver.solver.golf.challenge import Case, Challenge, Hands

OPPONENTS = ("random", "sorted", "equilibrium")


def read_split(answer: str) -> tuple[tuple[int, ...], ...] | None:
    """The (High, Middle, Low) parts an answer names, or ``None`` if it names no 3+2+1 split.

    Three runs of digits of sizes 3, 2 and 1 are taken by size, in any order; otherwise the
    first three digits are High, the next two Middle and the last one Low.

    >>> read_split("234 12 1"), read_split("[[2,3,4],[1,2],[1]]"), read_split("1 21 342")
    (((2, 3, 4), (1, 2), (1,)), ((2, 3, 4), (1, 2), (1,)), ((2, 3, 4), (1, 2), (1,)))
    >>> read_split("12345") is None
    True
    """
    runs = re.findall(r"\d+", answer)
    if sorted(len(run) for run in runs) == [1, 2, 3]:
        parts = sorted(runs, key=len, reverse=True)
    else:
        digits = "".join(runs)
        if len(digits) != 6:
            return None
        parts = [digits[:3], digits[3:5], digits[5:]]
    return tuple(tuple(sorted(int(d) for d in part)) for part in parts)


class SixCardChallenge(Challenge):
    """Every hand's answer must be a split of it; the exact contest scores are reported."""

    name = "sixcard"
    seed_file = "six-card-poker-puzzler.txt"
    formats = ("seed", "json", "spaced")
    shrinkable = False
    default_cases = 0

    def format_input(self, hands: Hands) -> str:
        (hand,) = hands
        if self.input_format == "json":
            return json.dumps(list(hand), separators=(",", ":"))
        if self.input_format == "spaced":
            return " ".join(map(str, hand))
        return sixcard.format_hand(hand)

    def seed_cases(self) -> list[Case]:
        return [Case(f"hand-{i}", (hand,)) for i, hand in enumerate(sixcard.hands(), 1)]

    def generated_cases(self, count: int, seed: int) -> list[Case]:
        return []

    def notes(self) -> list[str]:
        return ["every one of the 68 hands is asked; --cases and --seed do not apply"]

    def answer(self, hands: Hands) -> str:
        (hand,) = hands
        return "any split, e.g. " + sixcard.format_split(sixcard.sorted_split(hand)).replace(
            "|", " "
        )

    def judge(self, hands: Hands, answer: str) -> str | None:
        (hand,) = hands
        split = read_split(answer)
        if split is None:
            return f"cannot read a 3+2+1 split from {answer[:80]!r}"
        if Counter(card for part in split for card in part) != Counter(hand):
            return "the split's cards are not the hand's"
        return None

    def report_extra(self, cases: Sequence[Case], answers: Sequence[str | None]) -> dict[str, Any]:
        """The exact score of the answered strategy against each built-in strategy."""
        from handsolver.solver import sixcard as engine

        chosen = {}
        for case, answer in zip(cases, answers, strict=True):
            split = read_split(answer or "")
            if split is None:
                return {}
            chosen[case.hands[0]] = split
        t = engine.tables()
        mine = engine.pure_strategy(t, "answer", lambda hand: chosen[hand])
        scores: dict[str, Any] = {}
        for name in OPPONENTS:
            score: Fraction = engine.evaluate(mine, engine.strategy_from_spec(name, t), t).score
            scores[name] = {"score": str(score), "percent": round(float(score) * 100, 4)}
        return {"scores": scores}
