"""Train the learned Big 2 player (solver/big2/table/learned.py) by self-play.

    python scripts/train_big2_learned.py --hours 2 --seed 1               # train, checkpointed
    python scripts/train_big2_learned.py --deals 300000 --warm-start old.npz  # from weights
    python scripts/train_big2_learned.py --resume                         # go on after a stop
    python scripts/train_big2_learned.py --export solver/big2/table/learned_big2.npz
    python scripts/train_big2_learned.py --plot curve.svg                 # the learning curve

Deep Monte-Carlo (as DouZero): four seats of the same network play seeded deals of four
players under the seed's rules, each choosing the move of the highest value (a random legal
move with probability ``--explore``); when a deal ends, every move made in it is taught the
deal's outcome for the seat that made it (1 for going out first, else 0) by squared error.
A second output, dropped on export, is taught the cards the seat was left with (over 13, 0
for going out), weighted ``--margin-weight``: a denser signal for the layers both share.
A league keeps self-play from narrowing on itself: every ``--league-every`` deals a copy of
the network joins the league (the last ``--league-size`` kept; a warm start's network is its
first member), and a ``--league`` share of the deals seat a league member, drawn at random, in
two facing seats; only the current network's moves are taught.
With ``--schedule`` (or else ``--deals``) the learning rate falls from ``--rate`` to a tenth
of it along a half cosine over that many deals (the first run's, kept in the checkpoint, so
that a resumed run follows the same schedule; constant with ``--hours`` alone), so that a run
may stop (``--deals``) before its schedule's end.  ``--warm-start`` starts from
exported weights whose inputs are the first ones of today's features (the rows of the added
inputs start at zero, so the network starts as the one it was).
Plain numpy: the network's forward and backward passes and Adam are written here.

Every ``--eval-every`` deals the player (no exploring) plays ``--eval-deals`` deals against
three ``greedy`` opponents, the learned seat moving round the table deal by deal; the share it
goes out first is the learning curve, printed and kept in the checkpoint.  The checkpoint
(``--checkpoint``, default ``big2-learned.ckpt.npz``) holds the weights, Adam's moments, the
random generator's state and the curve, saved every ``--save-every`` deals: ``--resume``
continues from the last save exactly (the same deals, the same steps), so a run stopped and
resumed gives the weights an unbroken run gives.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from handsolver.models.big2 import SEED_RULES
from handsolver.models.big2_order import lowest_card
from handsolver.solver.big2.game.plays import hand_plays
from handsolver.solver.big2.game.state import DealState
from handsolver.solver.big2.table.learned import (
    FEATURES,
    Network,
    deal_state_features,
    move_features,
)
from handsolver.solver.big2.table.playout import greedy_choice

RULES = SEED_RULES
SEATS = 4
HIDDEN = (256, 256)
OUTPUTS = 2  # the chance of going out first, and the cards left (dropped on export)


def initial_layers(rng: np.random.Generator) -> list[np.ndarray]:
    """He-initialised weights and zero biases, as a flat list w0, b0, w1, b1, ..."""
    sizes = (FEATURES, *HIDDEN, OUTPUTS)
    out: list[np.ndarray] = []
    for n_in, n_out in zip(sizes, sizes[1:], strict=False):
        out.append((rng.standard_normal((n_in, n_out)) * np.sqrt(2.0 / n_in)).astype(np.float32))
        out.append(np.zeros(n_out, dtype=np.float32))
    return out


def warm_layers(path: Path) -> list[np.ndarray]:
    """The exported weights at ``path`` as a flat list, widened to today's inputs (zero rows
    for the inputs they did not have, which come after theirs) and outputs (zero columns)."""
    old = Network.load(path).layers
    out: list[np.ndarray] = []
    for index, (weights, biases) in enumerate(old):
        weights, biases = weights.astype(np.float32), biases.astype(np.float32)
        if index == 0:
            assert weights.shape[0] <= FEATURES, "the warm start has more inputs than today's"
            weights = np.vstack(
                [weights, np.zeros((FEATURES - weights.shape[0], weights.shape[1]), np.float32)]
            )
        if index == len(old) - 1:
            pad = OUTPUTS - weights.shape[1]
            weights = np.hstack([weights, np.zeros((weights.shape[0], pad), np.float32)])
            biases = np.concatenate([biases, np.zeros(pad, np.float32)])
        out += [weights, biases]
    return out


def network_of(params: list[np.ndarray]) -> Network:
    return Network(tuple((params[i], params[i + 1]) for i in range(0, len(params), 2)))


def gradients(params: list[np.ndarray], rows: np.ndarray, targets: np.ndarray, margin: float):
    """The loss (mean squared error of each output against its column of ``targets``, the
    second weighted ``margin``) and its gradient for each parameter."""
    activations = [rows]
    out = rows
    layers = len(params) // 2
    for index in range(layers):
        out = out @ params[2 * index] + params[2 * index + 1]
        if index < layers - 1:
            out = np.maximum(out, 0)
        activations.append(out)
    error = out - targets
    weights = np.array([1.0, margin], dtype=np.float32)
    loss = float(np.mean(error**2, axis=0) @ weights)
    grad = (2.0 / len(rows)) * error * weights
    grads: list[np.ndarray] = [np.empty(0)] * len(params)
    for index in reversed(range(layers)):
        grads[2 * index] = activations[index].T @ grad
        grads[2 * index + 1] = grad.sum(axis=0)
        if index:
            grad = (grad @ params[2 * index].T) * (activations[index] > 0)
    return loss, grads


class Adam:
    def __init__(self, params: list[np.ndarray], rate: float) -> None:
        self.rate = rate
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, params: list[np.ndarray], grads: list[np.ndarray]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        for p, g, m, v in zip(params, grads, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mhat = m / (1 - b1**self.t)
            vhat = v / (1 - b2**self.t)
            p -= (self.rate * mhat / (np.sqrt(vhat) + 1e-8)).astype(np.float32)


def deal(rng: np.random.Generator) -> tuple[int, ...]:
    order = rng.permutation(52)
    return tuple(
        sum(1 << int(card) for card in order[seat * 13 : seat * 13 + 13]) for seat in range(SEATS)
    )


def play_deal(
    hands: tuple[int, ...],
    seats: list[Network | None],
    record: set[int],
    explore: float,
    rng: np.random.Generator,
) -> tuple[int, tuple[int, ...], list[tuple[int, np.ndarray]]]:
    """Play one deal, each seat by its network in ``seats`` (None: greedy; the seats of
    ``record`` choose a random move with probability ``explore``).  The winner, each seat's
    cards left at the end, and every move of a seat in ``record`` as (seat, its features)."""
    plays = [hand_plays(hand, RULES) for hand in hands]
    low = lowest_card(sum(hands), RULES)
    leader = next(seat for seat, hand in enumerate(hands) if hand >> low & 1)
    state = DealState(hands, leader, 0, 0, -1, 0)
    beat, played, start = 0, 0, True
    made: list[tuple[int, np.ndarray]] = []
    while True:
        now, mover, size, strength, by, _ = state
        hand = now[mover]
        must = 1 << low if start else 0
        net = seats[mover]
        if net is not None:
            moves = state.legal_moves(plays[mover])
            if must:
                moves = [m for m in moves if m is not None and m[0] & must]
            rows = move_features(deal_state_features(state, played, beat, start), hand, moves)
            mine = mover in record
            if len(moves) > 1 and mine and explore and rng.random() < explore:
                pick = int(rng.integers(len(moves)))
            elif len(moves) > 1:
                pick = int(net.values(rows).argmax())
            else:
                pick = 0
            move = moves[pick]
            if mine:
                made.append((mover, rows[pick]))
        else:
            danger = 0
            move = greedy_choice(plays[mover], hand, size, strength, danger, must)
        result = state.after(move, RULES)
        if move is not None:
            played |= move[0]
            beat = move[0]
        if isinstance(result, int):
            left = tuple(0 if seat == result else h.bit_count() for seat, h in enumerate(now))
            return result, left, made
        if result[2] == 0:
            beat = 0
        state = result
        start = False


def evaluate(net: Network, deals: int, seed: int) -> float:
    """The share of ``deals`` the network, in one seat (round the table), goes out first
    against three greedy (the same deals every evaluation)."""
    rng = np.random.default_rng(seed + 10**9)
    won = 0
    for index in range(deals):
        hands = deal(rng)
        seat = index % SEATS
        seats: list[Network | None] = [None] * SEATS
        seats[seat] = net
        winner, _, _ = play_deal(hands, seats, set(), 0.0, rng)
        won += winner == seat
    return won / deals


def save(
    path: Path, params, adam: Adam, rng, deals_done: int, curve, seconds: float, league, schedule
) -> None:
    tmp = path.with_name(path.name + ".tmp.npz")
    arrays = {f"p{i}": p for i, p in enumerate(params)}
    arrays |= {f"m{i}": m for i, m in enumerate(adam.m)}
    arrays |= {f"v{i}": v for i, v in enumerate(adam.v)}
    for k, member in enumerate(league):
        arrays |= {f"league{k}_{i}": p for i, p in enumerate(member)}
    meta = {
        "t": adam.t,
        "rng": rng.bit_generator.state,
        "deals": deals_done,
        "curve": curve,
        "seconds": seconds,
        "layers": len(params),
        "league": len(league),
        "schedule": schedule,
    }
    np.savez(tmp, **arrays, meta=np.array(json.dumps(meta)))
    tmp.replace(path)


def load(path: Path, rate: float):
    with np.load(path) as saved:
        meta = json.loads(str(saved["meta"]))
        count = meta["layers"]
        params = [saved[f"p{i}"] for i in range(count)]
        adam = Adam(params, rate)
        adam.m = [saved[f"m{i}"] for i in range(count)]
        adam.v = [saved[f"v{i}"] for i in range(count)]
        league = [[saved[f"league{k}_{i}"] for i in range(count)] for k in range(meta["league"])]
    adam.t = meta["t"]
    rng = np.random.default_rng()
    rng.bit_generator.state = meta["rng"]
    return (
        params,
        adam,
        rng,
        meta["deals"],
        meta["curve"],
        meta["seconds"],
        league,
        meta["schedule"],
    )


def export(params: list[np.ndarray], out: Path) -> None:
    layers = len(params) // 2
    weights = [params[2 * i] for i in range(layers)]
    biases = [params[2 * i + 1] for i in range(layers)]
    weights[-1], biases[-1] = weights[-1][:, :1], biases[-1][:1]  # the chance of going out first
    np.savez_compressed(
        out,
        **{f"w{i}": w for i, w in enumerate(weights)},
        **{f"b{i}": b for i, b in enumerate(biases)},
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hours", type=float, default=2.0, help="train this long (wall clock)")
    parser.add_argument("--deals", type=int, default=0, help="or this many self-play deals")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--checkpoint", type=Path, default=Path("big2-learned.ckpt.npz"))
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--batch", type=int, default=16, help="deals between updates")
    parser.add_argument("--minibatch", type=int, default=256)
    parser.add_argument("--rate", type=float, default=3e-4)
    parser.add_argument("--explore", type=float, default=0.05)
    parser.add_argument("--margin-weight", type=float, default=0.5)
    parser.add_argument("--league", type=float, default=0.5, help="share of deals with the league")
    parser.add_argument("--league-every", type=int, default=20000)
    parser.add_argument("--league-size", type=int, default=8)
    parser.add_argument("--schedule", type=int, default=0, help="the rate's deals (--deals)")
    parser.add_argument("--warm-start", type=Path, help="start from these exported weights")
    parser.add_argument("--eval-every", type=int, default=4000)
    parser.add_argument("--eval-deals", type=int, default=400)
    parser.add_argument("--save-every", type=int, default=800)
    parser.add_argument("--export", type=Path, help="write the weights for the package and stop")
    parser.add_argument("--plot", type=Path, help="draw the learning curve and stop")
    args = parser.parse_args()

    if args.resume or args.export or args.plot:
        params, adam, rng, done, curve, seconds, league, schedule = load(args.checkpoint, args.rate)
    else:
        rng = np.random.default_rng(args.seed)
        params = warm_layers(args.warm_start) if args.warm_start else initial_layers(rng)
        adam, done, curve, seconds = Adam(params, args.rate), 0, [], 0.0
        league = [[p.copy() for p in params]] if args.warm_start else []
        schedule = args.schedule or args.deals
    if args.export:
        export(params, args.export)
        print(f"wrote {args.export} ({args.export.stat().st_size:,} bytes) after {done:,} deals")
        return
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, axes = plt.subplots(figsize=(7, 4))
        axes.plot([c[0] for c in curve], [100 * c[2] for c in curve], marker="o")
        axes.axhline(25, color="grey", linestyle=":", label="chance")
        axes.set_xlabel("self-play deals")
        axes.set_ylabel("went out first against three greedy (%)")
        axes.legend()
        figure.tight_layout()
        figure.savefig(args.plot)
        print(f"wrote {args.plot}")
        return

    started = time.monotonic() - seconds
    stop_at = started + args.hours * 3600
    net = network_of(params)
    if not curve:
        share = evaluate(net, args.eval_deals, args.seed)
        curve.append((0, 0.0, share))
        print(f"deals 0: {100 * share:.1f}% against three greedy", flush=True)

    def checkpoint(done: int) -> None:
        """Save what ``--resume`` needs to go on exactly, as it stands after ``done`` deals."""
        elapsed = time.monotonic() - started
        save(args.checkpoint, params, adam, rng, done, curve, elapsed, league, schedule)

    saved = done
    try:
        while (args.deals and done < args.deals) or (not args.deals and time.monotonic() < stop_at):
            rows: list[np.ndarray] = []
            targets: list[tuple[float, float]] = []
            for _ in range(args.batch):
                seats: list[Network | None] = [net] * SEATS
                if league and rng.random() < args.league:
                    member = network_of(league[int(rng.integers(len(league)))])
                    first = int(rng.integers(2))
                    seats[first + 1], seats[(first + 3) % SEATS] = member, member
                record = {seat for seat in range(SEATS) if seats[seat] is net}
                winner, left, made = play_deal(deal(rng), seats, record, args.explore, rng)
                for seat, features in made:
                    rows.append(features)
                    targets.append((1.0 if seat == winner else 0.0, left[seat] / 13))
            done += args.batch
            if schedule:  # a half cosine from the rate to a tenth of it
                adam.rate = args.rate * (0.55 + 0.45 * np.cos(np.pi * min(done / schedule, 1)))
            x, y = np.stack(rows), np.array(targets, dtype=np.float32)
            order = rng.permutation(len(x))
            for at in range(0, len(x), args.minibatch):
                pick = order[at : at + args.minibatch]
                _, grads = gradients(params, x[pick], y[pick], args.margin_weight)
                adam.step(params, grads)
            if done % args.league_every == 0:
                league = [*league, [p.copy() for p in params]][-args.league_size :]
            if done % args.eval_every == 0:
                share = evaluate(net, args.eval_deals, args.seed)
                elapsed = time.monotonic() - started
                curve.append((done, elapsed, share))
                print(
                    f"deals {done:,}: {100 * share:.1f}% against three greedy "
                    f"({elapsed / 60:.0f} min)",
                    flush=True,
                )
            if done % args.save_every == 0 or done % args.eval_every == 0:
                checkpoint(done)
                saved = done
    except KeyboardInterrupt:
        print(f"stopped; --resume goes on from deal {saved:,}", file=sys.stderr)
        raise SystemExit(130) from None
    checkpoint(done)
    print(f"done: {done:,} deals", flush=True)


if __name__ == "__main__":
    main()
