"""Timing shared by the benchmarks: machines here are shared and noisy, so every figure is a
median over repeats (the developers' guide asks for medians and ratios, never one timing)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def median_time(run: Callable[[], T], repeats: int) -> tuple[float, T]:
    """The median wall-clock seconds of ``run`` over ``repeats`` calls, and its last result."""
    times = []
    for _ in range(max(1, repeats)):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result
