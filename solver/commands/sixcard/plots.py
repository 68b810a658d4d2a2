"""Six-card game pictures: a strategy as a heat map (``sixcard strategy`` and ``sixcard
equilibrium --plot``) and a simulation against the exact score (``sixcard simulate --plot``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from handsolver.solver.commands.plots.figures import (
    DARK,
    LIGHT,
    Figure,
    Patch,
    Rectangle,
    new_figure,
    percent_axis,
    styled,
    wrapped,
)

if TYPE_CHECKING:
    from handsolver.solver.sixcard import Simulation, Strategy, Tables


class HandPlays(NamedTuple):
    """One row of a strategy: the hand, every split it has (in the game's order) and the
    probability the strategy plays each."""

    hand: str
    splits: tuple[str, ...]
    probabilities: tuple[float, ...]


def strategy_rows(strategy: Strategy, t: Tables) -> list[HandPlays]:
    """The rows of :func:`strategy_figure` for ``strategy``, one per hand in the game's order."""
    from handsolver.models.sixcard import format_hand, format_split

    rows = []
    for h, hand in enumerate(t.hands):
        owned = t.hand_splits[h]
        played = dict(strategy.plays[h])
        rows.append(
            HandPlays(
                format_hand(hand, t.game),
                tuple(format_split(t.splits[s], t.game) for s in owned),
                tuple(float(played.get(s, 0)) for s in owned),
            )
        )
    return rows


@styled
def strategy_figure(rows: Sequence[HandPlays], title: str) -> Figure:
    """A heat map of a strategy: a row per hand, a column per split of that hand (numbered in
    the game's order), the probability of playing it as grey (white never, black always); the
    splits played are written at the row's end.  A hand with fewer splits than the widest has
    its missing columns hatched."""
    import numpy as np

    width = max(len(row.splits) for row in rows)
    grid = np.full((len(rows), width), np.nan)
    for r, row in enumerate(rows):
        grid[r, : len(row.probabilities)] = row.probabilities
    figure = new_figure(8.0, 1.4 + 0.125 * len(rows))
    ax = figure.add_subplot()
    ax.add_patch(Rectangle((-0.5, -0.5), width, len(rows), facecolor="white", hatch="//", zorder=0))
    image = ax.imshow(
        np.ma.masked_invalid(grid),
        cmap="Greys",
        vmin=0,
        vmax=1,
        aspect="auto",
        interpolation="none",
        zorder=1,
    )
    ax.set_yticks(range(len(rows)), [row.hand for row in rows], fontsize=6, family="monospace")
    ax.set_xticks(range(width), [str(n) for n in range(1, width + 1)], fontsize=6)
    ax.set_xlabel("split of the hand (numbered in the game's order)")
    ax.set_ylabel("hand (card values)")
    notes = []
    for row in rows:
        plays = [(s, p) for s, p in zip(row.splits, row.probabilities, strict=True) if p > 0]
        notes.append(", ".join(s if p == 1 else f"{s} {p:.0%}" for s, p in plays))
    played = ax.secondary_yaxis("right")
    played.set_yticks(range(len(rows)), notes, fontsize=6, family="monospace")
    played.set_ylabel("splits played (High|Middle|Low, with their probability when mixed)")
    ax.tick_params(length=0)
    played.tick_params(length=0)
    bar = figure.colorbar(image, ax=ax, location="bottom", shrink=0.5, aspect=40, pad=0.01)
    bar.set_label("probability the strategy plays the split (%)")
    percent_axis(bar.ax.xaxis)
    ax.legend(
        handles=[Patch(facecolor="white", hatch="//", edgecolor="black", label="no such split")],
        loc="lower left",
        bbox_to_anchor=(0, 1),
        frameon=False,
        fontsize=7,
    )
    ax.set_title(wrapped(title, 84), pad=16)
    return figure


@styled
def simulation_figure(result: Simulation, exact: float, title: str) -> Figure:
    """The simulation's running mean score after 100, 200, 500, ... rounds (log scale) against
    the exact score, inside the band where 95% of running means fall if the two agree."""
    rounds = [n for n, _ in result.running]
    means = [m for _, m in result.running]
    spread = result.stderr * math.sqrt(result.rounds)  # one round's standard deviation
    figure = new_figure(6.4, 3.6)
    ax = figure.add_subplot()
    low = [exact - 1.96 * spread / math.sqrt(n) for n in rounds]
    high = [exact + 1.96 * spread / math.sqrt(n) for n in rounds]
    ax.fill_between(rounds, low, high, color=LIGHT, label="exact ± 1.96 s.e. (95%)")
    ax.axhline(exact, color="black", linestyle="--", linewidth=1.2, label=f"exact {exact:.4%}")
    ax.plot(
        rounds,
        means,
        color=DARK,
        marker="o",
        markersize=3.5,
        linewidth=1.2,
        label=f"simulated {result.mean:.4%} after {result.rounds:,} rounds",
    )
    ax.set_xscale("log")
    ax.grid(True)
    ax.set_xlabel("rounds played (log scale)")
    ax.set_ylabel("mean score so far (% of rounds won; draws half)")
    percent_axis(ax.yaxis)
    ax.legend(loc="upper right", frameon=False, fontsize=8)
    ax.set_title(wrapped(title))
    return figure
