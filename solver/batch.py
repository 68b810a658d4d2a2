"""The one way to spread batch work: in this process, a local process pool, or a Dask cluster.

Every batch command (``big2 batch``, ``big2 stats``, ``paigow study``, ``chinese study``, the
showdown batches) maps a top-level function over its jobs with :func:`run_batch` and gets the
results back in input order, whatever ran them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def run_batch(
    function: Callable[[T], R],
    jobs: Iterable[T],
    *,
    workers: int = 1,
    scheduler: str | None = None,
) -> Iterator[R]:
    """``map(function, jobs)`` in input order: here, on ``workers`` local processes, or on the
    Dask distributed cluster at ``scheduler`` (an address such as ``tcp://host:8786``).

    ``function`` must be a module-level function and jobs and results picklable, since they
    may cross process boundaries.

    >>> list(run_batch(abs, [-3, 1, -2]))
    [3, 1, 2]
    """
    if scheduler is None and workers <= 1:
        yield from map(function, jobs)
        return
    if scheduler is not None:
        raise NotImplementedError("Dask scheduler support is not built yet")
    from multiprocessing import Pool

    items = list(jobs)
    with Pool(workers) as pool:
        yield from pool.imap(function, items, chunksize=max(1, min(256, len(items) // workers)))
