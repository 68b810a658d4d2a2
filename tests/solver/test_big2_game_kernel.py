"""The compiled Big 2 game search against the independent minimax on small positions, and against
the pure-Python search on larger ones: the same verdicts, the same lines, the same positions
searched; its budget, deadline, progress and small tables."""

from __future__ import annotations

import random

import pytest

from handsolver.models.big2 import make_rules
from handsolver.models.big2_rules import Rules
from handsolver.models.cards import InputError, cards_of
from handsolver.solver.big2.game.positions import GameResult, Position, solve_position
from tests.big2_minimax import minimax_answer, random_position
from tests.solver.test_big2_game import RULE_CASES

pytest.importorskip("numba")


def _answer(
    result: GameResult,
) -> tuple[list[bool | None], dict[frozenset[int] | None, bool | None]]:
    verdicts = {
        (frozenset(cards_of(m.play.mask)) if m.play is not None else None): m.forced_win
        for m in result.moves
    }
    return list(result.forced_win), verdicts


@pytest.mark.parametrize("name", RULE_CASES)
@pytest.mark.parametrize(("players", "most", "count"), [(2, 6, 6), (3, 4, 16), (4, 3, 16)])
def test_compiled_matches_minimax(name: str, players: int, most: int, count: int) -> None:
    rules = RULE_CASES[name]
    rng = random.Random(f"compiled {name} {players}")
    for _ in range(count):
        position = random_position(rng, players, most, rules)
        result = solve_position(position, rules, kernel="compiled")
        assert _answer(result) == minimax_answer(position, rules), position


def _deal(rng: random.Random, players: int, size: int) -> tuple[int, ...]:
    cards = rng.sample(range(52), players * size)
    return tuple(sum(1 << c for c in cards[p * size : (p + 1) * size]) for p in range(players))


@pytest.mark.parametrize(
    ("name", "players", "size"),
    [
        ("seed", 2, 9),
        ("taiwan", 2, 9),
        ("pass-final", 2, 8),
        ("bombs", 2, 10),
        ("taiwan-final-bombs", 3, 5),
        ("two-pair-quads", 3, 6),
        ("wrap", 4, 4),
    ],
)
def test_compiled_is_the_python_search(name: str, players: int, size: int) -> None:
    """Both searches try the moves in one order, so they search the same positions and find
    the same line; only their speed differs."""
    rules = RULE_CASES[name]
    rng = random.Random(f"same search {name}")
    for _ in range(5):
        hands = _deal(rng, players, size)
        for position in (Position(hands, rng.randrange(players)), _start(hands, rules)):
            python = solve_position(position, rules, kernel="python")
            compiled = solve_position(position, rules, kernel="compiled")
            assert (compiled.forced_win, compiled.moves) == (python.forced_win, python.moves)
            assert (compiled.line, compiled.line_fastest) == (python.line, python.line_fastest)
            assert compiled.nodes == python.nodes


def _start(hands: tuple[int, ...], rules: Rules) -> Position:
    low = min(cards_of(sum(hands)), key=rules.card_key)
    holder = next(p for p, hand in enumerate(hands) if hand >> low & 1)
    return Position(hands, holder, start=True)


def test_budget_gives_unknown_never_a_guess() -> None:
    rules = RULE_CASES["seed"]
    rng = random.Random("compiled budget")
    unknown = 0
    for _ in range(4):
        position = Position(_deal(rng, 2, 9))
        exact = solve_position(position, rules, kernel="compiled")
        for nodes in (1, 50):
            cut = solve_position(position, rules, kernel="compiled", max_nodes=nodes)
            assert cut.nodes <= 2 * nodes
            unknown += cut.forced_win.count(None)
            for found, true in zip(cut.forced_win, exact.forced_win, strict=True):
                assert found in (None, true)
            for found_move, true_move in zip(cut.moves, exact.moves, strict=True):
                assert found_move.forced_win in (None, true_move.forced_win)
    assert unknown
    late = solve_position(Position(_deal(rng, 2, 13)), rules, kernel="compiled", time_limit=0)
    assert None in late.forced_win


def test_small_table_changes_no_answer() -> None:
    """A full bucket gives up an entry: work is repeated, answers stay the same."""
    rules = RULE_CASES["seed"]
    rng = random.Random("compiled small table")
    for _ in range(3):
        position = Position(_deal(rng, 2, 10))
        roomy = solve_position(position, rules, kernel="compiled")
        small = solve_position(position, rules, kernel="compiled", table_size=1000)
        assert small.nodes > roomy.nodes > 1000
        assert (small.forced_win, small.moves, small.line) == (
            roomy.forced_win,
            roomy.moves,
            roomy.line,
        )


def test_progress_between_slices_and_interrupt(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel stops every few nodes, so progress is shown and Ctrl-C stops at once."""
    from handsolver.solver.big2.game import compiled as game_compiled

    monkeypatch.setattr(game_compiled, "SLICE", 100)
    rules = RULE_CASES["seed"]
    position = Position(_deal(random.Random("progress"), 2, 10))
    seen: list[int] = []
    result = solve_position(position, rules, kernel="compiled", progress=seen.append)
    # Each search calls it every 100 nodes; searches that need fewer do not.
    assert seen == sorted(set(seen)) and 100 < len(seen) <= result.nodes // 100
    assert 100 in seen

    def interrupt(nodes: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve_position(position, rules, kernel="compiled", progress=interrupt)


def test_kernel_choice() -> None:
    from handsolver.solver.big2.game import positions as game
    from handsolver.solver.big2.game.compiled import CompiledSearch
    from handsolver.solver.big2.game.search import GameSearch

    rules = make_rules("seed")
    big = sum(1 << card for card in range(21))
    hands = (big, 1 << 51)
    with pytest.raises(InputError, match="at most 20 cards"):
        solve_position(Position(hands), rules, kernel="compiled")
    # "auto" takes the Python search for such hands.
    assert game._search_class(hands, "auto") is GameSearch
    assert game._search_class((big >> 1, 1 << 51), "auto") is CompiledSearch
    assert game._search_class((1, 2), "auto") is GameSearch
    with pytest.raises(ValueError, match="kernel must be"):
        solve_position(Position(hands), rules, kernel="fortran")  # type: ignore[arg-type]
