"""Boards played out whole from a deck, by a named player: the opponents sampled for the
fantasyland objective (what one opponent may end with) and the study's normal hands.

Three players may play them, named as ``ofc match --players`` names them:

- ``rollout`` (the default): the rollout player of :mod:`handsolver.solver.ofc.rollout`, each
  street placed by its judgement of the board it makes, which prices the fouls in the making,
  the last street by its best action for its owner's royalties and fantasyland
  (:func:`~handsolver.solver.ofc.rollout.finished`).  It fouls a few boards in a hundred.
- ``policy``: the policy of :mod:`handsolver.solver.ofc.play`, every street but the last by
  :func:`~handsolver.solver.ofc.play.policy_score`, the last by its best action for its owner
  (:func:`~handsolver.solver.ofc.play.played_out`).  It fouls about four boards in ten.
- ``player``: the player of ``ofc play`` (:mod:`handsolver.solver.ofc.player`, its defaults),
  heads-up as at a table: a second board, dealt from the same deck and played by the rollout
  player, takes its street before each of the player's, so the player's playouts have an
  opponent to score against; only the player's board is kept.  A board takes seconds (some
  thousands of times the rollout player), so it suits checks over hundreds of boards.

A fouled board pays my royalties and a scoop.

Each sampled board is dealt from the cards not in my hand, a deck shuffled by a generator
seeded with ``seed`` (the same hand, seed and player give the same boards), street by street as
the rules' variant deals a normal hand (Pineapple: 5 cards, then four times 3; classic: 5, then
eight single cards).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from handsolver.models.cards import Card, InputError, cards_of
from handsolver.models.ofc import OfcRules
from handsolver.models.split import Setting

MAX_SAMPLED_BOARDS = 10_000
BOARD_PLAYERS = ("rollout", "policy", "player")
"""The players that may play boards out whole, the default first."""
BoardPlayer = Callable[[list[Card]], Setting]
"""A whole board (bottom, middle, top) played from the top of a deck (its cards taken off, and
for ``player`` its rollout opponent's as well)."""


def players_named() -> str:
    """The board players as a sentence names them.

    >>> players_named()
    'rollout, policy or player'
    """
    return f"{', '.join(BOARD_PLAYERS[:-1])} or {BOARD_PLAYERS[-1]}"


def board_player(
    player: str, rules: OfcRules, fantasy_value: Fraction = Fraction(0)
) -> BoardPlayer:
    """The function that plays a board out whole from a deck by ``player`` (one of
    :data:`BOARD_PLAYERS`), valuing its own fantasyland at ``fantasy_value``; one function
    serves many boards (its row judgements are cached).

    >>> from handsolver.models.cards import DECK
    >>> board = board_player("rollout", OfcRules())(list(DECK))
    >>> sorted(map(len, board)), len({card for row in board for card in row} & set(DECK[-17:]))
    ([3, 5, 5], 13)

    :raises InputError: an unknown player.
    """
    from handsolver.solver.ofc.play import Scorer, played_out

    scorer = Scorer(rules, fantasy_value)
    if player == "policy":
        return lambda deck: played_out(((), (), ()), deck, scorer)
    if player == "rollout":
        from handsolver.solver.ofc.rollout import Judge, finished

        judge = Judge(scorer, float(fantasy_value))

        def rolled_out(deck: list[Card]) -> Setting:
            return tuple(cards_of(mask) for mask in finished(judge, (0, 0, 0), deck))

        return rolled_out
    if player == "player":
        return _searched_board(rules, fantasy_value)
    raise InputError(f"unknown board player {player!r}; use {players_named()}")


def _searched_board(rules: OfcRules, fantasy_value: Fraction) -> BoardPlayer:
    """The ``player`` board player (see the module)."""
    from handsolver.models.cards import mask_of
    from handsolver.models.ofc import HAND_SIZE
    from handsolver.solver.ofc.match_players import NewPlayer, Rollout
    from handsolver.solver.ofc.play import Board, Position, after

    streets = rules.streets
    mine_by, theirs_by = NewPlayer(rules, fantasy_value), Rollout(rules, Fraction(0))

    def searched(deck: list[Card]) -> Setting:
        seed = mask_of(deck[-HAND_SIZE:]) % (1 << 31)  # the deck decides the player's samples
        mine: Board = ((), (), ())
        theirs: Board = ((), (), ())
        discards: list[Card] = []
        for street in range(streets.count):
            size = streets.dealt_on(streets.before(street))
            their_cards = tuple(deck.pop() for _ in range(size))
            (their_action,) = theirs_by.choose(
                [Position(theirs, their_cards, (mine,), (), streets)], [0]
            )
            theirs = after(theirs, their_action)
            my_cards = tuple(deck.pop() for _ in range(size))
            position = Position(mine, my_cards, (theirs,), tuple(discards), streets)
            (action,) = mine_by.choose([position], [seed + street])
            mine = after(mine, action)
            if action.discard is not None:
                discards.append(action.discard)
        return tuple(tuple(sorted(row)) for row in mine)

    return searched


def sampled_boards(
    hand: Sequence[Card],
    count: int,
    seed: int | str,
    rules: OfcRules,
    fantasy_value: Fraction = Fraction(0),
    watch: Callable[[Iterable[int], int], Iterable[int]] | None = None,
    player: str = BOARD_PLAYERS[0],
) -> tuple[Setting, ...]:
    """``count`` complete opponent boards (bottom, middle, top) dealt from the cards not in
    ``hand`` and played by ``player`` (see the module), who values earning fantasyland at
    ``fantasy_value``.  ``watch`` wraps the board numbers with their count (the command shows
    progress with it).

    >>> from handsolver.models.cards import parse_cards
    >>> hand = parse_cards("Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c")
    >>> boards = sampled_boards(hand, 3, seed=1, rules=OfcRules())
    >>> [sorted(map(len, board)) for board in boards]
    [[3, 5, 5], [3, 5, 5], [3, 5, 5]]
    >>> any(card in hand for board in boards for row in board for card in row)
    False

    :raises InputError: a count out of range, an unknown player.
    """
    if not 1 <= count <= MAX_SAMPLED_BOARDS:
        raise InputError(f"sampled opponents must be 1 to {MAX_SAMPLED_BOARDS:,}, got {count}")
    play = board_player(player, rules, fantasy_value)
    held = set(hand)
    unseen = [card for card in rules.deck if card not in held]
    rng = random.Random(f"ofc-opponents-{seed}")
    boards = []
    numbers: Iterable[int] = range(count)
    for _ in numbers if watch is None else watch(numbers, count):
        deck = unseen[:]
        rng.shuffle(deck)
        boards.append(play(deck))
    return tuple(boards)
