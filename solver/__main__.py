"""The ``handsolver`` command (``python -m handsolver.solver``, and the installed script).

Ctrl-C while the command is still loading ends it with the same one line and exit code as
later on, instead of a traceback from whatever module was being imported.
"""

from __future__ import annotations

import os
import signal
from typing import Any


def _interrupted_while_loading(signum: int, frame: Any) -> None:
    os.write(2, b"interrupted\n")
    os._exit(130)


def main() -> None:
    """Load the app with Ctrl-C answered at once, then run it (it handles Ctrl-C itself)."""
    signal.signal(signal.SIGINT, _interrupted_while_loading)
    from handsolver.solver.cli import app

    signal.signal(signal.SIGINT, signal.default_int_handler)
    app(prog_name="handsolver")


if __name__ == "__main__":
    main()
