"""The Big 2 game solver against the independent minimax of :mod:`tests.big2_minimax`, lines
that replay legally, the budget, and bad positions."""

from __future__ import annotations

import random

import pytest

from handsolver.models.big2 import Play, make_rules
from handsolver.models.big2_rules import Rules
from handsolver.models.cards import InputError, cards_of, mask_of, parse_cards
from handsolver.solver.big2.game.positions import GameResult, Position, solve_position
from tests.big2_minimax import (
    Cards,
    MState,
    minimax_answer,
    moves_of,
    next_state,
    random_position,
)


def _engine_answer(
    position: Position, rules: Rules
) -> tuple[list[bool | None], dict[Cards | None, bool | None]]:
    # The pure-Python search, the reference for the compiled one (test_big2_game_kernel.py).
    result = solve_position(position, rules, kernel="python")
    verdicts = {
        (frozenset(cards_of(m.play.mask)) if m.play is not None else None): m.forced_win
        for m in result.moves
    }
    assert len(verdicts) == len(result.moves)
    return list(result.forced_win), verdicts


RULE_CASES = {
    "seed": make_rules("seed"),
    "hk": make_rules("hk"),
    "taiwan": make_rules("taiwan"),
    "pusoy-dos": make_rules("pusoy-dos"),
    "western": make_rules("western"),
    "pass-final": make_rules("seed", pass_final=True),
    "bombs": make_rules("seed", bombs=True),
    "suit-order": make_rules("seed", suit_order="dhcs"),
    "wrap": make_rules("seed", straights="wrap"),
    "two-pair-quads": make_rules("seed", two_pair=True, quads="alone"),
    "straight-order": make_rules("seed", straight_order="23456-high"),
    "taiwan-final-bombs": make_rules("taiwan", pass_final=True, bombs=True),
    "online": make_rules("online"),
    "two-pair-alone": make_rules("seed", two_pair_alone=True, quads="alone", two_pair=True),
    "online-bombs": make_rules("online", straights="ace-ends", bombs=True, quads="alone"),
}
SHAPES = [(2, 6, 6), (3, 4, 12), (4, 4, 12)]


@pytest.mark.parametrize("name", RULE_CASES)
@pytest.mark.parametrize(("players", "most", "count"), SHAPES)
def test_matches_minimax(name: str, players: int, most: int, count: int) -> None:
    rules = RULE_CASES[name]
    rng = random.Random(f"{name} {players}")
    for _ in range(count):
        position = random_position(rng, players, most, rules)
        assert _engine_answer(position, rules) == minimax_answer(position, rules), position


@pytest.mark.parametrize("name", ["seed", "taiwan", "pass-final", "bombs", "online"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_start_of_deal_matches_minimax(name: str, players: int) -> None:
    """At the start the holder of the lowest card leads, and every lead holds that card (and
    is that card alone where the rules open alone)."""
    rules = RULE_CASES[name]
    rng = random.Random(f"start {name} {players}")
    for _ in range(4):
        position = random_position(rng, players, 6 if players == 2 else 4, rules)
        hands = position.hands
        low = min(cards_of(sum(hands)), key=rules.card_key)
        holder = next(p for p, hand in enumerate(hands) if hand >> low & 1)
        start = Position(hands, holder, start=True)
        assert _engine_answer(start, rules) == minimax_answer(start, rules)
        assert all(
            m.play is not None and m.play.mask >> low & 1
            for m in solve_position(start, rules).moves
        )
        if rules.open_alone:
            assert [m.play.mask for m in solve_position(start, rules).moves if m.play] == [1 << low]


def replay(result: GameResult, rules: Rules) -> int:
    """Play the result's line with the minimax's own rules; the player who goes out."""
    position = result.position
    hands = tuple(frozenset(cards_of(hand)) for hand in position.hands)
    beat = frozenset(cards_of(position.beat.mask)) if position.beat is not None else None
    by = -1 if position.by is None else position.by
    state: MState | int = (hands, position.to_move, beat, by, position.passed)
    for step in result.line:
        assert not isinstance(state, int), "the line goes on after the deal ended"
        assert step.player == state[1]
        move = None if step.play is None else frozenset(cards_of(step.play.mask))
        assert move in moves_of(state, rules)
        state = next_state(state, move, rules)
    assert isinstance(state, int), "the line stops before the deal ends"
    return state


@pytest.mark.parametrize(
    ("players", "most", "name"),
    [(2, 9, "seed"), (2, 8, "pass-final"), (3, 6, "taiwan"), (4, 5, "bombs"), (3, 5, "pass-final")],
)
def test_line_replays_and_two_player_verdicts_agree(players: int, most: int, name: str) -> None:
    rules = RULE_CASES[name]
    rng = random.Random(f"line {players} {most} {name}")
    for _ in range(6):
        result = solve_position(random_position(rng, players, most, rules), rules)
        winners = [p for p, won in enumerate(result.forced_win) if won]
        assert len(winners) <= 1
        if players == 2:
            assert len(winners) == 1 and result.forced_win.count(False) == 1
        if winners:
            assert replay(result, rules) == winners[0]
            assert result.line_fastest
        else:
            assert result.line == ()


def fastest_plies(state: MState | int, target: int, rules: Rules) -> float:
    """The turns before ``target`` goes out when it hurries and the others hold out (inf when
    it cannot force it): plain recursion."""
    if isinstance(state, int):
        return 0 if state == target else float("inf")
    values = [
        fastest_plies(next_state(state, m, rules), target, rules) for m in moves_of(state, rules)
    ]
    return 1 + (min(values) if state[1] == target else max(values))


@pytest.mark.parametrize("name", ["seed", "pass-final"])
@pytest.mark.parametrize(("players", "most"), [(2, 4), (3, 3)])
def test_line_is_fastest_against_longest_defence(name: str, players: int, most: int) -> None:
    rules = RULE_CASES[name]
    rng = random.Random(f"fastest {name} {players}")
    for _ in range(8):
        position = random_position(rng, players, most, rules)
        result = solve_position(position, rules)
        if result.winner is None:
            continue
        hands = tuple(frozenset(cards_of(hand)) for hand in position.hands)
        beat = frozenset(cards_of(position.beat.mask)) if position.beat is not None else None
        by = -1 if position.by is None else position.by
        state: MState = (hands, position.to_move, beat, by, result.position.passed)
        assert len(result.line) == fastest_plies(state, result.winner, rules)


def test_budget_gives_unknown_never_a_guess() -> None:
    rules = RULE_CASES["seed"]
    rng = random.Random("budget")
    unknown = 0
    for _ in range(4):
        position = random_position(rng, 2, 9, rules)
        exact = solve_position(position, rules)
        cut = solve_position(position, rules, max_nodes=1)
        unknown += cut.forced_win.count(None)
        for found, true in zip(cut.forced_win, exact.forced_win, strict=True):
            assert found in (None, true)
        for found_move, true_move in zip(cut.moves, exact.moves, strict=True):
            assert found_move.forced_win in (None, true_move.forced_win)
    assert unknown


def _hands(*texts: str) -> tuple[int, ...]:
    return tuple(mask_of(parse_cards(text)) for text in texts)


@pytest.mark.parametrize(
    ("position", "rules", "message"),
    [
        (
            Position(_hands("3c 4c", "4c")),
            RULE_CASES["seed"],
            "card 4c is in player 1 and player 2",
        ),
        (Position(_hands("3c", "4c"), 2), RULE_CASES["seed"], "to move 3 is not a player"),
        (Position(_hands("3c", "")), RULE_CASES["seed"], "player 2 has no cards"),
        (
            Position(
                _hands(
                    "3c",
                )
            ),
            RULE_CASES["seed"],
            "give 2, 3 or 4 hands, not 1",
        ),
        (
            Position(_hands("3c", "4c"), 0, Play.from_text("5c"), 0),
            RULE_CASES["seed"],
            "player 1 made the play to beat and is to move",
        ),
        (
            Position(_hands("3c", "4c"), 0, Play.from_text("5c 5d 5h"), 1),
            make_rules("seed", triples=False),
            "'5c 5d 5h' is not a play",
        ),
        (
            Position(_hands("3c", "4c", "6c"), 0, Play.from_text("5c"), 1, frozenset({2})),
            RULE_CASES["seed"],
            "under these rules a pass is not final",
        ),
        (
            Position(_hands("3c", "4c"), 1, start=True),
            RULE_CASES["seed"],
            "player 1 holds 3c, the lowest card",
        ),
        (
            Position(_hands("3c", "4c"), 0, Play.from_text("4c"), 1),
            RULE_CASES["seed"],
            "card 4c is in player 2 and the play to beat",
        ),
    ],
)
def test_bad_positions(position: Position, rules: Rules, message: str) -> None:
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        solve_position(position, rules)


def test_winning_line_when_the_fastest_is_out_of_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the fastest line cannot be proven in time, the line still wins and says so."""
    from handsolver.solver.big2.game import positions as game
    from handsolver.solver.big2.game.search import OutOfBudget

    def out_of_budget(*args: object) -> None:
        raise OutOfBudget

    monkeypatch.setattr(game, "_fastest_line", out_of_budget)
    rules = RULE_CASES["seed"]
    rng = random.Random("winning line")
    lines = 0
    for _ in range(6):
        result = solve_position(random_position(rng, 3, 5, rules), rules)
        if result.winner is not None:
            assert not result.line_fastest
            assert replay(result, rules) == result.winner
            lines += 1
    assert lines


def test_tiny_tables_change_no_answer() -> None:
    """A full table is emptied and refilled: work is repeated, answers stay the same."""
    rules = RULE_CASES["seed"]
    rng = random.Random("tiny tables")
    for _ in range(4):
        position = random_position(rng, 2, 7, rules)
        roomy, tiny = solve_position(position, rules), solve_position(position, rules, table_size=3)
        assert (roomy.forced_win, roomy.moves, len(roomy.line)) == (
            tiny.forced_win,
            tiny.moves,
            len(tiny.line),
        )
