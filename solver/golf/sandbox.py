"""Isolation for one run of an untrusted program: namespaces, limits, a clean environment, cleanup.

Every run gets, sandbox or not:

* a fresh temporary working directory (also ``HOME`` and ``TMPDIR``), removed afterwards;
* a minimal environment: ``PATH``, ``LANG``, ``HOME``, ``TMPDIR`` and the variables named with
  ``--env``;
* resource limits: address space, CPU time, file size, open files, no core files; the number of
  processes (threads count) through a ``pids`` cgroup where one can be made (root) and
  ``RLIMIT_NPROC`` otherwise (it does not bind root);
* a cleanup that kills every process the run started, ``setsid`` or not: the verifier makes
  itself a child subreaper, so orphans of the run become its children and are killed and reaped
  before :func:`~handsolver.solver.golf.runner.run` returns.

With bubblewrap (``bwrap``) the program also gets no network, its own PID namespace (it cannot
see or signal the verifier), no capabilities, a read-only file system except the working
directory, a private ``/tmp`` and no view of the home directories.  Without it (``none``) the
program runs as the verifier's user with the limits only; as root its capabilities are dropped.
"""

from __future__ import annotations

import ctypes
import os
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from functools import cache
from itertools import count
from pathlib import Path
from typing import Any, Literal

from handsolver.models.cards import InputError

Sandbox = Literal["auto", "bwrap", "none"]
SANDBOXES: tuple[Sandbox, ...] = ("auto", "bwrap", "none")

DEFAULT_MEMORY = 2 << 30
FILE_SIZE = 64 << 20
OPEN_FILES = 256
# Tasks, threads included (a JVM or node starts a dozen threads before the first line).
PROCESSES = 128

# Directories the program must not see under bwrap: the homes, and the shared temporary ones.
_HIDDEN = ("/home", "/root", "/tmp", "/var/tmp", "/run/user")

_PR_SET_PDEATHSIG = 1
_PR_SET_NO_NEW_PRIVS = 38
_PR_CAPBSET_DROP = 24
_PR_SET_CHILD_SUBREAPER = 36
_CGROUP_PIDS = Path("/sys/fs/cgroup/pids")
_names = count()
# CPU seconds above this are no limit worth setting (and would overflow the rlimit).
_CPU_CAP = 10**7


@dataclass(frozen=True)
class Limits:
    """Resource limits for one program (bytes, and counts); CPU time comes from the timeout."""

    memory: int = DEFAULT_MEMORY
    file_size: int = FILE_SIZE
    open_files: int = OPEN_FILES
    processes: int = PROCESSES

    def to_json(self) -> dict[str, int]:
        return {
            "memory_bytes": self.memory,
            "file_size_bytes": self.file_size,
            "open_files": self.open_files,
            "processes": self.processes,
        }


@dataclass(frozen=True)
class Policy:
    """How runs are isolated: the sandbox asked for, the limits, the variables passed through.

    >>> Policy(env=("TERM",)).environment("/tmp/x")["HOME"]
    '/tmp/x'
    """

    sandbox: Sandbox = "auto"
    limits: Limits = field(default_factory=Limits)
    env: tuple[str, ...] = ()

    def environment(self, home: str) -> dict[str, str]:
        """The whole environment the program sees: nothing of the verifier's but ``env``."""
        out = {
            "PATH": os.environ.get("PATH", os.defpath),
            "LANG": os.environ.get("LANG", "C.UTF-8"),
            "HOME": home,
            "TMPDIR": home,
        }
        out.update((name, os.environ[name]) for name in self.env if name in os.environ)
        return out


def check_env_names(names: Sequence[str]) -> tuple[str, ...]:
    """The ``--env`` names, checked: each a variable name that is set here.

    :raises InputError: for ``NAME=VALUE``, an empty name, or a variable that is not set.
    """
    for name in names:
        if not name or "=" in name or "\0" in name:
            raise InputError(f"--env takes a variable name, not {name!r}")
        if name not in os.environ:
            raise InputError(f"--env {name}: no such variable in the environment")
    return tuple(dict.fromkeys(names))


@cache
def bwrap_error() -> str:
    """Why bubblewrap cannot run here ('' when it can): tried once per process."""
    path = shutil.which("bwrap")
    if path is None:
        return "bwrap is not installed (Debian package bubblewrap)"
    try:
        probe = subprocess.run(
            [path, *_bwrap_mounts(), "--unshare-all", "--die-with-parent", "true"],
            capture_output=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap cannot run: {error}"
    if probe.returncode != 0:
        said = probe.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"bwrap cannot run: {said[-1] if said else f'status {probe.returncode}'}"
    return ""


_warned = False


def resolve(sandbox: str) -> Literal["bwrap", "none"]:
    """The isolation in force for ``sandbox``: ``auto`` falls back to ``none`` and says so once.

    :raises InputError: for an unknown name, or ``bwrap`` where it cannot run.
    """
    global _warned
    if sandbox not in SANDBOXES:
        raise InputError(f"unknown --sandbox {sandbox!r}; choose from {', '.join(SANDBOXES)}")
    if sandbox == "none":
        return "none"
    why = bwrap_error()
    if not why:
        return "bwrap"
    if sandbox == "bwrap":
        raise InputError(f"--sandbox bwrap: {why}")
    if not _warned:
        _warned = True
        print(
            f"warning: {why}; running the program with resource limits only (no sandbox)",
            file=sys.stderr,
        )
    return "none"


def _bwrap_mounts() -> list[str]:
    args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    for folder in _HIDDEN:
        if os.path.isdir(folder) and not os.path.islink(folder):
            args += ["--tmpfs", folder]
    return args


@cache
def _libc() -> Any:
    return ctypes.CDLL(None, use_errno=True)


@cache
def _become_subreaper() -> bool:
    """Make this process adopt the orphans of its descendants (Linux), so none escapes."""
    try:
        return bool(_libc().prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


@cache
def _cap_last() -> int:
    try:
        return int(Path("/proc/sys/kernel/cap_last_cap").read_text())
    except (OSError, ValueError):
        return 40


@cache
def _nproc_base() -> int:
    """Tasks this user already runs: ``RLIMIT_NPROC`` counts them all, not just the run's."""
    uid = os.getuid()
    total = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with suppress(OSError):
                status = Path(entry.path, "status").read_text()
                fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
                if int(fields["Uid"].split()[0]) == uid:
                    total += int(fields["Threads"])
    return total


def process_bound() -> str:
    """What bounds the number of the program's processes here: ``cgroup``, ``rlimit`` or
    ``none`` (root without a writable ``pids`` cgroup: ``RLIMIT_NPROC`` does not bind root)."""
    if os.geteuid() == 0:
        cgroup = _cgroup(1)
        if cgroup is None:
            return "none"
        cgroup.rmdir()
        return "cgroup"
    return "rlimit"


def _children(pid: int) -> set[int]:
    """The live children of ``pid``, from every one of its threads."""
    out: set[int] = set()
    with suppress(OSError):
        for task in os.scandir(f"/proc/{pid}/task"):
            with suppress(OSError):
                out.update(int(p) for p in Path(task.path, "children").read_text().split())
    return out


def _tree(roots: set[int]) -> set[int]:
    seen: set[int] = set()
    todo = list(roots)
    while todo:
        pid = todo.pop()
        if pid not in seen:
            seen.add(pid)
            todo.extend(_children(pid))
    return seen


def _cgroup(limit: int) -> Path | None:
    """A fresh ``pids`` cgroup (v1 hierarchy) allowing ``limit`` tasks, if one can be made."""
    if os.geteuid() != 0 or not _CGROUP_PIDS.is_dir():
        return None
    path = _CGROUP_PIDS / f"handsolver-{os.getpid()}-{next(_names)}"
    try:
        path.mkdir()
        (path / "pids.max").write_text(str(limit))
    except OSError:
        with suppress(OSError):
            path.rmdir()
        return None
    return path


class Jail:
    """One run's isolation: use as a context manager around starting and waiting for the program.

    ``argv`` and ``popen_args`` say how to start it; leaving the block kills whatever the run
    started and removes its directory.
    """

    def __init__(self, mode: Literal["bwrap", "none"], policy: Policy, cpu_seconds: float) -> None:
        self.mode = mode
        self.policy = policy
        self.cpu = max(1, int(min(cpu_seconds, _CPU_CAP)) + 1)
        self.workdir = ""
        self.cgroup: Path | None = None
        self._before: set[int] = set()

    def __enter__(self) -> Jail:
        self.workdir = tempfile.mkdtemp(prefix="handsolver-run-")
        extra = 3 if self.mode == "bwrap" else 0  # bwrap's own two processes, and its init
        self.cgroup = _cgroup(self.policy.limits.processes + extra)
        _become_subreaper()
        self._prepare()
        self._before = _children(os.getpid())
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.kill_all()
        if self.cgroup is not None:
            with suppress(OSError):
                self.cgroup.rmdir()
        _remove(self.workdir)

    # Starting -------------------------------------------------------------------------------

    def argv(self, argv: Sequence[str]) -> list[str]:
        """The command line to start: files named relative to here made absolute, then bwrap.

        :raises InputError: when the program is not an executable file or not on ``PATH``.
        """
        resolved = [
            os.path.abspath(arg) if not os.path.isabs(arg) and os.path.isfile(arg) else arg
            for arg in argv
        ]
        if shutil.which(resolved[0], path=self.policy.environment("")["PATH"]) is None:
            exists = os.path.exists(resolved[0])
            why = "Permission denied" if exists else "No such file or directory"
            raise InputError(f"cannot run {argv[0]!r}: {why}")
        if self.mode == "none":
            return resolved
        binds = [a for path in _shown_paths(resolved) for a in ("--ro-bind", path, path)]
        return [
            "bwrap",
            *_bwrap_mounts(),
            *binds,
            "--bind",
            self.workdir,
            self.workdir,
            "--chdir",
            self.workdir,
            "--unshare-all",
            "--die-with-parent",
            "--new-session",
            "--cap-drop",
            "ALL",
            "--",
            *resolved,
        ]

    def popen_args(self) -> dict[str, Any]:
        return {
            "cwd": self.workdir,
            "env": self.policy.environment(self.workdir),
            "start_new_session": True,
            "preexec_fn": self._in_child,
        }

    def _in_child(self) -> None:
        """Runs in the forked child before exec: join the cgroup, set the limits, drop powers."""
        limits = self.policy.limits
        if self.cgroup is not None:
            fd = os.open(self.cgroup / "cgroup.procs", os.O_WRONLY)
            os.write(fd, b"0")
            os.close(fd)
        _lower(resource.RLIMIT_AS, limits.memory)
        _lower(resource.RLIMIT_FSIZE, limits.file_size)
        _lower(resource.RLIMIT_NOFILE, limits.open_files)
        _lower(resource.RLIMIT_CORE, 0)
        _lower(resource.RLIMIT_CPU, self.cpu, self.cpu + 1)
        if os.getuid() != 0:
            _lower(resource.RLIMIT_NPROC, _nproc_base() + limits.processes)
        libc = _libc()
        # Should the verifier itself be killed (SIGKILL cannot be caught), the run goes too:
        # bwrap takes its namespace down with it; on the limits-only path only this process.
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if self.mode == "none":
            libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
            if os.geteuid() == 0:
                # Root keeps uid 0 but loses every capability at exec: it cannot raise its
                # limits back, leave the cgroup, or override file permissions.
                for cap in range(_cap_last() + 1):
                    libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)

    def _prepare(self) -> None:
        """Fill, before the fork, the caches that the child reads."""
        if os.getuid() != 0:
            _nproc_base()
        _libc()
        if self.mode == "none":
            _cap_last()

    # Cleanup --------------------------------------------------------------------------------

    def kill_all(self, root: int | None = None) -> None:
        """Kill and reap every process the run started; return when none is left."""
        if root is not None:
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(root, signal.SIGKILL)
        me = os.getpid()
        for _ in range(1000):
            stray = set()
            if self.cgroup is not None:
                with suppress(OSError, ValueError):
                    stray |= {int(p) for p in (self.cgroup / "cgroup.procs").read_text().split()}
            orphans = _children(me) - self._before
            if root is not None:
                orphans.discard(root)  # its owner (``Popen``) reaps it
                stray |= _tree({root}) - {root}
            stray |= _tree(orphans)
            if not stray:
                return
            for pid in stray:
                with suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            for pid in orphans:
                with suppress(ChildProcessError):
                    os.waitpid(pid, 0)
            if not orphans:
                # Killed tasks of another parent (or in the cgroup) take a moment to go.
                os.sched_yield()


def _lower(which: int, soft: int, hard: int | None = None) -> None:
    """Set a limit, never above one already in force (only root could raise it)."""
    _, now = resource.getrlimit(which)
    cap = now if now != resource.RLIM_INFINITY else soft if hard is None else hard
    hard = min(soft if hard is None else hard, cap)
    resource.setrlimit(which, (min(soft, hard), hard))


def _shown_paths(argv: Sequence[str]) -> list[str]:
    """Hidden paths the command needs, to show read-only: the tools its words name.

    A word naming a file (or a program on ``PATH``; the words of a ``sh -c`` text too), under
    a hidden folder, shows the folder one level below that hidden folder's top (``~/.pyenv``
    for a pyenv shim, ``~/golf`` for ``~/golf/answer.py``, ``/tmp/x`` for ``/tmp/x/a.py``), or
    the file alone when it lies at the top.
    """
    words = list(argv)
    if len(argv) == 3 and argv[1] == "-c" and os.path.basename(argv[0]) == "sh":
        with suppress(ValueError):
            words += list(shlex.shlex(argv[2], posix=True, punctuation_chars=True))
    out: set[str] = set()
    for word in words:
        path = word if os.sep in word else shutil.which(word)
        if path is None or not os.path.isfile(path):
            continue
        for name in {os.path.abspath(path), os.path.realpath(path)}:
            parts = Path(name).parts
            for hidden in _HIDDEN:
                top = len(Path(hidden).parts) + (hidden in ("/home", "/run/user"))
                if name.startswith(hidden + os.sep) and len(parts) > top:
                    out.add(str(Path(*parts[: top + 1])))
    return sorted(out)


def _remove(folder: str) -> None:
    """Remove the run's directory, even where the program took away write permission."""
    for parent, folders, _ in os.walk(folder):
        for name in folders:
            with suppress(OSError):
                os.chmod(os.path.join(parent, name), 0o700)
    shutil.rmtree(folder, ignore_errors=True)
