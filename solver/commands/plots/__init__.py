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

__all__ = ["FORMATS", "INSTALL", "check_installed", "isolate_matplotlib", "plot_format"]

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


def isolate_matplotlib() -> None:
    """Set this process up so that matplotlib, imported next, does not depend on the user's
    setup: the headless Agg backend whatever ``MPLBACKEND`` says, no ``MATPLOTLIBRC``, and a
    configuration folder of handsolver's own (in its cache directory, else a temporary one),
    so an unwritable home neither warns nor slows the import.  What a ``matplotlibrc`` in the
    working folder sets is undone when drawing (:func:`.figures.style` starts from
    matplotlib's defaults)."""
    import os

    os.environ["MPLBACKEND"] = "agg"
    os.environ.pop("MATPLOTLIBRC", None)
    from handsolver.solver.saved_files import cache_dir

    base = cache_dir()
    folder = None
    if base is not None:
        folder = base / "matplotlib"
        try:
            folder.mkdir(exist_ok=True)
        except OSError:
            folder = None
    if folder is None:
        import atexit
        import shutil
        import tempfile

        folder = Path(tempfile.mkdtemp(prefix="handsolver-matplotlib-"))
        atexit.register(shutil.rmtree, folder, True)
    os.environ["MPLCONFIGDIR"] = str(folder)
