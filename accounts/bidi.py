"""Arithmetic kept left to right in a page read right to left (docs/translations.md, "Right to
left").

An Arabic sentence is laid out from the right, and the Unicode bidirectional algorithm lays the
neutral signs between numbers (+, −, =, spaces) the sentence's way: "3 + 4 = 7" inside an Arabic
sentence reads "7 = 4 + 3", a minus sign lands after its number ("3−"), and with Eastern Arabic
digits even a left-to-right paragraph turns an expression round. So every expression, equation
and signed number the site words is *isolated and held left to right*: the text between U+2066
LEFT-TO-RIGHT ISOLATE + U+202D LEFT-TO-RIGHT OVERRIDE and U+202C POP DIRECTIONAL FORMATTING +
U+2069 POP DIRECTIONAL ISOLATE, the plain-text form of ``<bdo dir="ltr">`` (which is what the
templates and the play page's scripts use). The isolate keeps the sentence around it in its own
order; the override keeps the expression's own, whatever its digits.

The marks go in only while a right-to-left language is active (``ltr``): the other languages'
texts stay as they were. What leaves the site as data (a CSV) is ``plain``: no marks.
"""

from __future__ import annotations

from django.utils.translation import get_language_bidi

LRI, PDI = "\u2066", "\u2069"  # left-to-right isolate ... pop directional isolate
LRO, PDF = "\u202d", "\u202c"  # left-to-right override ... pop directional formatting
OPEN, CLOSE = LRI + LRO, PDF + PDI
MARKS = frozenset(LRI + PDI + LRO + PDF + "\u2067\u2068\u200e\u200f\u202a\u202b\u202e\u061c")
_NO_MARKS = str.maketrans(dict.fromkeys(MARKS))


def held(text) -> str:
    """``text`` isolated and held left to right, in any language."""
    return f"{OPEN}{text}{CLOSE}"


def ltr(text) -> str:
    """An expression, an equation or a signed number ("3 + 4 = 7", "−3", "+5"), isolated and held
    left to right while the active language is written right to left; as it is otherwise."""
    text = str(text)
    if not text or not get_language_bidi():
        return text
    return held(text)


def plain(text) -> str:
    """Text as data, without directional marks (a CSV cell). The site words numbers in Western
    digits (only what a page shows changes, accounts/digits.py), so a cell's figures are too."""
    return str(text).translate(_NO_MARKS)
