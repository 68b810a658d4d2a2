"""Draw rules as data: parsing, the kept cards (one hand and numpy batches), situations."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from handsolver.models.badugi import badugi_key, played_cards
from handsolver.models.badugi_draw import (
    DrawRule,
    keep_masks,
    kept_cards,
    parse_rule,
    parse_situation,
    parse_situation_line,
)
from handsolver.models.cards import DECK, InputError, parse_cards

SPECS = ["best", "pat", "keep:", "keep:Ac", "break:8", "break:T-9", "pat:7-6-5-4", "break:K"]
hands4 = st.lists(st.sampled_from(DECK), min_size=4, max_size=4, unique=True)


@given(st.lists(hands4, min_size=1, max_size=30), st.sampled_from(SPECS), st.integers(0, 2))
def test_numpy_keeps_equal_the_one_hand_rule(hands: list[list[int]], spec: str, draw: int) -> None:
    rule = parse_rule(spec)
    masks = keep_masks(rule, np.array(hands), draw)
    for hand, mask in zip(hands, masks, strict=True):
        assert tuple(c for c, kept in zip(hand, mask, strict=True) if kept) == kept_cards(
            rule, hand, draw
        )


@given(hands4)
def test_the_default_rule_keeps_the_played_hand(hand: list[int]) -> None:
    assert set(kept_cards(DrawRule(), hand, 0)) == set(played_cards(hand))
    assert kept_cards(parse_rule("pat"), hand, 1) == tuple(hand)


@pytest.mark.parametrize(
    ("hand", "spec", "kept"),
    [
        ("9c 5d 3h As", "break:8", "5d 3h As"),  # 9-high is worse than 8: break it
        ("8c 5d 3h As", "break:8", "8c 5d 3h As"),  # 8-5 is at or below 8: stand
        ("8c 6d 3h As", "pat:8-5", "6d 3h As"),  # 8-6 is worse than 8-5
        ("8c 5d 3h As", "pat:8-5", "8c 5d 3h As"),
        ("8c 5d 3h Ah", "break:2", "8c 5d Ah"),  # not a badugi: kept as played (8-5-A)
        ("8c 5d 3h As", "keep:8c As", "8c As"),
    ],
)
def test_limits_and_keeps(hand: str, spec: str, kept: str) -> None:
    assert kept_cards(parse_rule(spec), parse_cards(hand), 0) == parse_cards(kept)


def test_a_keep_rule_holds_for_this_draw_only() -> None:
    hand = parse_cards("8c 5d 3h As")
    assert kept_cards(parse_rule("keep:8c"), hand, 1) == hand


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("fold", "unknown draw rule 'fold'"),
        ("keep:Ac Ac", "names a card twice"),
        ("keep:Xc", "unknown rank 'X'"),
        ("break:", "give 1 to 4 ranks"),
        ("break:5-9", "ranks must fall"),
        ("break:Z", "bad rank 'Z'"),
        ("break:9-8-7-6-5", "give 1 to 4 ranks"),
    ],
)
def test_bad_rules_are_named(spec: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_rule(spec)


def test_situations_check_cards_and_the_stub() -> None:
    spot = parse_situation(["Ac 2d 3h Kh", "?"], dead="4s", draws=3)
    assert len(spot.stub) == 47 and spot.cards_needed() == 4 + 3 * 3 * 2
    with pytest.raises(InputError, match="given twice"):
        parse_situation(["Ac 2d 3h Kh", "?"], dead="Ac")
    with pytest.raises(InputError, match="not in the hand"):
        parse_situation(["Ac 2d 3h Kh", "?"], keep="4s")
    with pytest.raises(InputError, match="disagree"):
        parse_situation(["Ac 2d 3h Kh", "?"], keep="Ac", rules=["pat"])
    assert badugi_key(spot.hands[0] or ()) > 0


def test_lines_read_like_the_command_line() -> None:
    spot = parse_situation_line("Ac 2d 3h Kh | ? --draws=2 --rule pat --rule 'break:9' --dead 4s")
    assert (spot.draws, [r.spec for r in spot.rules], len(spot.dead)) == (2, ["pat", "break:9"], 1)
    for line, message in [
        ("Ac 2d 3h Kh | ? --samples 5", "unknown option '--samples'"),
        ("Ac 2d 3h Kh | ? --draws", "needs a value"),
        ("Ac 2d 3h Kh | ? --draws 1 --draws 2", "given twice"),
        ("Ac 2d 3h Kh | ? --rule 'pat", "cannot read"),
    ]:
        with pytest.raises(InputError, match=message):
            parse_situation_line(line)
