"""The picture of an ``ofc match`` (``--plot``): each player's points a hand with its 95%
interval, and how often its boards foul and earn fantasyland."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from matplotlib.figure import Figure

from handsolver.solver.commands.plots.figures import (
    DARK,
    LIGHT,
    new_figure,
    percent_axis,
    styled,
    wrapped,
)

if TYPE_CHECKING:
    from handsolver.solver.ofc.match import PlayerSummary


@styled
def match_figure(rows: Sequence[PlayerSummary], title: str) -> Figure:
    """Left: points a hand, one dot a player with its 95% interval as a whisker.  Right: the
    share of its boards that foul and that earn fantasyland, two bars a player."""
    figure = new_figure(8.4, 3.4)
    left, right = figure.subplots(1, 2)
    places = list(range(len(rows)))
    names = [wrapped(row.name, 24) for row in rows]
    means = [row.points for row in rows]
    below = [row.points - row.interval[0] for row in rows]
    above = [row.interval[1] - row.points for row in rows]
    left.errorbar(
        places, means, yerr=[below, above], fmt="o", color="black", capsize=3, markersize=4.5
    )
    left.axhline(0, color=DARK, linewidth=0.8)
    left.set_xticks(places, names)
    left.set_xlim(-0.5, len(rows) - 0.5)
    left.set_ylabel("points a hand (95% interval)")
    left.grid(axis="y")
    width = 0.38
    right.bar([p - width / 2 for p in places], [row.foul_rate for row in rows], width,
              color=DARK, label="fouled")  # fmt: skip
    right.bar([p + width / 2 for p in places], [row.fantasy_rate for row in rows], width,
              color=LIGHT, edgecolor=DARK, label="fantasyland earned")  # fmt: skip
    right.set_xticks(places, names)
    right.set_ylabel("share of the hands (%)")
    percent_axis(right.yaxis)
    right.grid(axis="y")
    right.legend(loc="best", frameon=False)
    figure.suptitle(wrapped(title, 90))
    return figure
