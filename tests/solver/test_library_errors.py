"""Library errors speak of the game, not of the command line: no option's name in them; the
part of the input an error is about is given (``InputError.about``) so that a command can name
its own option, which the commands do."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from typer.testing import CliRunner

from handsolver.models.big2 import Play, make_rules
from handsolver.models.cards import InputError, mask_of, parse_cards
from handsolver.solver.big2.game.positions import Position, check_position
from handsolver.solver.big2.table.advise import advise
from handsolver.solver.big2.table.sampling import consistent_deals, unseen_cards
from handsolver.solver.big2.table.views import TableView
from handsolver.solver.cli import app
from handsolver.solver.ofc import solve_fantasyland


def cards(text: str) -> int:
    return mask_of(parse_cards(text))


HAND = cards("3d 4d")
THREE = (cards("3c"), cards("4c"), cards("6c"))
CASES: list[tuple[Callable[[], object], str | None]] = [
    (lambda: consistent_deals(cards("3c 4c"), (-1,)), "counts"),
    (lambda: consistent_deals(cards("3c 4c"), (3,)), "counts"),
    (lambda: unseen_cards(HAND, cards("4d 5h")), "played"),
    (lambda: check_position(Position(THREE[:2], 0, Play.from_text("5c"), 0)), "by"),
    (lambda: check_position(Position(THREE, 0, Play.from_text("5c"), 1, frozenset({2}))), "passed"),
    (
        lambda: check_position(
            Position(THREE, 0, None, None, frozenset({2})), make_rules("seed", pass_final=True)
        ),
        "passed",
    ),
    (lambda: make_rules("taiwan", flush_order="suit"), "flush_order"),
    (lambda: make_rules("seed", straights="bent"), "straights"),
    (lambda: make_rules("seed", suit_order="shc"), "suit_order"),
    (lambda: solve_fantasyland(parse_cards("Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h"), top=0), None),
    (
        lambda: advise(TableView(0, HAND, (2, 3, 0), 0, (), None, None, frozenset(), False)),
        "counts",
    ),
    (
        lambda: advise(TableView(0, HAND, (2, 3), cards("5c"), (), None, None, frozenset(), True)),
        "start",
    ),
]


@pytest.mark.parametrize(("call", "about"), CASES)
def test_library_errors_name_no_option(call: Callable[[], object], about: str | None) -> None:
    with pytest.raises(InputError) as caught:
        call()
    assert "--" not in str(caught.value), caught.value
    assert caught.value.about == about


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["big2", "advise", "3d 4d", "--counts", "3", "--played", "4d 5h"], "--played: "),
        (["big2", "advise", "3d 4d", "--counts", "3,0"], "--counts: "),
        (["big2", "advise", "3d 4d", "--counts", "3", "--start", "--played", "5c"], "--start: "),
        (["big2", "game", "3d", "4c", "--beat", "5c", "--by", "1"], "--by: "),
        (["big2", "game", "3d", "4c", "6h", "--passed", "2", "--pass-final"], "--passed: "),
        (["big2", "--rules", "taiwan", "--flush-order", "suit", "3d"], "--flush-order: "),
    ],
)
def test_the_commands_name_the_option(args: list[str], option: str) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {option}"), result.stderr
    assert result.stderr.count("\n") == 1
