"""Big 2 rule profiles: every engine against a brute force written here from the rules as
docs/big2.md states them, for each named profile and each switch; plays legal under one
profile and not another; the command line and the verifier under the rules.
"""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from collections.abc import Callable
from functools import cache
from itertools import combinations
from typing import Any

import pytest
from typer.testing import CliRunner

from handsolver.models.big2 import (
    PROFILES,
    IllegalPlayError,
    iter_legal_plays,
    make_rules,
    parse_rules,
    play_kind,
)
from handsolver.models.cards import FULL_DECK_MASK, card_name, cards_of, mask_of, parse_cards
from handsolver.solver.big2.fewest import (
    Method,
    Prefer,
    all_optimal,
    check_answer,
    exact_search,
    fewest_plays,
    plays_lower_bound,
    preference_key,
    solve_partition_model,
    solve_strong_model,
)
from handsolver.solver.cli import app

runner = CliRunner()

# --- the rules as facts, written from docs/big2.md (not from the models) ----------------------

ORDER = "23456789TJQKA"  # poker order of the rank letters card_name uses
FIVES = [ORDER[low : low + 5] for low in range(9)]  # 23456 .. TJQKA
STRAIGHTS = {
    "ace-ends": ["A2345", *FIVES],
    "two-high": [*FIVES[1:], "JQKA2"],
    "no-twos": FIVES[1:],
    "wrap": [(ORDER * 2)[low : low + 5] for low in range(13)],
}
BASE = {
    "straights": "ace-ends",
    "triples": True,
    "two_pair": False,
    "two_pair_alone": False,
    "quads_alone": False,
    "quads_kicker": True,
    "flushes": True,
    "dragon": False,
}
FACTS = {
    "seed": BASE,
    "hk": BASE,
    "taiwan": BASE | {"flushes": False},
    "pusoy-dos": BASE | {"straights": "two-high"},
    "western": BASE | {"straights": "no-twos"},
    # Two pair and four of a kind as four-card plays, no four of a kind + 1.
    "online": BASE
    | {"straights": "two-high", "two_pair_alone": True, "quads_alone": True, "quads_kicker": False},
}
# Each switch on its own, and a few together.
CONFIGS = [
    *FACTS,
    "seed --no-triples",
    "seed --quads alone-or-kicker",
    "seed --two-pair",
    "seed --dragon",
    "seed --straights wrap",
    "seed --no-flushes",
    "hk --two-pair --no-flushes",
    "taiwan --no-triples --quads alone-or-kicker",
    "pusoy-dos --dragon --no-triples",
    "western --two-pair --quads alone-or-kicker",
    "seed --two-pair-alone",
    "seed --two-pair-alone --quads alone-or-kicker --two-pair",
    "seed --quads no-kicker",
    "online --no-triples --quads with-kicker",
]


def facts_of(config: str) -> dict[str, Any]:
    """The facts of a profile name followed by switches, read independently of the models."""
    name, *words = config.split()
    facts = dict(FACTS[name])
    while words:
        word = words.pop(0)
        if word == "--straights":
            facts["straights"] = words.pop(0)
        elif word == "--quads":
            how = words.pop(0)
            facts["quads_alone"] = how in ("alone-or-kicker", "no-kicker")
            facts["quads_kicker"] = how != "no-kicker"
        elif word.startswith("--no-"):
            facts[word[5:].replace("-", "_")] = False
        else:
            facts[word[2:].replace("-", "_")] = True
    return facts


def kind_of(cards: tuple[int, ...], facts: dict[str, Any]) -> str | None:
    """The name of the kind of play the cards make under ``facts``, None if they make none."""
    ranks = Counter(card_name(card)[0] for card in cards)
    suits = {card_name(card)[1] for card in cards}
    size = len(cards)
    one_rank = len(ranks) == 1
    if size == 4 and sorted(ranks.values()) == [2, 2] and facts["two_pair_alone"]:
        return "TWO_PAIR_ALONE"
    if size in (1, 2, 3, 4):
        allowed = {1: True, 2: True, 3: facts["triples"], 4: facts["quads_alone"]}[size]
        return ("SINGLE", "PAIR", "TRIPLE", "FOUR")[size - 1] if one_rank and allowed else None
    if size == 13:
        return "DRAGON" if facts["dragon"] and len(ranks) == 13 else None
    if size != 5:
        return None
    if any(set(run) == set(ranks) for run in STRAIGHTS[facts["straights"]]):
        return "STRAIGHT_FLUSH" if len(suits) == 1 else "STRAIGHT"
    if len(suits) == 1:
        return "FLUSH" if facts["flushes"] else None
    shape = sorted(ranks.values())
    if shape == [2, 3]:
        return "FULL_HOUSE"
    if shape == [1, 4]:
        return "FOUR_OF_A_KIND" if facts["quads_kicker"] else None
    return "TWO_PAIR" if shape == [1, 2, 2] and facts["two_pair"] else None


def is_play(cards: tuple[int, ...], facts: dict[str, Any]) -> bool:
    return kind_of(cards, facts) is not None


def brute_plays(cards: tuple[int, ...], facts: dict[str, Any]) -> set[int]:
    sizes = [1, 2, 3, 4, 5] + ([13] if facts["dragon"] else [])
    return {
        mask_of(combo) for n in sizes for combo in combinations(cards, n) if is_play(combo, facts)
    }


def brute(hand: int, facts: dict[str, Any]) -> tuple[int, int]:
    """(fewest plays, partitions reaching it): a set-partition search over the legal plays,
    each partition built once by always placing the lowest card left."""
    by_low: dict[int, list[int]] = defaultdict(list)
    for play in brute_plays(cards_of(hand), facts):
        by_low[play & -play].append(play)

    @cache
    def search(rest: int) -> tuple[int, int]:
        if not rest:
            return 0, 1
        best, ways = 99, 0
        for play in by_low[rest & -rest]:
            if rest & play == play:
                count, n = search(rest ^ play)
                if count + 1 < best:
                    best, ways = count + 1, n
                elif count + 1 == best:
                    ways += n
        return best, ways

    return search(hand)


def hands(seed: int, sizes: list[int]) -> list[int]:
    """Random hands, many of them shaped so that the rules matter: pairs and quads (two pair,
    four alone), one suit (flushes), runs through the ace and the two, every rank (dragons)."""
    rng = random.Random(seed)
    out = []
    for index, size in enumerate(sizes):
        shape = index % 5
        if shape == 1:  # few ranks: pairs, triples, quads
            ranks = rng.sample(range(13), max(2, size // 3))
            pool = [rank * 4 + suit for rank in ranks for suit in range(4)]
            cards = rng.sample(pool, min(size, len(pool)))
        elif shape == 2:  # mostly one suit
            pool = [
                card for card in range(52) if card % 4 == rng.randrange(4) or rng.random() < 0.2
            ]
            cards = rng.sample(pool, min(size, len(pool)))
        elif shape == 3:  # runs round the ace and the two: J Q K A 2 3 4 5 6
            pool = [rank * 4 + suit for rank in (9, 10, 11, 12, 0, 1, 2, 3, 4) for suit in range(4)]
            cards = rng.sample(pool, size)
        elif shape == 4 and size >= 13:  # every rank, so dragons exist
            cards = [rank * 4 + rng.randrange(4) for rank in range(13)]
            cards += rng.sample([c for c in range(52) if c not in cards], size - 13)
        else:
            cards = rng.sample(range(52), size)
        out.append(mask_of(cards))
    return out


# Ranks of four left over, triples that may or may not be plays.
SMALL_FIXED = [
    "3c 3d 3h 3s",
    "3c 3d 3h 3s 4c 4d 4h 4s",
    "7c 7d 7h 9c 9d 9h",
    "5c 5d 5h 5s 6c 6d 6h",
]
# Seventeen cards holding a dragon that is better left unplayed: it leaves four singles.
MEDIUM_FIXED = [
    "2d 3c 4d 5h 5s 6d 7c 7d 8c 9c Tc Td Jd Qd Kd Kh Ah",
    "2h 3d 3h 4h 5h 6h 6s 7h 7s 8d 9h 9s Th Jh Qd Kd Ad",
]


def assert_partition(hand: int, plays: Any, facts: dict[str, Any]) -> None:
    """The plays cover the hand once and each is legal by the facts."""
    masks = [play.mask for play in plays]
    assert sum(masks) == hand and len(set(masks)) == len(masks)
    assert all(is_play(cards_of(mask), facts) for mask in masks)


# --- enumeration and play kinds --------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS)
def test_enumeration_matches_brute_force(config: str) -> None:
    rules, facts = parse_rules(config), facts_of(config)
    for hand in hands(1, [8, 10, 11, 12, 13, 14, 9, 12, 13, 14]):
        got = {play.mask for play in iter_legal_plays(hand, rules=rules)}
        assert got == brute_plays(cards_of(hand), facts), config
        for play in iter_legal_plays(hand, rules=rules):
            assert play_kind(play.mask, rules) is play.kind


@pytest.mark.parametrize("config", CONFIGS)
def test_play_kind_matches_brute_force(config: str) -> None:
    rules, facts = parse_rules(config), facts_of(config)
    rng = random.Random(config)
    for _ in range(400):
        cards = tuple(rng.sample(range(52), rng.choice((1, 2, 3, 4, 5, 5, 5, 6, 13))))
        shape = rng.random()
        if shape < 0.2:  # one rank
            cards = tuple(c for c in range(52) if c // 4 == cards[0] // 4)[: len(cards)] or cards
        elif shape < 0.4:  # one suit: flushes, straight flushes
            cards = tuple(rng.sample(range(cards[0] % 4, 52, 4), 5))
        elif shape < 0.6:  # five ranks in a row, the ace on either end: straights
            low, suited = rng.randrange(13), rng.random() < 0.3
            suit = rng.randrange(4)
            cards = tuple(
                (low + i) % 13 * 4 + (suit if suited else rng.randrange(4)) for i in range(5)
            )
        expected = kind_of(cards, facts)
        try:
            kind = play_kind(cards, rules).name
        except IllegalPlayError as error:
            assert expected is None, (config, error)
        else:
            assert kind == expected, (config, [card_name(c) for c in cards])


# Plays legal under the first rules and not under the second.
DIFFERENCES = [
    ("Js Qd Kh As 2c", "pusoy-dos", "seed"),
    ("Qs Kd Ah 2c 3d", "seed --straights wrap", "pusoy-dos"),
    ("As 2d 3c 4h 5s", "seed", "pusoy-dos"),
    ("As 2d 3c 4h 5s", "hk", "western"),
    ("2d 3c 4h 5s 6s", "taiwan", "western"),
    ("3c 7c 9c Jc Kc", "hk", "taiwan"),
    ("7c 7d 7h", "seed", "seed --no-triples"),
    ("7c 7d 7h 7s", "seed --quads alone-or-kicker", "seed"),
    ("7c 7d 9h 9s Kc", "seed --two-pair", "seed"),
    ("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ad", "seed --dragon", "seed"),
    ("7c 7d 9h 9s", "seed --two-pair-alone", "seed --two-pair"),
    ("7c 7d 7h 7s", "online", "seed"),
    ("7c 7d 7h 7s 9s", "seed", "online"),
]


@pytest.mark.parametrize(("text", "legal", "illegal"), DIFFERENCES)
def test_a_play_legal_under_one_profile_only(text: str, legal: str, illegal: str) -> None:
    cards = parse_cards(text)
    play_kind(cards, parse_rules(legal))
    assert is_play(cards, facts_of(legal))
    with pytest.raises(IllegalPlayError, match="is not a play: "):
        play_kind(cards, parse_rules(illegal))
    assert not is_play(cards, facts_of(illegal))


def test_straight_flushes_need_no_flushes() -> None:
    cards = parse_cards("3c 4c 5c 6c 7c")
    assert play_kind(cards, PROFILES["taiwan"]).label == "straight flush"
    assert play_kind(cards, make_rules(flushes=False, triples=False)).label == "straight flush"


def test_named_profiles_are_the_documented_facts() -> None:
    for name, facts in FACTS.items():
        rules = PROFILES[name]
        assert rules.name == name
        straights = ["".join(card_name(r * 4)[0] for r in run) for run in rules.straight_ranks]
        assert sorted(map(sorted, straights)) == sorted(map(sorted, STRAIGHTS[facts["straights"]]))
        assert (rules.triples, rules.two_pair, rules.flushes, rules.dragon) == (
            facts["triples"],
            facts["two_pair"],
            facts["flushes"],
            facts["dragon"],
        )
    assert [PROFILES[name].suit_order for name in FACTS] == [
        "shcd",
        "shcd",
        "shdc",
        "dhsc",
        "shcd",
        "shcd",
    ]
    online = PROFILES["online"]
    assert (online.two_pair_alone, online.quads.value, online.flush_order.value) == (
        True,
        "no-kicker",
        "high-card",
    )
    assert online.unbeatable_straight_flush and online.open_alone


def test_full_deck_play_counts_by_profile() -> None:
    """Counted by hand: 10, 9 or 8 straight windows of 4**5 cards (less the 4 straight
    flushes each); C(13,5) * 4 flushes less the straight flushes; two pair C(13,2) * 6 * 6 * 44."""
    deck = cards_of(FULL_DECK_MASK)
    for config, straights in (
        ("seed", 10),
        ("pusoy-dos", 9),
        ("western", 8),
        ("seed --straights wrap", 13),
    ):
        kinds = Counter(
            play.kind.label for play in iter_legal_plays(FULL_DECK_MASK, rules=parse_rules(config))
        )
        assert kinds["straight"] == straights * (4**5 - 4)
        assert kinds["straight flush"] == straights * 4
        assert kinds["flush"] == 1287 * 4 - straights * 4
    taiwan = Counter(
        p.kind.label for p in iter_legal_plays(FULL_DECK_MASK, (1, 2, 3, 4, 5), PROFILES["taiwan"])
    )
    assert taiwan["flush"] == 0 and taiwan["straight flush"] == 40
    two_pair = Counter(
        p.kind.label for p in iter_legal_plays(FULL_DECK_MASK, (5,), make_rules(two_pair=True))
    )
    assert two_pair["two pair + 1"] == 78 * 36 * 44
    alone = Counter(
        p.kind.label for p in iter_legal_plays(FULL_DECK_MASK, (4,), make_rules(quads="alone"))
    )
    assert alone["four of a kind"] == 13 and len(deck) == 52
    online = Counter(
        p.kind.label for p in iter_legal_plays(FULL_DECK_MASK, (4, 5), PROFILES["online"])
    )
    assert online["two pair"] == 78 * 36 and online["four of a kind"] == 13
    assert online["four of a kind + 1"] == 0


# --- the engines against the brute force -----------------------------------------------------

ENGINES: dict[str, Callable[..., Any]] = {
    "exact": lambda hand, rules: exact_search(hand, rules=rules),
    "cp-sat": lambda hand, rules: solve_strong_model(hand, rules=rules),
    "plain": lambda hand, rules: solve_partition_model(hand, rules=rules),
}


@pytest.mark.parametrize("config", CONFIGS)
def test_engines_match_brute_force_on_small_hands(config: str) -> None:
    rules, facts = parse_rules(config), facts_of(config)
    fixed = [mask_of(parse_cards(text)) for text in SMALL_FIXED]
    for hand in fixed + hands(2, [3, 5, 6, 7, 8, 9, 10, 10, 9, 8, 7, 10]):
        best, ways = brute(hand, facts)
        for name, engine in ENGINES.items():
            result = engine(hand, rules)
            assert (result.count, result.optimal) == (best, True), (config, name)
            assert_partition(hand, result.plays, facts)
            assert result.rules == rules
        assert plays_lower_bound(hand, rules) <= best
        found = all_optimal(hand, rules=rules, limit=10_000)
        assert (found.best, found.count, found.complete) == (best, ways, True), config
        for plays in found.partitions:
            assert_partition(hand, plays, facts)


@pytest.mark.parametrize("config", CONFIGS)
def test_engines_match_brute_force_on_medium_hands(config: str) -> None:
    rules, facts = parse_rules(config), facts_of(config)
    fixed = [mask_of(parse_cards(text)) for text in MEDIUM_FIXED]
    for hand in fixed + hands(3, [13, 13, 13, 13, 13, 14, 16, 17]):
        best, _ = brute(hand, facts)
        for name, engine in ENGINES.items():
            result = engine(hand, rules)
            assert (result.count, result.optimal) == (best, True), (config, name)
            assert_partition(hand, result.plays, facts)


@pytest.mark.parametrize(
    "config",
    [
        "seed",
        "taiwan",
        "pusoy-dos",
        "western",
        "hk --two-pair --no-flushes",
        "pusoy-dos --dragon --no-triples",
        "taiwan --no-triples --quads alone-or-kicker",
    ],
)
@pytest.mark.parametrize("prefer", [Prefer.FEWEST_SINGLES, Prefer.STRONGEST])
def test_preferences_under_the_rules(config: str, prefer: Prefer) -> None:
    """Every engine finds the best preference key among all optimal partitions."""
    rules = parse_rules(config)
    for hand in hands(4, [8, 10, 13, 13, 13, 14]):
        found = all_optimal(hand, rules=rules, limit=100_000)
        best = min(preference_key(plays, prefer) for plays in found.partitions)
        for method in (Method.EXACT, Method.CPSAT, Method.PLAIN):
            result = fewest_plays(hand, rules=rules, prefer=prefer, method=method)
            assert preference_key(result.plays, prefer) == best, (config, method)


def test_suit_order_decides_output_order_and_splits() -> None:
    hand = mask_of(parse_cards("3c 3d 3h 3s"))
    seed = fewest_plays(hand, prefer=Prefer.STRONGEST)
    pusoy = fewest_plays(hand, prefer=Prefer.STRONGEST, rules=PROFILES["pusoy-dos"])
    # The single is the lowest three: diamonds in the seed's order, clubs in pusoy dos.
    assert [card_name(c) for c in seed.plays[1].cards_in(seed.rules)] == ["3d"]
    assert [card_name(c) for c in pusoy.plays[1].cards_in(pusoy.rules)] == ["3c"]
    assert [card_name(c) for c in pusoy.plays[0].cards_in(pusoy.rules)] == ["3s", "3h", "3d"]


def test_large_hands_under_each_profile() -> None:
    for name in PROFILES:
        rules = PROFILES[name]
        deck = fewest_plays(FULL_DECK_MASK, rules=rules)
        assert deck.optimal and deck.count == 11
        assert_partition(FULL_DECK_MASK, deck.plays, FACTS[name])
    dragons = fewest_plays(FULL_DECK_MASK, rules=make_rules(dragon=True))
    assert (dragons.count, dragons.optimal) == (4, True)
    assert [play.kind.label for play in dragons.plays] == ["dragon"] * 4
    alone = fewest_plays(FULL_DECK_MASK, rules=make_rules(quads="alone", triples=False))
    assert alone.optimal and alone.count == 11


# --- checking answers: exactly the partitions the brute force calls legal ---------------------


def random_partition(rng: random.Random, cards: list[int]) -> list[list[int]]:
    cards = cards[:]
    rng.shuffle(cards)
    groups = []
    while cards:
        size = min(len(cards), rng.choice((1, 2, 2, 3, 4, 5, 5, 5)))
        groups.append(cards[:size])
        cards = cards[size:]
    return groups


@pytest.mark.parametrize("config", CONFIGS)
def test_check_accepts_exactly_the_legal_partitions(config: str) -> None:
    rules, facts = parse_rules(config), facts_of(config)
    rng = random.Random(config)
    accepted = rejected = 0
    for hand in hands(5, [5, 6, 7, 8, 9, 10] * 2):
        best, _ = brute(hand, facts)
        cards = list(cards_of(hand))
        candidates = [random_partition(rng, cards) for _ in range(30)]
        candidates.append(
            [list(cards_of(play.mask)) for play in exact_search(hand, rules=rules).plays]
        )
        for groups in candidates:
            verdict = check_answer(hand, groups, rules=rules)
            legal = all(is_play(tuple(group), facts) for group in groups)
            assert verdict.valid == legal, (config, groups)
            assert verdict.optimal == (legal and len(groups) == best)
            assert verdict.rules == rules
            accepted += verdict.valid
            rejected += not verdict.valid
    assert accepted and rejected


@pytest.mark.parametrize(
    "config", ["taiwan", "pusoy-dos --dragon", "western --no-triples --two-pair"]
)
def test_big2_check_command_agrees_with_the_brute_force(config: str) -> None:
    """Plays written as runs of cards between ", ": every reading of the answer is the
    partition meant, so the command's verdict is the brute force's."""
    facts = facts_of(config)
    rng = random.Random(config)
    for hand in hands(6, [6, 8, 9, 10, 13]):
        best, _ = brute(hand, facts)
        cards = list(cards_of(hand))
        exact = exact_search(hand, rules=parse_rules(config))
        candidates = [random_partition(rng, cards) for _ in range(6)]
        candidates.append([list(cards_of(play.mask)) for play in exact.plays])
        for groups in candidates:
            legal = all(is_play(tuple(group), facts) for group in groups)
            answer = ", ".join("".join(card_name(card) for card in group) for group in groups)
            hand_text = " ".join(card_name(card) for card in cards)
            name, *switches = config.split()
            args = ["big2", "check", "--json", hand_text, answer, "--rules", name, *switches]
            result = runner.invoke(app, args)
            report = json.loads(result.stdout)
            optimal = legal and len(groups) == best
            assert result.exit_code == (0 if optimal else 1), (config, answer)
            assert report["valid"] == legal and report["best"] == best
            assert report["rules"]["name"] == parse_rules(config).name


# --- the command line ------------------------------------------------------------------------

HAND = "AS,4H,6D,8C,7C,3S,5H,8D,4C,2S,0C,AD,AH"
RULE_KEYS = {"name", "straights", "triples", "two_pair", "quads", "dragon", "suit_order"}


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["big2", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_json_carries_the_rules() -> None:
    code, out, _ = invoke("--json", "--rules", "western", "--no-triples", HAND)
    rules = json.loads(out)["rules"]
    assert code == 0 and RULE_KEYS <= set(rules)
    assert rules["name"] == "western --no-triples"
    assert rules["straights"][0] == ["3", "4", "5", "6", "7"]
    assert rules["straights"][-1] == ["0", "J", "Q", "K", "A"]  # the input's ten
    assert (rules["triples"], rules["two_pair"], rules["quads"], rules["dragon"]) == (
        False,
        False,
        "with-kicker",
        False,
    )
    assert rules["suit_order"] == "shcd"
    code, out, _ = invoke("--json", HAND)
    assert json.loads(out)["rules"]["name"] == "seed"
    code, out, _ = invoke("check", "--json", "--rules", "pusoy-dos", "Js Qd Kh As 2c", "JsQdKhAs2c")
    assert code == 0 and json.loads(out)["rules"]["suit_order"] == "dhsc"
    assert json.loads(out)["rules"]["straights"][-1] == ["J", "Q", "K", "A", "2"]


def test_cases_json_names_the_rules_of_every_case() -> None:
    result = runner.invoke(app, ["cases", "big2", "--cases", "2", "--json", "--rules", "hk"])
    cases = json.loads(result.stdout)
    assert result.exit_code == 0 and len(cases) > 2
    assert all(case["rules"]["name"] == "hk" for case in cases)
    assert all(RULE_KEYS <= set(case["rules"]) for case in cases)
    result = runner.invoke(app, ["cases", "badugi", "--cases", "1", "--json"])
    assert "rules" not in json.loads(result.stdout)[0]  # a challenge without rule switches


def test_every_answer_names_its_rules(tmp_path: Any) -> None:
    code, out, _ = invoke("--rules", "taiwan", HAND)
    assert code == 0 and out.splitlines()[0] == "5 plays (optimal, taiwan rules)"
    code, out, _ = invoke("check", "--rules", "hk", "--dragon", "3c", "3c")
    assert code == 0 and out.splitlines()[3] == "rules: hk --dragon"
    path = tmp_path / "hands.txt"
    path.write_text(HAND + "\n7c 7d 7h\n")
    code, out, _ = invoke("batch", str(path), "--rules", "seed", "--no-triples")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [line["count"] for line in lines] == [5, 2]
    assert {line["rules"]["name"] for line in lines} == {"seed --no-triples"}


def test_the_same_hand_under_different_rules() -> None:
    # A flush under the seed; Taiwan has none, so the five hearts go otherwise.
    hand = "2D,7D,8S,AS,2C,9D,5D,2S,AC,0D,8C,8H,5H"
    counts = {
        name: json.loads(invoke("--json", "--rules", name, hand)[1])["count"] for name in PROFILES
    }
    assert counts == {"seed": 4, "hk": 4, "taiwan": 5, "pusoy-dos": 4, "western": 4, "online": 4}
    # Q K A 2 3 is only a straight when straights wrap.
    assert json.loads(invoke("--json", "QS KD AH 2C 3D")[1])["count"] == 5
    assert json.loads(invoke("--json", "--straights", "wrap", "QS KD AH 2C 3D")[1])["count"] == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "macau", HAND], "unknown rules 'macau'"),
        (["--rules", "hk", "--rules", "seed", HAND], "give --rules once"),
        (["--triples", "--no-triples", HAND], "--triples contradicts --no-triples"),
        (["--dragon", "--no-dragon", HAND], "--dragon contradicts --no-dragon"),
        (["--rules", "taiwan", "--flush-order", "suit", HAND], "--flush-order: a flush order"),
        (["--no-flushes", "--flush-order", "rank", HAND], "contradicts no flushes"),
        (["--straights", "bent", HAND], "--straights: straights 'bent' is not one of"),
        (["--quads", "five", HAND], "--quads: quads 'five' is not one of"),
        (["--flush-order", "top", HAND], "--flush-order: flush order 'top' is not one of"),
        (["--open-alone", "--no-open-alone", HAND], "--open-alone contradicts --no-open-alone"),
        (["--rules", "online", "--flush-order", "suit", "--no-flushes", HAND], "contradicts"),
        (["--suit-order", "shc", HAND], "--suit-order: the suit order 'shc' must list"),
        (["check", "--rules", "nope", "3c", "3c"], "unknown rules 'nope'"),
        (["batch", "-", "--two-pair", "--no-two-pair"], "--two-pair contradicts"),
        (["stats", "--rules", "hk", "--rules", "hk"], "--rules hk is given twice"),
        (["stats", "--players", "3", "--hand-size", "13"], "contradicts --players 3"),
    ],
)
def test_bad_rules_are_one_line(args: list[str], message: str) -> None:
    code, out, err = invoke(*args, stdin="3c\n")
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and len(err.strip().splitlines()) == 1


def test_stats_compares_profiles_on_the_same_hands() -> None:
    code, out, _ = invoke(
        "stats", "--deals", "60", "--seed", "2", "--json", "--rules", "seed", "--rules", "taiwan"
    )
    report = json.loads(out)
    assert code == 0 and [p["rules"]["name"] for p in report["profiles"]] == ["seed", "taiwan"]
    alone = [
        json.loads(invoke("stats", "--deals", "60", "--seed", "2", "--json", "--rules", n)[1])
        for n in ("seed", "taiwan")
    ]
    for profile, single in zip(report["profiles"], alone, strict=True):
        assert profile["histogram"] == single["histogram"] and single["rules"] == profile["rules"]
    # Taiwan has fewer plays (no flushes), so no hand needs fewer plays under it.
    assert alone[1]["mean"] >= alone[0]["mean"]
    code, out, _ = invoke(
        "stats", "--deals", "60", "--seed", "2", "--rules", "seed", "--rules", "taiwan"
    )
    assert code == 0 and "seed rules" not in out and "seed, taiwan rules" in out.splitlines()[0]
    assert out.splitlines()[1].split() == ["plays", "seed", "taiwan"]
    assert any(line.startswith("mean") for line in out.splitlines())
    assert "taiwan: +" in out


def test_stats_with_three_players_deals_17_cards() -> None:
    code, out, _ = invoke(
        "stats", "--deals", "30", "--players", "3", "--json", "--rules", "pusoy-dos"
    )
    report = json.loads(out)
    assert code == 0 and report["hand_size"] == 17 and report["all_optimal"]
    assert report["rules"]["players"] == 3 and report["rules"]["name"] == "pusoy-dos --players 3"
    assert sum(report["histogram"].values()) == 30


def test_verifier_judges_under_the_rules() -> None:
    from handsolver.solver.golf import make_challenge

    seed, taiwan = make_challenge("big2"), make_challenge("big2", rules="taiwan")
    hand = (tuple(parse_cards("2D,7D,8S,AS,2C,9D,5D,2S,AC,0D,8C,8H,5H")),)
    answer = seed.answer(hand)  # a flush: right under the seed's rules only
    assert seed.judge(hand, answer) is None
    assert taiwan.judge(hand, answer) is not None
    assert taiwan.judge(hand, taiwan.answer(hand)) is None
    assert taiwan.notes() == ["rules: taiwan"] and seed.notes() == ["rules: seed"]
    assert taiwan.settings_json()["rules"]["name"] == "taiwan"
    result = runner.invoke(app, ["cases", "big2", "--cases", "0", "--rules", "taiwan"])
    assert result.exit_code == 0 and "--rules 'taiwan'" in result.stdout.splitlines()[0]
    result = runner.invoke(app, ["cases", "poker", "--rules", "taiwan"])
    assert result.exit_code == 2 and "--rules does not apply to poker" in result.stderr
