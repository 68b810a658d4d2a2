"""The options every command shares, and numbers checked at the edge: ASCII digits, finite,
within a documented range (the maxima are listed in ``docs/cli.md``), so that no value out of
range reaches a library (OR-Tools takes 32-bit seeds and worker counts).
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import Annotated, Any

import typer
from typer._click import types  # typer vendors click from 0.26 on

from handsolver.models.cards import InputError
from handsolver.solver.commands.errors import MAX_QUOTED_PATH, quoted

# Documented maxima.  Numbers are bounded here, at the edge, so no value out of range reaches
# a library (OR-Tools takes 32-bit seeds and worker counts).
MAX_SEED = 2**31 - 1
MAX_WORKERS = 256
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
