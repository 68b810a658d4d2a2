"""Chinese poker pictures: the top settings' points (``chinese settings --plot``) and the
distribution of the best response's gain (``chinese study --plot``)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from handsolver.solver.commands.plots.figures import (
    MIDDLE,
    Figure,
    new_figure,
    percent_axis,
    styled,
    wrapped,
)

MAX_BARS = 40  # settings drawn at most: past that, the labels no longer read


@styled
def settings_figure(
    labels: Sequence[str],
    points: Sequence[float],
    errors: Sequence[float] | None,
    shown: Sequence[str],
    title: str,
) -> Figure:
    """A dot per setting, best at the top, at its points per deal and, when the points are a
    sample's means, with its standard error as a whisker; ``shown`` is each one's points as the
    table writes them.  The axis spans the points, not zero, so that close settings stay
    apart."""
    figure = new_figure(8.0, 1.6 + 0.27 * len(labels))
    ax = figure.add_subplot()
    ys = list(range(len(labels)))
    ax.errorbar(
        points,
        ys,
        xerr=errors,
        fmt="o",
        color="black",
        markersize=4.5,
        capsize=3,
        elinewidth=0.9,
    )
    spread = [0.0] * len(points) if errors is None else list(errors)
    for y, p, e, text in zip(ys, points, spread, shown, strict=True):
        ax.annotate(text, (p + e, y), xytext=(6, 0), textcoords="offset points", va="center",
                    fontsize=7)  # fmt: skip
    low = min(p - e for p, e in zip(points, spread, strict=True))
    high = max(p + e for p, e in zip(points, spread, strict=True))
    margin = (high - low) * 0.1 or 0.5
    ax.set_xlim(low - margin, high + (high - low + margin) * 0.5)  # room for the figures
    ax.set_ylim(len(labels) - 0.5, -0.5)  # the best at the top
    ax.set_yticks(ys, labels, fontsize=7.5, family="monospace")
    whiskers = "exact" if errors is None else "sample means; whiskers: 1 s.e."
    ax.set_xlabel(f"points per deal ({whiskers})")
    ax.set_ylabel("setting: front | middle | back")
    ax.grid(axis="both")
    ax.set_title(wrapped(title))
    return figure


@styled
def gain_figure(gains: Sequence[float], mean: float, stderr: float, title: str) -> Figure:
    """The distribution of the hands' gains, as shares of the hands, with the mean marked."""
    import numpy as np

    values = np.asarray(gains, dtype=np.float64)
    edges = np.histogram_bin_edges(values, bins="auto")
    counts, _ = np.histogram(values, bins=edges)
    figure = new_figure(6.4, 3.6)
    ax = figure.add_subplot()
    ax.stairs(counts / len(values), edges, fill=True, color=MIDDLE)
    ax.stairs(counts / len(values), edges, color="black", linewidth=0.8)
    ax.axvline(
        mean,
        color="black",
        linestyle="--",
        linewidth=1.2,
        label=f"mean {mean:+.4f}" + (f" ± {stderr:.4f} (1 s.e.)" if math.isfinite(stderr) else ""),
    )
    ax.axvline(0, color="black", linewidth=0.6)
    ax.set_xlabel("gain of the best response per hand (points per deal)")
    ax.set_ylabel(f"share of the {len(values):,} hands (%)")
    percent_axis(ax.yaxis)
    ax.grid(axis="y")
    ax.legend(loc="best", frameon=False)
    ax.set_title(wrapped(title))
    return figure
