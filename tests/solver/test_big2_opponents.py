"""The opponents' models: the weights of the deals against a brute force that enumerates every
deal and replays it, the weighted draw against those weights, the learned replies against the
learned player at the table, and the advisor with them (deterministic, exact where proven)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

import numpy as np
import pytest

from handsolver.models.big2_order import play_strength
from handsolver.models.cards import CardSet, InputError, cards_of
from handsolver.solver.big2.game.positions import Position, root_state
from handsolver.solver.big2.table.advise import (
    TABLE_ADVICE,
    AdviceSettings,
    _sampled_deals,
    advise,
)
from handsolver.solver.big2.table.deal_scores import network_scores, replied_states
from handsolver.solver.big2.table.learned import (
    Learned,
    move_features,
    network,
    view_moves,
    view_state,
)
from handsolver.solver.big2.table.opponents import (
    PRIORS,
    READ_TURNS,
    TEMPERATURE,
    TREMBLE,
    TYPES,
    deal_weights,
    observed_turns,
    tempered,
    type_likelihoods,
    weighted_deals,
)
from handsolver.solver.big2.table.playout import hand_plays
from handsolver.solver.big2.table.playout_learned import Reply, replies_until
from handsolver.solver.big2.table.sampling import sample_hands
from handsolver.solver.big2.table.strategies import Greedy, Random, greedy_move
from handsolver.solver.big2.table.tournament_games import dealt_hands
from handsolver.solver.big2.table.views import Table, TableView


def _late_view(strategies, deal: int, unseen_most: int) -> tuple[Table, TableView]:
    """A four-player deal played by ``strategies`` until seat 0 is to move with at most
    ``unseen_most`` cards in the opponents' hands (and two or more moves), or None."""
    table = Table.deal(dealt_hands(5, deal, 4))
    while table.winner is None:
        view = table.view()
        others = sum(view.counts) - view.counts[0]
        if view.seat == 0 and others <= unseen_most and len(view.legal_moves()) > 1:
            return table, view
        table = table.after(strategies[view.seat].choose([view], [deal])[0])
    return None


def _late_views(strategies, unseen_most: int, count: int) -> list[tuple[Table, TableView]]:
    found = []
    for deal in range(200):
        got = _late_view(strategies, deal, unseen_most)
        if got is not None and all(got[1].counts[seat] for seat in (1, 2, 3)):
            found.append(got)
            if len(found) == count:
                break
    return found


def _every_deal(pool: CardSet, counts: tuple[int, ...]) -> list[tuple[CardSet, ...]]:
    """Every split of ``pool`` into hands of ``counts`` (four players: every card dealt)."""
    cards = cards_of(pool)
    if len(counts) == 1:
        return [(pool,)]
    out = []
    for first in combinations(cards, counts[0]):
        mask = sum(1 << card for card in first)
        out.extend((mask, *rest) for rest in _every_deal(pool & ~mask, counts[1:]))
    return out


def _brute_weight(view: TableView, deal: tuple[CardSet, ...], prior) -> float:
    """The deal's weight from first principles: replay the whole deal with these hands, and at
    each of an opponent's latest turns ask the learned player's network (softmax at the
    temperature, with the tremble), greedy and random for the probability of its move.
    ``prior`` is one for every opponent, or a list of one per opponent (None: not read)."""
    priors = prior if isinstance(prior, list) else [prior] * 3
    hands = [0, 0, 0, 0]
    hands[0] = view.hand
    for seat, hand in zip((1, 2, 3), deal, strict=True):
        hands[seat] = hand
    for seat, move in view.history:
        if move is not None:
            hands[seat] |= move.mask
    table = Table(tuple(hands), view.history[0].seat, view.rules)
    turns: dict[int, list[tuple[TableView, object]]] = {1: [], 2: [], 3: []}
    for seat, move in view.history:
        if seat in turns:
            turns[seat].append((table.view(), move))
        table = table.after(move)
    weight = 1.0
    for seat, prior in zip((1, 2, 3), priors, strict=True):
        if prior is None:
            continue
        per_type = [1.0, 1.0, 1.0]
        for then, move in turns[seat][::-1][:READ_TURNS]:
            moves, tuples = view_moves(then)
            chosen = moves.index(move)
            n = len(moves)
            values = network().values(move_features(view_state(then), then.hand, tuples))
            soft = np.exp((values - values.max()) / TEMPERATURE)
            per_type[0] *= TREMBLE / n + (1 - TREMBLE) * soft[chosen] / soft.sum()
            per_type[1] *= TREMBLE / n + (1 - TREMBLE) * (greedy_move(then) == move)
            per_type[2] *= 1 / n
        weight *= sum(p * q for p, q in zip(prior, per_type, strict=True))
    return weight


def _pool(view: TableView) -> CardSet:
    return ((1 << 52) - 1) & ~view.hand & ~view.played


def _weights(view: TableView, deals, model: str) -> np.ndarray:
    turns = observed_turns(view, [1, 2, 3])
    rows = [type_likelihoods(turns[k], [deal[k] for deal in deals]) for k in range(3)]
    return deal_weights(rows, PRIORS[model])


@pytest.mark.parametrize("model", ["mix", "learned"])
def test_the_weights_of_every_deal_are_the_brute_forces(model: str) -> None:
    players = [Learned(), Learned(), Greedy(), Random()]
    views = _late_views(players, 6, 3)
    assert views
    for _, view in views:
        deals = _every_deal(_pool(view), view.counts[1:])
        weights = _weights(view, deals, model)
        expected = np.array([_brute_weight(view, deal, PRIORS[model]) for deal in deals])
        assert np.allclose(weights, expected, rtol=1e-4, atol=0)
        # The turns tell the deals apart: the weights are far from even.
        assert weights.max() > 3 * weights.min()


def test_the_weighted_draw_follows_the_weights() -> None:
    _, view = _late_views([Learned()] * 4, 5, 1)[0]
    deals = _every_deal(_pool(view), view.counts[1:])
    weights = tempered(_weights(view, deals, "mix"))
    shares = weights / weights.sum()
    drawn = weighted_deals(view, [1, 2, 3], deals, 5000, "mix", seed=4)
    seen = Counter(drawn.deals)
    got = np.array([seen[deal] / 5000 for deal in deals])
    # Systematic resampling: each deal within one draw of its expected count.
    assert np.abs(got - shares).max() <= 1 / 5000 + 1e-12
    # Each opponent's type drawn in proportion to prior * likelihood in its deal.
    assert len(drawn.types) == 5000 and all(len(kinds) == 3 for kinds in drawn.types)
    assert all(0 <= kind < len(TYPES) for kinds in drawn.types for kind in kinds)


def test_the_draw_with_a_prior_per_seat_follows_the_brute_forces_weights() -> None:
    """A seat not read (None) leaves the weights alone and is drawn as greedy; the others
    weigh the deals by their own priors."""
    _, view = _late_views([Learned()] * 4, 5, 1)[0]
    deals = _every_deal(_pool(view), view.counts[1:])
    priors = [None, PRIORS["learned"], PRIORS["mix"]]
    expected = tempered(np.array([_brute_weight(view, deal, priors) for deal in deals]))
    drawn = weighted_deals(view, [1, 2, 3], deals, 5000, priors, seed=4)
    seen = Counter(drawn.deals)
    got = np.array([seen[deal] / 5000 for deal in deals])
    assert np.abs(got - expected / expected.sum()).max() <= 1 / 5000 + 1e-9
    assert expected.max() > 3 * expected.min()
    assert {kinds[0] for kinds in drawn.types} == {TYPES.index("greedy")}
    assert {kinds[1] for kinds in drawn.types} == {TYPES.index("learned")}


def test_tempered_weights_keep_half_an_effective_sample_and_their_order() -> None:
    rng = np.random.default_rng(1)
    for spread in (0.1, 5.0, 40.0):
        weights = np.exp(rng.normal(0, spread, 64))
        weights[3] = 0.0
        out = tempered(weights)
        ess = out.sum() ** 2 / (out**2).sum()
        assert ess >= 0.5 * 64 - 1e-9
        assert out[3] == 0
        assert (np.argsort(out[weights > 0]) == np.argsort(weights[weights > 0])).all()
        if weights.sum() ** 2 >= 0.5 * 64 * (weights**2).sum():
            assert np.allclose(out / out.sum(), weights / weights.sum())  # no tempering needed


def test_the_posterior_names_who_played() -> None:
    """Seats played by greedy, or by the learned player, are read as such on the whole (a
    seat's few latest turns may fit another player as well)."""
    for other, expected in ((Greedy(), "greedy"), (Learned(), "learned")):
        shares = []
        for _, view in _late_views([Learned(), other, other, other], 12, 3):
            deals = sample_hands(_pool(view), view.counts[1:], samples=32, seed=1)
            drawn = weighted_deals(view, [1, 2, 3], deals, 32, "mix", seed=1)
            shares.extend(posterior[TYPES.index(expected)] for posterior in drawn.posterior)
        assert len(shares) == 9
        assert sum(shares) / len(shares) > 0.6, shares


def test_the_learned_replies_are_the_learned_players_moves() -> None:
    """The batched replies, the network for seats 1 and 3 and greedy for seat 2, against the
    table played on by the learned player and greedy after each of seat 0's moves."""
    checked = 0
    for table, view in _late_views([Learned()] * 4, 30, 6):
        rules = view.rules
        plays = [hand_plays(hand, rules) for hand in table.hands]
        position = Position(table.hands, 0, view.beat, view.by, view.passed, view.start)
        root = root_state(position, rules)
        starts, expected = [], []
        for move in view.legal_moves():
            tupled = (
                None if move is None else (move.mask, move.kind.size, play_strength(move, rules))
            )
            moved = table.after(move)
            beat = 0 if moved.beat is None else moved.beat.mask
            starts.append(
                Reply(root.after(tupled, rules), plays, moved.played, beat, frozenset({1, 3}))
            )
            while moved.winner is None and moved.to_move != 0:
                seen = moved.view()
                player = Greedy() if seen.seat == 2 else Learned()
                moved = moved.after(player.choose([seen], [0])[0])
            expected.append(moved)
        for reply, after in zip(replies_until(starts, 0, rules), expected, strict=True):
            if after.winner is not None:
                assert reply.outcome == after.winner
                continue
            assert reply.outcome.hands == after.hands
            assert reply.played == after.played
            assert reply.beat == (0 if after.beat is None else after.beat.mask)
            checked += 1
    assert checked > 10


def test_advice_with_the_models_is_deterministic_and_exact_where_proven() -> None:
    for model in ("mix", "learned"):
        for _, view in _late_views([Learned()] * 4, 9, 2):
            settings = replace(TABLE_ADVICE, seed=3, opponents=model, samples=8)
            first = advise(view, settings)
            assert first == advise(view, settings)
            # A verdict proven in a deal scores that deal 1 or 0, whatever the model, so a move
            # proven in every deal has a share of whole deals.
            for move in first.moves:
                if move.exact == first.samples:
                    assert (move.share * first.samples).denominator == 1


def test_an_unknown_model_is_an_input_error() -> None:
    _, view = _late_views([Learned()] * 4, 9, 1)[0]
    with pytest.raises(InputError, match="opponents"):
        advise(view, AdviceSettings(samples=2, opponents="strong"))


@pytest.mark.slow  # CI only (python -m pytest -m slow): one of the slowest checks
def test_the_tree_with_learned_opponents_is_deterministic() -> None:
    _, view = _late_views([Learned()] * 4, 12, 1)[0]
    settings = AdviceSettings(samples=4, seed=2, passes=60, opponents="learned")
    first = advise(view, settings)
    assert first == advise(view, settings)
    assert sum(move.passes for move in first.moves) == 60


def test_more_rounds_of_replies_are_deterministic() -> None:
    _, view = _late_views([Learned()] * 4, 20, 1)[0]
    settings = replace(TABLE_ADVICE, samples=4, seed=2, opponents="learned", reply_rounds=3)
    assert advise(view, settings) == advise(view, settings)


def _breaks_greedy(view: TableView, seat: int) -> bool:
    """Whether some turn of ``seat`` in the deal so far is not greedy's, from first
    principles: replay the deal and, at each of the seat's turns, ask greedy for its move
    holding only the cards the seat played at that turn or later (more cards only give greedy
    plays it prefers to those); the turn breaks the rule when greedy's move is another play
    (plays of five cards of one strength not told apart)."""
    hands = list(view.counts)
    spent = [0] * len(hands)
    for who, move in view.history:
        spent[who] |= 0 if move is None else move.mask
    hands = [spent[who] | (view.hand if who == view.seat else 0) for who in range(len(hands))]
    table = Table(tuple(hands), view.history[0].seat, view.rules)
    later = spent[seat]
    for who, move in view.history:
        if who == seat:
            then = replace(table.view(), hand=later)
            choice = greedy_move(then)
            if (choice is None) != (move is None) or (
                move is not None
                and (choice.kind.size, play_strength(choice, view.rules))
                != (move.kind.size, play_strength(move, view.rules))
            ):
                return True
            later &= ~(0 if move is None else move.mask)
        table = table.after(move)
    return False


def test_the_adaptive_model_plays_by_the_network_the_seats_that_broke_greedys_rule() -> None:
    """With ``adaptive``, the seats played by the network are those whose turns greedy would
    not have made (the brute force above); with ``greedy``, none."""
    players = [Learned(), Greedy(), Random(), Learned()]
    seen, flagged = Counter(), Counter()
    for _, view in _late_views(players, 30, 8):
        expected = frozenset(seat for seat in (1, 2, 3) if _breaks_greedy(view, seat))
        seen.update(expected)
        assert 1 not in expected  # a greedy seat never breaks greedy's rule
        for model in ("adaptive", "greedy"):
            settings = replace(TABLE_ADVICE, opponents=model, samples=4)
            pool = _pool(view)
            counts = view.counts[1:]
            _, learned = _sampled_deals(view, [1, 2, 3], pool, counts, 2, settings)
            seats = learned[0]
            assert learned == [seats] * 4
            # The reading flags a seat only on a turn it knows to break the rule from the
            # cards played alone; the brute force, with only those cards, may find more.
            assert seats <= (expected if model == "adaptive" else frozenset())
            if model == "adaptive":
                flagged.update(seats)
    assert seen[2] and seen[3]  # the random and the learned seats were seen to break it
    assert flagged[2] and flagged[3]  # and the model read them so


def test_the_adaptive_model_advises_as_greedy_against_greedy_seats() -> None:
    """Where every opponent's turns are greedy's, ``adaptive`` is the ``greedy`` model; where
    one broke the rule the network replies for it, and the advice stays deterministic."""
    for _, view in _late_views([Learned(), Greedy(), Greedy(), Greedy()], 24, 2):
        settings = replace(TABLE_ADVICE, seed=3, samples=6)
        assert advise(view, replace(settings, opponents="adaptive")) == advise(view, settings)
        played_out = replace(settings, opponents="adaptive", leaf="playout")
        assert advise(view, played_out) == advise(view, settings)
    for _, view in _late_views([Learned()] * 4, 20, 2):
        settings = replace(TABLE_ADVICE, seed=3, samples=6, opponents="adaptive", reply_rounds=3)
        first = advise(view, settings)
        assert first == advise(view, settings)


def test_rounds_of_replies_are_the_tables_with_the_player_moving_as_the_learned_player() -> None:
    """Three rounds of replies after each of seat 0's moves (seats 1 and 3 by the network, seat 2
    by greedy, seat 0 in between by the network) against the table played on so."""
    checked = 0
    for table, view in _late_views([Learned()] * 4, 30, 4):
        moves = view.legal_moves()
        hands = tuple(table.hands[seat] for seat in (1, 2, 3))
        seated = [tuple(table.hands)]
        replied = replied_states(view, seated, [frozenset({1, 3})], moves, 3)[0]
        for move, got in zip(moves, replied, strict=True):
            moved, rounds = table.after(move), 0
            while moved.winner is None:
                seen = moved.view()
                if seen.seat == 0:
                    rounds += 1
                    if rounds == 3:
                        break
                player = Greedy() if seen.seat == 2 else Learned()
                moved = moved.after(player.choose([seen], [0])[0])
            if moved.winner is not None:
                assert got == moved.winner
                continue
            assert got.hands == moved.hands and got.to_move == 0
            checked += 1
        assert hands == seated[0][1:]
    assert checked > 5


@pytest.mark.parametrize(
    ("rounds", "unseen_most", "solve_cards"), [(1, 30, 0), (3, 30, 0), (1, 6, 52)]
)
def test_a_network_leaf_is_the_learned_players_value_where_the_replies_stop(
    rounds: int, unseen_most: int, solve_cards: int
) -> None:
    """With the leaf ``network`` and no deal searched, each move's score in the true deal is,
    from first principles: the table played on after it (seats 1 and 3 by the learned player,
    seat 2 by greedy, seat 0 in between by the learned player) to seat 0's turn after
    ``rounds`` rounds of replies, then the network's best value of seat 0's legal moves there,
    kept between 0 and 1 (1 or 0 where a seat went out first); where every deal is searched,
    a move the solver proves a forced win scores 1 and the others are scored so."""
    checked = 0
    settings = replace(TABLE_ADVICE, leaf="network", solve_cards=solve_cards, reply_rounds=rounds)
    for table, view in _late_views([Learned()] * 4, unseen_most, 8):
        moves = view.legal_moves()
        # The true deal twice over: the second deal's scores are read after the first's.
        first, scores = network_scores(
            view, [tuple(table.hands)] * 2, [frozenset({1, 3})] * 2, moves, settings, 1, None
        )
        assert first == scores
        for move, (exact, score) in zip(moves, scores, strict=True):
            moved, turns = table.after(move), 0
            while moved.winner is None:
                seen = moved.view()
                if seen.seat == 0:
                    turns += 1
                    if turns == rounds:
                        break
                player = Greedy() if seen.seat == 2 else Learned()
                moved = moved.after(player.choose([seen], [0])[0])
            assert solve_cards or not exact
            if exact and score == 1:
                continue  # a forced win, proven
            if moved.winner is not None:
                assert score == (moved.winner == 0)
                continue
            seen = moved.view()
            _, tuples = view_moves(seen)
            best = float(network().values(move_features(view_state(seen), seen.hand, tuples)).max())
            assert abs(float(score) - min(max(best, 0.0), 1.0)) <= 1e-6  # a chance, kept in 0..1
            checked += 1
    assert checked > 5


def test_a_network_leaf_keeps_the_solvers_proofs() -> None:
    """Where the solver proves a forced win in a deal, the move scores 1 there whatever the
    network says; the advice is deterministic."""
    for _, view in _late_views([Learned()] * 4, 6, 3):
        settings = replace(TABLE_ADVICE, seed=3, samples=6, opponents="learned", leaf="network")
        first = advise(view, settings)
        assert first == advise(view, settings)
        solved = advise(view, replace(settings, leaf="playout"))
        proven = {move.play: move for move in solved.moves if move.exact == solved.samples}
        for move in first.moves:
            if move.play in proven and proven[move.play].share == 1:
                assert move.share == 1
