"""The Linux calls the sandbox makes, through ctypes: no compiled code and no new dependency.

Each wrapper raises :class:`OSError` naming the call and what it was asked, so that a refusal
reads as one line ("mount tmpfs on /tmp: Operation not permitted").  Syscall numbers from 424
up are the same on every architecture, which covers ``mount_setattr`` and Landlock.
"""

from __future__ import annotations

import ctypes
import os
from contextlib import suppress
from functools import cache
from typing import Any

PR_SET_PDEATHSIG = 1
PR_CAPBSET_DROP = 24
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_NOATIME = 1024
MS_NODIRATIME = 2048
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MS_RELATIME = 1 << 21
# The per-mount flags a remount must repeat: a mount inherited from a more privileged namespace
# keeps them locked, and leaving one out is refused.  ``statvfs`` reports them with these values.
MS_KEPT = MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOATIME | MS_NODIRATIME | MS_RELATIME

_SYS_MOUNT_SETATTR = 442
_SYS_LANDLOCK_CREATE_RULESET = 444
_SYS_LANDLOCK_ADD_RULE = 445
_SYS_LANDLOCK_RESTRICT_SELF = 446
_AT_FDCWD = -100
_AT_RECURSIVE = 0x8000
_MOUNT_ATTR_RDONLY = 1
_CAP_VERSION_3 = 0x20080522


@cache
def libc() -> Any:
    """The C library, with ``errno`` kept for :func:`ctypes.get_errno`."""
    return ctypes.CDLL(None, use_errno=True)


@cache
def _pylibc() -> Any:
    """The C library called with the GIL held: for ``fork``, which must not let go of it."""
    return ctypes.PyDLL(None, use_errno=True)


def _check(result: int, what: str) -> int:
    if result < 0:
        number = ctypes.get_errno()
        raise OSError(number, f"{what}: {os.strerror(number)}")
    return result


def _path(path: str | None) -> bytes | None:
    return None if path is None else os.fsencode(path)


def _syscall(number: int, *args: object) -> int:
    """``syscall(2)``: whole numbers go as C longs (it is variadic: an int would leave the
    upper half of its register undefined)."""
    words = [ctypes.c_long(a) if isinstance(a, int) else a for a in args]
    return int(libc().syscall(ctypes.c_long(number), *words))


def prctl(option: int, value: int = 0, extra: int = 0) -> int:
    """``prctl(2)`` with the unused arguments zero, as the kernel requires of some options."""
    words = (ctypes.c_ulong(w) for w in (value, extra, 0, 0))
    return _check(libc().prctl(option, *words), f"prctl({option})")


def unshare(flags: int) -> None:
    _check(libc().unshare(flags), "unshare")


def fork() -> int:
    """``fork(2)`` without Python's fork hooks: for the single-threaded child of a ``Popen``,
    where ``os.fork`` would run the parent's at-fork handlers (and warn about its threads)."""
    return _check(_pylibc().fork(), "fork")


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str = "") -> None:
    """``mount(2)``; the error names the target and what was mounted."""
    result = libc().mount(
        _path(source),
        _path(target),
        _path(fstype),
        ctypes.c_ulong(flags),
        data.encode() if data else None,
    )
    what = fstype or ("remount" if flags & MS_REMOUNT else "bind")
    _check(result, f"mount {what} on {target}")


class _MountAttr(ctypes.Structure):
    _fields_ = [
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    ]


def set_read_only(target: str, read_only: bool, *, recursive: bool) -> None:
    """Make the mount at ``target`` (and with ``recursive`` every mount below it) read-only or
    writable, leaving its other flags alone.

    ``mount_setattr`` (Linux 5.12) does a whole tree in one call; before it, each mount is
    remounted with the flags ``statvfs`` reports for it.
    """
    attr = _MountAttr(
        _MOUNT_ATTR_RDONLY if read_only else 0, 0 if read_only else _MOUNT_ATTR_RDONLY
    )
    result = _syscall(
        _SYS_MOUNT_SETATTR,
        _AT_FDCWD,
        _path(target),
        _AT_RECURSIVE if recursive else 0,
        ctypes.byref(attr),
        ctypes.sizeof(attr),
    )
    if result == 0:
        return
    if ctypes.get_errno() != 38:  # ENOSYS: an older kernel
        _check(result, f"mount_setattr on {target}")
    targets = [target]
    if recursive:
        prefix = target.rstrip("/") + "/"
        targets += sorted(p for p in mount_points() if p.startswith(prefix))
    for point in targets:
        kept = os.statvfs(point).f_flag & MS_KEPT
        flags = MS_REMOUNT | MS_BIND | kept | (MS_RDONLY if read_only else 0)
        mount(None, point, None, flags)


def mount_points() -> list[str]:
    """Every mount point in this mount namespace, from ``/proc/self/mountinfo``."""
    points = []
    with open("/proc/self/mountinfo", "rb") as handle:
        for line in handle:
            # Octal escapes (\040 for a space) stand for the awkward bytes of a path.
            field = line.split()[4].decode("unicode_escape").encode("latin-1")
            points.append(os.fsdecode(field))
    return points


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


@cache
def cap_last() -> int:
    try:
        with open("/proc/sys/kernel/cap_last_cap") as handle:
            return int(handle.read())
    except (OSError, ValueError):
        return 40


def drop_privileges() -> None:
    """No capability now or after ``exec``, and no way back (``no_new_privs``: set-user-ID
    files and file capabilities grant nothing).

    Root keeps its user ID but not its powers: it cannot raise its limits again, override file
    permissions, mount, or leave its cgroup.  Capabilities it lacks already are no error.
    """
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    with suppress(OSError):  # no ambient capabilities before Linux 4.3: none to clear
        prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    for cap in range(cap_last() + 1):
        with suppress(OSError):  # EPERM: not ours to drop, so it is not in the set either
            prctl(PR_CAPBSET_DROP, cap)
    header = _CapHeader(_CAP_VERSION_3, 0)
    data = (_CapData * 2)()
    _check(libc().capset(ctypes.byref(header), data), "capset")


# Landlock ------------------------------------------------------------------------------------


class LandlockRuleset(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock_abi() -> int:
    """The Landlock ABI version this kernel offers.

    :raises OSError: Landlock is not built in, not enabled, or refused (e.g. by seccomp).
    """
    return _check(_syscall(_SYS_LANDLOCK_CREATE_RULESET, None, 0, 1), "landlock_create_ruleset")


def landlock_ruleset(attr: LandlockRuleset) -> int:
    """A new ruleset file descriptor handling what ``attr`` names."""
    fd = _syscall(_SYS_LANDLOCK_CREATE_RULESET, ctypes.byref(attr), ctypes.sizeof(attr), 0)
    return _check(fd, "landlock_create_ruleset")


def landlock_allow(ruleset: int, fd: int, access: int, what: str) -> None:
    """Allow ``access`` beneath the file or directory open as ``fd``."""
    rule = _PathBeneath(access, fd)
    result = _syscall(_SYS_LANDLOCK_ADD_RULE, ruleset, 1, ctypes.byref(rule), 0)
    _check(result, f"landlock_add_rule {what}")


def landlock_restrict(ruleset: int) -> None:
    """Confine this process (and all it starts) to ``ruleset``; needs ``no_new_privs``."""
    _check(_syscall(_SYS_LANDLOCK_RESTRICT_SELF, ruleset, 0), "landlock_restrict_self")
