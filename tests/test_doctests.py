"""The examples in every module's docstrings, run against the installed ``handsolver`` package.

The source folders are not importable under their installed names, so pytest's
``--doctest-modules`` would import them a second time as top-level ``models`` and ``solver``;
importing each module by its real name keeps one copy of every module.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import handsolver.models
import handsolver.solver


def _module_names() -> list[str]:
    names = []
    for package in (handsolver.models, handsolver.solver):
        names.append(package.__name__)
        prefix = package.__name__ + "."
        names += [info.name for info in pkgutil.walk_packages(package.__path__, prefix)]
    return sorted(names)


@pytest.mark.parametrize("name", _module_names())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in finder.find(module):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
