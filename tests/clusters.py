"""The one way the tests start a Dask cluster: in this process, on loopback only, every port
(the dashboard's too) chosen free, so test runs side by side never collide."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest


@contextmanager
def local_cluster(workers: int = 1) -> Iterator[str]:
    """A local Dask cluster of ``workers`` single-threaded workers; yields the scheduler's
    address (skips the test where ``distributed`` is not installed)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",  # None still takes the fixed port 8787
    ) as local:
        yield local.scheduler_address
