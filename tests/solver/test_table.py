"""Human tables at 80 and 120 columns and in a pipe: a hand never broken across lines, narrow
widths drop the less important columns, a pipe gets plain aligned text with every column."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from handsolver.solver.cli import app
from handsolver.solver.commands import table
from handsolver.solver.commands.table import Column, render_table

runner = CliRunner()
BOX = re.compile(r"[\u2500-\u257f]")

# Every command that prints a human table, and text (hands, splits) that must stay whole.
TABLES = {
    "poker": (["poker", "8C TS KC 9H 4S", "7D 2S 5D 3S AC"], ["8C TS KC 9H 4S", "class of 7,462"]),
    "poker board": (
        ["poker", "AS AD", "7C 8C", "--board", "KS KD 2C 3H 9C"],
        ["AS AD", "KS KD"],
    ),
    "badugi": (["badugi", "3c 2s 4d Ah", "As 3h 2d 4h"], ["3c 2s 4d Ah", "class of 1,092"]),
    "sixcard split": (["sixcard", "split", "112234", "--vs-hand", "133444"], ["223|11|4"]),
    "sixcard score": (["sixcard", "score", "sorted", "random"], ["404549/840840"]),
    "sixcard strategy": (["sixcard", "strategy", "--vs", "sorted"], ["111122"]),
    "sixcard equilibrium": (["sixcard", "equilibrium"], ["111122"]),
    "big2 stats": (["big2", "stats", "--deals", "20", "--hand-size", "6"], ["plays", "share"]),
}


def _render(args: list[str], width: int | None, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(table, "terminal_width", lambda: width)
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("name", TABLES)
@pytest.mark.parametrize("width", [80, 120])
def test_tables_fit_the_terminal(name: str, width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    args, whole = TABLES[name]
    out = _render(args, width, monkeypatch)
    lines = out.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("─"))
    body = lines[rule - 1 : rule + 1]  # the rule is as wide as the widest row
    if name == "sixcard equilibrium":
        # A mixed hand's row (three splits with exact probabilities) is wider than 80
        # columns on its own: it runs over rather than being broken, one line per hand.
        rows = lines[rule + 1 : rule + 1 + 68]
        assert all(re.match(r"[1-4]{6}  \S", row) for row in rows), rows
    else:
        assert all(len(line) <= width for line in body), body
    for text in whole[:1]:
        assert any(text in line for line in lines), (text, out)
    if width == 120:  # room for every column and the full headers
        for text in whole:
            assert text in out


@pytest.mark.parametrize("name", TABLES)
def test_tables_in_a_pipe_are_plain_and_complete(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    args, whole = TABLES[name]
    monkeypatch.setenv("NO_COLOR", "1")  # the wide terminal below without colour
    out = _render(args, None, monkeypatch)
    assert not BOX.search(out)
    for text in whole:
        assert text in out
    wide = _render(args, 200, monkeypatch)
    # The same rows as on a wide terminal, less the rule.
    assert [line for line in wide.splitlines() if not line.startswith("─")] == out.splitlines()


def test_narrow_widths_shorten_headers_then_drop_columns() -> None:
    columns = [
        Column("#", keep=True),
        Column("hand", keep=True),
        Column("class of 7,462", short="class"),
        Column("ties", priority=1),
        Column("beats", priority=2),
    ]
    rows = [[1, "8C TS KC 9H 4S", 6885, "0.039%", "22.65%"]]
    full = render_table(None, columns, rows, width=200)
    assert "class of 7,462" in full
    shorter = render_table(None, columns, rows, width=len(full.splitlines()[0]) - 1)
    assert "class of" not in shorter and "class" in shorter and "ties" in shorter
    narrow = render_table(None, columns, rows, width=30)
    assert narrow.splitlines()[0].split() == ["#", "hand", "beats"]
    tiny = render_table(None, columns, rows, width=5)  # kept columns stay, whole
    assert "8C TS KC 9H 4S" in tiny and tiny.splitlines()[0].split() == ["#", "hand"]
    assert _note(tiny).startswith("(hidden at 5 columns: class, ties, beats;")


@given(
    st.lists(
        st.lists(
            st.text(alphabet="AKQJT98 cdhs/|%", min_size=0, max_size=20), min_size=4, max_size=4
        ),
        min_size=1,
        max_size=6,
    ),
    st.integers(min_value=10, max_value=120),
)
def test_a_cell_is_never_broken(rows: list[list[str]], width: int) -> None:
    columns = [Column("a", keep=True), "b", "c", Column("d", short="D")]
    text = render_table("title", columns, rows, width=width, rule=True)
    lines = text.split("\n")
    # title, header, rule, a line a row, then the note (when a column is hidden) in lines of at
    # most the width, broken between words
    note = next((i for i, line in enumerate(lines) if line.startswith("(hidden")), len(lines))
    assert note == 3 + len(rows)
    assert all(len(line) <= width for line in lines[note:])
    assert " ".join(lines[note:]).endswith("" if note == len(lines) else "the output)")
    for row, line in zip(rows, lines[3 : 3 + len(rows)], strict=True):
        cell = " ".join(row[0].split())
        assert cell in line


def test_the_hidden_columns_are_named_and_full_width_hides_none() -> None:
    columns = ["#", "hand", "middle", "back", "points"]
    rows = [[1, "As Ks", "Qs Js Ts 9h 9d", "9c 2h 2d 5c 6c", "+4.8050 ± 0.0693"]]
    wide = render_table(None, columns, rows, width=200)
    assert "hidden" not in wide
    narrow = render_table(None, columns, rows, width=40)
    # Without Column specs the first two columns and the last (the ranking) stay.
    assert narrow.splitlines()[0].split() == ["#", "hand", "points"]
    assert _note(narrow) == (
        "(hidden at 40 columns: middle, back; widen the terminal or pipe the output)"
    )
    assert all(len(line) <= 40 for line in narrow.splitlines()[1:])


HAND13 = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7d"


def _note(text: str) -> str:
    """The note naming the hidden columns, its lines joined."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("(hidden"))
    return " ".join(lines[start:])


def test_chinese_settings_keep_the_setting_and_its_points_at_60(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = ["chinese", "settings", HAND13, "--vs", "greedy", "--samples", "200", "--top", "3"]
    out = _render(args, 60, monkeypatch).splitlines()
    header = next(line for line in out if line.startswith("front"))
    assert header.split() == ["front", "middle", "back", "points"]  # only '#' gave way
    note = next(i for i, line in enumerate(out) if line.startswith("(hidden at"))
    assert " ".join(out[note:]).startswith("(hidden at 60 columns: #;")
    assert all(len(line) <= 60 for line in out[note:])  # the note too, broken between words
    assert all("±" in line for line in out[out.index(header) + 2 : note])


def test_chinese_study_keeps_the_best_response_and_gain_at_120(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = ["chinese", "study", "--hands", "3", "--samples", "20"]
    out = _render(args, 120, monkeypatch).splitlines()
    header = next(line for line in out if line.startswith("hand"))
    assert header.split()[-3:] == ["best", "response", "gain"] and "strategy" not in header
    assert out[-1].startswith("(hidden at 120 columns: strategy setting;")
    assert all(len(line) <= 120 for line in out[out.index(header) : -1])


def test_colour_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["poker", "Ah Kd", "As Kc", "7c 7d", "--board", "Qh Jh Th 2s 3d"]
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)
    coloured = _render(args, 100, monkeypatch)
    winners = [line for line in coloured.splitlines() if line.startswith(table.BOLD_GREEN)]
    assert len(winners) == 2 and all("wins" in line for line in winners)
    assert "\x1b" not in _render(args, None, monkeypatch)  # a pipe
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b" not in _render(args, 100, monkeypatch)


def test_negative_numbers_are_red_and_the_layout_unchanged() -> None:
    rows = [[1, "Kh Kd", "+0.51"], [2, "7c 7s", "-0.03"]]
    plain = render_table(None, ["#", "high", "EV"], rows, width=80)
    coloured = render_table(None, ["#", "high", "EV"], rows, width=80, colour=True, highlight=[0])
    assert f"{table.RED}-0.03{table.RESET}" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def test_paigow_study_summary_is_broken_between_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal too narrow for it the summary line is broken at spaces, never mid-word; in a
    pipe it stays one line."""
    from handsolver.solver.commands.paigow import settings

    args = ["paigow", "study", "--hands", "2", "--top", "0"]
    monkeypatch.setattr(settings, "terminal_width", lambda: None)
    piped = runner.invoke(app, args).stdout.splitlines()
    assert len(piped) == 1 and len(piped[0]) > 60
    monkeypatch.setattr(settings, "terminal_width", lambda: 60)
    narrow = runner.invoke(app, args).stdout.splitlines()
    assert len(narrow) > 1 and all(len(line) <= 60 for line in narrow)
    assert " ".join(narrow) == piped[0]
