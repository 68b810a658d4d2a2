"""``--plot FILE``: every picture is drawn, holds what the answer holds, and comes out the same
bytes twice; a bad suffix or a missing matplotlib is one line and exit 2 before any work.

Each command runs through the CLI with ``--plot``; the figure it saves is caught on its way to
the file (``figures.save`` is wrapped), so the checks read the bars, lines and labels back
from the figure object, and the SVG file's text from the file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner

pytest.importorskip("matplotlib")

from matplotlib.figure import Figure  # noqa: E402

from handsolver.solver.cli import app  # noqa: E402
from handsolver.solver.commands.paigow.plots import gains_by_type  # noqa: E402
from handsolver.solver.commands.plots import figures  # noqa: E402

runner = CliRunner()
HAND = "As Ks Qs Js Ts 9h 9d 9c 2h 2d 5c 6c 7d"
SETTING = "Ah Ad 3c|Kh Kd 4c 4d 8s|8c 8d 8h Jc Jd"
SVG = "{http://www.w3.org/2000/svg}"
HANG = 120  # a guard against a hang only


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[Figure]:
    """The figures the commands save, in order."""
    caught: list[Figure] = []
    real = figures.save

    def save(figure: Figure, path: Path) -> None:
        caught.append(figure)
        real(figure, path)

    monkeypatch.setattr(figures, "save", save)
    return caught


def run(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.stdout


def svg_texts(path: Path) -> list[str]:
    """The text of every <text> element of an SVG file (text stays text: svg.fonttype none)."""
    root = ET.parse(path).getroot()
    return ["".join(node.itertext()) for node in root.iter(f"{SVG}text")]


def bar_rects(ax: Any) -> list[Any]:
    return [patch for c in ax.containers for patch in getattr(c, "patches", [])]


def bar_container(ax: Any) -> Any:
    (bars,) = [c for c in ax.containers if hasattr(c, "patches")]
    return bars


def labels_of(ax: Any, which: str = "y") -> list[str]:
    ticks = ax.get_yticklabels() if which == "y" else ax.get_xticklabels()
    return [tick.get_text() for tick in ticks]


# --- one test per picture ----------------------------------------------------------------------


def test_big2_stats_every_bin_shares_and_the_mean(drawn: list[Figure], tmp_path: Path) -> None:
    picture, table = tmp_path / "fewest.svg", tmp_path / "fewest.csv"
    args = ["big2", "stats", "--deals", "12", "--seed", "1"]
    report = json.loads(run([*args, "--json", "--out", str(table), "--plot", str(picture)]))
    assert json.loads(run([*args, "--json"])) == report  # --plot changes no other output
    (figure,) = drawn
    (ax,) = figure.axes
    histogram = {int(plays): n for plays, n in report["histogram"].items()}
    counts = list(range(min(histogram), max(histogram) + 1))
    assert 0 in histogram.values()  # this seed leaves a bin empty: it is drawn all the same
    bars = bar_rects(ax)
    assert [round(bar.get_x() + bar.get_width() / 2) for bar in bars] == counts
    assert [bar.get_height() for bar in bars] == [histogram[p] / 12 for p in counts]
    (mean_line,) = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
    assert mean_line.get_xdata()[0] == pytest.approx(report["mean"])
    texts = svg_texts(picture)
    assert "Fewest plays over 12 random 13-card hands (seed 1; seed rules)" in texts
    assert "share of hands (%)" in texts and "0.0%" in texts
    assert any("(plays)" in text for text in texts)
    assert table.read_text().count("\n") == len(counts) + 1


def test_big2_stats_text_histogram_has_no_gaps() -> None:
    out = run(["big2", "stats", "--deals", "12", "--seed", "1"])
    bars = [line for line in out.splitlines() if " | " in line]
    plays = [int(line.split("|")[0]) for line in bars]
    assert plays == list(range(plays[0], plays[-1] + 1))
    assert "  6 | 0" in bars  # an empty bin: no bar, its count


def test_paigow_settings_stacked_bars(drawn: list[Figure], tmp_path: Path) -> None:
    picture = tmp_path / "settings.svg"
    hand, dealer = "As Ah Kd Qc 9s 5h 2d", "2c 3c 4d 8h 9h Jc Kh"
    report = json.loads(
        run(["paigow", "settings", hand, "--vs-dealer", dealer, "--json", "--plot", str(picture)])
    )
    (figure,) = drawn
    ax = figure.axes[0]
    settings = report["settings"]
    win, push, loss = ax.containers
    assert len(win.patches) == len(push.patches) == len(loss.patches) == len(settings)
    for item, w, p, lo in zip(settings, win.patches, push.patches, loss.patches, strict=True):
        assert w.get_width() == pytest.approx(float(Fraction(item["win"])))
        assert p.get_width() == pytest.approx(float(Fraction(item["push"])))
        assert lo.get_x() + lo.get_width() == pytest.approx(1.0)
    assert loss.patches[0].get_hatch() and not win.patches[0].get_hatch()  # greyscale-safe
    labels = labels_of(ax)
    assert labels == [f"{' '.join(s['high'])} | {' '.join(s['low'])}" for s in settings]
    notes = [text.get_text() for text in ax.texts]
    assert len(notes) == len(settings)
    assert sum("best" in note for note in notes) == 1
    assert sum("house way" in note for note in notes) == 1
    way = next(i for i, s in enumerate(settings) if s["house_way"])
    assert "house way" in notes[way] and f"{settings[way]['ev_percent']:+.3f}%" in notes[way]
    assert any(text.startswith(hand) and "dealer hand" in text for text in svg_texts(picture))


def test_paigow_study_gain_by_hand_type(drawn: list[Figure], tmp_path: Path) -> None:
    picture = tmp_path / "study.png"
    out = run(["paigow", "study", "--hands", "6", "--seed", "2", "--plot", str(picture)])
    assert out.startswith("6 hands") and picture.read_bytes().startswith(b"\x89PNG")
    (figure,) = drawn
    ax = figure.axes[0]
    labels = labels_of(ax)
    assert sum(int(label.rsplit("(", 1)[1].rstrip(")")) for label in labels) == 6
    assert len(bar_rects(ax)) == len(labels)
    assert "6 hands (seed 2)" in ax.get_title()


def test_gains_by_type_is_reusable() -> None:
    """The function the whole-game command shares: rows of (hand type, gain) in any order."""
    rows = [("one pair", 0.0), ("no pair", 0.01), ("one pair", 0.02), ("no pair", 0.03)]
    grouped = gains_by_type(rows)
    assert [(t.hand_type, t.hands) for t in grouped] == [("no pair", 2), ("one pair", 2)]
    assert grouped[0].mean == pytest.approx(0.02)
    assert grouped[0].standard_error == pytest.approx(0.01)
    from handsolver.solver.commands.paigow.plots import gain_by_type_figure

    ax = gain_by_type_figure(rows, "a title").axes[0]
    assert [bar.get_width() for bar in bar_rects(ax)] == pytest.approx([2.0, 1.0])  # percent
    assert labels_of(ax) == ["no pair (2)", "one pair (2)"]


@pytest.mark.parametrize("command", [["strategy", "--vs", "sorted"], ["equilibrium"]])
def test_sixcard_strategy_heat_map(command: list[str], drawn: list[Figure], tmp_path: Path) -> None:
    picture = tmp_path / "strategy.pdf"
    report = json.loads(run(["sixcard", *command, "--json", "--plot", str(picture)]))
    assert picture.read_bytes().startswith(b"%PDF")
    (figure,) = drawn
    ax = figure.axes[0]
    (image,) = ax.get_images()
    grid = image.get_array()
    table = report["table"]
    assert grid.shape[0] == len(table) == len(labels_of(ax)) == 68
    for row, (hand, plays) in zip(grid, table.items(), strict=True):
        assert row.sum() == pytest.approx(1.0)  # a distribution over the hand's own splits
        assert int((row > 0).sum()) == (1 if isinstance(plays, str) else len(plays)), hand
    (right,) = ax.child_axes  # the splits played, written at the right
    notes = [tick.get_text() for tick in right.get_yticklabels()]
    assert len(notes) == 68 and all(notes)
    if command == ["equilibrium"]:
        mixed = [note for note in notes if "%" in note]
        assert len(mixed) == len(report["mixed_hands"]) == 13


def test_sixcard_simulate_against_the_exact_value(drawn: list[Figure], tmp_path: Path) -> None:
    picture = tmp_path / "simulate.svg"
    args = ["sixcard", "simulate", "sorted", "random", "--rounds", "25000", "--seed", "3"]
    report = json.loads(run([*args, "--json", "--plot", str(picture)]))
    (figure,) = drawn
    ax = figure.axes[0]
    exact = float(Fraction(report["exact"]))
    exact_line, simulated = ax.get_lines()
    assert exact_line.get_ydata()[0] == pytest.approx(exact)
    rounds = list(simulated.get_xdata())
    assert rounds == [100, 200, 500, 1000, 2000, 5000, 10000, 20000, 25000]
    assert simulated.get_ydata()[-1] == pytest.approx(report["mean"])
    assert ax.get_xscale() == "log"
    assert "sorted against random: 25,000 rounds, seed 3" in svg_texts(picture)


def test_chinese_settings_points_with_errors(drawn: list[Figure], tmp_path: Path) -> None:
    sampled = ["--vs", "greedy", "--samples", "60", "--seed", "1", "--top", "7"]
    report = json.loads(
        run(["chinese", "settings", HAND, *sampled, "--json", "--plot", str(tmp_path / "s.svg")])
    )
    exact = ["--vs-setting", SETTING, "--top", "5"]
    run(["chinese", "settings", HAND, *exact, "--plot", str(tmp_path / "e.svg")])
    with_errors, without = (figure.axes[0] for figure in drawn)
    ((dots, _, (whiskers,)),) = with_errors.containers  # an errorbar: points, caps, bars
    assert list(dots.get_xdata()) == pytest.approx([s["mean"] for s in report["settings"]])
    assert list(dots.get_ydata()) == list(range(7))
    assert len(whiskers.get_segments()) == 7
    first = report["settings"][0]
    assert labels_of(with_errors)[0] == " | ".join(
        " ".join(first[row]) for row in ("front", "middle", "back")
    )
    assert with_errors.texts[0].get_text() == f"{first['mean']:+.4f} ± {first['stderr']:.4f}"
    ((dots, _, bars),) = without.containers
    assert len(dots.get_xdata()) == 5 and bars == ()  # exact points: no whiskers
    assert "points per deal (exact)" == without.get_xlabel()
    assert any(HAND in text for text in svg_texts(tmp_path / "e.svg"))


def test_chinese_study_gain_distribution(drawn: list[Figure], tmp_path: Path) -> None:
    args = ["chinese", "study", "--hands", "12", "--samples", "20", "--seed", "4"]
    report = json.loads(run([*args, "--json", "--plot", str(tmp_path / "gain.svg")]))
    (figure,) = drawn
    ax = figure.axes[0]
    filled = ax.patches[0]  # the stairs, filled: shares of the hands
    heights = filled.get_data().values
    assert heights.sum() == pytest.approx(1.0)
    (mean_line,) = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
    assert mean_line.get_xdata()[0] == pytest.approx(report["mean_gain"], abs=1e-6)
    assert "share of the 12 hands (%)" == ax.get_ylabel()


def test_ofc_study_royalties_by_size_and_the_values(drawn: list[Figure], tmp_path: Path) -> None:
    args = ["ofc", "study", "--hands", "8", "--size-hands", "4", "--seed", "2"]
    report = json.loads(run([*args, "--json", "--plot", str(tmp_path / "ofc.svg")]))
    (figure,) = drawn
    shares, values = figure.axes
    for stairs in shares.patches:  # one step line a size: shares of its hands
        assert stairs.get_data().values.sum() == pytest.approx(1.0)
    assert len(shares.patches) == 4
    (points,) = [line for line in values.get_lines() if line.get_marker() == "o"]
    expected = [item["value"] for item in report["sizes"]]
    assert list(points.get_ydata()) == pytest.approx(expected, abs=1e-6)


# --- determinism and formats -------------------------------------------------------------------


@pytest.mark.parametrize("suffix", ["svg", "png", "pdf", "SVG"])
def test_same_input_same_bytes(suffix: str, tmp_path: Path) -> None:
    """Rendered twice, in two runs of the command, the files are equal byte for byte; no date,
    no matplotlib version, and SVG ids from the fixed salt."""
    args = ["paigow", "settings", "As Ah Kd Qc 9s 5h 2d", "--vs-setting", "Kh Kc 7c 7s 3c|Jh 4d"]
    first, second = tmp_path / f"a.{suffix}", tmp_path / f"b.{suffix}"
    run([*args, "--plot", str(first)])
    run([*args, "--plot", str(second)])
    data = first.read_bytes()
    assert data == second.read_bytes()
    magic = {"svg": b"<?xml", "png": b"\x89PNG", "pdf": b"%PDF"}[suffix.lower()]
    assert data.startswith(magic)
    for stamp in (b"Matplotlib v", b"matplotlib.org", b"CreationDate", b"<dc:date>", b"Software"):
        assert stamp not in data, stamp


def test_a_figure_saved_twice_is_the_same(tmp_path: Path) -> None:
    from handsolver.solver.commands.big2.plots import fewest_plays_figure

    figure = fewest_plays_figure({"seed": {4: 2, 6: 1}}, "t")
    for fmt in ("svg", "png", "pdf"):
        assert figures.picture_bytes(figure, fmt) == figures.picture_bytes(
            fewest_plays_figure({"seed": {4: 2, 6: 1}}, "t"), fmt
        )


def test_big2_stats_profiles_side_by_side(drawn: list[Figure], tmp_path: Path) -> None:
    args = ["big2", "stats", "--deals", "30", "--seed", "2", "--rules", "seed", "--rules", "taiwan"]
    report = json.loads(run([*args, "--json", "--plot", str(tmp_path / "rules.svg")]))
    ax = drawn[0].axes[0]
    seed_bars, taiwan_bars = (c for c in ax.containers if hasattr(c, "patches"))
    seen = {int(p) for profile in report["profiles"] for p in profile["histogram"]}
    counts = range(min(seen), max(seen) + 1)
    assert len(seed_bars.patches) == len(taiwan_bars.patches) == len(counts)
    for profile, bars in zip(report["profiles"], (seed_bars, taiwan_bars), strict=True):
        heights = [bar.get_height() * 30 for bar in bars.patches]
        assert heights == pytest.approx([profile["histogram"].get(str(p), 0) for p in counts])
    assert seed_bars.patches[0].get_hatch() != taiwan_bars.patches[0].get_hatch()  # greyscale
    means = sorted(line.get_xdata()[0] for line in ax.get_lines())
    assert means == pytest.approx(sorted(p["mean"] for p in report["profiles"]))


def test_pictures_stay_small(tmp_path: Path) -> None:
    """The largest picture, the heat map of 68 hands, stays a few tens of KB as SVG."""
    picture = tmp_path / "equilibrium.svg"
    run(["sixcard", "equilibrium", "--plot", str(picture)])
    assert picture.stat().st_size < 80_000


# --- refusals before any work ------------------------------------------------------------------


def _plot_commands() -> Iterator[tuple[str, ...]]:
    root = get_command(app)
    ctx = root.make_context("handsolver", ["--help"], resilient_parsing=True)

    def walk(path: tuple[str, ...], command: Any) -> Iterator[tuple[str, ...]]:
        if hasattr(command, "commands"):
            for name in command.list_commands(ctx):
                yield from walk((*path, name), command.get_command(ctx, name))
        elif any("--plot" in getattr(p, "opts", ()) for p in command.params):
            yield path

    yield from walk((), root)


PLOT_COMMANDS = sorted(_plot_commands())
# Arguments that would start long work: a refusal must come first, so these tests end at once
# (if the check came after the work, they would run for hours and the guard would stop them).
LONG = {
    ("big2", "stats"): ["--deals", "10000000"],
    ("big2", "tournament"): ["--strategies", "advise,advise", "--deals", "1000000"],
    ("chinese", "settings"): [HAND, "--vs", "greedy", "--samples", "10000000"],
    ("chinese", "study"): ["--hands", "1000000"],
    ("ofc", "match"): ["--players", "player,player", "--deals", "1000000"],
    ("ofc", "study"): ["--hands", "1000000"],
    ("paigow", "game"): ["--way", "foxwoods"],
    ("paigow", "settings"): ["As Ah Kd Qc 9s 5h 2d"],
    ("paigow", "study"): ["--hands", "1000000"],
    ("sixcard", "equilibrium"): [],
    ("sixcard", "simulate"): ["equilibrium", "random", "--rounds", "1000000000"],
    ("sixcard", "strategy"): ["--vs", "random"],
}


def test_the_plot_commands_are_the_issues() -> None:
    assert PLOT_COMMANDS == sorted(LONG)


def assert_one_line(args: list[str], names: str) -> None:
    result = runner.invoke(app, args)
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ") and names in line, line


@pytest.mark.parametrize("path", PLOT_COMMANDS, ids=" ".join)
def test_a_bad_suffix_is_refused_first(path: tuple[str, ...], tmp_path: Path) -> None:
    for name in ["chart.jpg", "chart", "chart.svg.txt", ".svg"]:
        given = str(tmp_path / name)
        assert_one_line([*path, *LONG[path], "--plot", given], f"{given}': the picture's format")
    for given in ["", str(tmp_path), str(tmp_path / "no" / "x.svg")]:
        assert_one_line([*path, *LONG[path], "--plot", given], repr(given))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("path", PLOT_COMMANDS, ids=" ".join)
def test_without_matplotlib_it_says_how_to_install(
    path: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed: import fails
    args = [*path, *LONG[path], "--plot", str(tmp_path / "x.svg")]
    assert_one_line(args, "--plot needs matplotlib, which is not installed: pip install")
    assert "pip install 'handsolver[plot]'" in runner.invoke(app, args).stderr
    assert list(tmp_path.iterdir()) == []


def test_without_matplotlib_in_a_real_process(tmp_path: Path) -> None:
    hide = "import sys; sys.modules['matplotlib'] = None; sys.argv[0] = 'handsolver'; "
    main = "from handsolver.solver.__main__ import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", hide + main, "big2", "stats", "--deals", "10000000", "--plot",
         "x.png"],
        capture_output=True, text=True, timeout=HANG, cwd=tmp_path,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "error: Invalid value for '--plot': --plot needs matplotlib, which is not installed: "
        "pip install 'handsolver[plot]' (see 'handsolver big2 stats --help')\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_picture_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    args = ["big2", "stats", "--deals", "3"]
    full = tmp_path / "full.svg"
    full.symlink_to("/dev/full")  # a picture written through a link, onto a full disk
    assert_one_line([*args, "--plot", str(full)], "No space left on device")
    full.unlink()
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("running as a user who can write anywhere")
        assert_one_line([*args, "--plot", str(folder / "x.svg")], "Permission denied")
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o700)


def test_the_picture_is_written_atomically_with_the_umask(tmp_path: Path) -> None:
    picture = tmp_path / "fewest.png"
    old = os.umask(0o027)
    try:
        run(["big2", "stats", "--deals", "3", "--plot", str(picture)])
    finally:
        os.umask(old)
    assert picture.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["fewest.png"]  # no temporary file left


def test_matplotlib_loads_only_for_a_picture(tmp_path: Path) -> None:
    """Start-up does not pay for pictures: a command given no --plot never imports matplotlib,
    and checking a --plot path does not either (only drawing does)."""
    probe = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from handsolver.solver.cli import app\n"
        "r = CliRunner().invoke(app, sys.argv[1:])\n"
        "print(r.exit_code, 'matplotlib' in sys.modules)\n"
    )
    plain = ["big2", "stats", "--deals", "2"]
    refused = [*plain, "--plot", "x.gif"]
    drawn = [*plain, "--plot", "x.svg"]
    seen = [
        subprocess.run(
            [sys.executable, "-c", probe, *args],
            capture_output=True,
            text=True,
            timeout=HANG,
            cwd=tmp_path,
        ).stdout.split()  # fmt: skip
        for args in (plain, refused, drawn)
    ]
    assert seen == [["0", "False"], ["2", "False"], ["0", "True"]]


def test_chinese_settings_draws_with_cp_sat_too(drawn: list[Figure], tmp_path: Path) -> None:
    args = ["chinese", "settings", HAND, "--vs-setting", SETTING, "--engine", "cp-sat"]
    run([*args, "--top", "4", "--plot", str(tmp_path / "c.png")])
    ((dots, _, _),) = drawn[0].axes[0].containers
    assert len(dots.get_xdata()) == 4


def test_one_hand_has_no_standard_error(drawn: list[Figure], tmp_path: Path) -> None:
    run(["chinese", "study", "--hands", "1", "--samples", "10", "--plot", str(tmp_path / "g.svg")])
    (label,) = [text.get_text() for text in drawn[0].axes[0].get_legend().get_texts()]
    assert label.startswith("mean ") and "nan" not in label and "s.e." not in label


def test_paigow_game_exact_gain_by_hand_type(drawn: list[Figure], tmp_path: Path) -> None:
    picture = tmp_path / "game.svg"
    out = run(["paigow", "game", "--deck", "JQKA", "--json", "--plot", str(picture)])
    types = [t for t in json.loads(out)["hand_types"] if t["hands"]]
    (figure,) = drawn
    ax = figure.axes[0]
    assert len(bar_rects(ax)) == len(types) == len(labels_of(ax))
    heights = sorted(round(rect.get_width(), 9) for rect in bar_rects(ax))
    exact = sorted(round(float(Fraction(t["gain"])) * 100, 9) for t in types)
    assert heights == exact
    assert "deck JQKA+JK" in " ".join(ax.get_title().split())
    assert picture.read_bytes().startswith(b"<?xml")


def test_the_picture_ignores_the_users_matplotlib_setup(tmp_path: Path) -> None:
    """A bogus backend, a home that cannot be written and the user's own matplotlibrc (in the
    folder and named by MATPLOTLIBRC) change nothing: the same bytes, nothing on stderr."""
    args = ["big2", "stats", "--deals", "3", "--plot"]
    command = [sys.executable, "-m", "handsolver.solver", *args]
    clean = tmp_path / "clean"
    clean.mkdir()
    plain = subprocess.run(
        [*command, "clean.svg"], capture_output=True, text=True, timeout=HANG, cwd=clean
    )
    assert plain.returncode == 0, plain.stderr
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / "matplotlibrc").write_text("lines.linewidth: 9\nfont.size: 30\naxes.facecolor: red\n")
    (tmp_path / "rc").write_text("patch.facecolor: blue\nsvg.fonttype: path\n")
    env = {
        **os.environ,
        "MPLBACKEND": "bogus",
        "HOME": "/proc/no-home",
        "MATPLOTLIBRC": str(tmp_path / "rc"),
    }
    env.pop("MPLCONFIGDIR", None)
    env.pop("XDG_CONFIG_HOME", None)
    env.pop("XDG_CACHE_HOME", None)
    done = subprocess.run(
        [*command, "odd.svg"], capture_output=True, text=True, timeout=HANG, cwd=odd, env=env
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == plain.stdout
    assert (odd / "odd.svg").read_bytes() == (clean / "clean.svg").read_bytes()
