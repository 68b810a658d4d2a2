"""Test settings shared by every test module."""

import os
import shutil
import tempfile

from hypothesis import settings

# CI machines are shared and their speed varies; a property test fails on a wrong answer, never
# on a slow example.
settings.register_profile("handsolver", deadline=None, print_blob=True)
settings.load_profile("handsolver")

# The disk cache of tables (handsolver.solver.paigow.cache) goes to one temporary folder per test
# session, shared by the commands the tests start and removed at the end: the user's own cache
# is never touched, and the tables are built once per session.
_CACHE = None
if not os.environ.get("HANDSOLVER_CACHE_DIR"):
    _CACHE = tempfile.mkdtemp(prefix="handsolver-test-cache-")
    os.environ["HANDSOLVER_CACHE_DIR"] = _CACHE


def pytest_unconfigure(config: object) -> None:
    if _CACHE is not None:
        shutil.rmtree(_CACHE, ignore_errors=True)
