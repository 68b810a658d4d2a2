"""Big 2 fewest plays: seed cases, brute-force cross-checks of the engines, checking, CLI."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handsolver.models.big2 import Play, PlayKind, parse_answer
from handsolver.models.cards import FULL_DECK_MASK, card_name, cards_of, mask_of, parse_cards
from handsolver.solver.big2.fewest import (
    EXACT_MAX_CARDS,
    Method,
    Partition,
    Prefer,
    all_optimal,
    check_answer,
    count_lower_bound,
    exact_search,
    fewest_plays,
    plays_lower_bound,
    preference_key,
    solve_partition_model,
    solve_strong_model,
)
from handsolver.solver.cli import app
from handsolver.solver.commands.big2 import group as big2_group

from .processes import outputs_under_hash_seeds

runner = CliRunner()

# --- brute force, independent of the solver ---------------------------------------------------

_VALUE = {"A": 14, "T": 10, "J": 11, "Q": 12, "K": 13} | {str(n): n for n in range(2, 10)}
_STRAIGHTS = [{14, 2, 3, 4, 5}] + [set(range(low, low + 5)) for low in range(2, 11)]


def _is_play(cards: tuple[int, ...]) -> bool:
    ranks = Counter(_VALUE[card_name(c)[0]] for c in cards)
    if len(cards) <= 3:
        return len(ranks) == 1
    if len(cards) != 5:
        return False
    suits = {card_name(c)[1] for c in cards}
    return set(ranks) in _STRAIGHTS or len(suits) == 1 or sorted(ranks.values()) in ([2, 3], [1, 4])


@cache
def brute(mask: int) -> tuple[int, int]:
    """(fewest plays, number of partitions reaching it): the lowest card's play, then the rest."""
    if not mask:
        return 0, 1
    low = (mask & -mask).bit_length() - 1
    others = [c for c in cards_of(mask) if c != low]
    best, ways = 99, 0
    for size in (0, 1, 2, 4):
        for combo in combinations(others, size):
            cards = (low, *combo)
            if _is_play(cards):
                count, n = brute(mask ^ mask_of(cards))
                if count + 1 < best:
                    best, ways = count + 1, n
                elif count + 1 == best:
                    ways += n
    return best, ways


def random_hand(rng: random.Random, size: int) -> int:
    return mask_of(rng.sample(range(52), size))


def assert_sound(hand: int, result: Partition) -> None:
    """The partition covers the hand with legal plays, its count is right, plays are sorted."""
    verdict = check_answer(hand, [play.cards for play in result.plays])
    assert verdict.valid, verdict.problems
    assert result.count == len(result.plays)
    assert result.bound <= result.count
    assert result.optimal == (result.bound == result.count)
    for play in result.plays:
        assert Play.from_cards(play.cards) == play


# --- the seed's cases -------------------------------------------------------------------------

SEED_CASES = [
    # hand, fewest plays, the seed's answer
    ("AS,4H,6D,8C,7C,3S,5H,8D,4C,2S,0C,AD,AH", 5, "ASAHAD8D8C, 2S3S4H5H6D, 4C, 7C, 0C"),
    ("AS,4H,6D,8C,7C,3S,5H,8D,4C,2S,0C,AD,AH", 5, "7C, 2S6D3S5H4H, 0C, 4C, 8C8DASAHAD"),
    ("2D,0H,5S,0S,4H,AS,4C,6C,6H,KC,8H,5H,8S", 8, "5S5H, 4H4C, 0S0H, 6C6H, 8H8S, KC, AS, 2D"),
    ("4D,4S,4H,4C,5H,5D,5C,5S,9S,9D,9H,9C,AD", 3, "4D4S4H4CAD, 5D5H5C5S9S, 9D9H9C"),
    # The two cases suggested in the comments, with the partitions they describe.
    ("2D,7D,8S,AS,2C,9D,5D,2S,AC,0D,8C,8H,5H", 4, "2D7D9D5D0D, 8S8C8HASAC, 2C2S, 5H"),
    ("5D,2H,4S,QH,9S,2D,9C,JH,0S,AC,KS,JS,3S", 5, "AC2H3S4S5D, 9S0SJHQHKS, 2D, 9C, JS"),
]


@pytest.mark.parametrize(("hand_text", "fewest", "answer"), SEED_CASES)
@pytest.mark.parametrize("method", [Method.EXACT, Method.CPSAT, Method.PLAIN])
def test_seed_cases(hand_text: str, fewest: int, answer: str, method: Method) -> None:
    hand = mask_of(parse_cards(hand_text))
    result = fewest_plays(hand, method=method)
    assert (result.count, result.optimal) == (fewest, True)
    assert_sound(hand, result)
    verdict = check_answer(hand, parse_answer(answer))
    assert (verdict.valid, verdict.optimal, verdict.count, verdict.best) == (
        True,
        True,
        fewest,
        fewest,
    )
    assert verdict.problems == ()


def test_seed_flush_would_cost_more() -> None:
    hand = parse_cards("2D,0H,5S,0S,4H,AS,4C,6C,6H,KC,8H,5H,8S")
    verdict = check_answer(hand, parse_answer("5H4H0H6H8H, 5S, 4C, 0S, 6C, 8S, KC, AS, 2D"))
    assert verdict.valid and not verdict.optimal
    assert verdict.problems == ("9 plays; the fewest is 8",)


def test_suggested_cases_kinds() -> None:
    kinds = Counter(
        p.kind for p in fewest_plays(parse_cards("2D,7D,8S,AS,2C,9D,5D,2S,AC,0D,8C,8H,5H")).plays
    )
    assert kinds == Counter([PlayKind.FLUSH, PlayKind.FULL_HOUSE, PlayKind.PAIR, PlayKind.SINGLE])
    # JQKA2-like wraps are not straights, so the ace must go to A2345.
    hand = parse_cards("5D,2H,4S,QH,9S,2D,9C,JH,0S,AC,KS,JS,3S")
    strongest = fewest_plays(hand, prefer=Prefer.STRONGEST)
    assert [p.kind for p in strongest.plays].count(PlayKind.STRAIGHT) == 2


# --- brute-force cross-checks -----------------------------------------------------------------


def test_exhaustive_subsets_of_a_rich_ten_card_set() -> None:
    """Every subset of a set holding straights, flushes, a straight flush and four of a kind."""
    base = cards_of(mask_of(parse_cards("As 2s 3s 4s 5s 5h 5d 5c 6h Ts")))
    for bits in range(1 << len(base)):
        hand = mask_of(c for i, c in enumerate(base) if bits >> i & 1)
        best, ways = brute(hand)
        assert exact_search(hand).count == best
        found = all_optimal(hand, limit=1)
        assert (found.best, found.count, found.complete) == (best, ways, True)


@pytest.mark.parametrize("seed", range(6))
def test_exact_search_and_enumeration_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(25):
        hand = random_hand(rng, rng.randint(1, 10))
        best, ways = brute(hand)
        result = exact_search(hand)
        assert result.count == best and result.optimal
        assert_sound(hand, result)
        assert plays_lower_bound(hand) <= best
        found = all_optimal(hand, limit=10_000)
        assert (found.best, found.count, found.complete) == (best, ways, True)
        assert len(set(found.partitions)) == len(found.partitions) == min(ways, 10_000)
        for plays in found.partitions:
            assert len(plays) == best
            assert check_answer(hand, [p.cards for p in plays]).optimal
        for prefer in (Prefer.FEWEST_SINGLES, Prefer.STRONGEST):
            preferred = exact_search(hand, prefer)
            assert preference_key(preferred.plays, prefer) == min(
                preference_key(plays, prefer) for plays in found.partitions
            )


def test_cpsat_agrees_with_exact_search_on_13_card_hands() -> None:
    rng = random.Random(13)
    for _ in range(300):
        hand = random_hand(rng, 13)
        expected = exact_search(hand)
        result = solve_strong_model(hand)
        assert (result.count, result.optimal) == (expected.count, True)
        assert_sound(hand, result)
        assert plays_lower_bound(hand) <= expected.count


def test_cpsat_agrees_with_exact_search_on_5_to_20_card_hands() -> None:
    rng = random.Random(520)
    for size in list(range(5, 21)) * 12:
        hand = random_hand(rng, size)
        expected = exact_search(hand)
        result = solve_strong_model(hand)
        assert (result.count, result.optimal) == (expected.count, True)
        assert_sound(hand, result)


def test_plain_model_agrees() -> None:
    rng = random.Random(7)
    for size in (5, 8, 10, 13, 13, 16):
        hand = random_hand(rng, size)
        result = solve_partition_model(hand)
        assert (result.count, result.optimal) == (exact_search(hand).count, True)
        assert_sound(hand, result)


@pytest.mark.parametrize("prefer", [Prefer.FEWEST_SINGLES, Prefer.STRONGEST])
def test_preferences_agree_between_engines(prefer: Prefer) -> None:
    rng = random.Random(99)
    for size in [13] * 30 + [9, 11, 15, 17]:
        hand = random_hand(rng, size)
        expected = exact_search(hand, prefer)
        result = solve_strong_model(hand, prefer=prefer)
        assert result.count == expected.count and result.optimal
        assert preference_key(result.plays, prefer) == preference_key(expected.plays, prefer)
        assert_sound(hand, result)


@pytest.mark.parametrize("prefer", [Prefer.FEWEST_SINGLES, Prefer.STRONGEST])
def test_plain_model_honours_the_preference(prefer: Prefer) -> None:
    rng = random.Random(98)
    for size in [13] * 8 + [7, 10]:
        hand = random_hand(rng, size)
        expected = exact_search(hand, prefer)
        result = fewest_plays(hand, method=Method.PLAIN, prefer=prefer)
        assert result.count == expected.count and result.optimal
        assert preference_key(result.plays, prefer) == preference_key(expected.plays, prefer)
        assert_sound(hand, result)
    # A rank of four is two pairs, not a triple and a single, when singles are to be few.
    fours = fewest_plays(parse_cards("3c 3d 3h 3s"), method=Method.PLAIN, prefer=prefer)
    kinds = [play.kind for play in fours.plays]
    if prefer is Prefer.FEWEST_SINGLES:
        assert kinds == [PlayKind.PAIR, PlayKind.PAIR]
    else:
        assert kinds == [PlayKind.TRIPLE, PlayKind.SINGLE]


def test_suited_and_pathological_hands() -> None:
    spades = mask_of(parse_cards("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"))
    hearts = mask_of(parse_cards("2h 3h 4h 5h 6h"))
    for hand in (spades, spades | hearts, FULL_DECK_MASK & 0xFFFFF):
        expected = exact_search(hand)
        assert solve_strong_model(hand).count == expected.count
    assert exact_search(spades).count == plays_lower_bound(spades) == 5


def test_large_hands_are_proven_optimal() -> None:
    deck = fewest_plays(FULL_DECK_MASK)
    assert (deck.count, deck.optimal, deck.method) == (11, True, "cp-sat")
    assert_sound(FULL_DECK_MASK, deck)
    rng = random.Random(39)
    for _ in range(3):
        hand = random_hand(rng, 39)
        result = fewest_plays(hand)
        assert result.optimal and result.count >= count_lower_bound(39) == 9
        assert_sound(hand, result)


def test_results_are_deterministic() -> None:
    """The same partition in processes with different string hash seeds (a set or dict order
    leaking into the result would differ between them, not between two calls in one process)."""
    rng = random.Random(3)
    hands = [random_hand(rng, size) for size in (13, 30)]
    code = (
        "from handsolver.solver.big2.fewest import Prefer, fewest_plays\n"
        f"for hand in {hands!r}:\n"
        "    print(fewest_plays(hand))\n"
        "    print(fewest_plays(hand, prefer=Prefer.STRONGEST))\n"
    )
    first, *others = outputs_under_hash_seeds(code)
    assert first.count("\n") == 4
    assert all(other == first for other in others)
    for hand in hands:
        assert str(fewest_plays(hand)) in first


def test_time_limit_gives_an_unproven_partition() -> None:
    result = solve_partition_model(FULL_DECK_MASK, time_limit=0.001)
    assert not result.optimal and result.bound < result.count
    assert_sound(FULL_DECK_MASK, result)


def test_enumeration_of_large_hands() -> None:
    """Above the exact search's size, CP-SAT enumerates; it finds the exact search's set."""
    from handsolver.solver.big2.fewest.solve import _all_exact

    for seed in (22, 23):
        hand = random_hand(random.Random(seed), EXACT_MAX_CARDS + 2)
        expected = _all_exact(hand, limit=1000)
        found = all_optimal(hand, limit=1000)
        assert (found.best, found.count, found.complete) == (expected.best, expected.count, True)
        assert set(found.partitions) == set(expected.partitions)
    limited = all_optimal(hand, limit=5)
    assert (limited.count, limited.complete, len(set(limited.partitions))) == (5, False, 5)
    for plays in limited.partitions:
        assert check_answer(hand, [p.cards for p in plays]).optimal


def test_empty_hand() -> None:
    assert fewest_plays(0) == Partition(0, (), True, 0, "exact")


# --- checking answers -------------------------------------------------------------------------

HAND = "4D,4S,4H,4C,5H,5D,5C,5S,9S,9D,9H,9C,AD"


@pytest.mark.parametrize(
    ("answer", "problems"),
    [
        ("4D4S4H4CAD, 5D5H5C5S9S, 9D9H9C", []),
        ("4D4S4H4CAD, 5D5H5C5S9S, 9D9H", ["card 9C is missing"]),
        (
            "4D4S4H4CAD, 5D5H5C5S9S, 9D9H9C9S",
            [
                "play 3 '9D 9C 9H 9S' is not a play: no play has 4 cards",
                "card 9S is played 2 times",
            ],
        ),
        ("4D4S4H4CAD, 5D5H5C5S9S, 9D9H9C9C", ["card 9C is played 2 times"]),
        ("4D4S4H4CAD, 5D5H5C5S9S, 9D9H9C, KH", ["card KH is not in the hand"]),
        (
            "4D4S4H4C, AD 5D5H5C5S9S, 9D9H9C",
            [
                "play 1 '4D 4C 4H 4S' is not a play: no play has 4 cards",
                "play 2 '5D 5C 5H 5S 9S AD' is not a play: no play has 6 cards",
            ],
        ),
        (
            "4D4S4H5H5D, 4CAD, 5C5S9S, 9D9H9C",
            [
                "play 2 '4C AD' is not a play: a pair needs 2 cards of one rank",
                "play 3 '5C 5S 9S' is not a play: a triple needs 3 cards of one rank",
            ],
        ),
        ("4D4S4H4CAD, 5D5H5C5S9S, 9D9H, 9C", ["4 plays; the fewest is 3"]),
    ],
)
def test_check_answer_reports_each_problem(answer: str, problems: list[str]) -> None:
    hand = parse_cards(HAND)
    from handsolver.models.cards import parse_deal

    verdict = check_answer(hand, parse_answer(answer), notation=parse_deal(HAND).notation)
    assert list(verdict.problems) == problems
    assert verdict.optimal == (not problems)
    assert verdict.valid == (not problems or problems[-1].endswith("the fewest is 3"))
    assert verdict.best == 3


def test_check_answer_wrap_straight() -> None:
    hand = parse_cards("JS QD KH AS 2C")
    verdict = check_answer(hand, [hand])
    assert verdict.problems == (
        "play 1 'Js Qd Kh As 2c' is not a play: an ace only ends A2345 or TJQKA",
    )


# --- the command line -------------------------------------------------------------------------

SEED_HAND = SEED_CASES[0][0]


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["big2", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_cli_default_command_solves() -> None:
    code, out, _ = invoke(SEED_HAND)
    assert code == 0
    assert out.splitlines()[0] == "5 plays (optimal, seed rules)"
    assert "full house" in out and "straight" in out
    assert invoke("solve", SEED_HAND)[1] == out
    # Options may come before the hand, and the hand may be several arguments.
    code, out, _ = invoke("--json", *SEED_HAND.split(","))
    report = json.loads(out)
    assert code == 0 and report["count"] == 5 and report["optimal"] is True
    assert sorted(card for play in report["plays"] for card in play) == sorted(SEED_HAND.split(","))
    assert len(report["kinds"]) == len(report["plays"]) == 5


def test_default_group_resolution() -> None:
    code, out, _ = invoke("--help")
    assert code == 0 and "check" in out and "stats" in out and "solve" in out
    code, out, _ = invoke("solve", "--help")
    assert code == 0 and "--prefer" in out
    assert big2_group().info.cls.default_command == "solve"  # type: ignore[union-attr]
    assert "--prefer" in invoke("--help")[1]  # the group's help shows the solve options
    # A hand is never mistaken for a subcommand, nor a subcommand for a hand.
    assert invoke("4c")[1].startswith("1 play (optimal, seed rules)")
    assert invoke("check", "4c", "4c")[0] == 0


def test_cli_keeps_notation_and_preferences() -> None:
    code, out, _ = invoke("--json", "--prefer", "strongest", "ah 2h 3h 4h 5h 6h th")
    report = json.loads(out)
    assert report["kinds"] == ["straight flush", "single", "single"]
    assert all(card.islower() for play in report["plays"] for card in play)
    code, out, _ = invoke("--json", "--method", "cp-sat", SEED_HAND)
    assert json.loads(out)["method"] == "cp-sat" and json.loads(out)["count"] == 5


def test_cli_all() -> None:
    code, out, _ = invoke("--json", "--all", "--limit", "2", "3c 3d 3h 3s")
    report = json.loads(out)
    assert (report["count"], report["partitions"], report["complete"]) == (2, 7, True)
    assert len(report["listed"]) == 2
    code, out, _ = invoke("--all", "3c 3d 3h 3s")
    assert "exactly 7 optimal partitions" in out


def test_cli_check_exit_codes() -> None:
    hand, answer = SEED_CASES[0][0], SEED_CASES[0][2]
    code, out, _ = invoke("check", hand, answer)
    assert code == 0 and "optimal: yes" in out
    code, out, _ = invoke("check", "--json", hand, "-", stdin="ASAHAD8D8C\n2S3S4H5H\n6D4C7C0C")
    report = json.loads(out)
    assert code == 1 and report["valid"] is False and report["optimal"] is False
    assert "play 2 '3S 4H 5H 2S' is not a play: no play has 4 cards" in report["problems"]
    code, out, _ = invoke("check", hand, "ASAHAD8D8C, 2S3S4H5H6D, 4C7C0C")
    assert code == 1 and "is not a play" in out
    # A correct answer as a spaced list of lists, or split by '-', is still correct.
    for spaced in (
        "[ [AS, AH, AD, 8D, 8C], [2S, 3S, 4H, 5H, 6D], [4C], [7C], [0C] ]",
        "AS AH AD 8D 8C - 2S 3S 4H 5H 6D - 4C - 7C - 0C",
    ):
        code, out, _ = invoke("check", hand, spaced)
        assert code == 0 and "optimal: yes" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["AS 4X"], "error: unknown suit 'X' in card '4X'"),
        (["AS AS"], "error: card 'AS' is given twice"),
        (["AS 4H | 5C"], "error: give one hand, not 2"),
        (["check", "AS 4H", "AS, 4Q"], "error: unknown suit 'Q' in card '4Q'"),
        (["check", "AS 4H", " "], "error: the answer has no plays"),
        (["batch", "/nonexistent/hands.txt"], "error: No such file or directory"),
    ],
)
def test_cli_bad_input(args: list[str], message: str) -> None:
    code, out, err = invoke(*args)
    assert code == 2
    assert err.startswith(message) and len(err.strip().splitlines()) == 1
    assert "Traceback" not in out + err


def test_cli_batch(tmp_path: Path) -> None:
    hands = [case[0] for case in SEED_CASES] + ["# a comment", "", "5d 2h"]
    path = tmp_path / "hands.txt"
    path.write_text("\n".join(hands) + "\n")
    code, out, _ = invoke("batch", str(path))
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [line["count"] for line in lines] == [5, 5, 8, 3, 4, 5, 2]
    assert [line["line"] for line in lines] == [1, 2, 3, 4, 5, 6, 9]
    assert lines[-1]["plays"] == [["5d"], ["2h"]] and all(line["optimal"] for line in lines)
    code, out_stdin, _ = invoke("batch", "-", "--workers", "2", stdin=path.read_text())
    assert code == 0 and out_stdin == out
    path.write_text("5d 2h\n5d 5x\n")
    code, _, err = invoke("batch", str(path))
    assert code == 2 and err.strip() == "error: line 2: unknown suit 'x' in card '5x'"


def test_cli_batch_reads_any_utf8_file_and_rejects_binary(tmp_path: Path) -> None:
    path = tmp_path / "hands.txt"
    path.write_text("\ufeff5d 5h\r\n2h\r\n", encoding="utf-8", newline="")
    code, out, err = invoke("batch", str(path))
    assert code == 0, err
    assert [json.loads(line)["count"] for line in out.splitlines()] == [1, 1]
    path.write_bytes(b"\xff\xfe5d")
    code, out, err = invoke("batch", str(path))
    assert code == 2 and err.strip().splitlines() == [
        f"error: {str(path)!r}: line 1 is not UTF-8 text (invalid start byte)"
    ]
    assert "Traceback" not in out + err


def test_cli_stats(tmp_path: Path) -> None:
    csv = tmp_path / "hist.csv"
    code, out, _ = invoke("stats", "--deals", "200", "--seed", "4", "--json", "--out", str(csv))
    report = json.loads(out)
    assert code == 0 and report["all_optimal"] is True
    assert sum(report["histogram"].values()) == 200
    mean = sum(int(k) * v for k, v in report["histogram"].items()) / 200
    assert report["mean"] == pytest.approx(mean)
    rows = csv.read_text().splitlines()
    assert rows[0] == "plays,deals,share" and len(rows) == len(report["histogram"]) + 1
    # The same seed gives the same deals; the hand size is honoured.
    assert json.loads(invoke("stats", "--deals", "200", "--seed", "4", "--json")[1]) == report
    code, out, _ = invoke("stats", "--deals", "20", "--hand-size", "5")
    assert code == 0 and "mean" in out and "#" in out


def test_cli_13_cards_does_not_import_ortools() -> None:
    code = (
        "import sys\n"
        "from handsolver.solver.cli import app\n"
        "try:\n"
        f"    app(['big2', {SEED_HAND!r}])\n"
        "except SystemExit as exit:\n"
        "    assert not exit.code\n"
        "assert not any(name.startswith('ortools') for name in sys.modules), 'ortools loaded'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("5 plays (optimal, seed rules)")
