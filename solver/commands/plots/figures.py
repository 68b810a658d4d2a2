"""The one look and the one way of saving every picture: headless, greyscale, same input same
bytes.

Figures are built with :class:`matplotlib.figure.Figure` directly, never ``pyplot``: no global
figure manager, no GUI backend, nothing left open; saving picks the headless canvas for the
format (Agg for PNG, the SVG and PDF backends for theirs).  The user's matplotlib setup plays
no part (:func:`~handsolver.solver.commands.plots.isolate_matplotlib`, :func:`style`).

Determinism: SVG element ids come from a fixed ``svg.hashsalt`` instead of a random one, and
no file carries a date or the matplotlib version (``metadata`` without ``Date``,
``CreationDate``, ``Creator``, ``Producer`` or ``Software``).  Text stays text in SVG
(``svg.fonttype: none``), which keeps the files small.

Greyscale: every chart reads without colour, by grey levels and hatching.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ParamSpec

from handsolver.solver.commands.output import write_atomic
from handsolver.solver.commands.plots import isolate_matplotlib, plot_format

isolate_matplotlib()  # before matplotlib is imported: it reads the environment then

import matplotlib  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Patch, Rectangle  # noqa: E402

# The one module that imports matplotlib (after isolating it): the pictures take its names here.
__all__ = [
    "DARK",
    "HATCH",
    "LIGHT",
    "MIDDLE",
    "Figure",
    "Patch",
    "Rectangle",
    "new_figure",
    "percent_axis",
    "picture_bytes",
    "save",
    "style",
    "styled",
    "wrapped",
]

P = ParamSpec("P")

# Grey levels that stay apart when printed: dark, middle, light (0 black, 1 white).
DARK, MIDDLE, LIGHT = "0.2", "0.55", "0.85"
HATCH = "////"

STYLE: dict[Any, Any] = {  # keyed by rcParams names (Any: mypy sees them as literals)
    "svg.hashsalt": "handsolver",
    "svg.fonttype": "none",
    "pdf.fonttype": 42,
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.monospace": ["DejaVu Sans Mono"],
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.edgecolor": "0.3",
    "axes.axisbelow": True,
    "grid.color": "0.88",
    "grid.linewidth": 0.6,
    "hatch.linewidth": 0.6,
    "hatch.color": "0.25",
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "figure.facecolor": "white",
}

_METADATA: dict[str, dict[str, Any]] = {
    "svg": {"Date": None, "Creator": None},
    "pdf": {"CreationDate": None, "ModDate": None, "Creator": None, "Producer": None},
    "png": {"Software": None},
}


@contextmanager
def style() -> Iterator[None]:
    """The pictures' settings, for building and for saving a figure (and nothing else): from
    matplotlib's defaults, whatever a ``matplotlibrc`` of the user's set."""
    with matplotlib.rc_context():
        matplotlib.rcdefaults()
        matplotlib.rcParams.update(STYLE)
        yield


def styled(draw: Callable[P, Figure]) -> Callable[P, Figure]:
    """``draw`` run in the pictures' style (matplotlib reads fonts and sizes when an artist is
    made, so the whole drawing runs inside it)."""

    @functools.wraps(draw)
    def run(*args: P.args, **kwargs: P.kwargs) -> Figure:
        with style():
            return draw(*args, **kwargs)

    return run


def new_figure(width: float, height: float) -> Figure:
    """An empty figure ``width`` x ``height`` inches, laid out to fit (call it when styled)."""
    return Figure(figsize=(width, height), layout="constrained")


def picture_bytes(figure: Figure, fmt: str) -> bytes:
    """``figure`` as a file of format ``fmt`` (svg, png or pdf), the same bytes every time."""
    buffer = io.BytesIO()
    with style():
        figure.savefig(buffer, format=fmt, metadata=_METADATA[fmt])
    return buffer.getvalue()


def save(figure: Figure, path: Path) -> None:
    """Write ``figure`` to ``path`` in the format of its suffix, atomically (as ``--out``)."""
    write_atomic(path, picture_bytes(figure, plot_format(path)))


def wrapped(title: str, width: int = 72) -> str:
    """``title`` broken into lines of at most ``width`` characters (a long input would
    otherwise run off the picture); its own line breaks are kept."""
    import textwrap

    return "\n".join(
        "\n".join(textwrap.wrap(line, width, break_on_hyphens=False) or [""])
        for line in title.splitlines()
    )


def percent_axis(axis: Any) -> None:
    """Label the ticks of ``axis`` (an x or y axis holding shares 0..1) as percentages."""
    from matplotlib.ticker import PercentFormatter

    axis.set_major_formatter(PercentFormatter(1.0, decimals=None))
