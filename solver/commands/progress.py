"""Progress on a terminal (a bar on stderr, nothing in a pipe) and lines printed as results
arrive, stopping cleanly on Ctrl-C.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any, TypeVar

import typer

from handsolver.solver.commands.errors import Interrupted

T = TypeVar("T")


def progress(
    items: Iterable[T], total: int | None, description: str, *, done: int = 0, lowers: str = ""
) -> Iterator[T]:
    """Iterate ``items``, showing a rich progress bar on stderr when it is a terminal; ``done``
    of the ``total`` steps were done before (a resumed run), so the bar starts there.

    Given ``lowers``, the option that shortens the work (``--samples lowers it``), work that
    will take more than :data:`LONG` seconds says so up front, on a terminal or not, once a
    second of it gives an estimate (:func:`estimated`)."""
    left = None if total is None else total - done
    left = left if lowers else None
    if not _isatty(sys.stderr):
        yield from (items if left is None else estimated(items, left, say, lowers))
        return
    from rich.progress import Progress

    with Progress(transient=True, console=_stderr_console()) as bar:
        task = bar.add_task(description, total=total, completed=done)
        tell = partial(bar.console.print, markup=False, highlight=False)
        for item in estimated(items, left, tell, lowers):
            yield item
            bar.advance(task)


#: Work estimated to take more than this many seconds is announced.
LONG = 20.0


def estimated(
    items: Iterable[T], total: int | None, tell: Callable[[str], Any], lowers: str = ""
) -> Iterator[T]:
    """``items`` passed on; after the first second, when the pace so far says that all
    ``total`` of them take more than :data:`LONG` seconds, ``tell`` is given once the line
    ``this takes about 3 min with these settings; <lowers>``.  Closed, it closes ``items``
    (a pool behind them stops at once)."""
    import time

    began = time.perf_counter()
    count = 0
    try:
        for item in items:
            yield item
            count += 1
            if total is None or count >= total:
                continue
            spent = time.perf_counter() - began
            if spent >= 1.0:
                whole = spent / count * total
                if whole > LONG:
                    tell(
                        f"this takes about {duration(whole)} with these settings"
                        + (f"; {lowers}" if lowers else "")
                    )
                total = None  # estimated once
    finally:
        close = getattr(items, "close", None)
        if close is not None:
            close()


def duration(seconds: float) -> str:
    """A rough duration for a person: ``40 s``, ``3 min``, ``1.5 h``.

    >>> duration(41.7), duration(185), duration(5400)
    ('40 s', '3 min', '1.5 h')
    """
    if seconds < 90:
        return f"{max(10, round(seconds, -1)):.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


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


def say(line: str) -> None:
    """One line on stderr, on a terminal or not: what a long wait is for, said up front."""
    typer.echo(line, err=True)


def numba_cached(*kernels: Any) -> bool | None:
    """Whether numba's cache on disk holds every one of ``kernels`` (numba dispatchers, made
    with ``cache=True``) built for this machine, so that loading them takes about a second
    where compiling takes a minute; None when that cache cannot be read."""
    try:
        found = []
        for dispatcher in kernels:
            index = dispatcher._cache._cache_file._load_index()
            magic = dispatcher.targetctx.codegen().magic_tuple()
            found.append(any(key[1] == magic for key in index))
    except Exception:  # numba's own layout, which may change: no answer rather than an error
        return None
    return all(found)


def compile_first(cached: bool | None, compile: Callable[[], None], what: str) -> float:
    """Run ``compile`` (the first call of a numba kernel) and return the seconds it took.  When
    the kernel is not in numba's cache on disk (``cached`` False) it is compiled now, which
    takes a while: on a terminal, ``compiling <what> (first run only)`` is said first; when
    that is not known (None), it is said once two seconds have gone by.  (Elsewhere nothing
    is said, as no progress is shown there either.)"""
    import threading
    import time

    line = f"compiling {what} (first run only; numba keeps it on disk for the next runs)"
    timer = threading.Timer(2.0, say, (line,))
    timer.daemon = True
    shown = _isatty(sys.stderr)
    if shown and cached is False:
        say(line)
    elif shown and cached is None:
        timer.start()
    began = time.perf_counter()
    try:
        compile()
    finally:
        timer.cancel()
    return time.perf_counter() - began


@contextmanager
def long_wait(limit: float, lowers: str, after: float = 5.0) -> Iterator[None]:
    """For work bounded by ``limit`` seconds whose length cannot be told in advance (a search):
    when it is still going ``after`` seconds in and has more than :data:`LONG` seconds to
    go, say so (``this takes up to 55 s more with these settings; <lowers>``)."""
    import threading

    def tell() -> None:
        say(f"this takes up to {duration(limit - after)} more with these settings; {lowers}")

    timer = threading.Timer(after, tell)
    timer.daemon = True
    if limit - after > LONG:
        timer.start()
    try:
        yield
    finally:
        timer.cancel()


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
