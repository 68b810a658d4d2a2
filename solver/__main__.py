"""The ``handsolver`` command (``python -m handsolver.solver``, and the installed script).

Ctrl-C (or SIGTERM) while the command is still loading ends it with the same one line and exit
code as later on, instead of a traceback from whatever module was being imported.
"""

from __future__ import annotations

import os
import signal
from typing import Any


def _interrupted_while_loading(signum: int, frame: Any) -> None:
    os.write(2, b"interrupted\n")
    os._exit(130)


def _terminated_while_loading(signum: int, frame: Any) -> None:
    os.write(2, b"terminated\n")
    os._exit(143)


def main() -> None:
    """Load the app with Ctrl-C and SIGTERM answered at once, then run it (it handles both)."""
    signal.signal(signal.SIGINT, _interrupted_while_loading)
    terminate = signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    if terminate:
        signal.signal(signal.SIGTERM, _terminated_while_loading)
    from handsolver.solver.cli import app

    signal.signal(signal.SIGINT, signal.default_int_handler)
    if terminate:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    app(prog_name="handsolver")


if __name__ == "__main__":
    main()
