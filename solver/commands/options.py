"""The options every command shares, and numbers checked at the edge: ASCII digits, finite,
within a documented range (the maxima are listed in ``docs/cli.md``), so that no value out of
range reaches a library (OR-Tools takes 32-bit seeds and worker counts).
"""

from __future__ import annotations

import functools
import math
import os
import re
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from typer._click import types  # typer vendors click from 0.26 on
from typer.core import TyperArgument

from handsolver.models.cards import InputError
from handsolver.solver.commands.errors import MAX_QUOTED_PATH, fail, quoted

# Documented maxima.  Numbers are bounded here, at the edge, so no value out of range reaches
# a library (OR-Tools takes 32-bit seeds and worker counts).
MAX_SEED = 2**31 - 1
MAX_WORKERS = 256
MAX_TIME_LIMIT = 86_400.0
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


# Batch output is always JSON lines: --json is accepted, so that every command takes it, but not
# listed in the help, since it cannot be turned off.
BatchJsonOption = Annotated[
    bool,
    typer.Option("--json", hidden=True, help="Accepted for uniformity: the output is always JSON."),
]


class SandboxName(StrEnum):
    """How an untrusted program is isolated (``solver.sandbox``)."""

    auto = "auto"
    bwrap = "bwrap"
    namespaces = "namespaces"
    landlock = "landlock"
    none = "none"


SandboxOption = Annotated[
    SandboxName,
    typer.Option(
        "--sandbox",
        help="Isolation of untrusted programs: auto (the first of bwrap, namespaces and landlock "
        "that can run here; refused where none can), bwrap (bubblewrap), namespaces (built from "
        "the kernel), landlock, or none (resource limits only: untrusted code unconfined).",
    ),
]
CheckpointOption = Annotated[
    Path | None,
    typer.Option(
        "--checkpoint",
        metavar="FILE",
        help="Save the finished work here as it comes (default: in the user's cache directory).",
    ),
]
ResumeOption = Annotated[
    bool, typer.Option("--resume", help="Continue from the checkpoint of an earlier run.")
]
OutOption = Annotated[
    Path | None,
    typer.Option("--out", metavar="FILE", help="Write here instead of standard output."),
]
PlotOption = Annotated[
    Path | None,
    typer.Option(
        "--plot",
        metavar="FILE",
        help="Also draw the answer as a picture: .svg, .png or .pdf (needs handsolver[plot]).",
        show_default=False,
    ),
]


_ASCII_INT = re.compile(r"[+-]?[0-9]{1,30}")
_ASCII_FLOAT = re.compile(
    r"[+-]?(?:[0-9]{1,30}\.?[0-9]{0,30}|\.[0-9]{1,30})(?:[eE][+-]?[0-9]{1,3})?"
)


def time_limit_option(help_text: str) -> Any:
    """A ``--time-limit SECONDS`` option (0 to a day), ``help_text`` saying what it stops."""
    return typer.Option(
        "--time-limit", min=0.0, max=MAX_TIME_LIMIT, metavar="SECONDS", help=help_text
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


def whole_number(value: object, what: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` (a command line's text or a number read from JSON) as a whole number from
    ``low`` to ``high`` (where given), by the rules of :func:`check_number_text`: ASCII digits
    only, so ``３``, ``٣`` and ``²`` are refused, as are ``true``, ``2.0`` and 5,000 digits.

    >>> whole_number(" 3", "--passed", 2, 4), whole_number(4, "by", 1, 4)
    (3, 4)
    >>> whole_number("²", "--passed", 2, 4)
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: --passed: '²' is not a whole number in ASCII digits

    :raises InputError: naming ``what`` and the value.
    """
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise InputError(f"{what}: {quoted(json_text(value))} is not a whole number")
    text = str(value) if isinstance(value, int) and abs(value) < 10**30 else value
    if not isinstance(text, str):
        raise InputError(f"{what}: the number is too large")
    try:
        number = int(check_number_text(text, whole=True))
    except InputError as error:
        raise InputError(f"{what}: {error}") from None
    if (low is not None and number < low) or (high is not None and number > high):
        raise InputError(f"{what}: {number} is not from {low} to {high}")
    return number


def json_text(value: object) -> str:
    """``value`` as JSON writes it (``true``, ``2.0``), for a message."""
    import json

    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def ascii_digits(text: str, what: str) -> str:
    """``text`` unless it holds a digit other than 0-9 (such as ``²`` or ``٣``)."""
    for char in text:
        if char.isdigit() and not char.isascii():
            raise InputError(f"{what} {quoted(text)} has the non-ASCII digit {char!r}")
    return text


def strict_parameters(command: Any) -> None:
    """Make every int and float parameter of ``command`` and its subcommands strict, every
    ``--out``, ``--plot`` and input path option refuse an empty file name, and every help read
    the same way.

    Typer's numbers accept Unicode digits, 5,000-digit integers and ``nan``/``inf``; after this
    they take ASCII only, up to 30 digits, finite, still within the option's own range, and
    the help of a bounded number states its range.  Arguments show as plain upper-case names
    (``FILE``, ``ME OPP``) and choices as ``a|b``.  Applied once at the root, so every command
    (also those added later) inherits it.
    """
    for param in getattr(command, "params", []):
        if isinstance(param.type, types.IntParamType | types.FloatParamType):
            param.type = StrictNumber(param.type)
            param.help = with_range(param.help or "", param.type.min, param.type.max)
        elif "--plot" in getattr(param, "opts", ()) and not isinstance(param.type, PlotPath):
            param.type = PlotPath(param.type)
        elif "--out" in getattr(param, "opts", ()) and not isinstance(param.type, OutPath):
            param.type = OutPath(param.type)
        elif type(param.type).__name__ == "TyperPath":  # typer's own path type
            param.type = InPath(param.type)
        choices = getattr(param.type, "choices", None)  # typer's own Choice type
        if choices and param.metavar is None and param.param_type_name == "option":
            param.metavar = "|".join(str(getattr(c, "value", c)) for c in choices)
        if param.param_type_name == "argument" and not isinstance(param, PlainArgument):
            param.__class__ = PlainArgument
    names = {getattr(param, "name", None) for param in getattr(command, "params", [])}
    callback = getattr(command, "callback", None)
    if {"out", "plot"} <= names and callback and not hasattr(callback, "distinct_outputs"):
        command.callback = distinct_outputs(callback)
    for sub in getattr(command, "commands", {}).values():
        strict_parameters(sub)


# A help text that already says its range: "(0 to 2**31-1)", "at most 10**7", "at most a day".
_RANGE_SAID = re.compile(r"[0-9]\S* to \S*[0-9]|at most")


def with_range(help_text: str, low: float | None, high: float | None) -> str:
    """``help_text`` with the range ``low`` to ``high`` added, unless it already says it.

    >>> with_range("Unknown opponents.", 1, 3)
    'Unknown opponents (1 to 3).'
    >>> with_range("Rounds (at most 10**9).", 1, 10**9)
    'Rounds (at most 10**9).'
    """
    if _RANGE_SAID.search(help_text) or (low is None and high is None):
        return help_text
    if low is None:
        said = f"at most {_number(high)}"
    elif high is None:
        said = f"at least {_number(low)}"
    else:
        said = f"{_number(low)} to {_number(high)}"
    text = help_text.rstrip()
    end = "." if text.endswith(".") else ""
    return f"{text.removesuffix('.')} ({said}){end}"


def _number(value: float | None) -> str:
    return f"{value:,}" if isinstance(value, int) or value != int(value or 0) else f"{int(value):,}"


class PlainArgument(TyperArgument):
    """An argument shown in usage lines as its plain upper-case name: ``FILE``, ``HAND...``,
    ``ME OPP``, ``CHALLENGE`` (typer writes ``{FILE}``, ``{me}`` and
    ``{challenge}:<badugi|...>``).  An optional one is in brackets."""

    def make_metavar(self, ctx: Any, *, usage: bool = False) -> str:
        name = self.metavar or (self.name or "").upper() + ("..." if self.nargs != 1 else "")
        return f"[{name}]" if usage and not self.required else name


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
            reason = unwritable(value)
            if reason is not None:
                self.fail(f"cannot write {shown}: {reason}", param, ctx)
        return self.inner.convert(value, param, ctx)

    def get_metavar(self, param: Any, ctx: Any) -> str | None:
        return "FILE"


def unwritable(path: str) -> str | None:
    """Why a file cannot be written at ``path`` (None if it can), found by trying: a file there
    is opened to append (nothing written), and the temporary file the atomic write starts with
    (:func:`~handsolver.solver.commands.output.write_atomic`) is made beside it and removed.  Asking
    the permission bits would let root through where the system refuses (``/proc``, a
    read-only mount)."""
    import stat
    import tempfile

    try:
        if os.path.exists(path):
            if not stat.S_ISREG(os.stat(path).st_mode):
                return None  # a device or a pipe (opening a pipe would wait for a reader)
            with open(path, "ab"):
                pass
        # The temporary file write_atomic writes first, named as it names it: a name too long
        # for the folder is found here, not after the work.
        folder, name = os.path.split(os.path.realpath(path))
        with tempfile.NamedTemporaryFile(dir=folder, prefix=f".{name}.", suffix=".tmp"):
            pass
    except OSError as error:
        return error.strerror or str(error)
    return None


def distinct_outputs(callback: Callable[..., Any]) -> Callable[..., Any]:
    """``callback`` refusing ``--out`` and ``--plot`` naming one file (the picture would
    replace the answer), before it runs."""

    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> Any:
        out, plot = kwargs.get("out"), kwargs.get("plot")
        if out is not None and plot is not None and _same_file(str(out), str(plot)):
            fail(
                f"--out and --plot name one file, {quoted(str(plot), MAX_QUOTED_PATH)};"
                " give each its own"
            )
        return callback(*args, **kwargs)

    run.__dict__["distinct_outputs"] = True
    return run


def _same_file(first: str, second: str) -> bool:
    if os.path.realpath(first) == os.path.realpath(second):
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


class PlotPath(OutPath):
    """A ``--plot`` path: an ``--out`` path whose suffix names a picture format (.svg, .png,
    .pdf), refused when matplotlib is not installed: all before any work starts."""

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        path = super().convert(value, param, ctx)
        if isinstance(value, str):
            from handsolver.solver.commands.plots import check_installed, plot_format

            try:
                plot_format(Path(value))
                check_installed()
            except InputError as error:
                self.fail(str(error), param, ctx)
        return path


class InPath(types.ParamType):
    """An input path option (``--royalties FILE``) that refuses an empty name, which would
    otherwise become ``Path('.')`` and be reported as a folder."""

    name = "file"

    def __init__(self, inner: types.ParamType) -> None:
        self.inner = inner

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail(f"{quoted(value)} is not a file name", param, ctx)
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
