"""The Big 2 advisor: the sampler of hidden hands against brute-force enumeration and a
chi-square test, and the advice against the position solver where nothing is hidden."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest
from typer.testing import CliRunner

from handsolver.models.big2 import SEED_RULES, Play, play_kind
from handsolver.models.cards import InputError, mask_of, parse_cards
from handsolver.solver.big2.game.positions import Position, solve_position
from handsolver.solver.big2.table.advise import AdviceSettings, advise, known_undealt
from handsolver.solver.big2.table.deal_scores import LINE_MOVES
from handsolver.solver.big2.table.sampling import (
    FULL_DECK,
    consistent_deals,
    sample_hands,
    unseen_cards,
)
from handsolver.solver.big2.table.strategies import greedy_move, shed_move
from handsolver.solver.big2.table.views import Move, Table, TableView
from handsolver.solver.cli import app
from tests.big2_lines import greedy_line_wins

runner = CliRunner()


def every_split(cards: list[int], counts: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way to hand ``cards`` out in hands of ``counts``, by plain enumeration."""
    if not counts:
        return [()]
    out = []
    for chosen in combinations(cards, counts[0]):
        rest = [card for card in cards if card not in chosen]
        out += [(mask_of(chosen), *tail) for tail in every_split(rest, counts[1:])]
    return out


@pytest.mark.parametrize(
    ("size", "counts"), [(5, (2, 1)), (6, (2, 2)), (6, (3, 3)), (7, (1, 2, 3)), (4, (4,))]
)
def test_consistent_deals_counts_every_split(size: int, counts: tuple[int, ...]) -> None:
    cards = random.Random(size).sample(range(52), size)
    assert consistent_deals(mask_of(cards), counts) == len(every_split(cards, counts))


def test_every_sampled_deal_is_consistent() -> None:
    rng = random.Random(1)
    for trial in range(200):
        players = rng.choice((2, 3, 4))
        deck = rng.sample(range(52), 52)
        hand = mask_of(deck[:13])
        played = mask_of(deck[13 : 13 + rng.randrange(0, 20)])
        unseen = unseen_cards(hand, played)
        room = unseen.bit_count()
        counts = tuple(rng.randint(1, min(13, room // 3)) for _ in range(players - 1))
        for deal in sample_hands(unseen, counts, samples=5, seed=trial):
            assert tuple(h.bit_count() for h in deal) == counts
            together = 0
            for h in deal:
                assert h & (hand | played) == 0  # no card seen
                assert h & together == 0  # no card twice
                together |= h


def test_samples_are_uniform_over_consistent_deals() -> None:
    cards = [0, 5, 9, 20, 33]
    counts = (2, 1)
    splits = every_split(cards, counts)
    draws = 6000
    found = Counter(sample_hands(mask_of(cards), counts, samples=draws, seed=11))
    assert set(found) <= set(splits)
    expected = draws / len(splits)
    chi_square = sum((found[split] - expected) ** 2 / expected for split in splits)
    # 29 degrees of freedom: above 58.3 has probability 0.001 under uniform sampling.
    assert chi_square < 58.3, chi_square


def test_one_consistent_deal_is_not_sampled() -> None:
    unseen = mask_of(parse_cards("3c 4d 9h"))
    assert sample_hands(unseen, (3,), samples=50, seed=1) == [(unseen,)]
    assert sample_hands(unseen, (0, 0), samples=50, seed=1) == [(0, 0)]


def test_bad_counts_and_cards_are_input_errors() -> None:
    hand = mask_of(parse_cards("3c 4d"))
    with pytest.raises(InputError, match="3c"):
        unseen_cards(hand, mask_of(parse_cards("3c 5h")))
    with pytest.raises(InputError, match="only 2 are"):
        consistent_deals(mask_of(parse_cards("5h 6h")), (2, 1))


def solved_verdicts(position: Position) -> dict[int, bool | None]:
    result = solve_position(position, SEED_RULES)
    return {0 if m.play is None else m.play.mask: m.forced_win for m in result.moves}


def random_position(rng: random.Random) -> tuple[Position, TableView]:
    """Two small hands, everything else played, a free lead or a play to beat."""
    deck = rng.sample(range(52), 52)
    mine, theirs = mask_of(deck[:4]), mask_of(deck[4:8])
    played = FULL_DECK & ~mine & ~theirs
    beat = by = None
    if rng.random() < 0.5:
        card = deck[rng.randrange(8, 52)]
        beat, by = Play(1 << card, play_kind(1 << card)), 1
    position = Position((mine, theirs), 0, beat, by)
    view = TableView(0, mine, (4, 4), played, (), beat, by, frozenset(), False)
    return position, view


def test_with_nothing_unseen_the_advice_is_the_solvers_verdicts() -> None:
    rng = random.Random(5)
    for _ in range(60):
        position, view = random_position(rng)
        advice = advise(view, AdviceSettings(samples=7, max_nodes=None))
        assert advice.samples == 1 and advice.consistent == 1
        verdicts = solved_verdicts(position)
        got = {0 if m.play is None else m.play.mask: m.share for m in advice.moves}
        assert got == {mask: int(won) for mask, won in verdicts.items()}
        assert all(m.exact == 1 and m.stderr == 0 for m in advice.moves)


def test_moves_come_best_first_and_the_same_for_any_workers() -> None:
    hands = tuple(mask_of(parse_cards(t)) for t in ("3d 4d 5h 9s Jc", "6c 6d Kh", "8c Ts 2h"))
    table = Table.deal(hands)
    view = table.view()
    view = TableView(0, view.hand, (5, 3, 3), 0, (), None, None, frozenset(), True)
    settings = AdviceSettings(samples=6, max_nodes=None, seed=3)
    one = advise(view, settings)
    two = advise(view, settings, workers=2)
    assert one == two
    shares = [m.share for m in one.moves]
    assert shares == sorted(shares, reverse=True)
    # At the start, every move holds the lowest card.
    assert all(m.play is not None and m.play.mask & 1 << parse_cards("3d")[0] for m in one.moves)


def test_cards_below_the_first_lead_are_never_dealt() -> None:
    # Two players: the leader's lowest card is 5c, so no opponent holds a 3, a 4 or 5d.
    hand = mask_of(parse_cards("5c 7d 9h Js Qd Kc"))
    view = TableView(0, hand, (6, 6), 0, (), None, None, frozenset(), True)
    below = known_undealt(view)
    assert below == mask_of(parse_cards("3c 3d 3h 3s 4c 4d 4h 4s 5d"))
    advice = advise(view, AdviceSettings(samples=4, max_nodes=2000))
    assert advice.consistent == comb(52 - 6 - 9, 6)


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["big2", "advise", *args])
    return result.exit_code, result.stdout, result.stderr


def test_cli_json_lists_every_move_with_its_share() -> None:
    code, out, err = invoke(
        "4d 9h 9s Ah", "--counts", "2,3", "--played", "3c 5c 5d", "--beat", "5c 5d",
        "--by", "3", "--samples", "5", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["samples"] == 5 and data["rules"]["name"] == "seed --players 3"  # two counts
    plays = [move["play"] for move in data["moves"]]
    assert sorted(map(tuple, plays)) == [(), ("9h", "9s")]
    # The command's shares are the library's advice on the same view (the shares themselves
    # are checked against an independent count in test_big2_advise_shares.py).
    view = TableView(
        0, mask_of(parse_cards("4d 9h 9s Ah")), (4, 2, 3), mask_of(parse_cards("3c 5c 5d")), (),
        Play.from_text("5c 5d"), 2, frozenset(), False,
    )  # fmt: skip
    expected = advise(view, AdviceSettings(samples=5))
    assert [(move["share"], move["exact"]) for move in data["moves"]] == [
        (float(move.share), move.exact) for move in expected.moves
    ]
    assert [move["share"] for move in data["moves"]] == [0.6, 0.4]


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (("3d 4d", "--counts", "3", "--played", "4d 5h"), "--played: card 4d is both"),
        (("3d 4d", "--counts", "13,13,13"), "--counts: the opponents' counts 13,13,13 add up"),
        (("3d 4d", "--counts", "2,x"), "'x'"),
        (("3d 4d", "--counts", "3", "--beat", "5c 6d", "--by", "2"), "5c 6d"),
        (("3d 4d", "--counts", "3", "--beat", "5c"), "--by"),
        (("3d 4d", "--counts", "3", "--beat", "4d", "--by", "2"), "4d"),
        (("3d 4d", "--counts", "3", "--start", "--played", "5c"), "--start"),
        (("3d 4d", "--counts", "3,0"), "--counts: player 3 has no cards"),
        (("3d 4d", "--counts", "3,3,3"), "--counts: the opponents' counts 3,3,3 add up"),
        (("3d 4d", "--counts", "3", "--beat", "5c", "--by", "1"), "--by 1"),
        (("3d 4d", "--counts", "3", "--beat", "5c", "--by", "2", "--passed", "3"), "--passed"),
        (("5c 6d", "--counts", "13,13,13", "--start"), "--counts: the opponents' counts 13,13"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], names: str) -> None:
    code, out, err = invoke(*args)
    assert code == 2 and out == "", (code, out, err)
    assert err.count("\n") == 1 and err.startswith("error: ") and names in err, err


def test_breaking_the_sampler_is_caught() -> None:
    """The uniformity test can fail: a sampler that always deals the same way is not uniform."""
    cards = [0, 5, 9, 20, 33]
    draws = [sample_hands(mask_of(cards), (2, 1), samples=1, seed=0)[0]] * 6000
    found = Counter(draws)
    expected = 6000 / 30
    assert sum((found[s] - expected) ** 2 / expected for s in every_split(cards, (2, 1))) > 58.3


def sampled_tables(table: Table, settings: AdviceSettings) -> list[Table]:
    """The table with the opponents' hands replaced by each deal the advisor samples for the
    seat to move (with no reading of turns)."""
    view = table.view()
    players = len(table.hands)
    opponents = [(view.seat + step) % players for step in range(1, players)]
    pool = unseen_cards(view.hand, view.played) & ~known_undealt(view)
    counts = tuple(view.counts[seat] for seat in opponents)
    tables = []
    for deal in sample_hands(pool, counts, samples=settings.samples, seed=settings.seed):
        hands = list(table.hands)
        for seat, hand in zip(opponents, deal, strict=True):
            hands[seat] = hand
        tables.append(replace(table, hands=tuple(hands)))
    return tables


def played_on(table: Table, seat: int, mine: Callable[[TableView], Move]) -> int:
    """The winner when ``seat`` plays the strategy ``mine`` and every other seat greedy."""
    while table.winner is None:
        view = table.view()
        table = table.after(mine(view) if table.to_move == seat else greedy_move(view))
    return table.winner


@pytest.mark.parametrize("players", [3, 4])
def test_unsearched_deals_are_played_out_shed_or_greedy_against_greedy(players: int) -> None:
    """With no search (and no reading of turns), a move's share is its wins over the sampled
    deals played on at the table,
    the others by greedy and the player by the shed policy or else by greedy (a win with
    either counts)."""
    rng = random.Random(players)
    for _ in range(4):
        deck = rng.sample(range(52), 52)
        table = Table.deal(tuple(mask_of(deck[s * 13 : (s + 1) * 13]) for s in range(players)))
        for _ in range(rng.randint(0, 12)):
            nxt = table.after(rng.choice(table.view().legal_moves()))
            if nxt.winner is not None:
                break
            table = nxt
        view = table.view()
        settings = AdviceSettings(
            samples=5,
            solve_cards=0,
            seed=rng.randrange(100),
            line_nodes=0,
            reading=False,
            opponents="greedy",
        )
        advice = advise(view, settings)
        wins: Counter[int] = Counter()
        for dealt in sampled_tables(table, settings):
            for move in view.legal_moves():
                wins[0 if move is None else move.mask] += any(
                    played_on(dealt.after(move), view.seat, mine) == view.seat
                    for mine in (shed_move, greedy_move)
                )
        got = {0 if m.play is None else m.play.mask: m.share for m in advice.moves}
        assert got == {mask: Fraction(won, 5) for mask, won in wins.items()}
        assert all(m.exact == 0 for m in advice.moves)


def test_four_players_hold_every_card() -> None:
    hand = mask_of(parse_cards("5c 6d 7h 8h 9h Th Jh Qh Kh Ah 2h 2s 2c"))
    view = TableView(0, hand, (13, 13, 13, 12), 0, (), None, None, frozenset(), False)
    with pytest.raises(InputError, match="13,13,12 add up to 38 cards"):
        advise(view)
    view = replace(view, counts=(13, 13, 13, 13), start=True)
    with pytest.raises(InputError, match="3d, the lowest card"):
        advise(view)


def test_line_search_wins_where_some_line_of_the_player_does() -> None:
    """With the line search unbounded, a move scores 1 in a sampled deal exactly where some
    line of the player's own goes out first against greedy (a brute force at the table), in
    positions small enough to try every line and with no more moves than are searched."""
    rng = random.Random(8)
    checked = 0
    while checked < 12:
        players = rng.choice([2, 3])
        deck = rng.sample(range(52), 52)
        size = rng.randint(3, 5)
        table = Table.deal(tuple(mask_of(deck[s * size : (s + 1) * size]) for s in range(players)))
        for _ in range(rng.randint(1, 3)):
            nxt = table.after(rng.choice(table.view().legal_moves()))
            if nxt.winner is not None:
                break
            table = nxt
        view = table.view()
        if table.winner is not None or len(view.legal_moves()) > LINE_MOVES:
            continue
        settings = AdviceSettings(
            samples=3,
            solve_cards=0,
            seed=checked,
            line_nodes=10**6,
            reading=False,
            opponents="greedy",
        )
        advice = advise(view, settings)
        wins: Counter[int] = Counter()
        for dealt in sampled_tables(table, settings):
            for move in view.legal_moves():
                wins[0 if move is None else move.mask] += greedy_line_wins(
                    dealt.after(move), view.seat
                )
        got = {0 if m.play is None else m.play.mask: m.share for m in advice.moves}
        assert got == {mask: Fraction(won, advice.samples) for mask, won in wins.items()}
        checked += 1
