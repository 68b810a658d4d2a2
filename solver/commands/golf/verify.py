"""CLI commands for the golf-answer verifier: ``handsolver verify`` and ``handsolver cases``."""

from __future__ import annotations

import math
import re
import sys
import time
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from handsolver.solver.commands.errors import user_errors
from handsolver.solver.commands.options import MAX_SEED, SandboxName, SandboxOption
from handsolver.solver.commands.output import print_json, write_atomic
from handsolver.solver.golf.challenge import MAX_CASES

if TYPE_CHECKING:
    from handsolver.solver.golf import Report


def _positive(value: float) -> float:
    """A finite number of seconds above zero (NaN, infinity, zero and negatives are not)."""
    if not math.isfinite(value) or value <= 0:
        raise typer.BadParameter(f"must be a finite number above 0, not {value}")
    return value


_UNITS = {"": 1 << 20, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
MIN_MEMORY = 16 << 20


def memory_bytes(text: str) -> int:
    """``--memory``: a size with K, M, G or T (binary units; a bare number is MiB).

    >>> memory_bytes("2G"), memory_bytes("512MiB"), memory_bytes("300")
    (2147483648, 536870912, 314572800)
    """
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([kmgt]?)(?:i?b)?\s*", text, re.IGNORECASE)
    if match is None:
        raise typer.BadParameter(f"cannot read size {text!r}; write e.g. 512M or 2G")
    size = float(match.group(1)) * _UNITS[match.group(2).lower()]
    if not math.isfinite(size) or size < MIN_MEMORY:
        raise typer.BadParameter(f"{text!r} is below the smallest limit, 16M")
    return int(size)


class ChallengeName(StrEnum):
    badugi = "badugi"
    big2 = "big2"
    poker = "poker"
    sixcard = "sixcard"


ChallengeArg = Annotated[
    ChallengeName, typer.Argument(help="The challenge: badugi, big2, poker or sixcard.")
]
CasesOpt = Annotated[
    int | None,
    typer.Option(
        "--cases",
        min=0,
        max=MAX_CASES,
        help="Random cases on top of the challenge's own and adversarial ones (default 1000 "
        f"for badugi and poker, 300 for big2, at most {MAX_CASES}; sixcard always asks all 68 "
        "hands).",
    ),
]
SeedOpt = Annotated[
    int,
    typer.Option(
        "--seed", min=0, max=MAX_SEED, help="Seed for the generated cases (0 to 2**31-1)."
    ),
]
FormatOpt = Annotated[
    str,
    typer.Option(
        "--input-format",
        metavar="seed|json|compact|spaced|ints",
        help="How each case is written: seed (the challenge's own notation), json, compact "
        "(badugi, poker, big2), spaced (big2, sixcard), ints (big2: card numbers rank*4+suit).",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
RulesOpt = Annotated[
    str | None,
    typer.Option(
        "--rules",
        metavar="RULES",
        help="big2 only: the rules to judge by, a profile and switches, e.g. 'hk --no-triples' "
        "(default seed, the challenge's own).",
    ),
]


class ProgressLine:
    """One live line on stderr (a terminal only): cases answered, failures, budget left."""

    def __init__(self, name: str, total: int) -> None:
        self.name = name
        self.total = total
        self.enabled = sys.stderr.isatty()
        self.shown = 0.0

    def __call__(self, answered: int, failed: int, left: float) -> None:
        now = time.monotonic()
        if not self.enabled or now - self.shown < 0.1:
            return
        self.shown = now
        sys.stderr.write(
            f"\rverify {self.name}: {answered}/{self.total} answered, {failed} failed,"
            f" {left:.0f} s left\x1b[K"
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _print_report(report: Report) -> None:
    verdict = "PASS" if report.passed else "FAIL"
    summary = f"{report.cases} judged, {report.failures} failed, {report.not_run} not run"
    typer.echo(
        f"{report.challenge}: {verdict}  {summary} ({report.mode} mode, sandbox"
        f" {report.sandbox}, {report.seconds:.2f} s)"
    )
    example = report.counterexample
    if example is not None:
        origin = example.id
        if example.shrunk_from is not None:
            origin += f", shrunk in {example.shrink_steps} step(s) from {example.shrunk_from!r}"
        typer.echo(f"smallest failing case ({origin}):")
        typer.echo(f"  input:    {example.input}")
        typer.echo(f"  expected: {example.expected}")
        typer.echo(f"  actual:   {example.actual if example.actual else '(nothing)'}")
        typer.echo(f"  reason:   {example.reason}")
    for name, score in report.extra.get("scores", {}).items():
        typer.echo(f"score against {name}: {score['percent']:.4f}% ({score['score']})")
    for note in report.notes:
        typer.echo(f"note: {note}")


def verify_command(
    challenge: ChallengeArg,
    cmd: Annotated[
        str,
        typer.Option(
            "--cmd",
            metavar="PROGRAM",
            help='The answer program, e.g. "node answer.js"; split like a shell would, '
            "but run without one unless --shell.",
        ),
    ],
    shell: Annotated[bool, typer.Option("--shell", help="Run --cmd through /bin/sh -c.")] = False,
    per_case: Annotated[
        bool,
        typer.Option(
            "--per-case", help="Start the program once per case; its whole stdout is the answer."
        ),
    ] = False,
    cases: CasesOpt = None,
    seed: SeedOpt = 0,
    answer_map: Annotated[
        str | None,
        typer.Option(
            "--map",
            metavar="MAPPING",
            help="What the answer's outputs mean (badugi, poker), e.g. "
            '"1=left,-1=right,0=both" or "true=left,false=right,2=both".',
        ),
    ] = None,
    input_format: FormatOpt = "seed",
    timeout: Annotated[
        float,
        typer.Option(
            "--timeout",
            max=3600.0,
            callback=_positive,
            help="Seconds allowed per case, at most 3600; in batch mode, per answer line after "
            "the previous one (the first gets 5 s more).",
        ),
    ] = 10.0,
    budget: Annotated[
        float,
        typer.Option(
            "--budget",
            max=86400.0,
            callback=_positive,
            help="Seconds allowed in all (at most a day), case generation and shrinking included.",
        ),
    ] = 300.0,
    sandbox: SandboxOption = SandboxName.auto,
    memory: Annotated[
        int,
        typer.Option(
            "--memory",
            parser=memory_bytes,
            metavar="SIZE",
            help="Address-space limit of the program, e.g. 512M or 2G (binary units).",
        ),
    ] = "2G",  # type: ignore[assignment]
    env: Annotated[
        list[str] | None,
        typer.Option(
            "--env",
            metavar="NAME",
            help="Pass this environment variable to the program (repeatable); it sees only "
            "PATH, LANG, HOME and TMPDIR otherwise.",
        ),
    ] = None,
    no_shrink: Annotated[
        bool, typer.Option("--no-shrink", help="Report the failing case as found.")
    ] = False,
    rules: RulesOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run an answer program on a challenge's own, adversarial and random cases.

    All cases go to one process, one per line; --per-case starts one each.
    Every run is isolated: a sandbox (bubblewrap, or namespaces or Landlock
    built from the kernel; --sandbox none only when asked for), and limits on
    memory, CPU time, files and processes always.

    Exit 0 when every answer is right, 1 when any is wrong (the smallest
    failing case is shown), 2 for a usage error, 130 or 143 when stopped by
    SIGINT or SIGTERM (the cases judged until then are reported).
    """
    from handsolver.solver.golf import Command, Settings, make_challenge, verify
    from handsolver.solver.sandbox.isolation import Limits, Policy, check_env_names, resolve
    from handsolver.solver.sandbox.runner import StopSignals

    began = time.monotonic()
    with user_errors():
        game = make_challenge(
            challenge.value, input_format=input_format, answer_map=answer_map, rules=rules
        )
        policy = Policy(sandbox.value, Limits(memory=memory), check_env_names(env or []))
        settings = Settings(
            Command.parse(cmd, shell=shell),
            per_case=per_case,
            timeout=timeout,
            budget=budget,
            policy=policy,
        )
        resolve(policy.sandbox)  # no sandbox to be had is an error before any work
        count = game.default_cases if cases is None else cases
        with StopSignals() as stop:
            all_cases = game.cases(count, seed)
            line = ProgressLine(game.name, len(all_cases))
            try:
                report = verify(
                    game,
                    settings,
                    all_cases,
                    shrink=not no_shrink,
                    began=began,
                    on_progress=line,
                )
            finally:
                line.close()
    if as_json:
        print_json(report.to_json())
    else:
        _print_report(report)
    if stop.signum:
        raise typer.Exit(128 + stop.signum)
    raise typer.Exit(0 if report.passed else 1)


def cases_command(
    challenge: ChallengeArg,
    cases: CasesOpt = None,
    seed: SeedOpt = 0,
    input_format: FormatOpt = "seed",
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the cases here instead of stdout.")
    ] = None,
    rules: RulesOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Write a challenge's cases with a correct answer each, for testing elsewhere.

    One case per line: id, input and expected answer, separated by tabs (--json for JSON).
    For big2 any other partition into as few legal plays is right too.
    """
    from handsolver.solver.golf import make_challenge

    with user_errors():
        game = make_challenge(challenge.value, input_format=input_format, rules=rules)
        count = game.default_cases if cases is None else cases
        rows = [
            (case.id, game.format_input(case.hands), game.answer(case.hands))
            for case in game.cases(count, seed)
        ]
        if as_json:
            import json

            # Each case carries how the challenge was set up (the Big 2 rules), so that a case
            # read on its own still says which rules its expected answer is right under.
            settings = game.settings_json()
            cases_json = [
                {"id": i, "input": line, "expected": answer, **settings} for i, line, answer in rows
            ]
            text = json.dumps(cases_json, indent=2) + "\n"
        else:
            header = (
                f"# handsolver cases {challenge.value} --cases {count} --seed {seed}"
                f" --input-format {input_format}"
                + (f" --rules {rules!r}" if rules else "")
                + "\n# id\tinput\texpected\n"
            )
            text = header + "".join(f"{i}\t{line}\t{answer}\n" for i, line, answer in rows)
        if out is None:
            typer.echo(text, nl=False)
        else:
            write_atomic(out, text)
            typer.echo(f"wrote {len(rows)} cases to {out}", err=True)
