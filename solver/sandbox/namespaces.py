"""Isolation built from the kernel directly, where bubblewrap is not installed: new user,
mount, PID, network, IPC, UTS and cgroup namespaces through ``unshare(2)``.

:func:`enter` runs in the child ``subprocess.Popen`` forks, before ``exec``.  That child
(the *keeper*) unshares the namespaces, maps its own user and group to themselves, and builds
the program's view of the file system:

* every mount read-only;
* an empty ``tmpfs`` over the hidden folders (homes, ``/tmp``, ``/var/tmp``, ``/run``):
  ``/tmp`` and ``/var/tmp`` private and writable, the others read-only;
* the working directory bound writable at its own path, and the files the command names
  from hidden folders bound read-only at theirs;
* a fresh ``/dev`` holding only ``null``, ``zero``, ``full``, ``random``, ``urandom``, the
  ``fd`` links and a private ``/dev/shm``.

The keeper then forks the namespace's init (PID 1), which forks the program (PID 2) and
reaps orphans until the program ends; the keeper passes the program's exit status on to the
verifier, and when init ends the kernel kills whatever is left in the namespace.  The program
mounts a ``/proc`` of its own PID namespace, with ``/proc/sys`` and its like read-only,
starts a new session, and drops every capability (``no_new_privs``; no nested user
namespaces) before ``exec``.  It cannot see or signal the verifier, reach any network, write
outside its directory and ``/tmp``, or read the homes.
"""

from __future__ import annotations

import os
import resource
import signal
import stat
import struct
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import cache

from handsolver.solver.sandbox import kernel
from handsolver.solver.sandbox.kernel import (
    MS_BIND,
    MS_NODEV,
    MS_NOEXEC,
    MS_NOSUID,
    MS_PRIVATE,
    MS_REC,
)

FLAGS = (
    kernel.CLONE_NEWUSER
    | kernel.CLONE_NEWNS
    | kernel.CLONE_NEWPID
    | kernel.CLONE_NEWNET
    | kernel.CLONE_NEWIPC
    | kernel.CLONE_NEWUTS
    | kernel.CLONE_NEWCGROUP
)
# Hidden folders the program may write in (each a private tmpfs); the others stay empty.
WRITABLE = ("/tmp", "/var/tmp")
DEVICES = ("null", "zero", "full", "random", "urandom")
# Parts of /proc that would let a program (root in its namespace) change the machine.
_PROC_READ_ONLY = ("sys", "sysrq-trigger", "irq", "bus")
_STATUS = struct.Struct("i")


@dataclass(frozen=True)
class Plan:
    """What the program sees: its working directory, the hidden folders (each an existing
    directory), the paths under them it is shown, and the size of each private tmpfs."""

    workdir: str
    hidden: tuple[str, ...]
    shown: tuple[str, ...] = ()
    tmpfs_bytes: int = 64 << 20


def enter(plan: Plan) -> None:
    """Put the calling child into new namespaces built as :class:`Plan` says.

    Returns only in the program's process (PID 2), ready to ``exec``; the keeper and init
    never return.  Must run in a single-threaded child: it forks.

    :raises OSError: a step the kernel refused, named ("unshare: Operation not permitted").
    """
    uid, gid = os.geteuid(), os.getegid()
    _default_signals()
    kernel.unshare(FLAGS)
    with suppress(FileNotFoundError):  # before Linux 3.19 there is no setgroups to deny
        _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1")
    _write("/proc/self/gid_map", f"{gid} {gid} 1")
    _build_file_system(plan)
    read, write = os.pipe2(os.O_CLOEXEC)
    init = kernel.fork()
    if init:
        _never_return(_keep, init, read)
    os.close(read)
    program = kernel.fork()
    if program:
        _never_return(_init, program, write)
    _program_side(plan.workdir)


def _never_return(body: Callable[[int, int], None], pid: int, fd: int) -> None:
    """Run the keeper's or init's ``body``; whatever happens, this process ends here (were it
    to return, it would go on to ``exec`` the program outside the sandbox)."""
    try:
        os.closerange(0, fd)
        os.closerange(fd + 1, _open_max())
        body(pid, fd)
    finally:
        os._exit(127)


def _open_max() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return min(max(soft, 1024), 1 << 20) if soft != resource.RLIM_INFINITY else 1 << 20


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    except OSError as error:
        raise OSError(error.errno, f"write {path}: {error.strerror}") from None
    finally:
        os.close(fd)


def _default_signals() -> None:
    """Signals the verifier catches in Python go back to their default action in the child:
    the keeper and init must not run the verifier's handlers (ignored ones stay ignored)."""
    lib = kernel.libc()
    for signum in signal.valid_signals():
        if callable(signal.getsignal(signum)):
            lib.signal(int(signum), 0)


def _build_file_system(plan: Plan) -> None:
    kernel.mount(None, "/", None, MS_REC | MS_PRIVATE)
    # Opened before they are covered: the sources of the binds below.
    # Shallower first, the working directory last: a bind must not cover one made before it
    # (the script's folder in /tmp and the run's directory inside it, for one).
    sources = {path: _handle(path) for path in (*sorted(plan.shown, key=len), plan.workdir)}
    devices = {name: _handle(f"/dev/{name}") for name in DEVICES}
    kernel.set_read_only("/", True, recursive=True)
    for folder in plan.hidden:
        mode = "1777" if folder in WRITABLE else "0755"
        _tmpfs(folder, f"mode={mode},size={plan.tmpfs_bytes}")
    _private_dev(devices, plan.tmpfs_bytes)
    for path, fd in sources.items():
        _bind(fd, path)
    kernel.set_read_only(plan.workdir, False, recursive=False)
    for folder in plan.hidden:
        if folder not in WRITABLE:
            kernel.set_read_only(folder, True, recursive=False)
    for fd in (*sources.values(), *devices.values()):
        os.close(fd)


def _handle(path: str) -> int:
    return os.open(path, os.O_PATH | os.O_CLOEXEC)


def _tmpfs(folder: str, options: str) -> None:
    kernel.mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, f"{options},nr_inodes=65536")


def _bind(fd: int, path: str) -> None:
    """Bind what ``fd`` names at ``path``, making the mount point first where it is missing
    (inside a fresh tmpfs); the bind keeps the source's flags (read-only by now)."""
    if not os.path.lexists(path):
        os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            os.mkdir(path, 0o755)
        else:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o644))
    kernel.mount(f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC)


def _private_dev(devices: dict[str, int], tmpfs_bytes: int) -> None:
    kernel.mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k")
    for name, fd in devices.items():
        _bind(fd, f"/dev/{name}")
    for name, target in (("fd", ""), ("stdin", "/0"), ("stdout", "/1"), ("stderr", "/2")):
        os.symlink(f"/proc/self/fd{target}", f"/dev/{name}")
    os.mkdir("/dev/shm", 0o1777)
    _tmpfs("/dev/shm", f"mode=1777,size={tmpfs_bytes}")
    kernel.set_read_only("/dev", True, recursive=False)


def _keep(init: int, status: int) -> None:
    """The keeper: wait for init, then end as the program did (its exit code or signal)."""
    _, code = os.waitpid(init, 0)
    with suppress(OSError):
        got = os.read(status, _STATUS.size)
        if len(got) == _STATUS.size:
            (code,) = _STATUS.unpack(got)
    if os.WIFSIGNALED(code):
        signum = os.WTERMSIG(code)
        kernel.libc().signal(signum, 0)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signum})
        os.kill(os.getpid(), signum)
    os._exit(os.waitstatus_to_exitcode(code) if os.WIFEXITED(code) else 128)


def _init(program: int, status: int) -> None:
    """PID 1: reap every process of the namespace until the program ends; report its status."""
    kernel.prctl(kernel.PR_SET_PDEATHSIG, signal.SIGKILL)
    code = 127 << 8
    while True:
        try:
            pid, code = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        if pid == program:
            break
    with suppress(OSError):
        os.write(status, _STATUS.pack(code))
    os._exit(0)


def _program_side(workdir: str) -> None:
    """In the program's process (PID 2): its own ``/proc``, a new session, its directory."""
    kernel.prctl(kernel.PR_SET_PDEATHSIG, signal.SIGKILL)
    os.setsid()
    _mount_proc()
    os.chdir(workdir)


def _mount_proc() -> None:
    """A ``/proc`` showing this PID namespace only, its dangerous parts read-only; where the
    kernel refuses one (a container that masks parts of its own), an empty ``/proc``."""
    try:
        kernel.mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    except OSError:
        _tmpfs("/proc", "mode=0555,size=4k")
        kernel.set_read_only("/proc", True, recursive=False)
        return
    # No user namespace inside this one: a nested one would give the program back the
    # capabilities (over its own mounts) that it is about to lose.
    with suppress(OSError):
        _write("/proc/sys/user/max_user_namespaces", "0")
    for name in _PROC_READ_ONLY:
        path = f"/proc/{name}"
        if os.path.exists(path):
            kernel.mount(path, path, None, MS_BIND | MS_REC)
            kernel.set_read_only(path, True, recursive=True)


@cache
def hidden_folders(candidates: Sequence[str]) -> tuple[str, ...]:
    """The ``candidates`` that exist here as directories (not links): those to cover."""
    return tuple(p for p in candidates if os.path.isdir(p) and not os.path.islink(p))
