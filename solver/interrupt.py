"""Ctrl-C during a CP-SAT search: stop the search at once, then raise ``KeyboardInterrupt``.

OR-Tools catches SIGINT itself by default and ends the search as if its time limit had been
reached, so the command would print an unproven answer and exit 0.  Python's own handler, on the
other hand, cannot run while the search holds the main thread.  :func:`stoppable` takes the
middle way: CP-SAT leaves SIGINT to Python, and a small thread woken by Python's signal wake-up
file descriptor asks every live search to stop; when the search returns, Python raises
``KeyboardInterrupt`` as for any other Ctrl-C.
"""

from __future__ import annotations

import os
import signal
import threading
import weakref
from typing import Any, TypeVar

S = TypeVar("S")

_searches: weakref.WeakSet[Any] = weakref.WeakSet()
_lock = threading.Lock()
_watching = False


def stoppable(solver: S) -> S:
    """``solver`` (a ``cp_model.CpSolver``) set up so that Ctrl-C stops its search."""
    solver.parameters.catch_sigint_signal = False  # type: ignore[attr-defined]
    with _lock:
        _searches.add(solver)
    _watch()
    return solver


def _watch() -> None:
    """Start the watcher once, from the main thread of a process that takes Ctrl-C."""
    global _watching
    if _watching or threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # a pool worker: its parent stops it
        return
    read, write = os.pipe()
    os.set_blocking(write, False)
    try:
        previous = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    except ValueError:
        os.close(read)
        os.close(write)
        return
    if previous != -1:  # someone else uses the wake-up fd (an event loop): leave it to them
        signal.set_wakeup_fd(previous)
        os.close(read)
        os.close(write)
        return
    _watching = True
    threading.Thread(target=_stop_on_interrupt, args=(read,), daemon=True).start()


def _stop_on_interrupt(read: int) -> None:
    while data := os.read(read, 64):
        if signal.SIGINT in data or signal.SIGTERM in data:  # SIGTERM stops like Ctrl-C
            with _lock:
                searches = list(_searches)
            for search in searches:
                search.stop_search()
