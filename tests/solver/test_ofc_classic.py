"""Classic open-face (``--variant classic``): 5 cards, then eight streets of one card, placed,
no discard; fantasyland 13 cards.  The streets, the legal actions, the exact values of the last
streets against a plain enumeration written here, matches and the commands."""

from __future__ import annotations

import json
import random
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handsolver.models.cards import DECK, InputError, parse_cards
from handsolver.models.ofc import (
    CLASSIC,
    PINEAPPLE,
    OfcRules,
    board_of,
    partial_board_of_text,
    score,
)
from handsolver.solver.cli import app
from handsolver.solver.ofc.deck import cards_to_come
from handsolver.solver.ofc.fantasyland import solve_fantasyland
from handsolver.solver.ofc.match import dealt_streets, play_block
from handsolver.solver.ofc.match_players import player_from_spec, position_json, reply_action
from handsolver.solver.ofc.match_run import match
from handsolver.solver.ofc.play import Position, is_exact, legal_actions, play
from handsolver.solver.ofc.player import advise
from handsolver.solver.ofc.study_run import run_study

from .test_bad_input import assert_one_error

RULES = OfcRules(variant="classic")
SIZES = (5, 5, 3)  # bottom, middle, top
COMPLETE = "Qh Qd 4s | 9h 9c 9d 5c 2s | Ah Kh 8h 6h 4h"


def board(text: str) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    top, middle, bottom = partial_board_of_text(text)
    return (bottom, middle, top)


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["ofc", *args])
    return result.exit_code, result.stdout, result.stderr


# --- the streets --------------------------------------------------------------------------------


def test_classic_deals_five_then_one_card_a_street_and_discards_none() -> None:
    assert (CLASSIC.first, CLASSIC.dealt, CLASSIC.placed, CLASSIC.discards) == (5, 1, 1, 0)
    assert CLASSIC.count == 9 and PINEAPPLE.count == 5
    assert [CLASSIC.before(s) for s in range(9)] == [0, 5, 6, 7, 8, 9, 10, 11, 12]
    assert [CLASSIC.street_of(n) for n in range(14)] == [0, None, None, None, None, 1, 2, 3, 4,
                                                         5, 6, 7, 8, None]  # fmt: skip
    assert [CLASSIC.dealt_on(CLASSIC.before(s)) for s in range(9)] == [5] + [1] * 8
    assert [CLASSIC.to_deal(CLASSIC.before(s)) for s in range(9)] == [13, 8, 7, 6, 5, 4, 3, 2, 1]
    assert CLASSIC.is_last(12) and not CLASSIC.is_last(11)
    assert RULES.fantasy_sizes == (13,) and RULES.refantasy_cards == 13


def test_the_match_deals_each_seat_thirteen_cards_five_then_one_at_a_time() -> None:
    for seats in (2, 3):
        dealt = dealt_streets(3, 1, seats, CLASSIC)
        cards = [card for seat in dealt for street in seat for card in street]
        assert len(cards) == len(set(cards)) == 13 * seats
        assert all([len(street) for street in seat] == [5] + [1] * 8 for seat in dealt)
    # Pineapple's deals are the ones they always were.
    assert [len(s) for s in dealt_streets(3, 1, 2, PINEAPPLE)[0]] == [5, 3, 3, 3, 3]


def _free_rows(mine: tuple[tuple[int, ...], ...]) -> list[int]:
    return [row for row in range(3) if len(mine[row]) < SIZES[row]]


@pytest.mark.parametrize("placed", [5, 6, 8, 10, 12])
def test_a_later_street_places_its_one_card_in_any_row_with_room(placed: int) -> None:
    cards = list(range(0, 52, 3))
    rows: list[list[int]] = [[], [], []]
    for card, row in zip(cards[:placed], [0, 1, 2] * 5, strict=False):
        target = next(r for r in (row, 0, 1, 2) if len(rows[r]) < SIZES[r])
        rows[target].append(card)
    mine = (tuple(rows[0]), tuple(rows[1]), tuple(rows[2]))
    dealt = (cards[placed],)
    actions = legal_actions(mine, dealt, CLASSIC)
    expected = set(_free_rows(mine))
    assert {next(i for i in range(3) if action.rows[i]) for action in actions} == expected
    assert len(actions) == len(expected)
    assert all(action.discard is None for action in actions)
    Position(mine, dealt, (board("||"),), (), CLASSIC)  # a position classic deals


def test_the_first_street_places_all_five_cards_as_in_pineapple() -> None:
    dealt = parse_cards("Ac Kd 7h 5s 2c")
    classic = legal_actions(((), (), ()), dealt, CLASSIC)
    pineapple = legal_actions(((), (), ()), dealt, PINEAPPLE)
    assert classic == pineapple and len(classic) == 232
    assert all(action.discard is None for action in classic)


@pytest.mark.parametrize(
    ("mine", "dealt", "message"),
    [
        ("Kc | Jc | Ac Ad Tc Ts", "2c 3d 4d", "this street deals 1 card, got 3"),
        ("Kc | Jc Jd 7s | Ac Ad Tc Ts 3c", "2c 3d 4d", "this street deals 1 card, got 3"),
        ("||", "2c", "this street deals 5 cards, got 1"),
        ("Kc | Jc | Ac", "2c", "0, 5, 6, 7, 8, 9, 10, 11 or 12 cards before a street, got 3"),
    ],
)
def test_a_street_that_does_not_match_the_cards_placed_is_refused(
    mine: str, dealt: str, message: str
) -> None:
    with pytest.raises(InputError, match=message):
        Position(board(mine), tuple(parse_cards(dealt)), (board(COMPLETE),), (), CLASSIC)


def test_a_board_classic_deals_is_not_one_pineapple_deals() -> None:
    with pytest.raises(InputError, match="got 6"):
        Position(board("Kc | Jc | Ac Ad Tc Ts"), tuple(parse_cards("2c 3d 4d")), (board(COMPLETE),))
    with pytest.raises(InputError, match="an opponent's board"):
        Position(board("||"), tuple(parse_cards("Ac Kd 7h 5s 2c")), (board("Kc | Jc | 2h"),),
                 (), CLASSIC)  # fmt: skip


def test_the_cards_to_come_count_single_cards() -> None:
    position = Position(board("Kc | Jc | Ac Ad Tc"), (4,), (board("||"),), (), CLASSIC)
    assert cards_to_come(position) == 7 + 13


# --- exact values against a plain enumeration -------------------------------------------------


def _plain_value(mine: list[list[int]], unseen: list[int], theirs, fantasy: Fraction) -> Fraction:
    """The board's value by the rules of models/ofc.py alone: complete, its score against each
    opponent and the fantasyland value when it earns it; else the mean over the next card of
    the best row for it."""
    if sum(map(len, mine)) == 13:
        final = board_of(mine[2], mine[1], mine[0])
        points = sum(score(final, other, RULES.royalties) for other in theirs)
        return points + (fantasy if RULES.fantasy_cards(final) else 0)
    total = Fraction(0)
    for card in unseen:
        rest = [c for c in unseen if c != card]
        total += max(
            _plain_value([row + [card] if i == r else row for i, row in enumerate(mine)], rest,
                         theirs, fantasy)
            for r in range(3) if len(mine[r]) < SIZES[r]
        )  # fmt: skip
    return total / len(unseen)


@pytest.mark.parametrize(
    ("mine", "dealt", "unseen", "fantasy"),
    [
        ("Kc Ks | Jc Jd 7s 7d | Ac Ad Tc Ts 3c", "Qc", 27, 10),  # the last street
        ("Kc | Jc Jd 7s 7d | Ac Ad Tc Ts 3c", "Qc", 28, 10),  # and one single card after
        ("Kc | Jc Jd 7s | Ac Ad Tc Ts 3c", "Qc", 11, 0),  # and two after
        ("Qs | 8c 8d 7d | As Ac Tc Ts", "Qc", 7, 7),  # and three after, queens on top
    ],
)
def test_the_last_streets_are_exact(mine: str, dealt: str, unseen: int, fantasy: int) -> None:
    """Each action's exact value is the plain enumeration's, the dead cards (drawn at random)
    leaving ``unseen`` cards to come."""
    theirs = (board(COMPLETE),)
    free = Position(board(mine), tuple(parse_cards(dealt)), theirs, (), CLASSIC).unseen(DECK)
    dead = tuple(random.Random(unseen).sample(free, len(free) - unseen))
    position = Position(board(mine), tuple(parse_cards(dealt)), theirs, dead, CLASSIC)
    assert is_exact(position, DECK)
    answer = play(position, RULES, Fraction(fantasy))
    assert answer.exact
    finals = [board_of(b[2], b[1], b[0]) for b in theirs]
    unseen = position.unseen(DECK)
    found = {
        tuple(frozenset(row) for row in entry.action.rows): entry.value for entry in answer.actions
    }
    assert len(found) == len(legal_actions(position.board, position.dealt, CLASSIC))
    for row in _free_rows(position.board):
        rows = [list(r) for r in position.board]
        rows[row].append(position.dealt[0])
        key = tuple(frozenset(position.dealt if i == row else ()) for i in range(3))
        assert found[key] == _plain_value(rows, unseen, finals, Fraction(fantasy))
    values = [entry.value for entry in answer.actions]
    assert values == sorted(values, reverse=True)


def test_four_streets_to_come_are_played_out_not_enumerated() -> None:
    position = Position(board("Kc | Jc Jd | Ac Ad Tc Ts"), (4,), (board(COMPLETE),), (), CLASSIC)
    assert not is_exact(position, DECK)
    advice = advise(position, RULES, samples=20)
    assert not advice.answer.exact and advice.answer.deals == 20
    assert "played out" in advice.method


def test_sampled_values_estimate_the_exact_ones() -> None:
    """On the last street but one, the playouts (the last street by its best card) sample what
    the exact values enumerate."""
    position = Position(board("Kc Ks | Jc Jd 7s 7d | Ac Ad Tc Ts 3c"), tuple(parse_cards("Qc")),
                        (board(COMPLETE),), (), CLASSIC)  # fmt: skip
    exact = {e.action: e.value for e in play(position, RULES).actions}
    sampled = {e.action: e for e in play(position, RULES, samples=400, exact=False).actions}
    for action, value in exact.items():
        entry = sampled[action]
        assert abs(float(value) - entry.value) < 5 * entry.stderr + 0.01


def test_rules_of_another_variant_are_refused() -> None:
    position = Position(board("Kc | Jc | Ac Ad Tc Ts"), (4,), (board(COMPLETE),), (), CLASSIC)
    with pytest.raises(InputError, match="classic"):
        play(position, OfcRules())
    with pytest.raises(InputError, match="classic"):
        advise(position, OfcRules(), samples=2)


# --- players and matches ----------------------------------------------------------------------


def seated(*names: str) -> list:
    return [player_from_spec(name, RULES, Fraction(15), samples=4, kept=2) for name in names]


@pytest.mark.parametrize("names", [("rollout", "policy"), ("random", "player", "rollout")])
def test_a_classic_match_is_legal_throughout(names: tuple[str, ...]) -> None:
    """Every board ends complete with exactly the 13 cards its seat was dealt (no discard), and
    the points sum to zero."""
    deals = play_block(seated(*names), RULES, 5, 0, 2)
    for deal in deals:
        cards = dealt_streets(5, deal.deal, len(names), CLASSIC)
        for record, game in zip(deal.records, deal.games, strict=True):
            assert sum(seat.points for seat in game) == 0
            assert all(len(seat.seconds) == 9 for seat in game)
            assert record.forfeits == (None,) * len(names)
            for seat, final in enumerate(record.boards):
                assert [len(row) for row in final] == [5, 5, 3]
                dealt = sorted(card for street in cards[seat] for card in street)
                assert sorted(card for row in final for card in row) == dealt


def test_a_classic_match_is_the_same_with_the_same_seed() -> None:
    players = seated("rollout", "random")

    def boards(deals: list) -> list:
        return [record.boards for deal in deals for record in deal.records]

    first = match(players, RULES, 3, seed=2)
    assert boards(first) == boards(match(players, RULES, 3, seed=2))
    assert boards(first) != boards(match(players, RULES, 3, seed=3))


def test_a_classic_checkpoint_resumes_and_is_not_a_pineapple_one(tmp_path: Path) -> None:
    players = seated("rollout", "random")
    path = tmp_path / "match.jsonl"
    whole = match(players, RULES, 6, seed=4, checkpoint=path)
    again = match(players, RULES, 6, seed=4, checkpoint=path, resume=True)
    assert [r.boards for d in again for r in d.records] == [
        r.boards for d in whole for r in d.records
    ]
    pineapple = [player_from_spec(name, OfcRules(), Fraction(15)) for name in ("rollout", "random")]
    with pytest.raises(InputError, match="not for this match"):
        match(pineapple, OfcRules(), 6, seed=4, checkpoint=path, resume=True)


def test_the_program_reads_the_variant_and_the_street() -> None:
    position = Position(board("Kc | Jc | Ac Ad Tc Ts 9s"), (4,),
                        (board("Qh | 9h | Ah Kh 8h 6h"),), (), CLASSIC)  # fmt: skip
    question = json.loads(position_json(position))
    assert question["variant"] == "classic" and question["street"] == 4
    assert question["dealt"] == ["3c"]
    good = reply_action(position, '{"top": [], "middle": ["3c"], "bottom": [], "discard": null}')
    assert not isinstance(good, str) and good.rows == ((), (4,), ()) and good.discard is None
    for bad in (
        '{"middle": ["3c"], "discard": "3c"}',
        '{"top": [], "discard": "3c"}',
        '{"bottom": ["3c"]}',
    ):  # fmt: skip  (the bottom is full)
        assert isinstance(reply_action(position, bad), str)


def test_a_program_plays_classic(tmp_path: Path) -> None:
    program = tmp_path / "fill.py"
    program.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    q = json.loads(line)\n"
        "    assert q['variant'] == 'classic' and len(q['dealt']) in (1, 5)\n"
        "    b = q['board']\n"
        "    free = {'bottom': 5 - len(b['bottom']), 'middle': 5 - len(b['middle']),\n"
        "            'top': 3 - len(b['top'])}\n"
        "    out = {'top': [], 'middle': [], 'bottom': [], 'discard': None}\n"
        "    for card in q['dealt']:\n"
        "        row = next(r for r in ('bottom', 'middle', 'top') if free[r])\n"
        "        free[row] -= 1\n"
        "        out[row].append(card)\n"
        "    print(json.dumps(out))\n"
    )
    spec = f"program:{sys.executable} {program}"
    code, out, err = invoke(
        "match", "--players", f"{spec},random", "--deals", "1", "--variant", "classic", "--json"
    )
    assert code == 0, err
    answer = json.loads(out)
    assert answer["variant"] == "classic"
    assert answer["players"][0]["forfeits"] == 0 and answer["players"][0]["hands"] == 2


# --- fantasyland and the study ----------------------------------------------------------------


def test_classic_fantasyland_sets_13_cards_and_refuses_14() -> None:
    hand = parse_cards("Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h")
    best = solve_fantasyland(hand, RULES).settings[0]
    assert best.discards == () and best.objective == 35
    with pytest.raises(InputError, match="13 cards, got 14"):
        solve_fantasyland([*hand, parse_cards("2c")[0]], RULES)


def test_the_classic_study_values_13_card_fantasyland() -> None:
    study = run_study(6, 1, RULES, normal_hands=2)
    assert [size.size for size in study.sizes] == [13]
    assert study.normal is not None and set(study.normal.share_fantasy) == {13}


# --- the commands -------------------------------------------------------------------------------


def test_ofc_play_classic_answers_exactly_on_the_last_streets() -> None:
    mine = "Kc | Jc Jd 7s | Ac Ad Tc Ts 3c"
    code, out, err = invoke(
        "play", "7c", "--variant", "classic", "--board", mine, "--vs", COMPLETE, "--json"
    )
    assert code == 0, err
    answer = json.loads(out)
    assert answer["exact"] and answer["variant"] == "classic" and answer["deals"] == 29 * 28 * 27
    assert all(action["discard"] is None for action in answer["actions"])


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (("play", "2c 3d 4d", "--variant", "classic", "--board", "Kc | Jc | Ac Ad Tc Ts",
          "--vs", COMPLETE), "this street deals 1 card, got 3"),
        (("play", "2c", "--board", "Kc | Jc | Ac Ad Tc Ts", "--vs", COMPLETE),
         "in pineapple open-face, a board holds 0, 5, 7, 9 or 11 cards before a street, got 6"),
        (("play", "2c", "--variant", "classic", "--board", "Kc Kd | Jc Jd 7s 7d | Ac Ad Tc Ts 3c",
          "--vs", "Qh | 9h 9c | Ah"), "an opponent's board holds"),
        (("play", "2c", "--variant", "omaha", "--vs", COMPLETE), "unknown variant 'omaha'"),
        (("fantasyland", "Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c", "--variant", "classic"),
         "in classic open-face, a fantasyland hand has 13 cards, got 14"),
        (("match", "--variant", "classic9", "--deals", "1"), "unknown variant"),
        (("study", "--variant", "x", "--hands", "2"), "unknown variant"),
        (("royalties", "--variant", "x"), "unknown variant"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_naming_it(args: tuple[str, ...], names: str) -> None:
    assert_one_error(*invoke(*args), names=names)


@pytest.mark.parametrize("command", ["play", "match", "study", "fantasyland", "royalties"])
def test_every_ofc_command_takes_the_variant(command: str) -> None:
    code, out, _ = invoke(command, "--help")
    assert code == 0 and "--variant" in out and "classic" in out


def test_ofc_royalties_says_how_the_variant_deals() -> None:
    code, out, _ = invoke("royalties", "--variant", "classic")
    assert code == 0
    assert "streets (classic): 5 cards, then eight streets of 1 card, placed" in out
    assert "13 cards" in out
    code, out, _ = invoke("royalties", "--variant", "classic", "--json")
    assert json.loads(out)["variant"] == "classic"
