"""Opponent boards sampled for the fantasyland objective: what one opponent may end with.

Each board is dealt from the cards not in my hand, a deck shuffled by a generator seeded with
``seed`` (the same hand and seed give the same boards), street by street as the rules' variant
deals a normal hand (Pineapple: 5 cards, then four times 3; classic: 5, then eight single
cards), and played by the policy of
:mod:`handsolver.solver.ofc.play`: every street but the last by :func:`~.play.policy_score`,
the last by its best action for the opponent's own royalties and fantasyland.  The policy
fouls often; a fouled board pays my royalties and a scoop.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from handsolver.models.cards import Card, InputError
from handsolver.models.ofc import OfcRules
from handsolver.models.split import Setting

MAX_SAMPLED_BOARDS = 10_000


def sampled_boards(
    hand: Sequence[Card],
    count: int,
    seed: int | str,
    rules: OfcRules,
    fantasy_value: Fraction = Fraction(0),
    watch: Callable[[Iterable[int], int], Iterable[int]] | None = None,
) -> tuple[Setting, ...]:
    """``count`` complete opponent boards (bottom, middle, top) dealt from the cards not in
    ``hand`` and played by the policy, which values earning fantasyland at ``fantasy_value``.
    ``watch`` wraps the board numbers with their count (the command shows progress with it).

    >>> from handsolver.models.cards import parse_cards
    >>> hand = parse_cards("Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c")
    >>> boards = sampled_boards(hand, 3, seed=1, rules=OfcRules())
    >>> [sorted(map(len, board)) for board in boards]
    [[3, 5, 5], [3, 5, 5], [3, 5, 5]]
    >>> any(card in hand for board in boards for row in board for card in row)
    False

    :raises InputError: a count out of range.
    """
    from handsolver.solver.ofc.play import Scorer, played_out

    if not 1 <= count <= MAX_SAMPLED_BOARDS:
        raise InputError(f"sampled opponents must be 1 to {MAX_SAMPLED_BOARDS:,}, got {count}")
    held = set(hand)
    unseen = [card for card in rules.deck if card not in held]
    rng = random.Random(f"ofc-opponents-{seed}")
    scorer = Scorer(rules, fantasy_value)
    boards = []
    numbers: Iterable[int] = range(count)
    for _ in numbers if watch is None else watch(numbers, count):
        deck = unseen[:]
        rng.shuffle(deck)
        boards.append(played_out(((), (), ()), deck, scorer))
    return tuple(boards)
