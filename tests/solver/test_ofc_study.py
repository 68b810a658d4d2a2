"""The fantasyland study: each hand's two values against every setting, the fixed point as an
equation, and the command the same with two workers and after a resumed checkpoint."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from handsolver.models.cards import InputError, parse_cards
from handsolver.models.ofc import OfcRules
from handsolver.models.split import Setting
from handsolver.solver.cli import app
from handsolver.solver.ofc import Objective, solve_fantasyland
from handsolver.solver.ofc.studies import (
    FantasyBlock,
    HandValues,
    dealt_cards,
    fixed_point,
    hand_values,
    set_fantasy_block,
    study_boards,
)
from tests.solver.test_ofc import best_objectives, royalties_and_stay
from tests.solver.test_ofc_sampled import mean_against

runner = CliRunner()
NEVER = Fraction(-1000)  # below every royalty total: a setting that does not count


def every_setting_values(cards: list[int]) -> HandValues:
    """The best royalties of any legal setting and of a legal staying one, by enumeration."""
    (best,) = best_objectives(cards, royalties_and_stay(Fraction(0)), k=1)
    big = Fraction(1000)  # more than any royalty total: staying settings first
    (top,) = best_objectives(cards, royalties_and_stay(big), k=1)
    return HandValues(int(best), int(top - big) if top >= big else None)


def every_setting_points(cards: list[int], boards: tuple[Setting, ...]) -> HandValues:
    """The best royalties and mean score against ``boards`` of any legal setting and of a legal
    staying one, by enumeration."""
    (best,) = best_objectives(cards, mean_against(boards, Fraction(0)), k=1)
    big = Fraction(1000)  # far more than any score: staying settings first
    (top,) = best_objectives(cards, mean_against(boards, big), k=1)
    return HandValues(best, top - big if top >= big / 2 else None)


@pytest.mark.parametrize(
    ("hand", "seed", "count"),
    [
        ("Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h", 5, 3),  # the best setting stays
        # The best for royalties stays; against these boards staying costs points.
        ("Td 9c 7h 4c 6h 4s 9h 8d 4d 9d 6c Jd Ts", 0, 2),
        ("Qd As Ah 5h 5d 2s Ac 4h Ks 2h Kh 3c 2c", 10, 2),
        ("7h Jd Ah 5d 4c Jh 4d 8h Jc 3c Ac 5h 4h", 55, 2),  # one board fouled
        ("Ac Kd Qh Js 9c 8d 7h 6s 4c 3d 2h 2s Tc", 5, 1),  # cannot stay
    ],
)
def test_a_hands_two_values_with_scores_against_every_setting(
    hand: str, seed: int, count: int
) -> None:
    cards = parse_cards(hand)
    rules = OfcRules()
    block = FantasyBlock(13, 0, 1, seed, rules, count)
    boards = study_boards(cards, block, 0)
    assert len(boards) == count
    assert hand_values(cards, rules, boards) == every_setting_points(cards, boards)


def test_a_blocks_boards_are_the_hands_own() -> None:
    rules = OfcRules()
    block = FantasyBlock(14, 0, 2, 7, rules, 3)
    first, second = (dealt_cards(7, "fantasy", 14, index) for index in range(2))
    assert set_fantasy_block(block) == [
        hand_values(first, rules, study_boards(first, block, 0)),
        hand_values(second, rules, study_boards(second, block, 1)),
    ]
    assert study_boards(first, block, 0) != study_boards(first, block, 1)
    assert study_boards(first, FantasyBlock(14, 0, 2, 7, rules), 0) == ()


@pytest.mark.parametrize(
    "hand",
    [
        "Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h",  # the best setting stays
        "9c 9d 9h 5c 5d Ks Qs Js 8s 2s 4h 3d 7c",  # trips that can stay only at a cost
        "Ac Kd Qh Js 9c 8d 7h 6s 4c 3d 2h 2s Tc",  # no trips, no straight flush: cannot stay
        "4s 5s 6s 7s 8s 7c Ac 5d Ks Td 9d 8d As",  # a straight flush that costs royalties
    ],
)
def test_a_hands_two_values_against_every_setting(hand: str) -> None:
    cards = parse_cards(hand)
    assert hand_values(cards, OfcRules()) == every_setting_values(cards)


def test_random_strong_hands_two_values_against_every_setting() -> None:
    rng = random.Random(31)
    for _ in range(3):
        ranks = rng.sample(range(13), 5)
        cards = rng.sample([4 * r + s for r in ranks for s in range(4)], 13)
        assert hand_values(cards, OfcRules()) == every_setting_values(cards)


hands_values = st.lists(
    st.tuples(st.integers(0, 60), st.none() | st.integers(-30, 0)).map(
        lambda pair: HandValues(pair[0], None if pair[1] is None else pair[0] + pair[1])
    ),
    min_size=1,
    max_size=40,
)


@given(hands_values)
def test_the_fixed_point_solves_its_equation(hands: list[HandValues]) -> None:
    def mean_best(value: Fraction) -> Fraction:
        total = sum(
            max(Fraction(h.best), h.staying + value if h.staying is not None else NEVER)
            for h in hands
        )
        return total / len(hands)

    try:
        value, rounds = fixed_point(hands)
    except InputError as error:  # only when every hand stays at some value
        assert "every hand" in str(error) and all(h.staying is not None for h in hands)
        return
    assert mean_best(value) == value
    assert rounds[-1] == rounds[-2] == value
    assert list(rounds[1:]) == sorted(rounds[1:])  # the rounds climb from the first on


def study_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["ofc", "study", "--seed", "3", "--json", *args])
    assert result.exit_code == 0, result.output
    answer: dict[str, object] = json.loads(result.output)
    return answer


def test_the_study_is_a_fixed_point_and_the_same_with_two_workers() -> None:
    args = ["--hands", "24", "--size-hands", "4", "--normal-hands", "3"]
    answer = study_json(*args)
    assert study_json(*args, "--workers", "2") == answer
    value = Fraction(str(answer["stay_value"]))
    # Every hand set again by the search for that stay value: the mean objective is the value.
    rules = OfcRules()
    hands = [dealt_cards(3, "fantasy", 14, index) for index in range(24)]
    found = [solve_fantasyland(hand, rules, Objective(value)).settings[0] for hand in hands]
    assert sum(best.objective for best in found) / 24 == value
    sizes = answer["sizes"]
    assert isinstance(sizes, list)
    first = sizes[0]
    assert first["cards"] == 14 and abs(first["value"] - float(value)) < 1e-6
    for later in sizes[1:]:
        expected = later["mean_royalties"] + later["share_staying"] * float(value)
        assert abs(later["value"] - expected) < 1e-4  # JSON rounds to 6 places


def test_a_resumed_checkpoint_gives_the_same_answer(tmp_path: Path) -> None:
    path = tmp_path / "study.jsonl"
    args = ["--hands", "120", "--size-hands", "2", "--normal-hands", "60"]
    answer = study_json(*args, "--checkpoint", str(path))
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 3 + 3 + 2  # the header, 14 cards, 15 to 17, the normal hands
    # Stopped after a few blocks, the last line torn, one line edited: those are done again.
    edited = lines[2].replace('"values":[[', '"values":[[1')
    path.write_text("\n".join([lines[0], lines[1], edited, lines[5], lines[7][:30]]))
    assert study_json(*args, "--checkpoint", str(path), "--resume") == answer
    assert path.read_text().splitlines()[:3] == [lines[0], lines[1], lines[5]]
    assert len(path.read_text().splitlines()) == len(lines)


def test_a_checkpoint_of_another_study_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "study.jsonl"
    study_json("--hands", "4", "--size-hands", "0", "--checkpoint", str(path))
    result = runner.invoke(
        app, ["ofc", "study", "--hands", "5", "--checkpoint", str(path), "--resume"]
    )
    assert result.exit_code == 2
    assert "is not for this study" in result.output


def test_normal_hands_need_the_larger_sizes() -> None:
    result = runner.invoke(
        app, ["ofc", "study", "--hands", "4", "--size-hands", "0", "--normal-hands", "2"]
    )
    assert result.exit_code == 2 and "--size-hands" in result.output


def test_scores_the_same_with_two_workers_and_after_a_resumed_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "study.jsonl"
    args = ["--hands", "24", "--size-hands", "2", "--opponents", "3"]
    answer = study_json(*args, "--checkpoint", str(path))
    assert study_json(*args, "--workers", "2") == answer
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], lines[1]]))  # one block of four kept
    assert study_json(*args, "--checkpoint", str(path), "--resume") == answer
    # The value is the fixed point of the points the hands earn against their own boards.
    rules = OfcRules()
    value = Fraction(str(answer["stay_value"]))
    total = Fraction(0)
    for index in range(24):
        cards = dealt_cards(3, "fantasy", 14, index)
        boards = study_boards(cards, FantasyBlock(14, 0, 24, 3, rules, 3), index)
        objective = Objective(value, boards, mean=True)
        total += solve_fantasyland(cards, rules, objective).settings[0].objective
    assert total / 24 == value
    sizes = answer["sizes"]
    assert isinstance(sizes, list) and "mean_points" in sizes[0]
    # Another count of boards is another study.
    other = runner.invoke(
        app, ["ofc", "study", "--seed", "3", *args[:-1], "1", "--checkpoint", str(path), "--resume"]
    )
    assert other.exit_code == 2 and "is not for this study" in other.output
