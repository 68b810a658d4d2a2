"""Writing output: JSON alike for every command, a hand's strength as JSON, and ``--out`` files
written atomically with the user's umask.
"""

from __future__ import annotations

import errno
import json
import math
import os
from pathlib import Path
from typing import Any

import typer

from handsolver.models.strength import Strength


def print_json(value: Any) -> None:
    """Print ``value`` as JSON, indented by two spaces (every command's --json looks alike).

    A float that is not finite (a standard error from one sample is NaN) is printed as
    ``null``: JSON has no NaN, and a script must be able to read every answer.

    >>> print_json({"mean": 0.5, "stderr": float("nan")})
    {
      "mean": 0.5,
      "stderr": null
    }
    """
    typer.echo(json.dumps(finite_json(value), indent=2, allow_nan=False))


def finite_json(value: Any) -> Any:
    """``value`` with every float that is not finite replaced by ``None``."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: finite_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [finite_json(item) for item in value]
    return value


def strength_json(place: Strength) -> dict[str, int | float]:
    """The JSON fields every showdown command prints for a hand's strength.

    The shares are rounded for JSON; tables format ``beats / total`` and ``ties / total`` from
    the counts, so that a rounded share is never rounded twice."""
    return {
        "class": place.hand_class,
        "beats": place.beats,
        "ties": place.ties,
        "total": place.total,
        "beats_share": round(place.share_beaten, 6),
        "ties_share": round(place.share_tied, 6),
    }


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write ``text`` (UTF-8, or bytes as they are) to ``path`` so that a failure leaves no
    partial file behind.

    The file gets the user's umask (or keeps the mode of the file it replaces).  A symlink is
    written through: the file it points to is replaced and the link stays.  A device or pipe
    (``/dev/stdout``) is written directly.  Every error names ``path`` as given, never the
    temporary file.
    """
    import stat
    import tempfile  # costs a few ms of start-up; only commands that write files need it

    def asked(error: OSError) -> OSError:
        return OSError(error.errno, error.strerror, str(path))

    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    if str(path) in ("", ".") or target.is_dir():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    try:
        status: os.stat_result | None = target.stat()
    except OSError:
        status = None
    data = text.encode("utf-8") if isinstance(text, str) else text
    if status is not None and not stat.S_ISREG(status.st_mode):
        try:
            with open(target, "wb") as device:
                device.write(data)
        except OSError as error:
            raise asked(error) from error
        return
    mode = status.st_mode & 0o7777 if status is not None else 0o666 & ~_umask()
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as error:  # name the file the user asked for, not the temporary one
        raise asked(error) from error
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
        os.replace(tmp, target)
    except OSError as error:
        Path(tmp).unlink(missing_ok=True)
        raise asked(error) from error
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
