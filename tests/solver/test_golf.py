"""The golf-answer verifier against small answer programs written here.

Each program is a Python script run with ``sys.executable``: correct ones (brute force written
independently of ``models``), subtly wrong ones (greedy Badugi, a Big 2 answer that never
splits a triple, poker without the wheel), and misbehaving ones (crash, exit status, missing,
extra and non-UTF-8 lines, hangs, floods) that must be reported, never hang the verifier.
"""

from __future__ import annotations

import json
import random
import re
import sys
import time
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from handsolver.models import poker
from handsolver.models.cards import STANDARD, InputError, parse_cards
from handsolver.solver.commands.golf import verify as golf_commands
from handsolver.solver.golf import Case, Command, Settings, make_challenge, parse_answer_map, verify
from handsolver.solver.golf.challenge import Challenge
from handsolver.solver.golf.sixcard import read_split
from handsolver.solver.sandbox.isolation import Policy, Sandbox
from handsolver.solver.sandbox.runner import run

from .processes import outputs_under_hash_seeds

# --- answer programs ---------------------------------------------------------------------------

BADUGI_KEY = r'''
import sys
from itertools import combinations
R = "A23456789TJQK"
GREEDY = "greedy" in sys.argv

def key(hand):
    """(cards played, negated ranks high to low): greater is stronger."""
    if GREEDY:
        ranks, suits, kept = set(), set(), []
        for card in sorted(hand, key=lambda c: (R.index(c[0]), "cdhs".index(c[1]))):
            if card[0] not in ranks and card[1] not in suits:
                ranks.add(card[0]); suits.add(card[1]); kept.append(R.index(card[0]))
        return (len(kept), [-r for r in sorted(kept, reverse=True)])
    for n in range(4, 0, -1):
        found = [sorted((R.index(c[0]) for c in sub), reverse=True)
                 for sub in combinations(hand, n)
                 if len({c[0] for c in sub}) == n and len({c[1] for c in sub}) == n]
        if found:
            return (n, [-r for r in min(found)])

def side(line):
    left, right = (side.split() for side in line.split(" - "))
    a, b = key(left), key(right)
    return 0 if a > b else 1 if b > a else 2
'''

BADUGI = (
    BADUGI_KEY
    + r"""
FORM = sys.argv[1]
for line in sys.stdin:
    if FORM == "json":
        left, right = __import__("json").loads(line)
    else:
        left, right = (side.split() for side in line.split(" - "))
    a, b = key(left), key(right)
    side = 0 if a > b else 1 if b > a else 2
    if FORM == "cards":
        print([" ".join(left), " ".join(right), line.strip()][side])
    elif FORM == "json":
        print(["true", "false", "2"][side])
    elif FORM == "signed":
        print([1, -1, 0][side])
    else:
        print(["left", "right", "both"][side])
    if "once" in sys.argv:
        break
    sys.stdout.flush()
"""
)

POKER = r"""
import sys
from collections import Counter
R = "23456789TJQKA"
WHEEL = "nowheel" not in sys.argv

def score(hand):
    ranks = sorted((R.index(c[0]) for c in hand), reverse=True)
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    order = [r for r, _ in groups]
    flush = len({c[1] for c in hand}) == 1
    straight = len(counts) == 5 and ranks[0] - ranks[4] == 4
    if WHEEL and ranks == [12, 3, 2, 1, 0]:
        # "acehigh": the wheel is a straight but still ranked by its ace (a common slip).
        straight, order = True, ranks if "acehigh" in sys.argv else [3, 2, 1, 0, -1]
    shape = tuple(c for _, c in groups)
    category = {(1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 6,
                (4, 1): 7}[shape]
    if straight:
        category = 8 if flush else 4
    elif flush:
        category = 5
    return (category, order)

for line in sys.stdin:
    cards = line.split()
    a, b = score(cards[:5]), score(cards[5:])
    # "nodraw": a draw is called a win for player 2, as the PE54 shortcut ``a > b`` does.
    print(1 if a > b else 2 if b > a or "nodraw" in sys.argv else "draw", flush=True)
"""

BIG2 = r"""
import sys
from functools import lru_cache
from itertools import combinations
R = "234567890JQKA"
SPLIT = "nosplit" not in sys.argv

def legal(cards):
    ranks = sorted({R.index(c[0]) for c in cards})
    if len(cards) <= 3:
        return len(ranks) == 1
    if len(cards) != 5:
        return False
    return (len(ranks) == 2 or len({c[1] for c in cards}) == 1
            or len(ranks) == 5 and (ranks[4] - ranks[0] == 4 or ranks == [0, 1, 2, 3, 12]))

def solve(cards):
    n = len(cards)
    plays = [sum(1 << i for i in sub) for k in (1, 2, 3, 5) for sub in combinations(range(n), k)
             if legal([cards[i] for i in sub])]
    if not SPLIT:  # the shortcut: a rank held three times always goes out whole
        for rank in {c[0] for c in cards}:
            group = sum(1 << i for i, c in enumerate(cards) if c[0] == rank)
            if bin(group).count("1") == 3:
                plays = [p for p in plays if p & group in (0, group)]

    @lru_cache(None)
    def best(mask):
        if not mask:
            return ()
        low = mask & -mask
        options = [(p,) + best(mask & ~p) for p in plays if p & low and p & mask == p]
        return min(options, key=len)
    return best((1 << n) - 1)

for line in sys.stdin:
    cards = line.strip().split(",")
    plays = ["".join(cards[i] for i in range(len(cards)) if p >> i & 1) for p in solve(cards)]
    if "lines" in sys.argv:
        print("\n".join(", ".join(p[i:i + 2] for i in range(0, len(p), 2)) for p in plays))
    elif "brackets" in sys.argv:
        print([[p[i:i + 2] for i in range(0, len(p), 2)] for p in plays])
    else:
        print(" ".join(plays[::-1]), flush=True)
"""

SIXCARD = r"""
import sys
for line in sys.stdin:
    d = sorted(line.strip(), reverse=True)
    low = "1" if "cheat" in sys.argv else d[5]
    print("".join(d[:3]), "".join(d[3:5]), low, flush=True)
"""

# Misbehaving Badugi answers: right on most cases, each with one way of going wrong on the
# case whose input starts with the marked card.
MISBEHAVE = (
    BADUGI_KEY
    + r"""
import subprocess, time
MODE, MARK = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    if line.startswith(MARK):
        if MODE == "crash":
            raise SystemExit("boom: cannot handle " + line.strip())
        if MODE == "hang":
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
            open(sys.argv[3], "w").write(str(child.pid))
            time.sleep(600)
        if MODE == "extra":
            print("left")
        if MODE == "bytes":
            sys.stdout.flush()
            sys.stdout.buffer.write(b"l\xffeft\n")
            continue
        if MODE == "flood":
            while True:
                print("x" * 1000)
        if MODE == "quit":
            sys.exit(0)
        if MODE == "long":
            print("x" * 50000, flush=True)
            continue
    if MODE == "wrong" and line.strip() == MARK:
        print("left")
    else:
        print(["left", "right", "both"][side(line)])
    sys.stdout.flush()
if MODE == "status":
    sys.exit(3)
if MODE == "linger":
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
"""
)


@pytest.fixture(scope="module")
def programs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("answers")
    for name, text in {
        "badugi.py": BADUGI,
        "poker.py": POKER,
        "big2.py": BIG2,
        "sixcard.py": SIXCARD,
    }.items():
        (folder / name).write_text(text)
    return folder


def cmd(programs: Path, name: str, *args: str) -> Command:
    return Command((sys.executable, str(programs / name), *args))


def check(
    challenge: Challenge,
    command: Command,
    cases: list[Case] | None = None,
    *,
    count: int = 100,
    sandbox: Sandbox = "auto",
    **settings: float | bool,
) -> dict[str, object]:
    chosen = challenge.cases(count, 0) if cases is None else cases
    policy = Policy(sandbox)
    return verify(challenge, Settings(command, policy=policy, **settings), chosen).to_json()  # type: ignore[arg-type]


# --- the runner -----------------------------------------------------------------------------


def test_runner_feeds_large_input_while_reading_large_output() -> None:
    """A program that echoes as it reads cannot deadlock us on pipes bigger than a buffer."""
    data = b"".join(b"%06d\n" % i for i in range(100_000))
    script = "import sys\nfor line in sys.stdin: sys.stdout.write(line)"
    result = run(Command((sys.executable, "-c", script)), data, timeout=60, output_cap=1 << 22)
    assert result.stdout == data and result.returncode == 0 and not result.timed_out


def test_runner_caps_output_and_kills() -> None:
    script = "while True: print('x' * 100)"
    result = run(Command((sys.executable, "-c", script)), b"", timeout=60, output_cap=5000)
    assert result.output_capped and len(result.stdout) == 5000 and result.returncode < 0


def test_command_parsing() -> None:
    assert Command.parse('node "a b.js"').argv == ("node", "a b.js")
    assert Command.parse("echo $HOME").argv == ("echo", "$HOME")  # no shell: no expansion
    with pytest.raises(InputError, match="cannot split"):
        Command.parse('node "unclosed')
    with pytest.raises(InputError, match="empty"):
        Command.parse("  ")
    with pytest.raises(InputError, match="cannot run"):
        run(Command(("/nonexistent/answer",)), b"", timeout=1, output_cap=10)


# --- reading answers --------------------------------------------------------------------------


def test_answer_map() -> None:
    assert parse_answer_map("true=left,false=right,2=both") == {
        "true": "left",
        "false": "right",
        "2": "both",
    }
    for bad in ("1=up", "", "1=left,2=left", "1=left,1=both"):
        with pytest.raises(InputError):
            parse_answer_map(bad)


def badugi_brute(left: tuple[int, ...], right: tuple[int, ...]) -> str:
    """Who wins, by trying every sub-hand (ranks ace low)."""

    def low(card: int) -> int:
        return (card // 4 + 1) % 13

    def key(hand: tuple[int, ...]) -> tuple[int, list[int]]:
        for n in range(4, 0, -1):
            found = [
                sorted((low(c) for c in sub), reverse=True)
                for sub in combinations(hand, n)
                if len({low(c) for c in sub}) == n and len({c % 4 for c in sub}) == n
            ]
            if found:
                return (n, [-r for r in min(found)])
        raise AssertionError

    a, b = key(left), key(right)
    return "left" if a > b else "right" if b > a else "both"


def test_badugi_judge_matches_brute_force() -> None:
    """Of left/right/both, exactly the brute force's side is accepted, in every answer form."""
    challenge = make_challenge("badugi")
    mapped = make_challenge("badugi", answer_map="1=left,-1=right,0=both")
    rng = random.Random(7)
    for case in challenge.cases(300, 1):
        hands = case.hands
        truth = badugi_brute(*hands)
        for side, token, cards in (
            ("left", "1", " ".join(STANDARD.card_strings(hands[0][::-1]))),
            ("right", "-1", "".join(STANDARD.card_strings(hands[1]))),
            ("both", "0", challenge.format_input(hands)),
        ):
            ok = side == truth
            assert (challenge.judge(hands, side.upper()) is None) == ok
            assert (challenge.judge(hands, cards) is None) == ok
            assert (mapped.judge(hands, f" {token} ") is None) == ok
            assert (mapped.judge(hands, cards) is None) == ok
        assert challenge.judge(hands, "maybe") is not None
        assert mapped.judge(hands, "left") is not None  # a map is strict
        assert challenge.judge(hands, rng.choice(["", "Xx", "2c 3c"])) is not None


def test_big2_readings_and_forms() -> None:
    challenge = make_challenge("big2")
    hand = parse_cards("4D 4S 4H 4C 5H 5D 5C 5S 9S 9D 9H 9C AD")
    hands = (hand,)
    for answer in (
        "4D4S4H4CAD, 5D5H5C5S9S, 9D9H9C",
        "[[4D, 4S, 4H, 4C, AD], [5D, 5H, 5C, 5S, 9S], [9D, 9H, 9C]]",
        "9D9H9C 4D4S4H4CAD 5D5H5C5S9S",
        "4D 4S 4H 4C AD\n5D 5H 5C 5S 9S\n9D 9H 9C",
        "4d,4s,4h,4c,ad | 5d 5h 5c 5s 9s | 9d 9h 9c",
        "(('9D', '9H', '9C'), ('4D', '4S', '4H', '4C', 'AD'), ('5D', '5H', '5C', '5S', '9S'))",
    ):
        assert challenge.judge(hands, answer) is None, answer
    for answer, problem in (
        ("4D4S4H4C, AD5D5H5C5S9S, 9D9H9C", "not a play"),
        ("4D4S4H4CAD, 5D5H5C5S9S, 9D9H", "missing"),
        ("4D4S4H4CAD, 5D5H5C5S9S, 9D9H9C, 2C", "not in the hand"),
        ("4D4S4H4CAD, 5D5H5C5S, 9S, 9D9H9C", "not a play"),
        ("4D4S4H4CAD, 5D5H5C5S9S, 9D9H, 9C", "4 plays; the fewest is 3"),
        ("4D4S4H4CAD, 5D5H5C5S9S, 9D9H9X", "cannot read"),
    ):
        reason = challenge.judge(hands, answer)
        assert reason is not None and problem in reason, (answer, reason)
    as_ints = make_challenge("big2", input_format="ints")
    assert as_ints.format_input(hands) == json.dumps(list(hand), separators=(",", ":"))
    plays = [[8, 11, 10, 9, 49], [13, 14, 12, 15, 31], [30, 29, 28]]
    assert as_ints.judge(hands, json.dumps(plays)) is None
    assert as_ints.judge(hands, "[[8, 11, 10, 9, 49], [13, 14, 12, 15], [31, 30, 29, 28]]")


def test_sixcard_split_reading() -> None:
    assert read_split("[[4, 3, 2], [2, 1], [1]]") == ((2, 3, 4), (1, 2), (1,))
    assert read_split("1 12 234") == ((2, 3, 4), (1, 2), (1,))
    assert read_split("High: 2 3 4, Middle: 1 2, Low: 1") == ((2, 3, 4), (1, 2), (1,))
    assert read_split("1234") is None


# --- correct answers pass, in every allowed form ----------------------------------------------


@pytest.mark.parametrize(
    ("form", "answer_map", "input_format"),
    [
        ("words", None, "seed"),
        ("cards", None, "seed"),
        ("signed", "1=left,-1=right,0=both", "seed"),
        ("json", "true=left,false=right,2=both", "json"),
    ],
)
def test_correct_badugi_passes(
    programs: Path, form: str, answer_map: str | None, input_format: str
) -> None:
    challenge = make_challenge("badugi", input_format=input_format, answer_map=answer_map)
    report = check(challenge, cmd(programs, "badugi.py", form), count=300)
    assert report["passed"] is True and report["failures"] == 0
    assert report["cases"] == len(challenge.cases(300, 0)) and report["counterexample"] is None


def test_correct_badugi_per_case(programs: Path) -> None:
    challenge = make_challenge("badugi")
    cases = challenge.seed_cases()
    report = check(challenge, cmd(programs, "badugi.py", "words", "once"), cases, per_case=True)
    assert report["passed"] is True and report["cases"] == 9 and report["mode"] == "per-case"


def test_correct_poker_passes(programs: Path) -> None:
    report = check(make_challenge("poker"), cmd(programs, "poker.py"), count=500)
    assert report["passed"] is True and report["failures"] == 0


def test_correct_big2_passes_in_each_form(programs: Path) -> None:
    challenge = make_challenge("big2")
    assert check(challenge, cmd(programs, "big2.py"), count=40)["passed"] is True
    few = challenge.seed_cases()
    for form in ("lines", "brackets"):
        report = check(challenge, cmd(programs, "big2.py", form), few, per_case=True)
        assert report["passed"] is True, report


def test_sixcard_scores_the_strategy(programs: Path) -> None:
    report = check(make_challenge("sixcard"), cmd(programs, "sixcard.py"))
    assert report["passed"] is True and report["cases"] == 68
    scores = report["scores"]
    assert isinstance(scores, dict)
    # The program plays the sorted strategy: 1/2 against itself, and the seed's random score.
    assert scores["sorted"]["score"] == "1/2"
    assert scores["random"]["score"] == "404549/840840"
    assert scores["equilibrium"]["percent"] < 50


# --- wrong answers are caught with the smallest counterexample -------------------------------


def counterexample(report: dict[str, object]) -> dict[str, str]:
    assert report["passed"] is False
    example = report["counterexample"]
    assert isinstance(example, dict)
    return example


def test_greedy_badugi_is_caught(programs: Path) -> None:
    challenge = make_challenge("badugi")
    report = check(challenge, cmd(programs, "badugi.py", "words", "greedy"), count=200)
    assert isinstance(report["failures"], int) and report["failures"] > 10
    example = counterexample(report)
    # Greedy keeps Ac, then cannot use Ah, 2c or 3c: a 1-card hand instead of Ah 2c.
    assert example["input"] == "Ah Ac 2c 3c - Ad 3d 2d 2h"
    assert example["actual"] == "right"
    assert example["expected"].startswith("both")
    assert "2-card 2-A draws with 2-card 2-A" in example["expected"]
    hands = tuple(parse_cards(side) for side in example["input"].split(" - "))
    assert badugi_brute(*hands) == "both"


def test_big2_that_never_splits_triples_is_caught(programs: Path) -> None:
    challenge = make_challenge("big2")
    report = check(challenge, cmd(programs, "big2.py", "nosplit"), count=30)
    example = counterexample(report)
    # Three plays need the fours split: 333+44 full house, a club flush with 4C, 555.
    assert example["input"] == "5H,4C,5C,6C,5D,3C,7C,3D,4D,3S,4H,8C,3H"
    assert example["expected"] == "3 plays, e.g. 3D3H3S4D4H, 3C4C6C7C8C, 5D5C5H"
    assert example["reason"] == "5 plays; the fewest is 3"


def test_poker_without_the_wheel_is_caught(programs: Path) -> None:
    challenge = make_challenge("poker")
    report = check(challenge, cmd(programs, "poker.py", "nowheel"), count=50)
    example = counterexample(report)
    assert example["input"] == "3D 4C 2C 2H 3H AC 2D 3C 4D 5C"
    assert example["expected"] == "right (two pair 33224 loses to straight 5432A)"
    assert example["actual"] == "1"


def test_shrinking_stays_among_cases_the_map_can_answer(programs: Path) -> None:
    """A map without ``both`` leaves draws out, so shrinking must not walk into one either."""
    challenge = make_challenge("poker", answer_map="1=left,2=right")
    report = check(challenge, cmd(programs, "poker.py", "acehigh", "nodraw"), count=50)
    example = counterexample(report)
    cards = parse_cards(example["input"])
    assert len(poker.winners((tuple(cards[:5]), tuple(cards[5:])))) == 1, example
    assert "5432A" in example["expected"], example


def test_sixcard_answer_that_is_not_a_split(programs: Path) -> None:
    report = check(make_challenge("sixcard"), cmd(programs, "sixcard.py", "cheat"))
    example = counterexample(report)
    assert example["reason"] == "the split's cards are not the hand's"
    assert "scores" not in report


# --- misbehaving programs are failures with a clear reason, never a hang -------------------


def misbehaving(folder: Path, mode: str, *extra: str) -> Command:
    script = folder / "misbehave.py"
    script.write_text(MISBEHAVE)
    return Command((sys.executable, str(script), mode, *extra))


# Cases in measure order, so the counterexample is the marked case: ``Kc...`` is the largest.
SMALL = make_challenge("badugi").seed_cases()
MARK = "9c 9h"  # seed-5, near the end of the batch


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("crash", "exited with status 1 before answering: boom: cannot handle 9c 9h"),
        ("extra", "printed 2 lines for one case"),
        ("bytes", "not valid UTF-8"),
        ("quit", "no answer: the program printed"),
        ("flood", "cap"),
        ("status", "exited with status 3 after its last answer"),
    ],
)
def test_misbehaviour_is_reported(tmp_path: Path, mode: str, reason: str) -> None:
    challenge = make_challenge("badugi")
    report = check(challenge, misbehaving(tmp_path, mode, MARK), SMALL)
    example = counterexample(report)
    assert reason in example["reason"], example
    if mode != "status":
        assert report["failures"] == 1 and report["cases"] == 9
        assert report["failing_ids"] == ["seed-5"]


def test_per_case_exit_status_after_an_answer(tmp_path: Path) -> None:
    challenge = make_challenge("badugi")
    report = check(challenge, misbehaving(tmp_path, "status", MARK), SMALL[:2], per_case=True)
    example = counterexample(report)
    assert example["reason"] == "exited with status 3 after its answer", example
    assert example["actual"] in ("left", "both")


def test_long_answer_is_shortened_in_the_report(tmp_path: Path) -> None:
    challenge = make_challenge("badugi")
    report = check(challenge, misbehaving(tmp_path, "long", MARK), SMALL)
    example = counterexample(report)
    assert example["actual"].startswith("xxx") and len(example["actual"]) < 1000, len(
        example["actual"]
    )
    assert report["failing_ids"] == ["seed-5"]


def test_wrong_answer_is_shrunk_not_blamed_on_others(tmp_path: Path) -> None:
    """A program wrong only on the marked case: nothing smaller fails, so it is reported as is."""
    challenge = make_challenge("badugi")
    wrong = "9c 9h Qc Qh - Qs Kh Jh Kd"
    report = check(challenge, misbehaving(tmp_path, "wrong", wrong), SMALL)
    example = counterexample(report)
    assert report["failing_ids"] == ["seed-5"]
    assert example["input"] == "9c 9h Qc Qh - Qs Kh Jh Kd" and example["actual"] == "left"


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state == "Z"


def wait_until(condition: Callable[[], bool], seconds: float = 5) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_timeout_kills_the_process_group(tmp_path: Path) -> None:
    challenge = make_challenge("badugi")
    pid_file = tmp_path / "child.pid"
    command = misbehaving(tmp_path, "hang", MARK, str(pid_file))
    report = check(challenge, command, SMALL[3:6], timeout=3, sandbox="none")
    example = counterexample(report)
    assert "timed out" in example["reason"]
    assert report["failing_ids"] == ["seed-5"] and report["cases"] == 3
    assert wait_until(lambda: _gone(int(pid_file.read_text())))


def test_per_case_timeout_and_budget(tmp_path: Path) -> None:
    challenge = make_challenge("badugi")
    command = misbehaving(tmp_path, "hang", MARK, str(tmp_path / "pid"))
    report = check(challenge, command, SMALL, per_case=True, timeout=3, budget=60, sandbox="none")
    assert report["failing_ids"] == ["seed-5"] and report["cases"] == 9
    began = time.monotonic()
    report = check(
        challenge, command, SMALL[4:] * 3, per_case=True, timeout=30, budget=0.5, sandbox="none"
    )
    assert time.monotonic() - began < 10
    assert report["passed"] is False and isinstance(report["not_run"], int)
    assert report["not_run"] > 0


def test_batch_hang_cut_short_by_the_budget_says_so(tmp_path: Path) -> None:
    """The budget ends a hung batch before its (per case times cases) timeout: say it hung."""
    challenge = make_challenge("badugi")
    command = misbehaving(tmp_path, "hang", MARK, str(tmp_path / "pid"))
    report = check(challenge, command, SMALL, timeout=30, budget=1, sandbox="none")
    assert report["passed"] is False and report["not_run"] == 5
    assert "answered 4 of 9 case(s)" in str(report["notes"]), report


def test_lingering_child_does_not_hold_the_verifier(tmp_path: Path) -> None:
    challenge = make_challenge("badugi")
    began = time.monotonic()
    report = check(challenge, misbehaving(tmp_path, "linger", "no mark"), SMALL, timeout=20)
    assert report["passed"] is True
    assert time.monotonic() - began < 10


def test_program_reading_one_case_gets_a_hint(programs: Path) -> None:
    challenge = make_challenge("badugi")
    report = check(challenge, cmd(programs, "badugi.py", "words", "once"), SMALL)
    example = counterexample(report)
    assert "needs --per-case" in example["reason"]


# --- the CLI ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    from handsolver.solver.commands.golf import register

    app = typer.Typer()
    register(app)
    return app


def test_cli_verify_pass_and_fail(app: typer.Typer, programs: Path) -> None:
    runner = CliRunner()
    good = f"{sys.executable} {programs / 'poker.py'}"
    result = runner.invoke(app, ["verify", "poker", "--cmd", good, "--cases", "20"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("poker: PASS")
    bad = good + " nowheel"
    result = runner.invoke(app, ["verify", "poker", "--cmd", bad, "--cases", "20", "--json"])
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert {"passed", "cases", "failures", "counterexample"} <= report.keys()
    assert {"input", "expected", "actual"} <= report["counterexample"].keys()
    result = runner.invoke(app, ["verify", "poker", "--cmd", bad, "--cases", "20"])
    assert result.exit_code == 1 and "smallest failing case" in result.output


def test_cli_shell_option(app: typer.Typer, programs: Path) -> None:
    line = f"false || {sys.executable} {programs / 'sixcard.py'}"
    result = CliRunner().invoke(app, ["verify", "sixcard", "--cmd", line, "--shell"])
    assert result.exit_code == 0, result.output
    assert "score against sorted: 50.0000% (1/2)" in result.output
    result = CliRunner().invoke(app, ["verify", "sixcard", "--cmd", line])
    assert result.exit_code == 1  # without --shell, 'false' is the program


@pytest.mark.parametrize(
    "args",
    [
        ["verify", "badugi", "--cmd", "/nonexistent/answer"],
        ["verify", "badugi", "--cmd", "x", "--map", "1=left"],
        ["verify", "badugi", "--cmd", "x", "--map", "1=up,2=down"],
        ["verify", "big2", "--cmd", "x", "--map", "1=left,2=right,0=both"],
        ["verify", "badugi", "--cmd", "x", "--input-format", "yaml"],
        ["verify", "badugi", "--cmd", "'unbalanced"],
        ["verify", "chess", "--cmd", "x"],
        ["verify", "badugi", "--cmd", "x", "--timeout", "0"],
        ["verify", "badugi", "--cmd", "x", "--timeout", "nan"],
        ["verify", "badugi", "--cmd", "x", "--timeout", "inf"],
        ["verify", "badugi", "--cmd", "x", "--budget", "-1"],
        ["verify", "badugi", "--cmd", "x", "--budget", "nan"],
        ["verify", "badugi", "--cmd", "x", "--memory", "0"],
        ["verify", "badugi", "--cmd", "x", "--memory", "-2G"],
        ["verify", "badugi", "--cmd", "x", "--memory", "nan"],
        ["verify", "badugi", "--cmd", "x", "--cases", str(10**12)],
        ["verify", "badugi", "--cmd", "x", "--sandbox", "jail"],
        ["verify", "badugi", "--cmd", "x", "--env", "A=b"],
        ["verify", "badugi", "--cmd", "x", "--env", "HANDSOLVER_SURELY_UNSET"],
        ["cases", "badugi", "--cases", str(10**12)],
        ["cases", "badugi", "--out", "/nonexistent/dir/cases.txt"],
    ],
)
def test_cli_usage_errors(app: typer.Typer, args: list[str]) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_cli_usage_error_is_one_line(app: typer.Typer) -> None:
    result = CliRunner().invoke(app, ["verify", "badugi", "--cmd", "/nonexistent/answer"])
    assert result.output == "error: cannot run '/nonexistent/answer': No such file or directory\n"


def test_cli_cases_file(app: typer.Typer, tmp_path: Path) -> None:
    out = tmp_path / "badugi.cases"
    result = CliRunner().invoke(app, ["cases", "badugi", "--cases", "5", "--out", str(out)])
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    rows = [line.split("\t") for line in lines if not line.startswith("#")]
    assert rows[0] == ["seed-1", "3c 2s 4d Ah - As 3h 2d 4h", "3c 2s 4d Ah"]
    assert rows[1][2] == "3c 2s 4d Ah - As 2c 3d 4h"  # a draw lists both hands
    assert len(rows) == len(make_challenge("badugi").cases(5, 0))
    for _, line, expected in rows:
        hands = tuple(parse_cards(side) for side in line.split(" - "))
        truth = badugi_brute(*hands)
        assert expected == {"left": line.split(" - ")[0], "right": line.split(" - ")[1]}.get(
            truth, line
        )
    result = CliRunner().invoke(app, ["cases", "big2", "--cases", "2", "--json"])
    assert result.exit_code == 0
    first = json.loads(result.output)[0]
    assert first["input"] == "AS,4H,6D,8C,7C,3S,5H,8D,4C,2S,0C,AD,AH"
    assert first["expected"].count(",") == 4  # five plays


def test_cases_are_reproducible() -> None:
    """The same cases in processes with different string hash seeds; other random cases for
    another seed (the six-card game's cases are every hand, whatever the seed)."""
    names = ("badugi", "poker", "big2", "sixcard")
    code = (
        "from handsolver.solver.golf import make_challenge\n"
        f"for name in {names!r}:\n"
        "    print(make_challenge(name).cases(20, 3))\n"
    )
    first, *others = outputs_under_hash_seeds(code)
    assert all(other == first for other in others)
    for name in names:
        challenge = make_challenge(name)
        assert str(challenge.cases(20, 3)) in first
        if name != "sixcard":
            assert challenge.cases(20, 3) != challenge.cases(20, 4)


def test_cases_are_bounded() -> None:
    challenge = make_challenge("badugi")
    with pytest.raises(InputError, match="--cases must be between 0 and 200,000"):
        challenge.cases(10**12, 0)


def test_memory_sizes() -> None:
    assert golf_commands.memory_bytes("2G") == 2 << 30
    assert golf_commands.memory_bytes("1.5g") == 3 << 29
    assert golf_commands.memory_bytes("64MiB") == 64 << 20
    assert golf_commands.memory_bytes("100") == 100 << 20
    for bad in ("0", "15M", "-1G", "nan", "inf", "2X", ""):
        with pytest.raises(typer.BadParameter):
            golf_commands.memory_bytes(bad)


def test_cli_summary_and_json_say_the_isolation(app: typer.Typer, programs: Path) -> None:
    good = f"{sys.executable} {programs / 'poker.py'}"
    args = ["verify", "poker", "--cmd", good, "--cases", "5", "--sandbox", "none"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert re.match(
        r"poker: PASS  \d+ judged, 0 failed, 0 not run \(batch mode, sandbox none,", result.output
    )
    result = CliRunner().invoke(app, [*args, "--memory", "1G", "--json"])
    report = json.loads(result.output)
    assert report["sandbox"] == "none" and report["interrupted"] is None
    assert report["limits"]["memory_bytes"] == 1 << 30
    assert report["limits"]["timeout_seconds"] == 10


def test_only_timeouts_still_name_the_first(tmp_path: Path) -> None:
    """Two cases hang: nothing else failed, so the first hung case is the counterexample."""
    challenge = make_challenge("badugi")
    script = tmp_path / "hang_twice.py"
    script.write_text(
        BADUGI_KEY
        + """
import time
for line in sys.stdin:
    if line.startswith(("9c 9h", "Kc")):
        time.sleep(10)
    print(["left", "right", "both"][side(line)], flush=True)
"""
    )
    command = Command((sys.executable, str(script)))
    report = check(challenge, command, SMALL, timeout=2, startup=2)
    example = counterexample(report)
    assert report["failures"] == 2 and report["not_run"] == 0, report
    assert example["id"] == report["failing_ids"][0]
    assert "timed out" in example["reason"]


def test_progress_line_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    line = golf_commands.ProgressLine("badugi", 300)
    line(12, 1, 250.4)
    line(13, 1, 250.3)  # too soon after: not drawn again
    line.close()
    assert screen.getvalue() == (
        "\rverify badugi: 12/300 answered, 1 failed, 250 s left\x1b[K\r\x1b[K"
    )
