"""A royalty table written back as a royalty file says it: the table in use, shown.

:func:`royalty_entries` is the inverse of :func:`handsolver.models.chinese.parse_royalties`:
for each row, a hand category with the points most of its ranks earn, and a ``"category RANK"``
entry for each rank that earns otherwise; nothing for what earns 0.  Parsed again, the entries
give the same table (``ofc royalties --json`` is a royalty file).

>>> from handsolver.models.ofc import ROW_NAMES, parse_ofc_royalties
>>> table = parse_ofc_royalties('{"top": {"pair Q": 7, "three of a kind": 10}}')
>>> royalty_entries(table, ROW_NAMES)
{'bottom': {}, 'middle': {}, 'top': {'pair Q': 7, 'three of a kind': 10}}
"""

from __future__ import annotations

from collections import Counter

from handsolver.models.cards import RANKS
from handsolver.models.chinese import Royalties, _category_name, _main_rank


def royalty_entries(table: Royalties, row_names: tuple[str, str, str]) -> dict[str, dict[str, int]]:
    """The entries of a royalty file that give ``table``, by row (``row_names`` in the order
    back, middle, front, as the file names them), categories from the weakest, each category's
    rank entries from the lowest rank."""
    rows = (table.back, table.middle, table.front)
    entries: dict[str, dict[str, int]] = {}
    for row, name in enumerate(row_names):
        by_category: dict[str, dict[int, int]] = {}
        for key, points in enumerate(rows[row]):
            by_category.setdefault(_category_name(row, key), {})[_main_rank(row, key)] = points
        written: dict[str, int] = {}
        for category, ranks in by_category.items():
            common = _most_common(list(ranks.values()))
            if common:
                written[category] = common
            for rank, points in sorted(ranks.items()):
                if points != common:
                    written[f"{category} {RANKS[rank]}"] = points
        entries[name] = written
    return entries


def _most_common(points: list[int]) -> int:
    """The points most ranks of a category earn (0 where that ties, and where no two ranks
    agree, so that every rank is then written)."""
    counts = Counter(points)
    most = max(counts.values())
    if most == 1 or counts[0] == most:
        return 0
    return next(value for value in points if counts[value] == most)
