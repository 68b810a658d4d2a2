"""The one way to spread batch work: in this process, a local process pool, or a Dask cluster.

Every batch command (``big2 batch``, ``big2 stats``, ``badugi batch``, ``poker batch``,
``paigow study``, ``chinese study``) maps a top-level function over its jobs with
:func:`run_batch` and gets the results back in input order, whatever ran them.

Jobs are handed out in chunks with a bounded number in flight, so a job list of any length
(also a generator) never floods memory.  Ctrl-C stops the pool at once: the workers ignore
SIGINT (a terminal sends it to the whole process group), and the parent, on its
``KeyboardInterrupt``, terminates them and waits for them to exit, so none is left behind and
no worker prints a traceback.
"""

from __future__ import annotations

import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any, TypeVar

from handsolver.models.cards import InputError

T = TypeVar("T")
R = TypeVar("R")

# Chunks in flight per worker: enough to keep every worker busy while results are printed.
IN_FLIGHT_PER_WORKER = 4
# How long to try reaching a Dask scheduler before giving up.
CONNECT_TIMEOUT = "10s"


def run_batch(
    function: Callable[[T], R],
    jobs: Iterable[T],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    chunksize: int | None = None,
) -> Iterator[R]:
    """``map(function, jobs)`` in input order: here, on ``workers`` local processes, or on the
    Dask distributed cluster at ``scheduler`` (an address such as ``tcp://host:8786``).

    ``function`` must be a module-level function and jobs and results picklable, since they
    may cross process boundaries.  ``chunksize`` jobs travel together (default: about eight
    chunks per worker for a sized job list, at most 64 jobs).

    >>> list(run_batch(abs, [-3, 1, -2]))
    [3, 1, 2]

    :raises InputError: the scheduler cannot be reached or Dask is not installed.
    """
    if scheduler is None and workers <= 1:
        yield from map(function, jobs)
        return
    size = chunksize or _chunksize(jobs, workers)
    chunks = _chunks(jobs, size)
    if scheduler is not None:
        yield from _run_dask(function, chunks, scheduler)
    else:
        yield from _run_pool(function, chunks, workers)


def _chunksize(jobs: Iterable[Any], workers: int) -> int:
    try:
        count = len(jobs)  # type: ignore[arg-type]
    except TypeError:
        return 8
    return max(1, min(64, count // (8 * max(1, workers))))


def _chunks(jobs: Iterable[T], size: int) -> Iterator[list[T]]:
    iterator = iter(jobs)
    while chunk := list(islice(iterator, size)):
        yield chunk


def run_chunk(function: Callable[[T], R], chunk: list[T]) -> list[R]:
    """``function`` over one chunk of jobs (top level, so workers can unpickle it)."""
    return [function(job) for job in chunk]


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _run_pool(function: Callable[[T], R], chunks: Iterator[list[T]], workers: int) -> Iterator[R]:
    import multiprocessing

    # fork starts fastest and needs no importable __main__; spawn where fork is unavailable.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    # SIGINT stays blocked while the workers start, so none can get it before it ignores it;
    # one that comes meanwhile is delivered to this process when the pool is up.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pool = context.Pool(workers, initializer=_ignore_sigint)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        pending: deque[Any] = deque()
        for chunk in chunks:
            pending.append(pool.apply_async(run_chunk, (function, chunk)))
            while len(pending) >= workers * IN_FLIGHT_PER_WORKER:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()
        pool.close()
    except BaseException:
        pool.terminate()  # SIGTERM to every worker, whatever it is running
        raise
    finally:
        pool.join()


def _run_dask(function: Callable[[T], R], chunks: Iterator[list[T]], scheduler: str) -> Iterator[R]:
    try:
        import distributed
    except ImportError:
        raise InputError("--scheduler needs Dask: pip install 'handsolver[cluster]'") from None
    try:
        connect: Any = distributed.Client  # untyped: called through Any
        client: Any = connect(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise InputError(f"cannot reach the Dask scheduler {scheduler!r}: {error}") from None
    pending: deque[Any] = deque()
    try:
        threads = max(1, sum(client.nthreads().values()))
        for chunk in chunks:
            pending.append(client.submit(run_chunk, function, chunk, pure=False))
            while len(pending) >= threads * IN_FLIGHT_PER_WORKER:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    finally:
        if pending:
            client.cancel(list(pending))
        client.close()
