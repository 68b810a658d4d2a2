"""The switches of play (two pair alone, four of a kind with no kicker, flushes by the highest
card, the unbeatable straight flush, the deal opened by the lowest card alone) in the game
search, Python and compiled, against the independent minimax of :mod:`tests.big2_minimax`: small
positions whose verdict each switch turns round."""

from __future__ import annotations

import pytest

from handsolver.models.big2 import Play, make_rules
from handsolver.models.big2_rules import Rules
from handsolver.models.cards import mask_of, parse_cards
from handsolver.solver.big2.game.positions import Position, solve_position
from tests.big2_minimax import minimax_answer


def _position(
    rules: Rules, hands: tuple[str, ...], beat: str = "", start: bool = False
) -> Position:
    masks = tuple(mask_of(parse_cards(text)) for text in hands)
    if not beat:
        return Position(masks, 0, start=start)
    return Position(masks, 0, Play.from_text(beat, rules), 1)


# (switch, the position's hands (player 0 to move), the play to beat (by player 1) or "", the
# start of a deal, whether player 0 can force going out first with the switch on, and off).
CASES = [
    # Two pair as one play: out at once; as two pairs, the fives go out over the threes.
    ({"two_pair_alone": True}, ("3c 3d 4c 4d", "5c 5d"), "", False, True, False),
    # The ace of spades tops the ace of hearts: by poker order AKQJ9 beats A8654.
    ({"flush_order": "high-card"}, ("4s 5s 6s 8s As", "3d"), "9h Jh Qh Kh Ah", False, True, False),
    # A straight flush stands: the royal flush cannot go on it.
    (
        {"unbeatable_straight_flush": True},
        ("Ts Js Qs Ks As", "3d"),
        "3c 4c 5c 6c 7c",
        False,
        False,
        True,
    ),
    # Opening alone, the 3d goes first and the 2s goes out on it.
    ({"open_alone": True}, ("3d 3c", "2s"), "", True, False, True),
    # Four of a kind + 1 goes on a full house; with no kicker it is no play of five cards.
    ({"quads": "no-kicker"}, ("7c 7d 7h 7s 9s", "5d"), "3c 3d 3h 4c 4d", False, False, True),
]


@pytest.mark.parametrize(("switch", "hands", "beat", "start", "on", "off"), CASES)
@pytest.mark.parametrize("kernel", ["python", "compiled"])
def test_each_switch_turns_a_verdict(
    switch: dict[str, object],
    hands: tuple[str, ...],
    beat: str,
    start: bool,
    on: bool,
    off: bool,
    kernel: str,
) -> None:
    for rules, wins in ((make_rules("seed", **switch), on), (make_rules("seed"), off)):
        position = _position(rules, hands, beat, start)
        result = solve_position(position, rules, kernel=kernel)
        forced, verdicts = minimax_answer(position, rules)
        assert list(result.forced_win) == forced
        assert len(result.moves) == len(verdicts)
        assert result.forced_win[0] is wins, (switch, rules.name)
