"""The rule of the layers, read from the source (every import, at the top or inside a function):

* ``models/`` never imports ``solver`` or ``ortools``: the rules stay plain Python;
* a game's package in ``solver/`` never imports another game's, nor the verifier
  (``solver/golf/``), which judges answers with the games' engines; a game may use what every
  game shares: the sandbox (``solver/sandbox/``), the batch runner and ``solver``'s own modules;
* the sandbox imports no game and not the verifier;
* Big 2's three subpackages point one way: ``table`` (play at a real table) may use ``game``
  (every hand face up) and ``fewest`` (the fewest plays), ``game`` may use ``fewest``, and
  never back;
* nothing below the command line imports it: only ``solver/commands/`` and ``solver/cli.py``
  import ``solver.commands`` or ``solver.cli``;
* no circle of imports: counting every import (inside functions and under ``TYPE_CHECKING``
  too), no module reaches itself, so every package reads from the top down.

docs/design.md states the same rules beside the map of the packages.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOLVER = ROOT / "solver"
# The packages of solver/ that are not games: the command line, the verifier, the sandbox.
NOT_GAMES = ("commands", "golf", "sandbox")


def games() -> list[str]:
    """The game packages: every package in solver/ but the command line, the verifier and the
    sandbox."""
    return sorted(
        p.name
        for p in SOLVER.iterdir()
        if (p / "__init__.py").is_file() and p.name not in NOT_GAMES
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


def imports_of(folder: Path, packages: list[str]) -> list[str]:
    """Each import in ``folder`` of one of ``packages`` (names under handsolver.solver)."""
    return [
        f"{path.relative_to(ROOT)}:{line} imports {m}"
        for path in sources(folder)
        for line, m in imports(path)
        if any(within(m, f"handsolver.solver.{package}") for package in packages)
    ]


@pytest.mark.parametrize("game", games())
def test_a_game_never_imports_another_game(game: str) -> None:
    bad = imports_of(SOLVER / game, [g for g in games() if g != game] + ["golf", "commands"])
    assert not bad, "\n".join(bad)


def test_the_sandbox_imports_no_game() -> None:
    bad = imports_of(SOLVER / "sandbox", [*games(), "golf", "commands"])
    assert not bad, "\n".join(bad)


# Big 2's subpackages, each allowed to use only those before it.
BIG2_ORDER = ("fewest", "game", "table")


@pytest.mark.parametrize("sub", BIG2_ORDER)
def test_big2_subpackages_point_one_way(sub: str) -> None:
    later = list(BIG2_ORDER[BIG2_ORDER.index(sub) + 1 :])
    bad = imports_of(SOLVER / "big2" / sub, [f"big2.{name}" for name in later])
    # The front door re-exports the fewest plays: reaching it from below would hide a cycle.
    bad += [
        f"{path.relative_to(ROOT)}:{line} imports the front door"
        for path in sources(SOLVER / "big2" / sub)
        for line, m in imports(path)
        if m == "handsolver.solver.big2"
    ]
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


def module_name(path: Path, root: Path = ROOT) -> str:
    """The installed name of the module at ``path`` (a package by its ``__init__``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["handsolver", *parts])


def import_graph(paths: list[Path], root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules of ``paths`` it imports (``from a import b`` counts as ``a.b``
    where that is a module, else as ``a``)."""
    names = {module_name(path, root): path for path in paths}
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        targets = {m for _, m in imports(path) if m in names}
        # `from a import b` yields both a and a.b: where a.b is a module, a itself is not meant.
        graph[name] = {t for t in targets if not any(u.startswith(t + ".") for u in targets)}
        graph[name].discard(name)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circles() -> None:
    paths = sources(ROOT / "models") + sources(SOLVER)
    assert circles(import_graph(paths)) == []


def test_a_circle_is_found(tmp_path: Path) -> None:
    """Three modules importing round (one only for type checking) make one circle."""
    package = tmp_path / "solver" / "game"
    package.mkdir(parents=True)
    (package / "a.py").write_text("from handsolver.solver.game.b import f\n")
    (package / "b.py").write_text("def g():\n    from handsolver.solver.game import c\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from handsolver.solver.game.a import A\n"
    )
    graph = import_graph(sorted(package.glob("*.py")), tmp_path)
    assert circles(graph) == [
        ["handsolver.solver.game.a", "handsolver.solver.game.b", "handsolver.solver.game.c"]
    ]
