"""Real processes for the signal and pipe tests: every wait is bounded, and a signal a test sends
is one the child can receive.

A test suite started in the background from a script inherits SIGINT as *ignored*, and Python
then installs no Ctrl-C handler of its own: a child that should stop on SIGINT would run on and
a test that waits for it would wait for ever.  :func:`start` resets SIGINT to its default (and
unblocks it) in the child before it runs, so the test sees what a user at a terminal sees.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

# A guard against hangs only: every process here normally ends in well under a second or two.
HANG = 120


def deliverable_signals() -> None:
    """In the child before it starts: SIGINT and SIGTERM at their defaults, unblocked."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


def start(command: list[str]) -> subprocess.Popen[bytes]:
    """``command`` in its own process group (as a terminal starts a job), pipes for its output,
    and signals it can receive."""
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=deliverable_signals,
    )


def handsolver(*args: str) -> subprocess.Popen[bytes]:
    """The installed command line, started by :func:`start`."""
    return start([sys.executable, "-m", "handsolver.solver", *args])


def first_line(process: subprocess.Popen[bytes], seconds: float = HANG) -> bytes:
    """The first line the process prints (b"" if it ends first), waiting at most ``seconds``.

    Read from the descriptor, not the buffered stream, so what follows the line stays in the
    pipe for ``communicate``."""
    assert process.stdout is not None
    fd = process.stdout.fileno()
    line = b""
    end = time.monotonic() + seconds
    while not line.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], max(0.0, end - time.monotonic()))
        assert ready, "hang guard: no line"
        byte = os.read(fd, 1)
        if not byte:
            break
        line += byte
    return line


def wait_for(condition: Callable[[], bool], seconds: float = HANG) -> None:
    """Poll until ``condition`` holds; the bound only guards against a hang."""
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "hang guard"
        time.sleep(0.02)


def _processes() -> list[tuple[int, str, int, int]]:
    """(pid, state, parent, process group) of every process, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            state, parent, group = stat.rsplit(")", 1)[1].split()[:3]
            found.append((int(entry.name), state, int(parent), int(group)))
    return found


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    return [child for child, _, parent, _ in _processes() if parent == pid]


def group_is_gone(group: int) -> bool:
    """Whether no process is left running in the process group ``group``.

    A zombie counts as gone: it has ended, and an orphan's zombie waits for whoever adopted it
    (in a container, a PID 1 that may never reap it)."""
    return not any(g == group and state != "Z" for _, state, _, g in _processes())


def outputs_under_hash_seeds(code: str, seeds: tuple[str, ...] = ("0", "1", "4242")) -> list[str]:
    """What ``python -c code`` prints in one fresh process per ``PYTHONHASHSEED``.

    Calling a function twice in one process cannot show a dependence on the order of a set or
    of a dict built from strings: both calls share the process's hash seed.  Two processes with
    different seeds can."""
    outputs = []
    for seed in seeds:
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=HANG,
            env={**os.environ, "PYTHONHASHSEED": seed},
            check=False,
        )
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    return outputs
