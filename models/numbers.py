"""Exact numbers written by users: fractions or decimals in ASCII, of bounded size.

``Fraction("1e-999999999")`` would build a billion-digit denominator, and ``int`` accepts
digits such as ``²`` or ``٣`` that no game means; every exact number from the command line or
a file goes through :func:`parse_fraction` instead.

>>> parse_fraction("1/20", "commission"), parse_fraction("0.05", "commission")
(Fraction(1, 20), Fraction(1, 20))
>>> for bad in ("1e-999999999", "nan", "²", "1/0", "1_000"):
...     try:
...         parse_fraction(bad, "commission")
...     except InputError as error:
...         print(error)
bad commission '1e-999999999'
bad commission 'nan'
bad commission '²'
bad commission '1/0'
bad commission '1_000'

``1_000`` is Python's way to write a thousand (``int`` and ``Fraction`` take it), not a
player's: only ASCII digits, one ``/`` or ``.`` and an exponent of at most two digits are read,
all checked before the fraction is built.
"""

from __future__ import annotations

import re
from fractions import Fraction

from handsolver.models.cards import InputError

MAX_NUMBER_DIGITS = 30
"""Digits allowed in each part (numerator, denominator, integer, decimals) of a number."""

_DIGITS = f"[0-9]{{0,{MAX_NUMBER_DIGITS}}}"
_NUMBER = re.compile(
    rf"{_DIGITS}(?:/{_DIGITS})?|{_DIGITS}(?:\.{_DIGITS})?(?:[eE][+-]?[0-9]{{1,2}})?"
)


def parse_fraction(text: object, what: str) -> Fraction:
    """The exact value of ``text``, a non-negative fraction (``1/20``) or decimal (``0.05``,
    ``5e-2``) of at most :data:`MAX_NUMBER_DIGITS` digits a part and a two-digit exponent.

    :raises InputError: naming ``what`` and the text (cut to 40 characters) otherwise.
    """
    written = str(text).strip()
    if _NUMBER.fullmatch(written) is None or not any(c.isdigit() for c in written):
        raise InputError(f"bad {what} {written[:40]!r}")
    try:
        return Fraction(written)
    except (ValueError, ZeroDivisionError):
        raise InputError(f"bad {what} {written[:40]!r}") from None
