"""CLI commands for the golf-answer verifier: ``handsolver verify`` and ``handsolver cases``."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from handsolver.solver.commands.common import print_json, progress, user_errors, write_atomic

if TYPE_CHECKING:
    from handsolver.solver.golf import Report


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
        help="Random cases on top of the seed and adversarial ones (default 1000 for badugi "
        "and poker, 300 for big2; sixcard always asks all 68 hands).",
    ),
]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed for the generated cases.")]
FormatOpt = Annotated[
    str,
    typer.Option(
        "--input-format",
        help="How each case is written: seed (the challenge's own notation), json, compact "
        "(badugi, poker, big2), spaced (big2, sixcard), ints (big2: card numbers rank*4+suit).",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]


def _print_report(report: Report) -> None:
    verdict = "PASS" if report.passed else "FAIL"
    summary = f"{report.failures} of {report.cases} cases failed" if report.failures else ""
    summary = summary or f"{report.cases} cases"
    if report.not_run:
        summary += f", {report.not_run} not run"
    typer.echo(
        f"{report.challenge}: {verdict}  {summary} ({report.mode} mode, {report.seconds:.2f} s)"
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
            help="What the answer's outputs mean (badugi, poker), e.g. "
            '"1=left,-1=right,0=both" or "true=left,false=right,2=both".',
        ),
    ] = None,
    input_format: FormatOpt = "seed",
    timeout: Annotated[
        float, typer.Option("--timeout", min=0.01, help="Seconds allowed per case.")
    ] = 10.0,
    budget: Annotated[
        float,
        typer.Option("--budget", min=0.01, help="Seconds allowed in all, shrinking included."),
    ] = 300.0,
    no_shrink: Annotated[
        bool, typer.Option("--no-shrink", help="Report the failing case as found.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Run an answer program on a challenge's seed, adversarial and random cases.

    Exit 0 when every answer is right, 1 when any is wrong (the smallest failing case is shown).
    Exit 2 for a usage error.  All cases go to one process, one per line; --per-case runs one each.
    """
    from handsolver.solver.golf import Command, Settings, make_challenge, verify

    with user_errors():
        game = make_challenge(challenge.value, input_format=input_format, answer_map=answer_map)
        settings = Settings(
            Command.parse(cmd, shell=shell), per_case=per_case, timeout=timeout, budget=budget
        )
        count = game.default_cases if cases is None else cases
        all_cases = game.cases(count, seed)
        report = verify(
            game,
            settings,
            all_cases,
            shrink=not no_shrink,
            wrap=lambda indices: progress(indices, len(all_cases), f"verify {game.name}"),
        )
    if as_json:
        print_json(report.to_json())
    else:
        _print_report(report)
    raise typer.Exit(0 if report.passed else 1)


def cases_command(
    challenge: ChallengeArg,
    cases: CasesOpt = None,
    seed: SeedOpt = 0,
    input_format: FormatOpt = "seed",
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the cases here instead of stdout.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Write a challenge's cases with a correct answer each, for testing elsewhere.

    One case per line: id, input and expected answer, separated by tabs (--json for JSON).
    For big2 any other partition into as few legal plays is right too.
    """
    from handsolver.solver.golf import make_challenge

    with user_errors():
        game = make_challenge(challenge.value, input_format=input_format)
        count = game.default_cases if cases is None else cases
        rows = [
            (case.id, game.format_input(case.hands), game.answer(case.hands))
            for case in game.cases(count, seed)
        ]
        if as_json:
            import json

            text = (
                json.dumps(
                    [{"id": i, "input": line, "expected": answer} for i, line, answer in rows],
                    indent=1,
                )
                + "\n"
            )
        else:
            header = (
                f"# handsolver cases {challenge.value} --cases {count} --seed {seed}"
                f" --input-format {input_format}\n# id\tinput\texpected\n"
            )
            text = header + "".join(f"{i}\t{line}\t{answer}\n" for i, line, answer in rows)
        if out is None:
            typer.echo(text, nl=False)
        else:
            write_atomic(out, text)
            typer.echo(f"wrote {len(rows)} cases to {out}", err=True)


def register(app: typer.Typer) -> None:
    """Add ``verify`` and ``cases`` to the app."""
    app.command("verify")(verify_command)
    app.command("cases")(cases_command)
