"""scripts/paigow_reading_delta.py: the change of the whole game's counts from the hands a
reading sets differently equals the difference of two whole games, on reduced decks."""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from handsolver.models.paigow import Rules
from handsolver.models.paigow_houseway import FOXWOODS, HouseWay
from handsolver.solver.paigow import game
from handsolver.solver.paigow.game import whole_game
from handsolver.solver.paigow.hand_types import Deck

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "paigow_reading_delta.py"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))  # the script imports its catalogue of readings
    spec = importlib.util.spec_from_file_location("paigow_reading_delta", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def counts(way: HouseWay, deck: Deck) -> tuple[int, int, int]:
    result = whole_game(way, Rules(), deck).house_way
    return result.win, result.push, result.loss


def difference(old: HouseWay, new: HouseWay, deck: Deck) -> tuple[int, int, int]:
    before, after = counts(old, deck), counts(new, deck)
    return (after[0] - before[0], after[1] - before[1], after[2] - before[2])


def _test_id(value: object) -> str:
    """A test's name, the same in every process (a set's order follows the hash seed, and the
    test processes must agree on the names)."""
    if isinstance(value, dict):
        return str({key: sorted(v) if isinstance(v, frozenset) else v for key, v in value.items()})
    return str(value)


@pytest.mark.parametrize(
    ("ranks", "change"),
    [
        ((0, 1, 2, 11, 12), {"split_three_aces": False}),  # 1,012 hands set otherwise
        pytest.param((7, 8, 9, 10, 11, 12), {"pair_ace_low": None}, marks=pytest.mark.slow),
        pytest.param(
            (7, 8, 9, 10, 11, 12), {"pair_straight_by_cards": True}, marks=pytest.mark.slow
        ),
        pytest.param(
            (0, 1, 2, 3, 11, 12), {"full_house_keep": frozenset({"2", "3"})}, marks=pytest.mark.slow
        ),
    ],
    ids=_test_id,
)
def test_house_way_fields(script: ModuleType, ranks: tuple[int, ...], change: dict) -> None:
    deck = Deck(ranks)
    new = dataclasses.replace(FOXWOODS, name=f"test {change}", **change)
    found = script.delta(FOXWOODS, new, Rules(), deck)
    assert found.hands > 0
    assert found[1:] == difference(FOXWOODS, new, deck)


@pytest.mark.parametrize(
    ("ranks", "name"),
    [
        ((9, 10, 11, 12), "quads J-A with trips: split the quads"),
        ((5, 6, 7, 8), "two pair: the joker is no ace single"),
        *(
            pytest.param((7, 8, 9, 10, 11, 12), name, marks=pytest.mark.slow)
            for name in (
                "straight or flush with equal low hands: the weaker high hand",
                "three aces made with the joker: no straight or flush",
                "a straight flush first, then the highest low hand",
                "two pair with a straight flush: the straight flush",
            )
        ),
    ],
)
def test_readings_patched_in(
    script: ModuleType, ranks: tuple[int, ...], name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reading that is not a HouseWay field: its tables are built with the rule patched in,
    and the whole game (whose own choice goes through the script's hook here) agrees."""
    deck = Deck(ranks)
    base, reading = next((b, r) for b, r in script.readings() if r.name == name)
    found = script.measure(base, reading, deck)
    assert found.hands > 0
    way = script.prepared(reading)
    monkeypatch.setattr(game, "pick", script._pick)
    assert found[1:] == difference(base, way, deck)
