"""What every command shares: reading input, checking numbers, writing output, and turning every
kind of bad input into one line on stderr with exit code 2.

The conventions (limits, exit codes, the symlink policy) are listed in ``docs/cli.md``; the
numbers below are the documented maxima.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from typer._click import types  # typer vendors click from 0.26 on

from handsolver.models.cards import InputError
from handsolver.models.strength import Strength
from handsolver.solver.commands.table import print_table

T = TypeVar("T")

# Exit codes: 0 done (or "yes"), 1 a "no" answer (check, verify), 2 bad input, usage or an
# unwritable output, 3 an internal error (a bug: please report it), 130 interrupted (Ctrl-C).
EXIT_USAGE = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130

# Documented maxima.  Numbers are bounded here, at the edge, so no value out of range reaches
# a library (OR-Tools takes 32-bit seeds and worker counts).
MAX_SEED = 2**31 - 1
MAX_WORKERS = 256
MAX_LINE = 65_536  # characters in one input line
MAX_LINES = 1_000_000  # lines in one batch input
MAX_QUOTE = 60  # characters of a token quoted in an error message
MAX_QUOTED_PATH = 200  # characters of a path quoted in an error message
MAX_MESSAGE = 400  # characters in one error line

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
SeedOption = Annotated[
    int, typer.Option("--seed", min=0, max=MAX_SEED, help="Random seed (0 to 2**31-1).")
]
WorkersOption = Annotated[
    int,
    typer.Option("--workers", min=1, max=MAX_WORKERS, help="Local worker processes (1 to 256)."),
]
SchedulerOption = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDRESS",
        help="Run on this Dask distributed scheduler, e.g. tcp://host:8786 (needs "
        "handsolver[cluster]).",
        show_default=False,
    ),
]


BatchJsonOption = Annotated[
    bool, typer.Option("--json", help="Accepted for uniformity: the output is always JSON.")
]
OutOption = Annotated[
    Path | None,
    typer.Option("--out", metavar="FILE", help="Write here instead of standard output."),
]


# --- error lines ------------------------------------------------------------------------------


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


class Interrupted(Exception):
    """Ctrl-C during a batch: the message says how far it got ("after 3 of 10 hands")."""


# --- numbers ----------------------------------------------------------------------------------

_ASCII_INT = re.compile(r"[+-]?[0-9]{1,30}")
_ASCII_FLOAT = re.compile(
    r"[+-]?(?:[0-9]{1,30}\.?[0-9]{0,30}|\.[0-9]{1,30})(?:[eE][+-]?[0-9]{1,3})?"
)


def check_number_text(text: str, *, whole: bool) -> str:
    """``text`` if it is a number written in ASCII (no ``²``, no 5,000 digits, no ``nan``).

    >>> check_number_text("12", whole=True)
    '12'
    >>> check_number_text("²", whole=True)
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: '²' is not a whole number in ASCII digits
    """
    written = text.strip()
    if re.fullmatch(r"[+-]?[0-9]{31,}", written):
        raise InputError(f"{quoted(text)} is too large")
    pattern = _ASCII_INT if whole else _ASCII_FLOAT
    if pattern.fullmatch(written) is None:
        kind = "a whole number in ASCII digits" if whole else "a finite decimal number"
        raise InputError(f"{quoted(text)} is not {kind}")
    return text.strip()


def ascii_digits(text: str, what: str) -> str:
    """``text`` unless it holds a digit other than 0-9 (such as ``²`` or ``٣``)."""
    for char in text:
        if char.isdigit() and not char.isascii():
            raise InputError(f"{what} {quoted(text)} has the non-ASCII digit {char!r}")
    return text


def strict_parameters(command: Any) -> None:
    """Make every int and float parameter of ``command`` and its subcommands strict, and every
    ``--out`` refuse an empty file name.

    Typer's numbers accept Unicode digits, 5,000-digit integers and ``nan``/``inf``; after this
    they take ASCII only, up to 30 digits, finite, still within the option's own range.  Applied
    once at the root, so every command (also those added later) inherits it.
    """
    for param in getattr(command, "params", []):
        if isinstance(param.type, types.IntParamType | types.FloatParamType):
            param.type = StrictNumber(param.type)
        elif "--out" in getattr(param, "opts", ()) and not isinstance(param.type, OutPath):
            param.type = OutPath(param.type)
    for sub in getattr(command, "commands", {}).values():
        strict_parameters(sub)


class OutPath(types.ParamType):
    """An ``--out`` path type that refuses an empty name (before it becomes ``Path('.')``), a
    folder, and a path whose folder does not exist."""

    name = "file"

    def __init__(self, inner: types.ParamType) -> None:
        self.inner = inner

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        if isinstance(value, str):
            # Checked before any work starts, so a long computation is not lost at the end.
            shown = quoted(value, MAX_QUOTED_PATH)
            if not value.strip():
                self.fail(f"{shown} is not a file name", param, ctx)
            if os.path.isdir(value):
                self.fail(f"{shown} is a directory", param, ctx)
            if not os.path.isdir(os.path.dirname(os.path.realpath(value))):
                self.fail(f"{shown}: no such folder", param, ctx)
        return self.inner.convert(value, param, ctx)

    def get_metavar(self, param: Any, ctx: Any) -> str | None:
        return "FILE"


class StrictNumber(types.ParamType):
    """A click number type (``inner``, with its range) that first checks the text is ASCII."""

    def __init__(self, inner: types.ParamType) -> None:
        self.inner = inner
        self.name = inner.name
        self.whole = isinstance(inner, types.IntParamType)
        self.min = getattr(inner, "min", None)
        self.max = getattr(inner, "max", None)

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        if isinstance(value, str):
            try:
                value = check_number_text(value, whole=self.whole)
            except InputError as error:
                self.fail(str(error), param, ctx)
            if not self.whole and not math.isfinite(float(value)):
                self.fail(f"{quoted(value)} is not a finite number", param, ctx)
        return self.inner.convert(value, param, ctx)

    def get_metavar(self, param: Any, ctx: Any) -> str | None:
        return "INTEGER" if self.whole else "NUMBER"


# --- input ------------------------------------------------------------------------------------


def source_name(source: str) -> str:
    """How messages name an input: ``standard input`` for ``-``, else the quoted path."""
    return "standard input" if source == "-" else quoted(source, MAX_QUOTED_PATH)


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
        yield from _lines(stream, name, max_line)
        return
    if Path(source).is_dir():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), source)
    with open(source, "rb") as handle:
        yield from _lines(handle, name, max_line)


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
        too_long = f"{name}: line {number} is longer than {max_line:,} characters"
        if len(raw) >= limit and not raw.endswith(b"\n"):
            raise InputError(too_long)
        if number == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        try:
            text = raw.rstrip(b"\r\n").decode("utf-8")
        except UnicodeDecodeError as error:
            raise InputError(f"{name}: line {number} is not UTF-8 text ({error.reason})") from None
        if len(text) > max_line:
            raise InputError(too_long)
        yield number, text


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


def run_deal_batch(
    source: str,
    parse: Callable[[str], T],
    judge: Callable[[tuple[int, str, T]], str],
    *,
    workers: int,
    scheduler: str | None,
    unit: str = "deals",
) -> None:
    """The body of every ``batch`` command: read and check every deal of ``source``, judge
    them with :func:`~handsolver.solver.batch.run_batch` (``judge`` turns ``(line number,
    text, deal)`` into one JSON line and must be picklable), print the lines in input order."""
    from handsolver.solver.batch import run_batch

    with user_errors():
        jobs = read_deals(source, parse)
    emit_lines(run_batch(judge, jobs, workers=workers, scheduler=scheduler), len(jobs), unit)


def card_texts(texts: list[str]) -> list[str]:
    """Card arguments with ``-`` replaced by what stdin holds (one hand a line).

    >>> card_texts(["AS 4H", "KD"])
    ['AS 4H', 'KD']
    """
    if "-" not in (text.strip() for text in texts):
        return texts
    out: list[str] = []
    for text in texts:
        if text.strip() == "-":
            out.extend(line for _, line in numbered_lines("-", max_lines=1000) if line.strip())
        else:
            out.append(text)
    return out


# --- output -----------------------------------------------------------------------------------


def print_json(value: Any) -> None:
    """Print ``value`` as JSON, indented by two spaces (every command's --json looks alike)."""
    typer.echo(json.dumps(value, indent=2))


def strength_json(place: Strength) -> dict[str, int | float]:
    """The JSON fields every showdown command prints for a hand's strength.

    The shares are rounded for JSON; tables format ``beats / total`` and ``ties / total`` from
    the counts, so that a rounded share is never rounded twice."""
    return {
        "class": place.hand_class,
        "beats": place.beats,
        "ties": place.ties,
        "total": place.total,
        "beats_share": round(place.share_beaten, 6),
        "ties_share": round(place.share_tied, 6),
    }


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a failure leaves no partial file behind.

    The file gets the user's umask (or keeps the mode of the file it replaces).  A symlink is
    written through: the file it points to is replaced and the link stays.  A device or pipe
    (``/dev/stdout``) is written directly.  Every error names ``path`` as given, never the
    temporary file.
    """
    import stat
    import tempfile  # costs a few ms of start-up; only commands that write files need it

    def asked(error: OSError) -> OSError:
        return OSError(error.errno, error.strerror, str(path))

    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    if str(path) in ("", ".") or target.is_dir():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    try:
        status: os.stat_result | None = target.stat()
    except OSError:
        status = None
    if status is not None and not stat.S_ISREG(status.st_mode):
        try:
            with open(target, "w", encoding="utf-8") as device:
                device.write(text)
        except OSError as error:
            raise asked(error) from error
        return
    mode = status.st_mode & 0o7777 if status is not None else 0o666 & ~_umask()
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as error:  # name the file the user asked for, not the temporary one
        raise asked(error) from error
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
        os.replace(tmp, target)
    except OSError as error:
        Path(tmp).unlink(missing_ok=True)
        raise asked(error) from error
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def progress(items: Iterable[T], total: int | None, description: str) -> Iterator[T]:
    """Iterate ``items``, showing a rich progress bar on stderr when it is a terminal."""
    if not _isatty(sys.stderr):
        yield from items
        return
    from rich.progress import Progress

    with Progress(transient=True, console=_stderr_console()) as bar:
        task = bar.add_task(description, total=total)
        for item in items:
            yield item
            bar.advance(task)


def emit_lines(lines: Iterable[str], total: int, unit: str) -> None:
    """Print ``lines`` one by one (with a progress bar on a terminal); Ctrl-C stops with
    ``interrupted after N of M <unit>``, N the lines printed, each of them complete."""
    import signal

    done = 0
    writing = pending = False

    def on_interrupt(signum: int, frame: Any) -> None:
        # Ctrl-C while a line is being written waits until it is out and counted, so no line
        # is cut in two and the message counts what was printed.
        nonlocal pending
        if writing:
            pending = True
        else:
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        for line in progress(lines, total, unit):
            writing = True
            typer.echo(line)
            done += 1
            writing = False
            if pending:
                raise KeyboardInterrupt
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted after {done} of {total} {unit}") from None
    finally:
        signal.signal(signal.SIGINT, previous)


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (ValueError, OSError):
        return False


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


__all__ = [
    "BatchJsonOption",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_USAGE",
    "Interrupted",
    "JsonOption",
    "OutOption",
    "SchedulerOption",
    "SeedOption",
    "WorkersOption",
    "ascii_digits",
    "card_texts",
    "emit_lines",
    "fail",
    "numbered_lines",
    "read_deals",
    "run_deal_batch",
    "print_json",
    "print_table",
    "progress",
    "quoted",
    "read_lines",
    "read_text",
    "strength_json",
    "strict_parameters",
    "user_errors",
    "write_atomic",
]
