"""The rule of the layers, read from the source (every import, at the top or inside a function):

* ``models/`` never imports ``solver`` or ``ortools``: the rules stay plain Python;
* a game's package in ``solver/`` never imports another game's; the verifier (``solver/golf/``)
  judges answers with the games' engines, and the games run untrusted ``program:`` strategies
  through its one sandboxed runner (``golf.runner`` and ``golf.sandbox``) and nothing else of it;
* nothing below the command line imports it: only ``solver/commands/`` and ``solver/cli.py``
  import ``solver.commands`` or ``solver.cli``.

docs/design.md states the same rules beside the map of the packages.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOLVER = ROOT / "solver"
# The one thing of the verifier's that a game may use: the sandboxed runner of untrusted programs.
SHARED_FROM_GOLF = ("golf.runner", "golf.sandbox")


def games() -> list[str]:
    """The game packages: every package in solver/ but the command line and the verifier."""
    return sorted(
        p.name
        for p in SOLVER.iterdir()
        if (p / "__init__.py").is_file() and p.name not in ("commands", "golf")
    )


def imports(path: Path) -> Iterator[tuple[int, str]]:
    """Every module ``path`` imports, absolute, with its line (``from a import b`` gives ``a.b``
    too, since ``b`` may be a module)."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"


def sources(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_there_are_games_to_check() -> None:
    assert {"big2", "chinese", "paigow", "sixcard"} <= set(games())


@pytest.mark.parametrize("path", sources(ROOT / "models"), ids=lambda p: p.name)
def test_models_import_neither_solver_nor_ortools(path: Path) -> None:
    bad = [
        (line, m)
        for line, m in imports(path)
        if within(m, "handsolver.solver") or within(m, "solver") or within(m, "ortools")
    ]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


@pytest.mark.parametrize("game", games())
def test_a_game_never_imports_another_game(game: str) -> None:
    others = [g for g in games() if g != game] + ["golf"]
    bad = []
    for path in sources(SOLVER / game):
        for line, m in imports(path):
            for other in others:
                package = f"handsolver.solver.{other}"
                shared = any(within(m, f"handsolver.solver.{s}") for s in SHARED_FROM_GOLF)
                if within(m, package) and not shared:
                    bad.append(f"{path.relative_to(ROOT)}:{line} imports {m}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    "path",
    [p for p in sources(SOLVER) if "commands" not in p.parts and p.name != "cli.py"],
    ids=lambda p: str(p.relative_to(SOLVER)),
)
def test_only_the_command_line_imports_the_command_line(path: Path) -> None:
    bad = [
        (line, m)
        for line, m in imports(path)
        if within(m, "handsolver.solver.commands") or within(m, "handsolver.solver.cli")
    ]
    if path.name == "__main__.py":  # the entry point starts the command line
        bad = [(line, m) for line, m in bad if not within(m, "handsolver.solver.cli")]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_the_checks_can_fail(tmp_path: Path) -> None:
    """The reader sees imports inside functions and ``from a import b`` as ``a.b``."""
    source = tmp_path / "m.py"
    source.write_text("def f():\n    from handsolver.solver import big2\n")
    assert (2, "handsolver.solver.big2") in list(imports(source))
