"""Human tables that read well at any width and in a pipe.

A cell is never broken across lines (a hand stays on one row).  When a table is wider than the
terminal, long headers give way to their short forms and then the less important columns are
left out, most droppable first, and a last line names them.  The answer is never left out: the
first column (the rank or the hand, in most tables) and the last (the points, the EV, the gain
the rows are ranked by) stay unless a :class:`Column` says otherwise.  When stdout is not a
terminal the table is plain aligned text with no rules, every column kept, so ``grep``, ``awk``
and ``cut -c`` can use it.

>>> print(render_table(None, ["#", Column("hand", keep=True), "share"], [[1, "AS 4H", "50.0%"]]))
#  hand   share
1  AS 4H  50.0%
"""

from __future__ import annotations

import os
import re
import sys
import textwrap
from collections.abc import Iterable, Sequence
from typing import NamedTuple


class Column(NamedTuple):
    """A column: its header, a shorter header for narrow terminals, and how expendable it is.

    ``keep`` columns are never dropped; the others go from the right when space runs out,
    lowest ``priority`` first.
    """

    name: str
    short: str | None = None
    keep: bool = False
    priority: int = 0


_NUMBER = re.compile(r"[+-]?[0-9][0-9.,/]*%?|[+-]?\.[0-9]+%?")


def _column(spec: str | Column, index: int, count: int) -> Column:
    if isinstance(spec, Column):
        return spec
    # Without a Column spec: the first two columns (a number and the hand, in most tables) and
    # the last (what the rows are ranked by) stay.
    return Column(spec, keep=index < 2 or index == count - 1)


# ANSI styles, used only on a terminal that wants colour (see colour_wanted).
BOLD_GREEN = "\x1b[1;32m"
RED = "\x1b[31m"
RESET = "\x1b[0m"
_NEGATIVE = re.compile(r"[-−][0-9.]")


def render_table(
    title: str | None,
    columns: Sequence[str | Column],
    rows: Iterable[Iterable[object]],
    *,
    width: int | None = None,
    rule: bool = False,
    colour: bool = False,
    highlight: Iterable[int] = (),
) -> str:
    r"""The table as text: fitted to ``width`` columns if given, a rule under the header if
    ``rule``.  Numbers are right-aligned, text left-aligned, columns two spaces apart; a last
    line names the columns left out for want of width.  With ``colour``, the rows numbered in
    ``highlight`` (the winners, the best setting) are bold green and negative numbers red.

    >>> render_table(None, ["#", "EV"], [[1, "+0.5"], [2, "-0.25"]], colour=True, highlight=[0])
    '#     EV\n\x1b[1;32m1   +0.5\x1b[0m\n2  \x1b[31m-0.25\x1b[0m'
    """
    specs = [_column(spec, i, len(columns)) for i, spec in enumerate(columns)]
    cells = [[" ".join(str(cell).split()) for cell in row] for row in rows]
    headers = [spec.name for spec in specs]
    shown = list(range(len(specs)))

    def widths() -> dict[int, int]:
        return {i: max([len(headers[i]), *(len(row[i]) for row in cells)]) for i in shown}

    def total() -> int:
        return sum(widths().values()) + 2 * (len(shown) - 1)

    if width is not None and total() > width:
        headers = [spec.short or spec.name for spec in specs]
        droppable = sorted(
            (i for i in shown if not specs[i].keep), key=lambda i: (specs[i].priority, -i)
        )
        while total() > width and droppable:
            shown.remove(droppable.pop(0))
    sizes = widths()
    right = {
        i: bool(cells) and all(_NUMBER.fullmatch(row[i]) or not row[i] for row in cells)
        for i in shown
    }

    def line(values: Sequence[str], paint: bool = False) -> str:
        parts = [
            values[i].rjust(sizes[i]) if right[i] else values[i].ljust(sizes[i]) for i in shown
        ]
        if paint:  # after padding, so the escape codes take no width
            parts = [
                f"{RED}{part.rstrip()}{RESET}{part[len(part.rstrip()) :]}"
                if _NEGATIVE.match(part.strip())
                else part
                for part in parts
            ]
        return "  ".join(parts).rstrip()

    out = [] if title is None else [title]
    out.append(line(headers))
    if rule:
        out.append("  ".join("─" * sizes[i] for i in shown))
    best = set(highlight) if colour else set()
    for number, row in enumerate(cells):
        if number in best:
            out.append(f"{BOLD_GREEN}{line(row)}{RESET}")
        else:
            out.append(line(row, paint=colour))
    hidden = [headers[i] or f"column {i + 1}" for i in range(len(specs)) if i not in shown]
    if hidden:
        names = ", ".join(hidden)
        note = f"(hidden at {width} columns: {names}; widen the terminal or pipe the output)"
        # The note fits the same width as the table, broken between words only.
        out += textwrap.wrap(
            note, width or len(note), break_long_words=False, break_on_hyphens=False
        )
    return "\n".join(out)


def terminal_width() -> int | None:
    """The width of the terminal stdout writes to, or None when stdout is not a terminal."""
    try:
        if not sys.stdout.isatty():
            return None
    except (AttributeError, ValueError, OSError):
        return None
    columns = os.environ.get("COLUMNS", "")
    if columns.isascii() and columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns
    except OSError:
        return 80


def colour_wanted() -> bool:
    """Whether stdout is a terminal that wants colour: never in a pipe or a file, nor with
    ``NO_COLOR`` set (https://no-color.org) or ``TERM=dumb``."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return terminal_width() is not None


def print_table(
    title: str | None,
    columns: Sequence[str | Column],
    rows: Iterable[Iterable[object]],
    *,
    highlight: Iterable[int] = (),
) -> None:
    """Print a table on stdout: fitted, ruled and coloured on a terminal (the ``highlight`` rows
    stand out), plain and complete in a pipe."""
    import typer

    width = terminal_width()
    text = render_table(
        title,
        columns,
        rows,
        width=width,
        rule=width is not None,
        colour=colour_wanted(),
        highlight=highlight,
    )
    typer.echo(text, color=True)
