"""Badugi draw rules as data: which cards a player keeps before each draw.

A rule is written as a short spec and parsed once at the edge:

- ``best`` (the default): "draw to the best hand" — keep exactly the cards of the hand as played
  (its best sub-hand) and draw the rest; a 4-card hand stands pat.
- ``pat``: stand pat, whatever the hand.
- ``keep:CARDS``: keep these cards of the hand on this draw (the first draw left), then ``best``.
- ``break:LIMIT``: like ``best``, but break a 4-card hand worse than ``LIMIT`` (keep its three
  lowest cards and draw one).  ``LIMIT`` is ranks from the highest down, ``8-5-3-A`` or just
  ``8`` (any 8-high): a badugi whose top ranks are at or below them stands pat.
- ``pat:LIMIT``: stand pat on a 4-card hand at or below ``LIMIT``, otherwise ``best`` with the
  4-card hand broken: the same rule as ``break:LIMIT``, read from the other side.

>>> from handsolver.models.cards import parse_cards, STANDARD
>>> hand = parse_cards("9c 5d 3h As")
>>> STANDARD.format_cards(kept_cards(parse_rule("best"), hand, 0))
'9c 5d 3h As'
>>> STANDARD.format_cards(kept_cards(parse_rule("break:8"), hand, 0))
'5d 3h As'
>>> STANDARD.format_cards(kept_cards(parse_rule("keep:As 3h"), hand, 0))
'3h As'
>>> parse_rule("keep:As").check_hand(parse_cards("9c 5d 3c Kh"), STANDARD)
Traceback (most recent call last):
...
handsolver.models.cards.InputError: rule 'keep:As' keeps 'As', not in the hand '9c 5d 3c Kh'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from handsolver.models.badugi import HAND_SIZE, LOW_RANKS, _best_positions, badugi_key
from handsolver.models.cards import (
    Card,
    CardParseError,
    InputError,
    Notation,
    cards_count,
    notation_of,
    parse_cards,
)

if TYPE_CHECKING:
    import numpy as np

DEFAULT_RULE = "best"
RULE_KINDS = ("best", "pat", "keep", "break")
MAX_DRAWS = 3  # Badugi is a triple-draw game


@dataclass(frozen=True)
class DrawRule:
    """One player's draw rule (see the module docstring for the specs).

    ``cards`` are the cards a ``keep`` rule keeps; ``limit`` the ranks (A=0 .. K=12, highest
    first) at or below which a ``break`` rule stands pat on a 4-card hand.
    """

    kind: str = "best"
    cards: tuple[Card, ...] = ()
    limit: tuple[int, ...] = ()
    spec: str = DEFAULT_RULE

    def __repr__(self) -> str:
        return f"parse_rule({self.spec!r})"

    def check_hand(self, hand: Sequence[Card], notation: Notation) -> None:
        """Refuse a ``keep`` rule that keeps a card the hand does not hold.

        :raises InputError: naming the card and the hand.
        """
        for card in self.cards:
            if card not in hand:
                raise InputError(
                    f"rule {self.spec!r} keeps {notation.format(card)!r}, not in the "
                    f"hand {notation.format_cards(hand)!r}"
                )

    def most_drawn(self, draw: int) -> int:
        """The most cards this rule can draw on draw ``draw`` (0 = the first draw left)."""
        if self.kind == "pat":
            return 0
        if self.kind == "keep" and draw == 0:
            return HAND_SIZE - len(self.cards)
        return HAND_SIZE - 1  # a hand always plays at least one card


def parse_rule(text: str) -> DrawRule:
    """The rule a spec names: ``best``, ``pat``, ``keep:CARDS``, ``break:LIMIT``, ``pat:LIMIT``.

    >>> parse_rule("break:8-5").limit
    (7, 4)
    >>> parse_rule("fold")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: unknown draw rule 'fold' (best, pat, keep:, break:, pat:)

    :raises InputError: an unknown rule, a bad card or a bad limit, naming it.
    """
    spec = text.strip()
    name, sep, arg = spec.partition(":")
    name = name.strip().lower()
    if not sep and name in ("best", "pat"):
        return DrawRule(kind=name, spec=name)
    if sep and name == "keep":
        try:
            cards = parse_cards(arg)
        except CardParseError as error:
            raise InputError(f"rule {spec!r}: {error}") from None
        if len(set(cards)) != len(cards):
            raise InputError(f"rule {spec!r} names a card twice")
        if len(cards) > HAND_SIZE:
            raise InputError(f"rule {spec!r} keeps more than {HAND_SIZE} cards")
        return DrawRule(kind="keep", cards=cards, spec=f"keep:{arg.strip()}")
    if sep and name in ("break", "pat"):
        limit = parse_limit(arg)
        return DrawRule(kind="break", limit=limit, spec=f"{name}:{arg.strip()}")
    raise InputError(f"unknown draw rule {spec!r} (best, pat, keep:, break:, pat:)")


def parse_limit(text: str) -> tuple[int, ...]:
    """Ranks from the highest down (``8-5-3-A``, ``T``, ``9-7``) as Badugi ranks (A=0 .. K=12).

    >>> parse_limit("8-5-3-A"), parse_limit("t")
    ((7, 4, 2, 0), (9,))

    :raises InputError: a rank that is not one, a repeated or rising rank, more than four.
    """
    parts = [part.strip().upper() for part in text.replace(" ", "-").split("-") if part.strip()]
    parts = ["T" if part in ("10", "0") else part for part in parts]
    if not 1 <= len(parts) <= HAND_SIZE:
        raise InputError(f"bad limit {text.strip()!r}: give 1 to 4 ranks, highest first")
    ranks = []
    for part in parts:
        if len(part) != 1 or part not in LOW_RANKS:
            raise InputError(f"bad rank {part!r} in limit {text.strip()!r}")
        ranks.append(LOW_RANKS.index(part))
    if any(a <= b for a, b in zip(ranks, ranks[1:], strict=False)):
        raise InputError(f"bad limit {text.strip()!r}: ranks must fall, highest first")
    return tuple(ranks)


def limit_key(limit: Sequence[int]) -> int:
    """The least ``badugi_key`` of a 4-card hand at or below ``limit``: a badugi stands pat
    under ``break:LIMIT`` exactly when its key is at least this.

    >>> from handsolver.models.cards import parse_cards
    >>> eight_five, eight_six = parse_cards("8c 5d 3h As"), parse_cards("8c 6d 3h As")
    >>> badugi_key(eight_five) >= limit_key((7, 4)) > badugi_key(eight_six)
    True
    """
    key = HAND_SIZE << 16
    for i, rank in enumerate(limit):
        key |= (12 - rank) << (12 - 4 * i)
    return key


def _played_positions(hand: Sequence[Card]) -> tuple[int, ...]:
    """Positions in ``hand`` of the cards it plays (the ``played_cards`` rule)."""
    order = sorted(range(len(hand)), key=lambda i: (hand[i] + 4) % 52)
    low = [(hand[i] + 4) % 52 for i in order]
    pattern = 0
    for i, card in enumerate(low):
        pattern |= (card & 3) << (2 * i)
    for i in range(len(low) - 1):
        if low[i] >> 2 == low[i + 1] >> 2:
            pattern |= 1 << (2 * len(low) + i)
    return tuple(sorted(order[p] for p in _best_positions(len(hand))[pattern]))


def kept_cards(rule: DrawRule, hand: Sequence[Card], draw: int) -> tuple[Card, ...]:
    """The cards of the 4-card ``hand`` that ``rule`` keeps on draw ``draw`` (0 = the first
    draw left), in the hand's order."""
    if rule.kind == "pat":
        return tuple(hand)
    if rule.kind == "keep" and draw == 0:
        return tuple(card for card in hand if card in rule.cards)
    played = [hand[i] for i in _played_positions(hand)]
    if rule.kind == "break" and len(played) == HAND_SIZE:
        if badugi_key(hand) < limit_key(rule.limit):
            highest = max(hand, key=lambda card: (card + 4) % 52)
            return tuple(card for card in hand if card != highest)
    return tuple(played)


def keep_masks(rule: DrawRule, hands: np.ndarray, draw: int) -> np.ndarray:
    """``kept_cards`` for many hands at once: an ``(n, 4)`` array of cards in, an ``(n, 4)``
    boolean array out (True where the card is kept).  Equal to ``kept_cards`` on every hand."""
    import numpy as np

    from handsolver.models.badugi import badugi_keys

    n = len(hands)
    if rule.kind == "pat":
        return np.ones((n, HAND_SIZE), dtype=bool)
    if rule.kind == "keep" and draw == 0:
        return np.isin(hands, np.array(rule.cards, dtype=hands.dtype))
    low = (hands.astype(np.int64) + 4) % 52
    order = np.argsort(low, axis=1, kind="stable")
    low = np.take_along_axis(low, order, axis=1)
    pattern = np.zeros(n, dtype=np.int64)
    for i in range(HAND_SIZE):
        pattern |= (low[:, i] & 3) << (2 * i)
    for i in range(HAND_SIZE - 1):
        pattern |= (low[:, i] >> 2 == low[:, i + 1] >> 2).astype(np.int64) << (2 * HAND_SIZE + i)
    table = np.zeros((len(_best_positions(HAND_SIZE)), HAND_SIZE), dtype=bool)
    for index, positions in enumerate(_best_positions(HAND_SIZE)):
        table[index, list(positions)] = True
    sorted_keep = table[pattern]
    keep = np.zeros((n, HAND_SIZE), dtype=bool)
    np.put_along_axis(keep, order, sorted_keep, axis=1)
    if rule.kind == "break":
        broken = (sorted_keep.sum(axis=1) == HAND_SIZE) & (
            badugi_keys(hands) < limit_key(rule.limit)
        )
        # A badugi has distinct ranks, so the highest card is the last once sorted.
        top = order[:, HAND_SIZE - 1]
        keep[broken, top[broken]] = False
    return keep


UNKNOWN = "?"
"""How a hand dealt at random from the unseen cards is written."""


@dataclass(frozen=True)
class Situation:
    """A Badugi spot before the draws: each player's hand (None: unknown, dealt at random from
    the cards not seen), each player's rule, the dead cards and the number of draws left."""

    hands: tuple[tuple[Card, ...] | None, ...]
    rules: tuple[DrawRule, ...]
    dead: tuple[Card, ...] = ()
    draws: int = 1
    notation: Notation = Notation()

    @property
    def seen(self) -> tuple[Card, ...]:
        """Every card out of the stub: the known hands and the dead cards."""
        return tuple(card for hand in self.hands if hand for card in hand) + self.dead

    @property
    def stub(self) -> tuple[Card, ...]:
        """The cards left to deal and draw from, ascending."""
        seen = set(self.seen)
        return tuple(card for card in range(52) if card not in seen)

    def cards_needed(self) -> int:
        """The most cards the stub may have to supply: unknown hands, then every draw."""
        need = HAND_SIZE * sum(hand is None for hand in self.hands)
        for draw in range(self.draws):
            need += sum(rule.most_drawn(draw) for rule in self.rules)
        return need

    def hand_text(self, player: int) -> str:
        hand = self.hands[player]
        return UNKNOWN if hand is None else self.notation.format_cards(hand)


def _one_hand(text: str) -> str:
    """A hand's text, ``?`` when it is the unknown hand; a ``?`` among cards is refused (it is
    a hand of its own: an argument, or a part between ``-`` or ``|``).

    >>> _one_hand(" ? "), _one_hand("3c 2s 4d Kh")
    ('?', '3c 2s 4d Kh')
    >>> _one_hand("3c 2s 4d Kh ? 5c 6d 7h 8h")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.CardParseError: '?' inside the hand '3c 2s 4d Kh ? 5c 6d 7h 8h': \
an unknown hand is a '?' of its own (its own argument, or split off by '-' or '|')
    """
    words = text.split()
    if words == [UNKNOWN]:
        return UNKNOWN
    if UNKNOWN in words:
        raise CardParseError(
            f"'?' inside the hand {text.strip()!r}: an unknown hand is a '?' of its own (its"
            " own argument, or split off by '-' or '|')"
        )
    return text


def parse_situation(
    hand_texts: Sequence[str],
    *,
    draws: int = 1,
    dead: str = "",
    rules: Sequence[str] = (),
    keep: str | None = None,
) -> Situation:
    """A situation from the command's words: hands (``?`` for unknown), dead cards, the rule
    specs in seat order (missing ones are ``best``), and ``keep`` (the first player's cards kept
    on this draw, short for a first rule ``keep:CARDS``).

    >>> spot = parse_situation(["3c 2s 4d Kh", "?"], dead="Ah", rules=["best", "pat"])
    >>> spot.hands[1], [rule.spec for rule in spot.rules], len(spot.stub)
    (None, ['best', 'pat'], 47)
    >>> parse_situation(["3c 2s 4d Kh", "?"], dead="Kh")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.CardParseError: card 'Kh' is given twice

    :raises InputError: naming the bad card, rule or number.
    """
    from handsolver.models.cards import split_hands

    texts = [_one_hand(part) for text in hand_texts for part in split_hands(text)]
    if not any(texts):
        raise CardParseError("no cards given")
    if not 1 <= draws <= MAX_DRAWS:
        raise InputError(f"draws must be 1 to {MAX_DRAWS}, got {draws}")
    seen: dict[Card, str] = {}

    def take(text: str) -> tuple[Card, ...]:
        cards = []
        for token in text.replace(",", " ").split():
            for card in parse_cards(token):
                if card in seen:
                    raise CardParseError(f"card {seen[card]!r} is given twice")
                seen[card] = token if len(token) <= 3 else Notation().format(card)
                cards.append(card)
        return tuple(cards)

    hands: list[tuple[Card, ...] | None] = []
    for text in texts:
        if text == UNKNOWN:
            hands.append(None)
            continue
        hand = take(text)
        if len(hand) != HAND_SIZE:
            raise CardParseError(f"hand {text!r} has {cards_count(len(hand))}; this game needs 4")
        hands.append(hand)
    dead_cards = take(dead)
    if len(hands) < 2:
        raise InputError(f"need at least 2 hands, got {len(hands)}")
    specs = list(rules)
    if keep is not None:
        if specs and parse_rule(specs[0]).kind != DEFAULT_RULE:
            raise InputError(f"--keep {keep!r} and the first --rule {specs[0]!r} disagree")
        specs[:1] = [f"keep:{keep}"]
    if len(specs) > len(hands):
        raise InputError(f"{len(specs)} rules for {len(hands)} players")
    parsed = [parse_rule(spec) for spec in specs]
    parsed += [DrawRule()] * (len(hands) - len(parsed))
    known = [text for text in texts if text != UNKNOWN]
    notation = notation_of(" ".join(known + [dead])) if known or dead.strip() else Notation()
    for player, (held, rule) in enumerate(zip(hands, parsed, strict=True)):
        if rule.kind == "keep":
            if held is None:
                raise InputError(f"rule {rule.spec!r} needs a known hand; hand {player + 1} is '?'")
            rule.check_hand(held, notation)
    spot = Situation(tuple(hands), tuple(parsed), dead_cards, draws, notation)
    need, left = spot.cards_needed(), len(spot.stub)
    if need > left:
        raise InputError(
            f"too few cards: {left} left after the hands and {len(dead_cards)} dead cards, "
            f"and the deal and draws may need {need} (no reshuffle of discards)"
        )
    return spot


LINE_OPTIONS = ("--draws", "--dead", "--rule", "--keep")


def parse_situation_line(line: str) -> Situation:
    """A situation written on one line as on the command line: hands, then ``--draws N``,
    ``--dead CARDS``, ``--rule SPEC`` (repeated, in seat order) and ``--keep CARDS``.

    >>> spot = parse_situation_line("3c 2s 4d Kh | ? --draws 2 --rule 'break:8' --dead 'Ah Ad'")
    >>> spot.draws, spot.rules[0].spec, len(spot.dead)
    (2, 'break:8', 2)
    >>> parse_situation_line("3c 2s 4d Kh | ? --draws 9")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: bad --draws '9': give 1 to 3

    :raises InputError: naming the bad token.
    """
    import shlex

    try:
        words = shlex.split(line)
    except ValueError as error:
        raise InputError(f"cannot read {line.strip()!r}: {error}") from None
    hands: list[str] = []
    values: dict[str, list[str]] = {name: [] for name in LINE_OPTIONS}
    position = 0
    while position < len(words):
        word = words[position]
        name, equals, value = word.partition("=")
        if name in LINE_OPTIONS:
            if not equals:
                if position + 1 >= len(words):
                    raise InputError(f"option {word!r} needs a value")
                position += 1
                value = words[position]
            values[name].append(value)
        elif word.startswith("--"):
            raise InputError(f"unknown option {word!r} (known: {', '.join(LINE_OPTIONS)})")
        else:
            hands.append(word)
        position += 1
    for name in ("--draws", "--dead", "--keep"):
        if len(values[name]) > 1:
            raise InputError(f"option {name} is given twice")
    draws = 1
    if values["--draws"]:
        text = values["--draws"][0]
        if not (text.isascii() and text.isdigit() and 1 <= int(text) <= MAX_DRAWS):
            raise InputError(f"bad --draws {text!r}: give 1 to {MAX_DRAWS}")
        draws = int(text)
    return parse_situation(
        [" ".join(hands)],
        draws=draws,
        dead=" ".join(values["--dead"]),
        rules=values["--rule"],
        keep=values["--keep"][0] if values["--keep"] else None,
    )


__all__ = [
    "Situation",
    "UNKNOWN",
    "parse_situation",
    "parse_situation_line",
    "DEFAULT_RULE",
    "DrawRule",
    "MAX_DRAWS",
    "RULE_KINDS",
    "keep_masks",
    "kept_cards",
    "limit_key",
    "parse_limit",
    "parse_rule",
]
