"""Bad input to the Big 2 commands (``big2 game``, ``game-batch``, ``advise``, ``tournament``):
impossible positions, cards given twice, numbers that are not ASCII digits, files that are not
what they claim, each one line on stderr naming the field, exit code 2; and the messages and
tables these commands print."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .test_bad_input import assert_one_error, invoke

TWO = ["big2", "game", "3d 4c", "Ts Js"]  # a two-player position


# --- impossible positions ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "counts", "names"),
    [
        ("3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad 2d 3c", "13,13,12", "14 cards"),
        ("3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad 2d 3c 4c 5c", "20,10,6", "16 cards"),
        ("3d 4d", "20,10,20", "--counts"),
        ("3d 4d", "18,17", "--counts"),  # three players hold 17 cards at most
        ("3d 4d", "14", "--counts"),  # two players are dealt 13 each
    ],
)
def test_advise_refuses_a_hand_larger_than_the_deal_gives(
    hand: str, counts: str, names: str
) -> None:
    line = assert_one_error(*invoke(["big2", "advise", hand, "--counts", counts]), names=names)
    assert "at most" in line


def test_advise_refuses_players_that_disagree_with_the_counts() -> None:
    args = ["big2", "advise", "3d 4d", "--players", "3", "--counts", "5,5,5"]
    line = assert_one_error(*invoke(args), names="--players 3")
    assert "--counts" in line


def test_advise_at_the_start_says_how_many_cards_are_unseen() -> None:
    args = ["big2", "advise", "Kh Ks", "--counts", "13", "--start"]
    line = assert_one_error(*invoke(args), names="50")
    assert "Kh" in line and "only" not in line


@pytest.mark.parametrize(
    ("extra", "names"),
    [
        (["--by", "3"], "the opponent is player 2"),
        (["--passed", "3"], "the opponent is player 2"),
    ],
)
def test_advise_names_the_one_opponent_in_the_singular(extra: list[str], names: str) -> None:
    args = ["big2", "advise", "3d 4d", "--counts", "5", "--beat", "9h", *extra]
    if "--by" not in extra:
        args += ["--by", "2", "--pass-final"]
    line = assert_one_error(*invoke(args), names=names)
    assert "2 to 2" not in line


# --- cards given twice -----------------------------------------------------------------------


@pytest.mark.parametrize("command", [TWO, ["big2", "advise", "3d 4c", "--counts", "5"]])
def test_a_play_to_beat_with_a_card_twice_is_refused(command: list[str]) -> None:
    line = assert_one_error(*invoke([*command, "--beat", "9h 9h", "--by", "2"]), names="'9h'")
    assert "--beat" in line and "twice" in line


def test_game_batch_refuses_a_play_to_beat_with_a_card_twice() -> None:
    text = json.dumps({"hands": ["3d 4c", "Ts Js"], "beat": ["9h", "9h"], "by": 2}) + "\n"
    line = assert_one_error(*invoke(["big2", "game-batch", "-"], stdin=text), names="'9h'")
    assert "line 1" in line and "beat" in line


@pytest.mark.parametrize(
    ("hands", "names"),
    [
        (["Ah 3d", "Ah 4c"], "hand 1 and hand 2"),
        (["3d 4c", "Ah 5s Ah"], "in hand 2"),
    ],
)
def test_a_card_given_twice_says_where_the_other_copy_is(hands: list[str], names: str) -> None:
    line = assert_one_error(*invoke(["big2", "game", *hands]), names=names)
    assert "'Ah' is given twice" in line


# --- numbers: ASCII digits only, bounded -----------------------------------------------------


@pytest.mark.parametrize("text", ["３", "٣", "²", "3,²", "9" * 5001])
def test_passed_takes_ascii_digits_only(text: str) -> None:
    args = ["big2", "game", "3d 4c", "Ts Js", "5h 6h", "--beat", "9h", "--by", "2"]
    assert invoke([*args, "--pass-final", "--passed", "3"])[0] == 0
    assert_one_error(*invoke([*args, "--pass-final", "--passed", text]), names="--passed")


@pytest.mark.parametrize("text", ["٣", "²", "3,³"])
def test_advise_passed_takes_ascii_digits_only(text: str) -> None:
    args = ["big2", "advise", "3d 4c", "--counts", "5,5,5", "--beat", "9h", "--by", "2"]
    assert_one_error(*invoke([*args, "--pass-final", "--passed", text]), names="--passed")


@pytest.mark.parametrize(
    ("fields", "names"),
    [
        ({"to_move": "２"}, "to_move"),
        ({"to_move": "²"}, "to_move"),
        ({"to_move": "٢"}, "to_move"),
        ({"to_move": True}, "to_move"),
        ({"to_move": 2.0}, "to_move"),
        ({"beat": ["9h"], "by": "２"}, "by"),
        ({"beat": ["9h"], "by": "²"}, "by"),
        ({"beat": ["9h"], "by": "٢"}, "by"),
        ({"beat": ["9h"], "by": 2, "passed": ["²"]}, "passed"),
    ],
)
def test_game_batch_numbers_are_ascii_digits(fields: dict[str, object], names: str) -> None:
    text = json.dumps({"hands": ["3d 4c", "Ts Js"], **fields}, ensure_ascii=False) + "\n"
    line = assert_one_error(*invoke(["big2", "game-batch", "-"], stdin=text), names=names)
    assert line.startswith("error: line 1: ")


def test_game_batch_refuses_a_huge_integer_naming_the_field() -> None:
    text = '{"hands": ["3d 4c", "Ts Js"], "to_move": ' + "9" * 5001 + "}\n"
    assert_one_error(*invoke(["big2", "game-batch", "-"], stdin=text), names="line 1")


def test_game_batch_refuses_json_nested_deep() -> None:
    text = '{"hands": ' + "[" * 5000 + "]" * 5000 + "}\n"
    assert_one_error(*invoke(["big2", "game-batch", "-"], stdin=text), names="line 1")


# --- files and standard input ----------------------------------------------------------------


def test_game_reads_the_hands_from_standard_input() -> None:
    code, out, err = invoke(["big2", "game", "-", "--json"], stdin="3d 4c\nTs Js\n")
    assert code == 0, err
    assert json.loads(out)["position"]["hands"] == [["3d", "4c"], ["Ts", "Js"]]


def test_game_says_a_file_name_is_not_cards() -> None:
    assert_one_error(
        *invoke(["big2", "game", "hands.txt", "3d 4c"]), names="'hands.txt' is a file name"
    )


@pytest.mark.parametrize(("text", "names"), [("11 3d", "'11'"), ("23h", "'23'")])
def test_a_two_digit_rank_other_than_ten_is_named_whole(text: str, names: str) -> None:
    line = assert_one_error(*invoke(["big2", "game", text, "4c"]), names=names)
    assert "rank" in line and "'1'" not in line


def test_a_tournament_checkpoint_that_is_not_one_is_refused() -> None:
    args = ["big2", "tournament", "--strategies", "greedy,random", "--deals", "1000000"]
    line = assert_one_error(*invoke([*args, "--checkpoint", "/dev/zero", "--resume"]))
    assert "/dev/zero" in line


def test_a_tournament_checkpoint_of_garbage_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "garbage.jsonl"
    path.write_bytes(b"x" * 3_000_000)
    args = ["big2", "tournament", "--strategies", "greedy,random", "--deals", "1000000"]
    line = assert_one_error(*invoke([*args, "--checkpoint", str(path), "--resume"]))
    assert "garbage.jsonl" in line
    assert path.read_bytes() == b"x" * 3_000_000  # nothing half-written


# --- --players: the seats at the table --------------------------------------------------------


def test_tournament_players_must_agree_with_the_strategies() -> None:
    args = ["big2", "tournament", "--strategies", "greedy,random,random,random", "--deals", "1"]
    line = assert_one_error(*invoke([*args, "--players", "3"]), names="--players 3")
    assert "4 strategies" in line


def test_tournament_with_three_players_deals_three_hands_of_17() -> None:
    args = ["big2", "tournament", "--strategies", "greedy,random,random", "--deals", "2"]
    for extra in ([], ["--players", "3"]):
        code, out, err = invoke([*args, *extra, "--json"])
        assert code == 0, err
        data = json.loads(out)
        assert data["rules"]["players"] == 3 and data["rules"]["hand_size"] == 17
        assert [item["deals"] for item in data["strategies"]] == [6, 12]  # games, by seat


def test_the_seats_decide_the_cards_dealt() -> None:
    from handsolver.models.big2 import SEED_RULES
    from handsolver.solver.big2.table.tournament_games import dealt_hands
    from handsolver.solver.commands.big2.rules import seat_cards, table_rules

    for seats, size in ((2, 13), (3, 17), (4, 13)):
        rules = table_rules(SEED_RULES, None, seats, "")
        assert seat_cards(rules, seats) == size
        hands = dealt_hands(5, 0, seats, rules)
        assert [hand.bit_count() for hand in hands] == [size] * seats
        assert sum(hands).bit_count() == size * seats and not hands[0] & hands[1]


def test_game_players_must_agree_with_the_hands() -> None:
    line = assert_one_error(*invoke([*TWO, "--players", "3"]), names="--players 3")
    assert "2 hands" in line


@pytest.mark.parametrize("command", ["game", "advise", "tournament", "stats"])
def test_players_help_says_the_seats_at_the_table(command: str) -> None:
    code, out, _ = invoke(["big2", command, "--help"])
    assert code == 0
    assert "players at the table" in " ".join(out.split())


# --- help and tables ---------------------------------------------------------------------------


def test_advise_help_names_the_manual_page_not_a_file() -> None:
    code, out, _ = invoke(["big2", "advise", "--help"])
    assert code == 0
    text = " ".join(out.split())
    assert "docs/" not in text and "'Big 2 at the table'" in text


def test_tournament_table_has_no_interval_from_too_few_games() -> None:
    args = ["big2", "tournament", "--strategies", "greedy,random", "--deals", "2", "--seed", "1"]
    code, out, err = invoke(args)
    assert code == 0, err
    assert "n/a (too few games)" in out
    assert "100.0% to 100.0%" not in out and "0.0% to 0.0%" not in out


def test_tournament_title_and_columns_count_the_same_thing() -> None:
    args = ["big2", "tournament", "--strategies", "greedy,random", "--deals", "3", "--seed", "1"]
    code, out, err = invoke(args)
    assert code == 0, err
    title, header = out.splitlines()[:2]
    assert "3 deals" in title and "6 games" in title
    assert "games" in header.split()


# --- progress, a game at a time --------------------------------------------------------------


class Counting:
    """``greedy``, counting its turns, so that a test sees when progress moves."""

    name = "counting"

    def __init__(self) -> None:
        from handsolver.solver.big2.table.strategies import strategy_from_spec

        self.inner = strategy_from_spec("greedy")
        self.turns = 0

    def choose(self, views, seeds):  # type: ignore[no-untyped-def]
        self.turns += len(views)
        return self.inner.choose(views, seeds)


def test_tournament_progress_moves_a_game_at_a_time_within_a_block() -> None:
    from handsolver.solver.big2.table.strategies import strategy_from_spec
    from handsolver.solver.big2.table.tournament import play_tournament

    counting = Counting()
    seen: list[tuple[int, int]] = []
    turns_at_tick: list[int] = []

    def progress(items, total, done):  # type: ignore[no-untyped-def]
        seen.append((total, done))
        for item in items:
            turns_at_tick.append(counting.turns)
            yield item

    result = play_tournament([counting, strategy_from_spec("random")], 4, 3, progress=progress)
    assert seen == [(8, 0)]  # one block of four deals, two rotations each: eight games
    assert len(turns_at_tick) == len(result.games) == 8
    assert turns_at_tick[0] < counting.turns  # it moved before the block's last game ended


def test_resumed_tournament_progress_counts_the_saved_games(tmp_path: Path) -> None:
    from handsolver.solver.big2.table.strategies import strategy_from_spec
    from handsolver.solver.big2.table.tournament import play_tournament

    strategies = [strategy_from_spec("greedy"), strategy_from_spec("random")]
    path = tmp_path / "saved.jsonl"
    play_tournament(strategies, 8, 1, checkpoint=path)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:2]) + "\n")  # the first block of two kept
    seen: list[tuple[int, int]] = []

    def progress(items, total, done):  # type: ignore[no-untyped-def]
        seen.append((total, done))
        yield from items

    play_tournament(strategies, 8, 1, checkpoint=path, resume=True, progress=progress)
    assert seen == [(16, 8)]


# --- the rules where they live -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "names"),
    [
        ("３", "'３'"),
        ("٣", "'٣'"),
        ("²", "'²'"),
        (True, "true"),
        (2.0, "2.0"),
        ("9" * 5001, "large"),
    ],
)
def test_whole_number_takes_ascii_digits_within_bounds(value: object, names: str) -> None:
    from handsolver.models.cards import InputError
    from handsolver.solver.commands.options import whole_number

    with pytest.raises(InputError, match="^by: ") as caught:
        whole_number(value, "by", 1, 4)
    assert names in str(caught.value)
    assert whole_number("4", "by", 1, 4) == whole_number(4, "by", 1, 4) == 4
    with pytest.raises(InputError, match="from 1 to 4"):
        whole_number(5, "by", 1, 4)


def test_json_lines_keep_long_numbers_as_text_and_refuse_deep_nesting() -> None:
    from handsolver.models.cards import InputError
    from handsolver.solver.commands.inputs import LongNumber, json_object

    assert isinstance(json_object('{"n": ' + "9" * 5001 + "}")["n"], LongNumber)
    assert json_object('{"s": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}') == {"s": "[" * 30}
    with pytest.raises(InputError, match="'hands' is nested more than 20 deep"):
        json_object('{"hands": ' + "[" * 5000 + "]" * 5000 + "}")
    with pytest.raises(InputError, match="NaN"):
        json_object('{"by": NaN}')


def test_a_card_twice_is_placed_in_its_hands() -> None:
    from handsolver.models.cards import CardParseError, parse_deal

    with pytest.raises(CardParseError, match=r"^card 'Ah' is given twice: in hand 1 and hand 3$"):
        parse_deal(["Ah 3d", "4c", "5s Ah"])
    with pytest.raises(CardParseError, match=r"^card 'Ah' is given twice$"):
        parse_deal("Ah 3d Ah")


def test_read_checkpoint_reads_no_more_than_a_first_line_of_a_file_that_is_no_checkpoint() -> None:
    from handsolver.models.big2 import SEED_RULES
    from handsolver.models.cards import InputError
    from handsolver.solver.big2.table.strategies import strategy_from_spec
    from handsolver.solver.big2.table.tournament_saves import read_checkpoint, tournament_key

    strategies = [strategy_from_spec("greedy"), strategy_from_spec("random")]
    key = tournament_key(strategies, 10**6, 0, SEED_RULES)
    blocks = dict.fromkeys(range(0, 10**6, 4), 4)
    with pytest.raises(InputError, match="not a checkpoint of a Big 2 tournament"):
        read_checkpoint(Path("/dev/zero"), key, blocks, 2, SEED_RULES)


def test_an_interval_needs_ten_deals_and_five_games_each_way() -> None:
    from fractions import Fraction

    from handsolver.solver.big2.table.strategies import strategy_from_spec
    from handsolver.solver.big2.table.tournament import play_tournament

    two = [strategy_from_spec(name) for name in ("greedy", "random")]
    lopsided = play_tournament(two, 10, seed=0).strategies  # greedy loses fewer than 5 games
    assert min(lopsided[0].games - lopsided[0].wins, lopsided[1].wins) < 5
    assert [item.interval for item in lopsided] == [None, None]
    strategies = [strategy_from_spec(name) for name in ("greedy", "random", "random")]
    for deals in (9, 10, 30):
        result = play_tournament(strategies, deals, seed=2)
        for item in result.strategies:
            enough = deals >= 10 and min(item.wins, item.games - item.wins) >= 5
            assert (item.interval is not None) == enough, (deals, item)
            if item.interval is not None:
                low, high = item.interval
                assert 0 <= low <= item.win_rate <= high <= 1
                assert item.win_rate == Fraction(item.wins, item.games)
    assert any(item.interval is not None for item in result.strategies)


# --- at a real table: the deal's turns ---------------------------------------------------------


@pytest.mark.parametrize(("players", "rules_name"), [(4, "seed"), (3, "hk"), (2, "seed")])
def test_the_view_rebuilt_from_the_turns_is_the_table_s(players: int, rules_name: str) -> None:
    """Real games (greedy and random seats): wherever player 1 is to move, its view rebuilt
    from the turns alone, the other hands unseen, is the view the table gives."""
    from handsolver.models.big2 import make_rules
    from handsolver.models.cards import cards_of
    from handsolver.solver.big2.table.history import Said, replayed_view
    from handsolver.solver.big2.table.strategies import strategy_from_spec
    from handsolver.solver.big2.table.tournament import play_tournament
    from handsolver.solver.big2.table.views import Table
    from handsolver.solver.commands.big2.rules import table_rules

    rules = table_rules(make_rules(rules_name), None, players, "")
    seated = [strategy_from_spec("greedy"), *[strategy_from_spec("random")] * (players - 1)]
    checked = 0
    for game in play_tournament(seated, 4, 7, rules).games:
        table = Table.deal(game.hands, rules)
        for turn in game.turns:
            if table.to_move == 0 and table.history:
                turns = [
                    Said(t.seat + 1, () if t.move is None else tuple(cards_of(t.move.mask)))
                    for t in table.history
                ]
                view = replayed_view(table.hands[0], turns, players, rules)
                assert view == table.view()
                checked += 1
            table = table.after(turn.move)
    assert checked > 50


@pytest.mark.parametrize(
    ("history", "names"),
    [
        ("2: 3d; 3: 3d; 4: pass", "turn 2: card 3d is played before"),
        ("2: 3d; 4: 5d", "turn 2: player 4 moves, but it is player 3's turn"),
        ("2: 4d", "turn 1: player 2: the deal's first play holds 3d"),
        ("2: 3d; 3: 5d; 4: 4s", "turn 3: player 4: 4s does not beat 5d"),
        ("2: 3d; 3: 4s 5h", "turn 2: player 3: 4s 5h is no play"),
        ("2: 3d; 3: pass; 4: pass; 1: pass; 2: pass", "turn 5: player 2 passes, but the player"),
        ("2: 3d; 3: 5d; 4: 6s; 1: 4c", "turn 4: card 4c is in the hand"),
        ("2: 3d; 3: 5d", "after the last turn it is player 4's turn"),
        ("2 3d", "--history turn 1"),
        ("2: 3d; 3: 5d 5d", "--history turn 2: '5d 5d': card '5d' is given twice"),
        ("2: 3d; x: pass", "--history turn 2: the player"),
    ],
)
def test_advise_history_contradictions_name_the_turn(history: str, names: str) -> None:
    hand = "4c 5c 6d 9h 9s Jd Qd Kd Ac 2c 2s 6h 7h"
    assert_one_error(*invoke(["big2", "advise", hand, "--history", history]), names=names)


def test_advise_history_opened_alone_under_the_online_rules() -> None:
    hand = "4c 5c 6d 9h 9s Jd Qd Kd Ac 2c 2s 6h 7h"
    args = ["big2", "advise", hand, "--rules", "online", "--history"]
    names = "turn 1: player 2: the deal's first play is 3d alone"
    assert_one_error(*invoke([*args, "2: 3d 3c; 3: pass"]), names=names)
    assert_one_error(*invoke([*args, "2: 3d; 3: 5d; 4: 4s"]), names="4s does not beat 5d")


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["4c 5c", "--history", "2: 3d; 3: 5d; 4: pass"], "2 cards, but a player is dealt 13"),
        (["4c 5c 6d", "--history", "2: 3d", "--counts", "5"], "--counts follows"),
        (["4c 5c 6d", "--history", "2: 3d", "--start"], "--start follows"),
        (["4c 5c 6d"], "--counts"),
    ],
)
def test_advise_history_and_the_options_it_replaces(args: list[str], names: str) -> None:
    assert_one_error(*invoke(["big2", "advise", *args]), names=names)


def test_advise_reads_the_turns_from_a_file(tmp_path: Path) -> None:
    hand = "4c 5c 6d 9h 9s Jd Qd Kd Ac 2c 2s 6h 7h"
    turns = tmp_path / "turns.txt"
    turns.write_text("# the first trick\n2: 3d\n3: 5d\n\n4: pass\n")
    args = ["big2", "advise", hand, "--samples", "2", "--json"]
    by_file = invoke([*args, "--history-file", str(turns)])
    assert by_file[0] == 0, by_file
    assert by_file == invoke([*args, "--history", "2: 3d; 3: 5d; 4: pass"])
    turns.write_text("2: 3d\n3: 5d\n2: pass\n")
    assert_one_error(*invoke([*args, "--history-file", str(turns)]), names="turn 3: player 2")
    turns.write_text("2: 3d\nthree: 5d\n")
    assert_one_error(*invoke([*args, "--history-file", str(turns)]), names="line 2")
