"""Measure the Big 2 advisor at the table: tournaments in the duplicate format (every deal played
once a rotation of the seats) and the time of one piece of advice.

    python scripts/bench_big2_advisor.py                      # 1,000 deals a match, 2 workers
    python scripts/bench_big2_advisor.py --deals 200 --workers 2
    python scripts/bench_big2_advisor.py --only two        # one part: openings, decisions, tree,
                                                           # baselines, random, greedy, two

Figures:

* baselines, four players: ``greedy``, ``fewest`` and ``shed`` (the advisor's playout policy)
  each against three ``random``, and ``shed`` against three ``greedy``;
* four players, one ``advise`` against three ``random``: the share of games it goes out first
  (chance 25%), with a 95% interval; the same against three ``greedy``;
* two players, 13 cards each: ``advise`` against ``greedy``;
* with ``--passes N``, the ``advise`` seat chooses by a tree of its own turns over its sampled
  deals (N passes a decision) in place of scoring each deal;
* ``advise`` with the tournament seat's defaults on every decision (two or more legal moves) of
  ``--openings`` deals that ``greedy`` plays in every seat, four players and two: the median
  and mean milliseconds a decision;
* the tree's decisions (``--passes``, 1,000 unless given) over the same deals, its leaves
  scored compiled and in Python: the median milliseconds of each and their ratio;
* ``advise`` (its command's defaults) on 13-card opening positions with three opponents: the
  median seconds, and the share of its verdicts (one move in one sampled deal) proven exactly;
* ``--only learned``: the learned player's decision time, and the player against three
  ``greedy`` and three ``random`` (``--members``: the player of other weight files);
  ``--only against-learned``: against three ``advise``, and
  ``advise`` against three of it (slow: say ``--deals``); ``--only learned-vs-advise`` and
  ``--only advise-vs-learned``: one of those two each;
* ``--opponents``: the ``advise`` seat's model of its opponents (``mix``, ``learned``,
  ``adaptive``, ``greedy``); ``--reply-rounds`` and ``--leaf``: how many rounds the opponents
  it takes for the learned player reply by its network, and whether a deal with such an
  opponent is then valued by the network (the default) or played out.

Each match saves its finished blocks of deals (the tournament command's default checkpoint, in
the user's cache directory): after Ctrl-C, ``--resume`` continues it.  The tournaments use the
``advise`` strategy's defaults (fewer samples, and only deals of few
cards searched); each match prints its own seconds.  The published rule-based agent
(Sugiyanto, Fernando and Tai, 2021) reports 89.60% against random players and 73.00% against a
conventional program; docs/big2-table.md says where its definitions may differ.
"""

from __future__ import annotations

import os

# The learned player's network multiplies small matrices, a decision at a time: one thread does
# it faster than many on a busy machine.  Set before numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from dataclasses import replace  # noqa: E402

from handsolver.models.big2 import SEED_RULES  # noqa: E402
from handsolver.solver.big2.table.advise import (  # noqa: E402
    DEFAULT_ADVICE,
    LEAVES,
    TABLE_ADVICE,
    AdviceSettings,
    advise,
)
from handsolver.solver.big2.table.opponents import OPPONENT_MODELS  # noqa: E402
from handsolver.solver.big2.table.strategies import greedy_move, strategy_from_spec  # noqa: E402
from handsolver.solver.big2.table.tournament import play_tournament  # noqa: E402
from handsolver.solver.big2.table.tournament_games import dealt_hands  # noqa: E402
from handsolver.solver.big2.table.tournament_saves import tournament_checkpoint, tournament_key  # noqa: E402
from handsolver.solver.big2.table.views import Table  # noqa: E402
from handsolver.solver.commands.progress import progress  # noqa: E402


def members_player(paths: list[str]):
    """The learned player valuing moves by the mean of the networks in ``paths`` (exported by
    ``scripts/train_big2_learned.py``), named by their files' digest."""
    import hashlib
    from pathlib import Path

    from handsolver.solver.big2.table.learned import Ensemble, Learned, Network

    files = [Path(path) for path in paths]
    digest = hashlib.sha256(b"".join(path.read_bytes() for path in files)).hexdigest()[:16]
    return Learned(net=Ensemble(tuple(Network.load(path) for path in files)), weights=digest)


def match(
    names: list[str],
    deals: int,
    seed: int,
    workers: int,
    table: AdviceSettings = TABLE_ADVICE,
    resume: bool = False,
    learned=None,
) -> None:
    """Play one match; its finished blocks are saved to the tournament command's default
    checkpoint, so ``resume`` continues a match stopped before its end.  ``learned``: the
    learned player's seats' strategy (None: the shipped player)."""
    strategies = [
        learned if name == "learned" and learned else strategy_from_spec(name, table)
        for name in names
    ]
    path = tournament_checkpoint(tournament_key(strategies, deals, seed, SEED_RULES))
    resumed = resume and path is not None and path.exists()
    start = time.perf_counter()
    result = play_tournament(
        strategies,
        deals,
        seed,
        SEED_RULES,
        workers=workers,
        progress=lambda items, total, done: progress(items, total, "big2 tournament", done=done),
        checkpoint=path,
        resume=resumed,
        checkpoint_required=False,
    )
    seconds = time.perf_counter() - start
    since = " since resuming" if resumed else ""
    print(f"{' vs '.join(names)}: {deals:,} deals x {len(names)} rotations, {seconds:.0f} s{since}")
    for item in result.strategies:
        # No interval below the tournament's fewest deals for one (or without a win and a loss).
        spread = (
            "no interval"
            if item.interval is None
            else "95% {:.1%} to {:.1%}".format(*item.interval)
        )
        print(
            f"  {item.strategy:<7} won {item.wins:>5} of {item.games:>5} = "
            f"{float(item.win_rate):6.1%}  ({spread}), "
            f"cards left {float(item.mean_cards_left):.2f}, score {float(item.mean_score):+.2f}"
        )
    print(flush=True)


def openings(count: int, seed: int) -> None:
    seconds, proven, verdicts = [], 0, 0
    for deal in range(count):
        table = Table.deal(dealt_hands(seed, deal, 4))
        start = time.perf_counter()
        advice = advise(table.view(), DEFAULT_ADVICE)
        seconds.append(time.perf_counter() - start)
        proven += sum(move.exact for move in advice.moves)
        verdicts += advice.samples * len(advice.moves)
    settings = DEFAULT_ADVICE
    print(
        f"advise on {count} 13-card openings, 3 opponents ({settings.samples} samples, "
        f"{settings.max_nodes} nodes a move): median {statistics.median(seconds):.2f} s, "
        f"max {max(seconds):.2f} s; verdicts (a move in a deal) proven: {proven / verdicts:.1%}",
        flush=True,
    )


def decisions(count: int, seed: int, settings: AdviceSettings = TABLE_ADVICE) -> None:
    for players in (4, 2):
        seconds = []
        for deal in range(count):
            table = Table.deal(dealt_hands(seed, deal, players))
            while table.winner is None:
                view = table.view()
                if len(view.legal_moves()) > 1:
                    start = time.perf_counter()
                    advise(view, replace(settings, seed=deal))
                    seconds.append(time.perf_counter() - start)
                table = table.after(greedy_move(view))
        print(
            f"advise in a tournament seat, {players} players: {len(seconds)} decisions of "
            f"{count} deals, median {statistics.median(seconds) * 1000:.0f} ms, mean "
            f"{statistics.mean(seconds) * 1000:.0f} ms, max {max(seconds) * 1000:.0f} ms",
            flush=True,
        )


def tree_speed(count: int, seed: int, settings: AdviceSettings) -> None:
    """The tree's decisions with its leaves compiled and in Python, side by side."""
    seconds: dict[bool, list[float]] = {True: [], False: []}
    for deal in range(count):
        table = Table.deal(dealt_hands(seed, deal, 4))
        while table.winner is None:
            view = table.view()
            if len(view.legal_moves()) > 1:
                best = []
                for compiled in (True, False):
                    start = time.perf_counter()
                    advice = advise(view, replace(settings, seed=deal, compiled=compiled))
                    seconds[compiled].append(time.perf_counter() - start)
                    best.append(advice.best)
                assert best[0] == best[1], "the compiled leaves chose another move"
            table = table.after(greedy_move(view))
    fast, slow = (statistics.median(seconds[flag]) for flag in (True, False))
    fast_all, slow_all = (sum(seconds[flag]) for flag in (True, False))
    print(
        f"the tree's decisions, 4 players, {len(seconds[True])} of {count} deals played by "
        f"greedy ({settings.samples} deals, {settings.passes:,} passes, line search "
        f"{settings.line_nodes} turns), its leaves compiled against in Python: median "
        f"{fast * 1000:.0f} ms against {slow * 1000:.0f} ms ({slow / fast:.1f} times faster), "
        f"all of them {fast_all:.1f} s against {slow_all:.1f} s ({slow_all / fast_all:.1f} "
        "times faster); the same moves",
        flush=True,
    )


def learned_decisions(count: int, seed: int, player=None) -> None:
    """The learned player's decisions (two or more legal moves) over ``count`` deals that
    greedy plays in every seat: the median and slowest milliseconds (``player``: another
    learned player than the shipped one)."""
    from handsolver.solver.big2.table.learned import Learned

    player, seconds = player or Learned(), []
    for deal in range(count):
        table = Table.deal(dealt_hands(seed, deal, 4))
        while table.winner is None:
            view = table.view()
            if len(view.legal_moves()) > 1:
                start = time.perf_counter()
                player.choose([view], [deal])
                seconds.append(time.perf_counter() - start)
            table = table.after(greedy_move(view))
    print(
        f"the learned player, four players: {len(seconds)} decisions of {count} deals, median "
        f"{statistics.median(seconds) * 1000:.2f} ms, max {max(seconds) * 1000:.2f} ms",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--openings", type=int, default=10)
    parser.add_argument(
        "--only",
        choices=[
            "openings",
            "decisions",
            "tree",
            "baselines",
            "random",
            "greedy",
            "two",
            "learned",
            "against-learned",
            "learned-vs-advise",
            "advise-vs-learned",
        ],
        help="Run one part only (the parts are independent, so they may run side by side).",
    )
    parser.add_argument(
        "--line-nodes",
        type=int,
        default=TABLE_ADVICE.line_nodes,
        help="The advise seat's line search budget (0: none), to measure what it adds.",
    )
    parser.add_argument(
        "--samples",
        type=int,
        default=TABLE_ADVICE.samples,
        help="The deals the advise seat samples a decision, to measure what more of them add.",
    )
    parser.add_argument(
        "--no-reading",
        action="store_true",
        help="The advise seat reads nothing of the opponents' turns, to measure what it adds.",
    )
    parser.add_argument(
        "--passes",
        type=int,
        default=0,
        help="The advise seat chooses by a tree of its own turns, this many passes over the "
        "sampled deals, in place of scoring each deal (0: no tree).",
    )
    parser.add_argument(
        "--opponents",
        choices=list(OPPONENT_MODELS),
        default=TABLE_ADVICE.opponents,
        help="The advise seat's model of its opponents.",
    )
    parser.add_argument(
        "--reply-rounds",
        type=int,
        default=TABLE_ADVICE.reply_rounds,
        help="Rounds of the opponents' replies to a move played by their models in a playout.",
    )
    parser.add_argument(
        "--leaf",
        choices=LEAVES,
        default=TABLE_ADVICE.leaf,
        help="How the advise seat scores a deal past the replies: playouts, or the network.",
    )
    parser.add_argument(
        "--members",
        nargs="+",
        metavar="NPZ",
        help="The learned player's networks (exported weights) in place of the shipped ones.",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="Continue the matches stopped before their end (each saves its finished blocks).",
    )
    args = parser.parse_args()
    learned = members_player(args.members) if args.members else None
    parts = [args.only] if args.only else [
        "openings", "decisions", "tree", "baselines", "random", "greedy", "two"
    ]  # fmt: skip
    table = replace(
        TABLE_ADVICE,
        samples=args.samples,
        line_nodes=args.line_nodes,
        reading=not args.no_reading,
        passes=args.passes,
        opponents=args.opponents,
        reply_rounds=args.reply_rounds,
        leaf=args.leaf,
    )
    if table.passes:
        how = (
            f"a tree of {table.passes:,} passes over the deals, a line search of "
            f"{table.line_nodes} turns at its leaves"
        )
    else:
        how = (
            f"{table.max_nodes} nodes a move, deals searched at most {table.solve_cards} "
            f"cards in hand, a line search of {table.line_nodes} turns a move"
        )
    print(
        f"advise in tournaments: {table.samples} samples, {how}, turns read: "
        f"{'yes' if table.reading else 'no'}, opponents modelled: {table.opponents}, "
        f"{table.reply_rounds} round(s) of their replies by the models, "
        f"scored past them by the {table.leaf}\n",
        flush=True,
    )
    if "openings" in parts:
        openings(args.openings, args.seed)
        print()
    if "decisions" in parts:
        decisions(args.openings, args.seed, table)
        print()
    if "tree" in parts:
        tree_speed(args.openings, args.seed, replace(table, passes=table.passes or 1000))
        print()
    if "baselines" in parts:
        for first, other in [("greedy", "random"), ("fewest", "random"), ("shed", "random"),
                             ("shed", "greedy")]:  # fmt: skip
            match([first, other, other, other], args.deals, args.seed, args.workers,
                  resume=args.resume)  # fmt: skip
    if "learned" in parts:
        learned_decisions(args.openings, args.seed, learned)
        for other in ("greedy", "random"):
            match(["learned", other, other, other], args.deals, args.seed, args.workers,
                  resume=args.resume, learned=learned)  # fmt: skip
    # Slow: three advise seats, or one against three learned (each may run alone).
    if parts[0] in ("against-learned", "learned-vs-advise"):
        match(["learned", "advise", "advise", "advise"], args.deals, args.seed, args.workers,
              table, args.resume, learned)  # fmt: skip
    if parts[0] in ("against-learned", "advise-vs-learned"):
        match(["advise", "learned", "learned", "learned"], args.deals, args.seed, args.workers,
              table, args.resume, learned)  # fmt: skip
    matches = {
        "random": ["advise", "random", "random", "random"],
        "greedy": ["advise", "greedy", "greedy", "greedy"],
        "two": ["advise", "greedy"],
    }
    for part, names in matches.items():
        if part in parts:
            match(names, args.deals, args.seed, args.workers, table, args.resume)


if __name__ == "__main__":
    main()
