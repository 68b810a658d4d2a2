"""The fantasyland search under a node budget: where the budget stops it, the answer says it is
not proven and lists the best legal settings met so far, none better than the exact answer;
where the budget suffices, the answer is the exact one, proven.  Settings are checked by the
reference written apart (:mod:`tests.ofc_reference`)."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from handsolver.models.cards import InputError, parse_cards
from handsolver.solver.cli import app
from handsolver.solver.ofc import FantasySolution, Objective, solve_fantasyland
from tests import ofc_reference as ref

runner = CliRunner()
HAND14 = "Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c"
HANDS = [parse_cards(HAND14), *(random.Random(n).sample(range(52), n) for n in (13, 14, 15))]


def reference_objective(board: ref.Board, stay_value: Fraction) -> Fraction:
    """Royalties, plus the stay value where the board stays in fantasyland."""
    return ref.royalties(board) + stay_value * ref.stays(board)


def check_legal(answer: FantasySolution, cards: list[int], stay_value: Fraction) -> None:
    """Every listed setting keeps 13 of the cards (the rest discarded), is not fouled, and
    earns what it says; best first."""
    for entry in answer.settings:
        bottom, middle, top = entry.setting
        assert (len(top), len(middle), len(bottom)) == (3, 5, 5)
        used = [*top, *middle, *bottom, *entry.discards]
        assert sorted(used) == sorted(cards)
        board = (top, middle, bottom)
        assert not ref.is_fouled(board), entry
        assert entry.objective == reference_objective(board, stay_value), entry
    values = [entry.objective for entry in answer.settings]
    assert values == sorted(values, reverse=True)


@pytest.mark.parametrize("stay", [Fraction(0), Fraction(25, 2)])
@pytest.mark.parametrize("cards", HANDS, ids=lambda cards: str(len(cards)))
def test_a_budget_that_stops_the_search_gives_legal_settings_not_proven(
    cards: list[int], stay: Fraction
) -> None:
    objective = Objective(stay)
    exact = solve_fantasyland(cards, objective=objective, top=3)
    assert exact.proven
    for budget in (1, 2, 7, exact.leaves // 2, exact.leaves - 1):
        answer = solve_fantasyland(cards, objective=objective, top=3, node_budget=budget)
        assert not answer.proven and answer.leaves == budget, budget
        assert answer.settings, budget  # the first setting met is listed at least
        check_legal(answer, cards, stay)
        for found, best in zip(answer.settings, exact.settings, strict=False):
            assert found.objective <= best.objective, budget


@pytest.mark.parametrize("cards", HANDS, ids=lambda cards: str(len(cards)))
def test_a_budget_the_search_fits_in_gives_the_exact_answer_proven(cards: list[int]) -> None:
    objective = Objective(Fraction(10))
    exact = solve_fantasyland(cards, objective=objective, top=3)
    check_legal(exact, cards, Fraction(10))
    for budget in (exact.leaves, exact.leaves + 1, 10**9):
        answer = solve_fantasyland(cards, objective=objective, top=3, node_budget=budget)
        assert answer == exact, budget


def test_a_tiny_budget_can_miss_the_best() -> None:
    """Not proven means something: here one setting evaluated is not the best."""
    cards = parse_cards(HAND14)
    exact = solve_fantasyland(cards)
    answer = solve_fantasyland(cards, node_budget=1)
    assert not answer.proven
    assert answer.settings[0].objective < exact.settings[0].objective


def test_a_budget_below_one_is_refused_in_words_of_the_search() -> None:
    with pytest.raises(InputError, match="node budget must be 1 or more") as caught:
        solve_fantasyland(parse_cards(HAND14), node_budget=0)
    assert "--" not in str(caught.value)


def test_the_command_says_when_the_budget_stopped_the_search() -> None:
    result = runner.invoke(app, ["ofc", "fantasyland", HAND14, "--max-nodes", "1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["proven"] is False and len(data["settings"]) >= 1
    result = runner.invoke(app, ["ofc", "fantasyland", HAND14, "--max-nodes", "1"])
    assert result.exit_code == 0, result.output
    assert "not proven" in result.stdout and "--max-nodes" in result.stdout
    assert "proven best" not in result.stdout
    result = runner.invoke(app, ["ofc", "fantasyland", HAND14, "--max-nodes", "100000000"])
    assert result.exit_code == 0 and "proven best" in result.stdout
    result = runner.invoke(app, ["ofc", "fantasyland", HAND14, "--max-nodes", "0"])
    assert result.exit_code == 2 and "--max-nodes" in result.stderr
