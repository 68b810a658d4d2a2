"""Files handsolver writes and later reads back itself (the whole game's checkpoints, the disk
cache of tables): one rule for all of them, never trust what was read.

Each saved part (a checkpoint's chunk line, a cached file's arrays) carries a checksum of its
content and of what it belongs to (:func:`checksum`), so a part edited, torn, copied from
elsewhere or renumbered is seen; the reader also checks what the format allows (numbers in
range, each part once, totals that add up) and counts a bad part again or names the file.
A file is read with a bound (:func:`read_bounded`), so a device that never ends
(``/dev/zero``) stops there.

>>> checksum("game 1", b"[1,2,3]") == checksum("game 1", b"[1,2,3]")
True
>>> checksum("game 1", b"[1,2,3]") == checksum("game 2", b"[1,2,3]")
False
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from handsolver.models.cards import InputError


def cache_dir() -> Path | None:
    """The user's cache directory for handsolver (``$HANDSOLVER_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/handsolver``, else ``~/.cache/handsolver``), made if missing; None if it
    cannot be made or written."""
    explicit = os.environ.get("HANDSOLVER_CACHE_DIR")
    if explicit:
        folder = Path(explicit)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = Path(base) / "handsolver"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK | os.X_OK) else None


def program_version() -> str:
    """The installed handsolver version (part of every saved file's key: a file written by
    another version is not read back)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("handsolver")
    except PackageNotFoundError:
        return "unknown"


def checksum(owner: str, content: bytes) -> str:
    """A SHA-256 digest (hex, 32 digits) of ``content`` as a part of ``owner`` (the key of the
    file it was written to): the same content saved for another owner has another checksum."""
    digest = hashlib.sha256()
    digest.update(owner.encode())
    digest.update(b"\0")
    digest.update(content)
    return digest.hexdigest()[:32]


def part_checksum(key: dict[str, Any], content: object) -> str:
    """The checksum of one saved part, ``content`` (JSON), of the checkpoint keyed ``key``.

    >>> part_checksum({"run": 1}, [0, [5, 6]]) == part_checksum({"run": 2}, [0, [5, 6]])
    False
    """
    owner = json.dumps(key, sort_keys=True)
    return checksum(owner, json.dumps(content, separators=(",", ":")).encode())


def default_checkpoint(kind: str, key: dict[str, Any]) -> Path | None:
    """Where the checkpoint of the run ``key`` lives when the user names none: the user's
    cache directory, in a file named by ``kind`` and a digest of the key (None when the folder
    cannot be made)."""
    folder = cache_dir()
    if folder is None:
        return None
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    return folder / f"{kind}-{digest}.jsonl"


@contextmanager
def kept_on_interrupt(path: Path | None, *, named: bool, resuming: bool) -> Iterator[None]:
    """Run a long computation whose checkpoint is ``path``, leaving behind only what the user
    asked for.  A checkpoint the user ``named`` always stays.  A default one (in the cache
    folder) stays when the run is interrupted (Ctrl-C, or SIGTERM, which the command line
    raises as the same ``KeyboardInterrupt``), so that ``--resume`` finds it, and when a run
    ``resuming`` it fails (it holds what was resumed, to be resumed again); a run that ends
    otherwise, done or with an error, removes it.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "run.jsonl"
    >>> with kept_on_interrupt(path, named=False, resuming=False):
    ...     _ = path.write_text("header\\n")
    >>> path.exists()
    False
    """
    try:
        yield
    except KeyboardInterrupt:
        raise
    except BaseException:
        if path is not None and not named and not resuming:
            path.unlink(missing_ok=True)
        raise
    if path is not None and not named:
        path.unlink(missing_ok=True)


def read_bounded(path: Path, limit: int, what: str) -> bytes:
    """The bytes of ``path``, which a file of this kind never has more than ``limit`` of.

    :raises InputError: longer than ``limit`` (naming ``what`` and the file).
    :raises OSError: the file cannot be read.
    """
    with open(path, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise InputError(
            f"{what} {str(path)!r} is larger than {limit:,} bytes: not one handsolver wrote"
        )
    return data


def checkpoint_records(
    path: Path, key: dict[str, Any], most_bytes: int, mismatch: str
) -> list[dict[str, Any]]:
    """The records (JSON objects) after the header of the checkpoint at ``path``, whose header
    must be ``key``; a line that is not a JSON object (a torn last line) is left out, so its part
    is computed again.  ``mismatch`` ends the error for a header of another run.

    :raises InputError: the file cannot be read, is larger than ``most_bytes``, or has another
        header.
    """
    try:
        text = read_bounded(path, most_bytes, "checkpoint").decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise InputError(f"cannot read checkpoint {str(path)!r}: {reason}") from None
    lines = text.split("\n")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError:
        header = None
    if header != key:
        raise InputError(f"checkpoint {str(path)!r} {mismatch}; remove it or run without --resume")
    records = []
    for line in lines[1:]:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict):
            records.append(record)
    return records


class LineWriter:
    """A checkpoint being written: a header line, then one line a finished part, each flushed
    to disk before the next is counted, so a stop loses at most the parts in flight.  A
    checkpoint that is not ``required`` (one the user did not ask for) is given up on the first
    failure, and removed if it holds no part yet: the run goes on without it.

    :raises InputError: a required checkpoint cannot be written (naming the file).
    """

    def __init__(self, path: Path, header: str, required: bool) -> None:
        self.path, self.required = path, required
        self.file: IO[str] | None = None
        self.parts = 0
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115
        except OSError as error:
            self._failed(error)
            return
        self._line(header)

    def add(self, line: str) -> None:
        if self._line(line):
            self.parts += 1

    def _line(self, text: str) -> bool:
        if self.file is None:
            return False
        try:
            self.file.write(text + "\n")
            self.file.flush()
            os.fsync(self.file.fileno())
        except OSError as error:
            self._failed(error)
            return False
        return True

    def _failed(self, error: OSError) -> None:
        self.close()
        if self.required:
            reason = error.strerror or str(error)
            raise InputError(f"cannot write checkpoint {str(self.path)!r}: {reason}") from None
        if self.parts == 0 and self.path.is_file():
            self.path.unlink(missing_ok=True)

    def close(self) -> None:
        if self.file is not None:
            file, self.file = self.file, None
            try:
                file.close()
            except OSError as error:
                self._failed(error)
