"""Reading input: lines of a file or standard input, bounded in length and count, with one
message for a missing file, a closed stdin, a BOM or bytes that are not UTF-8; deals read and
checked line by line; ``-`` among card arguments.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from handsolver.models.cards import InputError
from handsolver.solver.commands.errors import MAX_QUOTED_PATH, quoted
from handsolver.solver.text_files import utf8_text

T = TypeVar("T")

MAX_LINE = 65_536  # characters in one input line
MAX_LINES = 1_000_000  # lines in one batch input


def source_name(source: str) -> str:
    """How messages name an input: ``standard input`` for ``-``, else the quoted path."""
    return "standard input" if source == "-" else quoted(source, MAX_QUOTED_PATH)


MAX_FILE_BYTES = 1 << 20  # bytes in a small input file read whole (a royalty table)


def _check_path(source: str) -> None:
    """Refuse an empty file name and a folder before opening (``open('')`` would name '.')."""
    if not source.strip():
        raise InputError(f"{quoted(source)} is not a file name")
    if os.path.isdir(source):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), source)


def _named(error: OSError, source: str) -> OSError:
    """``error`` naming ``source`` (a read error such as EIO names no file by itself)."""
    if error.filename is not None or source == "-":
        return error
    return OSError(error.errno, error.strerror, source)


def read_small_file(source: str, *, limit: int = MAX_FILE_BYTES) -> str:
    """The whole text of the file ``source`` (``-``: stdin), read by the rules of
    :func:`read_lines` but at once: at most ``limit`` bytes (``/dev/zero`` stops there), UTF-8,
    a leading byte order mark dropped.

    :raises InputError: too large, UTF-16, or not UTF-8 (naming the line).
    :raises OSError: the file cannot be opened or read (named by the path given).
    """
    name = source_name(source)
    try:
        if source == "-":
            stream = getattr(sys.stdin, "buffer", None)
            if stream is None or sys.stdin.closed:
                raise InputError("standard input is closed; give a file or pipe the input in")
            data: bytes = stream.read(limit + 1)
        else:
            _check_path(source)
            with open(source, "rb") as handle:
                data = handle.read(limit + 1)
    except OSError as error:
        raise _named(error, source) from None
    if len(data) > limit:
        raise InputError(f"{name} is larger than {limit:,} bytes")
    return utf8_text(data, name)


def read_lines(source: str, *, max_line: int = MAX_LINE) -> Iterator[tuple[int, str]]:
    """(line number, text) for each line of the file ``source``, or of stdin when it is ``-``.

    Read line by line, so endless input (``/dev/zero``) stops at the first over-long line.
    Files and stdin are treated alike: UTF-8, a leading byte order mark dropped, line ends
    stripped.  Errors name the input and the line.

    :raises InputError: stdin closed, a line over ``max_line`` characters, or not UTF-8.
    :raises OSError: the file cannot be opened (named by the path given).
    """
    name = source_name(source)
    if source == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None or sys.stdin.closed:
            raise InputError("standard input is closed; give a file or pipe the input in")
        waiting_hint()
        yield from _lines(stream, name, max_line)
        return
    _check_path(source)
    try:
        handle = open(source, "rb")  # noqa: SIM115  (closed below; read errors name the path)
    except OSError as error:
        raise _named(error, source) from None
    with handle:
        try:
            yield from _lines(handle, name, max_line)
        except OSError as error:
            raise _named(error, source) from None


def waiting_hint() -> None:
    """At a terminal, say on stderr that ``-`` waits for lines typed in, and how to end them
    (a pipe or a file says nothing: there is nothing to wait for)."""
    try:
        if not sys.stdin.isatty():
            return
        sys.stderr.write("reading standard input, one line at a time; end it with Ctrl-D\n")
        sys.stderr.flush()
    except (AttributeError, ValueError, OSError):
        pass


def _lines(stream: Any, name: str, max_line: int) -> Iterator[tuple[int, str]]:
    limit = 4 * max_line + 2  # bytes: a UTF-8 character takes at most four
    number = 0
    while True:
        number += 1
        try:
            raw: bytes = stream.readline(limit)
        except OSError as error:
            if error.errno == errno.EBADF:
                raise InputError(f"{name} is closed") from None
            raise
        if not raw:
            return
        if len(raw) >= limit and not raw.endswith(b"\n"):
            raise InputError(_too_long(name, number, max_line))
        if number == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        try:
            text = raw.rstrip(b"\r\n").decode("utf-8")
        except UnicodeDecodeError as error:
            raise InputError(f"{name}: line {number} is not UTF-8 text ({error.reason})") from None
        if len(text) > max_line:
            raise InputError(_too_long(name, number, max_line))
        yield number, text


def _too_long(name: str, number: int, max_line: int) -> str:
    return f"{name}: line {number} is longer than {max_line:,} characters"


def read_text(source: str, *, max_lines: int = MAX_LINES) -> str:
    """All of ``source`` (a file or ``-``) as text, read by :func:`read_lines`' rules."""
    return "\n".join(line for _, line in numbered_lines(source, max_lines=max_lines))


def numbered_lines(source: str, *, max_lines: int = MAX_LINES) -> list[tuple[int, str]]:
    """Every line of ``source`` (at most ``max_lines``), read before any work starts."""
    lines = []
    for number, line in read_lines(source):
        if number > max_lines:
            raise InputError(
                f"{source_name(source)} has more than {max_lines:,} lines; split it into parts"
            )
        lines.append((number, line))
    return lines


def read_deals(source: str, parse: Callable[[str], T]) -> list[tuple[int, str, T]]:
    """(line number, text, ``parse(text)``) for every deal line of ``source`` (a file or ``-``),
    all checked before any work starts; blank lines and ``#`` comments are skipped, and an
    error names its line."""
    jobs = []
    for number, line in numbered_lines(source):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            jobs.append((number, text, parse(text)))
        except InputError as error:
            raise InputError(f"line {number}: {error}") from None
    return jobs


MAX_JSON_DIGITS = 30  # digits of an integer in a JSON input line, as on the command line
MAX_JSON_DEPTH = 20  # lists and objects inside each other in a JSON input line


class LongNumber(str):
    """An integer of more digits than :data:`MAX_JSON_DIGITS` in a JSON line, kept as its
    text so that the field it is in is named when it is read (as too large)."""


def json_object(text: str) -> dict[str, Any]:
    """The JSON object one input line holds, read with bounds: at most 20 levels of nesting
    (the parser's recursion would fail far down), no ``NaN`` or ``Infinity``, and an integer of
    more than 30 digits (Python refuses past 4,300 and is slow well before) kept as a
    :class:`LongNumber`, which the reader of its field refuses by name.

    >>> json_object('{"by": 2, "beat": ["9h"]}')
    {'by': 2, 'beat': ['9h']}
    >>> json_object('{"hands": [[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]}')
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: 'hands' is nested more than 20 deep

    :raises InputError: not a JSON object, or nested too deep.
    """
    _check_nesting(text)

    def integer(digits: str) -> int | LongNumber:
        if len(digits.lstrip("-")) > MAX_JSON_DIGITS:
            return LongNumber(digits)
        return int(digits)

    def constant(name: str) -> None:
        raise InputError(f"{name} is not a number JSON allows")

    try:
        data = json.loads(text, parse_int=integer, parse_constant=constant)
    except json.JSONDecodeError as error:
        raise InputError(f"not a JSON object: {error.msg} at column {error.colno}") from None
    if not isinstance(data, dict):
        raise InputError("not a JSON object")
    return data


def _check_nesting(text: str) -> None:
    """Refuse lists and objects more than :data:`MAX_JSON_DEPTH` deep, naming the key of the
    top-level object they are under; counted outside strings, before any parsing."""
    depth = 0
    in_string = escaped = False
    string: list[str] = []
    key = None
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
                if depth == 1:
                    key = "".join(string)
            elif depth == 1 and len(string) < MAX_LINE:
                string.append(char)
        elif char == '"':
            in_string, string = True, []
        elif char in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                where = "the JSON" if key is None else quoted(key)
                raise InputError(f"{where} is nested more than {MAX_JSON_DEPTH} deep")
        elif char in "]}":
            depth -= 1


STDIN, FILE, CARDS = "stdin", "file", "cards"


def hand_source(text: str, *, files: bool = False) -> str:
    """How a HAND argument is read: :data:`STDIN`, :data:`FILE` or :data:`CARDS`.  Every
    command that takes cards, or cards or a file, decides here.

    ``-`` is standard input.  Where a file is allowed, a path that exists and is not a folder
    is a file, whatever kind (a pipe such as ``<(cat hands.txt)`` is ``/dev/fd/63``), and so
    is a name shaped like a path: cards never hold ``.``, ``/`` or ``~``, so ``hands.txt``
    is a file name, and a missing one is reported as missing, not as a bad card.  Where only
    cards are allowed such a name is refused as what it is.

    >>> hand_source("As Kd"), hand_source("-"), hand_source("hands.txt", files=True)
    ('cards', 'stdin', 'file')
    >>> try:
    ...     hand_source("hands.txt")
    ... except InputError as error:
    ...     print(error)
    'hands.txt' is a file name, not cards ('-' reads cards from standard input)

    :raises InputError: a file name where only cards are allowed.
    """
    written = text.strip()
    if written == "-":
        return STDIN
    path_like = any(mark in written for mark in "./~")
    if files and (path_like or (written and os.path.exists(text) and not os.path.isdir(text))):
        return FILE
    if path_like:
        raise InputError(
            f"{quoted(written)} is a file name, not cards ('-' reads cards from standard input)"
        )
    return CARDS


def card_texts(texts: list[str]) -> list[str]:
    """Card arguments with ``-`` replaced by what stdin holds (one hand a line), each
    argument read by the rules of :func:`hand_source`.

    >>> card_texts(["AS 4H", "KD"])
    ['AS 4H', 'KD']
    """
    out: list[str] = []
    for text in texts:
        if hand_source(text) == STDIN:
            out.extend(line for _, line in numbered_lines("-", max_lines=1000) if line.strip())
        else:
            out.append(text)
    return out
