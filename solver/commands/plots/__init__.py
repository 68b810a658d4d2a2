"""Pictures of answers (``--plot FILE``): what every picture shares, without matplotlib.

This module is imported to check a ``--plot`` path before any work starts, so it must stay
light: the format from the file's suffix, and whether the optional extra ``handsolver[plot]``
(matplotlib) is installed.  Drawing is in :mod:`.figures` (the shared style and saving) and one
module per game area; those import matplotlib, and only a command given ``--plot`` imports them.

>>> plot_format(Path("fewest.svg")), plot_format(Path("FEWEST.PNG"))
('svg', 'png')
>>> try:
...     plot_format(Path("x.jpg"))
... except InputError as error:
...     print(error)
cannot draw 'x.jpg': the picture's format comes from its suffix, .svg, .png or .pdf
"""

from __future__ import annotations

from pathlib import Path

from handsolver.models.cards import InputError

__all__ = ["FORMATS", "INSTALL", "check_installed", "plot_format"]

FORMATS = ("svg", "png", "pdf")
INSTALL = "pip install 'handsolver[plot]'"


def plot_format(path: Path) -> str:
    """The picture format ``path`` asks for by its suffix (any case), or :class:`InputError`."""
    from handsolver.solver.commands.errors import MAX_QUOTED_PATH, quoted

    suffix = path.suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise InputError(
            f"cannot draw {quoted(str(path), MAX_QUOTED_PATH)}: the picture's format comes from "
            "its suffix, .svg, .png or .pdf"
        )
    return suffix


def check_installed() -> None:
    """Nothing if matplotlib can be imported, else :class:`InputError` saying how to install it.

    Only the import system is asked (``find_spec``): importing matplotlib costs half a second,
    and is left to the drawing, after the work."""
    from importlib.util import find_spec

    try:
        found = find_spec("matplotlib") is not None
    except (ImportError, ValueError):  # ValueError: a module set to None in sys.modules
        found = False
    if not found:
        raise InputError(f"--plot needs matplotlib, which is not installed: {INSTALL}")
