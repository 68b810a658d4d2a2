"""``ofc royalties``: the table in use written back as a royalty file gives the same table, the
shipped example is one ``--royalties`` takes, and the command shows what the rules pay."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from handsolver.models.cards import RANKS
from handsolver.models.chinese import CATEGORY_NAMES, FRONT_CATEGORIES
from handsolver.models.ofc import ROW_NAMES, default_royalties, parse_ofc_royalties
from handsolver.models.royalty_tables import royalty_entries

from .test_bad_input import assert_one_error, invoke

runner = CliRunner()
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "ofc_royalties.json"
HAND14 = "Ac Ad Ah Kc Kd Qs Js Ts 9s 8s 7c 7d 3h 2c"


def _hands(categories: tuple[str, ...]) -> st.SearchStrategy[str]:
    plain = st.sampled_from(categories)
    ranked = st.tuples(plain, st.sampled_from(RANKS)).map(" ".join)
    return plain | ranked


TABLES = st.fixed_dictionaries(
    {
        "top": st.dictionaries(_hands(FRONT_CATEGORIES), st.integers(-30, 30), max_size=8),
        "middle": st.dictionaries(_hands(CATEGORY_NAMES), st.integers(-30, 30), max_size=8),
        "bottom": st.dictionaries(_hands(CATEGORY_NAMES), st.integers(-30, 30), max_size=8),
    }
)


@settings(max_examples=40)
@given(TABLES)
def test_a_table_written_back_reads_as_the_same_table(entries: dict[str, dict[str, int]]) -> None:
    table = parse_ofc_royalties(json.dumps(entries))
    written = royalty_entries(table, ROW_NAMES)
    assert parse_ofc_royalties(json.dumps(written)) == table
    for row in written.values():  # 0 is written only for a rank whose category earns otherwise
        zeros = [hand for hand, points in row.items() if points == 0]
        assert all(hand.rsplit(" ", 1)[0] in row for hand in zeros)


def test_the_common_table_is_written_as_its_file() -> None:
    from handsolver.models.ofc import DEFAULT_ROYALTIES

    assert royalty_entries(default_royalties(), ROW_NAMES) == json.loads(DEFAULT_ROYALTIES)


def test_the_json_table_is_a_royalty_file(tmp_path: Path) -> None:
    code, out, err = invoke(["ofc", "royalties", "--royalties", str(EXAMPLE), "--json"])
    assert code == 0, err
    answer = json.loads(out)
    assert parse_ofc_royalties(json.dumps(answer["table"])) == parse_ofc_royalties(
        EXAMPLE.read_text()
    )
    assert answer["most"] == {"top": 15, "middle": 50, "bottom": 30, "board": 95}
    assert (answer["fantasy"], answer["stay"]) == ("progressive", "standard")


def test_the_common_table_is_shown_with_its_bound() -> None:
    code, out, err = invoke(["ofc", "royalties"])
    assert code == 0, err
    assert "royalties: the common table" in out
    assert "no board earns more than 97 (the most of each row: 22 top, 50 middle, 25 bottom)" in out
    lines = [line.split() for line in out.splitlines()]
    assert ["top", "pair", "6", "1"] in lines and ["bottom", "straight", "2"] in lines


def test_the_rules_switches_are_shown() -> None:
    code, out, _ = invoke(["ofc", "royalties", "--stay-rule", "no-middle", "--fantasy", "flat"])
    assert code == 0
    assert "fantasyland (flat)" in out and "staying (no-middle)" in out
    assert_one_error(*invoke(["ofc", "royalties", "--stay-rule", "never"]), names="never")


def test_the_example_is_a_table_every_ofc_command_takes() -> None:
    args = ["ofc", "fantasyland", HAND14, "--royalties", str(EXAMPLE), "--top", "1", "--json"]
    code, out, err = invoke(args)
    assert code == 0, err
    (best,) = json.loads(out)["settings"]
    assert best["royalties"]["total"] == sum(
        best["royalties"][row] for row in ("top", "middle", "bottom")
    )


def test_a_bad_table_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "royalties.json"
    bad.write_text('{"top": {"straight": 2}}')
    assert_one_error(*invoke(["ofc", "royalties", "--royalties", str(bad)]), names="straight")
    assert_one_error(*invoke(["ofc", "royalties", "--royalties", str(tmp_path / "none.json")]))
