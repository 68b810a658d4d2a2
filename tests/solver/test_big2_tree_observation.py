"""What the tree of the player's turns keys its nodes by: what the player observes.

Two deals the player can tell apart by the cards an opponent played must reach different nodes
(else one move is chosen for both, and the tree plays worse than a player who watches the
table); two deals the player cannot tell apart must reach the same node (else the tree plays
each deal as if it saw the hidden hands).  The tree's nodes are not public, so this is checked
by what the tree wins, against a brute force of the best a player can win over a few deals with
greedy opponents when its choices may depend on some of what happened and not on the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace

import pytest

from handsolver.models.big2 import SEED_RULES, Play
from handsolver.models.big2_order import play_strength
from handsolver.models.cards import mask_of, parse_cards
from handsolver.solver.big2.table.deal_scores import PLAYER_POLICIES
from handsolver.solver.big2.table.strategies import greedy_move
from handsolver.solver.big2.table.tree_search import PlayerTree
from handsolver.solver.big2.table.views import Move, Table, Turn
from tests.solver.test_big2_playout import state_of

Knowledge = Callable[[Table], Hashable]
"""What the player may choose by at its turn (tables with the same key are one choice)."""


def hidden_hands(table: Table) -> Hashable:
    """Everything, the other hands included: each deal on its own."""
    return table


def what_the_player_sees(table: Table) -> Hashable:
    """The seat to move's view: its hand, every turn so far, the counts and the trick."""
    return table.view()


def the_trick_only(table: Table) -> Hashable:
    """The player's own hand and the trick, as if it paid no heed to the cards played."""
    return table.hands[table.to_move], table.beat, table.by, table.passed


def greedy_until(table: Table, seat: int) -> Table:
    """The table once ``seat`` is to move again (or the deal is over), the others greedy."""
    while table.winner is None and table.to_move != seat:
        table = table.after(greedy_move(table.view()))
    return table


def most_won_after(tables: Sequence[Table], move: Move, knows: Knowledge) -> int:
    """The most of ``tables`` (the seat to move the same in each, one choice to it) the seat to
    move wins when it makes ``move`` in each, then chooses by what ``knows`` tells it (its
    recall perfect), the other seats greedy."""
    seat = tables[0].to_move
    won = 0
    apart: dict[Hashable, list[Table]] = {}
    for table in tables:
        nxt = greedy_until(table.after(move), seat)
        if nxt.winner is not None:
            won += nxt.winner == seat
        else:
            apart.setdefault(knows(nxt), []).append(nxt)
    for together in apart.values():
        moves = together[0].view().legal_moves()
        won += max(most_won_after(together, choice, knows) for choice in moves)
    return won


def deals(hand: str, first: tuple[str, str], second: tuple[str, str]) -> list[Table]:
    """Two three-seat deals with seat 0 to lead ``hand`` and the other hands as given, after a
    first turn (so the lead need not hold the lowest card)."""
    tables = []
    for others in (first, second):
        hands = tuple(mask_of(parse_cards(text)) for text in (hand, *others))
        tables.append(Table(hands, 0, SEED_RULES, history=(Turn(0, None),)))
    return tables


def share_won(tables: list[Table], move: Play, passes: int = 2000) -> float:
    """The share of ``passes`` through the tree over ``tables`` that seat 0 won after
    ``move``."""
    tupled = (move.mask, move.kind.size, play_strength(move, SEED_RULES))
    roots = [state_of(table) for table in tables]
    tree = PlayerTree(roots, 0, [tupled], SEED_RULES, PLAYER_POLICIES, compiled=False)
    tree.run(passes)
    [(through, won)] = tree.root_stats()
    assert through == passes
    return won / passes


# Each: seat 0's hand, the other two hands in one deal and in the other, seat 0's lead.
TOLD_APART_BY_THE_CARDS_PLAYED = [
    ("4c 9h Ks", ("9c As", "2d 3h 4h 7h"), ("8s Jc", "2d 3h 4h 7h"), "Ks"),
    ("2c 3h 7d Td", ("3s 5s 7c", "5c Jc"), ("2d 5s Ts", "5c Jc"), "7d"),
    ("2h 5s 7h 8h", ("5d 7d 7s Tc", "3d 9h Qs"), ("5h 7s Tc Ad", "3d 9h Qs"), "5s"),
]
NOT_TOLD_APART = [
    ("6c 8c Qc", ("3h 7d Jh Ks", "6d 7h Qh Kh"), ("3h 6d 7d Ks", "7h Jh Qh Kh"), "6c"),
    ("2s 5h 8h", ("3h 6c Tc Ks", "4s 9c"), ("6c 9c Tc Ks", "3h 4s"), "2s"),
]


@pytest.mark.parametrize(("hand", "first", "second", "lead"), TOLD_APART_BY_THE_CARDS_PLAYED)
def test_deals_told_apart_by_the_cards_an_opponent_played_reach_different_nodes(
    hand: str, first: tuple[str, str], second: tuple[str, str], lead: str
) -> None:
    """In these pairs the trick at the player's next turn is the same in both deals, but the
    card the first opponent played before it differs, and so does the move that wins: a player
    who watches the cards wins both deals, one who reads only the trick wins one."""
    tables, move = deals(hand, first, second), Play.from_text(lead)
    assert most_won_after(tables, move, what_the_player_sees) == 2
    assert most_won_after(tables, move, the_trick_only) == 1
    assert share_won(tables, move) > 0.9


@pytest.mark.parametrize(("hand", "first", "second", "lead"), NOT_TOLD_APART)
def test_deals_the_player_cannot_tell_apart_share_a_node(
    hand: str, first: tuple[str, str], second: tuple[str, str], lead: str
) -> None:
    """In these pairs each deal alone has a winning line, but the player sees the same in both
    until its choice and the winning choices differ: it can win only one, and so does the
    tree, which must not choose by the hidden hands."""
    tables, move = deals(hand, first, second), Play.from_text(lead)
    assert most_won_after(tables, move, hidden_hands) == 2
    assert most_won_after(tables, move, what_the_player_sees) == 1
    assert share_won(tables, move) < 0.75


def test_the_pairs_are_deals_in_the_same_view() -> None:
    """The two deals of a pair look the same to the player at the root."""
    for hand, first, second, _ in TOLD_APART_BY_THE_CARDS_PLAYED + NOT_TOLD_APART:
        one, other = deals(hand, first, second)
        assert one.view() == other.view()
        assert replace(one, hands=other.hands) == other
