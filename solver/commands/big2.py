"""``handsolver big2``: the fewest Big 2 plays for a hand, answer checking, batches, statistics.

``handsolver big2 HAND`` runs the default ``solve`` command; ``check``, ``batch`` and ``stats``
are subcommands.  ``solver.big2`` imports OR-Tools only when CP-SAT runs, so a 13-card hand
(exact search) starts and finishes without loading it.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from enum import StrEnum
from functools import partial
from typing import Annotated, Any

import typer

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
from handsolver.solver.commands.deal_batch import run_deal_batch
from handsolver.solver.commands.errors import user_errors
from handsolver.solver.commands.groups import default_group
from handsolver.solver.commands.inputs import card_texts, read_text
from handsolver.solver.commands.options import (
    BatchJsonOption,
    JsonOption,
    OutOption,
    SchedulerOption,
    SeedOption,
    WorkersOption,
)
from handsolver.solver.commands.output import print_json, write_atomic
from handsolver.solver.commands.progress import progress
from handsolver.solver.commands.table import print_table

big2_app = typer.Typer(
    cls=default_group("solve"),
    name="big2",
    rich_markup_mode=None,
    subcommand_metavar="HAND... | COMMAND [ARGS]...",
    help="Big 2: partition a hand into the fewest legal plays.\n\n"
    "'big2 HAND...' solves (the 'solve' command); see also check, batch, stats.",
)

MAX_TIME_LIMIT = 86_400.0
MAX_LIMIT = 1_000_000
MAX_DEALS = 10_000_000


class PreferChoice(StrEnum):
    any = Prefer.ANY.value
    fewest_singles = Prefer.FEWEST_SINGLES.value
    strongest = Prefer.STRONGEST.value


class MethodChoice(StrEnum):
    auto = Method.AUTO.value
    exact = Method.EXACT.value
    cpsat = Method.CPSAT.value
    plain = Method.PLAIN.value


PreferOption = Annotated[
    PreferChoice,
    typer.Option("--prefer", help="Which optimal partition to show when several tie."),
]
TimeLimitOption = Annotated[
    float,
    typer.Option(
        "--time-limit",
        min=0.0,
        max=MAX_TIME_LIMIT,
        metavar="SECONDS",
        help="CP-SAT time limit in seconds (0 to 86400).",
    ),
]


def _one_hand(texts: str | list[str]) -> Deal:
    """The one hand written in ``texts`` (several arguments are joined into one hand)."""
    deal = parse_deal(texts if isinstance(texts, str) else " ".join(texts))
    if len(deal.hands) != 1:
        raise InputError(f"give one hand, not {len(deal.hands)}")
    if not deal.hands[0]:
        raise InputError("no cards given")
    return deal


def _balanced(answer: str) -> str:
    """``answer`` if its brackets pair up, e.g. not ``[[AS, 4H``."""
    closing = {")": "(", "]": "[", "}": "{"}
    stack: list[str] = []
    for char in answer:
        if char in "([{":
            stack.append(char)
        elif char in closing:
            if not stack or stack.pop() != closing[char]:
                raise InputError(f"unbalanced {char!r} in the answer")
    if stack:
        raise InputError(f"unbalanced {stack[-1]!r} in the answer: it is never closed")
    return answer


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
    hand: Annotated[
        list[str],
        typer.Argument(
            metavar="HAND...",
            help="The hand, e.g. 'AS,4H,6D,8C,7C' (several arguments are joined); '-' reads it "
            "from standard input.",
            show_default=False,
        ),
    ],
    as_json: JsonOption = False,
    prefer: PreferOption = PreferChoice.any,
    method: Annotated[
        MethodChoice, typer.Option("--method", help="Engine (auto: exact search if small).")
    ] = MethodChoice.auto,
    time_limit: TimeLimitOption = DEFAULT_TIME_LIMIT,
    seed: SeedOption = 0,
    threads: Annotated[
        int, typer.Option("--threads", min=1, max=256, help="CP-SAT search threads (1 to 256).")
    ] = 1,
    # --workers means processes everywhere else; the old spelling of --threads still works.
    old_threads: Annotated[
        int | None, typer.Option("--workers", min=1, max=256, hidden=True)
    ] = None,
    every: Annotated[
        bool, typer.Option("--all", help="List every optimal partition (up to --limit).")
    ] = False,
    limit: Annotated[
        int,
        typer.Option(
            "--limit", min=1, max=MAX_LIMIT, help="At most this many partitions with --all."
        ),
    ] = 100,
) -> None:
    """The fewest plays that empty HAND (the default command): each play with its kind.

    Example: handsolver big2 "AS,4H,6D,8C,7C,3S,5H,8D,4C,2S,0C,AD,AH"
    """
    workers = old_threads or threads
    with user_errors():
        deal = _one_hand(card_texts(hand))
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
        shown = len(out["listed"])
        showing = f", showing {shown} of {out['partitions']}" if shown < out["partitions"] else ""
        typer.echo(f"{how_many} {out['partitions']} {kind}{showing}")
        for number, plays in enumerate(out["listed"], 1):
            typer.echo(f"  {number:>4}. " + " | ".join(" ".join(play) for play in plays))


@big2_app.command("check")
def check(
    hand: Annotated[
        str, typer.Argument(metavar="HAND", help="The hand ('-' for stdin).", show_default=False)
    ],
    answer: Annotated[
        str,
        typer.Argument(
            metavar="ANSWER",
            help="Claimed plays, e.g. 'ASAHAD8D8C, 4C, 7C' ('-' for stdin).",
            show_default=False,
        ),
    ],
    as_json: JsonOption = False,
    time_limit: TimeLimitOption = DEFAULT_TIME_LIMIT,
) -> None:
    """Is ANSWER a partition of HAND into legal plays, and the fewest?  Exit 0 only if both.

    Example: handsolver big2 check "AS 4H 4C" "AS, 4H 4C"
    """
    with user_errors():
        if hand.strip() == "-" and answer.strip() == "-":
            raise InputError("standard input can be read once: give HAND or ANSWER as '-'")
        deal = _one_hand(read_text("-") if hand.strip() == "-" else hand)
        verdict = check_answer_text(
            deal.hands[0],
            _balanced(read_text("-") if answer.strip() == "-" else answer),
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


def _solve_line(job: tuple[int, str, Deal], *, seed: int, time_limit: float, prefer: str) -> str:
    """One JSON line for one parsed hand (top level so worker processes can run it)."""
    number, text, deal = job
    mask = mask_of(deal.hands[0])
    result = fewest_plays(mask, prefer=Prefer(prefer), time_limit=time_limit, seed=seed)
    return json.dumps({"line": number, "hand": text, **_result_json(result, deal)})


@big2_app.command("batch")
def batch(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="One hand a line ('-' for stdin); '#' comments.",
            show_default=False,
        ),
    ],
    workers: WorkersOption = 1,
    scheduler: SchedulerOption = None,
    prefer: PreferOption = PreferChoice.any,
    time_limit: TimeLimitOption = DEFAULT_TIME_LIMIT,
    seed: SeedOption = 0,
    as_json: BatchJsonOption = True,
) -> None:
    """Solve many hands: one JSON object a line, in input order.

    Example: handsolver big2 batch hands.txt --workers 2
    """
    judge = partial(_solve_line, seed=seed, time_limit=time_limit, prefer=prefer.value)
    run_deal_batch(file, _one_hand, judge, workers=workers, scheduler=scheduler, unit="hands")


def _count_plays(job: tuple[int, float]) -> tuple[int, bool]:
    """The fewest plays of one hand and whether it is proven (top level, for the workers)."""
    mask, time_limit = job
    result = fewest_plays(mask, time_limit=time_limit)
    return result.count, result.optimal


@big2_app.command("stats")
def stats(
    deals: Annotated[
        int,
        typer.Option(
            "--deals", min=1, max=MAX_DEALS, help="Random hands to solve (at most 10**7)."
        ),
    ] = 1000,
    seed: SeedOption = 0,
    hand_size: Annotated[
        int, typer.Option("--hand-size", min=1, max=52, help="Cards per hand.")
    ] = 13,
    out: OutOption = None,
    as_json: JsonOption = False,
    time_limit: TimeLimitOption = DEFAULT_TIME_LIMIT,
    workers: WorkersOption = 1,
    scheduler: SchedulerOption = None,
) -> None:
    """Distribution of the fewest plays over random hands dealt from a shuffled deck.

    --out FILE also saves the histogram as CSV (plays,deals,share).

    Example: handsolver big2 stats --deals 200 --workers 2
    """
    from handsolver.solver.batch import run_batch

    rng = random.Random(seed)
    jobs = ((mask_of(rng.sample(DECK, hand_size)), time_limit) for _ in range(deals))
    histogram: Counter[int] = Counter()
    proven = 0
    done = 0
    try:
        results = run_batch(_count_plays, jobs, workers=workers, scheduler=scheduler)
        for count, optimal in progress(results, deals, "big2 stats"):
            histogram[count] += 1
            proven += optimal
            done += 1
    except KeyboardInterrupt:
        from handsolver.solver.commands.errors import Interrupted

        raise Interrupted(f"interrupted after {done} of {deals} hands") from None
    rows = sorted(histogram.items())
    mean = sum(plays * n for plays, n in rows) / deals
    if out is not None:
        with user_errors():
            lines = ["plays,deals,share"] + [f"{p},{n},{n / deals:.6f}" for p, n in rows]
            write_atomic(out, "\n".join(lines) + "\n")
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
