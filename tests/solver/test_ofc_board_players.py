"""Boards played out whole by a named player (``--opponent-play``): legal boards of the rules'
deck and streets, the same for a seed, the rollout player fouling far less than the policy,
and a study's checkpoint tied to the player.  The player of ``ofc play`` takes seconds a
board, so it plays fewer boards here than the others, and on a tenth of its playouts (the
``quick_player`` fixture)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handsolver.models.cards import JOKERS, InputError, parse_cards
from handsolver.models.ofc import MAX_JOKERS, OfcRules, is_foul
from handsolver.solver.cli import app
from handsolver.solver.ofc.opponents import BOARD_PLAYERS, board_player, sampled_boards
from handsolver.solver.ofc.studies import (
    FantasyBlock,
    NormalBlock,
    play_normal_block,
    study_boards,
)
from handsolver.solver.ofc.study_run import study_key

runner = CliRunner()
HAND14 = "Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c"
FAST = ("rollout", "policy")
"""The players quick enough for a hundred boards a test."""
RULES = {
    "pineapple": OfcRules(),
    "classic": OfcRules(variant="classic"),
    "jokers": OfcRules(jokers=MAX_JOKERS),
    "classic jokers": OfcRules(variant="classic", jokers=MAX_JOKERS),
}


@pytest.fixture
def quick_player(monkeypatch: pytest.MonkeyPatch) -> None:
    """The player of ``ofc play`` on a tenth of its default playouts and six kept actions a street,
    wherever it runs with its defaults (the board player and a replay alike): the same steps
    (the exact last street, the screen, the playouts), a tenth of the time."""
    from handsolver.solver.ofc import player

    smaller = {"FIRST_SAMPLES": 24, "FIRST_KEPT": 6, "LATER_SAMPLES": 20, "LATER_KEPT": 6}
    for name, value in smaller.items():
        assert getattr(player, name) > value
        monkeypatch.setattr(player, name, value)


@pytest.mark.usefixtures("quick_player")
@pytest.mark.parametrize("player", BOARD_PLAYERS)
@pytest.mark.parametrize("name", sorted(RULES))
def test_boards_are_complete_from_the_deck_left_and_the_top_of_it(player: str, name: str) -> None:
    rules = RULES[name]
    streets = rules.streets
    play = board_player(player, rules, Fraction(15))
    for seed in range(12 if player in FAST else 1):
        deck = list(rules.deck)
        random.Random(seed).shuffle(deck)
        before = deck[:]
        board = play(deck)
        cards = [card for row in board for card in row]
        assert [len(row) for row in board] == [5, 5, 3]
        assert len(set(cards)) == 13 and set(cards) <= set(rules.deck)
        # The cards dealt are the deck's top, street by street: 5, then the variant's streets
        # (the player's rollout opponent is dealt as many, street for street).
        dealt = streets.to_deal(0) * (1 if player in FAST else 2)
        assert deck == before[:-dealt]
        assert set(cards) <= set(before[-dealt:])
        if player in FAST:
            assert len(before[-dealt:]) - len(cards) == dealt - 13  # the discards


@pytest.mark.slow  # CI only (python -m pytest -m slow): one of the slowest checks
@pytest.mark.parametrize("player", BOARD_PLAYERS)
@pytest.mark.usefixtures("quick_player")
def test_sampled_boards_leave_my_hand_out_and_keep_to_the_seed(player: str) -> None:
    hand = parse_cards(HAND14)
    # The player of ofc play is slower still with jokers, which the test above gives it.
    rules = OfcRules(jokers=MAX_JOKERS) if player in FAST else OfcRules()
    count = 20 if player in FAST else 2
    boards = sampled_boards(hand, count, 5, rules, player=player)
    assert boards == sampled_boards(hand, count, 5, rules, player=player)
    assert boards != sampled_boards(hand, count, 6, rules, player=player)
    assert sampled_boards(hand, 1, 5, rules, player=player) == boards[:1]
    for board in boards:
        cards = {card for row in board for card in row}
        assert len(cards) == 13 and not cards & set(hand)
    if player in FAST:
        assert any(card in JOKERS for board in boards for row in board for card in row)


def test_the_players_play_the_same_deals_differently() -> None:
    hand = parse_cards(HAND14)
    rollout = sampled_boards(hand, 30, 2, OfcRules())
    assert rollout == sampled_boards(hand, 30, 2, OfcRules(), player="rollout")  # the default
    assert rollout != sampled_boards(hand, 30, 2, OfcRules(), player="policy")


def test_the_policy_plays_the_boards_it_played_before_the_switch() -> None:
    # The same shuffled decks, each played out by the policy: --opponent-play policy gives the
    # figures of the studies made when the policy was the only opponent.
    from handsolver.solver.ofc.play import Scorer, played_out

    hand = parse_cards(HAND14)
    rules = OfcRules()
    unseen = [card for card in rules.deck if card not in hand]
    rng = random.Random("ofc-opponents-3")
    expected = []
    for _ in range(10):
        deck = unseen[:]
        rng.shuffle(deck)
        expected.append(played_out(((), (), ()), deck, Scorer(rules, Fraction(12))))
    assert sampled_boards(hand, 10, 3, rules, Fraction(12), player="policy") == tuple(expected)


def fouls(player: str, rules: OfcRules, count: int = 150) -> int:
    play = board_player(player, rules)
    found = 0
    for seed in range(count):
        deck = list(rules.deck)
        random.Random(f"fouls-{seed}").shuffle(deck)
        found += is_foul(play(deck))
    return found


def test_the_rollout_player_fouls_far_less_than_the_policy() -> None:
    # On these 150 deals the policy fouls 59 boards and the rollout player 6 (Pineapple).
    rollout, policy = fouls("rollout", OfcRules()), fouls("policy", OfcRules())
    assert rollout <= 12 < 40 <= policy


@pytest.mark.usefixtures("quick_player")
def test_the_studys_boards_and_normal_hands_are_played_by_the_blocks_player() -> None:
    rules = OfcRules()
    cards = parse_cards(HAND14)
    for player in BOARD_PLAYERS:
        count = 2 if player in FAST else 1
        block = FantasyBlock(14, 0, 1, 3, rules, count, player)
        assert study_boards(cards, block, 0) == sampled_boards(
            cards, count, "study-3-14-0", rules, player=player
        )
    played = {
        player: play_normal_block(NormalBlock(0, 150, 1, Fraction(15), rules, player))
        for player in FAST
    }
    fouled = {player: sum(hand.fouled for hand in hands) for player, hands in played.items()}
    # 6 and 74 of these 150 hands; the rollout player earns fantasyland twice, the policy never.
    assert fouled["rollout"] <= 25 < 45 <= fouled["policy"]
    earned = sum(hand.fantasy_cards is not None for hand in played["rollout"])
    assert earned > sum(hand.fantasy_cards is not None for hand in played["policy"])


@pytest.mark.usefixtures("quick_player")
def test_the_searching_player_plays_as_it_would_at_a_table() -> None:
    """Each board of the ``player`` board player is the board the player of ``ofc play`` builds
    heads-up against the rollout player, street by street, the rollout board's street first:
    the same game replayed here decision by decision."""
    from handsolver.models.cards import mask_of
    from handsolver.solver.ofc.match_players import Rollout
    from handsolver.solver.ofc.play import Position, after
    from handsolver.solver.ofc.player import chosen

    rules = OfcRules()
    streets = rules.streets
    play = board_player("player", rules, Fraction(15))
    deck = list(rules.deck)
    random.Random("table").shuffle(deck)
    board = play(deck[:])
    seeded = mask_of(deck[-13:]) % (1 << 31)
    empty: tuple = ((), (), ())
    mine, theirs, discards = empty, empty, []
    top = len(deck)
    for street in range(streets.count):
        size = 5 if street == 0 else 3
        their_cards = tuple(deck[top - size : top][::-1])
        (reply,) = Rollout(rules, Fraction(0)).choose([Position(theirs, their_cards, (mine,))], [0])
        theirs = after(theirs, reply)
        my_cards = tuple(deck[top - 2 * size : top - size][::-1])
        top -= 2 * size
        position = Position(mine, my_cards, (theirs,), tuple(discards))
        action = chosen(position, rules, Fraction(15), seed=seeded + street)
        mine = after(mine, action)
        discards += [action.discard] if action.discard is not None else []
    assert board == tuple(tuple(sorted(row)) for row in mine)
    assert not is_foul(board)


def test_an_unknown_player_is_refused() -> None:
    with pytest.raises(InputError, match="'nobody'"):
        board_player("nobody", OfcRules())
    for command in (
        ["ofc", "study", "--hands", "4", "--size-hands", "0"],
        ["ofc", "fantasyland", HAND14, "--sample-opponents", "3"],
    ):
        result = runner.invoke(app, [*command, "--opponent-play", "random"])
        assert result.exit_code == 2
        assert result.output.strip().splitlines() == [
            "error: --opponent-play: 'random' is not a player of sampled boards; use rollout, "
            "policy or player"
        ]


def test_the_checkpoint_key_names_the_player(tmp_path: Path) -> None:
    keys = [study_key(0, OfcRules(), 4, 0, 0, 2, player) for player in BOARD_PLAYERS]
    assert [key["opponent_play"] for key in keys] == list(BOARD_PLAYERS)
    assert keys[0] == study_key(0, OfcRules(), 4, 0, 0, 2)  # rollout by default
    path = tmp_path / "study.jsonl"
    args = ["ofc", "study", "--hands", "4", "--size-hands", "0", "--opponents", "2", "--json"]
    first = runner.invoke(app, [*args, "--opponent-play", "policy", "--checkpoint", str(path)])
    assert first.exit_code == 0, first.output
    assert json.loads(first.output)["opponent_play"] == "policy"
    resumed = runner.invoke(app, [*args, "--checkpoint", str(path), "--resume"])
    assert resumed.exit_code == 2 and "is not for this study" in resumed.output
    again = runner.invoke(
        app, [*args, "--opponent-play", "policy", "--checkpoint", str(path), "--resume"]
    )
    assert again.exit_code == 0 and json.loads(again.output) == json.loads(first.output)
    # The switch reaches the boards: the rollout player's boards give other points.
    rollout = runner.invoke(app, args)
    assert json.loads(rollout.output)["opponent_play"] == "rollout"
    assert json.loads(rollout.output)["sizes"] != json.loads(first.output)["sizes"]
