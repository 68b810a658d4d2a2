"""Running someone else's program: feed it bytes, collect bounded output, never wait forever.

The program is untrusted code.  It runs in its own process group so that a timeout kills it and
everything it started; its stdout is capped; stdin is written while stdout and stderr are read so
that a program which prints before it has read everything cannot deadlock us.
"""

from __future__ import annotations

import os
import selectors
import shlex
import signal
import subprocess
import time
from contextlib import suppress
from dataclasses import dataclass

from handsolver.models.cards import InputError

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
    ``output_capped`` say that we killed it.  ``stderr`` keeps only the tail.
    """

    stdout: bytes
    stderr: bytes
    returncode: int
    timed_out: bool
    output_capped: bool
    seconds: float

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


def _kill_group(pid: int) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def run(command: Command, data: bytes, *, timeout: float, output_cap: int) -> RunResult:
    """Run ``command`` with ``data`` on stdin for at most ``timeout`` seconds.

    Stdout beyond ``output_cap`` bytes kills the program, as does the deadline.  The whole
    process group is killed at the end in every case, so nothing it started survives.

    >>> import sys
    >>> result = run(Command((sys.executable, "-c", "print(input()[::-1])")), b"abc\\n",
    ...              timeout=10, output_cap=100)
    >>> result.stdout, result.returncode, result.timed_out
    (b'cba\\n', 0, False)

    :raises InputError: when the program cannot be started at all (e.g. no such file).
    """
    start = time.monotonic()
    deadline = start + timeout
    try:
        proc = subprocess.Popen(
            command.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as error:
        raise InputError(f"cannot run {command.argv[0]!r}: {error.strerror or error}") from None
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    stdin_fd, out_fd, err_fd = proc.stdin.fileno(), proc.stdout.fileno(), proc.stderr.fileno()
    out = bytearray()
    err = bytearray()
    timed_out = capped = False
    view = memoryview(data)
    written = 0
    selector = selectors.DefaultSelector()
    try:
        if data:
            os.set_blocking(stdin_fd, False)
            selector.register(stdin_fd, selectors.EVENT_WRITE)
        else:
            proc.stdin.close()
        selector.register(out_fd, selectors.EVENT_READ)
        selector.register(err_fd, selectors.EVENT_READ)
        while selector.get_map() and not capped:
            if proc.poll() is not None:
                deadline = min(deadline, time.monotonic() + _EXIT_GRACE)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                timed_out = proc.poll() is None
                break
            for key, _ in selector.select(min(remaining, _EXIT_GRACE)):
                fd = key.fd
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
                    if len(out) > output_cap:
                        del out[output_cap:]
                        capped = True
                        break
                else:
                    err += chunk
                    if len(err) > STDERR_CAP:
                        del err[: len(err) - STDERR_CAP]
    finally:
        selector.close()
        if timed_out or capped:
            _kill_group(proc.pid)
        try:
            returncode = proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            # Pipes closed but the program is still running: same as a timeout.
            timed_out = True
            _kill_group(proc.pid)
            returncode = proc.wait()
        _kill_group(proc.pid)
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
    )
