"""The search behind :func:`~.positions.solve_position`: can one player force
going out first against all the others together?

A state is a :class:`~.state.DealState`: the hands as masks, the player to move, the play to
beat as (size, strength) with size 0 for a free lead, who made it, and (where passes are final)
who has passed in this trick; the moves are its legal moves.  The search is a boolean AND-OR
search: the target player's turns are OR nodes, everybody else's are AND nodes (the others play
as one side).  What makes it fast enough:

* every play of each player's starting hand is listed once, by size and strength
  (:class:`~.plays.HandPlays`); in a subtree a player's plays are the listed ones inside the
  current hand (one AND per play), and the replies to a play are the listed ones above its
  strength (a bisection);
* a transposition table per target player maps a state to its proven value (the game has no
  cycles: every trick ends after one round of passes, so values are exact); the table's key
  lowers the play to beat to the strongest play still held at or below it
  (:meth:`GameSearch.key_of`), so that trick states that allow the same replies share one entry;
* a play that empties the mover's hand is tried first, then the plays that leave the hand
  the fewest plays to empty it (the fewest-plays engine, kept per hand), larger plays and then
  lower ones first among equals, passing last;
* a leader whose hand splits into plays nobody else can beat, except perhaps the last one, has
  won without search (:meth:`GameSearch.sure_out`).

A node budget and a deadline stop a search with :class:`OutOfBudget`; the caller reports the
verdict as unknown.
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Callable

from handsolver.models.big2 import Play, PlayKind
from handsolver.models.big2_rules import Rules
from handsolver.models.cards import CardSet
from handsolver.solver.big2.fewest.search import optimal_five_sets
from handsolver.solver.big2.game.plays import DEUCE_KEY, PlayTuple, hand_plays
from handsolver.solver.big2.game.state import DealState, Outcome

#: The entries a transposition table holds by default before it is emptied.
DEFAULT_TABLE_SIZE = 2_000_000

_CHECK_EVERY = 1024
Key = tuple[tuple[CardSet, ...], int, int, int, int, int]
"""A transposition key: a :class:`~.state.DealState`'s six fields (:meth:`GameSearch.key_of`)."""


class OutOfBudget(Exception):
    """The node budget or the deadline ran out before the answer was proven."""


class GameSearch:
    """The AND-OR search over the positions that follow from one set of starting hands.

    ``max_nodes`` and ``deadline`` (a :func:`time.perf_counter` value) bound all the searches
    made through this object together; ``table_size`` caps each transposition table (a full
    table is emptied and refilled: results stay exact, only work is repeated).
    """

    def __init__(
        self,
        hands: tuple[CardSet, ...],
        rules: Rules,
        *,
        max_nodes: int | None = None,
        deadline: float | None = None,
        table_size: int = DEFAULT_TABLE_SIZE,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        self.rules = rules
        self.players = len(hands)
        self.plays = [hand_plays(hand, rules) for hand in hands]
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.table_size = table_size
        self.progress = progress
        self.nodes = 0
        self._proven: dict[int, dict[Key, bool]] = {}
        self._within: dict[int, dict[Key, tuple[int, int]]] = {}
        self._moves: dict[tuple[int, CardSet, int, int], list[PlayTuple]] = {}
        self._fewest: dict[CardSet, int] = {}
        self._best: dict[tuple[int, CardSet, int], int] = {}
        self._others = [
            tuple(p for p in range(self.players) if p != q) for q in range(self.players)
        ]
        self._largest_play = max(rules.play_sizes)

    # -- moves ---------------------------------------------------------------------------

    def moves(self, state: DealState) -> list[PlayTuple]:
        """The mover's legal plays as (mask, size, strength), in search order; a pass is
        ``(0, 0, 0)``, listed last where it is allowed (never on a free lead).

        The list depends only on the mover, the hand and the play to beat, and those repeat
        across many states, so it is kept (do not change it).
        """
        hands, mover, size, strength, _, _ = state
        hand = hands[mover]
        key = (mover, hand, size, strength)
        known = self._moves.get(key)
        if known is not None:
            return known
        out = [play for play in state.legal_moves(self.plays[mover]) if play is not None]
        fewest = self.fewest_plays
        if size == 0:
            out.sort(key=lambda play: fewest(hand ^ play[0]))
        else:
            # Replies of one strength in the order of their masks (bombs, of another size, as
            # listed): the order the search has always taken them in.
            out.sort(
                key=lambda play: (
                    fewest(hand ^ play[0]),
                    -play[1],
                    play[2],
                    play[0] if play[1] == size else 0,
                )
            )
        for index, play in enumerate(out):
            if play[0] == hand:
                out.insert(0, out.pop(index))
                break
        if size:
            out.append((0, 0, 0))
        if len(self._moves) >= self.table_size:
            self._moves.clear()
        self._moves[key] = out
        return out

    def after(self, state: DealState, move: PlayTuple) -> Outcome:
        """The state after ``move`` (``(0, 0, 0)`` for a pass), or the mover's number when the
        move empties the hand (:meth:`DealState.after`)."""
        return state.after(move if move[0] else None, self.rules)

    def key_of(self, state: DealState) -> Key:
        """The state as a table key: its six fields (a plain tuple, cheaper to make than a
        state, where they change), the play to beat's strength lowered to the strongest play of
        its size, at or below it, that a player who may still reply holds (-1 for none); a
        single of a deuce or above is never lowered below the lowest deuce.

        Sound because two such states allow the same replies in this trick, move for move:
        the players who may reply are those who have not passed and did not make the play
        to beat (the trick ends when the turn comes back to them), their hands only shrink
        until somebody beats the play, and from then on the two states coincide.  A bomb
        answers only a deuce or above, which the floor at the lowest deuce keeps apart.

        >>> from handsolver.models.big2 import parse_rules
        >>> from handsolver.models.cards import mask_of, parse_cards
        >>> hands = (mask_of(parse_cards("3d 9c")), mask_of(parse_cards("5c 7h")))
        >>> search = GameSearch(hands, parse_rules("seed"))
        >>> nine = search.plays[0].strengths[mask_of(parse_cards("9c"))]
        >>> # Player 0 to beat player 1's single, the highest ace: the 9c is the strongest
        >>> # single at or below it that may reply (the 7h is player 1's own).
        >>> search.key_of(DealState(hands, 0, 1, DEUCE_KEY - 1, 1, 0))[3] == nine
        True
        """
        hands, mover, size, strength, by, passed = state
        if not size:
            return state
        floor = DEUCE_KEY if size == 1 and strength >= DEUCE_KEY else -1
        for player in range(self.players):
            if player == by or passed >> player & 1:
                continue
            listed = self.plays[player].replies.get(size)
            if listed is None:
                continue
            strengths, plays = listed
            hand = hands[player]
            for index in range(bisect_right(strengths, strength) - 1, -1, -1):
                if strengths[index] <= floor:
                    break
                mask = plays[index][0]
                if mask & hand == mask:
                    floor = strengths[index]
                    break
        if floor == strength:
            return state
        return (hands, mover, size, floor, by, passed)

    # -- bounds --------------------------------------------------------------------------

    def _best_reply_strength(self, hand: CardSet, player: int, size: int) -> int:
        """The strength of the strongest play of ``size`` inside ``hand``, or -1."""
        key = (player, hand, size)
        known = self._best.get(key)
        if known is not None:
            return known
        best = -1
        listed = self.plays[player].replies.get(size)
        if listed is not None:
            strengths, plays = listed
            for index in range(len(plays) - 1, -1, -1):
                mask = plays[index][0]
                if mask & hand == mask:
                    best = strengths[index]
                    break
        if len(self._best) >= self.table_size:
            self._best.clear()
        self._best[key] = best
        return best

    def sure_out(self, hands: tuple[CardSet, ...], leader: int) -> bool:
        """Whether ``leader``, leading, splits the hand into plays that nobody else can beat,
        except perhaps the last: then every other player must pass each of them in turn."""
        hand = hands[leader]
        mine = self.plays[leader]
        if hand in mine.kinds:
            return True
        others = self._others[leader]
        bombs_held = self.rules.bombs and any(
            any(b[0] & hands[p] == b[0] for b in self.plays[p].bombs) for p in others
        )
        best_reply = self._best_reply_strength
        safe = []
        covered = 0
        # Sizes come largest first (the order of the leads), and in each only the plays above
        # the others' best can be safe.
        for size, (strengths, plays) in mine.replies.items():
            best = -1
            for other in others:
                reply = best_reply(hands[other], other, size)
                if reply > best:
                    best = reply
            for index in range(bisect_right(strengths, best), len(plays)):
                mask = plays[index][0]
                if mask & hand == mask:
                    if not (bombs_held and size == 1 and strengths[index] >= DEUCE_KEY):
                        safe.append(mask)
                        covered |= mask
        # What no safe play covers must go out in the one last play.
        if not safe or (hand & ~covered).bit_count() > self._largest_play:
            return False
        return self._splits(hand, safe, 0, mine.kinds)

    def _splits(
        self, hand: CardSet, safe: list[CardSet], start: int, plays: dict[CardSet, PlayKind]
    ) -> bool:
        if hand in plays:
            return True
        for index in range(start, len(safe)):
            mask = safe[index]
            if mask & hand == mask:
                rest = hand ^ mask
                if not rest or self._splits(rest, safe, index + 1, plays):
                    return True
        return False

    # -- the search ----------------------------------------------------------------------

    def _count_node(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise OutOfBudget
        if self.nodes % _CHECK_EVERY == 0:
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise OutOfBudget
            if self.progress is not None:
                self.progress(self.nodes)

    def wins(self, state: DealState, target: int) -> bool:
        """Whether ``target`` can force going out first from ``state``.

        :raises OutOfBudget: when the budget runs out first.
        """
        entries = self._proven.setdefault(target, {})
        moves, sure_out, count = self.moves, self.sure_out, self._count_node
        step, rules = DealState.after, self.rules  # self.after, one call fewer an edge
        key_of = self.key_of
        limit = self.table_size

        def win(state: DealState) -> bool:
            key = key_of(state)
            known = entries.get(key)
            if known is not None:
                return known
            count()
            hands, mover, size = state.hands, state.to_move, state.size
            ours = mover == target
            if size == 0 and sure_out(hands, mover):
                entries[key] = ours
                return ours
            result = not ours
            for move in moves(state):
                child = step(state, move if move[0] else None, rules)
                value = child == target if isinstance(child, int) else win(child)
                if value == ours:
                    result = ours
                    break
            if len(entries) >= limit:
                entries.clear()
            entries[key] = result
            return result

        return win(state)

    def fewest_plays(self, hand: CardSet) -> int:
        """The fewest plays that empty ``hand`` (the fewest-plays engine, kept per hand)."""
        plays = self._fewest.get(hand)
        if plays is None:
            if len(self._fewest) >= self.table_size:
                self._fewest.clear()
            plays = self._fewest[hand] = optimal_five_sets(hand, False, self.rules)[0]
        return plays

    def least_plies(self, state: DealState, target: int) -> int:
        """A lower bound on the turns before ``target`` can go out: its hand needs at least
        the fewest plays that empty it, and where passes are not final every other player
        takes a turn between two of its plays."""
        mover = state.to_move
        plays = self.fewest_plays(state.hands[target])
        if self.rules.pass_final:
            return plays + (mover != target)
        players = self.players
        return (plays - 1) * players + 1 + (target - mover) % players

    def wins_within(self, state: DealState, target: int, plies: int) -> bool:
        """Whether ``target`` can force going out first within ``plies`` turns (passes count).

        The entries keep, per state, the most plies known too few and the fewest known enough.
        """
        entries = self._within.setdefault(target, {})
        moves, count, least = self.moves, self._count_node, self.least_plies
        step, rules = DealState.after, self.rules  # self.after, one call fewer an edge
        key_of = self.key_of
        limit = self.table_size
        # Where the target cannot force going out at all, it cannot within any bound either.
        proven = self._proven.get(target, {})
        # With two players, a position the other can force is lost for the target.
        rival = self._proven.get(1 - target, {}) if self.players == 2 else {}

        def within(state: DealState, depth: int) -> bool:
            if depth <= 0:
                return False
            key = key_of(state)
            too_few, enough = entries.get(key, (0, 1 << 30))
            if depth <= too_few:
                return False
            if depth >= enough:
                return True
            if least(state, target) > depth or proven.get(key) is False or rival.get(key) is True:
                return False
            count()
            ours = state.to_move == target
            result = not ours
            for move in moves(state):
                child = step(state, move if move[0] else None, rules)
                if isinstance(child, int):
                    value = child == target
                else:
                    value = within(child, depth - 1)
                if value == ours:
                    result = ours
                    break
            if len(entries) >= limit:
                entries.clear()
            if result:
                entries[key] = (too_few, min(enough, depth))
            else:
                entries[key] = (max(too_few, depth), enough)
            return result

        return within(state, plies)


def play_of(search: GameSearch, player: int, mask: CardSet) -> Play:
    """The play ``mask`` of ``player`` with its kind."""
    kind: PlayKind = search.plays[player].kinds[mask]
    return Play(mask, kind)
