"""Train the learned Big 2 player (solver/big2/table/learned.py) by self-play.

    python scripts/train_big2_learned.py --hours 2 --seed 1               # train, checkpointed
    python scripts/train_big2_learned.py --resume                         # go on after a stop
    python scripts/train_big2_learned.py --export solver/big2/table/learned_big2.npz
    python scripts/train_big2_learned.py --plot curve.svg                 # the learning curve

Deep Monte-Carlo (as DouZero): four seats of the same network play seeded deals of four
players under the seed's rules, each choosing the move of the highest value (a random legal
move with probability ``--explore``); when a deal ends, every move made in it is taught the
deal's outcome for the seat that made it (1 for going out first, else 0) by squared error.
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


def initial_layers(rng: np.random.Generator) -> list[np.ndarray]:
    """He-initialised weights and zero biases, as a flat list w0, b0, w1, b1, ..."""
    sizes = (FEATURES, *HIDDEN, 1)
    out: list[np.ndarray] = []
    for n_in, n_out in zip(sizes, sizes[1:], strict=False):
        out.append((rng.standard_normal((n_in, n_out)) * np.sqrt(2.0 / n_in)).astype(np.float32))
        out.append(np.zeros(n_out, dtype=np.float32))
    return out


def network_of(params: list[np.ndarray]) -> Network:
    return Network(tuple((params[i], params[i + 1]) for i in range(0, len(params), 2)))


def gradients(params: list[np.ndarray], rows: np.ndarray, targets: np.ndarray):
    """The loss (mean squared error) and its gradient for each parameter."""
    activations = [rows]
    out = rows
    layers = len(params) // 2
    for index in range(layers):
        out = out @ params[2 * index] + params[2 * index + 1]
        if index < layers - 1:
            out = np.maximum(out, 0)
        activations.append(out)
    error = out[:, 0] - targets
    loss = float(np.mean(error**2))
    grad = (2.0 / len(rows)) * error[:, None]
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
    net: Network,
    learners: set[int],
    explore: float,
    rng: np.random.Generator,
    record: bool,
) -> tuple[int, list[tuple[int, np.ndarray]]]:
    """Play one deal: the seats in ``learners`` by the network (a random move with probability
    ``explore``), the others by greedy.  The winner, and (with ``record``) every learner's
    move as (seat, its features)."""
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
        if mover in learners:
            moves = state.legal_moves(plays[mover])
            if must:
                moves = [m for m in moves if m is not None and m[0] & must]
            rows = move_features(deal_state_features(state, played, beat, start), hand, moves)
            if len(moves) > 1 and explore and rng.random() < explore:
                pick = int(rng.integers(len(moves)))
            elif len(moves) > 1:
                pick = int(net.values(rows).argmax())
            else:
                pick = 0
            move = moves[pick]
            if record:
                made.append((mover, rows[pick]))
        else:
            danger = 0
            move = greedy_choice(plays[mover], hand, size, strength, danger, must)
        result = state.after(move, RULES)
        if move is not None:
            played |= move[0]
            beat = move[0]
        if isinstance(result, int):
            return result, made
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
        winner, _ = play_deal(hands, net, {seat}, 0.0, rng, False)
        won += winner == seat
    return won / deals


def save(path: Path, params, adam: Adam, rng, deals_done: int, curve, seconds: float) -> None:
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez(
        tmp,
        *params,
        *adam.m,
        *adam.v,
        meta=np.array(
            json.dumps(
                {
                    "t": adam.t,
                    "rng": rng.bit_generator.state,
                    "deals": deals_done,
                    "curve": curve,
                    "seconds": seconds,
                    "layers": len(params),
                }
            )
        ),
    )
    tmp.replace(path)


def load(path: Path, rate: float):
    with np.load(path) as saved:
        meta = json.loads(str(saved["meta"]))
        count = meta["layers"]
        arrays = [saved[f"arr_{i}"] for i in range(3 * count)]
    params = arrays[:count]
    adam = Adam(params, rate)
    adam.m, adam.v, adam.t = arrays[count : 2 * count], arrays[2 * count :], meta["t"]
    rng = np.random.default_rng()
    rng.bit_generator.state = meta["rng"]
    return params, adam, rng, meta["deals"], meta["curve"], meta["seconds"]


def export(params: list[np.ndarray], out: Path) -> None:
    layers = len(params) // 2
    np.savez_compressed(
        out,
        **{f"w{i}": params[2 * i] for i in range(layers)},
        **{f"b{i}": params[2 * i + 1] for i in range(layers)},
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
    parser.add_argument("--eval-every", type=int, default=4000)
    parser.add_argument("--eval-deals", type=int, default=400)
    parser.add_argument("--save-every", type=int, default=800)
    parser.add_argument("--export", type=Path, help="write the weights for the package and stop")
    parser.add_argument("--plot", type=Path, help="draw the learning curve and stop")
    args = parser.parse_args()

    if args.resume or args.export or args.plot:
        params, adam, rng, done, curve, seconds = load(args.checkpoint, args.rate)
    else:
        rng = np.random.default_rng(args.seed)
        params = initial_layers(rng)
        adam, done, curve, seconds = Adam(params, args.rate), 0, [], 0.0
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
    saved = done
    try:
        while (args.deals and done < args.deals) or (not args.deals and time.monotonic() < stop_at):
            rows: list[np.ndarray] = []
            targets: list[float] = []
            for _ in range(args.batch):
                winner, made = play_deal(deal(rng), net, set(range(SEATS)), args.explore, rng, True)
                for seat, features in made:
                    rows.append(features)
                    targets.append(1.0 if seat == winner else 0.0)
            done += args.batch
            x, y = np.stack(rows), np.array(targets, dtype=np.float32)
            order = rng.permutation(len(x))
            for at in range(0, len(x), args.minibatch):
                pick = order[at : at + args.minibatch]
                _, grads = gradients(params, x[pick], y[pick])
                adam.step(params, grads)
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
                save(args.checkpoint, params, adam, rng, done, curve, time.monotonic() - started)
                saved = done
    except KeyboardInterrupt:
        print(f"stopped; --resume goes on from deal {saved:,}", file=sys.stderr)
        raise SystemExit(130) from None
    save(args.checkpoint, params, adam, rng, done, curve, time.monotonic() - started)
    print(f"done: {done:,} deals", flush=True)


if __name__ == "__main__":
    main()
