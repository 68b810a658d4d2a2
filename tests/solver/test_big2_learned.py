"""The learned Big 2 player: what it sees is what a seat sees, the same from the table's views
and from the self-play loop's states; its network's forward pass against a plain one written
here; its moves legal and deterministic; the shipped weights load."""

from __future__ import annotations

import random

import numpy as np
import pytest

from handsolver.models.big2 import SEED_RULES
from handsolver.models.big2_order import play_strength
from handsolver.models.big2_rules import make_rules
from handsolver.models.cards import card_name, cards_of, mask_of, parse_cards
from handsolver.solver.big2.game.state import DealState
from handsolver.solver.big2.table.learned import (
    FEATURES,
    MEMBERS,
    REACH_FEATURES,
    SHAPE_FEATURES,
    STATE_FEATURES,
    WEIGHTS,
    Ensemble,
    Learned,
    Network,
    deal_state_features,
    deal_states_features,
    hand_shape,
    move_features,
    network,
    positions_features,
    unseen_reach,
    view_moves,
    view_state,
    weights_digest,
)
from handsolver.solver.big2.table.strategies import strategy_from_spec
from handsolver.solver.big2.table.views import Table


def dealt(rng: random.Random, players: int = 4, size: int = 13) -> tuple[int, ...]:
    cards = rng.sample(range(52), players * size)
    return tuple(sum(1 << c for c in cards[s * size : (s + 1) * size]) for s in range(players))


def tuple_state(table: Table) -> DealState:
    """The deal-in-play tuple of a table, built from its own fields."""
    size = strength = 0
    if table.beat is not None:
        size, strength = table.beat.kind.size, play_strength(table.beat, table.rules)
    by = -1 if table.by is None else table.by
    passed = sum(1 << seat for seat in table.passed)
    return DealState(table.hands, table.to_move, size, strength, by, passed)


@pytest.mark.parametrize("profile", ["seed", "hk", "taiwan"])
def test_features_from_a_view_equal_those_of_the_deal(profile: str) -> None:
    """At every decision of random deals, the features built from the seat's view equal
    those built from the deal's state, which the self-play loop uses."""
    rules = make_rules(profile)
    rng = random.Random(7)
    decisions = 0
    for _ in range(12):
        table = Table.deal(dealt(rng), rules)
        while table.winner is None:
            view = table.view()
            moves, tuples = view_moves(view)
            beat = 0 if table.beat is None else table.beat.mask
            ours = move_features(view_state(view), view.hand, tuples)
            theirs = move_features(
                deal_state_features(tuple_state(table), table.played, beat, not table.history),
                view.hand,
                tuples,
            )
            assert ours.shape == (len(moves), FEATURES)
            np.testing.assert_array_equal(ours, theirs)
            decisions += 1
            table = table.after(rng.choice(moves))
    assert decisions > 300


def test_deal_states_built_together_equal_each_built_alone() -> None:
    """The position parts of many deal states (two to four players) built in one call, as a
    playout's network asks for them, against each built alone from its view."""
    rng = random.Random(8)
    states, played, beats, views = [], [], [], []
    for players in (2, 3, 4):
        table = Table.deal(dealt(rng, players))
        while table.winner is None:
            states.append(tuple_state(table))
            played.append(table.played)
            beats.append(0 if table.beat is None else table.beat.mask)
            views.append(view_state(table.view()))
            table = table.after(rng.choice(table.view().legal_moves()))
    together = deal_states_features(states, played, beats, False)
    # The deal's first play of each deal is the one start flag a view sets.
    alone = np.stack(views)
    alone[:, -1] = 0
    np.testing.assert_array_equal(together, alone)


def test_a_move_row_shows_the_hand_it_leaves_and_its_cards() -> None:
    table = Table.deal(dealt(random.Random(3)))
    view = table.view()
    moves, tuples = view_moves(view)
    rows = move_features(view_state(view), view.hand, tuples)
    for move, row in zip(moves, rows, strict=True):
        assert move is not None  # the first play of a deal cannot pass
        left = row[STATE_FEATURES : STATE_FEATURES + 52]
        cards = row[STATE_FEATURES + 52 : STATE_FEATURES + 104]
        assert sum(1 << i for i in np.flatnonzero(left)) == view.hand ^ move.mask
        assert sum(1 << i for i in np.flatnonzero(cards)) == move.mask
        assert row[STATE_FEATURES + 104 + move.kind.size] == 1


BIG2_RANKS = "3456789TJQKA2"


def plain_shape(hand: set[str], unseen: set[str]) -> list[float]:
    """:func:`hand_shape` of cards written as text ("Td"), counted one by one."""
    ranks = [sum(card[0] == rank for card in hand) for rank in BIG2_RANKS]
    out = [0.0] * 14
    out[len(hand)] = 1.0
    out += [sum(count == k for count in ranks) / 4 for k in (1, 2, 3, 4)]
    small = [0.0] * 14
    small[min(sum((count + 2) // 3 for count in ranks), 13)] = 1.0
    out += small
    out += [ranks[-1] / 4, ranks[-2] / 4]
    ring = "A23456789TJQKA"
    runs = [
        ring[at : at + 5]
        for at in range(10)
        if all(r in {c[0] for c in hand} for r in ring[at : at + 5])
    ]
    out += [len(runs) / 4, float(bool(runs))]
    flush_suits = [suit for suit in "cdhs" if sum(card[1] == suit for card in hand) >= 5]
    out.append(len(flush_suits) / 4)
    triples = [r for r, count in zip(BIG2_RANKS, ranks, strict=True) if count >= 3]
    pairs = [r for r, count in zip(BIG2_RANKS, ranks, strict=True) if count >= 2]
    out.append(float(bool(triples) and len(pairs) >= 2))
    top = max((BIG2_RANKS.index(card[0]) for card in unseen), default=-1)
    out.append(sum(BIG2_RANKS.index(card[0]) > top for card in hand) / 4)
    out.append(sum(BIG2_RANKS.index(card[0]) >= top for card in hand) / 4)
    lone = [
        card
        for card in hand
        if ranks[BIG2_RANKS.index(card[0])] == 1
        and card[1] not in flush_suits
        and not any(card[0] in run for run in runs)
    ]
    out.append(len(lone) / 4)
    return out


@pytest.mark.parametrize("seed", range(40))
def test_the_hand_shape_equals_one_counted_card_by_card(seed: int) -> None:
    rng = random.Random(seed)
    deck = [rank + suit for rank in BIG2_RANKS for suit in "cdhs"]
    hand = set(rng.sample(deck, rng.randint(0, 13)))
    unseen = set(rng.sample(sorted(set(deck) - hand), rng.randint(0, 52 - len(hand))))
    # Runs and flushes often enough to count them.
    if seed % 3 == 0:
        hand = {rank + rng.choice("cdhs") for rank in "A2345" if rng.random() < 0.9} | set(
            list(hand)[:4]
        )
    elif seed % 3 == 1:
        hand = {rank + "h" for rank in rng.sample(BIG2_RANKS, 6)} | set(list(hand)[:5])
    unseen -= hand
    (row,) = hand_shape(_text_bits(hand), mask_of(parse_cards(" ".join(unseen))))
    assert len(row) == SHAPE_FEATURES
    np.testing.assert_allclose(row, plain_shape(hand, unseen))


def plain_reach(hand: set[str], move: set[str], unseen: set[str]) -> list[float]:
    """:func:`unseen_reach` of cards written as text, the move's cards taken from ``hand``."""

    def count(cards: set[str], rank: str) -> int:
        return sum(card[0] == rank for card in cards)

    def higher(rank: str, than: str) -> bool:
        return BIG2_RANKS.index(rank) > BIG2_RANKS.index(than)

    ranks = {card[0] for card in move}
    out = [0.0, 0.0]
    if len(ranks) == 1 and len(move) <= 4:
        (rank,) = ranks
        rivals = [r for r in BIG2_RANKS if count(unseen, r) >= len(move)]
        out = [
            float(all(higher(rank, r) for r in rivals)),
            float(all(not higher(r, rank) for r in rivals)),
        ]
    ring = "A23456789TJQKA"
    out.append(float(any(all(count(unseen, r) for r in ring[at : at + 5]) for at in range(10))))
    out.append(float(any(sum(card[1] == suit for card in unseen) >= 5 for suit in "cdhs")))
    triple = any(count(unseen, r) >= 3 for r in BIG2_RANKS)
    out.append(float(triple and sum(count(unseen, r) >= 2 for r in BIG2_RANKS) >= 2))
    out.append(float(any(count(unseen, r) == 4 for r in BIG2_RANKS) and len(unseen) >= 5))
    left = hand - move
    for n in (2, 3):
        rivals = [r for r in BIG2_RANKS if count(unseen, r) >= n]
        mine = [r for r in BIG2_RANKS if count(left, r) >= n]
        out.append(sum(all(higher(r, rival) for rival in rivals) for r in mine) / 4)
    return out


@pytest.mark.parametrize("seed", range(80))
def test_what_the_unseen_cards_could_answer_equals_one_counted_card_by_card(seed: int) -> None:
    rng = random.Random(seed)
    deck = [rank + suit for rank in BIG2_RANKS for suit in "cdhs"]
    hand = set(rng.sample(deck, rng.randint(1, 13)))
    # The unseen cards up to a rank, so that their highest ranks vary and meet the move's.
    below = BIG2_RANKS[: rng.randint(1, 13)]
    pool = sorted(card for card in set(deck) - hand if card[0] in below)
    unseen = set(rng.sample(pool, rng.randint(0, len(pool))))
    if seed % 4 in (0, 3):  # plays of one rank, often enough to matter
        rank = rng.choice(sorted({card[0] for card in hand}))
        same = sorted(card for card in hand if card[0] == rank)
        move = set(same[: rng.randint(1, len(same))])
    elif seed % 4 == 1:  # a pass
        move = set()
    else:
        move = set(rng.sample(sorted(hand), min(len(hand), rng.choice([1, 1, 2, 5]))))
    left_mask, move_mask = (mask_of(parse_cards(" ".join(cards))) for cards in (hand - move, move))
    (row,) = unseen_reach(
        _text_bits(hand - move), _text_bits(move), mask_of(parse_cards(" ".join(unseen)))
    )
    assert len(row) == REACH_FEATURES
    assert left_mask ^ move_mask == mask_of(parse_cards(" ".join(hand)))
    np.testing.assert_allclose(row, plain_reach(hand, move, unseen))


def test_a_move_row_ends_with_what_the_unseen_cards_could_answer() -> None:
    table = Table.deal(dealt(random.Random(4)))
    view = table.view()
    _, tuples = view_moves(view)
    rows = move_features(view_state(view), view.hand, tuples)
    unseen = (1 << 52) - 1 & ~view.hand
    left = np.array([[view.hand >> c & 1 ^ (t[0] >> c & 1) for c in range(52)] for t in tuples])
    cards = np.array([[t[0] >> c & 1 for c in range(52)] for t in tuples])
    expected = unseen_reach(left.astype(np.float32), cards.astype(np.float32), unseen)
    np.testing.assert_array_equal(rows[:, FEATURES - REACH_FEATURES :], expected)


def _random_cards(rng: random.Random) -> tuple[set[str], set[str], set[str]]:
    """A hand, a move's cards from it and unseen cards outside it, of varied sizes and tops."""
    deck = [rank + suit for rank in BIG2_RANKS for suit in "cdhs"]
    hand = set(rng.sample(deck, rng.randint(1, 13)))
    below = BIG2_RANKS[: rng.randint(1, 13)]
    pool = sorted(card for card in set(deck) - hand if card[0] in below)
    unseen = set(rng.sample(pool, rng.randint(0, len(pool))))
    move = set(rng.sample(sorted(hand), min(len(hand), rng.choice([0, 1, 2, 3, 5]))))
    return hand, move, unseen


def test_rows_of_their_own_unseen_cards_each_equal_the_plain_counts() -> None:
    """The shape and the reach with unseen cards given a row each (as positions built
    together give them): every row as counted card by card with its own unseen cards."""
    rng = random.Random(11)
    drawn = [_random_cards(rng) for _ in range(60)]
    left = np.concatenate([_text_bits(hand - move) for hand, move, _ in drawn])
    cards = np.concatenate([_text_bits(move) for _, move, _ in drawn])
    unseen = np.concatenate([_text_bits(unseen) for _, _, unseen in drawn])
    shapes, reaches = hand_shape(left, unseen), unseen_reach(left, cards, unseen)
    for (hand, move, rest), shape, reach in zip(drawn, shapes, reaches, strict=True):
        np.testing.assert_allclose(shape, plain_shape(hand - move, rest))
        np.testing.assert_allclose(reach, plain_reach(hand, move, rest))


def _positions_played(rng: random.Random, deals: int) -> list:
    """Every decision's position (the state, the hand and the moves) of ``deals`` random deals
    played by random moves."""
    positions = []
    for _ in range(deals):
        table = Table.deal(dealt(rng))
        while table.winner is None:
            view = table.view()
            _, tuples = view_moves(view)
            positions.append((view_state(view), view.hand, tuples))
            table = table.after(rng.choice(view.legal_moves()))
    return positions


def test_positions_built_together_equal_each_built_alone() -> None:
    """The rows of many positions (other hands, other cards played) built in one call, as
    the network's batched callers build them, against each position's rows built alone."""
    positions = _positions_played(random.Random(12), 6)
    together = positions_features(positions)
    alone = np.concatenate([move_features(*position) for position in positions])
    assert len({position[1] for position in positions}) > 50
    np.testing.assert_array_equal(together, alone)


def _positions_of_deals(seed: int, deals: int) -> list:
    """Every decision's position of random deals, some asked again later in the batch (as
    sampled deals that agree on what the mover sees are), and some with their moves in
    reverse (the same state and hand, other rows)."""
    rng = random.Random(seed)
    positions = _positions_played(rng, deals)
    again = rng.sample(positions, len(positions) // 3)
    reversed_moves = [(state, hand, moves[::-1]) for state, hand, moves in again[::4]]
    return positions + again + reversed_moves


def test_the_rows_of_real_positions_equal_the_plain_counts() -> None:
    """The shape and the reach of every move of many real positions built together (what the
    unseen cards show counted once a position, some positions asked twice, their unseen cards
    varied) against each row counted card by card with its own position's unseen cards."""
    positions = _positions_of_deals(15, 3)
    rows = positions_features(positions)
    shape_at = FEATURES - REACH_FEATURES - SHAPE_FEATURES
    at = 0
    for state, hand, moves in positions:
        played = mask_of(np.flatnonzero(state[:52]).tolist())
        unseen = _names((1 << 52) - 1 & ~played & ~hand)
        for move in moves:
            cards = 0 if move is None else move[0]
            left, taken = _names(hand ^ cards), _names(cards)
            row = rows[at]
            np.testing.assert_array_equal(row[shape_at:-REACH_FEATURES], plain_shape(left, unseen))
            np.testing.assert_array_equal(
                row[-REACH_FEATURES:], plain_reach(left | taken, taken, unseen)
            )
            at += 1
    assert at == len(rows) > 1000 and len({position[1] for position in positions}) > 30


def _names(mask: int) -> set[str]:
    return {card_name(card) for card in cards_of(mask)}


@pytest.mark.parametrize("which", ["ensemble", 0, 1, 2])
def test_the_values_by_positions_equal_those_of_whole_rows(which: str | int) -> None:
    """The path the player and the opponents' models take (a position's part through the first
    layer once for all its moves) against every row built whole, for the ensemble and for each
    member (325, 317 and 276 inputs): equal but for float32 rounding."""
    net = network() if which == "ensemble" else network().members[int(which)]
    assert sorted(member.layers[0][0].shape[0] for member in network().members) == [
        276,
        317,
        FEATURES,
    ]
    positions = _positions_of_deals(13, 4)
    got = net.values_of_positions(positions)
    assert got.dtype == np.float32 and len(positions) > 100
    np.testing.assert_allclose(got, net.values(positions_features(positions)), rtol=0, atol=1e-5)


def test_the_values_by_positions_of_any_widths_and_depths() -> None:
    """Members narrower than a position's part, or of one layer (the output), by positions as
    on whole rows."""
    rng = np.random.default_rng(9)

    def made(*sizes: int) -> Network:
        return Network(
            tuple(
                (rng.standard_normal((a, b)), rng.standard_normal(b))
                for a, b in zip(sizes, sizes[1:], strict=False)
            )
        )

    members = (made(FEATURES, 5, 3, 1), made(STATE_FEATURES - 50, 4, 1), made(200, 1))
    positions = _positions_of_deals(14, 1)
    for net in (Ensemble(members), *members):
        np.testing.assert_allclose(
            net.values_of_positions(positions), net.values(positions_features(positions))
        )


def _text_bits(cards: set[str]) -> np.ndarray:
    bits = np.zeros((1, 52), dtype=np.float32)
    for card in parse_cards(" ".join(cards)):
        bits[0, card] = 1.0
    return bits


def plain_values(layers, rows) -> list[float]:
    """The network's forward pass, one number at a time."""
    out = []
    for row in rows.tolist():
        values = row
        for index, (weights, biases) in enumerate(layers):
            values = [
                sum(v * weights[i][j] for i, v in enumerate(values)) + biases[j]
                for j in range(len(biases))
            ]
            if index < len(layers) - 1:
                values = [max(v, 0.0) for v in values]
        out.append(values[0])
    return out


def test_the_forward_pass_equals_a_plain_one() -> None:
    rng = np.random.default_rng(5)
    layers = (
        (rng.standard_normal((6, 4)), rng.standard_normal(4)),
        (rng.standard_normal((4, 3)), rng.standard_normal(3)),
        (rng.standard_normal((3, 1)), rng.standard_normal(1)),
    )
    rows = rng.standard_normal((5, 6))
    got = Network(layers).values(rows)
    np.testing.assert_allclose(
        got, plain_values([(w.tolist(), b.tolist()) for w, b in layers], rows)
    )


def test_the_shipped_weights_load_and_fit_the_features() -> None:
    net = network()
    assert MEMBERS[0] == WEIGHTS and len(net.members) == len(MEMBERS) == 3
    assert sum(path.stat().st_size for path in MEMBERS) < 4 * 2**20
    assert net.members[0].layers[0][0].shape[0] == FEATURES  # the last run sees every input
    for member in net.members:
        assert member.layers[0][0].shape[0] <= FEATURES
        assert member.layers[-1][0].shape[1] == 1


def test_a_checkpoint_names_the_weights() -> None:
    """The tournament's checkpoint key holds the player's description, and it names the
    shipped weights, so games played by other weights are not resumed."""
    from handsolver.models.big2 import SEED_RULES
    from handsolver.solver.big2.table.tournament_saves import tournament_key

    key = tournament_key([Learned(), Learned()], 4, 1, SEED_RULES)
    assert weights_digest() in key["strategies"][0]
    other = tournament_key([Learned(weights="0" * 16), Learned()], 4, 1, SEED_RULES)
    assert other != key


def test_the_ensemble_is_the_mean_of_its_members_on_their_inputs() -> None:
    """A member trained before later inputs existed reads the first of them only; the
    ensemble's value is the plain mean of the members' values."""
    rng = np.random.default_rng(8)
    wide = Network(
        (
            (rng.standard_normal((6, 3)), rng.standard_normal(3)),
            (rng.standard_normal((3, 1)), rng.standard_normal(1)),
        )
    )
    narrow = Network(((rng.standard_normal((4, 1)), rng.standard_normal(1)),))
    rows = rng.standard_normal((7, 6))
    expected = [
        (
            plain_values([(w.tolist(), b.tolist()) for w, b in wide.layers], rows[i : i + 1])[0]
            + plain_values(
                [(w.tolist(), b.tolist()) for w, b in narrow.layers], rows[i : i + 1, :4]
            )[0]
        )
        / 2
        for i in range(7)
    ]
    np.testing.assert_allclose(Ensemble((wide, narrow)).values(rows), expected)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_player_makes_legal_moves_and_is_deterministic(players: int) -> None:
    player = strategy_from_spec("learned")
    assert player.name == "learned"
    rng = random.Random(players)
    for _ in range(4):
        table = Table.deal(dealt(rng, players), SEED_RULES)
        while table.winner is None:
            view = table.view()
            (move,) = player.choose([view], [0])
            assert move in view.legal_moves()
            assert Learned().choose([view], [1]) == [move]
            table = table.after(move)


def test_the_player_follows_its_network() -> None:
    """A network that values only the cards a move keeps in hand makes the player pass
    whenever it may: a broken reading of the values would not."""
    keep = np.zeros((FEATURES, 1))
    keep[STATE_FEATURES : STATE_FEATURES + 52, 0] = 1.0
    player = Learned(net=Network(((keep, np.zeros(1)),)))
    rng = random.Random(11)
    table = Table.deal(dealt(rng))
    passes = 0
    while table.winner is None:
        view = table.view()
        (move,) = player.choose([view], [0])
        if view.beat is not None:
            assert move is None
            passes += 1
        else:
            assert move is not None and move.kind.size == min(
                m.kind.size for m in view.legal_moves() if m is not None
            )
        table = table.after(move)
        if passes > 40:
            break
    assert passes
