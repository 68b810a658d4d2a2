"""Fantasyland against sampled opponent boards: the mean score against every board, for every
setting, as the reference counts it; the boards dealt from the cards left, the same for a seed."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from handsolver.models.cards import InputError, parse_cards
from handsolver.models.ofc import OfcRules, board_of_text, is_foul
from handsolver.models.split import Setting
from handsolver.solver.cli import app
from handsolver.solver.ofc import Objective, setting_objective, solve_fantasyland
from handsolver.solver.ofc.opponents import sampled_boards
from tests import ofc_reference as ref
from tests.solver.test_ofc import TOP_K, against, best_objectives, objectives

runner = CliRunner()
HAND14 = "Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c"


def reference_board(board: Setting) -> ref.Board:
    bottom, middle, top = board
    return (tuple(top), tuple(middle), tuple(bottom))


def mean_against(boards: Sequence[Setting], stay: Fraction) -> Callable[..., Fraction]:
    """The mean over ``boards`` of my points against each, plus ``stay`` when I stay."""
    summed = against([reference_board(board) for board in boards], Fraction(0))
    stays = against([], stay)  # no board: the stay value alone

    def value(top: tuple[int, ...], middle: tuple[int, ...], bottom: tuple[int, ...]) -> Fraction:
        return Fraction(summed(top, middle, bottom), len(boards)) + stays(top, middle, bottom)

    return value


@pytest.mark.parametrize(("seed", "count", "stay"), [(1, 1, 0), (2, 7, 12), (3, 4, Fraction(5, 2))])
def test_the_mean_over_sampled_boards_every_setting(seed: int, count: int, stay: Fraction) -> None:
    hand = random.Random(seed).sample(range(52), 13)
    rules = OfcRules()
    boards = sampled_boards(hand, count, seed, rules, Fraction(stay))
    expected = best_objectives(hand, mean_against(boards, Fraction(stay)))
    objective = Objective(Fraction(stay), boards, mean=True)
    assert objectives(hand, objective=objective) == expected


def test_strong_hands_against_many_boards_with_fouls() -> None:
    rng = random.Random(8)
    ranks = rng.sample(range(13), 5)
    hand = rng.sample([4 * r + s for r in ranks for s in range(4)], 13)
    boards = sampled_boards(hand, 40, 8, OfcRules())
    assert 0 < sum(map(is_foul, boards)) < len(boards)  # both kinds are counted
    stay = Fraction(20)
    expected = best_objectives(hand, mean_against(boards, stay))
    assert objectives(hand, objective=Objective(stay, boards, mean=True)) == expected


def test_boards_are_dealt_from_the_other_cards_the_same_for_a_seed() -> None:
    hand = parse_cards(HAND14)
    rules = OfcRules()
    boards = sampled_boards(hand, 30, 5, rules)
    assert boards == sampled_boards(hand, 30, 5, rules)
    assert boards != sampled_boards(hand, 30, 6, rules)
    assert sampled_boards(hand, 10, 5, rules) == boards[:10]
    for board in boards:
        cards = [card for row in board for card in row]
        assert [len(row) for row in board] == [5, 5, 3]
        assert len(set(cards)) == 13 and not set(cards) & set(hand)
    # The boards differ from one another (they are alternatives, and may share cards).
    assert len(set(boards)) == len(boards)


def test_a_sampled_board_holding_my_card_is_refused() -> None:
    hand = parse_cards(HAND14)
    board = board_of_text("Ac 2d 2h | 3c 3d 4h 5s 6s | 7h 8h 9h Th Jh")
    other = board_of_text("2d 2h 2s | 3c 3d 4h 5s 6s | 7h 8h 9h Th Jh")
    with pytest.raises(InputError, match="'Ac' is given twice"):
        solve_fantasyland(hand, objective=Objective(Fraction(0), (board,), mean=True))
    # Two sampled boards may share cards: they are not at the same table.
    answer = solve_fantasyland(hand, objective=Objective(Fraction(0), (other, other), mean=True))
    assert answer.settings
    with pytest.raises(InputError, match="is given twice"):
        solve_fantasyland(hand, objective=Objective(Fraction(0), (other, other)))


def test_the_command_says_how_many_boards_and_the_seed() -> None:
    args = ["ofc", "fantasyland", HAND14, "--sample-opponents", "25", "--seed", "4"]
    result = runner.invoke(app, [*args, "--stay-value", "15", "--top", str(TOP_K), "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["rules"]["sampled_opponents"] == {"boards": 25, "seed": 4, "played_by": "rollout"}
    rules = OfcRules()
    boards = sampled_boards(parse_cards(HAND14), 25, 4, rules, Fraction(15))
    objective = Objective(Fraction(15), boards, mean=True)
    for entry in answer["settings"]:
        setting = tuple(
            tuple(parse_cards(" ".join(entry[row]))) for row in ("bottom", "middle", "top")
        )
        assert setting_objective(setting, rules, objective) == Fraction(entry["objective"])
    text = runner.invoke(app, args)
    assert "25 opponent boards" in text.output and "seed 4" in text.output
    both = runner.invoke(app, [*args, "--vs", "Qh Qd 4s | 9h 9c 9d 5c 2s | Ah Kh 8h 6h 4h"])
    assert both.exit_code == 2 and "one or the other" in both.output


def test_strong_boards_that_scoop_every_setting() -> None:
    """A weak hand against boards set for their royalties from high cards: they scoop it."""
    hand = parse_cards("2c 3d 4h 5s 7c 8d 9h 2d 3h 4s 6c 7d Jc")
    rng = random.Random(11)
    rest = [card for card in range(52) if card not in hand and card >= 24]  # eights and up
    boards = tuple(solve_fantasyland(rng.sample(rest, 13)).settings[0].setting for _ in range(5))
    stay = Fraction(3)
    expected = best_objectives(hand, mean_against(boards, stay))
    assert objectives(hand, objective=Objective(stay, boards, mean=True)) == expected
