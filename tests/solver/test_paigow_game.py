"""The whole game: the class-by-class engine against a brute force over every pair of hands on
reduced decks, against `paigow settings` on random full-deck hands, and the 7-card
frequencies with the joker."""

from __future__ import annotations

import hashlib
import json
import math
import random
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from handsolver.models.cards import InputError
from handsolver.models.paigow import (
    JOKER,
    Rules,
    category_name,
    high_key,
    house_way,
    is_foul,
    low_key,
)
from handsolver.models.paigow_houseway import DEALER_GUIDE, FOXWOODS, TRUMP_PLAZA, HouseWay
from handsolver.models.poker import NUM_KEYS
from handsolver.solver.paigow import setting_values
from handsolver.solver.paigow.game import hand_results, whole_game
from handsolver.solver.paigow.game_tables import setup
from handsolver.solver.paigow.hand_types import CATEGORIES, Deck, frequencies
from handsolver.solver.paigow.suits import suit_patterns
from tests.clusters import local_cluster

FIVE_RULES = [Rules(), Rules(wheel_second=False, five_aces_top=False, commission=Fraction(0))]


def brute_force(way: HouseWay, rules: Rules, deck: Deck) -> dict[str, object]:
    """Every player hand against every dealer hand, one pair at a time (vectorized over the
    settings and the dealer hands): the house-way and best-play counts and the 7-card
    frequencies."""
    cards = deck.cards
    hands = list(combinations(cards, 7))
    array = np.array(hands, dtype=np.int64)
    high, low = house_way_keys(hands, way, rules)
    bits = (np.int64(1) << np.minimum(array, 62)).sum(axis=1)  # the joker (52) fits in 63 bits
    order = np.argsort(bits)
    sorted_bits = bits[order]
    # The dealer's hands are the 7-card subsets of the other cards, at the same places of them
    # for every player hand.
    places = np.array(list(combinations(range(len(cards) - 7), 7)), dtype=np.int64)
    a, b = rules.commission.numerator, rules.commission.denominator
    house = [0, 0, 0]
    best = [0, 0, 0]
    frequencies = dict.fromkeys(CATEGORIES, 0)
    for index, hand in enumerate(hands):
        rest = np.array([c for c in cards if c not in hand], dtype=np.int64)
        dealer = order[
            np.searchsorted(sorted_bits, (np.int64(1) << np.minimum(rest, 62))[places].sum(axis=1))
        ]
        dh, dl = high[dealer], low[dealer]
        settings = []  # every way to set the hand: (high key, low key, legal)
        for size_five in combinations(hand, 5):
            two = tuple(c for c in hand if c not in size_five)
            legal = not is_foul((size_five, two), rules)
            settings.append((high_key(size_five, rules), low_key(two), legal))
        hs, los = (np.array([s[i] for s in settings], dtype=np.int64)[:, None] for i in (0, 1))
        wins = ((hs > dh) & (los > dl)).sum(axis=1).tolist()
        losses = ((hs <= dh) & (los <= dl)).sum(axis=1).tolist()
        scored = [
            ((b - a) * win - b * loss, h, lo, win, loss, legal)
            for (h, lo, legal), win, loss in zip(settings, wins, losses, strict=True)
        ]
        top = max(item[1] for item in scored)
        name = category_name(top, rules)
        if top == high_key(_royal(), rules):
            name = "royal flush"
        frequencies[name] += 1
        value, h, lo, win, loss, _ = max(item for item in scored if item[5])
        n = len(dealer)
        best = [best[0] + win, best[1] + n - win - loss, best[2] + loss]
        h, lo = high[index], low[index]
        win = int(((h > dh) & (lo > dl)).sum())
        loss = int(((h <= dh) & (lo <= dl)).sum())
        house = [house[0] + win, house[1] + n - win - loss, house[2] + loss]
    return {"house": tuple(house), "best": tuple(best), "frequencies": frequencies}


_HOUSE_WAY_KEYS: dict[tuple[HouseWay, Rules], dict[object, tuple[int, int]]] = {}
"""The keys of each shape of hand, by house way and rules: kept between calls, since a test
that sets every dealer hand of many player hands meets the same shapes again."""


def house_way_keys(
    hands: list[tuple[int, ...]], way: HouseWay, rules: Rules = FIVE_RULES[0]
) -> tuple[np.ndarray, np.ndarray]:
    """The high and low keys of each hand set the house way, by the scalar rule in models/
    (not the engine's batch tables).  The keys depend on the suits only through which cards
    share one, so hands that differ only by a relabelling of the suits are set once."""
    memo = _HOUSE_WAY_KEYS.setdefault((way, rules), {})
    high, low = [], []
    for hand in hands:
        # The same key for two hands exactly when a relabelling of the suits maps one to the
        # other: the joker, then the ranks held in each suit, suits in no particular order.
        suits = sorted(tuple(c // 4 for c in hand if c != JOKER and c % 4 == s) for s in range(4))
        shape = (JOKER in hand, tuple(suits))
        if shape not in memo:
            setting = house_way(hand, way, rules)
            memo[shape] = (setting.high_key, setting.low_key)
        h, lo = memo[shape]
        high.append(h)
        low.append(lo)
    return np.array(high, dtype=np.int64), np.array(low, dtype=np.int64)


def _royal() -> tuple[int, ...]:
    return tuple(rank * 4 for rank in (8, 9, 10, 11, 12))


@pytest.mark.parametrize(
    ("way", "rules", "ranks"),
    [
        (DEALER_GUIDE, FIVE_RULES[1], (0, 1, 2, 3)),
        pytest.param(TRUMP_PLAZA, FIVE_RULES[0], (9, 10, 11, 12), marks=pytest.mark.slow),
        pytest.param(FOXWOODS, FIVE_RULES[0], (8, 10, 11, 12), marks=pytest.mark.slow),
        pytest.param(FOXWOODS, FIVE_RULES[1], (0, 1, 2, 12), marks=pytest.mark.slow),
        pytest.param(TRUMP_PLAZA, FIVE_RULES[1], (5, 6, 7, 8), marks=pytest.mark.slow),
        pytest.param(FOXWOODS, FIVE_RULES[0], (3, 4, 5, 6), marks=pytest.mark.slow),
    ],
    ids=lambda v: getattr(v, "name", None) or str(v),
)
def test_whole_game_equals_brute_force_on_reduced_decks(
    way: HouseWay, rules: Rules, ranks: tuple[int, ...]
) -> None:
    deck = Deck(ranks)
    result = whole_game(way, rules, deck)
    expected = brute_force(way, rules, deck)
    assert (result.house_way.win, result.house_way.push, result.house_way.loss) == expected["house"]
    assert (result.best.win, result.best.push, result.best.loss) == expected["best"]
    assert result.frequencies == expected["frequencies"]
    assert sum(result.house_way[:3]) == result.pairs == deck.pairs
    assert result.best.ev >= result.house_way.ev


@pytest.mark.slow
def test_per_hand_counts_on_a_five_rank_deck() -> None:
    """Five ranks give five-card flushes: each hand of some classes against every dealer hand."""
    deck = Deck((7, 8, 9, 10, 12))
    s = setup(FOXWOODS, Rules(), deck)
    rng = random.Random(5)
    classes = rng.sample([int(c) for c in s.player_classes], 12)
    results = hand_results(s, classes)
    cards = deck.cards
    for row, hand in enumerate(results.cards.tolist()):
        rest = list(combinations([c for c in cards if c not in hand], 7))
        dh, dl = house_way_keys(rest, FOXWOODS)
        settings = []  # every legal setting: (high key, low key)
        for five in combinations(hand, 5):
            two = tuple(c for c in hand if c not in five)
            if not is_foul((five, two)):
                settings.append((high_key(five), low_key(two)))
        hs, los = (np.array([s[i] for s in settings], dtype=np.int64)[:, None] for i in (0, 1))
        wins = ((hs > dh) & (los > dl)).sum(axis=1).tolist()
        losses = ((hs <= dh) & (los <= dl)).sum(axis=1).tolist()
        scored = [
            (19 * win - 20 * loss, h, lo, win, loss)
            for (h, lo), win, loss in zip(settings, wins, losses, strict=True)
        ]
        _, _, _, win, loss = max(scored)
        assert tuple(results.best[row]) == (win, len(rest) - win - loss, loss)


def test_pruning_changes_nothing() -> None:
    s = setup(FOXWOODS, Rules(), Deck((7, 9, 11, 12)))
    classes = [int(c) for c in s.player_classes]
    pruned = hand_results(s, classes)
    full = hand_results(s, classes, prune=False)
    assert (pruned.best == full.best).all() and (pruned.house == full.house).all()


def test_suit_patterns_cover_every_hand() -> None:
    for counts in [(1,) * 7, (2, 2, 1, 1, 1), (4, 3), (3, 2, 2), (1, 1, 1, 1, 1, 1)]:
        masks, weights = suit_patterns(counts)
        assert sum(weights) == math.prod(math.comb(4, c) for c in counts)
        assert all(
            bin(m).count("1") == c for row in masks for m, c in zip(row, counts, strict=True)
        )


def _canonical(hand: tuple[int, ...]) -> tuple[int, ...]:
    from itertools import permutations

    return min(
        tuple(sorted(c if c == JOKER else (c & ~3) | p[c & 3] for c in hand))
        for p in permutations(range(4))
    )


@pytest.mark.parametrize("seed", [1, 2])
def test_per_hand_counts_equal_settings(seed: int) -> None:
    rng = random.Random(seed)
    way = FOXWOODS if seed == 1 else TRUMP_PLAZA
    s = setup(way)
    t = s.tables
    for _ in range(2):
        hand = tuple(rng.sample(range(53), 7))
        if seed == 2:  # a flush for the flush paths
            hand = (0, 8, 20, 28, 44, *rng.sample([c for c in range(53) if c & 3], 2))
        values = setting_values(hand, way)
        counts = [0] * 13
        for card in hand:
            if card != JOKER:
                counts[card >> 2] += 1
        joker = JOKER in hand
        index = next(
            i
            for i in range(len(t.class_codes))
            if list(t.class_counts[i]) == counts and bool(t.class_joker[i]) == joker
        )
        results = hand_results(s, [index])
        target = _canonical(hand)
        row = next(i for i, cards in enumerate(results.cards) if _canonical(tuple(cards)) == target)
        best, house = values.best, values.house
        assert tuple(results.best[row]) == (best.win, best.push, best.loss)
        assert tuple(results.house[row]) == (house.win, house.push, house.loss)


def test_published_seven_card_frequencies() -> None:
    """Out of C(53,7) = 154,143,080 hands with the joker (the published table)."""
    got = frequencies()
    assert sum(got.values()) == 154_143_080
    assert got["five aces"] == 1_128
    assert got["royal flush"] == 26_132
    assert got["four of a kind"] == 307_472
    assert got["full house"] == 4_188_528
    assert got["flush"] == 6_172_088


def test_royal_key_is_the_top_straight_flush() -> None:
    assert category_name(high_key(_royal())) == "straight flush"
    assert NUM_KEYS - 1 > 0


# --- the command, checkpoints and the disk cache ---------------------------------------------


def _game_json(args: list[str], env: dict[str, str]) -> dict[str, object]:
    import json

    from typer.testing import CliRunner

    from handsolver.solver.cli import app

    done = CliRunner().invoke(app, ["paigow", "game", "--json", *args], env=env)
    assert done.exit_code == 0, done.output
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_game_command_json_contract(tmp_path: Path) -> None:
    env = {"HANDSOLVER_CACHE_DIR": str(tmp_path / "cache")}
    data = _game_json(["--deck", "TJQKA", "--way", "foxwoods"], env)
    assert data["way"] == "foxwoods"
    assert data["pairs"] == math.comb(21, 7) * math.comb(14, 7)
    for part in ("house_way", "best"):
        counts = data[part]
        assert isinstance(counts, dict)
        assert counts["win"] + counts["push"] + counts["loss"] == data["pairs"]
        assert Fraction(counts["ev"]) == Fraction(
            counts["win"] * 19 - counts["loss"] * 20, 20 * data["pairs"]
        )
    frequencies = data["frequencies"]
    assert isinstance(frequencies, dict) and list(frequencies) == list(CATEGORIES)
    assert sum(frequencies.values()) == math.comb(21, 7)
    expected = whole_game(FOXWOODS, Rules(), Deck((8, 9, 10, 11, 12)))
    assert data["best"]["win"] == expected.best.win  # type: ignore[index]


def test_resume_gives_the_same_counts(tmp_path: Path) -> None:
    from handsolver.solver.paigow.game_run import game_jobs, read_checkpoint, run_game

    deck = Deck((8, 9, 10, 11, 12))
    path = tmp_path / "game.jsonl"
    whole = run_game(TRUMP_PLAZA, Rules(), deck, checkpoint=path)
    lines = path.read_text().splitlines()
    assert len(lines) >= 3
    # Stopped after the first chunk, the second torn in half: resume counts the rest.
    path.write_text("\n".join(lines[:2]) + "\n" + lines[2][: len(lines[2]) // 2])
    resumed = run_game(TRUMP_PLAZA, Rules(), deck, checkpoint=path, resume=True)
    assert resumed == whole
    jobs = game_jobs(TRUMP_PLAZA, Rules(), deck)
    assert len(read_checkpoint(path, jobs)) == len(lines) - 1
    with pytest.raises(InputError, match="not for this game"):
        run_game(FOXWOODS, Rules(), deck, checkpoint=path, resume=True)


def test_resumed_progress_starts_where_the_checkpoint_ends(tmp_path: Path) -> None:
    """The progress bar of a resumed game counts the chunks read back as done: it is told the
    whole game's chunks and those already done, not only what is left."""
    from handsolver.solver.paigow.game_run import run_game

    deck = Deck((8, 9, 10, 11, 12))
    path = tmp_path / "game.jsonl"
    seen = []

    def record(items: object, total: int, done: int) -> object:
        seen.append((total, done))
        return items

    whole = run_game(TRUMP_PLAZA, Rules(), deck, checkpoint=path, progress=record)
    lines = path.read_text().splitlines()
    chunks = len(lines) - 1  # a header, then a line a chunk
    path.write_text("\n".join(lines[:2]) + "\n")  # stopped after the first chunk
    assert (
        run_game(TRUMP_PLAZA, Rules(), deck, checkpoint=path, resume=True, progress=record) == whole
    )
    assert seen == [(chunks, 0), (chunks, 1)]


def test_workers_give_the_same_counts() -> None:
    from handsolver.solver.paigow.game_run import run_game

    deck = Deck((9, 10, 11, 12))
    assert run_game(FOXWOODS, Rules(), deck, workers=2) == whole_game(FOXWOODS, Rules(), deck)


def test_disk_cache_rebuilds_bad_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from handsolver.solver.paigow.cache import cached_arrays

    monkeypatch.setenv("HANDSOLVER_CACHE_DIR", str(tmp_path))
    builds = []

    def build() -> dict[str, np.ndarray]:
        builds.append(1)
        return {"a": np.arange(1000, dtype=np.int64), "b": np.ones((3, 4), dtype=bool)}

    first = cached_arrays("t", {"k": 1}, build)
    again = cached_arrays("t", {"k": 1}, build)
    assert len(builds) == 1 and (again["a"] == first["a"]).all()
    (file,) = tmp_path.glob("t-*.npz")
    data = bytearray(file.read_bytes())
    data[len(data) // 2] ^= 0xFF  # corrupt
    file.write_bytes(bytes(data))
    assert (cached_arrays("t", {"k": 1}, build)["a"] == first["a"]).all()
    assert len(builds) == 2
    file.write_bytes(file.read_bytes()[:100])  # partial
    cached_arrays("t", {"k": 1}, build)
    assert len(builds) == 3
    other = cached_arrays("t", {"k": 2}, build)  # another key: another file
    assert len(builds) == 4 and len(list(tmp_path.glob("t-*.npz"))) == 2
    # A foreign file under the right name is refused.
    np.savez(file, a=np.zeros(3))
    cached_arrays("t", {"k": 1}, build)
    assert len(builds) == 5 and (other["b"]).all()


@pytest.mark.parametrize("where", ["a file as the folder", "a file above the folder"])
def test_unusable_cache_folder_only_costs_speed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """A cache folder that cannot be made: the tables are built and returned, never an error.
    A regular file in the folder's place blocks ``mkdir`` for every user, root included (a
    ``chmod`` would block nothing for root, and CI runs as root)."""
    from handsolver.solver.paigow.cache import cached_arrays

    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    folder = blocker if where == "a file as the folder" else blocker / "sub"
    monkeypatch.setenv("HANDSOLVER_CACHE_DIR", str(folder))
    builds = []

    def build() -> dict[str, np.ndarray]:
        builds.append(1)
        return {"a": np.arange(3)}

    for _ in range(2):
        assert list(cached_arrays("t", {"k": 1}, build)["a"]) == [0, 1, 2]
    assert len(builds) == 2  # nothing was kept: built again each time
    assert blocker.read_text() == "not a folder"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocker"]


def test_unwritable_cache_file_only_costs_speed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder is there but the file cannot be put in place (a folder holds its name, which
    no rename can replace, root or not): the tables are built, no temporary file is left."""
    from handsolver.solver.paigow import cache

    monkeypatch.setenv("HANDSOLVER_CACHE_DIR", str(tmp_path))
    key = {"k": 1}
    full_key = json.dumps({"name": "t", "version": cache.program_version(), **key}, sort_keys=True)
    tag = hashlib.sha256(full_key.encode()).hexdigest()[:20]
    (tmp_path / f"t-{tag}.npz").mkdir()
    got = cache.cached_arrays("t", key, lambda: {"a": np.arange(3)})
    assert list(got["a"]) == [0, 1, 2]
    assert [p.name for p in tmp_path.iterdir()] == [f"t-{tag}.npz"]


def test_game_on_a_dask_cluster_gives_the_same_counts(tmp_path: Path) -> None:
    with local_cluster() as address:
        env = {"HANDSOLVER_CACHE_DIR": str(tmp_path)}
        remote = _game_json(["--deck", "JQKA", "--scheduler", address], env)
    here = _game_json(["--deck", "JQKA"], env)
    assert remote == here
