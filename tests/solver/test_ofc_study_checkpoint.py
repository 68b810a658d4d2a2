"""A checkpoint of the fantasyland study read back: lines forged with a valid checksum but
values no hand can give are computed again, by bounds taken from the royalty table in use."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from handsolver.models.ofc import OfcRules, parse_ofc_royalties
from handsolver.solver.ofc.study_run import NORMAL, block_line, read_checkpoint, study_key

RULES = OfcRules()  # the common table: no board earns more than 22 + 50 + 25 = 97
Line = tuple[str, int, str, list[list[Any]]]


def read_back(
    folder: Path, lines: list[Line], rules: OfcRules = RULES, opponents: int = 0
) -> dict[Any, Any]:
    """The blocks read back from a checkpoint of ``lines``, each with a valid checksum."""
    key = study_key(0, rules, 2, 0, 2, opponents)
    path = folder / "study.jsonl"
    text = [json.dumps(key, separators=(",", ":"))]
    text += [_forged(key, *line) for line in lines]
    path.write_text("\n".join(text) + "\n")
    return read_checkpoint(path, key, {("14", 0): 2, (NORMAL, 0): 2}, rules)


def _forged(key: dict[str, Any], part: str, first: int, tag: str, plain: list[Any]) -> str:
    """A line holding ``plain`` as saved (units of 1/K points) with the checksum it needs."""
    from handsolver.solver.saved_files import part_checksum

    check = part_checksum(key, [part, first, tag, plain])
    record = {"part": part, "first": first, "tag": tag, "values": plain, "check": check}
    return json.dumps(record, separators=(",", ":"))


def test_values_a_hand_can_give_are_read_back(tmp_path: Path) -> None:
    good: list[Line] = [
        ("14", 0, "", [[97, 97], [0, None]]),
        (NORMAL, 0, "12", [[97, False, 14], [0, True, None]]),
    ]
    assert len(read_back(tmp_path, good)) == 2


@pytest.mark.parametrize(
    "values",
    [
        [[500, None], [0, None]],  # more royalties than any 13 cards earn
        [[98, 98], [0, None]],
        [[-1, None], [0, None]],  # a negative royalty
        [[10, -3], [0, None]],
    ],
)
def test_impossible_fantasyland_values_are_computed_again(
    values: list[list[Any]], tmp_path: Path
) -> None:
    assert read_back(tmp_path, [("14", 0, "", values)]) == {}


@pytest.mark.parametrize(
    "values",
    [[[500, False, None], [0, False, None]], [[-2, False, None], [0, False, None]]],
)
def test_impossible_normal_values_are_computed_again(
    values: list[list[Any]], tmp_path: Path
) -> None:
    assert read_back(tmp_path, [(NORMAL, 0, "12", values)]) == {}


def test_the_bound_is_the_table_in_use(tmp_path: Path) -> None:
    small = OfcRules(royalties=parse_ofc_royalties('{"top": {"pair A": 9}}'))
    assert read_back(tmp_path, [("14", 0, "", [[9, None], [0, None]])], small) != {}
    assert read_back(tmp_path, [("14", 0, "", [[10, None], [0, None]])], small) == {}


def test_with_opponents_a_score_is_bounded_by_both_boards_and_the_rows(tmp_path: Path) -> None:
    # Heads-up, in 1/K points for K boards: at most my 97 royalties and a scoop of 6 against a
    # board that earns none; at least the opponent's 97 and a scoop.
    k = 3
    assert read_back(tmp_path, [("14", 0, "", [[103 * k, None], [-103 * k, None]])], opponents=k)
    assert not read_back(tmp_path, [("14", 0, "", [[103 * k + 1, None], [0, None]])], opponents=k)
    assert not read_back(tmp_path, [("14", 0, "", [[0, None], [-103 * k - 1, None]])], opponents=k)


def test_a_saved_block_round_trips(tmp_path: Path) -> None:
    from fractions import Fraction

    from handsolver.solver.ofc.studies import HandValues

    key = study_key(0, RULES, 2, 0, 2)
    path = tmp_path / "study.jsonl"
    values = [HandValues(Fraction(97), None), HandValues(Fraction(0), Fraction(0))]
    line = block_line(key, "14", 0, "", values)
    path.write_text(json.dumps(key, separators=(",", ":")) + "\n" + line + "\n")
    assert read_checkpoint(path, key, {("14", 0): 2}, RULES) == {("14", 0, ""): values}
