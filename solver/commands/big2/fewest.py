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

from handsolver.models.big2 import SEED_RULES, Rules
from handsolver.models.cards import DECK, Deal, InputError, mask_of, parse_deal
from handsolver.solver.big2.fewest import (
    DEFAULT_TIME_LIMIT,
    Method,
    Partition,
    Prefer,
    all_optimal,
    check_answer_text,
    fewest_plays,
)
from handsolver.solver.commands.big2.rules import takes_rules
from handsolver.solver.commands.deal_batch import run_deal_batch
from handsolver.solver.commands.errors import user_errors
from handsolver.solver.commands.inputs import STDIN, card_texts, hand_source, read_text
from handsolver.solver.commands.options import (
    BatchJsonOption,
    JsonOption,
    OutOption,
    PlotOption,
    SchedulerOption,
    SeedOption,
    WorkersOption,
    time_limit_option,
)
from handsolver.solver.commands.output import print_json, write_atomic
from handsolver.solver.commands.progress import progress
from handsolver.solver.commands.table import print_table

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
TimeLimitOption = Annotated[float, time_limit_option("CP-SAT time limit in seconds (0 to 86400).")]


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
        "rules": result.rules.to_json(deal.notation),
    }


@takes_rules()
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
    rules: Rules = SEED_RULES,
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
        rules=rules,
        method=Method(method.value),
        time_limit=time_limit,
        workers=workers,
        seed=seed,
    )
    out = _result_json(result, deal)
    if every:
        found = all_optimal(
            mask, rules=rules, limit=limit, time_limit=time_limit, workers=workers, seed=seed
        )
        out["partitions"] = found.count
        out["complete"] = found.complete
        out["listed"] = [
            [deal.notation.card_strings(play.cards_in(rules)) for play in plays]
            for plays in found.partitions
        ]
    if as_json:
        print_json(out)
        return
    proof = "optimal" if result.optimal else f"not proven optimal; at least {result.bound}"
    plays = f"{result.count} play{'' if result.count == 1 else 's'}"
    typer.echo(f"{plays} ({proof}, {rules.name} rules)")
    for play, cards in zip(result.plays, out["plays"], strict=True):
        typer.echo(f"  {play.kind.label:<20} {' '.join(cards)}")
    if every:
        how_many = "exactly" if out["complete"] else "at least"
        # Without a proof of the count, the partitions listed are only the best found.
        kind = "optimal partitions" if result.optimal else "partitions of the best count found"
        shown = len(out["listed"])
        showing = f", showing {shown} of {out['partitions']}" if shown < out["partitions"] else ""
        typer.echo(f"{how_many} {out['partitions']} {kind}{showing}")
        for number, plays in enumerate(out["listed"], 1):
            typer.echo(f"  {number:>4}. " + " | ".join(" ".join(play) for play in plays))


@takes_rules()
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
    rules: Rules = SEED_RULES,
) -> None:
    """Is ANSWER a partition of HAND into legal plays, and the fewest?  Exit 0 only if both.

    Example: handsolver big2 check "AS 4H 4C" "AS, 4H 4C"
    """
    with user_errors():
        if hand.strip() == "-" and answer.strip() == "-":
            raise InputError("standard input can be read once: give HAND or ANSWER as '-'")
        deal = _one_hand(read_text("-") if hand_source(hand) == STDIN else hand)
        verdict = check_answer_text(
            deal.hands[0],
            _balanced(read_text("-") if hand_source(answer) == STDIN else answer),
            notation=deal.notation,
            rules=rules,
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
                "rules": rules.to_json(deal.notation),
            }
        )
    else:
        typer.echo(f"valid: {'yes' if verdict.valid else 'no'}")
        typer.echo(f"optimal: {'yes' if verdict.optimal else 'no'}")
        typer.echo(f"plays: {verdict.count} (fewest possible: {verdict.best})")
        typer.echo(f"rules: {rules.name}")
        for problem in verdict.problems:
            typer.echo(f"  - {problem}")
    raise typer.Exit(0 if verdict.optimal else 1)


def _solve_line(
    job: tuple[int, str, Deal], *, seed: int, time_limit: float, prefer: str, rules: Rules
) -> str:
    """One JSON line for one parsed hand (top level so worker processes can run it)."""
    number, text, deal = job
    mask = mask_of(deal.hands[0])
    result = fewest_plays(
        mask, prefer=Prefer(prefer), rules=rules, time_limit=time_limit, seed=seed
    )
    return json.dumps({"line": number, "hand": text, **_result_json(result, deal)})


@takes_rules()
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
    rules: Rules = SEED_RULES,
) -> None:
    """Solve many hands: one JSON object a line, in input order.

    Example: handsolver big2 batch hands.txt --workers 2
    """
    judge = partial(_solve_line, seed=seed, time_limit=time_limit, prefer=prefer.value, rules=rules)
    run_deal_batch(file, _one_hand, judge, workers=workers, scheduler=scheduler, unit="hands")


def _count_plays(job: tuple[int, float, Rules]) -> tuple[int, bool]:
    """The fewest plays of one hand and whether it is proven (top level, for the workers)."""
    mask, time_limit, rules = job
    result = fewest_plays(mask, rules=rules, time_limit=time_limit)
    return result.count, result.optimal


class _Tally:
    """The fewest plays of the hands under one set of rules: a histogram and how many proven."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.histogram: Counter[int] = Counter()
        self.proven = 0

    def mean(self) -> float:
        return sum(plays * n for plays, n in self.histogram.items()) / self.histogram.total()

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "mean": self.mean(),
            "all_optimal": self.proven == self.histogram.total(),
            "histogram": {
                str(plays): self.histogram[plays] for plays in _every_count(self.histogram)
            },
        }


@takes_rules(many=True)
def stats(
    deals: Annotated[
        int,
        typer.Option(
            "--deals", min=1, max=MAX_DEALS, help="Random hands to solve (at most 10**7)."
        ),
    ] = 1000,
    seed: SeedOption = 0,
    hand_size: Annotated[
        int | None,
        typer.Option(
            "--hand-size",
            min=1,
            max=52,
            help="Cards per hand.",
            show_default="13, or 17 with --players 3",
        ),
    ] = None,
    out: OutOption = None,
    as_json: JsonOption = False,
    time_limit: TimeLimitOption = DEFAULT_TIME_LIMIT,
    workers: WorkersOption = 1,
    scheduler: SchedulerOption = None,
    plot: PlotOption = None,
    rules: list[Rules] = [SEED_RULES],  # noqa: B006 (replaced by the rule options)
) -> None:
    """Distribution of the fewest plays over random hands dealt from a shuffled deck.

    --rules A --rules B compares rule profiles on the same hands, side by side.
    --out FILE also saves the histogram as CSV (plays,deals,share; a column per profile);
    --plot FILE draws it.

    Example: handsolver big2 stats --deals 200 --workers 2
    """
    from handsolver.solver.batch import run_batch

    sizes = {one.hand_size for one in rules}
    if hand_size is None:
        hand_size = sizes.pop() if len(sizes) == 1 else 13
    elif rules[0].players == 3 and hand_size != rules[0].hand_size:
        with user_errors():
            raise InputError(f"--hand-size {hand_size} contradicts --players 3 (17 cards each)")
    tallies = [_Tally(one) for one in rules]
    for tally in tallies:
        rng = random.Random(seed)  # the same hands for every profile
        jobs = (
            (mask_of(rng.sample(DECK, hand_size)), time_limit, tally.rules) for _ in range(deals)
        )
        done = 0
        label = "big2 stats" if len(rules) == 1 else f"big2 stats {tally.rules.name}"
        try:
            results = run_batch(_count_plays, jobs, workers=workers, scheduler=scheduler)
            for count, optimal in progress(results, deals, label):
                tally.histogram[count] += 1
                tally.proven += optimal
                done += 1
        except KeyboardInterrupt:
            from handsolver.solver.commands.errors import Interrupted

            raise Interrupted(
                f"interrupted after {done} of {deals} hands ({tally.rules.name} rules)"
            ) from None
    plays = _every_count(*(tally.histogram for tally in tallies))
    if out is not None:
        with user_errors():
            if len(tallies) == 1:
                header = ["plays,deals,share"]
            else:
                header = [
                    "plays,"
                    + ",".join(f"{t.rules.name} deals,{t.rules.name} share" for t in tallies)
                ]
            lines = header + [
                f"{p},"
                + ",".join(f"{t.histogram[p]},{t.histogram[p] / deals:.6f}" for t in tallies)
                for p in plays
            ]
            write_atomic(out, "\n".join(lines) + "\n")
    names = ", ".join(tally.rules.name for tally in tallies)
    if plot is not None:
        from handsolver.solver.commands.big2.plots import fewest_plays_figure
        from handsolver.solver.commands.plots.figures import save

        title = (
            f"Fewest plays over {deals:,} random {hand_size}-card hands "
            f"(seed {seed}; {names} rules)"
        )
        series = {tally.rules.name: tally.histogram for tally in tallies}
        with user_errors():
            save(fewest_plays_figure(series, title), plot)
    if as_json:
        common = {"deals": deals, "hand_size": hand_size, "seed": seed}
        if len(tallies) == 1:
            print_json({**common, **tallies[0].to_json()})
        else:
            print_json({**common, "profiles": [tally.to_json() for tally in tallies]})
        return
    typer.echo(
        f"fewest plays over {deals} random {hand_size}-card hands (seed {seed}; {names} rules)"
    )
    if len(tallies) == 1:
        _print_histogram(tallies[0], deals)
        return
    headers = ["plays", *(tally.rules.name for tally in tallies)]
    rows = [
        (p, *(f"{t.histogram[p]} ({t.histogram[p] / deals:.1%})" for t in tallies)) for p in plays
    ]
    rows.append(("mean", *(f"{tally.mean():.3f}" for tally in tallies)))
    print_table(None, headers, rows)
    for tally in tallies[1:]:
        shift = tally.mean() - tallies[0].mean()
        typer.echo(f"{tally.rules.name}: {shift:+.3f} plays a hand against {tallies[0].rules.name}")
    unproven = [t.rules.name for t in tallies if t.proven < deals]
    typer.echo(
        f"not all proven optimal: {', '.join(unproven)}" if unproven else "all proven optimal"
    )


def _every_count(*histograms: Counter[int]) -> list[int]:
    """Every count of plays from the fewest seen to the most, empty ones too, so that a
    histogram's axis is even."""
    seen = set().union(*histograms)
    return list(range(min(seen), max(seen) + 1))


def _print_histogram(tally: _Tally, deals: int) -> None:
    rows = [(p, tally.histogram[p]) for p in _every_count(tally.histogram)]
    print_table(None, ["plays", "hands", "share"], [(p, n, f"{n / deals:.1%}") for p, n in rows])
    widest = max(tally.histogram.values())
    for plays, n in rows:
        bar = "#" * max(1, round(40 * n / widest)) + " " if n else ""
        typer.echo(f"{plays:>3} | {bar}{n}")
    proven = "all" if tally.proven == deals else tally.proven
    typer.echo(f"mean {tally.mean():.3f} plays; {proven} proven optimal")
