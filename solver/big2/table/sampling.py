"""The hands a Big 2 player cannot see, dealt at random consistently with what the player knows.

At the table a player knows the own hand, every card played so far and how many cards each
opponent holds.  The unseen cards are the rest of the deck: the opponents hold some of them and,
with fewer than four players, the others were never dealt.  :func:`sample_hands` deals the
unseen cards at random: every assignment of the unseen cards to the opponents (so many each, as
counted) and to the undealt rest is equally likely, which is what the player knows when nothing
else is taken into account.  :func:`consistent_deals` counts those assignments; where there is
one (a single opponent holds every unseen card, or the only unseen cards were never dealt),
nothing is left to chance.

>>> from handsolver.models.cards import mask_of, parse_cards
>>> unseen = mask_of(parse_cards("3c 3d 4c 4d"))
>>> consistent_deals(unseen, (2, 1))
12
>>> deals = sample_hands(unseen, (2, 1), samples=3, seed=7)
>>> [[hand.bit_count() for hand in deal] for deal in deals]
[[2, 1], [2, 1], [2, 1]]
>>> sample_hands(unseen, (4,), samples=5, seed=7) == [(unseen,)]
True
"""

from __future__ import annotations

import random
from math import factorial

from handsolver.models.cards import CardSet, InputError, cards_of

__all__ = ["consistent_deals", "sample_hands", "unseen_cards"]

FULL_DECK: CardSet = (1 << 52) - 1


def unseen_cards(hand: CardSet, played: CardSet) -> CardSet:
    """The cards neither in ``hand`` nor played.

    :raises InputError: a card both in the hand and among the played cards.
    """
    both = hand & played
    if both:
        from handsolver.models.cards import card_name

        name = card_name(cards_of(both)[0])
        raise InputError(
            f"card {name} is both in the hand and among the played cards", about="played"
        )
    return FULL_DECK & ~hand & ~played


def consistent_deals(unseen: CardSet, counts: tuple[int, ...]) -> int:
    """How many ways the ``unseen`` cards can be split into hands of ``counts`` cards (the rest
    undealt): a multinomial coefficient.

    :raises InputError: more cards counted than are unseen, or a count below zero.
    """
    total = unseen.bit_count()
    _check_counts(total, counts)
    ways = factorial(total) // factorial(total - sum(counts))
    for count in counts:
        ways //= factorial(count)
    return ways


def sample_hands(
    unseen: CardSet, counts: tuple[int, ...], *, samples: int, seed: int
) -> list[tuple[CardSet, ...]]:
    """``samples`` deals of the ``unseen`` cards into hands of ``counts`` cards, uniform over the
    consistent deals (:func:`consistent_deals`); a single deal, once, when only one is
    consistent.  The same ``seed`` gives the same deals.

    Each deal shuffles the unseen cards (Fisher-Yates, :meth:`random.Random.shuffle`) and hands
    them out in order, so every ordering and hence every split is equally likely.

    :raises InputError: more cards counted than are unseen, or a count below zero.
    """
    cards = list(cards_of(unseen))
    _check_counts(len(cards), counts)
    if consistent_deals(unseen, counts) == 1:
        return [_split(cards, counts)]
    rng = random.Random(seed)
    deals = []
    for _ in range(samples):
        rng.shuffle(cards)
        deals.append(_split(cards, counts))
    return deals


def _split(cards: list[int], counts: tuple[int, ...]) -> tuple[CardSet, ...]:
    hands = []
    start = 0
    for count in counts:
        hands.append(sum(1 << card for card in cards[start : start + count]))
        start += count
    return tuple(hands)


def _check_counts(unseen: int, counts: tuple[int, ...]) -> None:
    for count in counts:
        if count < 0:
            raise InputError(f"a player cannot hold {count} cards", about="counts")
    if sum(counts) > unseen:
        raise InputError(
            f"the opponents' counts {','.join(map(str, counts))} add up to {sum(counts)} cards, "
            f"but only {unseen} are neither in the hand nor played",
            about="counts",
        )
