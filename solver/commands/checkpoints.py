"""A long run with a checkpoint, as every checkpointed command runs it: ``--resume`` needs the
checkpoint to exist, a default checkpoint outlives the run only when it is interrupted
(:func:`~handsolver.solver.saved_files.kept_on_interrupt`), and an interrupt is one line that
says how to go on."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from handsolver.models.cards import InputError
from handsolver.solver.commands.errors import Interrupted
from handsolver.solver.saved_files import kept_on_interrupt

__all__ = ["checkpointed_run"]


@contextmanager
def checkpointed_run(
    path: Path | None, *, named: bool, resume: bool, what: str, unfinished: str = ""
) -> Iterator[None]:
    """Run the body with ``path`` as its checkpoint (``named``: the user's ``--checkpoint``).
    ``what`` names the run in the error for a missing checkpoint ("tournament"), ``unfinished``
    what an interrupt leaves undone ("every deal was played": "interrupted before ...").

    :raises InputError: ``resume`` without a checkpoint to resume from.
    :raises Interrupted: on Ctrl-C or SIGTERM.
    """
    if resume and (path is None or not path.exists()):
        raise InputError(f"--resume: no checkpoint of this {what} to resume from")
    try:
        with kept_on_interrupt(path, named=named, resuming=resume):
            yield
    except KeyboardInterrupt:
        before = f" before {unfinished}" if unfinished else ""
        hint = " (resume with --resume)" if path is not None else ""
        raise Interrupted(f"interrupted{before}{hint}") from None
