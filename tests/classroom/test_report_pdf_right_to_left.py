"""The progress report's PDF in Arabic, read as a teacher reads it (docs/translations.md, "Right to
left", "Files"): the letters joined, each line from the right, a wrapped paragraph's first words on
its first line, a table's first column rightmost, the charts mirrored, and every expression left
to right. Positions are the glyphs' own, read back by pdftotext (`-bbox`).

The letters come back from the PDF as drawn: in their joined forms (U+FB50-U+FEFF) and, in a word
written right to left, from its left end; ``reads`` compares a word so read with a text."""

import io
import unicodedata

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from accounts.bidi import ltr
from classroom import pdf_bidi
from classroom.progress import charts
from classroom.progress.tasks import compile_progress_report
from classroom.progress.wording import known_fact_text, skill_label
from tests.classroom.test_progress_reports import (  # noqa: F401 (fixtures)
    DAY2,
    classroom,
    eager_celery,
    media,
    new_report,
    pdf_words,
)
from tests.factories import make_attempts

pytestmark = pytest.mark.django_db

HARAKAT = {chr(c) for c in range(0x064B, 0x0653)}
PAGE_WIDTH, MARGIN = 595.27, 42.52


def is_arabic(text: str) -> bool:
    return any("\u0600" <= c <= "\u06ff" for c in unicodedata.normalize("NFKC", text))


def bare(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKC", text) if c not in HARAKAT)


def reads(word: str, text: str) -> bool:
    """Whether a word as pdftotext gives it is ``text``, however its letters were laid."""
    return bare(text) in (bare(word), bare(word[::-1]))


def find(words, text):
    """The words that read ``text``, top first."""
    return sorted((w for w in words if reads(w[0], text)), key=lambda w: w[2])


def line_of(words, word):
    """The words on ``word``'s line, left to right."""
    middle = (word[2] + word[4]) / 2
    return sorted((w for w in words if w[2] < middle < w[4]), key=lambda w: w[1])


@pytest.fixture
def arabic_pdf(classroom):  # noqa: F811 (the fixture imported above)
    ana = get_user_model().objects.get(display_name="Ana")
    fluent = [(2, "+", 2, 4, 1000, DAY2), (2, "+", 3, 5, 1000, DAY2)] * 5
    make_attempts(ana, [(45, "+", 38, 83, 4000, DAY2), (9, "-", 7, 2, 3000, DAY2), *fluent])
    report = new_report(classroom, language="ar")
    assert compile_progress_report.delay(report.pk).get() == "done"
    report.refresh_from_db()
    return pdf_words(report.pdf_file.path)


def test_an_arabic_report_reads_from_the_right(arabic_pdf):
    """Page 1 as an Arabic reader sees it: the title's first word rightmost, against the right
    margin, its letters joined; the tables' first column rightmost; the bars' labels right of
    the bars; a wrapped paragraph's first words on its first line, from the right."""
    page = arabic_pdf[0]
    with translation.override("ar"):
        _ = translation.gettext
        title = (_("Progress report: %(name)s") % {"name": "Class 4A"}).split()
        columns = [_("Students"), _("Answers"), _("Right"), _("Accuracy")]
        skill = skill_label("add.within10")
        legend = _(
            "The share of right answers per fact, darker when higher; ✓: at least "
            "%(percent)s%% right within %(seconds)s s (fluent); right/answers when "
            "fewer than %(answers)s."
        ).split()

    # The title: "تقرير التقدّم: Class 4A", its first word on the right.
    first, second = find(page, title[0])[0], find(page, title[1])[0]
    assert first[1] > second[1] > find(page, "Class")[0][1]
    assert first[3] > PAGE_WIDTH - MARGIN - 12  # aligned on the right margin
    # Every letter drawn in its joined form, none as the bare letter printed alone.
    assert all("\ufb50" <= c <= "\ufeff" for c in first[0] if is_arabic(c)), first[0]

    # The figures' table (the first one): its columns from the right, in their order.
    header = line_of(page, find(page, columns[0].split()[0])[0])
    xs = [find(header, name.split()[0])[0][1] for name in columns]
    assert xs == sorted(xs, reverse=True), xs

    # The accuracy chart: the skill's label right of its bar's value.
    label = find(page, skill.split()[0])[0]
    value = next(w for w in line_of(page, label) if w[0].endswith("%"))
    assert value[3] < label[1]

    # The fact grids' legend, wrapped: its first word rightmost on its first line.
    starts = [w for w in find(page, legend[0]) if len(line_of(page, w)) > 5]
    assert starts, legend[0]
    opening = line_of(page, starts[0])
    assert opening[-1] == starts[0]
    assert any(reads(w[0], legend[1]) for w in opening)


def test_an_expression_in_an_arabic_sentence_reads_left_to_right():
    """ "صحيح! 3 + 4 = 7." wrapped on two lines: the sentence from the right, its expression and a
    signed number left to right, the first words on the first line."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import SimpleDocTemplate

    from classroom.progress.report_files import FONT, _fonts

    _fonts()
    with translation.override("ar"):
        sentence = f"صحيح! {known_fact_text('add', 3, 4)}. والنقاط {ltr('−3')} الآن"
        style = ParagraphStyle("body", fontName=FONT, fontSize=12, leading=16)
        buffer = io.BytesIO()
        # 130 points: the sentence takes two lines.
        SimpleDocTemplate(buffer, pagesize=(130 + 72 * 2, 300)).build(
            [pdf_bidi.paragraph(sentence, style)]
        )
    words = pdf_words_of(buffer.getvalue())
    right = find(words, "صحيح!")[0]
    first_line = line_of(words, right)
    assert first_line[-1] == right
    # The full stop that ends the expression's sentence on its left, against it.
    assert [w[0] for w in first_line[:-1]] == [".3", "+", "4", "=", "7"]
    second_line = line_of(words, find(words, "الآن")[0])
    assert second_line[0][2] > right[2]  # below the first
    assert [w[0] for w in second_line if not is_arabic(w[0])] == ["−3"]
    assert reads(second_line[-1][0], "والنقاط") and reads(second_line[0][0], "الآن")


def pdf_words_of(pdf: bytes):
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".pdf") as handle:
        handle.write(pdf)
        handle.flush()
        return pdf_words(handle.name)[0]


def test_a_bar_chart_in_arabic_is_mirrored_for_the_page():
    """On an Arabic page the chart says it is right to left: the labels on the right of the
    bars, which grow from the right (anchors name the text's ends, as a browser reads them)."""
    import re

    bars = [charts.Bar("الجمع حتى 10", 50, "50%")]
    ticks = [(0, "0%"), (100, "100%")]
    with translation.override("ar"):
        svg = charts.bar_chart(
            chart_id="c", title="t", desc="d", bars=bars, max_value=100, ticks=ticks
        )
    english = charts.bar_chart(
        chart_id="c", title="t", desc="d", bars=bars, max_value=100, ticks=ticks
    )
    assert 'direction="rtl"' in svg and "direction" not in english
    label_x = float(re.search(r'<text x="([\d.]+)"[^>]*font-size="14"', svg).group(1))
    rect = re.search(r'<rect x="([\d.]+)"[^>]*width="([\d.]+)"', svg)
    value_x = float(re.search(r'<text x="([\d.]+)"[^>]*font-size="13"', svg).group(1))
    assert value_x < float(rect.group(1)) < float(rect.group(1)) + float(rect.group(2)) < label_x
    assert float(rect.group(1)) + float(rect.group(2)) == pytest.approx(
        charts.BAR_CHART_WIDTH - 230
    )


def test_every_arabic_text_is_drawn_with_glyphs_the_font_has():
    """Every Arabic text of the site, shaped and ordered as a PDF draws it, uses only characters
    DejaVu Sans has a glyph for: no joined form or ligature prints as a box."""
    import polib
    from django.conf import settings
    from reportlab.pdfbase.ttfonts import TTFontFile

    from classroom import pdf_fonts

    fonts = [set(TTFontFile(str(path)).charToGlyph) for path in (pdf_fonts.REGULAR, pdf_fonts.BOLD)]
    catalogue = polib.pofile(str(settings.BASE_DIR / "locale/ar/LC_MESSAGES/django.po"))
    missing = set()
    with translation.override("ar"):
        for entry in catalogue:
            texts = [entry.msgstr, *entry.msgstr_plural.values()]
            for text in filter(None, texts):
                drawn = pdf_bidi.line(text)
                missing |= {c for c in drawn if c != "\n" for font in fonts if ord(c) not in font}
    assert not missing, sorted(f"U+{ord(c):04X}" for c in missing)
