"""Isolation for one run of an untrusted program: a sandbox, limits, a clean environment, cleanup.

The sandbox is the first of these that can run here (``--sandbox auto``), or the one named:

* ``bwrap``: bubblewrap;
* ``namespaces``: the same isolation built from the kernel directly (:mod:`.namespaces`);
* ``landlock``: the kernel's access control, where namespaces are not allowed (:mod:`.landlock`).

Each keeps the program from the network, from writing outside its working directory (and a
private ``/tmp``), from the homes, and from signalling the verifier.  Where none can run,
``auto`` refuses with one line naming what is missing; ``none`` (resource limits only) must
be asked for by name.

Every run gets, sandbox or not:

* a fresh temporary working directory (also ``HOME`` and ``TMPDIR``), removed afterwards;
* a minimal environment: ``PATH``, ``LANG``, ``HOME``, ``TMPDIR`` and the variables named with
  ``--env``;
* resource limits: address space, CPU time, file size, open files, no core files; the number of
  processes (threads count) through a ``pids`` cgroup where one can be made (root) and
  ``RLIMIT_NPROC`` otherwise (it does not bind root);
* a cleanup that kills every process the run started, ``setsid`` or not: the verifier makes
  itself a child subreaper, so orphans of the run become its children and are killed and reaped
  before :func:`~handsolver.solver.sandbox.runner.run` returns.

With ``none`` the program runs as the verifier's user with the limits only; as root its
capabilities are dropped.
"""

from __future__ import annotations

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
from handsolver.solver.sandbox import kernel, landlock, namespaces
from handsolver.solver.sandbox.namespaces import hidden_folders

Sandbox = Literal["auto", "bwrap", "namespaces", "landlock", "none"]
#: The isolation in force for a run.
Mode = Literal["bwrap", "namespaces", "landlock", "none"]
SANDBOXES: tuple[Sandbox, ...] = ("auto", "bwrap", "namespaces", "landlock", "none")
#: What ``auto`` tries, in order.
ISOLATIONS: tuple[Mode, ...] = ("bwrap", "namespaces", "landlock")

DEFAULT_MEMORY = 2 << 30
FILE_SIZE = 64 << 20
OPEN_FILES = 256
# Tasks, threads included (a JVM or node starts a dozen threads before the first line).
PROCESSES = 128

# Directories the program must not see: the homes, the shared temporary ones, and /run (the
# user's runtime files, and sockets such as Docker's, which a read-only mount does not close).
# Each maps to how deep below it a path the command names is shown: ~/golf for
# /home/me/golf/answer.py, /tmp/x for /tmp/x/a.py, /run/user/1000/x for a file there.
_HIDDEN = ("/home", "/root", "/tmp", "/var/tmp", "/run")
_SHOWN_DEPTH = {"/home": 2, "/root": 1, "/tmp": 1, "/var/tmp": 1, "/run": 1, "/run/user": 2}
# Each private tmpfs (/tmp, /var/tmp, /dev/shm) holds at most this much: it is memory.
TMPFS_BYTES = 256 << 20

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


@cache
def namespaces_error() -> str:
    """Why namespaces cannot isolate a program here ('' when they can): ``true`` is run in
    them once per process, and the step the kernel refused is named."""
    true = shutil.which("true") or sys.executable
    try:
        with Jail("namespaces", Policy(), cpu_seconds=10) as jail:
            try:
                status = subprocess.run(
                    jail.argv([true]), capture_output=True, timeout=10, check=False,
                    **jail.popen_args(),
                ).returncode  # fmt: skip
            except (OSError, subprocess.SubprocessError) as error:
                return f"namespaces cannot run ({jail.failure() or error})"
    except OSError as error:
        return f"namespaces cannot run ({error})"
    return "" if status == 0 else f"namespaces cannot run (status {status})"


def isolation_error(mode: Mode) -> str:
    """Why ``mode`` cannot run here ('' when it can)."""
    from handsolver.solver.sandbox.landlock import landlock_error

    probes = {"bwrap": bwrap_error, "namespaces": namespaces_error, "landlock": landlock_error}
    return probes[mode]() if mode in probes else ""


def resolve(sandbox: str) -> Mode:
    """The isolation in force for ``sandbox``: ``auto`` takes the first of :data:`ISOLATIONS`
    that can run here.

    :raises InputError: for an unknown name, a named sandbox that cannot run, or ``auto``
        where none can: one line naming what is missing, and ``--sandbox none`` as the way to
        run the program unconfined on purpose.
    """
    if sandbox not in SANDBOXES:
        raise InputError(f"unknown --sandbox {sandbox!r}; choose from {', '.join(SANDBOXES)}")
    if sandbox == "none":
        return "none"
    if sandbox != "auto":
        mode: Mode = sandbox
        why = isolation_error(mode)
        if why:
            raise InputError(f"--sandbox {sandbox}: {why}")
        return mode
    reasons = []
    for mode in ISOLATIONS:
        why = isolation_error(mode)
        if not why:
            return mode
        reasons.append(why)
    raise InputError(
        f"no sandbox can run here: {'; '.join(reasons)}; install bubblewrap, or pass"
        " --sandbox none to run the program with resource limits only"
    )


def _bwrap_mounts() -> list[str]:
    args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    for folder in hidden_folders(_HIDDEN):
        args += ["--tmpfs", folder]
    return args


@cache
def _become_subreaper() -> bool:
    """Make this process adopt the orphans of its descendants (Linux), so none escapes."""
    try:
        kernel.prctl(kernel.PR_SET_CHILD_SUBREAPER, 1)
    except (OSError, AttributeError):
        return False
    return True


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
    started and removes its directory.  Should the child fail to set the isolation up,
    ``failure`` says why.
    """

    def __init__(self, mode: Mode, policy: Policy, cpu_seconds: float) -> None:
        self.mode = mode
        self.policy = policy
        self.cpu = max(1, int(min(cpu_seconds, _CPU_CAP)) + 1)
        self.workdir = ""
        self.cgroup: Path | None = None
        self._before: set[int] = set()
        self._shown: tuple[str, ...] = ()
        self._rules: list[landlock.Rule] = []
        self._errors = (-1, -1)

    def __enter__(self) -> Jail:
        try:
            self.workdir = tempfile.mkdtemp(prefix="handsolver-run-")
            self._errors = os.pipe2(os.O_CLOEXEC)
            # Processes of the sandbox's own: bwrap's two and its init; the keeper and init.
            extra = {"bwrap": 3, "namespaces": 2}.get(self.mode, 0)
            self.cgroup = _cgroup(self.policy.limits.processes + extra)
            _become_subreaper()
            self._prepare()
            self._before = _children(os.getpid())
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.kill_all()
        if self.cgroup is not None:
            with suppress(OSError):
                self.cgroup.rmdir()
        for fd in self._errors:
            with suppress(OSError):
                os.close(fd)
        self._errors = (-1, -1)
        if self.workdir:
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
        self._shown = tuple(_shown_paths(resolved))
        if self.mode == "landlock":
            self._rules = landlock.rules(_HIDDEN, self.workdir, self._shown)
        if self.mode != "bwrap":
            return resolved
        binds = [a for path in self._shown for a in ("--ro-bind", path, path)]
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

    def failure(self) -> str:
        """What the child said when it could not set the isolation up ('' if nothing)."""
        with suppress(OSError):
            os.set_blocking(self._errors[0], False)
            return os.read(self._errors[0], 1000).decode("utf-8", "replace")
        return ""

    def _in_child(self) -> None:
        """Runs in the forked child before exec; a failure is written where ``failure`` reads."""
        try:
            self._isolate()
        except BaseException as error:
            said = error.strerror if isinstance(error, OSError) and error.strerror else error
            with suppress(BaseException):
                os.write(self._errors[1], str(said).encode("utf-8", "replace")[:1000])
            raise

    def _isolate(self) -> None:
        """Join the cgroup, enter the sandbox, set the limits, drop every power."""
        limits = self.policy.limits
        # Should the verifier itself be killed (SIGKILL cannot be caught), the run goes too:
        # the sandboxes take their namespace (or, with Landlock, their domain) down with them;
        # on the limits-only path only this process.
        kernel.prctl(kernel.PR_SET_PDEATHSIG, signal.SIGKILL)
        if self.cgroup is not None:
            fd = os.open(self.cgroup / "cgroup.procs", os.O_WRONLY)
            os.write(fd, b"0")
            os.close(fd)
        if self.mode == "namespaces":
            hidden = namespaces.hidden_folders(_HIDDEN)
            plan = namespaces.Plan(self.workdir, hidden, self._shown, TMPFS_BYTES)
            namespaces.enter(plan)  # returns in the program's own process only
        _lower(resource.RLIMIT_AS, limits.memory)
        _lower(resource.RLIMIT_FSIZE, limits.file_size)
        _lower(resource.RLIMIT_NOFILE, limits.open_files)
        _lower(resource.RLIMIT_CORE, 0)
        _lower(resource.RLIMIT_CPU, self.cpu, self.cpu + 1)
        if os.getuid() != 0:
            _lower(resource.RLIMIT_NPROC, _nproc_base() + limits.processes)
        if self.mode != "bwrap":  # bwrap needs its powers to build the sandbox, then drops them
            kernel.drop_privileges()
        if self.mode == "landlock":
            landlock.confine(self._rules)

    def _prepare(self) -> None:
        """Fill, before the fork, the caches that the child reads."""
        if os.getuid() != 0:
            _nproc_base()
        kernel.libc()
        kernel.cap_last()
        namespaces.hidden_folders(_HIDDEN)

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
    a hidden folder, shows the folder :data:`_SHOWN_DEPTH` levels below the hidden folder
    (``~/.pyenv`` for a pyenv shim, ``~/golf`` for ``~/golf/answer.py``, ``/tmp/x`` for
    ``/tmp/x/a.py``), or the file alone when it lies higher.
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
        for name in _link_chain(path):
            parts = Path(name).parts
            under = [h for h in _SHOWN_DEPTH if name.startswith(h + os.sep)]
            if under:
                hidden = max(under, key=len)
                top = len(Path(hidden).parts) + _SHOWN_DEPTH[hidden] - 1
                out.add(str(Path(*parts[: min(top + 1, len(parts))])))
    return sorted(out)


def _link_chain(path: str) -> set[str]:
    """``path``, every link it passes through on the way to its file, and the file: a link in
    a shown folder to a file in a hidden one (``/tmp/bin/python3`` to a virtual environment's
    ``python3`` to the interpreter) works only if every hop is shown.
    """
    chain = {os.path.abspath(path), os.path.realpath(path)}
    current = os.path.abspath(path)
    for _ in range(40):  # the kernel's own limit on links followed
        if not os.path.islink(current):
            break
        current = os.path.normpath(os.path.join(os.path.dirname(current), os.readlink(current)))
        chain.add(current)
    return chain


def _remove(folder: str) -> None:
    """Remove the run's directory, even where the program took away write permission."""
    for parent, folders, _ in os.walk(folder):
        for name in folders:
            with suppress(OSError):
                os.chmod(os.path.join(parent, name), 0o700)
    shutil.rmtree(folder, ignore_errors=True)
