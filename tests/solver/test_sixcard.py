from __future__ import annotations

import json
import math
import random
import re
import shutil
import subprocess
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from handsolver.models.cards import InputError
from handsolver.models.sixcard import (
    Hand,
    Split,
    format_hand,
    format_split,
    hand_probability,
    hands,
    opponent_probability,
    parse_hand,
    parse_split,
    splits,
)
from handsolver.solver.cli import app
from handsolver.solver.sixcard import (
    Strategy,
    best_response,
    build_split_model,
    equilibrium,
    evaluate,
    matlab_source,
    maximin_splits,
    must_mix,
    random_strategy,
    rank_splits,
    read_table,
    scenarios_vs_hand,
    scenarios_vs_split,
    scenarios_vs_strategy,
    simulate,
    solve_split_model,
    sorted_strategy,
    strategy_from_spec,
    table_csv,
    table_json,
    tables,
)
from tests.models.test_sixcard import matlab_round

T = tables()
RANDOM = random_strategy(T)
SORTED = sorted_strategy(T)
EQUILIBRIUM = equilibrium(T).strategy
runner = CliRunner()

SEED = Path(__file__).resolve().parents[1] / "data" / "six-card-poker-puzzler.txt"


# --- independent brute force ------------------------------------------------------------------


@cache
def harness_round(a: Split, b: Split) -> Fraction:
    return Fraction(matlab_round(a, b))


def plays_of(strategy: Strategy, hand: Hand) -> list[tuple[Split, Fraction]]:
    return [(T.splits[s], p) for s, p in strategy.plays[T.hand_index[hand]]]


def brute_evaluate(me: Strategy, opp: Strategy) -> tuple[Fraction, Fraction, Fraction]:
    """Score, win and draw shares by summing over every pair of hands and splits."""
    score = win = draw = Fraction(0)
    for mine in hands():
        for theirs in hands():
            chance = hand_probability(mine) * opponent_probability(theirs, mine)
            if not chance:
                continue
            for a, p in plays_of(me, mine):
                for b, q in plays_of(opp, theirs):
                    result = harness_round(a, b)
                    score += chance * p * q * result
                    win += chance * p * q * (result == 1)
                    draw += chance * p * q * (result == Fraction(1, 2))
    return score, win, draw


def brute_split_scores(mine: Hand, opp: Strategy) -> dict[Split, Fraction]:
    """Every split of ``mine`` against ``opp`` with the opponent's hand dealt from the rest."""
    return {
        split: sum(
            (
                opponent_probability(theirs, mine) * q * harness_round(split, b)
                for theirs in hands()
                if opponent_probability(theirs, mine)
                for b, q in plays_of(opp, theirs)
            ),
            Fraction(0),
        )
        for split in splits(mine)
    }


def random_table(rng: random.Random, mixed: bool) -> Strategy:
    plays = []
    for index in range(len(T.hands)):
        options = list(T.hand_splits[index])
        if mixed and rng.random() < 0.5:
            chosen = rng.sample(options, min(len(options), 3))
            weights = {s: rng.randint(1, 5) for s in chosen}
            total = sum(weights.values())
            plays.append(tuple(sorted((s, Fraction(w, total)) for s, w in weights.items())))
        else:
            plays.append(((rng.choice(options), Fraction(1)),))
    return Strategy("table", tuple(plays))


# --- tables and strategies --------------------------------------------------------------------


def test_result_matrix_is_the_harness_scoring() -> None:
    rng = np.random.default_rng(5)
    for s, t in rng.integers(0, len(T.splits), size=(20_000, 2)).tolist():
        assert Fraction(int(T.results[s, t]), 2) == harness_round(T.splits[s], T.splits[t])
    assert (T.results + T.results.T == 2).all()


def test_random_strategy_is_the_seeds_shuffle_of_the_hand() -> None:
    for hand in hands():
        shuffles = Counter(
            (tuple(sorted(order[:3])), tuple(sorted(order[3:5])), (order[5],))
            for order in (tuple(hand[i] for i in perm) for perm in permutations(range(6)))
        )
        assert dict(plays_of(RANDOM, hand)) == {
            split: Fraction(n, 720) for split, n in shuffles.items()
        }


def test_sorted_strategy_puts_the_largest_cards_high() -> None:
    assert plays_of(SORTED, parse_hand("112234")) == [(((2, 3, 4), (1, 2), (1,)), Fraction(1))]


@pytest.mark.parametrize(
    ("me", "opp"),
    [(SORTED, RANDOM), (RANDOM, SORTED), (EQUILIBRIUM, RANDOM)],
    ids=["sorted-random", "random-sorted", "equilibrium-random"],
)
def test_exact_evaluation_matches_brute_force(me: Strategy, opp: Strategy) -> None:
    score, win, draw = brute_evaluate(me, opp)
    result = evaluate(me, opp, T)
    assert (result.score, result.win, result.draw) == (score, win, draw)
    assert result.win + result.draw + result.loss == 1


def test_known_exact_scores() -> None:
    assert evaluate(SORTED, RANDOM, T).score == Fraction(404549, 840840)
    assert best_response(T, RANDOM).score == Fraction(172047, 200200)
    assert best_response(T, SORTED).score == Fraction(103707, 112112)
    # Hands that are indifferent at equilibrium may play any of their best replies, so the
    # equilibrium's score against random depends on the LP's path; it is always above 4/5.
    assert evaluate(EQUILIBRIUM, RANDOM, T).score > Fraction(4, 5)


@pytest.mark.parametrize("spec", ["random", "sorted", "equilibrium", "best-response:random"])
def test_a_strategy_against_itself_scores_one_half(spec: str) -> None:
    strategy = strategy_from_spec(spec, T)
    result = evaluate(strategy, strategy, T)
    assert result.score == Fraction(1, 2)
    assert result.win == result.loss


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_self_play_of_any_table_is_one_half(seed: int, mixed: bool) -> None:
    table = random_table(random.Random(seed), mixed)
    assert evaluate(table, table, T).score == Fraction(1, 2)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.booleans(), st.sampled_from(["random", "sorted", "equilibrium"]))
def test_best_response_beats_every_other_table(seed: int, mixed: bool, opp_spec: str) -> None:
    opponent = strategy_from_spec(opp_spec, T)
    response = best_response(T, opponent)
    other = random_table(random.Random(seed), mixed)
    assert response.score >= evaluate(other, opponent, T).score
    assert response.score == evaluate(response.strategy, opponent, T).score
    for named in ("random", "sorted", "equilibrium", "best-response:sorted"):
        assert response.score >= evaluate(strategy_from_spec(named, T), opponent, T).score


@pytest.mark.parametrize("hand_text", ["111122", "112234", "122344", "133444", "222334"])
def test_best_response_per_hand_matches_brute_force(hand_text: str) -> None:
    mine = parse_hand(hand_text)
    brute = brute_split_scores(mine, RANDOM)
    response = best_response(T, RANDOM)
    h = T.hand_index[mine]
    ((chosen, _),) = response.strategy.plays[h]
    assert response.hand_scores[h] == max(brute.values()) == brute[T.splits[chosen]]
    ranked = rank_splits(T, mine, scenarios_vs_strategy(T, mine, RANDOM))
    assert {item.split: item.score for item in ranked} == brute


# --- single hands: forms (a), (b), (c), maximin and CP-SAT ------------------------------------


def scenarios_for(form: str, mine: Hand, rng: random.Random) -> tuple[tuple[int, Fraction], ...]:
    theirs = rng.choice([h for h in hands() if opponent_probability(h, mine)])
    opponent = rng.choice([RANDOM, SORTED])
    if form == "a":
        return scenarios_vs_split(T, rng.choice(splits(theirs)))
    if form == "b":
        return scenarios_vs_hand(T, theirs, opponent)
    return scenarios_vs_strategy(T, mine, opponent)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(hands()), st.sampled_from("abc"), st.integers(0, 10**6))
def test_cp_sat_split_equals_enumeration(mine: Hand, form: str, seed: int) -> None:
    scenarios = scenarios_for(form, mine, random.Random(seed))
    brute = {
        split: sum((p * harness_round(split, T.splits[s]) for s, p in scenarios), Fraction(0))
        for split in splits(mine)
    }
    result = solve_split_model(build_split_model(T, mine, scenarios))
    assert result.status == "OPTIMAL"
    assert result.score == max(brute.values()) == brute[result.split]
    assert rank_splits(T, mine, scenarios)[0].score == result.score


def test_cp_sat_split_against_a_mixed_equilibrium_hand() -> None:
    mine = parse_hand("111133")
    theirs = parse_hand("222334")
    scenarios = scenarios_vs_hand(T, theirs, EQUILIBRIUM)
    assert len(scenarios) == 2
    result = solve_split_model(build_split_model(T, mine, scenarios))
    assert result.score == rank_splits(T, mine, scenarios)[0].score


@pytest.mark.parametrize(("mine", "theirs"), [("112234", "133444"), ("111144", "222233")])
def test_maximin_is_the_best_worst_case(mine: str, theirs: str) -> None:
    a, b = parse_hand(mine), parse_hand(theirs)
    worst = {x: min(harness_round(x, y) for y in splits(b)) for x in splits(a)}
    ranked = maximin_splits(T, a, b)
    assert ranked[0].worst == max(worst.values())
    assert {item.split: item.worst for item in ranked} == worst


def test_known_split_form_a() -> None:
    mine = parse_hand("112234")
    theirs = ((1, 1, 3), (3, 4), (4,))
    ranked = rank_splits(T, mine, scenarios_vs_split(T, theirs))
    assert ranked[0].split == ((2, 3, 4), (1, 1), (2,)) and ranked[0].score == 1
    assert {item.split: item.score for item in ranked} == {
        split: harness_round(split, theirs) for split in splits(mine)
    }


# --- equilibrium ------------------------------------------------------------------------------


def test_equilibrium_is_certified_exactly() -> None:
    result = equilibrium(T)
    assert result.value == Fraction(1, 2)
    assert result.exploitability == Fraction(1, 2)
    assert result.lp_value == pytest.approx(0.5, abs=1e-9)
    assert all(p > 0 for plays in result.strategy.plays for _, p in plays)
    assert len(result.strategy.mixed_hands()) == 13
    assert must_mix(T, result.strategy) == (True,) * 13


def test_equilibrium_cannot_be_beaten_brute_force() -> None:
    """The opponent's best reply, hand by hand and split by split, in exact arithmetic."""
    best_reply = Fraction(0)
    for theirs in hands():
        replies = []
        for reply in splits(theirs):
            replies.append(
                sum(
                    (
                        hand_probability(mine)
                        * opponent_probability(theirs, mine)
                        * p
                        * harness_round(reply, a)
                        for mine in hands()
                        if opponent_probability(theirs, mine)
                        for a, p in plays_of(EQUILIBRIUM, mine)
                    ),
                    Fraction(0),
                )
            )
        best_reply += max(replies)
    assert best_reply == Fraction(1, 2)


# --- table files ------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_tables_round_trip(tmp_path: Path, suffix: str) -> None:
    for strategy in (EQUILIBRIUM, best_response(T, RANDOM).strategy, RANDOM):
        path = tmp_path / f"table{suffix}"
        text = json.dumps(table_json(strategy, T)) if suffix == ".json" else table_csv(strategy, T)
        path.write_text(text)
        assert read_table(path, T).plays == strategy.plays


def test_table_formats_people_write(tmp_path: Path) -> None:
    lines = [f"{format_hand(h)},{format_split(splits(h)[-1])}" for h in hands()]
    lines[0] = f"{format_hand(hands()[0])},{format_split(splits(hands()[0])[0])},0.25"
    lines.insert(1, f"{format_hand(hands()[0])},{format_split(splits(hands()[0])[1])},3/4")
    path = tmp_path / "mine.csv"
    path.write_text("\n".join(lines) + "\n")
    table = read_table(path, T)
    assert [p for _, p in table.plays[0]] == [Fraction(1, 4), Fraction(3, 4)]
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text(json.dumps({"table": table_json(table, T), "value": "x"}))
    assert read_table(wrapped, T).plays == table.plays


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"111122": "112|11|2"}', "no entry for hand 111123"),
        ("{not json", "not JSON"),
        ('{"111122": "115|11|2"}', "bad card value '5'"),
        ('{"111122": "111|22|2"}', "split '111|22|2' is not a split of this hand"),
        ('{"111122": {"112|11|2": "1/2"}}', "probabilities for hand 111122 do not sum to 1"),
        ('{"111122": {"112|11|2": "x"}}', "bad probability 'x'"),
        ('["112234"]', "expected a JSON object"),
    ],
)
def test_bad_tables_are_input_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(InputError, match=re.escape(message)):
        read_table(path, T)


# --- simulation and MATLAB export -------------------------------------------------------------


def test_simulation_of_the_harness_agrees_with_the_exact_score() -> None:
    exact = evaluate(SORTED, RANDOM, T).score
    result = simulate(T, SORTED, RANDOM, rounds=200_000, seed=3)
    assert abs(result.mean - float(exact)) < 4 * result.stderr
    assert result == simulate(T, SORTED, RANDOM, rounds=200_000, seed=3)
    assert result.stderr == pytest.approx(0.47 / math.sqrt(200_000), rel=0.05)


def test_matlab_source_is_a_complete_lookup_table() -> None:
    source = matlab_source(EQUILIBRIUM, T)
    assert source.startswith("function [high, middle, low] = humanHand(hand)\n")
    assert len(re.findall(r"^  case \d{6}$", source, re.MULTILINE)) == 68
    assert source.count("r = rand;") == 13
    first = EQUILIBRIUM.plays[T.hand_of("112234")][0][1]
    assert f"  case 112234\n    r = rand;\n    if r < {float(first)!r}\n" in source


def harness_main() -> str:
    """main.m as published in the seed, from its first line to the end of compareLow."""
    text = SEED.read_text(encoding="utf-8")
    start = text.index("function humanPerWins = main(numPlays)")
    end = text.index("Remember to use the", start)
    return text[start:end].rstrip() + "\n"


COMPUTER_RANDOM = """function [high, middle, low] = computerHand(hand)
% The random plan: shuffle the hand, deal High, Middle and Low in order.
shuffled = hand(randperm(numel(hand)));
high = shuffled(1:3);
middle = shuffled(4:5);
low = shuffled(6);
"""


@pytest.mark.skipif(shutil.which("octave-cli") is None, reason="octave-cli is not installed")
def test_exported_strategy_in_the_seed_harness_under_octave(tmp_path: Path) -> None:
    rounds = 30_000
    (tmp_path / "main.m").write_text(harness_main())
    (tmp_path / "computerHand.m").write_text(COMPUTER_RANDOM)
    exported = runner.invoke(app, ["sixcard", "export-matlab", "equilibrium"])
    assert exported.exit_code == 0, exported.output
    (tmp_path / "humanHand.m").write_text(exported.stdout)
    # main.m draws a histogram: give it gnuplot's toolkit with figures hidden.
    script = (
        "warning('off', 'all'); set(0, 'defaultfigurevisible', 'off');"
        "if any(strcmp(available_graphics_toolkits(), 'gnuplot')) graphics_toolkit('gnuplot'); end;"
        f"rand('state', 2024); s = main({rounds}); printf('RESULT %.12f\\n', s); close all;"
    )
    run = subprocess.run(
        ["octave-cli", "--no-gui", "--norc", "--quiet", "--eval", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "Your score against the computer:" in run.stdout, run.stderr
    match = re.search(r"RESULT (\S+)", run.stdout)
    assert match, run.stdout + run.stderr
    measured = float(match.group(1)) / 100
    exact = evaluate(EQUILIBRIUM, RANDOM, T)
    variance = float(exact.win + exact.draw / 4 - exact.score**2)
    assert abs(measured - float(exact.score)) < 4 * math.sqrt(variance / rounds)


# --- CLI --------------------------------------------------------------------------------------


def cli_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["sixcard", *args, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert isinstance(report, dict)
    return report


def test_cli_score() -> None:
    report = cli_json("score", "sorted", "random")
    assert report["score"] == "404549/840840"
    assert report["percent"] == pytest.approx(48.1124827553)
    assert cli_json("score", "best-response:random", "best-response:random")["score"] == "1/2"
    human = runner.invoke(app, ["sixcard", "score", "sorted", "random"])
    assert "404549/840840" in human.stdout and "48.1125" in human.stdout


def test_cli_strategy_writes_a_reusable_table(tmp_path: Path) -> None:
    out = tmp_path / "br.json"
    report = cli_json("strategy", "--vs", "random", "--out", str(out))
    assert report["score"] == "172047/200200"
    assert report["percent"] == pytest.approx(85.9375624)
    assert isinstance(report["table"], dict) and len(report["table"]) == 68
    assert cli_json("score", str(out), "random")["score"] == "172047/200200"
    csv_out = tmp_path / "br.csv"
    runner.invoke(app, ["sixcard", "strategy", "--vs", "random", "--out", str(csv_out)])
    assert cli_json("score", str(csv_out), str(out))["score"] == "1/2"


def test_cli_equilibrium(tmp_path: Path) -> None:
    out = tmp_path / "eq.csv"
    report = cli_json("equilibrium", "--out", str(out))
    assert report["value"] == "1/2"
    assert report["exploitability"] == "1/2"
    assert isinstance(report["mixed_hands"], list) and len(report["mixed_hands"]) == 13
    assert "112234" in report["mixed_hands"]
    assert report["must_mix"] == report["mixed_hands"]
    assert isinstance(report["table"], dict) and len(report["table"]) == 68
    assert cli_json("strategy", "--vs", str(out))["score"] == "1/2"
    human = runner.invoke(app, ["sixcard", "equilibrium"])
    assert "13 hands mix" in human.stdout


def test_cli_split_forms() -> None:
    known_split = cli_json("split", "112234", "--vs-split", "113|34|4")
    assert known_split["best"] == {
        "split": "234|11|2",
        "score": "1",
        "percent": 100.0,
        "win": "1",
        "draw": "0",
        "worst": "1",
        "loses_to": 0,
        "of": 1,
    }
    known_hand = cli_json("split", "1 1 2 2 3 4", "--vs-hand", "113344", "--vs", "sorted")
    assert known_hand["best"]["split"] == "234|11|2"
    assert {row["split"]: row["score"] for row in known_hand["splits"]} == {
        format_split(split): str(harness_round(split, ((3, 4, 4), (1, 3), (1,))))
        for split in splits(parse_hand("112234"))
    }
    assert "maximin" in known_hand
    worst_case = cli_json("split", "112234", "--vs-hand", "133444")
    assert worst_case["best"] == worst_case["maximin"]
    # Each split says how many of the opponent's splits beat it, not only the worst case.
    theirs = set(splits(parse_hand("133444")))
    for row in worst_case["splits"]:
        mine = parse_split(row["split"])
        assert row["of"] == len(theirs)
        assert row["loses_to"] == sum(harness_round(mine, other) == 0 for other in theirs)
    assert len({row["loses_to"] for row in worst_case["splits"]}) > 1
    only_strategy = cli_json("split", "1,1,2,2,3,4", "--vs", "random")
    assert len(only_strategy["splits"]) == 24
    by_cp_sat = cli_json("split", "112234", "--vs", "random", "--engine", "cp-sat")
    assert by_cp_sat["best"]["score"] == only_strategy["best"]["score"]
    human = runner.invoke(app, ["sixcard", "split", "112234", "--vs-hand", "133444"])
    assert "Worst-case safe:" in human.stdout


def test_cli_simulate_is_seeded() -> None:
    args = ("simulate", "sorted", "random", "--rounds", "20000", "--seed", "7")
    report = cli_json(*args)
    assert report == cli_json(*args)
    assert report["exact"] == "404549/840840"
    assert isinstance(report["z"], float) and abs(report["z"]) < 4


def test_cli_export_matlab() -> None:
    result = runner.invoke(app, ["sixcard", "export-matlab", "best-response:random"])
    assert result.exit_code == 0
    assert result.stdout.startswith("function [high, middle, low] = humanHand(hand)")
    assert "rand" not in result.stdout.split("switch key")[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", "bogus", "random"], "unknown strategy 'bogus'"),
        (["score", "missing.json", "random"], "No such file or directory"),
        (["split", "11223"], "hand '11223' has 5 cards"),
        (["split", "112235"], "bad card value '5'"),
        (["split", "112234", "--vs-split", "111|11|2"], "value 1 appears 5 times"),
        (["split", "111123", "--vs-hand", "111444"], "hold value 1 7 times"),
        (["split", "112234", "--vs-split", "344|33|4", "--vs", "random"], "give --vs-split alone"),
        (["strategy", "--vs", "best-response:nope"], "unknown strategy 'nope'"),
        (["export-matlab", "sorted2"], "unknown strategy 'sorted2'"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["sixcard", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: ") and message in line
    assert "Traceback" not in result.output


def test_simulation_running_means_are_prefix_means() -> None:
    """The running mean after n rounds is the mean of the first n: at a chunk boundary it is
    what a run of exactly n rounds (the same chunks, the same draws) ends with."""
    result = simulate(T, SORTED, RANDOM, rounds=250_000, seed=5)
    running = dict(result.running)
    marks = [100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000, 250_000]
    assert list(running) == marks
    for rounds in (100_000, 200_000):
        assert running[rounds] == pytest.approx(simulate(T, SORTED, RANDOM, rounds, 5).mean)
    assert running[250_000] == pytest.approx(result.mean)
