"""Chinese poker solver: exact scores against a slow reference, greedy, sampling, CP-SAT, CLI."""

from __future__ import annotations

import json
import random
import sys
from fractions import Fraction
from math import sqrt
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from handsolver.models.cards import InputError, parse_cards
from handsolver.models.chinese import chinese_game, front_key, parse_royalties
from handsolver.models.poker import poker_key
from handsolver.models.split import Setting
from handsolver.solver.chinese import known_scenarios, rank_settings, score_settings
from handsolver.solver.chinese.indexing import (
    Keys,
    hand_keys,
    layout,
    setting_cards,
    setting_index,
    setting_of_text,
)
from handsolver.solver.chinese.strategies import (
    Context,
    Greedy,
    Program,
    SampledScenarios,
    deal_opponents,
    dealt_blocks,
    sampled_scenarios,
    strategy_from_spec,
)
from handsolver.solver.chinese.studies import study_hand, study_jobs, summarize
from handsolver.solver.cli import app
from tests.clusters import local_cluster

ROYALTIES = parse_royalties(
    '{"back": {"four of a kind": 4, "straight flush": 5}, "middle": {"full house": 2}, '
    '"front": {"pair 6": 1, "pair A": 9, "three of a kind": 10}}'
)
HAND = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7d"
KNOWN = "Ah Ad 3c | Kh Kd 4c 4d 8s | 8c 8d 8h Jc Jd"


def points(scoring: str, royalties: object, mine: Setting, theirs: Setting) -> int:
    """The slow reference: the engine's score plus royalties, setting by setting."""
    game = chinese_game(scoring)
    value: int = game.score(mine, theirs)
    if royalties is not None:
        assert royalties is ROYALTIES
        if not game.is_foul(mine):
            value += ROYALTIES.of_setting(mine)
        if not game.is_foul(theirs):
            value -= ROYALTIES.of_setting(theirs)
    return value


def one_keys(hand: tuple[int, ...]) -> Keys:
    keys = hand_keys(np.array([sorted(hand)]))
    return Keys(keys.five[0], keys.front[0], keys.front_order[0])


def test_layout_lists_every_setting_of_the_engine_once() -> None:
    hand = tuple(sorted(random.Random(1).sample(range(52), 13)))
    ours = {tuple(tuple(sorted(part)) for part in setting_cards(hand, i)) for i in range(72072)}
    engine = {tuple(tuple(sorted(p)) for p in s) for s in chinese_game().settings(hand)}
    assert ours == engine and len(ours) == 72072
    tables = layout()
    assert (tables.index_of[tables.back, tables.middle] == np.arange(72072)).all()


@pytest.mark.parametrize(
    ("seed", "scoring", "royalties"), [(1, "1-6", None), (2, "2-4", ROYALTIES)]
)
def test_exact_points_against_known_settings_equal_the_slow_reference(
    seed: int, scoring: str, royalties: object
) -> None:
    rng = random.Random(seed)
    deck = rng.sample(range(52), 52)
    hand = tuple(sorted(deck[:13]))
    game = chinese_game(scoring)
    theirs = []
    for k in range(3):  # a legal setting per opponent, and one fouled
        settings = game.settings(sorted(deck[13 * (k + 1) : 13 * (k + 2)]))
        pick = [s for s in settings[:: 1 + k * 101] if game.is_foul(s) == (k == 2)]
        theirs.append(rng.choice(pick))
    table = ROYALTIES if royalties else None
    ranking = rank_settings(hand, known_scenarios(theirs, table), scoring, table)
    legal = game.legal_settings(hand)
    assert ranking.legal == len(legal)
    expected = {
        tuple(map(frozenset, s)): sum(points(scoring, royalties, s, t) for t in theirs)
        for s in legal
    }
    got = {
        tuple(map(frozenset, setting_cards(hand, int(i)))): int(total)
        for i, total in zip(ranking.order, ranking.totals, strict=True)
    }
    assert got == expected
    assert list(ranking.totals) == sorted(ranking.totals, reverse=True)


def test_royalties_at_the_bound_are_exact_over_many_deals() -> None:
    """Issue 22: the largest royalties allowed, over 3 opponents and thousands of sampled deals,
    give exactly the sums Python's unbounded integers give (no 64- or 32-bit overflow)."""
    big = parse_royalties(
        '{"back": {"high card": -1000000, "pair": 1000000, "straight": 999999}, '
        '"middle": {"high card": 1000000, "pair": -1000000}, '
        '"front": {"high card": -1000000, "pair": 1000000, "three of a kind": 1000000}}'
    )
    hand = tuple(sorted(parse_cards(HAND)))
    context = Context(3, "1-6", big, seed=4)
    scenarios = sampled_scenarios(hand, Greedy(), 3000, context)
    game = chinese_game()
    picks = np.arange(0, 72072, 4001)
    scores = score_settings(one_keys(hand), scenarios, picks, "1-6", big)
    for index, total in zip(picks.tolist(), scores.totals.tolist(), strict=True):
        mine = setting_cards(hand, index)
        royalty = 0 if game.is_foul(mine) else big.of_setting(mine)
        expected = 0
        for deal in range(scenarios.deals):
            for seat in range(3):
                theirs = int(scenarios.royalty[deal, seat])
                standing = scenarios.back[deal, seat] != -1
                if game.is_foul(mine):
                    expected -= (6 if standing else 0) + theirs
                    continue
                if not standing:
                    expected += 6 + royalty
                    continue
                keys = (scenarios.back[deal, seat], scenarios.middle[deal, seat])
                rows = (poker_key(mine[0]), poker_key(mine[1]))
                outcomes = [int(np.sign(a - b)) for a, b in zip(rows, keys, strict=True)]
                front = front_key(mine[2])
                outcomes.append(int(np.sign(front - scenarios.front[deal, seat])))
                total_rows = sum(outcomes)
                expected += 2 * total_rows if abs(total_rows) == 3 else total_rows
                expected += royalty - theirs
        assert total == expected, index
    assert abs(max(scores.totals.tolist(), key=abs)) > 2**31  # the sums do pass 32 bits


def test_fouled_settings_are_scooped_and_pay_royalties() -> None:
    rng = random.Random(5)
    deck = rng.sample(range(52), 52)
    hand = tuple(sorted(deck[:13]))
    game = chinese_game()
    their = next(s for s in game.settings(sorted(deck[13:26]))[::7] if not game.is_foul(s))
    picks = np.arange(0, 72072, 997)
    scores = score_settings(
        one_keys(hand), known_scenarios([their], ROYALTIES), picks, "1-6", ROYALTIES
    )
    for index, total in zip(picks.tolist(), scores.totals.tolist(), strict=True):
        assert total == points("1-6", ROYALTIES, setting_cards(hand, index), their)


def test_greedy_is_the_lexicographically_strongest_legal_setting() -> None:
    rng = random.Random(8)
    hands = [tuple(sorted(rng.sample(range(52), 13))) for _ in range(3)]
    chosen = Greedy().choose(np.array(hands), Context())
    game = chinese_game()
    for hand, index in zip(hands, chosen.tolist(), strict=True):
        from handsolver.models.chinese import front_key

        best = max((poker_key(b), poker_key(m), front_key(f)) for b, m, f in game.settings(hand))
        back, middle, front = setting_cards(hand, index)
        assert (poker_key(back), poker_key(middle), front_key(front)) == best
        assert not game.is_foul((back, middle, front))


def test_sampled_deals_read_part_by_part_are_the_same_deals() -> None:
    """Issue 22: deals are dealt, set and scored a block at a time; the parts are exactly the
    deals of the arrays (the same random numbers in the same order), and so are the scores."""
    hand = tuple(sorted(parse_cards(HAND)))
    blocks = list(dealt_blocks(hand, 2, 2500, seed=11, block=1000))
    assert [len(b) for b in blocks] == [2000, 2000, 1000]
    assert (np.concatenate(blocks) == deal_opponents(hand, 2, 2500, seed=11)).all()
    lazy = SampledScenarios(hand, Greedy(), 2500, Context(opponents=2, seed=3))
    whole = lazy.arrays()
    parts = list(lazy.parts(700))
    assert [part.deals for part in parts] == [700, 700, 700, 400]
    for name in ("back", "middle", "front", "royalty"):
        joined = np.concatenate([getattr(part, name) for part in parts])
        assert (joined == getattr(whole, name)).all(), name
    streamed, held = rank_settings(hand, lazy), rank_settings(hand, whole)
    assert (streamed.order == held.order).all() and (streamed.totals == held.totals).all()
    assert (streamed.stderr == held.stderr).all()


class FirstSetting:
    """A strategy that costs nothing: every hand plays setting 0 (fouled or not)."""

    name = "first"

    def choose(self, hands: object, context: Context) -> np.ndarray:
        return np.zeros(len(np.asarray(hands)), dtype=np.intp)


@pytest.mark.slow  # CI only (python -m pytest -m slow): one of the slowest checks
def test_memory_does_not_grow_with_the_sampled_deals() -> None:
    """``--samples 10000000`` used 6 GB: the deals are never all held, so ten times the deals
    take about the memory of one time (numpy's buffers are traced by tracemalloc)."""
    import tracemalloc

    hand = tuple(sorted(parse_cards(HAND)))

    def peak(deals: int) -> int:
        tracemalloc.start()
        try:
            rank_settings(hand, SampledScenarios(hand, FirstSetting(), deals, Context()))
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    peak(1000)  # the tables every hand shares, built once
    small, large = peak(50_000), peak(200_000)
    # Dealt at once, 200,000 deals took 90 MB more than 50,000 (half as much again); part by
    # part only the batch layout differs (at most 256 batches either way).
    assert large < 1.1 * small, (small, large)


def test_sampled_results_are_reproducible_and_the_stderr_is_the_batch_formula() -> None:
    hand = tuple(sorted(parse_cards(HAND)))
    context = Context(opponents=2, seed=9)
    first = sampled_scenarios(hand, Greedy(), 300, context)
    again = sampled_scenarios(hand, Greedy(), 300, context)
    other = sampled_scenarios(hand, Greedy(), 300, Context(opponents=2, seed=10))
    assert (first.back == again.back).all() and (first.front == again.front).all()
    assert not (first.back == other.back).all()
    ranking = rank_settings(hand, first)
    assert ranking.sampled and ranking.stderr is not None
    # Per-deal points by the slow reference for the best setting: mean and batch stderr.
    dealt = deal_opponents(hand, 2, 300, int(np.random.SeedSequence(9).generate_state(2)[0]))
    chosen = Greedy().choose(dealt, context)
    best = setting_cards(hand, int(ranking.order[0]))
    per_deal = [
        sum(
            points(
                "1-6", None, best, setting_cards(tuple(dealt[2 * d + o]), int(chosen[2 * d + o]))
            )
            for o in range(2)
        )
        for d in range(300)
    ]
    assert ranking.best.points == Fraction(sum(per_deal), 300)
    per_batch = 2  # 300 deals -> batches of ceil(300 / 256) = 2 deals (one 64-bit word each)
    sums = [sum(per_deal[i : i + per_batch]) for i in range(0, 300, per_batch)]
    mean = sum(per_deal) / 300
    spread = sum((s - mean * per_batch) ** 2 / per_batch for s in sums) / (len(sums) - 1)
    assert ranking.best.stderr == pytest.approx(sqrt(spread / 300))


def test_best_response_beats_or_ties_greedy_on_its_own_deals() -> None:
    hand = tuple(sorted(parse_cards(HAND)))
    context = Context(seed=4)
    scenarios = sampled_scenarios(hand, Greedy(), 100, context)
    ranking = rank_settings(hand, scenarios)
    greedy = int(Greedy().choose([hand], context)[0])
    place = int(np.flatnonzero(ranking.order == greedy)[0])
    assert ranking.totals[0] >= ranking.totals[place]
    chosen = strategy_from_spec("best-response:greedy", 50).choose([hand], context)
    assert 0 <= int(chosen[0]) < 72072


@pytest.mark.parametrize(
    ("seed", "scoring", "royalties"), [(21, "1-6", None), (22, "2-4", ROYALTIES)]
)
def test_cp_sat_finds_a_setting_worth_what_enumeration_finds(
    seed: int, scoring: str, royalties: object
) -> None:
    from handsolver.solver.chinese.cpsat import solve_setting_model

    table = ROYALTIES if royalties else None
    hand = tuple(sorted(random.Random(seed).sample(range(52), 13)))
    context = Context(opponents=2, scoring=scoring, royalties=table, seed=seed)
    scenarios = sampled_scenarios(hand, Greedy(), 10, context)
    ranking = rank_settings(hand, scenarios, scoring, table)
    solved = solve_setting_model(hand, scenarios, scoring, table, workers=2)
    assert solved.status == "OPTIMAL"
    assert solved.total == int(ranking.totals[0])
    index = setting_index(hand, solved.setting)
    scores = score_settings(one_keys(hand), scenarios, np.array([index]), scoring, table)
    assert int(scores.totals[0]) == solved.total


def test_setting_index_rejects_what_is_not_a_partition() -> None:
    hand = tuple(parse_cards(HAND))
    assert setting_cards(
        hand, setting_index(hand, setting_of_text("2h 2d 5c|6c 7d 9h 9d 9c|As Ks Qs Js Ts"))
    )
    with pytest.raises(InputError, match="not a partition"):
        setting_index(hand, setting_of_text("2h 2d 4c|6c 7d 9h 9d 9c|As Ks Qs Js Ts"))


PROGRAM = """
import sys
for line in sys.stdin:
    cards = line.split()
    order = sorted(cards, key=lambda c: "23456789TJQKA".index(c[0].upper()))
    print(" ".join(order[:3]), "|", " ".join(order[3:8]), "|", " ".join(order[8:]))
"""


def test_a_program_strategy_sets_hands_and_bad_answers_are_named(tmp_path: Path) -> None:
    script = tmp_path / "by_rank.py"
    script.write_text(PROGRAM)
    hands = [tuple(sorted(random.Random(s).sample(range(52), 13))) for s in range(3)]
    program = Program(f"{sys.executable} {script}")
    chosen = program.choose(np.array(hands), Context())
    for hand, index in zip(hands, chosen.tolist(), strict=True):
        back, middle, front = setting_cards(hand, index)
        ranks = sorted(hand, key=lambda c: c // 4)
        assert sorted(c // 4 for c in front) == [c // 4 for c in ranks[:3]]
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    print('As Ks Qs | 2c 3c 4c 5c 6c | 7c 8c 9c Tc Jc')\n"
    )
    with pytest.raises(InputError, match="answered 'As Ks Qs"):
        Program(f"{sys.executable} {bad}").choose(np.array(hands), Context())
    short = tmp_path / "short.py"
    short.write_text("print('x')\n")
    with pytest.raises(InputError, match="printed 1 settings for 3 hands"):
        Program(f"{sys.executable} {short}").choose(np.array(hands), Context())


def test_study_is_reproducible_and_the_same_on_workers() -> None:
    jobs = study_jobs(3, "greedy", samples=40, seed=5)
    here = [study_hand(job) for job in jobs]
    from handsolver.solver.batch import run_batch

    spread = list(run_batch(study_hand, jobs, workers=2))
    assert here == spread
    result = summarize(here, 40)
    assert result.hands == 3 and result.mean_gain == pytest.approx(np.mean([h.gain for h in here]))


def test_study_on_a_local_dask_cluster() -> None:
    """Fails on the chinese branch alone (run_batch has no scheduler there); passes after the
    merge that adds Dask behind --scheduler."""
    with local_cluster() as address:
        result = CliRunner().invoke(
            app,
            [
                "chinese",
                "study",
                "--hands",
                "2",
                "--samples",
                "20",
                "--seed",
                "3",
                "--json",
                "--scheduler",
                address,
            ],
        )
    local = CliRunner().invoke(
        app, ["chinese", "study", "--hands", "2", "--samples", "20", "--seed", "3", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == json.loads(local.stdout)


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["chinese", *args])
    return result.exit_code, result.stdout, result.stderr


def test_cli_settings_json_contract() -> None:
    # Every legal setting with --all; the best 10, as in the table, by default (issue 19).
    code, out, _ = run("settings", HAND, "--vs-setting", KNOWN, "--json", "--all")
    assert code == 0
    payload = json.loads(out)
    assert payload["hand"][0] == "As" and payload["legal"] == 20678
    assert len(payload["settings"]) == 20678
    code, out, _ = run("settings", HAND, "--vs-setting", KNOWN, "--json")
    assert json.loads(out)["settings"] == payload["settings"][:10]
    best = payload["settings"][0]
    assert set(best) == {"front", "middle", "back", "points"}
    assert best["points"] == "1" and best["back"] == ["As", "Ks", "Qs", "Js", "Ts"]
    code, out, _ = run("settings", HAND, "--vs-setting", KNOWN, "--json", "--top", "3")
    assert len(json.loads(out)["settings"]) == 3


def test_cli_sampled_settings_say_it_is_a_sample_and_repeat_with_the_seed() -> None:
    args = ("settings", HAND, "--vs", "greedy", "--samples", "200", "--seed", "7", "--top", "2")
    code, out, _ = run(*args, "--json")
    assert code == 0
    payload = json.loads(out)
    assert payload["sampled"] and "a sample" in payload["against"][0]
    assert {"points", "stderr"} <= set(payload["settings"][0])
    assert run(*args, "--json")[1] == out
    code, table, _ = run(*args)
    assert code == 0 and "±" in table and "a sample" in table


def test_cli_vs_hand_with_greedy_and_cp_sat() -> None:
    their = "Ah Ad Kh Kd 4c 4d 8s 8c 8d 8h Jc Jd 3c"
    code, out, _ = run(
        "settings", HAND, "--vs-hand", their, "--vs", "greedy", "--json", "--top", "1"
    )
    assert code == 0
    payload = json.loads(out)
    assert "greedy" in payload["against"][0]
    code, out, _ = run(
        "settings", HAND, "--vs-hand", their, "--vs", "greedy", "--engine", "cp-sat", "--json"
    )
    assert code == 0
    solved = json.loads(out)
    assert (
        solved["same_as_enumeration"]
        and solved["settings"][0]["points"] == payload["settings"][0]["points"]
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("settings", "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c", "--vs-setting", KNOWN),
            "has 12 cards",
        ),
        (("settings", HAND + " 8h", "--vs-setting", KNOWN), "has 14 cards"),
        (("settings", HAND, "--vs-setting", "Ah Ad 3c | Kh Kd 4c 4d 8s | 8c 8d 8h Jc As"), "'As'"),
        (
            ("settings", HAND, "--vs-setting", "Ah Ad 3c 3d | Kh Kd 4c 4d | 8c 8d 8h Jc Jd"),
            "rows of",
        ),
        (("settings", HAND, "--vs-setting", "Ah Ad 3c | Kh Kd 4c 4d 8s | 8c 8d 8h Jc Jx"), "'x'"),
        (("settings", HAND, "--vs-setting", "Ah Ad 3c | Kh Kd 4c 4d 8s | 8c 8d 8h Jc Ah"), "'Ah'"),
        (
            (
                "settings",
                HAND,
                "--vs-hand",
                "As Ad Kh Kd 4c 4d 8s 8c 8d 8h Jc Jd 3c",
                "--vs",
                "greedy",
            ),
            "'As'",
        ),
        (
            (
                "settings",
                HAND,
                "--vs",
                "program:" + sys.executable + " -c 'print(1)'",
                "--samples",
                "2",
            ),
            "printed 1 settings for 2 hands",
        ),
        (("settings", HAND, "--vs-setting", KNOWN, "--scoring", "3-3"), "'3-3'"),
        (("settings", HAND, "--vs", "random", "--samples", "5"), "'random'"),
        (("settings", HAND), "say what the opponents play"),
        (("settings", HAND, "--vs-hand", "Ah Ad Kh Kd 4c 4d 8s 8c 8d 8h Jc Jd 3c"), "needs --vs"),
        (("settings", HAND, "--vs-setting", KNOWN, "--royalties", "/nonexistent/r.json"), "r.json"),
        (("study", "--vs", "bogus", "--hands", "1"), "'bogus'"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err


def test_cli_study_json() -> None:
    code, out, _ = run("study", "--hands", "2", "--samples", "30", "--seed", "1", "--json")
    assert code == 0
    payload = json.loads(out)
    assert payload["hands"] == 2 and "stderr" in payload and payload["biggest_gains"]


def test_best_response_nesting_is_bounded() -> None:
    assert strategy_from_spec("best-response:" * 3 + "greedy").name.count("best-response") == 3
    with pytest.raises(InputError, match="nested more than 3 deep"):
        strategy_from_spec("best-response:" * 1500 + "greedy")
