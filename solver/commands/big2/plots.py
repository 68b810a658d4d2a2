"""Big 2 pictures: the distribution of the fewest plays (``big2 stats --plot``), one series of
bars per rule profile; a tournament's shares of deals won (``big2 tournament --plot``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from handsolver.solver.commands.plots.figures import (
    DARK,
    HATCH,
    LIGHT,
    MIDDLE,
    Figure,
    new_figure,
    percent_axis,
    styled,
    wrapped,
)

# Each series' bars and mean line, apart in greyscale: fill, hatching, line style.
_LOOKS = [
    (MIDDLE, "", "--"),
    ("white", HATCH, ":"),
    (DARK, "", "-."),
    (LIGHT, "xx", (0, (5, 1, 1, 1, 1, 1))),
]


@styled
def fewest_plays_figure(series: Mapping[str, Mapping[int, int]], title: str) -> Figure:
    """Bars for every count of plays from the fewest seen to the most, empty counts too, as
    shares of the hands; each series' mean is a line.  ``series`` maps a name (the rules) to a
    histogram, plays -> hands; several series stand side by side at each count."""
    seen = {plays for histogram in series.values() for plays in histogram}
    counts = list(range(min(seen), max(seen) + 1))
    width = 0.8 / len(series)
    figure = new_figure(6.4 if len(series) == 1 else 8.0, 3.6)
    ax = figure.add_subplot()
    highest = 0.0
    for index, (name, histogram) in enumerate(series.items()):
        face, hatch, line = _LOOKS[index % len(_LOOKS)]
        hands = sum(histogram.values())
        shares = [histogram.get(plays, 0) / hands for plays in counts]
        highest = max(highest, *shares)
        offset = (index - (len(series) - 1) / 2) * width
        named = f"{name} rules: " if len(series) > 1 else ""
        bars = ax.bar(
            [plays + offset for plays in counts],
            shares,
            width=width,
            color=face,
            hatch=hatch,
            edgecolor="black",
            linewidth=0.6,
            label=f"{name} rules" if len(series) > 1 else None,
        )
        if len(series) == 1:
            ax.bar_label(bars, labels=[f"{share:.1%}" for share in shares], fontsize=7, padding=2)
        mean = sum(plays * n for plays, n in histogram.items()) / hands
        ax.axvline(mean, color="black", linestyle=line, linewidth=1.2,
                   label=f"{named}mean {mean:.3f} plays")  # fmt: skip
    ax.set_xticks(counts)
    ax.set_xlabel("fewest plays that empty the hand (plays)")
    ax.set_ylabel("share of hands (%)")
    percent_axis(ax.yaxis)
    ax.set_ylim(0, highest * 1.15)
    ax.grid(axis="y")
    if len(series) == 1:
        ax.legend(loc="upper right", frameon=False, fontsize=8)
    else:  # beside the bars, which fill the axes
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False, fontsize=8)
    ax.set_title(wrapped(title))
    return figure


@styled
def tournament_figure(strategies: list[dict[str, Any]], players: int, title: str) -> Figure:
    """One bar a strategy: its share of deals won, with its 95% interval as an error bar, and
    a dashed line at chance (one deal in the number of seats)."""
    figure = new_figure(6.4, 3.6)
    ax = figure.add_subplot()
    names = [item["strategy"] for item in strategies]
    shares = [item["win_rate"] for item in strategies]
    # No error bar where the games were too few for an interval (it is null).
    spans = [item["interval"] or (item["win_rate"],) * 2 for item in strategies]
    low = [share - span[0] for share, span in zip(shares, spans, strict=True)]
    high = [span[1] - share for share, span in zip(shares, spans, strict=True)]
    bars = ax.bar(
        range(len(names)),
        shares,
        yerr=[low, high],
        capsize=4,
        color=MIDDLE,
        edgecolor="black",
        linewidth=0.6,
    )
    ax.bar_label(bars, labels=[f"{share:.1%}" for share in shares], fontsize=8, padding=2)
    ax.axhline(1 / players, color="black", linestyle="--", linewidth=1.0, label="chance")
    ax.set_xticks(range(len(names)), [wrapped(name, 18) for name in names])
    ax.set_ylabel("share of deals won (%)")
    percent_axis(ax.yaxis)
    ax.set_ylim(0, 1.05)
    ax.grid(axis="y")
    ax.legend(loc="upper right", frameon=False, fontsize=8)
    ax.set_title(wrapped(title))
    return figure
