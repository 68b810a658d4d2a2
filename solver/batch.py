"""The one way to spread batch work: in this process, a local process pool, or a Dask cluster.

Every batch command (``big2 batch``, ``big2 stats``, ``badugi batch``, ``poker batch``,
``paigow study``, ``chinese study``) maps a top-level function over its jobs with
:func:`run_batch` and gets the results back in input order, whatever ran them.

Jobs are handed out in chunks with a bounded number in flight, so a job list of any length
(also a generator) never floods memory.  Ctrl-C and SIGTERM stop the pool at once: the workers
ignore SIGINT (a terminal sends it to the whole process group), and the parent, on its
``KeyboardInterrupt``, terminates them and waits for them to exit (killing any that does not
within :data:`STOP_GRACE` seconds), so none is left behind and no worker prints a traceback.
A reader that goes (``handsolver ... | head -1``) stops the pool as soon: while the pool waits for
results it also watches standard output, when that is a pipe, and a pipe whose reader has gone
ends the batch at once with the ``BrokenPipeError`` the next line would have met (the command
line ends quietly on it), not after the chunks in flight.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from itertools import islice
from typing import Any, NamedTuple, TypeVar

from handsolver.models.cards import InputError

T = TypeVar("T")
R = TypeVar("R")
K = TypeVar("K", bound=Hashable)

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


def run_missing(
    function: Callable[[T], R],
    jobs: Mapping[K, T],
    done: Mapping[K, R],
    *,
    save: Callable[[K, R], None] | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Callable[[Iterator[R], int, int], Iterable[R]] | None = None,
) -> dict[K, R]:
    """The result of every job of ``jobs`` by key, in their order: those in ``done`` (read back
    from a checkpoint), the others computed by :func:`run_batch`, one job a chunk, and each
    handed to ``save`` as it comes.  ``progress`` wraps the loop over the new results: (the
    results, jobs in all, jobs done before).

    >>> run_missing(abs, {"a": -1, "b": -2, "c": 3}, {"b": 2})
    {'a': 1, 'b': 2, 'c': 3}
    """
    pending = [key for key in jobs if key not in done]
    results: Iterable[R] = run_batch(
        function, [jobs[key] for key in pending], workers=workers, scheduler=scheduler, chunksize=1
    )
    if progress is not None:
        results = progress(iter(results), len(jobs), len(jobs) - len(pending))
    found = {key: done[key] for key in jobs if key in done}
    for key, result in zip(pending, results, strict=True):
        found[key] = result
        if save is not None:
            save(key, result)
    return {key: found[key] for key in jobs}


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


class _Worker(NamedTuple):
    process: Any
    connection: Any


# Seconds a worker has to end after being told to (its chunk done, or SIGTERM) before SIGKILL.
STOP_GRACE = 5.0
_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _serve(connection: Any, parent_ends: list[Any]) -> None:
    """A worker: run the chunks sent on ``connection`` until it is closed.

    ``parent_ends`` are the parent's ends of the pipes made so far, this worker's included: a
    forked worker inherits them, and one left open would keep a pipe from ever closing, so a
    worker would wait for work that never comes until it was killed.

    Ctrl-C is ignored (a terminal sends it to the whole process group; the parent decides), and
    SIGTERM ends the worker quietly through ``SystemExit``, so ``finally`` blocks still run (a
    strategy program's sandbox is cleaned up) and no traceback is printed.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    signal.set_wakeup_fd(-1)  # the parent's wake-up pipe (see solver.interrupt) is not ours
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    for end in parent_ends:
        end.close()
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):  # the parent closed its end, or is gone
            return
        function, chunk = message
        try:
            reply: tuple[bool, Any] = (True, run_chunk(function, chunk))
        except Exception as error:
            reply = (False, error)
        try:
            connection.send(reply)
        except (EOFError, OSError):
            return
        except Exception as error:  # an exception or result that does not pickle
            connection.send((False, RuntimeError(f"cannot send a result back: {error!r}")))


def _exit_on_sigterm(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def _run_pool(function: Callable[[T], R], chunks: Iterator[list[T]], workers: int) -> Iterator[R]:
    """The chunks on ``workers`` local processes, results in input order.

    Each worker has its own pipe and takes a chunk only when it is idle, so the processes share
    no lock.  (``multiprocessing.Pool`` shares queue locks with its workers: a worker terminated
    while it held the result queue's lock left the pool's threads blocked for ever, and with
    them the first Ctrl-C.)  At most ``IN_FLIGHT_PER_WORKER`` chunks a worker are out or
    waiting to be yielded, so memory stays bounded whatever the job list.
    """
    import multiprocessing
    from multiprocessing.connection import wait

    # fork starts fastest and needs no importable __main__; spawn where fork is unavailable.
    methods = multiprocessing.get_all_start_methods()
    context: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool: list[_Worker] = []
    finished = False
    output = _output_pipe()
    watched = [] if output is None else [output]
    try:
        # Ctrl-C and SIGTERM stay blocked while a worker starts, so none gets one before it
        # has set its own handling; one that comes meanwhile is delivered here afterwards.
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
        try:
            for _ in range(workers):
                here, there = context.Pipe()
                parent_ends = [worker.connection for worker in pool] + [here]
                process = context.Process(target=_serve, args=(there, parent_ends), daemon=True)
                process.start()
                there.close()
                pool.append(_Worker(process, here))
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        idle = list(pool)
        busy: dict[Any, tuple[int, _Worker]] = {}
        done: dict[int, list[R]] = {}
        sent = taken = 0
        window = workers * IN_FLIGHT_PER_WORKER
        more = True
        while True:
            while more and idle and sent - taken < window:
                chunk = next(chunks, None)
                if chunk is None:
                    more = False
                    break
                worker = idle.pop()
                _send(worker, (function, chunk))
                busy[worker.connection] = (sent, worker)
                sent += 1
            while taken in done:
                yield from done.pop(taken)
                taken += 1
            if not busy:
                if not more and taken == sent:
                    break
                continue
            ready = wait([*busy, *watched])
            if watched and watched[0] in ready:
                if _reader_gone(watched[0]):
                    raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))
                ready.remove(watched.pop())  # readable for another reason (a FIFO opened to read)
            for connection in ready:
                index, worker = busy.pop(connection)
                ok, value = _receive(worker)
                if not ok:
                    raise value
                done[index] = value
                idle.append(worker)
        finished = True
    finally:
        _stop(pool, at_once=not finished)


def _output_pipe() -> int | None:
    """Standard output's descriptor when it is a pipe, else None.  Waited on for reading, the
    writing end of a pipe is ready only when its reader has gone (an error, which ``poll``
    always reports), so it wakes the pool then and never while the reader is there."""
    import stat

    try:
        fd = sys.stdout.fileno()
        return fd if stat.S_ISFIFO(os.fstat(fd).st_mode) else None
    except (AttributeError, OSError, ValueError):  # no stdout, or one with no descriptor
        return None


def _reader_gone(fd: int) -> bool:
    """Whether the pipe ``fd`` writes to has lost its reader (``poll`` reports an error)."""
    import select

    poller = select.poll()
    poller.register(fd, 0)  # errors are reported whatever is asked for
    return any(events & select.POLLERR for _, events in poller.poll(0))


def _send(worker: _Worker, message: Any) -> None:
    try:
        worker.connection.send(message)
    except OSError:
        raise RuntimeError(_died(worker)) from None


def _receive(worker: _Worker) -> tuple[bool, Any]:
    try:
        reply: tuple[bool, Any] = worker.connection.recv()
    except (EOFError, OSError):
        worker.process.join(STOP_GRACE)
        raise RuntimeError(_died(worker)) from None
    return reply


def _died(worker: _Worker) -> str:
    return f"a worker process ended unexpectedly (exit code {worker.process.exitcode})"


def _stop(pool: list[_Worker], *, at_once: bool) -> None:
    """End every worker and wait for it: told by closing its pipe when the work is done, by
    SIGTERM when it is not, by SIGKILL after :data:`STOP_GRACE` seconds.  Ctrl-C and SIGTERM
    wait until this is over (it is bounded), so no worker is ever left behind."""
    import time

    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        for worker in pool:
            worker.connection.close()
            if at_once:
                worker.process.terminate()
        deadline = time.monotonic() + STOP_GRACE
        for worker in pool:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


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
