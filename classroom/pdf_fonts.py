"""The typeface of the PDFs the site writes (progress reports, login cards): DejaVu Sans 2.35,
shipped in classroom/fonts/ with its licence. It prints the names of any class, accents and all,
and the signs the reports use (×, ÷, ✓)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "fonts"
REGULAR = FOLDER / "DejaVuSans.ttf"
BOLD = FOLDER / "DejaVuSans-Bold.ttf"


@cache
def register(regular: str, bold: str) -> tuple[str, str]:
    """Registers the two weights with reportlab under these names (once) and returns them."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    pdfmetrics.registerFont(TTFont(regular, str(REGULAR)))
    pdfmetrics.registerFont(TTFont(bold, str(BOLD)))
    return regular, bold
