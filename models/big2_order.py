"""Which Big 2 play beats which, as the rules (:class:`~handsolver.models.big2_rules.Rules`)
say, and the legal replies to a play.

A play beats another of the same size and, among five-card plays, of a higher kind
(:attr:`Rules.five_card_order`), or of the same kind and higher within it:

* singles, pairs, triples, four of a kind alone and dragons by their highest card: the rank
  first (three lowest, two highest), then its suit (:attr:`Rules.suit_order`);
* among four-card plays, four of a kind alone beats two pair alone (:attr:`Rules.four_card_order`);
  two pair alone against two pair alone by its highest card (the higher pair, as pairs compare);
* straights and straight flushes by the place of their ranks in
  :attr:`Rules.straights_low_to_high`, the same ranks by their highest card;
* flushes by their ranks from the top down, then the suit (``flush_order`` rank), by the suit
  first (``flush_order`` suit), or by their highest card alone, as singles (``flush_order``
  high-card);
* full houses by the rank of the three, four of a kind + 1 by the rank of the four, two pair + 1
  by the higher pair, the lower pair, then the higher pair's top suit.

Where the rules have ``bombs``, four of a kind + 1 and a straight flush also beat a single 2;
where they have ``unbeatable_straight_flush``, no play beats a straight flush (the straight
flushes are of one strength: none beats another).

>>> from handsolver.models.big2_rules import make_rules

>>> beats(Play.from_text("2d"), Play.from_text("As"))
True
>>> beats(Play.from_text("Kc Kd"), Play.from_text("Kh Ks"))
False
>>> beats(Play.from_text("3c 3d 3h 4c 4d"), Play.from_text("4s 5s 8s 9s Js"))
True
>>> beats(Play.from_text("9c 9d 9h 9s 3c"), Play.from_text("2s"))
False
>>> beats(Play.from_text("9c 9d 9h 9s 3c"), Play.from_text("2s"), make_rules(bombs=True))
True
>>> alone = make_rules(two_pair_alone=True, quads="alone")
>>> beats(Play.from_text("3c 3d 4c 4d", alone), Play.from_text("Kh Kd 2c 2d", alone), alone)
False
>>> beats(Play.from_text("3c 3d 3h 3s", alone), Play.from_text("Kh Kd 2c 2d", alone), alone)
True
>>> high_card = make_rules(flush_order="high-card")
>>> beats(Play.from_text("4s 5s 6s 8s As"), Play.from_text("Qh Kh Jh 9h Ah"), high_card)
True
>>> royal, low = Play.from_text("Ts Js Qs Ks As"), Play.from_text("3c 4c 5c 6c 7c")
>>> beats(royal, low), beats(royal, low, make_rules(unbeatable_straight_flush=True))
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from handsolver.models.big2 import Play, PlayKind, iter_legal_plays
from handsolver.models.big2_rules import SEED_RULES, FlushOrder, Rules
from handsolver.models.cards import Card, CardSet, cards_of

__all__ = [
    "BOMB_KINDS",
    "KIND_STEP",
    "beats",
    "big2_rank",
    "legal_leads",
    "legal_replies",
    "lowest_card",
    "may_open",
    "order_key",
    "play_strength",
]

#: The kinds that beat a single 2 where the rules have bombs.
BOMB_KINDS = frozenset({PlayKind.FOUR_OF_A_KIND, PlayKind.STRAIGHT_FLUSH})
_DEUCE = 0  # poker rank of the two, the highest Big 2 rank
KIND_STEP = 1 << 24
"""A five-card play's strength is its kind's place in :attr:`Rules.five_card_order` times this,
plus its strength among the plays of its kind (less than this)."""


def big2_rank(card: Card) -> int:
    """The card's Big 2 rank: 0 for a three .. 11 for an ace, 12 for a two."""
    return ((card >> 2) - 1) % 13


@lru_cache(maxsize=1 << 16)
def play_strength(play: Play, rules: Rules = SEED_RULES) -> int:
    """A number that orders the plays of one size as the rules do (greater beats smaller);
    remembered by play and rules, as the same plays are weighed over and over (a hand's plays
    at each of its turns, and in every sampled deal).

    >>> from handsolver.models.big2_rules import make_rules
    >>> taiwan = make_rules("taiwan")
    >>> low, high = Play.from_text("Ac 2d 3h 4s 5c"), Play.from_text("2c 3d 4h 5s 6c")
    >>> play_strength(high, taiwan) > play_strength(Play.from_text("Tc Jd Qh Ks Ac"), taiwan)
    True
    >>> play_strength(low, taiwan) < play_strength(Play.from_text("3c 4d 5h 6s 7c"), taiwan)
    True
    """
    cards = cards_of(play.mask)
    keys = rules.card_keys
    kind = play.kind
    if kind.size == 4 and rules.two_pair_alone:
        # Four of a kind alone and two pair alone: by kind, then the highest card.
        place = rules.four_card_order.index(kind.label)
        return place * KIND_STEP + max(keys[card] for card in cards)
    if kind.size != 5:
        return max(keys[card] for card in cards)
    place = rules.five_card_order.index(kind.label)
    return place * KIND_STEP + _within_kind(kind, cards, rules)


def _within_kind(kind: PlayKind, cards: tuple[Card, ...], rules: Rules) -> int:
    """The strength of a five-card play among the plays of its kind."""
    keys = rules.card_keys
    top = max(keys[card] for card in cards)
    if kind is PlayKind.STRAIGHT_FLUSH and rules.unbeatable_straight_flush:
        return 0
    if kind in (PlayKind.STRAIGHT, PlayKind.STRAIGHT_FLUSH):
        ranks = tuple(sorted({card >> 2 for card in cards}))
        runs = [tuple(sorted(run)) for run in rules.straights_low_to_high]
        return runs.index(ranks) * 64 + top
    counts: dict[int, list[Card]] = {}
    for card in cards:
        counts.setdefault(big2_rank(card), []).append(card)
    if kind is PlayKind.FLUSH:
        value = 0
        for rank in sorted(counts, reverse=True):
            value = value * 13 + rank
        suit = rules.suit_rank[cards[0] & 3]
        if rules.flush_order is FlushOrder.HIGH_CARD:
            return top
        if rules.flush_order is FlushOrder.SUIT:
            return suit * 13**5 + value
        return value * 4 + suit
    by_size = sorted(counts, key=lambda rank: (len(counts[rank]), rank), reverse=True)
    if kind is PlayKind.TWO_PAIR:
        high, low = by_size[0], by_size[1]
        return (high * 13 + low) * 4 + max(keys[card] for card in counts[high]) % 4
    # Full house and four of a kind + 1: the rank of the three or the four.
    return by_size[0]


def order_key(play: Play, rules: Rules = SEED_RULES) -> tuple[int, int]:
    """(size, strength): plays compare only when their sizes are equal."""
    return play.kind.size, play_strength(play, rules)


def beats(play: Play, target: Play, rules: Rules = SEED_RULES) -> bool:
    """Whether ``play`` may be played on ``target`` (see the module's rules)."""
    return _beats(play, target, play_strength(target, rules), rules)


def _beats(play: Play, target: Play, target_strength: int, rules: Rules) -> bool:
    """:func:`beats`, given ``target``'s strength (weighed once against many plays)."""
    if (
        rules.bombs
        and target.kind is PlayKind.SINGLE
        and play.kind in BOMB_KINDS
        and target.mask.bit_length() - 1 >> 2 == _DEUCE
    ):
        return True
    if play.kind.size != target.kind.size:
        return False
    return play_strength(play, rules) > target_strength


def may_open(mask: CardSet, must_hold: CardSet, rules: Rules = SEED_RULES) -> bool:
    """Whether the play ``mask`` may lead where it must hold the cards of ``must_hold`` (the
    lowest card at the start of a deal, else none): it holds them, and where the rules have
    ``open_alone``, the deal's first play is that card alone.

    >>> from handsolver.models.big2_rules import make_rules
    >>> from handsolver.models.cards import mask_of, parse_cards
    >>> pair, three = mask_of(parse_cards("3d 3c")), mask_of(parse_cards("3d"))
    >>> may_open(pair, three), may_open(pair, three, make_rules(open_alone=True))
    (True, False)
    >>> may_open(pair, 0, make_rules(open_alone=True))
    True
    """
    if must_hold and rules.open_alone:
        return mask == must_hold
    return mask & must_hold == must_hold


def legal_leads(hand: CardSet, rules: Rules = SEED_RULES, must_hold: CardSet = 0) -> list[Play]:
    """The plays that may lead a trick from ``hand``: every play, or at the start of a deal
    only those that may open it (:func:`may_open`, ``must_hold`` the lowest card)."""
    return [p for p in iter_legal_plays(hand, rules=rules) if may_open(p.mask, must_hold, rules)]


def legal_replies(hand: CardSet, target: Play, rules: Rules = SEED_RULES) -> list[Play]:
    """The plays in ``hand`` that beat ``target`` (passing is always allowed besides).

    >>> from handsolver.models.cards import STANDARD, mask_of, parse_cards
    >>> hand = mask_of(parse_cards("4c 4d Ks As 2c"))
    >>> [p.format(STANDARD) for p in legal_replies(hand, Play.from_text("Kh"))]
    ['2c', 'Ks', 'As']
    """
    strength = play_strength(target, rules)
    # Only plays of its size beat it, and bombs where the rules have them.
    sizes = {target.kind.size, *(kind.size for kind in BOMB_KINDS if rules.bombs)}
    return [p for p in iter_legal_plays(hand, sizes, rules) if _beats(p, target, strength, rules)]


def lowest_card(cards: Iterable[Card] | CardSet, rules: Rules = SEED_RULES) -> Card:
    """The lowest Big 2 card among ``cards`` (the one that opens a deal).

    >>> from handsolver.models.big2_rules import make_rules
    >>> from handsolver.models.cards import card_name, parse_cards
    >>> card_name(lowest_card(parse_cards("5s 3c 3d 2d")))
    '3d'
    >>> card_name(lowest_card(parse_cards("5s 3c 3d 2d"), make_rules("taiwan")))
    '3c'
    """
    found = cards_of(cards) if isinstance(cards, int) else tuple(cards)
    return min(found, key=rules.card_keys.__getitem__)
