"""The body every ``batch`` command shares: read and check the deals, judge them with the one
batch runner, print one JSON line each in input order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from handsolver.solver.commands.errors import user_errors
from handsolver.solver.commands.inputs import read_deals
from handsolver.solver.commands.progress import emit_lines

T = TypeVar("T")


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
