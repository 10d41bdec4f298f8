"""Text and tables of the PDFs in a language written right to left (docs/translations.md, "Right
to left", "Files").

reportlab draws a string's characters left to right as they come, one glyph each: it neither
joins Arabic letters (its shaping needs uharfbuzz) nor orders a right-to-left line (that needs
rlbidi). So a right-to-left text reaches it already as it is to be drawn, in three steps whose
order matters:

1. shaped, in its logical order (``arabic_reshaper``): each letter in its joined form, lam-alef
   as one glyph, marks kept on their letter; DejaVu Sans has all these forms;
2. broken into lines at the width it has, still in logical order, so that the first words of a
   paragraph are on its first line;
3. each line put in the order it is seen (``python-bidi``, the Unicode bidirectional algorithm,
   the line right to left): the first word rightmost, and every expression that the site holds
   left to right with its marks (``accounts.bidi.ltr``) left to right, as on the pages. The
   marks, which the font has no glyph for, are dropped once used.

A table is mirrored (its first column on the right) and its text aligned from the right, as a
table of an Arabic page is.
"""

from __future__ import annotations

import re
from functools import cache
from xml.sax.saxutils import escape as xml_escape

from django.utils.translation import get_language_bidi

from accounts.bidi import CLOSE, OPEN, plain

# What the line breaking keeps together: a word, and a held expression whole with what touches
# it ("3 + 4 = 7." is never split across lines).
_UNITS = re.compile(rf"(?:{OPEN}.*?{CLOSE}|[^ ])+")
# python-bidi's own implementation of the algorithm (bidi.algorithm) is the one that also turns
# a bracket round in a right-to-left run, so that "(2)" opens towards its text; it knows
# embeddings, not isolates, so an isolate reaches it as the embedding of its direction (the
# site writes no first-strong isolate; it would be taken as left to right).
_AS_EMBEDDINGS = str.maketrans(
    {"\u2066": "\u202a", "\u2067": "\u202b", "\u2068": "\u202a", "\u2069": "\u202c"}
)
# Hebrew, Arabic, Syriac, Thaana, N'Ko... and the Arabic presentation forms.
_RIGHT_TO_LEFT_LETTERS = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
_SIDES = {"LEFT": "RIGHT", "RIGHT": "LEFT"}
_MIRRORED = {"LEFTPADDING": "RIGHTPADDING", "RIGHTPADDING": "LEFTPADDING"}


def right_to_left() -> bool:
    """Whether the active language (the PDF's) is written right to left."""
    return get_language_bidi()


@cache
def _reshaper():
    from arabic_reshaper import ArabicReshaper

    return ArabicReshaper(
        {
            "delete_harakat": False,  # a shadda or a vowel mark stays on its letter...
            "shift_harakat_position": True,  # ...also once the line is turned round
            "ARABIC LIGATURE ALLAH": False,  # only the letters' own ligatures (lam-alef)
        }
    )


def shaped(text) -> str:
    """Arabic letters in their joined forms, in logical order; the marks kept for the ordering."""
    text = str(text)
    return _reshaper().reshape(text) if _RIGHT_TO_LEFT_LETTERS.search(text) else text


def seen(line) -> str:
    """One line of shaped text as drawn, left to right, without marks. In a language written
    left to right a line without right-to-left letters is drawn as it is; one with some (an
    Arabic name in an English report) is ordered too, from the left."""
    if not right_to_left() and not _RIGHT_TO_LEFT_LETTERS.search(line):
        return plain(line)
    from bidi.algorithm import get_display

    base = "R" if right_to_left() else "L"
    return plain(get_display(line.translate(_AS_EMBEDDINGS), base_dir=base))


def line(text) -> str:
    """A text drawn on one line (a table's cell, a chart's label): shaped, then ordered."""
    return seen(shaped(text))


def lines(text, font: str, size: float, width: float) -> list[str]:
    """A paragraph's lines as drawn: shaped, broken at ``width`` points in logical order, then
    each line ordered by itself."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    space = stringWidth(" ", font, size)
    result, current, used = [], [], 0.0
    for unit in _UNITS.findall(shaped(text)):
        wide = stringWidth(plain(unit), font, size)
        if current and used + space + wide > width:
            result.append(" ".join(current))
            current, used = [], 0.0
        used += (space if current else 0) + wide
        current.append(unit)
    if current:
        result.append(" ".join(current))
    return [seen(one) for one in result]


def paragraph(text, style):
    """A paragraph of the PDF, aligned as ``style`` says: broken and ordered as above in a
    language written right to left or when it has right-to-left letters; else reportlab's own."""
    from reportlab.platypus import Paragraph

    text = str(text)
    if not right_to_left() and not _RIGHT_TO_LEFT_LETTERS.search(text):
        return Paragraph(xml_escape(plain(text)), style)
    return _paragraph_class()(text, style)


@cache
def _paragraph_class():
    """Made when first used: importing this module does not load reportlab."""
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.platypus import Paragraph
    from reportlab.platypus.flowables import Flowable

    class DrawnParagraph(Flowable):
        """A paragraph whose lines are broken when its width is known (a table's column, the
        frame, a wider frame when a page is shrunk to fit), then drawn by reportlab's Paragraph
        a given line at a time."""

        def __init__(self, text: str, style):
            super().__init__()
            self.text, self.style = text, style
            self._inner = None

        def wrap(self, available_width, available_height):
            style = self.style
            width = available_width - style.leftIndent - style.rightIndent
            drawn = lines(self.text, style.fontName, style.fontSize, width)
            self._inner = Paragraph("<br/>".join(xml_escape(one) for one in drawn), style)
            self.width, self.height = self._inner.wrap(available_width, available_height)
            return self.width, self.height

        def draw(self):
            self._inner.drawOn(self.canv, 0, 0)

        def split(self, available_width, available_height):
            self.wrap(available_width, available_height)
            return self._inner.split(available_width, available_height)

        def minWidth(self):
            style = self.style
            units = _UNITS.findall(shaped(self.text)) or [""]
            return max(stringWidth(plain(u), style.fontName, style.fontSize) for u in units)

    return DrawnParagraph


def mirrored(rows: list[list], widths: list, commands: list) -> tuple[list, list, list]:
    """A table's rows, column widths and style commands with its columns in the reading order of
    the active language: as they are left to right; the first column rightmost right to left,
    every alignment and side padding mirrored with it."""
    if not right_to_left():
        return rows, widths, commands
    count = len(widths)

    def column(x: int) -> int:
        return count - 1 - (x % count)

    turned = []
    for command in commands:
        name, start, end, *values = command
        (x0, y0), (x1, y1) = start, end
        a, b = column(x0), column(x1)
        start, end = (min(a, b), y0), (max(a, b), y1)
        if name == "ALIGN":
            values = [_SIDES.get(str(values[0]).upper(), values[0])]
        turned.append((_MIRRORED.get(name, name), start, end, *values))
    return [list(reversed(row)) for row in rows], list(reversed(widths)), turned


def start_side() -> str:
    """Where a flowable narrower than the frame starts: the reading side."""
    return "RIGHT" if right_to_left() else "LEFT"
