"""Checking a claimed answer: is every play legal, is every card used once, is the count the
fewest possible.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from handsolver.models.big2 import (
    SEED_RULES,
    IllegalPlayError,
    Rules,
    answer_readings,
    play_kind,
)
from handsolver.models.cards import Card, CardSet, InputError, Notation, cards_of, parse_cards
from handsolver.solver.big2.fewest.partition import DEFAULT_TIME_LIMIT, Check, Partition, hand_mask
from handsolver.solver.big2.fewest.solve import fewest_plays


def check_answer(
    hand: CardSet | Iterable[Card],
    plays: Sequence[Iterable[Card]],
    *,
    notation: Notation | None = None,
    rules: Rules = SEED_RULES,
    time_limit: float = DEFAULT_TIME_LIMIT,
    best: Partition | None = None,
) -> Check:
    """Judge a claimed answer: is it a partition of ``hand`` into legal plays, with fewest plays?

    ``plays`` is a sequence of plays, each a collection of cards (duplicates allowed, so they
    can be reported).  Plays are legal by ``rules`` (the seed's by default).  Problems name
    cards in ``notation`` (standard by default): cards not in the hand, cards played twice,
    cards missing, illegal plays and why, too many plays.
    This is the function the golf verifier calls.

    >>> hand = parse_cards("4D 4S 4H 4C 5H 5D 5C 5S 9S 9D 9H 9C AD")
    >>> check_answer(hand, [parse_cards("4D4S4H4CAD"), parse_cards("5D5H5C5S9S"),
    ...                     parse_cards("9D9H9C")]).optimal
    True
    >>> check_answer(hand, [parse_cards("4D4S4H4C"), parse_cards("AD 5D5H5C5S9S"),
    ...                     parse_cards("9D9H9C")]).problems[0]
    "play 1 '4d 4c 4h 4s' is not a play: no play has 4 cards"
    """
    notation = notation or Notation()
    key = rules.card_keys.__getitem__
    mask = hand_mask(hand)
    problems: list[str] = []
    seen: dict[Card, int] = {}
    for number, play in enumerate(plays, 1):
        cards = list(play)
        for card in cards:
            seen[card] = seen.get(card, 0) + 1
        if len(set(cards)) != len(cards):
            continue  # reported below as a card played twice
        try:
            play_kind(cards, rules)
        except IllegalPlayError as error:
            reason = str(error).split(" is not a play: ", 1)[-1]
            shown = " ".join(notation.card_strings(sorted(cards, key=key)))
            problems.append(f"play {number} {shown!r} is not a play: {reason}")
    for card in sorted(seen, key=key):
        if not mask >> card & 1:
            problems.append(f"card {notation.format(card)} is not in the hand")
        elif seen[card] > 1:
            problems.append(f"card {notation.format(card)} is played {seen[card]} times")
    for card in sorted(cards_of(mask), key=key):
        if card not in seen:
            problems.append(f"card {notation.format(card)} is missing")
    best = best or fewest_plays(mask, rules=rules, time_limit=time_limit)
    valid = not problems
    # A valid answer can never beat the proven bound, so reaching it proves it optimal.
    optimal = valid and len(plays) <= best.bound
    if valid and len(plays) > best.count:
        fewest = "the fewest is" if best.optimal else "there is a partition with"
        problems.append(f"{len(plays)} plays; {fewest} {best.count}")
    elif valid and not optimal:
        problems.append(f"could not prove {len(plays)} plays optimal within the time limit")
    return Check(valid, optimal, len(plays), best.count, tuple(problems), rules)


def check_answer_text(
    hand: CardSet | Iterable[Card],
    answer: str,
    *,
    notation: Notation | None = None,
    rules: Rules = SEED_RULES,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Check:
    """Judge an answer as written: optimal if *any* reading of its delimiters is an optimal
    partition (see :func:`~handsolver.models.big2.answer_readings`); otherwise the verdict on the
    first reading whose tokens are all cards.  The golf verifier and ``big2 check`` both use it.

    >>> hand = parse_cards("AS,4H,6D,8C,7C,3S,5H,8D,4C,2S,0C,AD,AH")
    >>> check_answer_text(hand, "ASAHAD8D8C, 2S3S4H5H6D, 4C, 7C, 0C").optimal
    True
    >>> check_answer_text(hand, "(AS AH AD 8D 8C) (2S 3S 4H 5H 6D) (4C) (7C) (0C)").optimal
    True

    :raises InputError: when no reading consists of cards only.
    """
    mask = hand_mask(hand)
    best = fewest_plays(mask, rules=rules, time_limit=time_limit)
    first: Check | None = None
    first_error: InputError | None = None
    for chunks in answer_readings(answer):
        try:
            plays = [cards for chunk in chunks if (cards := parse_cards(chunk))]
        except InputError as error:
            first_error = first_error or error
            continue
        if not plays:
            continue
        verdict = check_answer(
            mask, plays, notation=notation, rules=rules, time_limit=time_limit, best=best
        )
        if verdict.optimal:
            return verdict
        first = first or verdict
    if first is None:
        raise first_error or InputError("the answer has no plays")
    return first
