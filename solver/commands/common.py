"""What every command shares: turning bad input into one line and exit code 2, JSON output,
atomic file writes, and a progress bar that only shows on a terminal."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer

from handsolver.models.cards import InputError
from handsolver.models.strength import Strength

T = TypeVar("T")

# Options every command spells the same way.  Numbers are bounded here, at the edge, so that no
# value out of range reaches a library.
MAX_SEED = 2**31 - 1
MAX_WORKERS = 256
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
SeedOption = Annotated[
    int, typer.Option("--seed", min=0, max=MAX_SEED, help="Random seed (0 to 2**31-1).")
]
WorkersOption = Annotated[
    int, typer.Option("--workers", min=1, max=MAX_WORKERS, help="Local worker processes.")
]
SchedulerOption = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        metavar="ADDRESS",
        help="Run on this Dask distributed scheduler (needs handsolver[cluster]).",
    ),
]
OutOption = Annotated[Path | None, typer.Option("--out", metavar="FILE", help="Write here.")]


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` on stderr and exit (2 = bad input or usage)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn bad input (``InputError``) and unreadable files into one line on stderr and exit 2."""
    try:
        yield
    except InputError as error:
        fail(str(error))
    except OSError as error:
        fail(f"{error.strerror or error}: {error.filename!r}" if error.filename else str(error))


def print_json(value: Any) -> None:
    typer.echo(json.dumps(value, indent=2))


def strength_json(place: Strength) -> dict[str, int | float]:
    """The JSON fields every showdown command prints for a hand's strength."""
    return {
        "class": place.hand_class,
        "beats": place.beats,
        "ties": place.ties,
        "beats_share": round(place.share_beaten, 6),
        "ties_share": round(place.share_tied, 6),
    }


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a failure leaves no partial file behind."""
    import tempfile  # costs a few ms of start-up; only commands that write files need it

    directory = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:  # name the file the user asked for, not the temporary one
        raise OSError(error.errno, error.strerror, str(path)) from error
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def progress(items: Iterable[T], total: int | None, description: str) -> Iterator[T]:
    """Iterate ``items``, showing a rich progress bar on stderr when it is a terminal."""
    if not sys.stderr.isatty():
        yield from items
        return
    from rich.progress import Progress

    with Progress(transient=True, console=_stderr_console()) as bar:
        task = bar.add_task(description, total=total)
        for item in items:
            yield item
            bar.advance(task)


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


def print_table(title: str | None, columns: list[str], rows: Iterable[Iterable[object]]) -> None:
    """Print a rich table on stdout (rich is imported only when a table is drawn)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*(str(cell) for cell in row))
    Console().print(table)
