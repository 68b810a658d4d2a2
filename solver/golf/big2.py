"""The ``big2`` challenge (big2-fewest-plays): 13 cards -> a partition into the fewest plays.

Any optimal partition is right, in any order: an answer is accepted when any reading of its
delimiters (:func:`~handsolver.models.big2.answer_readings`; lines need ``--per-case``) is a
partition of the hand into legal plays of the fewest count, as ``handsolver big2 check`` judges it.

The seed's rules are the challenge's; ``--rules`` judges under another profile
(:func:`~handsolver.models.big2.parse_rules` reads it, e.g. ``"hk --no-triples"``), and the
report names the rules it used.

With ``--input-format ints`` a hand is a JSON list of card ints (``rank * 4 + suit``, deuce
= 0 .. ace = 12, suits c d h s), as one published answer takes it, and the numbers in the
answer are read as such cards.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from handsolver.models.big2 import SEED_RULES, parse_rules
from handsolver.models.cards import InputError, Notation, card_name, parse_deal
from handsolver.solver import big2 as engine
from handsolver.solver.golf.challenge import CardChallenge, Case, CaseList, Hands, random_hands

SEED_CASES = (
    "AS,4H,6D,8C,7C,3S,5H,8D,4C,2S,0C,AD,AH",
    "2D,0H,5S,0S,4H,AS,4C,6C,6H,KC,8H,5H,8S",
    "4D,4S,4H,4C,5H,5D,5C,5S,9S,9D,9H,9C,AD",
    # Suggested in the seed's comments: flush + full house + pair + single; A2345 + 9-K + 3.
    "2D,7D,8S,AS,2C,9D,5D,2S,AC,0D,8C,8H,5H",
    "5D,2H,4S,QH,9S,2D,9C,JH,0S,AC,KS,JS,3S",
)

HAND_SIZE = 13
# Big 2 order: the three lowest, the deuce highest (poker rank 0 is the deuce).
BIG2_ORDER = tuple((rank - 1) % 13 for rank in range(13))
_ACE = 12


class Big2Challenge(CardChallenge):
    """Big 2: empty 13 cards in the fewest legal plays (singles, pairs, triples, five-card)."""

    name = "big2"
    seed_file = "big2-fewest-plays.txt"
    formats = ("seed", "json", "compact", "spaced", "ints")
    multiline = True
    default_cases = 300
    notation = Notation(ten="0", upper_suits=True, sep=",")
    rank_order = BIG2_ORDER

    def __init__(self, input_format: str = "seed", rules: str | None = None) -> None:
        super().__init__(input_format)
        self.rules = SEED_RULES if rules is None else parse_rules(rules)

    def notes(self) -> list[str]:
        return [f"rules: {self.rules.name}"]

    def settings_json(self) -> dict[str, Any]:
        return {"rules": self.rules.to_json(self.notation)}

    def format_input(self, hands: Hands) -> str:
        (hand,) = hands
        if self.input_format == "json":
            return json.dumps(self.notation.card_strings(hand), separators=(",", ":"))
        if self.input_format == "compact":
            return "".join(self.notation.card_strings(hand))
        if self.input_format == "spaced":
            return " ".join(self.notation.card_strings(hand))
        if self.input_format == "ints":
            return json.dumps(list(hand), separators=(",", ":"))
        return self.notation.format_cards(hand)

    def seed_cases(self) -> list[Case]:
        return [
            Case(f"seed-{i}", parse_deal(line, hand_size=HAND_SIZE).hands)
            for i, line in enumerate(SEED_CASES, 1)
        ]

    def answer(self, hands: Hands) -> str:
        (hand,) = hands
        best = engine.fewest_plays(hand, rules=self.rules)
        return ", ".join(
            "".join(self.notation.card_strings(play.cards_in(self.rules))) for play in best.plays
        )

    def explain(self, hands: Hands) -> str:
        (hand,) = hands
        best = engine.fewest_plays(hand, rules=self.rules)
        return f"{best.count} plays, e.g. {self.answer(hands)}"

    def judge(self, hands: Hands, answer: str) -> str | None:
        (hand,) = hands
        if self.input_format == "ints":
            # Cards as the ints of the input (rank * 4 + suit, deuce = rank 0): name them.
            answer = re.sub(r"\d+", lambda m: _int_card(m.group()), answer)
        try:
            verdict = engine.check_answer_text(
                hand, answer, notation=self.notation, rules=self.rules
            )
        except InputError as error:
            return f"cannot read the answer: {error}"
        return None if verdict.optimal else "; ".join(verdict.problems[:3])

    def generated_cases(self, count: int, seed: int) -> list[Case]:
        rng = random.Random(seed)
        out = CaseList()

        def add(prefix: str, cards: list[int]) -> None:
            """Complete ``cards`` (distinct) to 13 with random others and keep the case."""
            rest = [card for card in rng.sample(range(52), 52) if card not in cards]
            hand = cards[:HAND_SIZE] + rest[: HAND_SIZE - len(cards)]
            rng.shuffle(hand)
            out.add(prefix, (tuple(hand),))

        def spread(ranks: list[int]) -> list[int]:
            """One card of each rank in random suits (distinct ranks, so never a clash)."""
            return [rank * 4 + rng.randrange(4) for rank in ranks]

        for _ in range(20):
            # Flush against pairs: five suited cards whose ranks all pair up elsewhere.
            suit = rng.randrange(4)
            ranks = rng.sample(range(13), 5)
            paired = [rank * 4 + rng.choice([s for s in range(4) if s != suit]) for rank in ranks]
            add("flush-vs-pairs", [rank * 4 + suit for rank in ranks] + paired)
        for _ in range(15):
            add("wheel", spread([_ACE, 0, 1, 2, 3]))
            add("ten-to-ace", spread([8, 9, 10, 11, _ACE]))
            # Both ace straights at once, and the wrapped runs that are not straights.
            add("ace-straights", spread([_ACE, 0, 1, 2, 3]) + spread([8, 9, 10, 11]))
            add("wrapped", spread([10, 11, _ACE, 0, 1]))
        for _ in range(20):
            # Quads whose fifth card must come from another group.
            ranks = rng.sample(range(13), 3)
            add("quads", [rank * 4 + suit for rank in ranks for suit in range(4)])
            ranks = rng.sample(range(13), 2)
            add("quads", [rank * 4 + suit for rank in ranks for suit in range(4)])
        for _ in range(30):
            # Many triples and pairs: the optimum often splits a triple into a pair.
            ranks = rng.sample(range(13), 5)
            cards = [r * 4 + s for r in ranks[:3] for s in rng.sample(range(4), 3)]
            cards += [r * 4 + s for r in ranks[3:] for s in rng.sample(range(4), 2)]
            add("triples", cards)
        for _ in range(30):
            # Few ranks, many of each.
            ranks = rng.sample(range(13), rng.choice((4, 5)))
            pool = [r * 4 + s for r in ranks for s in range(4)]
            add("dense", rng.sample(pool, HAND_SIZE))
        out += [Case(f"random-{i}", random_hands(rng, (HAND_SIZE,))) for i in range(1, count + 1)]
        return out


def _int_card(token: str) -> str:
    number = int(token)
    return card_name(number) if number < 52 else f"?{token}"
