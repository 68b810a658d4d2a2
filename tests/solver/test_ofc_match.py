"""Duplicate Pineapple matches: seats rotated, points that sum to zero, program players."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handsolver.models.cards import InputError
from handsolver.models.ofc import OfcRules, scores
from handsolver.solver.cli import app
from handsolver.solver.ofc.match import dealt_streets, play_block, summary
from handsolver.solver.ofc.match_players import player_from_spec, position_json, reply_action
from handsolver.solver.ofc.match_run import match
from handsolver.solver.ofc.play import Position

RULES = OfcRules()


def seated(*names: str) -> list:
    return [player_from_spec(name, RULES, Fraction(15)) for name in names]


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["ofc", "match", *args])
    return result.exit_code, result.stdout, result.stderr


def outcome(deals: list) -> list:
    """What a match's deals decide (not the seconds they took): boards and each seat's result."""
    return [
        (record.boards, [(s.player, s.points, s.fouled, s.fantasy) for s in game])
        for deal in deals
        for record, game in zip(deal.records, deal.games, strict=True)
    ]


def test_the_deals_give_each_seat_its_own_cards() -> None:
    for seats in (2, 3):
        streets = dealt_streets(7, 3, seats)
        cards = [card for seat in streets for street in seat for card in street]
        assert len(cards) == len(set(cards)) == seats * 17
        assert [len(street) for street in streets[0]] == [5, 3, 3, 3, 3]


@pytest.mark.parametrize("names", [("rollout", "policy"), ("random", "policy", "rollout")])
def test_games_score_zero_sum_and_rotate_the_seats(names: tuple[str, ...]) -> None:
    deals = play_block(seated(*names), RULES, 5, 0, 3)
    assert [deal.deal for deal in deals] == [0, 1, 2]
    for deal in deals:
        assert len(deal.games) == len(names)
        for game in deal.games:
            assert [seat.player for seat in game] == list(range(len(names)))
            assert sum(seat.points for seat in game) == 0
            assert all(len(seat.seconds) == 5 for seat in game)


def test_a_deal_played_once_keeps_the_seats_in_order() -> None:
    """Without rotation each deal is one game, player i in seat i, as the first rotation."""
    names = ("rollout", "random")
    once = play_block(seated(*names), RULES, 5, 0, 2, rotated=False)
    rotated = play_block(seated(*names), RULES, 5, 0, 2)
    for single, both in zip(once, rotated, strict=True):
        assert len(single.games) == len(single.records) == 1
        assert single.records[0].seating == (0, 1)
        assert outcome([single]) == outcome([both])[:1]


def test_a_game_scores_as_the_model_does() -> None:
    """Each game's boards, as played, score as models/ofc.py says, and hold the seat's cards."""
    (deal,) = play_block(seated("policy", "random"), RULES, 2, 0, 1)
    cards = dealt_streets(2, 0, 2)
    for record, result in zip(deal.records, deal.games, strict=True):
        expected = scores(record.boards, RULES.royalties)
        by_player = {seat.player: seat.points for seat in result}
        assert [by_player[record.seating[seat]] for seat in range(2)] == list(expected)
        for seat, board in enumerate(record.boards):
            dealt = {card for street in cards[seat] for card in street}
            assert {card for row in board for card in row} <= dealt


def test_a_checkpoint_resumes_and_a_tampered_block_is_played_again(tmp_path: Path) -> None:
    players = seated("rollout", "random")
    path = tmp_path / "match.jsonl"
    whole = match(players, RULES, 12, seed=4, checkpoint=path)
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 3  # the header and 3 blocks of 5, 5 and 2 deals
    record = json.loads(lines[2])
    record["games"][0][0][0][0][0] = [0, 1, 2, 3, 4]  # a board the seat was not dealt
    path.write_text("\n".join([lines[0], lines[1], json.dumps(record), lines[3][:20]]) + "\n")
    calls = []

    def watch(items, total, done):  # noqa: ANN001, ANN202
        calls.append((total, done))
        return items

    again = match(players, RULES, 12, seed=4, checkpoint=path, resume=True, progress=watch)
    assert calls == [(3, 1)]  # one block trusted, two played again
    assert outcome(again) == outcome(whole)
    other = seated("random", "rollout")
    with pytest.raises(InputError, match="not for this match"):
        match(other, RULES, 12, seed=4, checkpoint=path, resume=True)


def test_the_same_seed_gives_the_same_match_with_workers() -> None:
    players = seated("rollout", "random")
    assert outcome(match(players, RULES, 7, seed=3)) == outcome(
        match(players, RULES, 7, seed=3, workers=2)
    )


def test_the_rollout_player_beats_the_policy() -> None:
    (rollout, policy) = summary(
        ["rollout", "policy"], match(seated("rollout", "policy"), RULES, 20)
    )
    assert rollout.points > 2 and rollout.foul_rate < policy.foul_rate


def test_a_reply_names_a_legal_action_or_why_not() -> None:
    position = Position(((), (), ()), (0, 4, 8, 12, 16), (((), (), ()),))
    question = json.loads(position_json(position))
    assert question["street"] == 1 and question["dealt"] == ["2c", "3c", "4c", "5c", "6c"]
    good = '{"top": ["2c"], "middle": ["3c", "4c"], "bottom": ["5c", "6c"], "discard": null}'
    action = reply_action(position, good)
    assert not isinstance(action, str) and action.rows == ((12, 16), (4, 8), (0,))
    for bad in ('{"top": ["2c", "3c", "4c", "5c"], "middle": ["6c"]}', "pass", "[]",
                '{"top": ["2c"], "middle": ["3c", "4c"], "bottom": ["5c", "7c"]}'):  # fmt: skip
        assert isinstance(reply_action(position, bad), str)


def test_a_program_plays_in_the_sandbox_and_an_illegal_reply_loses_the_hand(
    tmp_path: Path,
) -> None:
    program = tmp_path / "fill.py"
    program.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    q = json.loads(line)\n"
        "    b = q['board']\n"
        "    free = {'bottom': 5 - len(b['bottom']), 'middle': 5 - len(b['middle']),\n"
        "            'top': 3 - len(b['top'])}\n"
        "    out = {'top': [], 'middle': [], 'bottom': [], 'discard': None}\n"
        "    cards = q['dealt'] if len(q['dealt']) == 5 else q['dealt'][:2]\n"
        "    if len(q['dealt']) == 3:\n"
        "        out['discard'] = q['dealt'][2]\n"
        "    for card in cards:\n"
        "        row = next(r for r in ('bottom', 'middle', 'top') if free[r])\n"
        "        free[row] -= 1\n"
        "        out[row].append(card)\n"
        "    print(json.dumps(out))\n"
    )
    spec = f"program:{sys.executable} {program}"
    code, out, err = invoke("--players", f"{spec},random", "--deals", "2", "--json")
    assert code == 0, err
    rows = json.loads(out)["players"]
    assert rows[0]["player"] == spec and rows[0]["hands"] == 4 and rows[0]["forfeits"] == 0
    liar = f"program:{sys.executable} -c 'print(1)'"
    code, out, err = invoke("--players", f"{liar},policy", "--deals", "2")
    assert code == 0, err
    assert "lost 4 hand(s) to replies that were not legal" in out
    assert "100.0%" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--players", "rollout"), "2 or 3 players"),
        (("--players", "rollout,,policy"), "a player name is empty"),
        (("--players", "rollout,polcy"), "unknown player 'polcy'"),
        (("--fantasy-value", "x"), "--fantasy-value"),
    ],
)
def test_bad_input_is_one_line(args: tuple[str, ...], message: str) -> None:
    code, out, err = invoke(*args, "--deals", "1")
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_a_match_needs_two_or_three_players() -> None:
    with pytest.raises(InputError, match="2 or 3 players"):
        match(seated("rollout"), RULES, 1)


def test_the_command_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    path = str(tmp_path / "match.jsonl")
    args = ("--players", "rollout,policy", "--deals", "6", "--json", "--checkpoint", path)
    code, first, err = invoke(*args)
    assert code == 0, err
    code, again, err = invoke(*args, "--resume")
    assert code == 0, err
    assert json.loads(again) == json.loads(first)
    code, out, err = invoke("--players", "rollout,policy", "--deals", "6", "--resume",
                            "--checkpoint", str(tmp_path / "none.jsonl"))  # fmt: skip
    assert code == 2 and "no checkpoint of this match" in err


def test_the_picture_is_drawn_and_a_bad_suffix_refused_first(tmp_path: Path) -> None:
    picture = tmp_path / "match.svg"
    code, out, err = invoke("--players", "rollout,random,policy", "--deals", "2", "--plot",
                            str(picture))  # fmt: skip
    assert code == 0, err
    assert picture.read_text().startswith("<?xml") and "rollout" in picture.read_text()
    code, out, err = invoke("--deals", "1", "--plot", str(tmp_path / "match.gif"))
    assert code == 2 and ".svg, .png or .pdf" in err and not out
