"""The game search's table keys lower the play to beat (``GameSearch.key_of``): one search, its
table shared, asked about the same hands with many plays to beat in turn, against the
independent minimax for each; and the compiled search keys its table the same way."""

from __future__ import annotations

import random

import pytest

from handsolver.models.big2 import Play
from handsolver.models.big2_rules import Rules
from handsolver.models.cards import cards_of, mask_of, parse_cards
from handsolver.solver.big2.game.positions import Position, check_position, root_state
from handsolver.solver.big2.game.search import GameSearch
from handsolver.solver.big2.game.state import DEUCE_KEY
from tests.big2_minimax import minimax_answer, plays_in, random_position
from tests.solver.test_big2_game import RULE_CASES


def _cases(name: str, players: int, most: int, count: int) -> list[tuple[Position, list[Position]]]:
    """Random hands, each with the positions that follow it with a play to beat made by the
    player before the mover: every single, pair, triple and five-card play (up to a dozen,
    chosen at random) of some cards nobody holds, deuces among them."""
    rules = RULE_CASES[name]
    rng = random.Random(f"keys {name} {players}")
    out = []
    for _ in range(count):
        base = random_position(rng, players, most, rules)
        held = set().union(*(cards_of(hand) for hand in base.hands))
        free = [card for card in range(52) if card not in held]
        # Deuces (rank 0) in the spare cards so that a bomb's condition is crossed.
        spare = {card for card in free if card < 4} | set(rng.sample(free, 8))
        plays = list(plays_in(frozenset(spare), rules, (1, 2, 3, 5)))
        rng.shuffle(plays)
        by = (base.to_move - 1) % players
        tricks = [
            check_position(
                Position(base.hands, base.to_move, Play.from_cards(cards, rules), by), rules
            )
            for cards in plays[:12]
        ]
        out.append((base, tricks))
    return out


def _shared_answers(
    search: GameSearch, positions: list[Position], rules: Rules
) -> list[list[bool]]:
    return [
        [search.wins(root_state(position, rules), target) for target in range(len(position.hands))]
        for position in positions
    ]


@pytest.mark.parametrize("name", ["seed", "bombs", "pass-final", "wrap", "taiwan-final-bombs"])
@pytest.mark.parametrize("players", [2, 3])
def test_shared_table_matches_minimax(name: str, players: int) -> None:
    rules = RULE_CASES[name]
    for base, tricks in _cases(name, players, 8 - 2 * players, 6):
        search = GameSearch(base.hands, rules)
        answers = _shared_answers(search, tricks, rules)
        for position, answer in zip(tricks, answers, strict=True):
            assert answer == minimax_answer(position, rules)[0], position


def test_key_lowers_to_the_strongest_reply_held() -> None:
    rules = RULE_CASES["bombs"]
    hands = tuple(mask_of(parse_cards(text)) for text in ("7c", "jc 2d", "9h"))
    search = GameSearch(hands, rules)

    def key_strength(beat: int, by: int) -> int:
        return search.key_of((hands, (by + 1) % 3, 1, beat, by, 0))[3]

    seven, jack, nine = (
        search.plays[p].strengths[mask_of(parse_cards(card))]
        for p, card in ((0, "7c"), (1, "jc"), (2, "9h"))
    )
    ace = DEUCE_KEY - 1
    assert key_strength(ace, 0) == jack
    # The maker of the play to beat does not reply to it: the nine is the strongest left.
    assert key_strength(ace, 1) == nine
    assert key_strength(seven - 1, 2) == -1
    assert key_strength(seven, 2) == seven
    # A deuce or above is never lowered under the deuces: only those invite a bomb.
    assert key_strength(DEUCE_KEY + 3, 1) == DEUCE_KEY


def test_compiled_keys_like_python() -> None:
    pytest.importorskip("numba")
    from handsolver.solver.big2.game.compiled import CompiledSearch

    for name in ("seed", "bombs", "taiwan-final-bombs"):
        rules = RULE_CASES[name]
        for base, tricks in _cases(name, 3, 4, 2):
            python = GameSearch(base.hands, rules)
            compiled = CompiledSearch(base.hands, rules)
            python_answers = _shared_answers(python, tricks, rules)
            assert _shared_answers(compiled, tricks, rules) == python_answers
            assert compiled.nodes == python.nodes


@pytest.mark.parametrize("kernel", ["python", "compiled"])
def test_a_deuce_to_beat_stays_apart_for_bombs(kernel: str) -> None:
    """Only a deuce invites the bomb: the same hands with an ace to beat first and then a
    deuce, the table shared, give the two different verdicts minimax gives."""
    rules = RULE_CASES["bombs"]
    hands = (mask_of(parse_cards("4c 4d 4h 4s 3d 5c")), mask_of(parse_cards("6c")))
    if kernel == "compiled":
        pytest.importorskip("numba")
        from handsolver.solver.big2.game.compiled import CompiledSearch

        search: GameSearch = CompiledSearch(hands, rules)
    else:
        search = GameSearch(hands, rules)
    tricks = [
        check_position(Position(hands, 0, Play.from_cards(parse_cards(card), rules), 1), rules)
        for card in ("as", "2s")
    ]
    answers = _shared_answers(search, tricks, rules)
    assert answers == [minimax_answer(position, rules)[0] for position in tricks]
    assert answers == [[False, True], [True, False]]
