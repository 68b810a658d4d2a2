"""Exit codes, and every kind of bad input turned into one line on stderr: quoting the user's
token or path, shortening what is long, and the error types the root turns into exit codes.

The exit codes are listed in ``docs/cli.md``.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import NoReturn

import typer

from handsolver.models.cards import InputError

# Exit codes: 0 done (or "yes"), 1 a "no" answer (check, verify), 2 bad input, usage or an
# unwritable output, 3 an internal error (a bug: please report it), 130 interrupted (Ctrl-C),
# 143 terminated (SIGTERM).
EXIT_USAGE = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143

MAX_QUOTE = 60  # characters of a token quoted in an error message
MAX_QUOTED_PATH = 200  # characters of a path quoted in an error message
MAX_MESSAGE = 400  # characters in one error line


def quoted(text: object, limit: int = MAX_QUOTE) -> str:
    """``repr(text)`` for an error message, cut to about ``limit`` characters.

    >>> quoted("AS 4H")
    "'AS 4H'"
    >>> quoted("x" * 1000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (1000 characters)"
    """
    text = str(text)
    if len(text) <= limit:
        return repr(text)
    return f"{text[: limit - 15]!r}"[:-1] + f"...' ({len(text)} characters)"


# A quoted token inside a message from a library: shortened like quoted() does.
_LONG_QUOTE = re.compile(r"'((?:[^'\\\n]|\\.){" + str(MAX_QUOTED_PATH + 1) + r",})'")


def one_line(message: str) -> str:
    """``message`` as one short line: long quoted tokens cut, line breaks escaped.

    >>> one_line("bad card " + repr("x" * 500) + "\\nsecond line")[-40:]
    "xxxxxxx...' (500 characters) second line"
    """
    message = _LONG_QUOTE.sub(lambda m: quoted(m.group(1), MAX_QUOTED_PATH), message)
    message = " ".join(message.split())
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 3] + "..."
    return message


def error_line(message: str) -> None:
    """Print ``error: message`` as one line on stderr (never failing itself)."""
    try:
        sys.stderr.write(f"error: {one_line(message)}\n")
        sys.stderr.flush()
    except (OSError, AttributeError, ValueError):  # stderr closed or gone: nothing to tell
        pass


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Print ``error: message`` on stderr and exit (2 = bad input or usage)."""
    error_line(message)
    raise typer.Exit(code)


def os_error_message(error: OSError) -> str:
    """An OSError as the user should read it: what went wrong and the path they gave."""
    reason = error.strerror or str(error)
    if error.filename is None:
        return reason
    return f"{reason}: {quoted(os.fsdecode(error.filename), MAX_QUOTED_PATH)}"


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn bad input (``InputError``) and unreadable files into one line on stderr and exit 2."""
    try:
        yield
    except InputError as error:
        fail(str(error))
    except OSError as error:
        fail(os_error_message(error))


@contextmanager
def option_named(option: str | Mapping[str, str]) -> Iterator[None]:
    """Name the command's option at the head of bad input raised inside, whose message speaks
    of the game: ``option`` itself, around the library call that reads that one option's value;
    or, for a call that checks several, the option a mapping gives for the part of the input
    the error is about (``InputError.about``, e.g. ``{"counts": "--counts"}``), if any.

    >>> try:
    ...     with option_named({"counts": "--counts"}):
    ...         raise InputError("a player cannot hold -1 cards", about="counts")
    ... except InputError as error:
    ...     print(error)
    --counts: a player cannot hold -1 cards
    """
    try:
        yield
    except InputError as error:
        name = option if isinstance(option, str) else option.get(error.about or "")
        if name is None:
            raise
        raise InputError(f"{name}: {error}") from None


class Interrupted(Exception):
    """Ctrl-C during a batch: the message says how far it got ("after 3 of 10 hands")."""
