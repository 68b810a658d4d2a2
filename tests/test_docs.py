"""Every example in README.md and docs/*.md gives what it shows.

Two kinds of fenced block are run; every other block (``text``, ``sh``, ``json``...) is prose.

- ``pycon``: a doctest.  The blocks of one page share their names, in page order, as the
  examples of one doctest file would.
- ``console``: lines ``$ handsolver ARGS`` followed by the output, as on a terminal (stdout and
  stderr interleaved).  The command runs in process through typer's ``CliRunner`` with
  ``COLUMNS=80`` (``--help`` wrapped at 78, as a terminal that wide wraps it) and stdout not a
  terminal, in a temporary directory that holds a link to the repository's ``examples/``
  folder, so ``examples/...`` paths work and files a command writes go nowhere.  A page's
  console blocks share that directory.  Besides ``handsolver`` a line may be ``echo $?`` (the
  previous command's exit code), ``head``/``tail`` with ``-n N`` or ``-N`` on a file, or a
  pipeline ``handsolver ... [< FILE] | head -N | tail -N``.  A command that exits non-zero
  must be followed by ``echo $?``, so that no page hides a failure.

Outputs are compared line by line after removing trailing spaces; durations (``0.89 s``,
``"seconds": 0.532``) are masked, since no two runs take the same time, and so is the sandbox
``verify`` names (``sandbox bwrap``, ``"sandbox": "namespaces"``), since it depends on what
the machine has (bubblewrap or not) and not on the example.  On a machine where no sandbox can
run at all, ``verify`` examples run with ``--sandbox none`` (tests/solver/test_sandbox.py
says, by its skips, why none can run).

A picture drawn by an example, ``--plot docs/images/NAME.svg``, is the picture the page shows:
the command draws it in the temporary directory and it must equal, byte for byte, the file of
that name in the repository (pictures are deterministic).

``HANDSOLVER_UPDATE_DOCS=1 python -m pytest tests/test_docs.py`` rewrites the outputs of the
console blocks and the pictures in place instead of comparing them (then read the diff before
committing).
"""

from __future__ import annotations

import contextlib
import doctest
import os
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from handsolver.solver.cli import app

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
UPDATE = os.environ.get("HANDSOLVER_UPDATE_DOCS", "") not in ("", "0")
FENCE = re.compile(r"^(`{3,})(\S*)\s*$")
MASKS = [
    (re.compile(r"\d+\.\d+ (m?s)(?![\w.])"), r"<t> \1"),
    (re.compile(r'"seconds": \d+(\.\d+)?'), '"seconds": <t>'),
    (re.compile(r"\bsandbox (bwrap|namespaces|landlock|none)\b"), "sandbox <isolation>"),
    (re.compile(r'"sandbox": "\w+"'), '"sandbox": <isolation>'),
]


@dataclass
class Block:
    """A fenced block: its language, the line number of its first body line (0-based), its body."""

    lang: str
    start: int
    body: list[str]


@dataclass
class Command:
    """One ``$`` line of a console block and the output lines shown under it."""

    line: str
    lineno: int
    shown: list[str] = field(default_factory=list)


def blocks(lines: list[str]) -> Iterator[Block]:
    """The fenced blocks of a page, in order."""
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        fence, lang = opening.groups()
        end = i + 1
        while end < len(lines) and lines[end].rstrip() != fence:
            end += 1
        if end == len(lines):
            raise AssertionError(f"line {i + 1}: the block opened here is never closed")
        yield Block(lang, i + 1, lines[i + 1 : end])
        i = end + 1


def commands(block: Block) -> list[Command]:
    """The ``$`` lines of a console block, each with the output lines under it."""
    found: list[Command] = []
    for offset, line in enumerate(block.body):
        if found and found[-1].line.endswith("\\") and not found[-1].shown:
            # A long command goes on on the next line, as in a shell.
            found[-1].line = found[-1].line[:-1] + line.strip()
            found[-1].lineno += 1
        elif line.startswith("$ "):
            found.append(Command(line[2:], block.start + offset + 1))
        elif not found:
            raise AssertionError(f"line {block.start + offset + 1}: output before any '$' line")
        else:
            found[-1].shown.append(line)
    return found


def normalised(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        line = line.rstrip()
        for pattern, mask in MASKS:
            line = pattern.sub(mask, line)
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return out


def head_or_tail(words: list[str], text: str) -> str:
    """``head``/``tail`` with ``-N`` or ``-n N``, on ``text``."""
    name, *options = words
    if len(options) == 2 and options[0] == "-n":
        options = ["-" + options[1]]
    if len(options) != 1 or not re.fullmatch(r"-\d+", options[0]):
        raise AssertionError(f"unsupported {name} options {options}")
    count = int(options[0][1:])
    lines = text.splitlines(keepends=True)
    return "".join(lines[:count] if name == "head" else lines[-count:] if count else [])


class Shell:
    """Runs the lines of a page's console blocks, in order, in one working directory."""

    def __init__(self, directory: Path, update: bool = UPDATE, root: Path = ROOT) -> None:
        self.directory = directory
        self.update = update
        self.root = root  # where the pages' pictures are kept
        self.status = 0
        self.pending: Command | None = None  # a command that failed, waiting for `echo $?`
        self.problems: list[str] = []
        self.runner = _TerminalRunner()

    def run(self, command: Command) -> str:
        words = shlex.split(command.line)
        if words == ["echo", "$?"]:
            self.pending = None
            return f"{self.status}\n"
        self.finish()
        stages = [list(group) for group in _split_on_pipes(words)]
        first, *rest = stages
        if first[0] in ("head", "tail"):
            *options, name = first
            text = head_or_tail(options, (self.directory / name).read_text())
            self.status = 0
        elif first[0] == "cat" and len(first) == 2:
            text = (self.directory / first[1]).read_text()
            self.status = 0
        elif first[0] == "handsolver":
            text = self.handsolver(first[1:])
        else:
            raise AssertionError(f"line {command.lineno}: unsupported command {first[0]!r}")
        if self.status != 0:
            self.pending = command
        for stage in rest:
            if stage[0] not in ("head", "tail"):
                raise AssertionError(f"line {command.lineno}: unsupported pipe into {stage[0]!r}")
            text = head_or_tail(stage, text)
        return text

    def handsolver(self, args: list[str]) -> str:
        stdin = None
        if "<" in args:
            at = args.index("<")
            stdin = (self.directory / args[at + 1]).read_text()
            args = args[:at] + args[at + 2 :]
        pictures = [Path(args[i + 1]) for i, arg in enumerate(args[:-1]) if arg == "--plot"]
        for picture in pictures:
            (self.directory / picture).parent.mkdir(parents=True, exist_ok=True)
        if args[:1] == ["verify"] and "--sandbox" not in args and not _a_sandbox_runs():
            args = [*args, "--sandbox", "none"]
        result = self.runner.invoke(app, args, input=stdin, env={"COLUMNS": "80"})
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        self.status = result.exit_code
        for picture in pictures:
            self.compare_picture(picture)
        return result.output

    def compare_picture(self, picture: Path) -> None:
        """The picture just drawn against the repository's copy: the same bytes, or (updating)
        the copy replaced."""
        drawn, kept = self.directory / picture, self.root / picture
        if picture.is_absolute() or picture.parts[0] != "docs":
            self.problems.append(f"{picture}: a page's picture belongs under docs/")
        elif not drawn.is_file():
            self.problems.append(f"{picture}: the command drew no picture")
        elif not kept.is_file() or kept.read_bytes() != drawn.read_bytes():
            if self.update:
                kept.parent.mkdir(parents=True, exist_ok=True)
                kept.write_bytes(drawn.read_bytes())
            else:
                self.problems.append(
                    f"{picture}: stale, not what the command draws now "
                    "(HANDSOLVER_UPDATE_DOCS=1 redraws it)"
                )

    def finish(self) -> None:
        """Note a failed command that no ``echo $?`` showed."""
        if self.pending is not None:
            self.problems.append(
                f"line {self.pending.lineno}: '{self.pending.line}' exits {self.status}; "
                "show it with a following '$ echo $?'"
            )
            self.pending = None


class _TerminalRunner(CliRunner):
    """typer's CliRunner, but ``--help`` is wrapped as a real run with ``COLUMNS=80`` wraps it
    (two columns short of the width, 78), not at the 80 the runner forces."""

    @contextlib.contextmanager
    def isolation(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        from typer._click import formatting  # typer's own copy of click, which it forces

        with super().isolation(*args, **kwargs) as streams:
            formatting.FORCED_WIDTH = None  # measured from COLUMNS, as in a terminal
            yield streams


def _a_sandbox_runs() -> bool:
    from handsolver.models.cards import InputError
    from handsolver.solver.sandbox.isolation import resolve

    try:
        resolve("auto")
    except InputError:
        return False
    return True


def _split_on_pipes(words: list[str]) -> Iterator[list[str]]:
    stage: list[str] = []
    for word in words:
        if word == "|":
            yield stage
            stage = []
        else:
            stage.append(word)
    yield stage


def check_console(
    lines: list[str], directory: Path, update: bool = UPDATE, root: Path = ROOT
) -> list[str]:
    """Run every console block of a page; the problems found, or [] when ``update`` is set and
    ``lines`` have been rewritten with the real outputs instead."""
    directory.mkdir(exist_ok=True)
    (directory / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    shell = Shell(directory, update, root)
    problems: list[str] = []
    edits: list[tuple[int, int, list[str]]] = []  # (first line, end, new lines), 0-based
    cwd = Path.cwd()
    os.chdir(directory)
    try:
        for block in blocks(lines):
            if block.lang != "console":
                continue
            for command in commands(block):
                try:
                    actual = shell.run(command).splitlines()
                except AssertionError as error:
                    problems.append(str(error))
                    continue
                if normalised(actual) != normalised(command.shown):
                    first = command.lineno  # 0-based index of the first output line
                    edits.append((first, first + len(command.shown), actual))
                    problems.append(_diff(command, actual))
        shell.finish()
    finally:
        os.chdir(cwd)
    problems += shell.problems
    if update:
        for first, end, new in reversed(edits):
            new = [line.rstrip() for line in new]
            while new and not new[-1]:
                new.pop()
            lines[first:end] = new
        return []
    return problems


def _diff(command: Command, actual: list[str]) -> str:
    import difflib

    diff = difflib.unified_diff(
        normalised(command.shown), normalised(actual), "shown", "actual", lineterm=""
    )
    return f"line {command.lineno}: $ {command.line}\n" + "\n".join(diff)


def check_pycon(lines: list[str], name: str) -> list[str]:
    """Run every pycon block of a page as one doctest file; the failures, or []."""
    parser = doctest.DocTestParser()
    finder_globals: dict[str, object] = {"__name__": "__docs__"}
    problems: list[str] = []
    for block in blocks(lines):
        if block.lang != "pycon":
            continue
        text = "\n".join(block.body) + "\n"
        test = parser.get_doctest(text, finder_globals, name, name, block.start)
        report: list[str] = []
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test, out=report.append, clear_globs=False)
        problems += report
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_examples(page: Path, tmp_path: Path) -> None:
    lines = page.read_text(encoding="utf-8").splitlines()
    problems = check_pycon(lines, page.name)
    problems += check_console(lines, tmp_path)
    if UPDATE:
        page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert not problems, f"{page.name}: examples differ\n" + "\n\n".join(problems)


LIST_ITEM = re.compile(r"( *)(?:[-*+]|\d+\.) ")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def markdown_mistakes(lines: list[str]) -> list[str]:
    """What the site's Markdown (Python-Markdown) would show other than GitHub does.

    - A list item or a paragraph nested in a list item needs 4 spaces; with 1 to 3 the nested
      bullets are flattened and a numbered list restarts at 1.
    - A list needs a blank line after a paragraph (also a paragraph inside a list item); without
      it the items run into the paragraph's text.
    - A ``|`` inside a code span in a table row: GitHub splits the cell there, and an escaped
      ``\\|`` shows its backslash on the site.
    """
    found: list[str] = []
    fenced = {
        i
        for block in blocks(lines)
        for i in range(block.start - 1, block.start + len(block.body) + 1)
    }
    in_paragraph = False  # in a paragraph that began after a blank line (not an item's text)
    for i, line in enumerate(lines):
        if i in fenced or not line.strip():
            in_paragraph = False
            continue
        indent = len(line) - len(line.lstrip(" "))
        item = LIST_ITEM.match(line)
        after_blank = i == 0 or not lines[i - 1].strip() or (i - 1) in fenced
        if item and 0 < indent < 4:
            found.append(
                f"line {i + 1}: a nested list item needs 4 spaces, not {indent}: {line.strip()}"
            )
        elif 0 < indent < 4 and after_blank:
            found.append(
                f"line {i + 1}: a paragraph in a list item needs 4 spaces, not {indent}: "
                f"{line.strip()}"
            )
        if item and in_paragraph:
            found.append(f"line {i + 1}: a list item needs a blank line before it: {line.strip()}")
        if item or line.lstrip()[:1] in ("#", "|", "<", ">"):
            in_paragraph = False
        elif after_blank:
            in_paragraph = True
        if line.lstrip().startswith("|"):
            for span in CODE_SPAN.finditer(line):
                if "|" in span.group(2):
                    found.append(
                        f"line {i + 1}: a '|' inside a code span in a table: {span.group(0)}"
                    )
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_markdown_reads_the_same_on_the_site(page: Path) -> None:
    problems = markdown_mistakes(page.read_text(encoding="utf-8").splitlines())
    assert not problems, f"{page.name}:\n" + "\n".join(problems)


def test_markdown_mistakes_are_caught() -> None:
    page = [
        "1. **Step one.** Some text",
        "   that goes on.",
        "   - a nested bullet at 3 spaces",
        "",
        "   A paragraph of the step at 3 spaces.",
        "2. Step two",
        "    - nested right",
        "",
        "    A paragraph of step two, right.",
        "3. Step three, run into the paragraph above.",
        "",
        "A paragraph",
        "- and a list run into it",
        "",
        "| command | what |",
        "|---|---|",
        "| `paigow settings --vs-setting HIGH\\|LOW` | escaped |",
        "| `a` | `b` |",
        "```text",
        "  - a bullet in a code block is text",
        "```",
    ]
    problems = markdown_mistakes(page)
    expected = ["line 3", "line 5", "line 6", "line 10", "line 13", "line 17"]
    assert [problem.split(":")[0] for problem in problems] == expected


def test_readme_is_a_front_page() -> None:
    """At most 200 lines, and every link into docs/ names a page that exists."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    links = re.findall(r"\]\((docs/[^)#]+)", text)
    assert links and all((ROOT / link).is_file() for link in links)


def test_every_page_is_in_the_site_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = sorted(path.name for path in (ROOT / "docs").glob("*.md"))
    assert [page for page in pages if f": {page}" not in nav] == []


def test_benchmark_figures_are_printed_ones() -> None:
    """Each pasted output names a script that exists, and every number in the summary table
    is one of the pasted outputs' numbers."""
    lines = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8").splitlines()
    pasted = [block for block in blocks(lines) if block.lang == "text"]
    assert pasted
    for block in pasted:
        script = re.match(r"\$ python (scripts/bench_\w+\.py)", block.body[0])
        assert script and (ROOT / script.group(1)).is_file(), block.body[0]
    text = "\n".join(line for block in pasted for line in block.body).replace(",", "")
    printed = set(re.findall(r"\d+(?:\.\d+)?", text))
    summary = [line for line in lines if line.startswith("| ") and "bench_" in line]
    figures = re.findall(r"\d[\d,]*(?:\.\d+)?", "\n".join(summary).replace("bench_", ""))
    assert summary and [f for f in figures if f.replace(",", "") not in printed] == []


def test_a_wrong_example_fails(tmp_path: Path) -> None:
    """The checker can fail: a changed output, a hidden exit code and a bad doctest are caught."""
    page = [
        "```console",
        '$ handsolver badugi "3c 2s 4d Ah - As 3h 2d 4h" --json | head -3',
        "{",
        '  "winners": [',
        "    1",
        "```",
        "```console",
        '$ handsolver badugi "3c 2s 4d"',
        "error: ...",
        "```",
        "```pycon",
        ">>> 1 + 1",
        "3",
        "```",
    ]
    if UPDATE:
        pytest.skip("update mode rewrites instead of comparing")
    changed, *hidden = check_console(page, tmp_path)
    assert "-    1" in changed and "+    0" in changed
    assert any("exits 2; show it with a following '$ echo $?'" in problem for problem in hidden)
    assert check_pycon(page, "page")


def test_update_mode_writes_the_real_output(tmp_path: Path) -> None:
    page = [
        "Prose stays.",
        "```console",
        "$ handsolver big2 check '4S 4H' '4S, 4H'",
        "an old output",
        "that was longer",
        "$ echo $?",
        "```",
        "```console",
        '$ handsolver big2 "AS 4H"',
        "```",
    ]
    assert check_console(page, tmp_path / "a", update=True) == []
    assert page[:3] == ["Prose stays.", "```console", "$ handsolver big2 check '4S 4H' '4S, 4H'"]
    assert page[3:5] == ["valid: yes", "optimal: no"] and page[-1] == "```"
    assert "$ echo $?" in page and "1" in page and "  single               4H" in page
    (tmp_path / "b").mkdir()
    assert check_console(page, tmp_path / "b", update=False) == []


def test_a_stale_picture_fails(tmp_path: Path) -> None:
    """A page's picture must be what its command draws: a changed one is caught, and
    update mode redraws it."""
    pytest.importorskip("matplotlib")
    picture = Path("docs") / "images" / "big2-stats.svg"
    page = ["```console", f"$ handsolver big2 stats --deals 3 --seed 1 --json --plot {picture}"]
    page += ["```"]
    repo = tmp_path / "repo"  # where the page's pictures are kept
    check_console(page, tmp_path / "a", update=True, root=repo)  # writes output and picture
    drawn = (repo / picture).read_bytes()
    assert drawn.startswith(b"<?xml") and b"3 random 13-card hands" in drawn
    assert check_console(page, tmp_path / "b", update=False, root=repo) == []
    (repo / picture).write_bytes(drawn.replace(b"seed 1", b"seed 2"))
    (stale,) = check_console(page, tmp_path / "c", update=False, root=repo)
    assert "big2-stats.svg: stale" in stale
    (repo / picture).unlink()
    assert check_console(page, tmp_path / "d", update=False, root=repo) != []
    check_console(page, tmp_path / "e", update=True, root=repo)
    assert (repo / picture).read_bytes() == drawn


def test_durations_and_the_sandbox_are_masked() -> None:
    shown = ["PASS  1303 cases (batch mode, sandbox bwrap, 0.11 s)", '  "seconds": 0.532,']
    actual = ["PASS  1303 cases (batch mode, sandbox namespaces, 2.40 s)", '  "seconds": 1,']
    assert normalised(shown) == normalised(actual)
    assert normalised(['  "sandbox": "bwrap",']) == normalised(['  "sandbox": "landlock",'])
    assert normalised(["85.9% (-0.85 s.e.)"]) == ["85.9% (-0.85 s.e.)"]
    assert normalised(["PASS  403 judged"]) != normalised(["PASS  404 judged"])


# The answer programs in examples/: each challenge, and whether `handsolver verify` passes it.
ANSWERS = {
    "badugi_answer.py": ("badugi", True),
    "badugi_greedy.py": ("badugi", False),
    "poker_answer.py": ("poker", True),
    "big2_answer.py": ("big2", True),
    "sixcard_sorted.py": ("sixcard", True),
}


def test_every_answer_program_is_tested() -> None:
    assert sorted(path.name for path in (ROOT / "examples").glob("*.py")) == sorted(ANSWERS)


@pytest.mark.parametrize("program", sorted(ANSWERS))
def test_answer_program(program: str) -> None:
    import json
    import sys

    challenge, right = ANSWERS[program]
    command = shlex.join([sys.executable, str(ROOT / "examples" / program)])
    args = ["verify", challenge, "--cmd", command, "--cases", "30", "--seed", "3", "--json"]
    args += [] if _a_sandbox_runs() else ["--sandbox", "none"]
    result = CliRunner().invoke(app, [*args, "--budget", "120"])
    report = json.loads(result.stdout)
    assert report["passed"] is right, report["counterexample"]
    assert result.exit_code == (0 if right else 1)
    assert report["not_run"] == 0 and report["cases"] > 30
