"""Isolation by Landlock, where namespaces are not allowed: the kernel's own access control,
which any unprivileged process may apply to itself and everything it starts.

The program may read and run what lies outside the hidden folders, write only beneath its
working directory (and to ``/dev/null``, ``/dev/zero``, ``/dev/full``), open no TCP
connection and bind no TCP port, and signal or ptrace no process outside its own domain (the
verifier included).  Landlock counts as a sandbox from ABI 6 (Linux 6.12): before it a program
could still signal every process of the user (``kill(-1, SIGKILL)``).

What Landlock cannot do, and namespaces do: hide the names of files (a hidden folder's
entries cannot be listed or read, but a path can still be tested with ``stat``), give a
private ``/tmp`` (the program's ``TMPDIR`` is its working directory), or close UDP and
pathname Unix sockets.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from handsolver.solver.sandbox import kernel

EXECUTE = 1 << 0
WRITE_FILE = 1 << 1
READ_FILE = 1 << 2
READ_DIR = 1 << 3
# Remove, make (char, dir, reg, sock, fifo, block, sym) and, from ABI 2, 3 and 5: refer,
# truncate and device ioctl.
_FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
_NET_TCP = 0b11  # bind and connect (ABI 4)
_SCOPES = 0b11  # abstract Unix sockets and signals (ABI 6)
NEEDED_ABI = 6

READ = EXECUTE | READ_FILE | READ_DIR
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | (1 << 14) | (1 << 15)
# Devices a program may use: the sinks and sources every runtime expects.
DEVICES = {
    "/dev/null": READ_FILE | WRITE_FILE,
    "/dev/zero": READ_FILE | WRITE_FILE,
    "/dev/full": READ_FILE | WRITE_FILE,
    "/dev/random": READ_FILE,
    "/dev/urandom": READ_FILE,
}


class Rule(NamedTuple):
    """Rights granted beneath one path."""

    path: str
    access: int


def handled_fs(abi: int) -> int:
    """Every file-system right this ABI knows: each one not granted is denied."""
    return _FS_BY_ABI[max(a for a in _FS_BY_ABI if a <= abi)]


@cache
def landlock_error() -> str:
    """Why Landlock cannot isolate a program here ('' when it can): asked once per process."""
    try:
        abi = kernel.landlock_abi()
    except OSError as error:
        return f"Landlock is not available ({error.strerror})"
    if abi < NEEDED_ABI:
        return (
            f"Landlock ABI {abi} cannot keep the program from signalling other processes"
            f" (needs ABI {NEEDED_ABI}, Linux 6.12)"
        )
    return ""


def readable(hidden: Sequence[str], root: str = "/") -> list[str]:
    """The folders and files beneath ``root`` to grant reading: everything but ``hidden``.

    Landlock grants rights beneath a path and cannot take them back below it, so a folder
    holding a hidden one is split into its entries.  Symbolic links are left out (what they
    point to is granted or hidden on its own) and so is ``/dev`` (see :data:`DEVICES`).
    """
    out: list[str] = []
    try:
        entries = list(os.scandir(root))
    except OSError:
        return out
    for entry in entries:
        path = entry.path
        if path in hidden or path == "/dev" or entry.is_symlink():
            continue
        if any(folder.startswith(path + "/") for folder in hidden):
            out += readable(hidden, path)
        elif entry.is_dir(follow_symlinks=False) or entry.is_file(follow_symlinks=False):
            out.append(path)
    return out


@cache
def _readable(hidden: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(readable(hidden))


def rules(hidden: Sequence[str], workdir: str, shown: Sequence[str]) -> list[Rule]:
    """What the program may do: read outside ``hidden`` and in ``shown``, anything in
    ``workdir``, and use a few devices."""
    everything = (1 << 64) - 1
    out = [Rule(path, READ) for path in _readable(tuple(hidden))]
    out += [Rule(path, READ) for path in shown]
    out += [Rule(path, access) for path, access in DEVICES.items() if os.path.exists(path)]
    out.append(Rule(workdir, everything))
    return out


def confine(rules: Sequence[Rule]) -> None:
    """Confine this process to ``rules`` (run in the child, just before ``exec``).

    Rights beyond what the kernel's ABI handles are dropped from each rule; on a file only the
    rights that apply to files are kept.  Needs ``no_new_privs`` already set.

    :raises OSError: a Landlock call failed.
    """
    abi = kernel.landlock_abi()
    fs = handled_fs(abi)
    attr = kernel.LandlockRuleset(
        fs, _NET_TCP if abi >= 4 else 0, _SCOPES if abi >= NEEDED_ABI else 0
    )
    ruleset = kernel.landlock_ruleset(attr)
    try:
        for path, access in rules:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue  # gone since it was listed: nothing to grant
            try:
                if not stat.S_ISDIR(os.fstat(fd).st_mode):
                    access &= FILE_RIGHTS
                kernel.landlock_allow(ruleset, fd, access & fs, path)
            finally:
                os.close(fd)
        kernel.landlock_restrict(ruleset)
    finally:
        os.close(ruleset)
