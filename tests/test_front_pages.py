"""The front pages name every command the CLI has (docs/index.md's table of commands, and the
README's paragraphs on the commands), and the README links every page of the manual.

The commands come from the CLI itself, walked as ``--help`` would walk it: every command of
every group, a group with a default command (``big2 HAND`` solves) named by the group's own
name.  A page names a command when it writes it in backticks, alone or followed by its
arguments: `` `big2 game` `` or `` `big2 game HAND HAND` ``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command

from handsolver.solver.cli import app
from handsolver.solver.commands.groups import DefaultCommandGroup

ROOT = Path(__file__).resolve().parents[1]


def command_paths(command: Any, path: tuple[str, ...] = ()) -> Iterator[str]:
    """Every command under ``command`` as the words a user types (``big2 game-batch``)."""
    ctx = command.make_context("handsolver", ["--help"], resilient_parsing=True)
    default = getattr(command, "default_command", "")
    for name in command.list_commands(ctx):
        sub = command.get_command(ctx, name)
        if sub is None or sub.hidden:
            continue
        words = path if name == default else (*path, name)
        if hasattr(sub, "list_commands"):
            yield from command_paths(sub, words)
        else:
            yield " ".join(words)


COMMANDS = sorted(command_paths(get_command(app)))


def named(text: str) -> set[str]:
    """The command paths ``text`` names: each backticked span's words, cut after every word."""
    found = set()
    for span in re.findall(r"`([^`\n]+)`", text):
        words = span.removeprefix("handsolver ").split()
        found |= {" ".join(words[:n]) for n in range(1, len(words) + 1)}
    return found


def index_table() -> str:
    """The first column of docs/index.md's table under "## Commands"."""
    text = (ROOT / "docs" / "index.md").read_text()
    section = text.split("\n## Commands\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return "\n".join(row.split(" | ")[0] for row in rows)


def readme_named() -> set[str]:
    """The commands the README's "## Commands" section names.  Its paragraphs go by group,
    each group's first one starting with the group in bold (**`sixcard`**), so there a bare
    subcommand (`split`) names the group's command (``sixcard split``)."""
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## Commands\n", 1)[1].split("\n## ", 1)[0]
    found: set[str] = set()
    group = ""
    for paragraph in section.split("\n\n"):
        lead = re.match(r"\*\*`([\w-]+)`\*\*", paragraph)
        group = lead.group(1) if lead else group
        words = named(paragraph)
        found |= words | {f"{group} {word}" for word in words if group}
    return found


def test_the_walk_finds_every_kind_of_command() -> None:
    # A default command under its group's name, a subcommand, a top-level command, and the
    # subcommands of a group without a default.
    assert {"big2", "big2 game-batch", "euler54", "sixcard export-matlab"} <= set(COMMANDS)
    assert "big2 solve" not in COMMANDS and "badugi showdown" not in COMMANDS
    assert "ofc" not in COMMANDS and "ofc play" in COMMANDS


@pytest.mark.parametrize("command", COMMANDS)
def test_index_lists_every_command(command: str) -> None:
    assert command in named(index_table()), f"docs/index.md's table lacks `{command}`"


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_names_every_command(command: str) -> None:
    assert command in readme_named(), f"README.md's commands lack `{command}`"


def test_a_missing_command_is_caught() -> None:
    table = "| `big2 HAND` | ... |\n| `big2 check HAND ANSWER`, `poker batch FILE` | ... |"
    assert {"big2", "big2 check", "poker batch"} <= named(table)
    assert "big2 game" not in named(table) and "big2 HAND" in named(table)
    assert "big2 game" not in named("`big2 game-batch FILE`")


def test_the_readme_names_every_page() -> None:
    readme = (ROOT / "README.md").read_text()
    for page in sorted((ROOT / "docs").glob("*.md")):
        if page.name != "index.md":
            assert f"docs/{page.name}" in readme, f"README.md never links docs/{page.name}"


def test_default_groups_are_seen_as_such() -> None:
    big2 = get_command(app).get_command(None, "big2")  # type: ignore[arg-type]
    assert isinstance(big2, DefaultCommandGroup) and big2.default_command == "solve"
