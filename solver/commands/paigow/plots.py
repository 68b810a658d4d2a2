"""Pai Gow pictures: every setting's win, push and loss (``paigow settings --plot``), and the
gain of best play over the house way by hand type (``paigow study --plot``, and any command
that compares the house way with best play hand by hand)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from handsolver.solver.commands.plots.figures import (
    DARK,
    HATCH,
    LIGHT,
    MIDDLE,
    Figure,
    Patch,
    new_figure,
    percent_axis,
    styled,
    wrapped,
)

if TYPE_CHECKING:
    from handsolver.models.paigow import PaiGowHand
    from handsolver.models.paigow_houseway import HouseWay
    from handsolver.solver.paigow import HandValues, StudyRow


class SettingBar(NamedTuple):
    """One setting as drawn: its label, its win / push / loss shares (summing to 1), its EV (a
    fraction of the bet) and whether it is the house way's or the best."""

    label: str
    win: float
    push: float
    loss: float
    ev: float
    house_way: bool
    best: bool


_EDGE: dict[str, Any] = {"edgecolor": "black", "linewidth": 0.5}
# Win dark, push light, loss white and hatched: apart in greyscale as in colour.
_PARTS = (("win", DARK, None), ("push", LIGHT, None), ("loss", "white", HATCH))


@styled
def settings_figure(settings: Sequence[SettingBar], title: str) -> Figure:
    """One stacked bar per setting, best first: win, push and loss as shares of the dealer's
    hands, with the EV at the bar's end; the best setting and the house way's are named."""
    rows = len(settings)
    figure = new_figure(8.0, 1.3 + 0.27 * rows)
    ax = figure.add_subplot()
    ys = range(rows)
    left = [0.0] * rows
    for name, face, hatch in _PARTS:
        widths = [getattr(item, name) for item in settings]
        ax.barh(ys, widths, left=left, height=0.7, color=face, hatch=hatch, **_EDGE)
        left = [a + b for a, b in zip(left, widths, strict=True)]
    for y, item in enumerate(settings):
        marks = [m for m, on in (("best", item.best), ("house way", item.house_way)) if on]
        note = f"EV {item.ev * 100:+.3f}%" + (f"  ({', '.join(marks)})" if marks else "")
        ax.text(1.01, y, note, va="center", fontsize=7.5, weight="bold" if marks else "normal")
    ax.set_yticks(list(ys), [item.label for item in settings], fontsize=7.5, family="monospace")
    for tick, item in zip(ax.get_yticklabels(), settings, strict=True):
        if item.best or item.house_way:
            tick.set_fontweight("bold")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    percent_axis(ax.xaxis)
    ax.set_xlabel("share of the dealer's hands (%)")
    ax.set_ylabel("setting: high hand | low hand")
    ax.grid(axis="x")
    handles = [Patch(facecolor=f, hatch=h, label=n, **_EDGE) for n, f, h in _PARTS]
    ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(0, 1), ncols=3, frameon=False)
    figure.suptitle(wrapped(title, 90), fontsize="medium")
    return figure


class TypeGain(NamedTuple):
    """The gain over the hands of one type: their number, mean and the standard error."""

    hand_type: str
    hands: int
    mean: float
    standard_error: float


def gains_by_type(rows: Iterable[tuple[str, float]]) -> list[TypeGain]:
    """Group (hand type, gain) rows by type; the types ordered by mean gain, largest first.

    >>> [tuple(t) for t in gains_by_type([("pair", 0.0), ("flush", 0.5), ("pair", 0.25)])]
    [('flush', 1, 0.5, 0.0), ('pair', 2, 0.125, 0.125)]
    """
    groups: dict[str, list[float]] = {}
    for hand_type, gain in rows:
        groups.setdefault(hand_type, []).append(gain)
    found = [
        TypeGain(
            name,
            len(gains),
            statistics.fmean(gains),
            statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0.0,
        )
        for name, gains in groups.items()
    ]
    return sorted(found, key=lambda t: (-t.mean, t.hand_type))


@styled
def gain_by_type_figure(rows: Iterable[tuple[str, float]], title: str) -> Figure:
    """The mean gain of best play over the house way for each hand type, from rows of (hand
    type, gain as a fraction of the bet): a bar per type with its standard error, and the
    number of hands of the type.  Used by every Pai Gow command that compares the two."""
    types = gains_by_type(rows)
    figure = new_figure(7.0, 1.2 + 0.3 * len(types))
    ax = figure.add_subplot()
    ys = range(len(types))
    means = [t.mean * 100 for t in types]
    errors = [t.standard_error * 100 for t in types]
    bars = ax.barh(
        ys,
        means,
        xerr=errors,
        height=0.65,
        color=MIDDLE,
        edgecolor="black",
        linewidth=0.5,
        error_kw={"ecolor": "black", "capsize": 2.5, "elinewidth": 0.8},
    )
    ax.bar_label(bars, labels=[f"{m:.3f}%" for m in means], fontsize=7, padding=4)
    ax.set_yticks(list(ys), [f"{t.hand_type} ({t.hands:,})" for t in types])
    ax.invert_yaxis()
    ax.set_xlim(0, max([m + e for m, e in zip(means, errors, strict=True)] + [0.01]) * 1.25)
    ax.set_xlabel("mean gain of best play over the house way (% of the bet; bars: 1 s.e.)")
    ax.set_ylabel("hand type (hands)")
    ax.grid(axis="x")
    ax.set_title(wrapped(title))
    return figure


@styled
def exact_gain_figure(types: Sequence[tuple[str, float, int]], title: str) -> Figure:
    """The exact gain of best play over the house way for each hand type of the whole game
    (``paigow game --plot``), from (hand type, gain as a fraction of the bet, player hands of the
    type): a bar per type, labelled with its gain and its number of hands."""
    figure = new_figure(7.0, 1.2 + 0.3 * len(types))
    ax = figure.add_subplot()
    ys = range(len(types))
    gains = [gain * 100 for _, gain, _ in types]
    bars = ax.barh(ys, gains, height=0.65, color=MIDDLE, edgecolor="black", linewidth=0.5)
    ax.bar_label(bars, labels=[f"{g:.4f}%" for g in gains], fontsize=7, padding=4)
    ax.set_yticks(list(ys), [f"{name} ({hands:,})" for name, _, hands in types])
    ax.invert_yaxis()
    ax.set_xlim(0, max(gains + [0.01]) * 1.3)
    ax.set_xlabel("exact gain of best play over the house way (% of the bet)")
    ax.set_ylabel("player's hand type (hands)")
    ax.grid(axis="x")
    ax.set_title(wrapped(title))
    return figure


def setting_bars(values: HandValues, hand: PaiGowHand) -> list[SettingBar]:
    """The bars of :func:`settings_figure` for a hand's exact values, in their order."""
    best = (values.best.high, values.best.low)
    return [
        SettingBar(
            f"{hand.format(item.high)} | {hand.format(item.low)}",
            item.win / item.total,
            item.push / item.total,
            item.loss / item.total,
            float(item.ev),
            item.house_way,
            (item.high, item.low) == best,
        )
        for item in values.settings
    ]


def type_gains(rows: Iterable[StudyRow], way: HouseWay) -> list[tuple[str, float]]:
    """A study's rows as (hand type, gain): the type is the house way's name for the hand's
    pattern (``one pair``, ``two pair, split``, ...)."""
    from handsolver.models.paigow import pattern_counts
    from handsolver.models.paigow_houseway import plan_of

    return [(plan_of(way, pattern_counts(row.hand)).pattern, float(row.gain)) for row in rows]
