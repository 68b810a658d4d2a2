"""The exact fantasyland search against every setting, scored by the reference written apart."""

from __future__ import annotations

import heapq
import itertools
import json
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handsolver.models.cards import DECK, InputError, parse_cards
from handsolver.models.ofc import (
    TOP,
    OfcRules,
    board_of,
    board_of_text,
    parse_ofc_royalties,
    partial_board_of_text,
    score,
)
from handsolver.solver.cli import app
from handsolver.solver.ofc import Objective, setting_objective, solve_fantasyland
from handsolver.solver.ofc.play import Action, Board, Position, after, legal_actions, play
from tests import ofc_reference as ref

TOP_K = 6


@cache
def five(cards: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], int, int]:
    return ref.five_value(cards), ref.bottom_royalty(cards), ref.middle_royalty(cards)


@cache
def three(cards: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], int, tuple[int, ...]]:
    return ref.top_value(cards), ref.top_royalty(cards), ref.spelled(ref.top_value(cards))


@cache
def spelled_five(cards: tuple[int, ...]) -> tuple[int, ...]:
    return ref.spelled(ref.five_value(cards))


def best_objectives(
    cards: Sequence[int],
    value: Callable[[tuple[int, ...], tuple[int, ...], tuple[int, ...]], Fraction | int],
    k: int = TOP_K,
) -> list[Fraction]:
    """The k largest objectives over every legal way to keep 13 cards and set them: each bottom
    of 5 cards, each middle of 5 of the cards left, each top of 3 of those left then (the rest
    discarded)."""
    cards = sorted(cards)
    found: list[Fraction | int] = []
    for bottom in combinations(cards, 5):
        rest = [c for c in cards if c not in bottom]
        bottom_value = five(bottom)[0]
        for middle in combinations(rest, 5):
            if five(middle)[0] > bottom_value:
                continue
            middle_spelled = spelled_five(middle)
            left = [c for c in rest if c not in middle]
            for top in combinations(left, 3):
                top_spelled = three(top)[2]
                if middle_spelled[: len(top_spelled)] >= top_spelled:
                    found.append(value(top, middle, bottom))
    return [Fraction(v) for v in heapq.nlargest(k, found)]


def whole(points: Fraction) -> Fraction | int:
    """An int when ``points`` is whole: the brute force adds ints, far quicker than Fractions."""
    return int(points) if points.denominator == 1 else points


def royalties_and_stay(stay_value: Fraction) -> Callable[..., Fraction | int]:
    bonus = whole(stay_value)

    def value(
        top: tuple[int, ...], middle: tuple[int, ...], bottom: tuple[int, ...]
    ) -> Fraction | int:
        royalty = three(top)[1] + five(middle)[2] + five(bottom)[1]
        stays = (
            three(top)[0][0] == ref.TRIPS
            or five(middle)[0][0] >= ref.FULL
            or five(bottom)[0][0] >= ref.QUADS
        )
        return royalty + bonus if stays else royalty

    return value


def against(boards: Sequence[ref.Board], stay_value: Fraction) -> Callable[..., Fraction | int]:
    """Points against each board (a legal setting of mine, as every enumerated one is): rows
    won less rows lost, a scoop's 3, the royalties both ways; a fouled board pays 6 and mine.

    Each of my rows is compared with that row of every board not fouled once per value it
    takes, giving two bit masks over those boards (bit ``j``: board ``j`` is beaten, or beats
    it); a setting counts its rows and scoops on the masks."""
    bonus = whole(stay_value)
    legal = [board for board in boards if not ref.is_fouled(board)]
    fouled = len(boards) - len(legal)
    their_royalties = sum(ref.royalties(board) for board in legal)
    rows_of = [(three(b[0])[0], five(b[1])[0], five(b[2])[0]) for b in legal]

    @cache
    def won_and_lost(row: int, mine: tuple[int, tuple[int, ...]]) -> tuple[int, int]:
        won = lost = 0
        for j, rows in enumerate(rows_of):
            won |= (mine > rows[row]) << j
            lost |= (mine < rows[row]) << j
        return won, lost

    def value(
        top: tuple[int, ...], middle: tuple[int, ...], bottom: tuple[int, ...]
    ) -> Fraction | int:
        mine = (three(top)[0], five(middle)[0], five(bottom)[0])
        royalty = three(top)[1] + five(middle)[2] + five(bottom)[1]
        (wt, lt), (wm, lm), (wb, lb) = (won_and_lost(r, mine[r]) for r in range(3))
        rows = wt.bit_count() + wm.bit_count() + wb.bit_count()
        rows -= lt.bit_count() + lm.bit_count() + lb.bit_count()
        scoops = (wt & wm & wb).bit_count() - (lt & lm & lb).bit_count()
        total = rows + 3 * scoops + len(boards) * royalty - their_royalties + 6 * fouled
        stays = mine[0][0] == ref.TRIPS or mine[1][0] >= ref.FULL or mine[2][0] >= ref.QUADS
        return total + bonus if stays else total

    return value


def objectives(cards: Sequence[int], **options: object) -> list[Fraction]:
    answer = solve_fantasyland(cards, top=TOP_K, **options)  # type: ignore[arg-type]
    assert answer.proven
    return [entry.objective for entry in answer.settings]


@pytest.mark.parametrize(("seed", "stay"), [(1, 0), (2, 10), (3, Fraction(25, 2))])
def test_13_cards_every_setting(seed: int, stay: Fraction) -> None:
    hand = random.Random(seed).sample(range(52), 13)
    expected = best_objectives(hand, royalties_and_stay(Fraction(stay)))
    assert objectives(hand, objective=Objective(Fraction(stay))) == expected


@pytest.mark.parametrize("hand", ["Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c", None])
def test_14_cards_every_way_to_choose_and_set(hand: str | None) -> None:
    cards = parse_cards(hand) if hand else random.Random(14).sample(range(52), 14)
    stay = Fraction(15)
    assert objectives(cards, objective=Objective(stay)) == best_objectives(
        cards, royalties_and_stay(stay)
    )


def test_strong_13_card_hands_every_setting() -> None:
    """Hands rich in pairs, trips and suits, where royalties and stays compete."""
    rng = random.Random(5)
    for _ in range(2):
        ranks = rng.sample(range(13), 5)
        hand = rng.sample([4 * r + s for r in ranks for s in range(4)], 13)
        stay = Fraction(rng.choice([0, 8, 30]))
        expected = best_objectives(hand, royalties_and_stay(stay))
        assert objectives(hand, objective=Objective(stay)) == expected


@pytest.mark.parametrize("opponents", [1, 2])
def test_against_known_boards_every_setting(opponents: int) -> None:
    rng = random.Random(20 + opponents)
    while True:  # deal until the first board is legal and the second (highest on top) fouled
        deck = rng.sample(range(52), 13 + 13 * opponents)
        hand = deck[:13]
        boards = []
        for i in range(opponents):
            cards = sorted(deck[13 + 13 * i : 26 + 13 * i], reverse=i == 1)
            boards.append((tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:])))
        if [ref.is_fouled(board) for board in boards] == [False, True][:opponents]:
            break
    stay = Fraction(7)
    expected = best_objectives(hand, against(boards, stay))
    engine_boards = tuple(board_of(*board) for board in boards)
    assert objectives(hand, objective=Objective(stay, engine_boards)) == expected


@pytest.mark.parametrize("seed", [9, 13])
def test_a_table_that_is_not_monotone(seed: int) -> None:
    """Negative and out-of-order royalties: the bounds must hold for any table."""
    table = parse_ofc_royalties(
        '{"bottom": {"two pair": 5, "flush": -3}, "middle": {"pair": 4, "straight": -2},'
        ' "top": {"high card": 1, "pair 2": 6}}'
    )
    rules = OfcRules(royalties=table)
    hand = random.Random(seed).sample(range(52), 13)

    def value(top: tuple[int, ...], middle: tuple[int, ...], bottom: tuple[int, ...]) -> Fraction:
        return setting_objective(board_of(top, middle, bottom), rules, Objective())

    assert objectives(hand, rules=rules) == best_objectives(hand, value)


def test_the_settings_are_what_they_claim() -> None:
    rules = OfcRules()
    for size in (15, 16, 17):
        hand = random.Random(size).sample(range(52), size)
        answer = solve_fantasyland(hand, rules, Objective(Fraction(12)), top=3)
        values = [entry.objective for entry in answer.settings]
        assert values == sorted(values, reverse=True)
        for entry in answer.settings:
            setting = entry.setting
            used = [card for row in setting for card in row]
            assert sorted(used + list(entry.discards)) == sorted(hand)
            assert len(set(used)) == 13 and len(entry.discards) == size - 13
            board = (setting[2], setting[1], setting[0])
            assert not ref.is_fouled(board)
            assert entry.royalties.total == ref.royalties(board)
            assert entry.stays == ref.stays(board)
            assert entry.objective == ref.royalties(board) + 12 * ref.stays(board)
        # No setting met at random beats the proven best.
        rng = random.Random(size + 100)
        for _ in range(300):
            kept = rng.sample(hand, 13)
            board = (tuple(kept[:3]), tuple(kept[3:8]), tuple(kept[8:]))
            assert ref.royalties(board) + 12 * ref.stays(board) <= values[0]


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d", "13 to 17 cards, got 12"),
        ("Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h Ac", "card 'Ac' is given twice"),
    ],
)
def test_bad_hands(cards: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        solve_fantasyland(parse_cards(cards))


def test_an_opponent_holding_my_card_is_refused() -> None:
    theirs = board_of_text("Ac 2d 3d | 4c 5c 6c 6d 9d | 8s 8h 8d Tc Td")
    with pytest.raises(InputError, match="card 'Ac' is given twice"):
        solve_fantasyland(
            parse_cards("Ac Ad Ah Kc Kd Qs Js Ts 9s 8c 7c 7d 3h"), objective=Objective(0, (theirs,))
        )


# --- the command -------------------------------------------------------------------------------

runner = CliRunner()
HAND14 = "Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c"


def test_the_command_lists_the_proven_best_settings_as_json() -> None:
    result = runner.invoke(app, ["ofc", "fantasyland", HAND14, "--stay-value", "12.5", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["proven"] is True
    assert answer["rules"]["stay_value"] == "25/2"
    best = answer["settings"][0]
    assert set(best) == {"top", "middle", "bottom", "discards", "royalties", "stays", "objective"}
    assert set(best["royalties"]) == {"top", "middle", "bottom", "total"}
    assert best["stays"] is True and best["objective"] == "95/2"
    assert best["royalties"]["total"] == 35
    expected = solve_fantasyland(parse_cards(HAND14), objective=Objective(Fraction(25, 2)), top=5)
    assert [s["objective"] for s in answer["settings"]] == [
        str(entry.objective) for entry in expected.settings
    ]


def test_the_command_against_a_board_and_a_royalty_file(tmp_path: Path) -> None:
    table = tmp_path / "flat.json"
    table.write_text('{"top": {"pair": 1}}')
    vs = "Qh Qd 4s | 9h 9c 9d 5c 2s | Ah Kh 8h 6h 4h"
    hand = HAND14.replace("Ah", "As").replace("Kd", "Jd")
    args = ["ofc", "fantasyland", hand, "--vs", vs, "--royalties", str(table), "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    rules = OfcRules(royalties=parse_ofc_royalties('{"top": {"pair": 1}}'))
    expected = solve_fantasyland(
        parse_cards(hand), rules, Objective(Fraction(0), (board_of_text(vs),)), top=5
    )
    assert answer["settings"][0]["objective"] == str(expected.settings[0].objective)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([HAND14 + " Ac"], "card 'Ac' is given twice"),
        (["Ac Ad Ah Kc"], "has 4 cards; this game needs 13 to 17"),
        (["Ac Ad Ah Kc Kd Qs Js | Ts 9s 8s 7c 7d 3h 2c"], "has 7 cards"),
        ([HAND14, "--stay-value", "lots"], "--stay-value: 'lots' is not a number of points"),
        ([HAND14, "--stay-value", "-3"], "--stay-value must be 0 to 10,000"),
        ([HAND14, "--vs", "Qh Qd | 9h 9c 9d 5c 2s | 6h 5h 4h 3h 2h"], "top needs 3 cards"),
        ([HAND14, "--vs", "Qh Qd 4s | 9h 9c 9d 5c 2s | Ah Kh 8h 6h 3h"], "card 'Ah' is given"),
        ([HAND14, "--stay-rule", "sometimes"], "unknown stay rule 'sometimes'"),
    ],
)
def test_bad_input_is_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["ofc", "fantasyland", *args])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines


# --- play: a position's actions ----------------------------------------------------------------


def engine_board(text: str) -> Board:
    top, middle, bottom = partial_board_of_text(text)
    return (bottom, middle, top)


def final_points(mine: Board, opponents: Sequence[Board], fantasy: Fraction) -> Fraction:
    """Straight from the rules: my score against each board, plus fantasyland's value."""
    table = OfcRules().royalties
    total = Fraction(sum(score(mine, theirs, table) for theirs in opponents))
    return total + fantasy * (OfcRules().fantasy_cards(mine) is not None)


def every_action(board: Board, dealt: Sequence[int]) -> list[tuple[Board, int | None]]:
    """Every (final rows, discard) a street allows, by trying each card in each row."""
    found = []
    kept_sets = (
        [(tuple(dealt), None)]
        if not any(board)
        else [(tuple(c for c in dealt if c != d), d) for d in dealt]
    )
    for kept, discard in kept_sets:
        for rows in itertools.product(range(3), repeat=len(kept)):
            new = tuple(
                board[r] + tuple(c for c, w in zip(kept, rows, strict=True) if w == r)
                for r in range(3)
            )
            if all(len(new[r]) <= (5, 5, 3)[r] for r in range(3)):
                found.append(((new[0], new[1], new[2]), discard))
    return found


OPPONENTS = (
    "Qh Qd 4s | 9h 9c 9d 5c 2s | Ah Kh 8h 6h 4h",
    "Jh 8d 2h | 6c 6d 3s 3h Th | 9s 8s 7h 5s 2d",  # fouled
)


def test_the_last_street_against_every_final_board() -> None:
    mine = engine_board("Kc Ks | Jc Jd 7s 7d | Ac Ad Tc Ts 3c")
    dealt = parse_cards("2c 3d Qc")
    opponents = tuple(engine_board(text) for text in OPPONENTS)
    position = Position(mine, dealt, opponents, parse_cards("5d 6s"))
    answer = play(position, fantasy_value=Fraction(10))
    assert answer.exact and answer.deals == 1
    expected = sorted(
        (final_points(board, opponents, Fraction(10)) for board, _ in every_action(mine, dealt)),
        reverse=True,
    )
    assert [entry.value for entry in answer.actions] == expected
    best = answer.actions[0].action
    assert best.rows[TOP] == parse_cards("Qc")  # KKQ: fantasyland and the top row


def test_two_streets_left_against_every_deal_and_a_sample_within_4_standard_errors() -> None:
    mine = engine_board("Kc | Jc Jd 7s | Ac Ad Tc Ts 3c")
    dealt = parse_cards("2c 3d 7c")
    opponents = tuple(engine_board(text) for text in OPPONENTS)
    position = Position(mine, dealt, opponents, parse_cards("5d 6s"))
    answer = play(position)
    unseen = position.unseen(DECK)
    assert answer.exact and answer.deals == len(list(combinations(unseen, 3)))

    def exact_value(board: Board) -> Fraction:
        total = Fraction(0)
        deals = list(combinations(unseen, 3))
        for deal in deals:
            total += max(
                final_points(b, opponents, Fraction(0)) for b, _ in every_action(board, deal)
            )
        return total / len(deals)

    by_action = {entry.action: entry.value for entry in answer.actions}
    for board, discard in every_action(mine, dealt)[::4]:
        added = tuple(tuple(c for c in board[r] if c not in mine[r]) for r in range(3))
        action = Action((added[0], added[1], added[2]), discard)
        assert by_action[action] == exact_value(board)
    sampled = play(position, samples=400, seed=3, exact=False)
    assert not sampled.exact
    for entry in sampled.actions:
        assert entry.stderr is not None  # 0 when every deal ends alike (a sure foul)
        assert abs(entry.value - by_action[entry.action]) <= 4 * entry.stderr


def test_actions_are_every_legal_placement() -> None:
    rng = random.Random(4)
    for placed in (0, 5, 7, 9, 11):
        deck = rng.sample(range(52), 16)
        cards = deck[:placed]
        sizes = [(0, 0, 0), (2, 2, 1), (3, 2, 2), (4, 3, 2), (5, 4, 2)][
            (0, 5, 7, 9, 11).index(placed)
        ]
        board = (
            tuple(cards[: sizes[0]]),
            tuple(cards[sizes[0] : sizes[0] + sizes[1]]),
            tuple(cards[sizes[0] + sizes[1] :]),
        )
        dealt = deck[placed : placed + (5 if placed == 0 else 3)]
        assert {(after(board, a), a.discard) for a in legal_actions(board, dealt)} == set(
            every_action(board, dealt)
        )


@pytest.mark.parametrize(
    ("board", "dealt", "message"),
    [
        ("Kc | Jc Jd 7s | Ac Ad Tc Ts 3c", "2c 3d Kc", "card 'Kc' is given twice"),
        ("Kc | Jc Jd 7s | Ac Ad Tc Ts 3c", "2c 3d", "this street deals 3 cards, got 2"),
        ("Kc Kd Qs Qc | Jc | Ac Ad Tc", "2c 3d 4d", "top holds 3 cards, got 4"),
        ("Kc | Jc | Ac Ad Tc Ts", "2c 3d 4d", "0, 5, 7, 9 or 11 cards before a street, got 6"),
    ],
)
def test_bad_positions(board: str, dealt: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        Position(engine_board(board), parse_cards(dealt), (engine_board(OPPONENTS[0]),))
