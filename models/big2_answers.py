"""Reading a claimed Big 2 partition: the ways its delimiters can cut it into plays."""

from __future__ import annotations

import re
from collections.abc import Iterator

from handsolver.models.cards import Card, InputError, parse_cards

__all__ = ["answer_readings", "parse_answer"]

_INNER_LIST = re.compile(r"\[([^\[\]]*)\]")
_BRACKETS = str.maketrans("(){}", "[][]")
_PLAY_SEPARATOR = re.compile(r"[|;/-]")


def answer_readings(text: str) -> Iterator[list[str]]:
    """The ways a claimed partition can be cut into plays, the most structured first.

    The seed allows any delimiting: nested brackets (``[[2H, 3D], [7S]]``, also ``(...)``),
    one play per line, ``|``, ``;``, ``/`` or ``-`` (the hand separator of
    :func:`~handsolver.models.cards.parse_deal`), commas, or whitespace.  Inside a play, cards may
    be run together.  Each reading is a list of chunks, one per play.

    >>> next(answer_readings("[[AS, AH], [4C]]"))
    ['AS, AH', '4C']
    >>> list(answer_readings("ASAH, 4C 5C"))
    [['ASAH', ' 4C 5C'], ['ASAH,', '4C', '5C']]
    """
    stripped = text.strip().translate(_BRACKETS)
    if stripped.count("[") > 1:
        yield _INNER_LIST.findall(stripped)
    lines = [line for line in stripped.splitlines() if line.strip()]
    if len(lines) > 1:
        yield lines
    if _PLAY_SEPARATOR.search(stripped):
        yield _PLAY_SEPARATOR.split(stripped)
    if "," in stripped:
        yield stripped.split(",")
    yield stripped.split()


def parse_answer(text: str) -> tuple[tuple[Card, ...], ...]:
    """The plays of a claimed partition: the first of :func:`answer_readings` that reads.

    >>> parse_answer("ASAHAD8D8C, 2S3S4H5H6D, 4C") == parse_answer("AS AH AD 8D 8C | 2S3S4H5H6D|4C")
    True
    >>> parse_answer("AS AH AD 8D 8C - 4C") == parse_answer("[ [AS, AH, AD, 8D, 8C], [4C] ]")
    True
    >>> len(parse_answer("[[2H, 3D, 4H, 5C, 6S], [7S, 7D, 7H]]"))
    2

    :raises InputError: for a token that is not a card, or no plays at all.
    """
    first_error: InputError | None = None
    for chunks in answer_readings(text):
        try:
            plays = tuple(cards for chunk in chunks if (cards := parse_cards(chunk)))
        except InputError as error:
            first_error = first_error or error
            continue
        if plays:
            return plays
    raise first_error or InputError("the answer has no plays")
