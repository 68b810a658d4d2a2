"""Benchmark the golf-answer verifier's own overhead.

Target: 10,000 Badugi cases against a fast correct answer in batch mode in under 2 s of
verifier overhead.  Overhead = case generation + the whole verification run - the time the
same answer program takes on the same input when simply piped (no verifier).  Per-case mode
on a few hundred cases is timed alongside, to show what batch mode saves.

    python scripts/bench_golf.py [--cases 10000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import median_time

from handsolver.solver.golf import Command, Settings, make_challenge, verify

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
    args = parser.parse_args()

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
        settings = Settings(command)
        total, report = median_time(lambda: verify(challenge, settings, cases), args.repeats)
        assert getattr(report, "passed", False), report
        overhead = generate + total - raw
        print(f"badugi batch: {len(cases)} cases (--cases {args.cases}), {args.repeats} repeats")
        verdict = "OK" if overhead < 2 else "OVER"
        for label, seconds in (
            ("generate cases", generate),
            ("verify run (program + judging)", total),
            ("program alone, piped", raw),
            ("verifier overhead", overhead),
        ):
            print(f"  {label:<34} {seconds:7.3f} s")
        print(f"  target: overhead < 2 s: {verdict}")

        few = cases[: args.per_case]
        per_case_settings = Settings(command, per_case=True)
        repeats = max(1, args.repeats // 2)
        per_case, _ = median_time(lambda: verify(challenge, per_case_settings, few), repeats)
        batch_few, _ = median_time(lambda: verify(challenge, settings, few), repeats)
        print(f"per-case vs batch on {len(few)} cases:")
        print(f"  per-case  {per_case:7.3f} s  ({per_case / len(few) * 1000:.1f} ms per case)")
        print(f"  batch     {batch_few:7.3f} s")
        print(f"  ratio     {per_case / batch_few:7.1f}x")


if __name__ == "__main__":
    main()
