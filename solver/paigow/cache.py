"""Tables that depend only on the rules, kept on disk between runs.

A table set is stored as one ``.npz`` file in the user's cache directory
(``$HANDSOLVER_CACHE_DIR``, else ``$XDG_CACHE_HOME/handsolver``, else ``~/.cache/handsolver``),
named by a digest of its key (what it was built from, and the handsolver version).  The file
holds its key, the names, types and shapes of its arrays and a checksum of their bytes under the
key (:mod:`handsolver.solver.saved_files`), and the zip format checks a CRC-32 of every array as
it is read; a file whose key, layout, checksum or CRC does not match (a partial write, a corrupt,
edited or foreign file) is rebuilt, never trusted.  Files are written to a
temporary name and renamed, so a reader never sees half a file.  When the directory cannot be
made or written (a read-only home), the tables are built in memory each time: slower, never an
error.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from handsolver.solver.saved_files import cache_dir, program_version

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Arrays = Mapping[str, NDArray[Any]]


def stable(value: Any) -> Any:
    """``value`` as plain JSON data, the same in every process: dataclasses as dicts, sets
    sorted (a frozenset's order changes with the string hash seed).

    >>> stable(frozenset({"b", "a"}))
    ['a', 'b']
    """
    import dataclasses

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: stable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (set, frozenset)):
        return sorted(stable(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [stable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): stable(v) for k, v in value.items()}
    return value


def _layout(arrays: Arrays) -> list[list[str]]:
    return [[name, str(arrays[name].dtype), str(arrays[name].shape)] for name in sorted(arrays)]


def _checksum(key: str, arrays: Arrays) -> str:
    """The checksum of the arrays' bytes (in name order) under the cache key."""
    from handsolver.solver.saved_files import checksum

    return checksum(key, b"".join(arrays[name].tobytes() for name in sorted(arrays)))


def cached_arrays(
    name: str, key: Mapping[str, Any], build: Callable[[], Arrays]
) -> dict[str, NDArray[Any]]:
    """The arrays ``build`` returns for ``key``, read from the disk cache when a sound copy is
    there, else built and saved (atomically) for the next run."""
    full_key = json.dumps({"name": name, "version": program_version(), **key}, sort_keys=True)
    folder = cache_dir()
    path = None
    if folder is not None:
        tag = hashlib.sha256(full_key.encode()).hexdigest()[:20]
        path = folder / f"{name}-{tag}.npz"
        found = _read(path, full_key)
        if found is not None:
            return found
    arrays = dict(build())
    if path is not None:
        _write(path, full_key, arrays)
    return arrays


def _read(path: Path, key: str) -> dict[str, NDArray[Any]] | None:
    import numpy as np

    try:
        with open(path, "rb") as file, np.load(file, allow_pickle=False) as stored:
            meta = json.loads(bytes(stored["__meta__"]).decode())
            arrays = {k: stored[k] for k in stored.files if k != "__meta__"}
    except Exception:  # missing, partial, corrupt or foreign: rebuild  # noqa: BLE001
        return None
    if not isinstance(meta, dict) or meta.get("key") != key:
        return None
    if _layout(arrays) != meta.get("layout") or _checksum(key, arrays) != meta.get("checksum"):
        return None
    return arrays


def _write(path: Path, key: str, arrays: Arrays) -> None:
    import tempfile

    import numpy as np

    meta = {"key": key, "layout": _layout(arrays), "checksum": _checksum(key, arrays)}
    encoded = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    try:
        handle, temporary = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    except OSError:
        return  # a read-only cache only costs speed
    try:
        with os.fdopen(handle, "wb") as file:
            np.savez(file, __meta__=encoded, **dict(arrays))  # type: ignore[arg-type]
        os.replace(temporary, path)
    except OSError:
        pass
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
