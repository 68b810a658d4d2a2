"""Running someone else's program: feed it bytes, collect bounded output, never wait forever.

The program is untrusted code.  It runs isolated (see :mod:`.isolation`), and everything it
started is killed when the run ends; its stdout is capped; stdin is written while stdout and
stderr are read so that a program which prints before it has read everything cannot deadlock
us.

SIGINT and SIGTERM stop the run at once, whoever calls :func:`run`: inside
:class:`StopSignals` (the verifier) they stop the run instead of the verifier, which reports
what it had judged; elsewhere (a ``program:`` strategy, a pool worker) the run is killed, its
directory removed, and then the signal takes its usual course (``KeyboardInterrupt``, or the
process ends), so that neither a process nor a directory is left behind.
"""

from __future__ import annotations

import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from handsolver.models.cards import InputError
from handsolver.solver.sandbox.isolation import Jail, Mode, Policy, resolve

# After the program itself exits, children that still hold its pipes get this long before they
# are killed, so a leftover background process cannot pass for a slow answer.
_EXIT_GRACE = 0.2
_CHUNK = 1 << 16
STDERR_CAP = 1 << 14


@dataclass(frozen=True)
class Command:
    """The argv to run; with ``shell`` the text goes to ``/bin/sh -c`` unchanged.

    >>> Command.parse("node 'my answer.js' --fast").argv
    ('node', 'my answer.js', '--fast')
    >>> Command.parse("a | b", shell=True).argv
    ('/bin/sh', '-c', 'a | b')
    """

    argv: tuple[str, ...]

    @classmethod
    def parse(cls, text: str, *, shell: bool = False) -> Command:
        """Split ``text`` like a POSIX shell would, without running a shell unless asked.

        :raises InputError: for an empty command or unbalanced quotes.
        """
        if not text.strip():
            raise InputError("--cmd is empty")
        if shell:
            return cls(("/bin/sh", "-c", text))
        try:
            return cls(tuple(shlex.split(text)))
        except ValueError as error:
            raise InputError(f"cannot split --cmd {text!r}: {error}") from None

    def __str__(self) -> str:
        return shlex.join(self.argv)


@dataclass(frozen=True)
class RunResult:
    """What one run of the program produced.

    ``returncode`` is negative for a signal (as in :mod:`subprocess`); ``timed_out`` and
    ``output_capped`` say that we killed it (and ``interrupted`` that the verifier was told to
    stop).  ``stderr`` keeps only the tail.
    """

    stdout: bytes
    stderr: bytes
    returncode: int
    timed_out: bool
    output_capped: bool
    seconds: float
    #: The per-line deadline passed (a kind of timeout): no new line in time.
    stalled: bool = False
    #: The signal (SIGINT, SIGTERM) that stopped the verifier during the run, else 0.
    interrupted: int = 0
    #: The isolation in force: ``bwrap``, ``namespaces``, ``landlock`` or ``none``.
    sandbox: str = "none"

    @property
    def stderr_line(self) -> str:
        """The error message on stderr, shortened for a report.

        That is the last line naming an error (node ends with its version line), else the
        last non-empty line.
        """
        text = self.stderr.decode("utf-8", "replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        errors = [line for line in lines if "error" in line.lower()]
        return (errors or lines or [""])[-1][:200]


class StopSignals:
    """SIGINT and SIGTERM turned from death into a request: the run in progress stops at once.

    Inside ``with StopSignals() as stop:`` the signals set ``stop.signum`` and wake
    :func:`run`, which kills the program and returns what it had read; the caller finishes
    its report and exits ``128 + signum``.  Outside, the old handlers are back.  A signal
    ignored when the block starts stays ignored.  Only the main thread may use it.
    """

    active: StopSignals | None = None

    def __init__(self) -> None:
        self.signum = 0
        self._old: dict[int, Any] = {}
        self._pipe = (-1, -1)
        self._old_fd = -1

    def __enter__(self) -> StopSignals:
        self._pipe = os.pipe()
        for fd in self._pipe:
            os.set_blocking(fd, False)
        self._old_fd = signal.set_wakeup_fd(self._pipe[1])
        for signum in (signal.SIGINT, signal.SIGTERM):
            if signal.getsignal(signum) is not signal.SIG_IGN:
                self._old[signum] = signal.signal(signum, self._caught)
        StopSignals.active = self
        return self

    def __exit__(self, *exc_info: object) -> None:
        StopSignals.active = None
        for signum, handler in self._old.items():
            signal.signal(signum, handler)
        signal.set_wakeup_fd(self._old_fd)
        for fd in self._pipe:
            os.close(fd)

    def _caught(self, signum: int, frame: object) -> None:
        self.signum = self.signum or signum

    @property
    def wakeup_fd(self) -> int:
        return self._pipe[0]


def _available(fd: int, limit: int) -> bytes:
    """What can be read from ``fd`` now, without waiting, up to ``limit`` bytes."""
    got = bytearray()
    with suppress(OSError):
        os.set_blocking(fd, False)
        while len(got) < limit:
            chunk = os.read(fd, min(_CHUNK, limit - len(got)))
            if not chunk:
                break
            got += chunk
    return bytes(got)


def stop_signal() -> int:
    """The signal that asked the verifier to stop (0 for none)."""
    return StopSignals.active.signum if StopSignals.active is not None else 0


def run(
    command: Command,
    data: bytes,
    *,
    timeout: float,
    output_cap: int,
    policy: Policy | None = None,
    sandbox: Mode | None = None,
    line_timeout: float | None = None,
    startup: float = 0.0,
    on_lines: Callable[[int], None] | None = None,
) -> RunResult:
    """Run ``command`` with ``data`` on stdin for at most ``timeout`` seconds, isolated.

    Stdout beyond ``output_cap`` bytes kills the program, as does the deadline.  With
    ``line_timeout`` the program must also print each line within that time of the previous
    one (the first within ``startup`` more); ``on_lines`` hears the count of lines so far.
    ``policy`` says how to isolate the run (see :mod:`.isolation`; the first sandbox that can
    run); ``sandbox`` is the isolation already chosen by :func:`.sandbox.resolve`.  Everything
    the program started is killed, and its directory removed, before this returns or raises,
    in every case.  SIGINT or SIGTERM outside :class:`StopSignals` ends the run and is then
    delivered again, to the handler it would have met (see the module's docstring).

    >>> import sys
    >>> result = run(Command((sys.executable, "-c", "print(input()[::-1])")), b"abc\\n",
    ...              timeout=10, output_cap=100)
    >>> result.stdout, result.returncode, result.timed_out
    (b'cba\\n', 0, False)

    :raises InputError: when the program cannot be started at all (e.g. no such file), or
        no sandbox can run (see :func:`.sandbox.resolve`).
    """
    policy = policy or Policy()
    mode = sandbox or resolve(policy.sandbox)
    args = (command, data, timeout, output_cap, line_timeout, startup, on_lines)
    if StopSignals.active is not None or threading.current_thread() is not threading.main_thread():
        with Jail(mode, policy, cpu_seconds=timeout) as jail:
            return _run_in(jail, *args)
    with StopSignals() as stop:
        with Jail(mode, policy, cpu_seconds=timeout) as jail:
            result = _run_in(jail, *args)
    if stop.signum:
        # The run is gone and its directory removed: now the signal does what it would have.
        signal.raise_signal(stop.signum)
    return result


def _run_in(
    jail: Jail,
    command: Command,
    data: bytes,
    timeout: float,
    output_cap: int,
    line_timeout: float | None,
    startup: float,
    on_lines: Callable[[int], None] | None,
) -> RunResult:
    start = time.monotonic()
    deadline = start + timeout
    last_line = start + startup
    try:
        proc = subprocess.Popen(
            jail.argv(command.argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            **jail.popen_args(),
        )
    except OSError as error:
        raise InputError(f"cannot run {command.argv[0]!r}: {error.strerror or error}") from None
    except subprocess.SubprocessError as error:  # the sandbox or limits could not be set up
        why = jail.failure() or error
        raise InputError(f"cannot start {command.argv[0]!r} (sandbox {jail.mode}): {why}") from None
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    stdin_fd, out_fd, err_fd = proc.stdin.fileno(), proc.stdout.fileno(), proc.stderr.fileno()
    out = bytearray()
    err = bytearray()
    timed_out = capped = stalled = False
    lines = 0
    view = memoryview(data)
    written = 0
    stop = StopSignals.active
    selector = selectors.DefaultSelector()
    finished = False
    try:
        if data:
            os.set_blocking(stdin_fd, False)
            selector.register(stdin_fd, selectors.EVENT_WRITE)
        else:
            proc.stdin.close()
        selector.register(out_fd, selectors.EVENT_READ)
        selector.register(err_fd, selectors.EVENT_READ)
        if stop is not None:
            selector.register(stop.wakeup_fd, selectors.EVENT_READ)
        while len(selector.get_map()) > (stop is not None) and not capped:
            if stop is not None and stop.signum:
                break
            if proc.poll() is not None:
                deadline = min(deadline, time.monotonic() + _EXIT_GRACE)
            now = time.monotonic()
            remaining = deadline - now
            if line_timeout is not None and last_line + line_timeout < deadline:
                remaining = last_line + line_timeout - now
            if remaining <= 0:
                timed_out = proc.poll() is None
                stalled = timed_out and deadline > now
                break
            for key, _ in selector.select(min(remaining, _EXIT_GRACE)):
                fd = key.fd
                if stop is not None and fd == stop.wakeup_fd:
                    with suppress(OSError):
                        os.read(fd, 512)
                    continue
                if fd == stdin_fd:
                    try:
                        written += os.write(fd, view[written : written + _CHUNK])
                    except BlockingIOError:
                        continue
                    except OSError:
                        # The program stopped reading (closed stdin or exited): not our error.
                        written = len(data)
                    if written >= len(data):
                        selector.unregister(fd)
                        with suppress(OSError):
                            proc.stdin.close()
                    continue
                chunk = os.read(fd, _CHUNK)
                if not chunk:
                    selector.unregister(fd)
                elif fd == out_fd:
                    out += chunk
                    new = chunk.count(b"\n")
                    if new:
                        lines += new
                        last_line = time.monotonic()
                        if on_lines is not None:
                            on_lines(lines)
                    if len(out) > output_cap:
                        del out[output_cap:]
                        capped = True
                        break
                else:
                    err += chunk
                    if len(err) > STDERR_CAP:
                        del err[: len(err) - STDERR_CAP]
        finished = True
    finally:
        selector.close()
        interrupted = stop.signum if stop is not None else 0
        if interrupted and not capped:
            # Answers already in the pipe count: what was judged must not depend on timing.
            out += _available(out_fd, output_cap + 1 - len(out))
            del out[output_cap:]
        if timed_out or capped or interrupted or not finished:
            # (Not finished: an exception is on its way out; the program must not outlive it.)
            jail.kill_all(proc.pid)
        try:
            returncode = proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            # Pipes closed but the program is still running: same as a timeout.
            timed_out = True
            jail.kill_all(proc.pid)
            returncode = proc.wait()
        jail.kill_all(proc.pid)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            with suppress(OSError):
                stream.close()
    return RunResult(
        stdout=bytes(out),
        stderr=bytes(err),
        returncode=returncode,
        timed_out=timed_out,
        output_capped=capped,
        seconds=time.monotonic() - start,
        stalled=stalled,
        interrupted=interrupted,
        sandbox=jail.mode,
    )
