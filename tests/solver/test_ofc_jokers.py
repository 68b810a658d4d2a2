"""The joker deck in the engines: the fantasyland search against every setting (each row's
jokers by substitution, written apart), the fast scorer, ``ofc play`` and the commands."""

from __future__ import annotations

import heapq
import json
import random
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations

import pytest
from typer.testing import CliRunner

from handsolver.models.cards import mask_of, parse_cards
from handsolver.models.ofc import OfcRules, board_keys, board_of, board_of_text, score
from handsolver.solver.cli import app
from handsolver.solver.ofc import Objective, setting_objective, solve_fantasyland
from handsolver.solver.ofc.play import Position, Scorer, after, legal_actions, play
from tests import ofc_reference as ref

X1, X2 = 52, 53
TOP_K = 4
JOKERS = OfcRules(jokers=2)


Value = tuple[int, tuple[int, ...]]
_SHAPES: dict[tuple[tuple[int, ...], bool], tuple[Value, tuple[int, int]]] = {}


def valued(cards: tuple[int, ...]) -> tuple[Value, tuple[int, int]]:
    """The reference's value of a row of real cards, and its royalties as a bottom and a middle
    (a top: as a top).  The reference reads a row's ranks and whether its cards share a suit,
    nothing else, so it values each such shape once (the substitutions repeat them often)."""
    key = (tuple(sorted(card // 4 for card in cards)), len({card % 4 for card in cards}) == 1)
    known = _SHAPES.get(key)
    if known is None:
        if len(cards) == 3:
            known = ref.top_value(cards), (ref.top_royalty(cards),) * 2
        else:
            known = ref.five_value(cards), (ref.bottom_royalty(cards), ref.middle_royalty(cards))
        _SHAPES[key] = known
    return known


class Row:
    """One value a row's jokers may give it: the reference's value, its cards as the hand
    counts them, its royalties as a bottom and a middle (a top: as a top)."""

    def __init__(self, cards: tuple[int, ...]) -> None:
        self.cards = cards
        self.value, self.royalty = valued(cards)
        self.spelled = ref.spelled(self.value)


@cache
def rows(cards: tuple[int, ...]) -> list[Row]:
    """Each value the row may take once, strongest first (jokers by substitution)."""
    found: dict[object, tuple[int, ...]] = {}
    for real in ref.substitutions(cards):
        found.setdefault(valued(real)[0], real)
    return [Row(found[v]) for v in sorted(found, reverse=True)]


def chosen(top: tuple[int, ...], middle: tuple[int, ...], bottom: tuple[int, ...]):
    """The strongest bottom, then middle, then top that keep the order, or None."""
    for b in rows(bottom):
        for m in rows(middle):
            if m.value > b.value:
                continue
            for t in rows(top):
                if m.spelled[: len(t.spelled)] >= t.spelled:
                    return t, m, b
    return None


def best_objectives(
    cards: Sequence[int], stay: Fraction, theirs: Sequence[ref.Board] = ()
) -> list[Fraction]:
    """The k largest objectives over every way to keep 13 cards and set them, not fouled."""
    resolved = [ref.resolved(board) for board in theirs]
    found: list[Fraction] = []
    for kept in combinations(sorted(cards), 13):
        for bottom in combinations(kept, 5):
            rest = [c for c in kept if c not in bottom]
            for middle in combinations(rest, 5):
                top = tuple(c for c in rest if c not in middle)
                choice = chosen(top, middle, bottom)
                if choice is None:
                    continue
                t, m, b = choice
                value = Fraction(t.royalty[0] + m.royalty[1] + b.royalty[0])
                if resolved:
                    mine = (t.cards, m.cards, b.cards)
                    value = Fraction(sum(ref.score(mine, board) for board, _ in resolved))
                stays = t.value[0] == ref.TRIPS or m.value[0] >= ref.FULL or b.value[0] >= ref.QUADS
                found.append(value + stay * stays)
    return heapq.nlargest(TOP_K, found)


def objectives(cards: Sequence[int], objective: Objective) -> list[Fraction]:
    answer = solve_fantasyland(cards, JOKERS, objective, top=TOP_K)
    assert answer.proven
    for entry in answer.settings:  # each listed setting is what it claims, by the rules
        assert setting_objective(entry.setting, JOKERS, objective) == entry.objective
    return [entry.objective for entry in answer.settings]


def hand_with_jokers(seed: int, jokers: int, size: int = 13) -> list[int]:
    rng = random.Random(seed)
    ranks = rng.sample(range(13), 7)  # few ranks: pairs and trips that jokers complete
    return (
        rng.sample([4 * r + s for r in ranks for s in range(4)], size - jokers)
        + [
            X1,
            X2,
        ][:jokers]
    )


@pytest.mark.parametrize(
    ("seed", "jokers", "stay"),
    [(1, 1, 0), (2, 1, 12), (3, 2, 0), pytest.param(4, 2, 25, marks=pytest.mark.slow)],
)
def test_13_cards_with_jokers_every_setting(seed: int, jokers: int, stay: int) -> None:
    hand = hand_with_jokers(seed, jokers)
    expected = best_objectives(hand, Fraction(stay))
    assert objectives(hand, Objective(Fraction(stay))) == expected


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "jokers"), [(5, 1), (6, 2)])
def test_14_cards_with_jokers_every_way_to_choose_and_set(seed: int, jokers: int) -> None:
    hand = hand_with_jokers(seed, jokers, size=14)
    assert objectives(hand, Objective(Fraction(15))) == best_objectives(hand, Fraction(15))


@pytest.mark.slow  # CI only (python -m pytest -m slow): one of the slowest checks
def test_13_cards_with_a_joker_against_a_board_with_one() -> None:
    rng = random.Random(8)
    while True:  # deal until their board, a joker on its bottom, is not fouled
        deck = rng.sample(range(52), 24)
        hand = [*deck[:12], X1]
        theirs = sorted(deck[12:], key=lambda c: (c // 4, c % 4))
        theirs.insert(9, X2)
        board = (tuple(theirs[:3]), tuple(theirs[3:8]), tuple(theirs[8:]))
        if not ref.resolved(board)[1]:
            break
    objective = Objective(Fraction(5), (board_of(*board),))
    assert objectives(hand, objective) == best_objectives(hand, Fraction(5), [board])


def test_the_scorer_and_the_rules_agree_on_boards_with_jokers() -> None:
    rng = random.Random(3)
    scorer = Scorer(JOKERS, Fraction(0))
    deck = list(JOKERS.deck)
    for _ in range(400):
        cards = rng.sample(deck, 13)
        cards.sort(key=lambda c: (c // 4, c % 4))
        board = (tuple(cards[8:]), tuple(cards[3:8]), tuple(cards[:3]))  # bottom first
        fast = scorer.final_masks([mask_of(row) for row in board])
        assert fast == board_keys(board, JOKERS.royalties)


def test_two_streets_left_with_a_joker_unseen_against_every_deal() -> None:
    """Exact values: every 3 cards still unseen in the 54-card deck, each played by its best
    action (most cards dead, so that the check below runs fast)."""
    top, middle, bottom = (
        parse_cards(row, jokers=True) for row in ("X1 2h", "Jc Jd 9s", "Ac Ad Kc Kd")
    )
    mine = (bottom, middle, top)
    theirs = board_of_text("Qc Qd 2d | 9h 9c 9d 5c 2s | Ah Kh 8h 6h 3h")
    dealt = parse_cards("7c 7d 3s")
    unseen_kept = set(parse_cards("As Ks Qh Jh Js Ts Th 9s 4d 4s", jokers=True)) | {X2}
    shown = {*top, *middle, *bottom, *dealt, *(card for row in theirs for card in row)}
    dead = tuple(card for card in range(52) if card not in shown | unseen_kept)
    position = Position(mine, dealt, (theirs,), dead=dead)
    answer = play(position, JOKERS)
    assert answer.exact and set(position.unseen(JOKERS.deck)) == unseen_kept - shown
    deals = list(combinations(sorted(unseen_kept - shown), 3))
    for entry in answer.actions[:2]:
        board = after(mine, entry.action)
        total = sum(
            max(
                score(after(board, action), theirs, JOKERS.royalties)
                for action in legal_actions(board, deal)
            )
            for deal in deals
        )
        assert entry.value == Fraction(total, len(deals))


runner = CliRunner()


def run(*args: str) -> object:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_fantasyland_command_with_jokers() -> None:
    payload = run(
        "ofc",
        "fantasyland",
        "--jokers",
        "Ac Ad X1 Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c",
        "--top",
        "1",
        "--json",
    )
    best = payload["settings"][0]
    assert "X1" in best["top"] + best["middle"] + best["bottom"] + best["discards"]
    assert best["royalties"]["total"] == 36


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ofc", "fantasyland", "Ac Ad X1 Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c"], "--jokers"),
        (
            ["ofc", "fantasyland", "--jokers", "Ac X1 X1 Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c"],
            "'X1' is given twice",
        ),
        (["ofc", "fantasyland", "--jokers", "Ac X1 X2 X3 Kd Qs Js Ts 9s 8s 7c 7d 3h 2c"], "'X3'"),
        (["poker", "showdown", "Ah Kh X1 Qd 2c", "As Ks Qs Js 3d"], "'X1'"),
    ],
)
def test_bad_jokers_are_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], result.output


def test_match_study_and_royalties_deal_or_state_the_jokers() -> None:
    match = run("ofc", "match", "--jokers", "--players", "random,policy", "--deals", "2", "--json")
    assert match["jokers"] == 2 and [p["hands"] for p in match["players"]] == [4, 4]
    study = run("ofc", "study", "--jokers", "--hands", "12", "--size-hands", "2",
                "--normal-hands", "3", "--json")  # fmt: skip
    assert study["rules"]["jokers"] == 2
    assert run("ofc", "royalties", "--jokers", "--json")["jokers"] == 2
    result = runner.invoke(app, ["ofc", "royalties", "--jokers"])
    assert "deck: 54 cards with two jokers" in result.output


def test_a_match_with_jokers_deals_them() -> None:
    from handsolver.solver.ofc.match import dealt_streets

    streets = dealt_streets(1, 0, 3, cards=JOKERS.deck)
    dealt = [card for seat in streets for street in seat for card in street]
    assert len(set(dealt)) == len(dealt) == 51
    deals = [dealt_streets(1, d, 3, cards=JOKERS.deck) for d in range(5)]
    assert any({X1, X2} & {c for seat in deal for s in seat for c in s} for deal in deals)


def test_play_command_with_a_joker_dealt() -> None:
    board, theirs = "Kc | Jc Jd 7s | Ac Ad Tc Ts 3c", "Qh Qd 4s | 9h 9c 9d 5c 2s | Ah Kh 8h 6h 4h"
    payload = run("ofc", "play", "--jokers", "2c X2 7c", "--board", board, "--vs", theirs,
                  "--dead", "5d 6s", "--top", "1", "--json")  # fmt: skip
    assert payload["exact"] and payload["jokers"] == 2 and payload["dealt"][1] == "X2"
    assert payload["deals"] == 2925  # 3 of the 27 unseen cards, the other joker among them
    assert "X2" in payload["actions"][0]["top"]
