"""Cards as small ints, card sets as bitmasks, and the one parser every command uses.

A card is ``rank * 4 + suit``: rank 0 is the deuce and 12 the ace (poker order), suit 0..3 is
clubs, diamonds, hearts, spades.  Games that order ranks differently (Badugi: ace low; Big 2:
three low, deuce high) map ``rank_of(card)`` through their own table.  A set of cards is an int
with bit ``card`` set.

Parsing is permissive in the ways the seeds and users write cards, and strict about everything
else:

>>> parse_cards("2H3D4H5C6S")
(2, 5, 10, 12, 19)
>>> parse_cards("Kc, 10d 0h Ts") == parse_cards("KC TD TH TS")
True
>>> parse_cards("Kx")
Traceback (most recent call last):
...
handsolver.models.cards.CardParseError: unknown suit 'x' in card 'Kx'

Output keeps the notation of the input, so answers can be pasted back:

>>> deal = parse_deal("0H AD - 5S 4S")
>>> deal.notation.format_cards(deal.hands[0])
'0H AD'
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeAlias

Card: TypeAlias = int
CardSet: TypeAlias = int

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK: tuple[Card, ...] = tuple(range(52))
FULL_DECK_MASK: CardSet = (1 << 52) - 1
JOKERS: tuple[Card, ...] = (52, 53)
"""The two jokers of a 54-card deck, written ``X1`` and ``X2`` (either case); only the games
that deal them read them (``jokers=True``), every other game refuses the token as a card."""
_JOKER_OF_TOKEN = {"X1": 52, "X2": 53}

_RANK_OF_CHAR = {ch: i for i, ch in enumerate(RANKS)} | {"0": 8, "10": 8}
_SUIT_OF_CHAR = {ch: i for i, ch in enumerate(SUITS)}
# A card token: a rank (two characters only for "10") and one suit letter.  Anything else that
# survives separator splitting is reported as the bad token.
_TOKEN = re.compile(r"(10|[^\W_])(\w)", re.ASCII)
_DIGITS = re.compile(r"[0-9]{2,}")
_SEPARATORS = re.compile(r"[\s,;\[\]()'\"]+")
_HAND_SEPARATOR = re.compile(r"[|-]")


class InputError(ValueError):
    """Bad user input.  The message is one line and names the offending token, in words of
    the game; ``about``, where given, names the part of the input it is about (a field such as
    ``"counts"``), so that a command can name its own option for that part."""

    def __init__(self, *args: object, about: str | None = None) -> None:
        super().__init__(*args)
        self.about = about


class CardParseError(InputError):
    """A card string that cannot be read, or a deal that breaks the game's rules."""


def cards_count(count: int) -> str:
    """``count`` cards in words, for messages: ``1 card``, ``3 cards``.

    >>> cards_count(1), cards_count(0), cards_count(3)
    ('1 card', '0 cards', '3 cards')
    """
    return f"{count} card" if count == 1 else f"{count} cards"


def rank_of(card: Card) -> int:
    """The card's poker rank, 0 (deuce) to 12 (ace)."""
    return card >> 2


def suit_of(card: Card) -> int:
    """The card's suit, 0..3 for c, d, h, s."""
    return card & 3


def make_card(rank: int, suit: int) -> Card:
    """The card of poker rank ``rank`` (0 = deuce .. 12 = ace) and suit ``suit`` (0..3)."""
    return rank * 4 + suit


def mask_of(cards: Iterable[Card]) -> CardSet:
    """The bitmask of a collection of cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def rank_mask(rank: int) -> CardSet:
    """The set of the four cards of ``rank`` (a card is ``rank * 4 + suit``, so they are four
    bits in a row).

    >>> cards_of(rank_mask(12))  # the four aces
    (48, 49, 50, 51)
    """
    return 15 << (4 * rank)


def cards_of(mask: CardSet) -> tuple[Card, ...]:
    """The cards of a bitmask, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


@dataclass(frozen=True)
class Notation:
    """How the user wrote cards, so output can be pasted back into the same program.

    ``ten`` is the ten's rank symbol (``T``, ``0`` or ``10``, in the case typed), ``upper_suits``
    and ``lower_ranks`` the letter cases, ``sep`` the separator between cards.
    """

    ten: str = "T"
    upper_suits: bool = False
    lower_ranks: bool = False
    sep: str = " "

    def format(self, card: Card) -> str:
        if card in JOKERS:
            joker = f"X{card - JOKERS[0] + 1}"
            return joker.lower() if self.lower_ranks else joker
        rank = RANKS[rank_of(card)]
        if rank == "T":
            rank = self.ten
        elif self.lower_ranks:
            rank = rank.lower()
        suit = SUITS[suit_of(card)]
        return rank + (suit.upper() if self.upper_suits else suit)

    def format_cards(self, cards: Iterable[Card]) -> str:
        return self.sep.join(self.format(card) for card in cards)

    def card_strings(self, cards: Iterable[Card]) -> list[str]:
        return [self.format(card) for card in cards]


STANDARD = Notation()


def card_name(card: Card) -> str:
    """The card in the standard notation, e.g. ``'Td'``."""
    return STANDARD.format(card)


def _tokens(chunk: str) -> Iterable[tuple[str, str, str]]:
    """Split a separator-free chunk such as ``2H3D10C`` into (token, rank, suit) triples."""
    pos = 0
    while pos < len(chunk):
        digits = _DIGITS.match(chunk, pos)
        if digits is not None and digits.group(0) != "10":
            # No card holds two digits but the ten: '11' is one rank, not a '1' and a suit.
            raise CardParseError(
                f"unknown rank {digits.group(0)!r} in card {chunk[pos:]!r} (ranks are A, 2 to 9, "
                "T or 10, J, Q, K)"
            )
        match = _TOKEN.match(chunk, pos)
        if match is None:
            raise CardParseError(f"bad card {chunk[pos:]!r}")
        yield match.group(0), match.group(1), match.group(2)
        pos = match.end()


def _plain_tokens() -> dict[str, tuple[Card, str, str, str]]:
    """Every card written alone (``Ah``, ``aH``, ``10d``, ``0S``...) -> what the parser yields
    for it: a dictionary look-up reads a line of such tokens several times faster."""
    tokens = {}
    for rank_text, rank in _RANK_OF_CHAR.items():
        for rank_written in {rank_text, rank_text.lower()}:
            for suit_text, suit in _SUIT_OF_CHAR.items():
                for suit_written in (suit_text, suit_text.upper()):
                    card = make_card(rank, suit)
                    tokens[rank_written + suit_written] = (
                        card,
                        rank_written + suit_written,
                        rank_written,
                        suit_written,
                    )
    return tokens


def _parse_tokens(text: str, jokers: bool = False) -> Iterable[tuple[Card, str, str, str]]:
    """Yield (card, token, rank symbol, suit symbol) for every card in ``text``; with
    ``jokers``, ``X1`` and ``X2`` are the jokers (their symbols ``X`` and the digit)."""
    plain = _PLAIN_TOKENS
    for chunk in _SEPARATORS.split(text.replace("|", " ")):
        if not chunk:
            continue
        known = plain.get(chunk)
        if known is not None:
            yield known
            continue
        for token, rank, suit in _tokens(chunk):
            if jokers and rank.upper() == "X":
                joker = _JOKER_OF_TOKEN.get(token.upper())
                if joker is None:
                    raise CardParseError(f"unknown joker {token!r} (the jokers are X1 and X2)")
                yield joker, token, rank, suit
                continue
            rank_index = _RANK_OF_CHAR.get(rank.upper())
            if rank_index is None:
                raise CardParseError(f"unknown rank {rank!r} in card {token!r}")
            suit_index = _SUIT_OF_CHAR.get(suit.lower())
            if suit_index is None:
                raise CardParseError(f"unknown suit {suit!r} in card {token!r}")
            yield make_card(rank_index, suit_index), token, rank, suit


_PLAIN_TOKENS = _plain_tokens()


def parse_cards(text: str, jokers: bool = False) -> tuple[Card, ...]:
    """The cards written in ``text``, in the order written.

    Ranks are ``A 2-9 T J Q K`` (ten also ``0`` or ``10``), suits ``c d h s``, either case.
    Cards may be separated by spaces, commas, brackets, quotes, or nothing at all.  With
    ``jokers`` (a deck of 54), ``X1`` and ``X2`` are the two jokers, cards 52 and 53:

    >>> parse_cards("Ah x2 X1", jokers=True)
    (50, 53, 52)
    >>> parse_cards("Ah X1")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.CardParseError: unknown rank 'X' in card 'X1'

    :raises CardParseError: naming the first token that is not a card.
    """
    return tuple(card for card, _, _, _ in _parse_tokens(text, jokers))


def notation_of(text: str, jokers: bool = False) -> Notation:
    """The notation ``text`` uses: the first ten's symbol and the cases of the first cards
    (the jokers, read with ``jokers``, say nothing of it)."""
    ten: str | None = None
    upper_suits: bool | None = None
    lower_ranks: bool | None = None
    for card, _, rank, suit in _parse_tokens(text, jokers):
        if card in JOKERS:
            continue
        if upper_suits is None:
            upper_suits = suit.isupper()
        if ten is None and rank.upper() in ("T", "0", "10"):
            ten = rank
        elif lower_ranks is None and rank.isalpha():
            lower_ranks = rank.islower()
    if ten is not None and ten.isalpha() and lower_ranks is not None:
        ten = ten.lower() if lower_ranks else ten.upper()
    sep = "," if "," in text and not re.search(r"[^,\s]\s+[^,\s]", text) else " "
    return Notation(
        ten=ten or ("t" if lower_ranks else "T"),
        upper_suits=bool(upper_suits),
        lower_ranks=bool(lower_ranks),
        sep=sep,
    )


def _where(first: int, second: int, hands: int) -> str:
    """Where the two copies of a card are, for a message: nothing when there is one hand."""
    if hands == 1:
        return ""
    if first == second:
        return f" in hand {first}"
    return f": in hand {first} and hand {second}"


class Deal(NamedTuple):
    """Hands parsed from user input, all cards distinct, with the notation they were written in."""

    hands: tuple[tuple[Card, ...], ...]
    notation: Notation


def split_hands(text: str) -> list[str]:
    """Split one string holding several hands at ``|`` or ``-`` (cards never contain either).

    A JSON list of lists of card strings (``[["3c", "2s"], ["As", "3h"]]``) is also accepted.
    """
    stripped = text.strip()
    if stripped.startswith("[["):
        try:
            value = json.loads(stripped)
        except json.JSONDecodeError:
            pass
        else:
            if isinstance(value, list) and all(isinstance(hand, list) for hand in value):
                return [" ".join(str(card) for card in hand) for hand in value]
    return _HAND_SEPARATOR.split(text)


def parse_deal(
    texts: str | Sequence[str],
    *,
    hand_size: int | tuple[int, int] | None = None,
    min_hands: int = 1,
    jokers: bool = False,
) -> Deal:
    """Parse one or more hands, from one string or from one string per argument.

    Each string may itself hold several hands (see :func:`split_hands`).  ``hand_size`` is the
    exact number of cards a hand must have, or an inclusive ``(low, high)`` range.

    >>> parse_deal(["3c 2s 4d Ah", "As 3h 2d 4h"]).hands == parse_deal("3c2s4dAh|As3h2d4h").hands
    True
    >>> parse_deal("3c 2s 4d Ah - As 3h 2d 3c")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.CardParseError: card '3c' is given twice: in hand 1 and hand 2
    >>> parse_deal("3c 2s 4d", hand_size=4)
    Traceback (most recent call last):
    ...
    handsolver.models.cards.CardParseError: hand '3c 2s 4d' has 3 cards; this game needs 4

    ``jokers`` reads the jokers too (see :func:`parse_cards`).

    :raises CardParseError: for a bad token, a repeated card, or a wrong hand size.
    """
    parts = [texts] if isinstance(texts, str) else list(texts)
    hand_texts = [hand for part in parts for hand in split_hands(part)]
    if not any(hand.strip() for hand in hand_texts):
        raise CardParseError("no cards given")
    low, high = (hand_size, hand_size) if isinstance(hand_size, int) else (hand_size or (0, 52))
    seen: dict[Card, int] = {}
    hands = []
    for number, hand_text in enumerate(hand_texts, start=1):
        parsed = list(_parse_tokens(hand_text, jokers))
        hand = tuple(card for card, _, _, _ in parsed)
        if not low <= len(hand) <= high:
            need = str(low) if low == high else f"{low} to {high}"
            raise CardParseError(
                f"hand {hand_text.strip()!r} has {cards_count(len(hand))}; this game needs {need}"
            )
        for card, token, _, _ in parsed:
            if card in seen:
                raise CardParseError(
                    f"card {token!r} is given twice{_where(seen[card], number, len(hand_texts))}"
                )
            seen[card] = number
        hands.append(hand)
    if len(hands) < min_hands:
        raise CardParseError(f"need at least {min_hands} hands, got {len(hands)}")
    return Deal(tuple(hands), notation_of(" | ".join(hand_texts), jokers))
