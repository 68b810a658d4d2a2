"""Progress on a terminal (a bar on stderr, nothing in a pipe) and lines printed as results
arrive, stopping cleanly on Ctrl-C.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import typer

from handsolver.solver.commands.errors import Interrupted

T = TypeVar("T")


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


@contextmanager
def counter(description: str, unit: str) -> Iterator[Callable[[int], None]]:
    """A running count on stderr when it is a terminal (nothing in a pipe), for work of unknown
    size: the context gives the function to call with the count so far."""
    if not _isatty(sys.stderr):
        yield lambda count: None
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn

    columns = (SpinnerColumn(), TextColumn(f"{description}: {{task.completed:,}} {unit}"))
    with Progress(*columns, transient=True, console=_stderr_console()) as bar:
        task = bar.add_task(description, total=None)
        yield lambda count: bar.update(task, completed=count)


def emit_lines(lines: Iterable[str], total: int, unit: str) -> None:
    """Print ``lines`` one by one (with a progress bar on a terminal); Ctrl-C (and SIGTERM,
    when the command line handles it) stops with ``interrupted after N of M <unit>``, N the
    lines printed, each of them complete.  ``lines`` is closed at the end, whatever happens,
    so a pool behind it stops before the command returns."""
    import signal

    done = 0
    writing = False
    pending: int | None = None
    previous: dict[int, Any] = {}

    def stop(signum: int) -> None:
        handler = previous.get(signum)
        if callable(handler):
            handler(signum, None)
        raise KeyboardInterrupt

    def on_signal(signum: int, frame: Any) -> None:
        # A signal while a line is being written waits until it is out and counted, so no
        # line is cut in two and the message counts what was printed.
        nonlocal pending
        if writing:
            pending = signum
        else:
            stop(signum)

    previous[signal.SIGINT] = signal.signal(signal.SIGINT, on_signal)
    if callable(signal.getsignal(signal.SIGTERM)):  # the command line's own SIGTERM handler
        previous[signal.SIGTERM] = signal.signal(signal.SIGTERM, on_signal)
    try:
        for line in progress(lines, total, unit):
            writing = True
            typer.echo(line)
            done += 1
            writing = False
            if pending is not None:
                stop(pending)
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted after {done} of {total} {unit}") from None
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        close = getattr(lines, "close", None)
        if close is not None:
            close()


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (ValueError, OSError):
        return False


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)
