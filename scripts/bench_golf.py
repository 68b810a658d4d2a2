"""Benchmark the golf-answer verifier's own overhead, and what its sandbox costs.

Target: 10,000 Badugi cases against a fast correct answer in batch mode, sandbox in force, in
under 3 s of verifier overhead.  Overhead = case generation + the whole verification run - the
time the same answer program takes on the same input when simply piped (no verifier).  Every
sandbox that can run here is timed (bubblewrap, the namespaces and Landlock the verifier builds
itself), beside limits only (``none``): per batch, and per run (``/bin/true`` through the
runner, beside a plain ``subprocess.run``), with ratios to ``none`` and to ``bwrap``; per-case
mode on a few hundred cases is timed alongside, to show what batch mode saves.

    python scripts/bench_golf.py [--cases 10000] [--repeats 5] [--runs 40]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import median_time

from handsolver.solver.golf import Command, Settings, make_challenge, verify
from handsolver.solver.sandbox.isolation import ISOLATIONS, Policy, isolation_error
from handsolver.solver.sandbox.runner import run

# A correct Badugi answer: every sub-hand tried, keys cached per hand.
ANSWER = r"""
import sys
from functools import lru_cache
from itertools import combinations
R = "A23456789TJQK"

@lru_cache(maxsize=None)
def key(hand):
    for n in range(4, 0, -1):
        found = [sorted((R.index(c[0]) for c in sub), reverse=True)
                 for sub in combinations(hand, n)
                 if len({c[0] for c in sub}) == n and len({c[1] for c in sub}) == n]
        if found:
            return (n, [-r for r in min(found)])

out = []
for line in sys.stdin:
    left, right = (tuple(sorted(side.split())) for side in line.split(" - "))
    a, b = key(left), key(right)
    out.append("left" if a > b else "right" if b > a else "both")
sys.stdout.write("\n".join(out) + "\n")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--per-case", type=int, default=200, dest="per_case")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--runs", type=int, default=40, help="runs of /bin/true per figure")
    args = parser.parse_args()
    sandboxes = ["none"]
    for mode in ISOLATIONS:
        why = isolation_error(mode)
        if why:
            print(f"{mode}: {why}; not timed")
        else:
            sandboxes.append(mode)

    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "answer.py"
        script.write_text(ANSWER)
        command = Command((sys.executable, str(script)))
        challenge = make_challenge("badugi")

        generate, cases = median_time(lambda: challenge.cases(args.cases, 0), args.repeats)
        assert isinstance(cases, list)
        data = "".join(challenge.format_input(case.hands) + "\n" for case in cases).encode()
        raw, _ = median_time(
            lambda: subprocess.run(command.argv, input=data, capture_output=True, check=True),
            args.repeats,
        )
        totals = {}
        for sandbox in sandboxes:
            settings = Settings(command, policy=Policy(sandbox))  # type: ignore[arg-type]
            totals[sandbox], report = median_time(
                lambda settings=settings: verify(challenge, settings, cases), args.repeats
            )
            assert getattr(report, "passed", False), report
        print(f"badugi batch: {len(cases)} cases (--cases {args.cases}), {args.repeats} repeats")
        rows = [("generate cases", generate), ("program alone, piped", raw)]
        for sandbox, total in totals.items():
            rows.append((f"verify run, sandbox {sandbox}", total))
        overheads = {sandbox: generate + total - raw for sandbox, total in totals.items()}
        for sandbox, overhead in overheads.items():
            rows.append((f"verifier overhead, sandbox {sandbox}", overhead))
        for label, seconds in rows:
            print(f"  {label:<38} {seconds:7.3f} s")
        worst = max(overheads[s] for s in sandboxes[1:]) if sandboxes[1:] else overheads["none"]
        verdict = "OK" if worst < 3 else "OVER"
        print(f"  target: overhead < 3 s with every sandbox: {verdict}")

        print(f"one run of /bin/true, median of {args.runs}:")
        true = Command(("/bin/true",))
        plain, _ = median_time(lambda: subprocess.run(true.argv, check=True), args.runs)
        print(f"  {'plain subprocess.run':<34} {plain * 1000:7.1f} ms")
        each = {}
        for sandbox in sandboxes:
            policy = Policy(sandbox)  # type: ignore[arg-type]
            each[sandbox], _ = median_time(
                lambda policy=policy: run(true, b"", timeout=10, output_cap=100, policy=policy),
                args.runs,
            )
            ratios = f"{each[sandbox] / each['none']:5.2f}x none"
            if "bwrap" in each:
                ratios += f"  {each[sandbox] / each['bwrap']:5.2f}x bwrap"
            print(
                f"  {'runner, sandbox ' + sandbox:<34} {each[sandbox] * 1000:7.1f} ms"
                f"  (+{(each[sandbox] - plain) * 1000:5.1f} ms)  {ratios}"
            )

        few = cases[: args.per_case]
        repeats = max(1, args.repeats // 2)
        chosen = sandboxes[1] if len(sandboxes) > 1 else "none"  # what --sandbox auto takes
        print(f"per-case vs batch on {len(few)} cases:")
        batch_few, _ = median_time(
            lambda: verify(challenge, Settings(command, policy=Policy(chosen)), few),  # type: ignore[arg-type]
            repeats,
        )
        per_case = {}
        for sandbox in sandboxes:
            settings = Settings(command, per_case=True, policy=Policy(sandbox))  # type: ignore[arg-type]
            per_case[sandbox], _ = median_time(
                lambda settings=settings: verify(challenge, settings, few), repeats
            )
            print(
                f"  {'per-case, sandbox ' + sandbox:<30} {per_case[sandbox]:7.3f} s"
                f"  ({per_case[sandbox] / len(few) * 1000:.1f} ms per case)"
            )
        print(f"  {'batch, sandbox ' + chosen:<30} {batch_few:7.3f} s")
        print(f"  {'ratio per-case / batch':<30} {per_case[chosen] / batch_few:7.1f}x")


if __name__ == "__main__":
    main()
