"""Big 2 tournaments: every game replays legally under an independent referee written here,
the seats rotate so that every strategy plays every seat, and the answer is the same bytes for
any number of workers."""

from __future__ import annotations

import json
import random
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handsolver.models.big2 import SEED_RULES, Rules, legal_plays, make_rules, play_kind
from handsolver.models.big2_order import beats, play_strength
from handsolver.models.cards import cards_of, mask_of
from handsolver.solver.big2.fewest import fewest_plays
from handsolver.solver.big2.table.strategies import fewest_move, greedy_move, strategy_from_spec
from handsolver.solver.big2.table.tournament import play_tournament
from handsolver.solver.big2.table.tournament_games import GameRecord
from handsolver.solver.big2.table.views import TableView, deal_score
from handsolver.solver.cli import app
from tests.big2_minimax import beats as minimax_beats

runner = CliRunner()


def big2_key(card: int, rules: Rules) -> int:
    """The card's order, written apart from the models: ranks 3 .. A 2, then the suit order."""
    rank = ((card >> 2) + 12) % 13  # poker rank 1 (the three) -> 0, poker rank 0 (the two) -> 12
    suit = "cdhs"[card & 3]
    return rank * 4 + (3 - rules.suit_order.index(suit))


def referee(game: GameRecord, rules: Rules) -> None:
    """Replay ``game`` by the rules of play, asserting every step."""
    hands = list(game.hands)
    players = len(hands)
    lowest = min(
        (card for hand in hands for card in cards_of(hand)), key=lambda c: big2_key(c, rules)
    )
    seat = next(s for s, hand in enumerate(hands) if hand >> lowest & 1)
    target = None  # (mask, seat) of the play to beat
    passed: set[int] = set()
    for number, (mover, move) in enumerate(game.turns):
        assert mover == seat, (number, mover, seat)
        if move is None:
            assert target is not None, "a pass on a free lead"
            if rules.pass_final:
                passed.add(seat)
        else:
            assert move.mask & hands[seat] == move.mask, "a card not in the hand"
            assert play_kind(move.mask, rules) is move.kind
            if number == 0:
                assert move.mask >> lowest & 1, "the first play must hold the lowest card"
                if rules.open_alone:
                    assert move.mask == 1 << lowest, "the first play is the lowest card alone"
            if target is not None:
                target_play = target[0]
                if move.kind.size == 1 and target_play.kind.size == 1:
                    mine, theirs = cards_of(move.mask)[0], cards_of(target_play.mask)[0]
                    assert big2_key(mine, rules) > big2_key(theirs, rules)
                else:
                    # The tests' own order of plays (tests/big2_minimax.py).
                    mine_set = frozenset(cards_of(move.mask))
                    assert minimax_beats(mine_set, frozenset(cards_of(target_play.mask)), rules)
                    assert beats(move, target_play, rules)
            hands[seat] ^= move.mask
            if not hands[seat]:
                assert number == len(game.turns) - 1, "play went on after a seat went out"
                break
            target = (move, seat)
        nxt = (seat + 1) % players
        while nxt in passed:
            nxt = (nxt + 1) % players
        if target is not None and nxt == target[1]:
            target, passed = None, set()
        seat = nxt
    assert tuple(hand.bit_count() for hand in hands) == game.cards_left
    assert game.cards_left.count(0) == 1


@pytest.mark.parametrize(
    ("names", "rules"),
    [
        (("random", "random"), SEED_RULES),
        (("greedy", "random", "fewest"), SEED_RULES),
        (("random", "greedy", "random", "fewest"), SEED_RULES),
        (("random", "random", "random", "greedy"), make_rules("seed", pass_final=True)),
        (("random", "random", "random"), make_rules("taiwan", players=3)),
        (("random", "fewest"), make_rules("hk", bombs=True, pass_final=True)),
        (("shed", "greedy", "random", "learned"), make_rules("online")),
        (("random", "fewest", "random"), make_rules("online", bombs=True, quads="alone")),
    ],
)
def test_games_replay_legally_and_seats_rotate(names: tuple[str, ...], rules: Rules) -> None:
    strategies = [strategy_from_spec(name) for name in names]
    result = play_tournament(strategies, 6, seed=3, rules=rules)
    assert len(result.games) == 6 * len(names)
    for game in result.games:
        referee(game, rules)
    for deal in range(6):
        games = [game for game in result.games if game.deal == deal]
        assert len({game.hands for game in games}) == 1  # the same deal in every rotation
        for index in range(len(names)):
            assert {game.seats.index(index) for game in games} == set(range(len(names)))


def test_referee_catches_an_illegal_game() -> None:
    result = play_tournament([strategy_from_spec("greedy")] * 2, 1, seed=1)
    game = result.games[0]
    turns = (game.turns[1], game.turns[0], *game.turns[2:])
    swapped = GameRecord(game.deal, game.rotation, game.seats, game.hands, turns, game.cards_left)
    with pytest.raises(AssertionError):
        referee(swapped, SEED_RULES)


def test_scores_and_summaries_add_up() -> None:
    assert [deal_score(c) for c in (1, 9, 10, 12, 13, 17)] == [1, 9, 20, 24, 39, 51]
    strategies = [strategy_from_spec(name) for name in ("greedy", "random", "random")]
    result = play_tournament(strategies, 8, seed=2)
    for game in result.games:
        assert sum(game.scores()) == 0
    by_name = {item.strategy: item for item in result.strategies}
    assert set(by_name) == {"greedy", "random"}
    assert by_name["greedy"].games == 24 and by_name["random"].games == 48
    assert by_name["greedy"].wins + by_name["random"].wins == 24
    wins = sum(game.seats[game.winner] == 0 for game in result.games)
    assert by_name["greedy"].win_rate == Fraction(wins, 24)
    assert by_name["greedy"].interval is None  # too few deals (8) for the normal approximation
    assert sum(item.mean_score * item.games for item in result.strategies) == 0


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["big2", "tournament", *args])
    return result.exit_code, result.stdout, result.stderr


def test_same_bytes_with_one_and_two_workers() -> None:
    args = ("--strategies", "greedy,random,fewest", "--deals", "6", "--seed", "4", "--json")
    one = invoke(*args)
    two = invoke(*args, "--workers", "2")
    assert one[0] == 0, one
    assert one == two
    data = json.loads(one[1])
    assert data["deals"] == 6
    assert [item["strategy"] for item in data["strategies"]] == ["greedy", "random", "fewest"]
    assert set(data["strategies"][0]) == {
        "strategy", "wins", "deals", "win_rate", "interval", "mean_cards_left", "mean_score",
    }  # fmt: skip


def test_advise_and_shed_give_the_same_bytes_with_one_and_two_workers() -> None:
    args = ("--strategies", "advise,shed,greedy", "--deals", "2", "--seed", "5", "--samples", "3")
    one = invoke(*args, "--json")
    assert one[0] == 0, one
    assert one == invoke(*args, "--json", "--workers", "2")
    data = json.loads(one[1])
    assert [item["strategy"] for item in data["strategies"]] == ["advise", "shed", "greedy"]


def test_advise_plays_in_a_tournament() -> None:
    code, out, err = invoke(
        "--strategies", "advise,random", "--deals", "2", "--samples", "2", "--json"
    )
    assert code == 0, err
    assert json.loads(out)["strategies"][0]["deals"] == 4


def test_a_program_strategy_runs_in_the_sandbox(tmp_path: Path) -> None:
    program = tmp_path / "first.py"
    program.write_text(
        "import json, sys\nfor line in sys.stdin:\n    print(json.loads(line)['moves'][0])\n"
    )
    spec = f"program:{sys.executable} {program}"
    code, out, err = invoke("--strategies", f"{spec},random", "--deals", "3", "--json")
    assert code == 0, err
    assert json.loads(out)["strategies"][0]["strategy"] == spec


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (("--strategies", "greedy"), "2, 3 or 4"),
        (("--strategies", "greedy,grredy"), "'grredy'"),
        (("--strategies", "greedy,,random"), "empty"),
        (("--strategies", f"greedy,program:{sys.executable} -c 'print(1)'"), "printed 1 moves"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], names: str) -> None:
    code, out, err = invoke(*args, "--deals", "2")
    assert code == 2 and out == "", (code, out, err)
    assert err.count("\n") == 1 and err.startswith("error: ") and names in err, err


def random_views(count: int) -> list[TableView]:
    """Views of random hands, half of them facing a play to beat."""
    rng = random.Random(8)
    views = []
    for _ in range(count):
        deck = rng.sample(range(52), 52)
        hand = mask_of(deck[: rng.randint(1, 13)])
        target = None
        if rng.random() < 0.5:
            plays = legal_plays(mask_of(deck[13:26]))
            target = rng.choice(plays)
        views.append(TableView(0, hand, (hand.bit_count(), 13), 0, (), target,
                               None if target is None else 1, frozenset(), False))  # fmt: skip
    return views


def test_greedy_is_the_lowest_reply_or_the_largest_lowest_lead() -> None:
    for view in random_views(150):
        move = greedy_move(view)
        plays = legal_plays(view.hand)
        if view.beat is not None:
            replies = [play for play in plays if beats(play, view.beat)]
            if not replies:
                assert move is None
                continue
            assert move is not None and beats(move, view.beat)
            assert play_strength(move) == min(play_strength(play) for play in replies)
        else:
            assert move is not None
            size = max(play.kind.size for play in plays)
            same = [play for play in plays if play.kind.size == size]
            assert move.kind.size == size
            assert play_strength(move) == min(play_strength(play) for play in same)


def test_fewest_keeps_to_a_fewest_partition() -> None:
    for view in random_views(150):
        move = fewest_move(view)
        need = fewest_plays(view.hand).count
        if move is None:
            assert view.beat is not None
            assert all(
                fewest_plays(view.hand ^ play.mask).count >= need
                for play in legal_plays(view.hand)
                if beats(play, view.beat)
            )
        else:
            assert fewest_plays(view.hand ^ move.mask).count == need - 1
