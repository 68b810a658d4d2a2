from __future__ import annotations

import dataclasses
import json
import math
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations, combinations_with_replacement
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from handsolver.models.paigow import (
    JOKER,
    Rules,
    high_key,
    house_way,
    legal_settings,
    low_key,
    paigow_game,
    parse_hand,
)
from handsolver.models.paigow_houseway import DEALER_GUIDE, FOXWOODS, TRUMP_PLAZA, HouseWay
from handsolver.solver.cli import app
from handsolver.solver.paigow import (
    HIGH_POSITIONS,
    LOW_POSITIONS,
    StudyJob,
    dealer_histogram,
    house_way_batch,
    random_hands,
    sampled_value,
    setting_values,
    study,
    study_hand,
    tables,
    values_vs_dealer,
    values_vs_setting,
)
from handsolver.solver.paigow.keys import (
    class_index,
    high_keys,
    multiset_index,
    rank_codes,
    setting_keys,
)
from handsolver.solver.paigow.rank_tables import way_tables
from tests.clusters import local_cluster
from tests.models.test_paigow import CASES

runner = CliRunner()
RULE_SETS = [Rules(), Rules(wheel_second=False, five_aces_top=False, commission=Fraction(0))]


def flushy_hands(rng: random.Random, count: int) -> list[tuple[int, ...]]:
    """Hands with four to seven cards of one suit, the joker often: the flush paths."""
    hands = []
    for _ in range(count):
        suit = rng.randrange(4)
        suited = rng.sample([rank * 4 + suit for rank in range(13)], rng.choice([4, 5, 5, 6, 7]))
        rest = [card for card in range(53) if card not in suited]
        extra = rng.sample(rest, 7 - len(suited))
        if rng.random() < 0.4 and JOKER not in extra and len(suited) < 7:
            extra[0] = JOKER
        hands.append(tuple(suited + extra))
    return hands


# --- the fast house way against the scalar reference ---------------------------------------


# Foxwoods read the other way where a pair meets a straight or flush (docs/paigow.md).
FOXWOODS_BY_CARDS = dataclasses.replace(FOXWOODS, name="by-cards", pair_straight_by_cards=True)


@pytest.mark.parametrize(
    "way", [TRUMP_PLAZA, DEALER_GUIDE, FOXWOODS, FOXWOODS_BY_CARDS], ids=lambda w: w.name
)
@pytest.mark.parametrize("rules", RULE_SETS, ids=["default", "switched"])
def test_batch_house_way_matches_reference(way: HouseWay, rules: Rules) -> None:
    rng = random.Random(hash((way.name, rules.wheel_second)) & 0xFFFF)
    hands = random_hands(600, rng.randrange(1000)) + flushy_hands(rng, 600)
    dealt = house_way_batch(hands, way, rules)
    for index, hand in enumerate(hands):
        reference = house_way(hand, way, rules)
        assert (dealt.high_key[index], dealt.low_key[index]) == (
            reference.high_key,
            reference.low_key,
        ), hand
        assert sorted(dealt.high[index] + dealt.low[index]) == sorted(hand)


@pytest.mark.parametrize(
    ("way", "text", "high", "low"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_batch_house_way_hand_checked(
    way: HouseWay, text: str, high: str | None, low: str | None
) -> None:
    hand = parse_hand(text)
    dealt = house_way_batch([hand.cards], way)
    reference = house_way(hand.cards, way)
    assert (dealt.high_key[0], dealt.low_key[0]) == (reference.high_key, reference.low_key)
    if high is not None:
        assert frozenset(dealt.high[0]) == frozenset(reference.high)


def test_multiset_index_numbers_every_multiset_of_ranks_once() -> None:
    """Dense and one to one: the C(12 + k, k) rows of k sorted ranks get 0 .. C(12 + k, k) - 1."""
    for size in range(1, 8):
        rows = np.array(list(combinations_with_replacement(range(13), size)))
        index = multiset_index(rows)
        assert sorted(index.tolist()) == list(range(math.comb(12 + size, size))), size


def sorted_hands(rng: random.Random, count: int) -> np.ndarray:
    """Random and flush-heavy hands as rows sorted increasing, the joker last."""
    hands = random_hands(count, rng.randrange(1000)) + flushy_hands(rng, count)
    return np.sort(np.array(hands, dtype=np.int64), axis=1)


@pytest.mark.parametrize("rules", RULE_SETS, ids=["default", "switched"])
def test_dense_lookups_match_the_sorted_codes_and_the_scalar_keys(rules: Rules) -> None:
    """The rank class by :func:`class_index` is the one a binary search of the sorted rank
    codes finds; every setting's high key is the scalar ``high_key`` of its five cards."""
    t = way_tables(TRUMP_PLAZA, rules)
    classes = t.class_of[t.class_of >= 0]
    assert sorted(classes.tolist()) == list(range(len(t.class_codes)))
    hands = sorted_hands(random.Random(7), 400)
    searched = np.searchsorted(t.class_codes, rank_codes(hands))
    assert (t.class_of[class_index(hands)] == searched).all()
    assert (t.class_codes[searched] == rank_codes(hands)).all()
    high, low = setting_keys(t, hands)
    for row, hand in zip(high.tolist(), hands.tolist(), strict=True):
        assert row == [high_key([hand[p] for p in cols], rules) for cols in HIGH_POSITIONS], hand
    for column, cols in enumerate(HIGH_POSITIONS):
        assert (high_keys(t, hands[:, list(cols)]) == high[:, column]).all()
    for column, (i, j) in enumerate(LOW_POSITIONS):
        assert low[:, column].tolist() == [low_key((h[i], h[j])) for h in hands.tolist()]


# --- exact values against slow references --------------------------------------------------


def reference_counts(
    hand: tuple[int, ...],
    left: list[int],
    way: HouseWay = TRUMP_PLAZA,
    rules: Rules = RULE_SETS[0],
) -> dict[tuple[tuple[int, ...], ...], list[int]]:
    """Enumerate the dealer hands one by one, set each with the scalar house way, and score
    every legal player setting on the split-game engine: win, push, loss counts."""
    game = paigow_game(rules)
    counts: dict[tuple[tuple[int, ...], ...], list[int]] = {}
    settings = legal_settings(hand, rules)
    for dealer in combinations(left, 7):
        way_setting = house_way(dealer, way, rules)
        theirs = (way_setting.high, way_setting.low)
        for mine in settings:
            result = game.score(mine, theirs)
            counts.setdefault(mine, [0, 0, 0])[0 if result > 0 else 1 if result == 0 else 2] += 1
    return counts


@pytest.mark.parametrize(
    ("trial", "way", "rules"),
    [
        (0, TRUMP_PLAZA, RULE_SETS[0]),
        (1, TRUMP_PLAZA, RULE_SETS[0]),
        (2, DEALER_GUIDE, RULE_SETS[1]),
    ],
)
def test_exact_values_match_direct_enumeration_on_reduced_decks(
    trial: int, way: HouseWay, rules: Rules
) -> None:
    rng = random.Random(100 + trial)
    hand = tuple(rng.sample(range(53), 7))
    rest = [card for card in range(53) if card not in hand]
    suit = trial % 4
    # Many cards of one suit and the joker when it is free: flushes and joker hands are common.
    suited = [c for c in rest if c != JOKER and c % 4 == suit][:8]
    others = rng.sample([c for c in rest if c not in suited and c != JOKER], 6 - (JOKER in rest))
    left = suited + others + ([JOKER] if JOKER in rest else [])
    values = setting_values(hand, way, rules, left=left)
    expected = reference_counts(hand, left, way, rules)
    assert values.dealer_hands == math.comb(len(left), 7)
    assert {(s.high, s.low): [s.win, s.push, s.loss] for s in values.settings} == expected
    for s in values.settings:
        assert s.ev == Fraction(s.win * (1 - rules.commission) - s.loss, s.total)


def test_histogram_matches_the_batch_house_way_on_a_medium_deck() -> None:
    rng = random.Random(7)
    left = rng.sample(range(53), 19)
    if JOKER not in left:
        left[0] = JOKER
    t = tables()
    histogram = dealer_histogram(t, left)
    dealt = house_way_batch(list(combinations(left, 7)))
    expected = Counter(zip(dealt.high_key, dealt.low_key, strict=True))
    nonzero = {
        (int(h), int(lo)): int(histogram[h, lo])
        for h, lo in zip(*np.nonzero(histogram), strict=True)
    }
    assert nonzero == dict(expected)


def test_full_deck_counts() -> None:
    hand = parse_hand("As Ah Kd Qc 9s 5h 2d").cards
    values = setting_values(hand)
    assert values.dealer_hands == math.comb(46, 7) == 53_524_680
    assert len(values.settings) == len(legal_settings(hand))
    assert sum(s.house_way for s in values.settings) == 1
    evs = [s.ev for s in values.settings]
    assert evs == sorted(evs, reverse=True)
    # The player holding the joker leaves a dealer deck without it.
    with_joker = setting_values(parse_hand("JK Ah Kd Qc 9s 5h 2d").cards)
    assert with_joker.dealer_hands == 53_524_680


def test_known_dealer_hand_equals_direct_comparison() -> None:
    game = paigow_game()
    rng = random.Random(11)
    for _ in range(5):
        cards = rng.sample(range(53), 14)
        hand, dealer = tuple(cards[:7]), tuple(cards[7:])
        way_setting = house_way(dealer)
        theirs = (way_setting.high, way_setting.low)
        for values in (
            values_vs_dealer(hand, dealer),
            values_vs_setting(hand, theirs),
        ):
            assert values.dealer_hands == 1
            for s in values.settings:
                result = game.score((s.high, s.low), theirs)
                assert (s.win, s.push, s.loss) == (result > 0, result == 0, result < 0)


def test_sampled_and_exact_agree() -> None:
    hand = parse_hand("Kh Kd 7c 7s Ah 4d 3c").cards
    values = setting_values(hand)
    for item in values.settings[:3]:
        sample = sampled_value(hand, (item.high, item.low), 20_000, seed=5)
        assert abs(sample.mean - float(item.ev)) <= 4 * sample.standard_error


# --- studies --------------------------------------------------------------------------------


def test_study_rows_and_summary() -> None:
    hands = random_hands(4, 3)
    summary = study(hands, top=2)
    rows = [study_hand(StudyJob(hand, TRUMP_PLAZA, Rules())) for hand in hands]
    gains = [float(row.gain) for row in rows]
    assert summary.hands == 4
    assert summary.mean_gain == pytest.approx(sum(gains) / 4)
    assert summary.house_optimal == sum(g == 0 for g in gains)
    assert all(g >= 0 for g in gains)
    assert [row.hand for row in summary.worst] == [
        row.hand for row in sorted(rows, key=lambda r: (-r.gain, r.hand))[:2]
    ]
    assert random_hands(4, 3) == hands


def test_study_on_a_local_dask_cluster() -> None:
    hands = random_hands(2, 9)
    expected = study(hands)
    with local_cluster() as address:
        summary = study(hands, scheduler=address)
    assert summary == expected


# --- the command line -----------------------------------------------------------------------


def test_settings_json_contract() -> None:
    result = runner.invoke(app, ["paigow", "settings", "As Ah Kd Qc 9s 5h 2d", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["hand"] == ["As", "Ah", "Kd", "Qc", "9s", "5h", "2d"]
    assert payload["dealer_hands"] == 53_524_680
    first = payload["settings"][0]
    assert set(first) >= {"high", "low", "win", "push", "loss", "ev", "house_way"}
    evs = [Fraction(s["ev"]) for s in payload["settings"]]
    assert evs == sorted(evs, reverse=True)
    for s in payload["settings"]:
        assert Fraction(s["win"]) + Fraction(s["push"]) + Fraction(s["loss"]) == 1
        assert Fraction(s["ev"]) == Fraction(s["win"]) * Fraction(19, 20) - Fraction(s["loss"])


def test_settings_vs_setting_json_shape() -> None:
    result = runner.invoke(
        app,
        ["paigow", "settings", "As Ah Kd Qc 9s 5h 2d", "--vs-setting", "Kc Kh 7c 7s 3d|Ad 4d"],
    )
    assert result.exit_code == 0, result.output
    result = runner.invoke(
        app,
        [
            "paigow",
            "settings",
            "as ah kd qc 9s 5h 2d",
            "--vs-dealer",
            "kc kh 7c 7s 3d * 4d",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["dealer_hands"] == 1 and payload["hand"][0] == "as"


def test_house_way_batch_from_stdin_in_order() -> None:
    lines = ["Kh Kd 7c 7s Ah 4d 3c", "", "2c 3c 4c 5c JK Kd Kh", "9s 8d 7c 6h 5d Ks 2c"]
    result = runner.invoke(app, ["paigow", "house-way", "-"], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = [json.loads(line) for line in result.output.splitlines()]
    assert [o["hand"] for o in out] == [line.split() for line in lines if line]
    assert out[1] == {
        "hand": ["2c", "3c", "4c", "5c", "JK", "Kd", "Kh"],
        "high": ["2c", "3c", "4c", "5c", "JK"],
        "low": ["Kd", "Kh"],
    }
    single = runner.invoke(app, ["paigow", "house-way", lines[0], "--json"])
    assert json.loads(single.output) == out[0]


@pytest.mark.parametrize(
    ("args", "token"),
    [
        (["settings", "As Kd JK 5c 4h 3s *"], "'*'"),
        (["settings", "As Kd JK 5c 4h 3s"], "has 6 cards"),
        (["settings", "As Kd JK 5c 4h 3s 2d 2c"], "has 8 cards"),
        (["settings", "As Kd JK 5c 4h 3s As"], "'As'"),
        (["settings", "As Kd JK 5c 4h 3s Zz"], "'Zz'"),
        (["settings", "As Kd JK 5c 4h 3s 2d", "--vs-setting", "Kc Qd 9h 5s 3c|2c 2h"], "foul"),
        (["settings", "As Kd JK 5c 4h 3s 2d", "--vs-dealer", "Ks Qd 9h 5s 3c 2c 2d"], "'2d'"),
        (["house-way", "As Kd JK 5c 4h 3s 2d", "--way", "nope"], "'nope'"),
        (["house-way", "-"], "line 2"),
    ],
)
def test_bad_input_is_one_line_exit_2(args: list[str], token: str) -> None:
    stdin = "As Kd JK 5c 4h 3s 2d\nAs Kd\n"
    result = runner.invoke(app, ["paigow", *args], input=stdin)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and token in lines[0]


def test_house_way_batch_file_any_notation_and_workers(tmp_path: Path) -> None:
    lines = [
        "Ah,Kd,Qc,Js,10h,9c,2d",
        "ahkdqcjs0h9c2d",
        "7c 7d 7h 7s jk 2c 2d",
        "As Ks 4d 4c 9h 8h 2s",
    ]
    path = tmp_path / "hands.txt"
    path.write_text("\n".join(lines * 5) + "\n")
    one = runner.invoke(app, ["paigow", "house-way", str(path)])
    two = runner.invoke(app, ["paigow", "house-way", str(path), "--workers", "2"])
    assert one.exit_code == two.exit_code == 0, one.output
    assert one.output == two.output
    out = [json.loads(line) for line in one.output.splitlines()]
    assert len(out) == 20
    assert out[0]["hand"] == ["Ah", "Kd", "Qc", "Js", "10h", "9c", "2d"]
    assert out[1]["hand"] == ["ah", "kd", "qc", "js", "0h", "9c", "2d"]
    assert out[2]["low"] == ["2c", "2d"] and "JK" in out[2]["high"]
    for line, o in zip(lines * 5, out, strict=True):
        hand = parse_hand(line)
        dealt = house_way_batch([hand.cards])
        assert o["high"] == hand.card_strings(dealt.high[0])


def test_house_way_batch_fixed_width_lines_read_as_the_full_parser_reads_them(
    tmp_path: Path,
) -> None:
    """Lines of seven two-character cards one space apart are read in numpy at once; any other
    file goes line by line.  A space at the end of each line sends the same hands the slow
    way: same bytes."""
    rng = random.Random(3)
    deck = [r + s for r in "23456789TJQKAtjqka0" for s in "cdhsCDHS"] + ["JK", "jk", "Jk"]
    lines = []
    while len(lines) < 300:
        words = rng.sample(deck, 7)
        try:
            parse_hand(" ".join(words))
        except ValueError:
            continue  # the same card twice in two spellings
        lines.append(" ".join(words))
    fast, slow = tmp_path / "fast.txt", tmp_path / "slow.txt"
    fast.write_text("# hands\n\n" + "\n".join(lines) + "\n")
    slow.write_text("".join(line + " \n" for line in lines))
    one = runner.invoke(app, ["paigow", "house-way", str(fast)])
    two = runner.invoke(app, ["paigow", "house-way", str(slow), "--workers", "2"])
    assert one.exit_code == two.exit_code == 0, one.output
    assert one.stdout_bytes == two.stdout_bytes
    out = [json.loads(line) for line in one.stdout.splitlines()]
    assert [o["hand"] for o in out] == [
        ["JK" if w.upper() == "JK" else w for w in line.split()] for line in lines
    ]
    for line, o in zip(lines, out, strict=True):
        setting = house_way(parse_hand(line).cards)
        hand = parse_hand(line)
        assert (o["high"], o["low"]) == (
            [w for c, w in zip(hand.cards, o["hand"], strict=True) if c in setting.high],
            [w for c, w in zip(hand.cards, o["hand"], strict=True) if c in setting.low],
        )


@pytest.mark.parametrize(
    ("bad", "token"), [("As Kd Qh Jc Ts 9d As", "'As'"), ("As Kd Qh Jc Ts 9d Zz", "'Zz'")]
)
def test_house_way_batch_fixed_width_errors_name_their_line(
    bad: str, token: str, tmp_path: Path
) -> None:
    path = tmp_path / "hands.txt"
    path.write_text("2c 3c 4c 5c JK Kd Kh\n" * 3 + bad + "\n" + "9s 8d 7c 6h 5d Ks 2c\n")
    result = runner.invoke(app, ["paigow", "house-way", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: line 4") and token in line


def test_settings_rule_switches_reach_the_answer() -> None:
    hand = "Ac 2d 3h 4s 5c Kd Kh"
    args = ["paigow", "settings", hand, "--json"]
    default = json.loads(runner.invoke(app, args).output)
    switched = runner.invoke(
        app, [*args, "--wheel", "low", "--five-aces", "below", "--commission", "0"]
    )
    assert switched.exit_code == 0, switched.output
    payload = json.loads(switched.output)
    assert payload["rules"] == {"wheel": "low", "five_aces": "below", "commission": "0"}
    for s in payload["settings"]:
        assert Fraction(s["ev"]) == Fraction(s["win"]) - Fraction(s["loss"])
    # The wheel ranks lower, so keeping it high wins less often.
    wheel = {"high": ["Ac", "2d", "3h", "4s", "5c"], "low": ["Kd", "Kh"]}

    def win(settings: list[dict[str, object]]) -> Fraction:
        found = next(s for s in settings if {k: s[k] for k in wheel} == wheel)
        return Fraction(str(found["win"]))

    assert win(payload["settings"]) < win(default["settings"])
    bad = runner.invoke(app, [*args, "--commission", "5%"])
    assert bad.exit_code == 2 and "'5%'" in bad.output


@pytest.mark.parametrize("rate", ["nan", "1e-999999999", "²", "1/0", "9" * 5000, "-0.5", "1"])
def test_bad_commission_is_one_line_and_exit_2(rate: str) -> None:
    result = CliRunner().invoke(
        app,
        [
            "paigow",
            "settings",
            "As Ah Kd Qc 9s 5h 2d",
            "--vs-dealer",
            "Kc Qd 7c 6s 3h 4d 4h",
            "--commission",
            rate,
        ],
    )
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ") and "commission" in line


@pytest.mark.parametrize("way", ["trump-plaza", "foxwoods", "dealer-guide"])
def test_one_hand_and_a_file_of_hands_set_the_same_cards(way: str, tmp_path: Path) -> None:
    """One hand is set by the rules directly, a file in numpy: among settings of equal keys
    (which ace, the joker or which suit goes low) both pick the same cards."""
    rng = random.Random(way)
    deck = [*(r + s for r in "23456789TJQKA" for s in "cdhs"), "JK"]
    lines = [" ".join(rng.sample(deck, 7)) for _ in range(150)]
    lines += ["3d 6d JK Ac 9c Ah Qd", "7c 4s JK Jd 6s 5s 7d", "Th 9c JK 9d 2c 8d 7d"]
    path = tmp_path / "hands.txt"
    path.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["paigow", "house-way", str(path), "--way", way])
    assert result.exit_code == 0
    batch = result.stdout.splitlines()
    for line, expected in zip(lines, batch, strict=True):
        one = runner.invoke(app, ["paigow", "house-way", line, "--way", way, "--json"])
        assert one.exit_code == 0 and json.loads(one.stdout) == json.loads(expected), line
        assert one.stdout.startswith('{\n  "hand": [')  # one answer: indented


def test_study_interrupted_says_how_many_hands_were_valued(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C during a study names the hands valued so far, as every batch command does."""
    import handsolver.solver.paigow as paigow_package
    from handsolver.solver.paigow.studies import StudyRow

    def rows_then_ctrl_c(total: int):  # type: ignore[no-untyped-def]
        row = StudyRow((0,) * 7, Fraction(0), Fraction(0), (), (), (), ())
        yield row
        yield row
        raise KeyboardInterrupt

    def study(cards, *_, progress, **__):  # type: ignore[no-untyped-def]
        return list(progress(rows_then_ctrl_c(len(cards)), len(cards)))

    monkeypatch.setattr(paigow_package, "study", study)
    result = runner.invoke(app, ["paigow", "study", "--hands", "5"])
    assert result.exit_code == 130
    assert result.output == "interrupted after 2 of 5 hands\n"
