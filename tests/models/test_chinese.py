"""Chinese poker rules: the front key, the order rule, fouls, both scoring rules, royalties."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from handsolver.models.cards import InputError, parse_cards
from handsolver.models.chinese import (
    BACK,
    FRONT,
    MAX_ROYALTY,
    MIDDLE,
    NUM_SETTINGS,
    check_scoring,
    chinese_game,
    front_key,
    front_order,
    parse_royalties,
    setting_of,
)
from handsolver.models.poker import category_index, key_ranks, poker_key


def ref_front_shape(cards: tuple[int, ...]) -> tuple[int, ...]:
    """(5-card category, ranks by count then rank), written apart from the model."""
    counts = Counter(card // 4 for card in cards)
    ranks = sorted(counts, key=lambda r: (-counts[r], -r))
    ordered = tuple(r for r in ranks for _ in range(counts[r]))
    category = {1: 0, 2: 1, 3: 3}[max(counts.values())]
    return (category, *ordered)


def ref_is_foul(back: tuple[int, ...], middle: tuple[int, ...], front: tuple[int, ...]) -> bool:
    middle_key = poker_key(middle)
    if poker_key(back) < middle_key:
        return True
    middle_shape = (category_index(middle_key), *key_ranks(middle_key)[:3])
    return ref_front_shape(front) > middle_shape


def setting(text: str) -> tuple[tuple[int, ...], ...]:
    front, middle, back = (parse_cards(part) for part in text.split("|"))
    return setting_of(front, middle, back)


@pytest.mark.parametrize(
    ("text", "fouled"),
    [
        ("2c 2d 2h | Kc Kd 9h 8s 7s | Ac Ad Ah 5c 5d", True),  # front trips over a middle pair
        ("Kh Ks 9c | Kc Kd 9h 3s 2s | Ac Ad Ah 5c 5d", False),  # front equal to the middle's top
        ("Kh Ks 9c | Kc Kd 8h 7s 6s | Ac Ad Ah 5c 5d", True),  # same pair, higher front kicker
        ("Ah Kh Qc | As Ks Qd 3s 2s | 7c 7d 7h 5c 5d", False),  # equal high cards
        ("Ah Kh Qc | As Ks Jd 9s 8s | 7c 7d 7h 5c 5d", True),  # front's third card is higher
        ("2c 3d 4h | 7c 7d 7h 5c 5d | Kc Kd 9h 8s 6s", True),  # middle over back
        ("2c 3d 4h | Kc Kd 9h 8s 6s | Ac 2d 3h 4s 5s", False),  # the wheel is still a straight
        ("Qc Qd Qh | 9c 9d 9h 5c 5d | Kc Kd Kh Ks 6s", False),  # trips under a full house
        ("Jc Jd 2h | Qc Qd 9h 8s 6s | Ac Ad Ah 5c 5s", False),
    ],
)
def test_foul_detection_on_hand_picked_settings(text: str, fouled: bool) -> None:
    parts = setting(text)
    assert chinese_game().is_foul(parts) is fouled
    assert ref_is_foul(*parts) is fouled


def test_front_key_orders_every_three_card_rank_pattern_like_the_reference() -> None:
    fronts = [tuple(4 * r + i for i, r in enumerate(ranks)) for ranks in _rank_triples()]
    by_key = sorted(fronts, key=front_key)
    assert [ref_front_shape(f) for f in by_key] == sorted(ref_front_shape(f) for f in fronts)
    for a, b in zip(by_key, by_key[1:], strict=False):
        assert (front_key(a) == front_key(b)) == (ref_front_shape(a) == ref_front_shape(b))


def _rank_triples() -> list[tuple[int, int, int]]:
    return [(a, b, c) for a in range(13) for b in range(a, 13) for c in range(b, 13)]


def test_front_order_agrees_with_the_category_then_ranks_rule() -> None:
    middles = [(key, (category_index(key), *key_ranks(key)[:3])) for key in range(0, 7462, 3)]
    for ranks in _rank_triples():
        front = tuple(4 * r + i for i, r in enumerate(ranks))
        order, shape = front_order(front), ref_front_shape(front)
        for key, middle_shape in middles:
            assert (key >= order) == (shape <= middle_shape), (front, key)


def ref_settings(hand: list[int]) -> set[tuple[tuple[int, ...], ...]]:
    """Every way to set ``hand`` as (back, middle, front), each row sorted, written apart from
    the engine."""
    found = set()
    for back in combinations(hand, 5):
        rest = [c for c in hand if c not in back]
        for middle in combinations(rest, 5):
            front = tuple(c for c in rest if c not in middle)
            found.add((back, middle, front))
    return found


def _rows_sorted(s: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sorted(row)) for row in s)


@pytest.mark.parametrize("seed", [3, 8])
def test_a_hand_has_72072_settings_and_legal_ones_match_the_reference(seed: int) -> None:
    """The settings themselves, not only their number: a fouled setting swapped for a legal one
    (or a setting of other cards) is caught."""
    game = chinese_game()
    rng = random.Random(seed)
    hand = sorted(rng.sample(range(52), 13))
    every = ref_settings(hand)
    settings = game.settings(hand)
    assert len(settings) == NUM_SETTINGS == len(every)
    assert {_rows_sorted(s) for s in settings} == every
    legal = game.legal_settings(hand)
    kept = set(legal)
    assert len(kept) == len(legal)
    assert {_rows_sorted(s) for s in legal} == {s for s in every if not ref_is_foul(*s)}
    # In the order of settings(), as documented.
    assert legal == tuple(s for s in settings if s in kept)


def test_scoring_examples_for_both_rules() -> None:
    strong = setting("Ah Ad Kc | 9c 9d 9h 5c 5d | 2s 3s 4s 5s 6s")
    medium = setting("Kh Qd 2c | 8c 8d 7h 7c 3d | Ac As Ks Kd Qs")
    weak = setting("7d 6h 4c | Jc Td 8h 6c 3c | Qh Jh Th 9s 2h")
    fouled = setting("Qc Jd Tc | 2d 3h 4d 8s 9d | Js Th 6d 4h 2c")
    six, four = chinese_game("1-6"), chinese_game("2-4")
    assert six.outcomes(strong, medium) == (1, 1, 1)
    assert six.score(strong, medium) == 6 and six.score(medium, strong) == -6
    assert four.score(strong, medium) == 4 and four.score(medium, strong) == -4
    # medium vs weak: back won, middle won, front won -> a scoop too
    assert six.score(medium, weak) == 6
    mixed_a = setting("Ah Ad Kc | 2c 2d 3h 3c 4d | 9s 9h 9d 5s 5h")
    mixed_b = setting("Qh Qd 2c | Kc Kd 7h 7c 3d | As Ks Qs Js 9s")
    assert six.outcomes(mixed_a, mixed_b) == (1, -1, 1)
    assert six.score(mixed_a, mixed_b) == 1 and four.score(mixed_a, mixed_b) == 2
    assert six.score(mixed_b, mixed_a) == -1 and four.score(mixed_b, mixed_a) == -2
    assert six.is_foul(fouled)
    assert six.score(fouled, weak) == -6 and four.score(fouled, weak) == -4
    assert six.score(weak, fouled) == 6
    assert six.score(fouled, fouled) == 0 and four.score(fouled, fouled) == 0


def test_a_tied_row_scores_nothing() -> None:
    a = setting("Ah Kd 2c | 9c 9d 8h 5c 4d | Ac Ad As 7s 6s")
    b = setting("As Kc 2d | 9h 9s 8c 5d 4c | Kh Kd Ks 7h 6h")
    assert chinese_game().outcomes(a, b) == (1, 0, 0)
    assert chinese_game().score(a, b) == 1 and chinese_game("2-4").score(a, b) == 2


def test_unknown_scoring_rule_is_named() -> None:
    with pytest.raises(InputError, match="'3-3'"):
        check_scoring("3-3")
    with pytest.raises(InputError, match="'1-5'"):
        chinese_game("1-5")


def test_royalties_by_category_and_rank() -> None:
    table = parse_royalties(
        '{"back": {"straight flush": 5, "straight flush A": 10}, '
        '"middle": {"full house": 2}, "front": {"pair": 1, "pair A": 9, "three of a kind": 20}}'
    )
    assert table.of_row(BACK, parse_cards("Ts Js Qs Ks As")) == 10
    assert table.of_row(BACK, parse_cards("9s Ts Js Qs Ks")) == 5
    assert table.of_row(BACK, parse_cards("Ac 2c 3c 4c 5c")) == 5  # the wheel: five high
    assert table.of_row(MIDDLE, parse_cards("2c 2d 2h 3c 3d")) == 2
    assert table.of_row(BACK, parse_cards("2c 2d 2h 3c 3d")) == 0
    assert table.of_row(FRONT, parse_cards("Ac Ad 2h")) == 9
    assert table.of_row(FRONT, parse_cards("3c 3d 2h")) == 1
    assert table.of_row(FRONT, parse_cards("3c 3d 3h")) == 20


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1]", "expected an object"),
        ("{", "not JSON"),
        ('{"top": {}}', "unknown row 'top'"),
        ('{"front": {"flush": 2}}', "unknown front hand 'flush'"),
        ('{"back": {"pair Z": 2}}', "unknown back hand 'pair Z'"),
        ('{"back": {"pair": 1.5}}', "must be an integer"),
        ('{"back": []}', "must map hands"),
        ('{"back": {"pair": true}}', "must be an integer"),
        ('{"back": {"pair": NaN}}', "must be an integer"),
        ('{"back": {"pair": 1e20}}', "must be an integer"),
        # Issue 22: never a silent 64-bit overflow, never an internal error.
        ('{"back": {"pair": 6000000000000000000}}', "'pair' is out of range"),
        ('{"back": {"pair": 100000000000000000000}}', "out of range"),
        ('{"back": {"pair": -100000000000000000000}}', "out of range"),
        ('{"back": {"pair": 1000001}}', "out of range"),
        ('{"back": {"pair": ' + "9" * 5000 + "}}", "out of range"),
        ('{"back": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ],
)
def test_bad_royalty_tables_are_named(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_royalties(text)


def test_royalties_at_the_bound_and_a_byte_order_mark_are_read() -> None:
    table = parse_royalties(
        '\ufeff{"back": {"pair": 1000000}, "middle": {"pair": -1000000}, "front": {"pair": -0}}'
    )
    assert max(table.back) == MAX_ROYALTY and min(table.middle) == -MAX_ROYALTY
    assert set(table.front) == {0}


def test_front_order_never_exceeds_an_equal_middle() -> None:
    # For every front, some middle with the same top ranks is allowed where one exists.
    for ranks in _rank_triples():
        front = tuple(4 * r + i for i, r in enumerate(ranks))
        assert 0 <= front_order(front) <= 7462
    assert sum(1 for _ in combinations(range(13), 3)) == 286
