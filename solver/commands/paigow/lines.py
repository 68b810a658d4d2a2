"""Pai Gow hands a line each: reading a file of hands (seven two-character cards one space
apart are read in numpy at once; any other spelling line by line, naming the line of an error)
and writing the house way's JSON lines."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from handsolver.models.cards import InputError

if TYPE_CHECKING:
    from handsolver.models.paigow import PaiGowHand


def read_lines(source: str) -> list[tuple[int, str]]:
    """The hand lines of ``source`` by the shared reading rules; blank lines and ``#`` comments
    are skipped."""
    from handsolver.solver.commands.inputs import numbered_lines

    return hand_lines(numbered_lines(source))


def hand_lines(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """``lines`` without the blank lines and ``#`` comments."""
    return [(n, line) for n, line in lines if line.strip() and not line.lstrip().startswith("#")]


def parse_lines(lines: list[tuple[int, str]]) -> list[PaiGowHand]:
    from handsolver.models.paigow import parse_hand

    hands = []
    for number, line in lines:
        try:
            hands.append(parse_hand(line))
        except InputError as error:
            raise InputError(f"line {number}: {error}") from None
    return hands


@cache
def token_cards() -> dict[str, int]:
    """Every plain spelling of a card (``Ah``, ``aH``, ``10d``, ``JK``, ...) -> the card."""
    from handsolver.models.cards import RANKS, SUITS
    from handsolver.models.paigow import JOKER

    table = dict.fromkeys(("JK", "Jk", "jK", "jk", "*"), JOKER)
    for rank_index, rank in enumerate(RANKS):
        spellings = {rank, rank.lower()} | ({"t", "0", "10"} if rank == "T" else set())
        for suit_index, suit in enumerate(SUITS):
            for spelling in spellings:
                for letter in (suit, suit.upper()):
                    table[spelling + letter] = rank_index * 4 + suit_index
    return table


def parse_batch(lines: list[tuple[int, str]]) -> tuple[Any, list[list[str]]]:
    """Cards (an N x 7 array) and the tokens they were typed as, line by line.  Lines of seven
    plain tokens are read through one dictionary; any other line goes through the full parser,
    which names the line and token of an error."""
    import numpy as np

    from handsolver.models.paigow import HAND_SIZE, JOKER, parse_cards_with_joker, parse_hand

    cards_of = token_cards()
    words = [line.split() for _, line in lines]
    flat = [cards_of.get(w, -1) for row in words for w in row]
    if len(flat) == HAND_SIZE * len(words) and all(len(row) == HAND_SIZE for row in words):
        cards = np.array(flat, dtype=np.int64).reshape(-1, HAND_SIZE)
        odd = _odd_rows(cards).tolist()
    else:
        cards = np.full((len(words), HAND_SIZE), -1, dtype=np.int64)
        odd = [True] * len(words)
    for index in np.flatnonzero(odd).tolist():
        number, line = lines[index]
        try:
            parse_hand(line)
        except InputError as error:
            raise InputError(f"line {number}: {error}") from None
        parsed, written = parse_cards_with_joker(line)
        cards[index], words[index] = parsed, list(written)
    for index in np.flatnonzero((cards == JOKER).any(axis=1)).tolist():
        words[index] = ["JK" if w.upper() == "JK" else w for w in words[index]]
    return cards, words


def _odd_rows(cards: Any) -> Any:
    """Rows of cards with an unknown token (-1) or a card twice: for the full parser."""
    import numpy as np

    ordered = np.sort(cards, axis=1)
    return (ordered[:, 0] < 0) | (np.diff(ordered, axis=1) == 0).any(axis=1)


_LINE_WIDTH = 20  # seven two-character tokens, one space apart
_TOKEN_STARTS = list(range(0, _LINE_WIDTH, 3))


@cache
def _pair_cards() -> Any:
    """Every two-character spelling of a card as a big-endian 16-bit number -> the card, -1
    for any other pair of bytes."""
    import numpy as np

    table = np.full(1 << 16, -1, dtype=np.int64)
    for token, card in token_cards().items():
        if len(token) == 2:
            table[int.from_bytes(token.encode(), "big")] = card
    return table


def fixed_width_batch(lines: list[tuple[int, str]]) -> tuple[Any, Any] | None:
    """Cards (an N x 7 array) and their tokens' bytes (N x 7 x 2) when every line is seven
    two-character cards one space apart (``Ah Kd 7c 7s JK 4d 3c``, the common shape, read in
    numpy at once), else None: then the lines go through :func:`parse_batch`, which also
    names the line of any error."""
    import numpy as np

    from handsolver.models.paigow import JOKER

    text = "\n".join(line for _, line in lines) + "\n"
    if not lines or len(text) != len(lines) * (_LINE_WIDTH + 1) or not text.isascii():
        return None
    rows = np.frombuffer(text.encode("ascii"), dtype=np.uint8).reshape(len(lines), -1)
    separators = rows[:, [*(start - 1 for start in _TOKEN_STARTS[1:]), _LINE_WIDTH]]
    if (separators != np.array([*b" " * 6, *b"\n"], dtype=np.uint8)).any():
        return None
    tokens = rows[:, [[start, start + 1] for start in _TOKEN_STARTS]]  # N x 7 x 2
    cards = _pair_cards()[tokens[:, :, 0].astype(np.intp) << 8 | tokens[:, :, 1]]
    if _odd_rows(cards).any():
        return None
    tokens[cards == JOKER] = np.frombuffer(b"JK", dtype=np.uint8)  # jk, Jk, jK as JK
    return cards, tokens


def json_lines_fixed(tokens: Any, low_masks: Any) -> bytes:
    """The JSON lines of :func:`house_way_template` for hands of two-character tokens (N x 7
    x 2 bytes), all of one width: every line is the same bytes with the tokens put in their
    places, the hand's in order, then the high hand's and the low hand's."""
    import numpy as np

    blank = house_way_template(0b1100000, 7).format(*["\0\0"] * 7) + "\n"
    line = np.frombuffer(blank.encode("ascii"), dtype=np.uint8)
    places = np.flatnonzero(line == 0)  # 14 tokens of two bytes, in the order they appear
    # Each row's positions: the hand's seven, then the high ones and the low ones, in order.
    high_then_low = np.argsort(low_masks, axis=1, kind="stable")
    order = np.concatenate([np.broadcast_to(np.arange(7), low_masks.shape), high_then_low], 1)
    out = np.tile(line, (len(tokens), 1))
    out[:, places] = np.take_along_axis(tokens, order[:, :, None], axis=1).reshape(len(tokens), -1)
    return out.tobytes()


def house_way_template(low_code: int, size: int) -> str:
    """The JSON line of a hand whose positions in the bits of ``low_code`` go low, with a
    ``str.format`` field for each token.

    >>> house_way_template(0b11, 3).format("Ah", "Kd", "2c")
    '{"hand": ["Ah", "Kd", "2c"], "high": ["2c"], "low": ["Ah", "Kd"]}'
    """

    def fields(positions: list[int]) -> str:
        return ", ".join(f'"{{{i}}}"' for i in positions)

    low = [i for i in range(size) if low_code >> i & 1]
    high = [i for i in range(size) if not low_code >> i & 1]
    return (
        f'{{{{"hand": [{fields(list(range(size)))}], "high": [{fields(high)}], '
        f'"low": [{fields(low)}]}}}}'
    )


class HandBatch(NamedTuple):
    """Hands read from lines: the cards (an N x 7 array) and the tokens as typed, either as
    N x 7 x 2 bytes (every line seven two-character cards one space apart) or as lists."""

    cards: Any
    tokens: Any
    fixed_width: bool


def read_batch(source: str) -> HandBatch:
    """The hands of a file or ``-``, one a line; blank lines and ``#`` comments skipped."""
    from handsolver.solver.commands.inputs import numbered_lines

    lines = numbered_lines(source)
    fixed = fixed_width_batch(lines)
    if fixed is None:  # blank lines, comments or other spellings: try again without them
        lines = hand_lines(lines)
        fixed = fixed_width_batch(lines)
    if fixed is not None:
        return HandBatch(*fixed, fixed_width=True)
    return HandBatch(*parse_batch(lines), fixed_width=False)


def json_lines(hands: HandBatch, low_masks: Any) -> str | bytes:
    """One JSON line per hand (each ending in a newline), the positions in ``low_masks``
    (N x 7 booleans) low, cards as typed."""
    import numpy as np

    if hands.fixed_width:
        return json_lines_fixed(hands.tokens, low_masks)
    # Tokens are letters, digits or '*' (the parser accepts nothing else), so they need no JSON
    # escaping: each line is one of 21 templates (the two low positions) filled in.
    codes = (low_masks.astype(np.int64) @ (1 << np.arange(low_masks.shape[1]))).tolist()
    templates: dict[int, str] = {}
    out = []
    for words, code in zip(hands.tokens, codes, strict=True):
        template = templates.get(code)
        if template is None:
            template = templates[code] = house_way_template(code, len(words))
        out.append(template.format(*words) + "\n")
    return "".join(out)
