"""Strategies named on the command line: the built-in names, ``best-response:X`` and strategy
tables read from (and written to) CSV or JSON files, bounded in size, nesting and exactness.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

from handsolver.models.cards import InputError
from handsolver.models.numbers import parse_fraction
from handsolver.models.sixcard import format_hand, format_split, parse_hand, parse_split, split_hand
from handsolver.solver.sixcard.equilibrium_lp import equilibrium
from handsolver.solver.sixcard.game_tables import Tables, tables
from handsolver.solver.sixcard.strategies import (
    Strategy,
    checked_strategy,
    random_strategy,
    sorted_strategy,
)
from handsolver.solver.sixcard.values import best_response
from handsolver.solver.text_files import utf8_text

# Limits on what a strategy spec or table file may ask for (listed in docs/cli.md).
MAX_NESTING = 8  # best-response:best-response:... levels
MAX_TABLE_BYTES = 1 << 20  # a table file's size


def strategy_from_spec(spec: str, t: Tables | None = None) -> Strategy:
    """``random``, ``sorted``, ``equilibrium``, ``best-response:X`` or a CSV/JSON table file.

    >>> strategy_from_spec("best-response:sorted").name
    'best-response:sorted'
    >>> strategy_from_spec("bogus")
    Traceback (most recent call last):
    ...
    handsolver.models.cards.InputError: unknown strategy 'bogus'; use random, sorted, equilibrium, \
best-response:X or a .csv/.json table file
    """
    t = t or tables()
    name = spec.strip()
    depth = 0
    while name.startswith("best-response:"):
        name = name.removeprefix("best-response:").strip()
        depth += 1
        if depth > MAX_NESTING:
            raise InputError(f"best-response: is nested more than {MAX_NESTING} deep")
    strategy = _base_strategy(name, t)
    for _ in range(depth):
        strategy = best_response(t, strategy).strategy
    return strategy


def _base_strategy(name: str, t: Tables) -> Strategy:
    if name == "random":
        return random_strategy(t)
    if name == "sorted":
        return sorted_strategy(t)
    if name == "equilibrium":
        return equilibrium(t).strategy
    path = Path(name)
    if path.suffix.lower() in (".csv", ".json") or path.is_file():
        return read_table(path, t)
    shown = name if len(name) <= 60 else name[:45] + "..."
    raise InputError(
        f"unknown strategy {shown!r}; use random, sorted, equilibrium, best-response:X "
        "or a .csv/.json table file"
    )


def _probability(text: object, where: str) -> Fraction:
    """A probability written as a fraction or a decimal, in ASCII, of bounded size (so that
    ``1e-999999999`` is refused instead of computing a billion-digit denominator)."""
    try:
        value = parse_fraction(text, "probability")
    except InputError as error:
        raise InputError(f"{where}: {error}") from None
    if not 0 <= value <= 1:
        raise InputError(f"{where}: probability {str(text).strip()!r} is not between 0 and 1")
    return value


def _ascii(text: str, where: str) -> str:
    if not text.isascii():
        raise InputError(f"{where}: {text[:40]!r} is not plain ASCII")
    return text


def _table_strategy(t: Tables, name: str, rows: Iterable[tuple[str, str, str, object]]) -> Strategy:
    """A strategy from (where, hand, split, probability) rows, ``where`` naming the file and the
    line or hand of each row; every hand needs rows summing to 1."""
    dists: list[dict[int, Fraction]] = [{} for _ in t.hands]
    for place, hand_text, split_text, prob_text in rows:
        where = f"{place}: hand {hand_text[:40]!r}"
        try:
            hand = parse_hand(_ascii(hand_text, place), t.game)
            split = parse_split(_ascii(split_text, where), t.game)
        except InputError as error:
            message = str(error)
            raise InputError(
                message if message.startswith(name) else f"{where}: {message}"
            ) from None
        if split_hand(split) != hand:
            raise InputError(f"{where}: split {split_text!r} is not a split of this hand")
        s = t.split_index[split]
        dist = dists[t.hand_index[hand]]
        dist[s] = dist.get(s, Fraction(0)) + _probability(prob_text, where)
    for h, dist in enumerate(dists):
        hand_text = format_hand(t.hands[h], t.game)
        if not dist:
            raise InputError(f"{name}: no entry for hand {hand_text}")
        if sum(dist.values()) != 1:
            raise InputError(f"{name}: probabilities for hand {hand_text} do not sum to 1")
    return checked_strategy(t, name, dists)


def _table_text(path: Path) -> str:
    """The file's text: at most :data:`MAX_TABLE_BYTES`, UTF-8, a byte order mark dropped."""
    name = str(path)
    with path.open("rb") as handle:
        data = handle.read(MAX_TABLE_BYTES + 1)
    if len(data) > MAX_TABLE_BYTES:
        raise InputError(f"{name}: larger than {MAX_TABLE_BYTES:,} bytes; not a strategy table")
    return utf8_text(data, name)


def read_table(path: Path, t: Tables | None = None) -> Strategy:
    """A strategy table from a file; every hand of the game must have an entry.

    JSON: an object (or an object's ``"table"``) mapping each hand to a split, or to an object
    mapping splits to probabilities (numbers or fraction strings).  CSV: rows
    ``hand,split[,probability]`` (probability 1 when left out; a header row is allowed); several
    rows for one hand make a mixture.  Hands and splits are written as
    :mod:`~handsolver.models.sixcard` parses them, e.g. ``112234`` and ``234|12|1``.  Numbers
    are read exactly as written (``0.1`` is one tenth).

    :raises InputError: for a malformed file, an unknown hand or split, or a missing hand.
    """
    t = t or tables()
    text = _table_text(path)
    name = str(path)
    if path.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        try:
            # Numbers stay text so that they are read exactly and never overflow a float.
            data = json.loads(text, parse_float=str, parse_int=str)
        except json.JSONDecodeError as error:
            raise InputError(f"{name}: not JSON ({error.msg} at line {error.lineno})") from None
        except RecursionError:
            raise InputError(f"{name}: JSON nested too deeply for a strategy table") from None
        if isinstance(data, dict) and isinstance(data.get("table"), dict):
            data = data["table"]
        if not isinstance(data, dict):
            raise InputError(f"{name}: expected a JSON object mapping hands to splits")
        rows: list[tuple[str, str, str, object]] = []
        for hand_text, entry in data.items():
            if isinstance(entry, str):
                rows.append((name, hand_text, entry, 1))
            elif isinstance(entry, dict) and all(
                isinstance(prob, str | int) for prob in entry.values()
            ):
                rows.extend((name, hand_text, str(split), prob) for split, prob in entry.items())
            else:
                shown = json.dumps(entry)[:40]
                raise InputError(f"{name}: hand {hand_text[:40]!r} maps to {shown}, not a split")
        return _table_strategy(t, name, rows)
    csv_rows: list[tuple[str, str, str, object]] = []
    reader = csv.reader(io.StringIO(text))
    try:
        for row in reader:
            number = reader.line_num
            cells = [cell.strip() for cell in row]
            if not any(cells) or cells[0].startswith("#"):
                continue
            if number == 1 and cells[0].lower() == "hand":
                continue
            if len(cells) not in (2, 3):
                raise InputError(
                    f"{name}: line {number} has {len(cells)} fields; need hand,split[,p]"
                )
            where = f"{name}: line {number}"
            csv_rows.append((where, cells[0], cells[1], cells[2] if len(cells) == 3 else 1))
    except csv.Error as error:
        raise InputError(f"{name}: line {reader.line_num}: {error}") from None
    return _table_strategy(t, name, csv_rows)


def table_json(strategy: Strategy, t: Tables) -> dict[str, str | dict[str, str]]:
    """The strategy as JSON: hand -> split, or hand -> {split: probability} when it mixes."""
    out: dict[str, str | dict[str, str]] = {}
    for h, plays in enumerate(strategy.plays):
        hand = format_hand(t.hands[h], t.game)
        if len(plays) == 1:
            out[hand] = format_split(t.splits[plays[0][0]], t.game)
        else:
            out[hand] = {format_split(t.splits[s], t.game): str(p) for s, p in plays}
    return out


def table_csv(strategy: Strategy, t: Tables) -> str:
    """The strategy as CSV rows ``hand,split,probability`` with a header."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["hand", "split", "probability"])
    for h, plays in enumerate(strategy.plays):
        for s, p in plays:
            writer.writerow(
                [format_hand(t.hands[h], t.game), format_split(t.splits[s], t.game), str(p)]
            )
    return buffer.getvalue()
