"""Open-face Chinese poker pictures: the royalties of fantasyland hands by size, with the value
of being in fantasyland (``ofc study --plot``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from matplotlib.figure import Figure

from handsolver.solver.commands.plots.figures import (
    DARK,
    LIGHT,
    MIDDLE,
    new_figure,
    percent_axis,
    styled,
    wrapped,
)

_GREYS = ("black", DARK, MIDDLE, LIGHT)
_LINES = ("-", "--", "-.", ":")


@styled
def fantasy_figure(
    royalties: Mapping[int, Sequence[float]],
    values: Mapping[int, tuple[float, float]],
    title: str,
    what: str = "royalties",
) -> Figure:
    """Left: the share of hands at each total of ``what`` (royalties, or points with scores),
    one step line a size.  Right: the value of fantasyland of each size with its standard error
    as a whisker."""
    import numpy as np

    figure = new_figure(8.4, 3.6)
    left, right = figure.subplots(1, 2, width_ratios=(2.2, 1))
    top = max(max(items) for items in royalties.values())
    bottom = min(0.0, min(min(items) for items in royalties.values()))
    edges = np.arange(5 * math.floor(bottom / 5), top + 6, 5) - 0.5
    for (size, items), grey, line in zip(royalties.items(), _GREYS, _LINES, strict=False):
        counts, _ = np.histogram(np.asarray(items), bins=edges)
        left.stairs(counts / len(items), edges, color=grey, linestyle=line, label=f"{size} cards")
    left.set_xlabel(f"{what} of the best setting (points, bins of 5)")
    left.set_ylabel("share of the hands (%)")
    percent_axis(left.yaxis)
    left.grid(axis="y")
    left.legend(loc="best", frameon=False)
    sizes = list(values)
    means = [values[size][0] for size in sizes]
    errors = [values[size][1] for size in sizes]
    right.errorbar(sizes, means, yerr=errors, fmt="o", color="black", capsize=3, markersize=4.5)
    right.set_xticks(sizes)
    right.set_xlabel("cards dealt in fantasyland")
    right.set_ylabel("value of being there (points; 1 s.e.)")
    right.grid(axis="both")
    figure.suptitle(wrapped(title, 90))
    return figure
