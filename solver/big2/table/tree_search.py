"""A tree of the player's own turns, searched over the sampled deals: the advisor's other way
to choose (``passes`` in :class:`~handsolver.solver.big2.table.advise.AdviceSettings`).

The algorithm is information-set Monte Carlo tree search (single-observer ISMCTS: Cowling,
Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE Transactions on
Computational Intelligence and AI in Games 4(2), 2012), with the opponents on a fixed policy
and the deals drawn in turn from the advisor's sample rather than afresh at each pass.

Why the nodes are keyed by what the player observes: scoring each move in each deal with every
hand face up lets the player's later moves depend on that deal's hidden cards, so a line that
only wins because the cards are known counts as a win (strategy fusion: the player is credited
with a different strategy in each of the deals it cannot tell apart).  A node keyed by the
player's observation (:meth:`~handsolver.solver.big2.game.state.DealState.seen_since`) merges
those deals into one information set, where one move must serve them all, so that inside the
tree no line is credited for cards the player could not see.  Strategy fusion is left only
below the leaves, each scored in one deal with every hand face up (the playouts and the line
search), and it shrinks as the tree grows deeper.

The tree's nodes are the player's turns; its edges are the player's moves, and below a move the
nodes are told apart by what the player sees before its next turn (the cards each seat played
and the trick then), not by the cards the opponents hold.  Each *pass* goes down the tree in one
sampled deal (the deals in turn), the opponents' moves in between played by ``greedy``
(:func:`~handsolver.solver.big2.table.playout.greedy_choice`), so a node gathers every deal that
looks the same to the player there.  At each node the move chosen is the one with the highest
share won plus :data:`EXPLORATION` times ``sqrt(ln(passes through the node) / passes through
the move)`` (UCB1), a move never tried first; where the pass reaches a node not yet in the tree
it is added, and the deal scored from it as the advisor scores a deal after a move: played out
(the player by each of its policies in turn, a win in either counts) and, where both lose and
``line_nodes`` is set, searched for a line of the player's own that goes out first against the
greedy opponents (:func:`~handsolver.solver.big2.table.line_search.winning_line`, at most that many
of the player's turns).  Every node on the way counts the pass and whether the player went out
first.

A move's share is the share of the passes through it that the player won; the moves are ranked
by how many passes went through them (the search spends its passes on the moves that win), then
by share.  Nothing here is random beyond the sampled deals, so the answer is fixed by them.

>>> from handsolver.models.big2 import SEED_RULES
>>> from handsolver.models.cards import mask_of, parse_cards
>>> hands = tuple(mask_of(parse_cards(text)) for text in ("3c 9h Qc", "3d 7h Ah"))
>>> plays = hand_plays(hands[0], SEED_RULES).leads  # the three singles, lowest first
>>> tree = PlayerTree([DealState(hands, 0, 0, 0, -1, 0)], 0, plays, SEED_RULES, (greedy_choice,))
>>> tree.run(200)
>>> [passes for passes, won in tree.root_stats()]
[4, 193, 3]

(after 9h the ace goes on it and seat 1 leads 3d; the queen holds the trick and 3c goes out.
Qc led first wins too, on the same line, but the passes stay with the first winning move they
find).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from handsolver.models.big2_rules import Rules
from handsolver.solver.big2.game.plays import HandPlays, hand_plays
from handsolver.solver.big2.game.state import DealState, Observation, PlayOrPass
from handsolver.solver.big2.table.line_search import DealPlays
from handsolver.solver.big2.table.playout import Policy, greedy_choice, play_until
from handsolver.solver.big2.table.playout_learned import Reply, beat_after, replies_until

__all__ = ["EXPLORATION", "PlayerTree"]

EXPLORATION = 0.5
"""The weight of the untried in UCB1 (0.3 and 1.0 played no better in trials against
``greedy``)."""


class _Edge:
    """A move at a node: passes through it, passes won, and the nodes below it by what the
    player sees next."""

    __slots__ = ("children", "passes", "wins")

    def __init__(self) -> None:
        self.passes = 0
        self.wins = 0
        self.children: dict[Observation, _Node] = {}


class _Node:
    __slots__ = ("edges", "passes")

    def __init__(self) -> None:
        self.passes = 0
        self.edges: dict[PlayOrPass, _Edge] = {}


class PlayerTree:
    """The tree of ``seat``'s turns over the deals ``roots`` (one state each, ``seat`` to move;
    the passes take them in turn), the root's moves ``moves`` (the player's legal moves, in the
    order untried moves are tried), ``first``, the player's policies in a playout, and
    ``line_nodes``, the budget of the line search where the playouts lose (0: none; see the
    module).  With ``compiled`` the leaves are scored by the compiled playouts and line search
    (:mod:`.playout_compiled`), else in Python: the same answers."""

    def __init__(
        self,
        roots: Sequence[DealState],
        seat: int,
        moves: Sequence[PlayOrPass],
        rules: Rules,
        first: Sequence[Policy],
        line_nodes: int = 0,
        compiled: bool = True,
    ) -> None:
        self.roots = list(roots)
        self.plays = [[hand_plays(hand, rules) for hand in root[0]] for root in self.roots]
        self.seat = seat
        self.moves = list(moves)
        self.rules = rules
        self.first = tuple(first)
        self.line_nodes = line_nodes
        players = len(self.roots[0][0])
        # Positions proven lost to the line search.  A state holds every hand, so what is
        # refuted in one deal is refuted wherever it comes up.
        self._refuted: Any
        self._deals: list[Any]
        if compiled:  # numba loads only here, when a tree is searched
            from handsolver.solver.big2.table.playout_compiled import CompiledDeal, RefutedStates

            self._deals = [CompiledDeal(plays, rules) for plays in self.plays]
            self._refuted = RefutedStates(players)
        else:
            self._deals = [DealPlays(plays, rules) for plays in self.plays]
            self._refuted = set()
        self.passes = 0
        self._root = _Node()
        self._policies: list[Policy] = [greedy_choice] * players
        self._learned: list[frozenset[int]] = [frozenset()] * len(self.roots)
        self._played, self._beat = 0, 0

    def learned_replies(self, learned: Sequence[frozenset[int]], played: int, beat: int) -> None:
        """Play the seats ``learned[i]`` of root ``i`` by the learned player's network between
        the player's turns in the tree (:func:`~.playout_learned.replies_until`), the others
        by greedy's rule; ``played`` and ``beat``: the cards played before the roots and those
        of their play to beat (0 on a lead).  The leaves are scored as before."""
        self._learned = list(learned)
        self._played, self._beat = played, beat

    def run(self, passes: int) -> None:
        """Go down the tree ``passes`` times more."""
        for _ in range(passes):
            index = self.passes % len(self.roots)
            self._one_pass(
                self.roots[index], self.plays[index], self._deals[index], self._learned[index]
            )
            self.passes += 1

    def root_stats(self) -> list[tuple[int, int]]:
        """Per root move: the passes through it and the passes the player won."""
        edges = self._root.edges
        return [
            (edges[move].passes, edges[move].wins) if move in edges else (0, 0)
            for move in self.moves
        ]

    def _one_pass(
        self, state: DealState, plays: list[HandPlays], deal: Any, learned: frozenset[int]
    ) -> None:
        seat, rules = self.seat, self.rules
        played, beat = self._played, self._beat
        node = self._root
        moves: Sequence[PlayOrPass] = self.moves
        path: list[tuple[_Node, _Edge]] = []
        while True:
            move, edge = _choice(node, moves)
            path.append((node, edge))
            child = state.after(move, rules)
            if learned:
                mine = 0 if move is None else move[0]
                beat = beat_after(move, beat, child)
                start = Reply(child, plays, played | mine, beat, learned)
                child, played, beat = replies_until([start], seat, rules)[0]
            elif not isinstance(child, int):
                # In Python: a short call here costs less than a compiled one's overhead.
                child = play_until(plays, child, rules, self._policies, seat)
            if isinstance(child, int):
                won = child == seat
                break
            seen = _observation(state, child)
            below = edge.children.get(seen)
            if below is None:  # a move tried for the first time has nothing below it yet
                edge.children[seen] = _Node()
                won = deal.deal_won(
                    child, seat, self._policies, self.first, self.line_nodes, self._refuted
                )
                break
            node, state = below, child
            moves = state.legal_moves(plays[seat])
        for node, edge in path:
            node.passes += 1
            edge.passes += 1
            edge.wins += won


def _choice(node: _Node, moves: Sequence[PlayOrPass]) -> tuple[PlayOrPass, _Edge]:
    """The move to follow at ``node``, the first never tried, else the best by UCB1, and its
    edge."""
    edges = node.edges
    for move in moves:
        if move not in edges:
            edge = edges[move] = _Edge()
            return move, edge
    spread = math.log(node.passes)
    best_value = -1.0
    best: PlayOrPass = None
    for move in moves:
        edge = edges[move]
        value = edge.wins / edge.passes + EXPLORATION * math.sqrt(spread / edge.passes)
        if value > best_value:
            best_value, best = value, move
    return best, edges[best]


def _observation(before: DealState, now: DealState) -> Observation:
    """What the player sees from one of its turns to the next: the cards each seat played and
    the trick then (:meth:`DealState.seen_since`)."""
    return now.seen_since(before)
