from __future__ import annotations

from pathlib import Path

import pytest

from handsolver.solver.commands.output import write_atomic


def test_write_atomic_replaces_the_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    target.write_text("old")
    write_atomic(target, "new")
    assert target.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_a_failed_write_leaves_nothing_behind(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    target.write_text("old")
    with pytest.raises(UnicodeEncodeError):
        write_atomic(target, "half \ud800 written")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_a_missing_folder_is_reported_by_the_asked_path(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "out.csv"
    with pytest.raises(FileNotFoundError) as error:
        write_atomic(target, "x")
    assert error.value.filename == str(target)
