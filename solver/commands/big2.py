"""``handsolver big2``: the fewest Big 2 plays for a hand, answer checking, batches, statistics.

``handsolver big2 HAND`` runs the default ``solve`` command; ``check``, ``batch`` and ``stats``
are subcommands.  ``solver.big2`` imports OR-Tools only when CP-SAT runs, so a 13-card hand
(exact search) starts and finishes without loading it.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from handsolver.models.cards import DECK, Deal, InputError, mask_of, parse_deal
from handsolver.solver.big2 import (
    DEFAULT_TIME_LIMIT,
    Method,
    Partition,
    Prefer,
    all_optimal,
    check_answer_text,
    fewest_plays,
)
from handsolver.solver.commands.common import (
    print_json,
    print_table,
    progress,
    user_errors,
    write_atomic,
)


class DefaultCommandGroup(TyperGroup):
    """A group that runs ``default_command`` when the first argument names no subcommand.

    ``big2 AS 4H ...`` becomes ``big2 solve AS 4H ...``; ``big2 check ...`` and ``big2 --help``
    keep their meaning.
    """

    default_command = "solve"

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            args = [self.default_command, *args]
        result: list[str] = super().parse_args(ctx, args)
        return result


big2_app = typer.Typer(
    cls=DefaultCommandGroup,
    name="big2",
    no_args_is_help=True,
    help=(
        "Big 2: partition a hand into the fewest legal plays.  "
        "'big2 HAND' solves (the 'solve' command); see also check, batch, stats."
    ),
)


class PreferChoice(StrEnum):
    any = Prefer.ANY.value
    fewest_singles = Prefer.FEWEST_SINGLES.value
    strongest = Prefer.STRONGEST.value


class MethodChoice(StrEnum):
    auto = Method.AUTO.value
    exact = Method.EXACT.value
    cpsat = Method.CPSAT.value
    plain = Method.PLAIN.value


JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON.")]
PreferOption = Annotated[
    PreferChoice,
    typer.Option("--prefer", help="Which optimal partition to show when several tie."),
]
TimeLimitOption = Annotated[
    float, typer.Option("--time-limit", min=0.0, help="CP-SAT time limit in seconds.")
]
SeedOption = Annotated[int, typer.Option("--seed", help="CP-SAT random seed.")]
WorkersOption = Annotated[int, typer.Option("--workers", min=1, help="CP-SAT workers.")]


def _one_hand(texts: str | list[str]) -> Deal:
    """The one hand written in ``texts`` (several arguments are joined into one hand)."""
    deal = parse_deal(texts if isinstance(texts, str) else " ".join(texts))
    if len(deal.hands) != 1:
        raise InputError(f"give one hand, not {len(deal.hands)}")
    return deal


def _result_json(result: Partition, deal: Deal) -> dict[str, Any]:
    return {
        "count": result.count,
        "optimal": result.optimal,
        "bound": result.bound,
        "method": result.method,
        "plays": result.card_lists(deal.notation),
        "kinds": [play.kind.label for play in result.plays],
    }


@big2_app.command("solve")
def solve(
    hand: Annotated[list[str], typer.Argument(help="The hand, e.g. 'AS,4H,6D,8C,7C'.")],
    as_json: JsonOption = False,
    prefer: PreferOption = PreferChoice.any,
    method: Annotated[
        MethodChoice, typer.Option("--method", help="Engine (auto: exact search if small).")
    ] = MethodChoice.auto,
    time_limit: TimeLimitOption = DEFAULT_TIME_LIMIT,
    seed: SeedOption = 0,
    workers: WorkersOption = 1,
    every: Annotated[
        bool, typer.Option("--all", help="List every optimal partition (up to --limit).")
    ] = False,
    limit: Annotated[
        int, typer.Option("--limit", min=1, help="At most this many partitions with --all.")
    ] = 100,
) -> None:
    """The fewest plays that empty HAND (the default command): each play with its kind."""
    with user_errors():
        deal = _one_hand(hand)
    mask = mask_of(deal.hands[0])
    result = fewest_plays(
        mask,
        prefer=Prefer(prefer.value),
        method=Method(method.value),
        time_limit=time_limit,
        workers=workers,
        seed=seed,
    )
    out = _result_json(result, deal)
    if every:
        found = all_optimal(mask, limit=limit, time_limit=time_limit, workers=workers, seed=seed)
        out["partitions"] = found.count
        out["complete"] = found.complete
        out["listed"] = [
            [deal.notation.card_strings(play.cards) for play in plays] for plays in found.partitions
        ]
    if as_json:
        print_json(out)
        return
    proof = "optimal" if result.optimal else f"not proven optimal; at least {result.bound}"
    typer.echo(f"{result.count} play{'' if result.count == 1 else 's'} ({proof})")
    for play in result.plays:
        typer.echo(f"  {play.kind.label:<20} {' '.join(deal.notation.card_strings(play.cards))}")
    if every:
        how_many = "exactly" if out["complete"] else "at least"
        # Without a proof of the count, the partitions listed are only the best found.
        kind = "optimal partitions" if result.optimal else "partitions of the best count found"
        typer.echo(f"{how_many} {out['partitions']} {kind}")
        for number, plays in enumerate(out["listed"], 1):
            typer.echo(f"  {number:>4}. " + " | ".join(" ".join(play) for play in plays))


@big2_app.command("check")
def check(
    hand: Annotated[str, typer.Argument(help="The hand.")],
    answer: Annotated[
        str, typer.Argument(help="Claimed plays, e.g. 'ASAHAD8D8C, 4C, 7C' ('-' for stdin).")
    ],
    as_json: JsonOption = False,
    time_limit: TimeLimitOption = DEFAULT_TIME_LIMIT,
) -> None:
    """Is ANSWER a partition of HAND into legal plays, and the fewest?  Exit 0 only if both."""
    with user_errors():
        deal = _one_hand(hand)
        verdict = check_answer_text(
            deal.hands[0],
            sys.stdin.read() if answer == "-" else answer,
            notation=deal.notation,
            time_limit=time_limit,
        )
    if as_json:
        print_json(
            {
                "valid": verdict.valid,
                "optimal": verdict.optimal,
                "count": verdict.count,
                "best": verdict.best,
                "problems": list(verdict.problems),
            }
        )
    else:
        typer.echo(f"valid: {'yes' if verdict.valid else 'no'}")
        typer.echo(f"optimal: {'yes' if verdict.optimal else 'no'}")
        typer.echo(f"plays: {verdict.count} (fewest possible: {verdict.best})")
        for problem in verdict.problems:
            typer.echo(f"  - {problem}")
    raise typer.Exit(0 if verdict.optimal else 1)


Job = tuple[int, Deal, str, int, float, str]


def _solve_line(job: Job) -> str:
    """One JSON line for one parsed hand (top level so worker processes can run it)."""
    number, deal, text, seed, time_limit, prefer = job
    mask = mask_of(deal.hands[0])
    result = fewest_plays(mask, prefer=Prefer(prefer), time_limit=time_limit, seed=seed)
    return json.dumps({"line": number, "hand": text, **_result_json(result, deal)})


def _read_jobs(source: str, seed: int, time_limit: float, prefer: str) -> list[Job]:
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{source!r} is not UTF-8 text: {error.reason}") from None
    jobs = []
    # Editors on Windows may start a UTF-8 file with a byte order mark.
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            deal = _one_hand(line)
        except InputError as error:
            raise InputError(f"line {number}: {error}") from None
        jobs.append((number, deal, line, seed, time_limit, prefer))
    return jobs


@big2_app.command("batch")
def batch(
    file: Annotated[str, typer.Argument(help="One hand a line ('-' for stdin); '#' comments.")],
    workers: Annotated[int, typer.Option("--workers", min=1, help="Processes.")] = 1,
    prefer: PreferOption = PreferChoice.any,
    time_limit: TimeLimitOption = DEFAULT_TIME_LIMIT,
    seed: SeedOption = 0,
    as_json: Annotated[
        bool, typer.Option("--json", help="Accepted for uniformity: the output is always JSON.")
    ] = True,
) -> None:
    """Solve many hands: one JSON object a line, in input order."""
    with user_errors():
        jobs = _read_jobs(file, seed, time_limit, prefer.value)
    for line in progress(_run(jobs, workers), len(jobs), "big2"):
        typer.echo(line)


def _run(jobs: list[Job], workers: int) -> Iterator[str]:
    if workers == 1 or len(jobs) < 2:
        yield from map(_solve_line, jobs)
        return
    from multiprocessing import Pool

    with Pool(workers) as pool:
        yield from pool.imap(_solve_line, jobs, chunksize=max(1, min(256, len(jobs) // workers)))


@big2_app.command("stats")
def stats(
    deals: Annotated[int, typer.Option("--deals", min=1, help="Random hands to solve.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the random deals.")] = 0,
    hand_size: Annotated[
        int, typer.Option("--hand-size", min=1, max=52, help="Cards per hand.")
    ] = 13,
    csv: Annotated[
        Path | None, typer.Option("--csv", help="Also save the histogram as CSV.")
    ] = None,
    as_json: JsonOption = False,
    time_limit: TimeLimitOption = DEFAULT_TIME_LIMIT,
) -> None:
    """Distribution of the fewest plays over random hands dealt from a shuffled deck."""
    rng = random.Random(seed)
    hands = (mask_of(rng.sample(DECK, hand_size)) for _ in range(deals))
    histogram: Counter[int] = Counter()
    proven = 0
    for mask in progress(hands, deals, "big2 stats"):
        result = fewest_plays(mask, time_limit=time_limit)
        histogram[result.count] += 1
        proven += result.optimal
    rows = sorted(histogram.items())
    mean = sum(plays * n for plays, n in rows) / deals
    if csv is not None:
        with user_errors():
            lines = ["plays,deals,share"] + [f"{p},{n},{n / deals:.6f}" for p, n in rows]
            write_atomic(csv, "\n".join(lines) + "\n")
    if as_json:
        print_json(
            {
                "deals": deals,
                "hand_size": hand_size,
                "seed": seed,
                "mean": mean,
                "all_optimal": proven == deals,
                "histogram": {str(plays): n for plays, n in rows},
            }
        )
        return
    typer.echo(f"fewest plays over {deals} random {hand_size}-card hands (seed {seed})")
    print_table(None, ["plays", "hands", "share"], [(p, n, f"{n / deals:.1%}") for p, n in rows])
    widest = max(histogram.values())
    for plays, n in rows:
        typer.echo(f"{plays:>3} | {'#' * max(1, round(40 * n / widest))} {n}")
    typer.echo(f"mean {mean:.3f} plays; {'all' if proven == deals else proven} proven optimal")


def register(app: typer.Typer) -> None:
    """Add ``big2`` and its subcommands to ``app``."""
    app.add_typer(big2_app, name="big2")
