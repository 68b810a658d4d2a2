"""Small text files read whole (a royalty table, a strategy table): UTF-8 with a leading byte
order mark dropped, and an error that names the file and the line of the first bad byte.

>>> utf8_text(b"\\xef\\xbb\\xbf{}\\n", "table.json")
'{}\\n'
>>> try:
...     utf8_text(b"ok\\n\\xe9\\n", "table.csv")
... except InputError as error:
...     print(error)
table.csv: line 2 is not UTF-8 text (invalid continuation byte)
"""

from __future__ import annotations

from handsolver.models.cards import InputError


def utf8_text(data: bytes, name: str) -> str:
    """``data`` decoded as UTF-8, a leading byte order mark dropped.

    :raises InputError: UTF-16 (said so), or a byte that is not UTF-8 (naming the line).
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(f"{name} is UTF-16 text; save it as UTF-8")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InputError(f"{name}: line {line} is not UTF-8 text ({error.reason})") from None
