"""Reading a progress report's PDF as a teacher reads its tables (pdftotext's word boxes)."""

import subprocess
from xml.etree import ElementTree

XHTML = "{http://www.w3.org/1999/xhtml}"
# The report's headings are set at 11 points or more, its table cells at 8 or less.
HEADING_HEIGHT = 10


def page_words(path, page: int) -> list[tuple[str, float, float, float, float]]:
    """One page's words with their boxes, in points from the page's top left:
    (text, x_min, y_min, x_max, y_max)."""
    xhtml = subprocess.run(
        ["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(path), "-"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    return [
        (word.text, *(float(word.get(key)) for key in ("xMin", "yMin", "xMax", "yMax")))
        for word in ElementTree.fromstring(xhtml).iter(f"{XHTML}word")
    ]


def level_column_text(path, page: int, header: str = "Level") -> str:
    """The text of the skills table's level column on ``page``, cell after cell, each cell's
    wrapped lines in order: the words right of the column's ``header`` word, below it and above
    the next heading."""
    words = page_words(path, page)
    _text, left, _top, _right, header_bottom = next(w for w in words if w[0] == header)
    below = [w for w in words if w[2] >= header_bottom]
    bottom = min((w[2] for w in below if w[4] - w[2] > HEADING_HEIGHT), default=float("inf"))
    column = [w for w in below if w[1] >= left - 1 and w[4] <= bottom]
    column.sort(key=lambda w: (round(w[2], 1), w[1]))
    return " ".join(w[0] for w in column)
