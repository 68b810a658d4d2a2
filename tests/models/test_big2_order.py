"""The beating order of :mod:`handsolver.models.big2_order` against the independent one of
:mod:`tests.big2_minimax`, and the rule data every JSON answer carries."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from handsolver.models.big2 import PROFILES, Play, legal_plays, make_rules, parse_rules
from handsolver.models.big2_order import beats, legal_replies, lowest_card
from handsolver.models.cards import Notation, card_name, cards_of, mask_of, parse_cards
from tests.big2_minimax import beats as independent_beats
from tests.solver.test_big2_game import RULE_CASES


@pytest.mark.parametrize("name", RULE_CASES)
def test_beats_matches_independent_order(name: str) -> None:
    rules = RULE_CASES[name]
    rng = random.Random(name)
    checked = 0
    for _ in range(30):
        # Cards from a few ranks, so that pairs, straights and full houses are common.
        low = rng.randrange(13)
        deck = [((low + i) % 13) * 4 + suit for i in range(7) for suit in range(4)]
        plays = legal_plays(mask_of(rng.sample(deck, 12)), rules)
        for play in rng.sample(plays, min(40, len(plays))):
            for target in rng.sample(plays, min(10, len(plays))):
                if play.mask & target.mask:
                    continue
                mine, theirs = frozenset(cards_of(play.mask)), frozenset(cards_of(target.mask))
                assert beats(play, target, rules) == independent_beats(mine, theirs, rules)
                checked += 1
    assert checked > 1000


def test_replies_are_the_beating_plays() -> None:
    hand = mask_of(parse_cards("3c 3d 4h 5s 6c 7d 2s"))
    target = Play.from_text("4c 5d 6h 7s 8c")
    assert [p.mask for p in legal_replies(hand, target)] == []
    assert [p.mask for p in legal_replies(hand, Play.from_text("Ad"))] == [
        mask_of(parse_cards("2s"))
    ]


@pytest.mark.parametrize("name", RULE_CASES)
def test_replies_are_every_play_that_beats_the_target(name: str) -> None:
    """:func:`legal_replies` (plays of the target's size and bombs only, the target weighed
    once) against every legal play of the hand kept where :func:`beats` says, in the same
    order; single deuces and hands of four of a rank often enough that bombs answer."""
    rules = RULE_CASES[name]
    rng = random.Random(name)
    deuces = [card for card in range(52) if card >> 2 == 0]
    replies = 0
    for round_ in range(60):
        hand = mask_of(rng.sample(range(52), rng.randint(5, 13)))
        if round_ % 2:  # four of a rank, a bomb with a fifth card where the rules have bombs
            hand |= 15 << 4 * rng.randrange(1, 13)
        rest = [card for card in range(52) if not hand >> card & 1]
        targets = legal_plays(mask_of(rng.sample(rest, min(len(rest), 13))), rules)
        targets += [Play.from_text(card_name(card)) for card in deuces if card in rest]
        for target in rng.sample(targets, min(8, len(targets))):
            expected = [p for p in legal_plays(hand, rules) if beats(p, target, rules)]
            assert legal_replies(hand, target, rules) == expected
            replies += len(expected)
    assert replies > 500


@pytest.mark.parametrize(
    ("name", "lowest", "highest"),
    [
        ("seed", "A2345", "TJQKA"),
        ("hk", "A2345", "TJQKA"),
        ("taiwan", "A2345", "23456"),
        ("pusoy-dos", "34567", "JQKA2"),
        ("western", "34567", "TJQKA"),
    ],
)
def test_profiles_list_straights_low_to_high(name: str, lowest: str, highest: str) -> None:
    straights = PROFILES[name].to_json()["straights"]
    assert "".join(straights[0]) == lowest and "".join(straights[-1]) == highest


def test_rules_json_carries_the_game_rules() -> None:
    data = make_rules("taiwan", pass_final=True, bombs=True).to_json(Notation(ten="0"))
    assert data["rank_order"] == list("34567890JQKA2")
    assert data["suit_order"] == "shdc"
    assert data["five_card_order"] == [
        "straight",
        "full house",
        "four of a kind + 1",
        "straight flush",
    ]
    assert data["flush_order"] == "rank"
    assert data["pass_final"] is True
    assert data["bombs"] == ["four of a kind + 1", "straight flush"]
    assert PROFILES["seed"].to_json()["bombs"] == []
    assert PROFILES["seed"].to_json()["pass_final"] is False


def test_lowest_card_follows_the_suit_order() -> None:
    cards = parse_cards("3c 3d 4s")
    assert lowest_card(cards) == parse_cards("3d")[0]
    assert lowest_card(cards, make_rules("taiwan")) == parse_cards("3c")[0]


def test_online_rules_json_and_names_round_trip() -> None:
    online = PROFILES["online"]
    data = online.to_json()
    assert data["four_card_order"] == ["two pair", "four of a kind"]
    assert data["five_card_order"] == ["straight", "flush", "full house", "straight flush"]
    assert (data["two_pair_alone"], data["quads"], data["flush_order"]) == (
        True,
        "no-kicker",
        "high-card",
    )
    assert data["unbeatable_straight_flush"] is True and data["open_alone"] is True
    assert make_rules("online", bombs=True).to_json()["bombs"] == ["straight flush"]
    changed = make_rules(
        "seed",
        two_pair_alone=True,
        quads="no-kicker",
        flush_order="high-card",
        unbeatable_straight_flush=True,
        open_alone=True,
    )
    assert changed.name == (
        "seed --two-pair-alone --quads no-kicker --flush-order high-card "
        "--unbeatable-straight-flush --open-alone"
    )
    for rules in (changed, online, make_rules("online", open_alone=False, two_pair=True)):
        assert parse_rules(rules.name) == rules
    assert make_rules("online", open_alone=False).name == "online --no-open-alone"


@pytest.mark.parametrize(
    "config",
    ["seed", "online", "hk --flush-order high-card", "western", "seed --unbeatable-straight-flush"],
)
def test_flushes_and_straight_flushes_match_independent_order(config: str) -> None:
    """Every five cards of spades (flushes and straight flushes) on flushes and straight flushes
    of hearts, and on one another: how flushes compare and whether a straight flush stands."""
    rules = parse_rules(config)
    spades = [Play.from_cards(cards, rules) for cards in combinations(range(3, 52, 4), 5)]
    hearts = [Play.from_cards(cards, rules) for cards in combinations(range(2, 52, 4), 5)]
    rng = random.Random(config)
    targets = rng.sample(hearts, 12) + [p for p in hearts if p.kind.label == "straight flush"][:4]
    for target in targets + rng.sample(spades, 4):
        theirs = frozenset(cards_of(target.mask))
        for play in spades:
            if play.mask & target.mask:
                continue
            mine = frozenset(cards_of(play.mask))
            assert beats(play, target, rules) == independent_beats(mine, theirs, rules), config
