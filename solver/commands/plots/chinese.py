"""Chinese poker pictures: the top settings' points (``chinese settings --plot``) and the
distribution of the best response's gain (``chinese study --plot``)."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.figure import Figure

from handsolver.solver.commands.plots.figures import MIDDLE, new_figure, percent_axis, styled

MAX_BARS = 40  # settings drawn at most: past that, the labels no longer read


@styled
def settings_figure(
    labels: Sequence[str], points: Sequence[float], errors: Sequence[float] | None, title: str
) -> Figure:
    """A bar per setting, best first, its points per deal and, when the points are a sample's
    means, its standard error as a whisker."""
    figure = new_figure(8.0, 1.2 + 0.27 * len(labels))
    ax = figure.add_subplot()
    ys = range(len(labels))
    bars = ax.barh(
        ys,
        points,
        xerr=errors,
        height=0.65,
        color=MIDDLE,
        edgecolor="black",
        linewidth=0.5,
        error_kw={"ecolor": "black", "capsize": 2.5, "elinewidth": 0.8},
    )
    shown = [
        f"{p:+.4f}" if errors is None else f"{p:+.4f} ± {e:.4f}"
        for p, e in zip(points, errors or [0.0] * len(points), strict=True)
    ]
    ax.bar_label(bars, labels=shown, fontsize=7, padding=4)
    ax.set_yticks(list(ys), labels, fontsize=7.5, family="monospace")
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    low, high = ax.get_xlim()
    ax.set_xlim(min(low, 0), high + (high - min(low, 0)) * 0.3)  # room for the figures
    whiskers = "exact" if errors is None else "sample means; whiskers: 1 s.e."
    ax.set_xlabel(f"points per deal ({whiskers})")
    ax.set_ylabel("setting: front | middle | back")
    ax.grid(axis="x")
    ax.set_title(title)
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
        label=f"mean {mean:+.4f} ± {stderr:.4f} (1 s.e.)",
    )
    ax.axvline(0, color="black", linewidth=0.6)
    ax.set_xlabel("gain of the best response per hand (points per deal)")
    ax.set_ylabel(f"share of the {len(values):,} hands (%)")
    percent_axis(ax.yaxis)
    ax.grid(axis="y")
    ax.legend(loc="upper right", frameon=False)
    ax.set_title(title)
    return figure
