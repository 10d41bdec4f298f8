"""The files of a progress report: a CSV (a row per student per skill) and a PDF (a class summary
page, then a page per student, laid out by reportlab). The charts are the pages' own
(display.progress_charts, drawn by charts.py), their SVG converted to reportlab drawings.

Both are pure functions of the figures: the same report compiled twice gives the same bytes
(reportlab's invariant mode: no time stamp, no random document id), so a retried task rewrites
identical files.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from functools import cache

from django.utils import timezone
from django.utils.formats import get_format, number_format
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from accounts.bidi import plain
from classroom import pdf_bidi, pdf_fonts
from classroom.progress import display, mastery
from classroom.progress.figures import Progress
from classroom.progress.models import MISTAKE_FIELDS
from classroom.progress.numbers import MIN_ANSWERS_TO_JUDGE
from classroom.progress.selectors import StudentReport
from classroom.progress.wording import MISTAKES, median_precision_text, wording


def csv_columns() -> list[str]:
    """The report CSV's header, in the report's language; the codes last, under names that are
    the same in every language, for a program to read."""
    return [
        _("Student"),
        _("Skill"),
        _("Answers"),
        _("Right"),
        _("Accuracy"),
        _("Median answer time (s)"),
        # the student's level on the skill, from their latest answers on it (mastery.py)
        _("Level"),
        _("Latest answers"),
        _("Right of the latest"),
        _("Fluent of the latest"),
        _("Days right and fluent"),  # the school days with a right, fluent answer in the period
        _("Last seen"),  # the school day of the latest answer (ISO 8601, as every date of a CSV)
        *(str(MISTAKES[kind]) for kind in MISTAKE_FIELDS),
        _("Most-missed facts"),  # on a student's row of all skills: "4 + 3 (2); 6 × 7 (1)"
        *CODE_COLUMNS,
    ]


CODE_COLUMNS = ("skill_code", "operation_code", "range_code", "level_code")
# What the files hold and how: raised with every change to it, so that a report compiled before
# is compiled again when it is asked for (``services.report_compiled_for``).
LAYOUT = 2
ALL_SKILLS = "all"  # the skill code of a student's row of totals
# A spreadsheet runs a cell that starts with one of these as a formula (CSV injection).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# A sign alone holds no formula: the answers' operator column reads "+" and "-" as it is.
_LONE_SIGNS = ("+", "-")
FONT = "ReportSans"
FONT_BOLD = "ReportSans-Bold"


def _cell(value):
    """A spreadsheet runs a cell that starts like a formula (OWASP's "CSV injection"): every text
    cell that does is written with a leading apostrophe. Numbers stay numbers, and so does a sign
    alone, which no spreadsheet can run: nothing follows it. A text is plain: no directional
    marks (an expression worded for a right-to-left language holds some, accounts/bidi.py)."""
    if isinstance(value, str):
        value = plain(value)
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS) and value not in _LONE_SIGNS:
        return "'" + value
    return value


def report_csv(reports: list[StudentReport]) -> bytes:
    """A row of totals per student (all skills, with their most-missed facts), then a row per
    skill with its level: worded and rounded as on the pages, in the report's language, for a
    teacher's spreadsheet. UTF-8 with a byte-order mark, which spreadsheets need to read accents
    right."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=list_separator(), lineterminator="\n")
    writer.writerow(csv_columns())
    for report in reports:
        name = str(report.student)
        progress = report.progress
        if progress.total.attempts:
            missed = "; ".join(f"{f.text} ({f.misses})" for f in progress.missed_facts)
            write_row(
                writer,
                [
                    name,
                    _("All skills"),
                    *_figure_cells(progress.total),
                    missed,
                    *_code_cells(ALL_SKILLS, "", "", None),
                ],
            )
        for skill in progress.skills:
            write_row(
                writer,
                [
                    name,
                    skill.label,
                    *_figure_cells(skill.figures, skill.mastery),
                    "",
                    *_code_cells(skill.skill, skill.operation, skill.range, skill.mastery),
                ],
            )
    return out.getvalue().encode("utf-8-sig")


def list_separator() -> str:
    """The field separator a spreadsheet of the report's language expects: where the comma is
    the decimal mark (Spanish: "2,3 s"), spreadsheets split lines at semicolons."""
    return ";" if get_format("DECIMAL_SEPARATOR") == "," else ","


def _figure_cells(figures, mastery=None) -> list:
    """A row's figures; the level with what it rests on, as the student page says it ("Mastered:
    10 of the latest 10 right, 8 fluent, on 2 days; last seen 5 Mar 2026"), a figure a column."""
    level = (
        [""] * 6
        if mastery is None
        else [
            mastery.level_text,
            mastery.answers,
            mastery.right,
            mastery.fluent,
            mastery.fluent_days,
            mastery.last_seen.isoformat() if mastery.last_seen else "",
        ]
    )
    return [
        figures.attempts,
        figures.correct,
        _accuracy_cell(figures),
        _seconds_cell(figures),
        *level,
        *(figures.mistakes[kind] for kind in MISTAKE_FIELDS),
    ]


def _accuracy_cell(figures) -> str:
    """The share as a spreadsheet reads a percentage in any language ("86%"); words when too few."""
    value = figures.accuracy_percent
    return figures.accuracy_text if value is None else f"{value}%"


def _seconds_cell(figures) -> str:
    """The median in seconds as the pages round it, with the language's decimal mark (a number
    to a spreadsheet of that language); "at least" past the histogram's last edge."""
    seconds = figures.median_seconds
    if seconds is None:
        return ""
    shown = number_format(seconds, 1)
    if figures.median.at_least:
        return _("at least %(time)s") % {"time": shown}
    return shown


def _code_cells(skill: str, operation: str, band: str, mastery) -> list[str]:
    return [skill, operation, band, "" if mastery is None else mastery.level.name.lower()]


def write_row(writer, cells) -> None:
    """Every row of every CSV the site writes goes through here."""
    writer.writerow([_cell(value) for value in cells])


STUDENT_ATTEMPT_COLUMNS = (
    "when",
    "game",
    "what_the_student_did",
    "what_was_right",
    "operands",
    "operator",
    "answer",
    "expected",
    "target",
    "correct",
    "elapsed_ms",
    "skill",
    "slip",
)


class _Line:
    """csv.writer's file: hands back the line it was given."""

    def write(self, text: str) -> str:
        return text


def student_attempts_csv(attempts) -> Iterator[str]:
    """Every attempt of a student, one line each as they are read (a term can hold thousands):
    when (ISO 8601, in the current time zone), the game, what the student did and what was right
    worded as at the table, then the attempt's own fields. Starts with a byte-order mark."""
    writer = csv.writer(_Line(), lineterminator="\n")
    yield "\ufeff" + writer.writerow(STUDENT_ATTEMPT_COLUMNS)
    for attempt in attempts:
        worded = wording(attempt)
        yield writer.writerow(
            [
                _cell(value)
                for value in (
                    timezone.localtime(attempt.created_at).isoformat(timespec="seconds"),
                    attempt.game,
                    worded.did,
                    worded.right,
                    " ".join(str(n) for n in attempt.operands)
                    if isinstance(attempt.operands, list)
                    else "",
                    attempt.operator,
                    attempt.answer,
                    attempt.expected,
                    attempt.target,
                    int(attempt.correct),
                    attempt.elapsed_ms,
                    attempt.skill,
                    attempt.mistake,
                )
            ]
        )


# --- PDF -----------------------------------------------------------------------------------------


@cache
def _fonts():
    """DejaVu Sans (classroom/fonts/) covers the names of any class, accents and all; the charts'
    text is set in "sans-serif" (see _chart), which this font map draws with it too."""
    from reportlab import rl_config
    from svglib.fonts import FontMap

    # Binary streams (the embedded fonts): ASCII85 text (the default) is encoded in pure Python,
    # for no benefit in a file that is downloaded, not mailed as text.
    rl_config.useA85 = 0

    pdf_fonts.register(FONT, FONT_BOLD)
    fonts = FontMap()
    fonts.register_font("sans-serif", str(pdf_fonts.REGULAR), rlgFontName=FONT)
    fonts.register_font("sans-serif", str(pdf_fonts.BOLD), weight="bold", rlgFontName=FONT_BOLD)
    return fonts


# Two charts side by side fill the page's width: drawn narrower than on the pages (in the SVG's
# units), at a scale that prints their 12-14 px labels at 6.6-7.7 points.
BAR_CHART_WIDTH = 480
LINE_CHART_WIDTH = 430
CHART_SCALE = 0.55
SVG = "{http://www.w3.org/2000/svg}"


def _chart(svg: str, styles) -> list:
    """A chart of the pages (charts.py's SVG) in the PDF: its title as a heading, then the chart
    as a reportlab drawing."""
    from lxml import etree
    from svglib.svglib import SvgRenderer

    # The chart is our own markup: parsed as it is, no entities or external references resolved.
    root = etree.fromstring(svg.encode(), etree.XMLParser(resolve_entities=False, no_network=True))
    # On the pages the text takes the page's font; here the report's (see _fonts).
    root.set("font-family", "sans-serif")
    _as_drawn(root)
    drawing = SvgRenderer("", font_map=_fonts()).render(root)
    drawing.scale(CHART_SCALE, CHART_SCALE)
    drawing.width *= CHART_SCALE
    drawing.height *= CHART_SCALE
    drawing.hAlign = pdf_bidi.start_side()
    return [pdf_bidi.paragraph(root.findtext(f"{SVG}title"), styles["chart"]), drawing]


# svglib reads an anchor as a side (start: the text's left end); a browser as an end of the text
# in its direction, which a right-to-left chart (charts.py) names.
_ANCHOR_SIDES = {"start": "end", "end": "start"}


def _as_drawn(root) -> None:
    """A chart's texts as reportlab draws them: each label shaped and ordered (pdf_bidi), and in
    a right-to-left chart each anchor as the side of the text it names there."""
    right_to_left = root.get("direction") == "rtl"
    for text in root.iter(f"{SVG}text"):
        text.text = pdf_bidi.line(text.text or "")
        if right_to_left:
            text.set("text-anchor", _ANCHOR_SIDES.get(text.get("text-anchor", "start"), "middle"))


def _charts(progress: Progress, prefix: str, styles):
    """Accuracy by skill beside accuracy week by week: the progress pages' first charts."""
    charts = display.progress_charts(
        progress, prefix, widths={"accuracy": BAR_CHART_WIDTH, "trend": LINE_CHART_WIDTH}
    )
    return _side_by_side(
        _chart(charts["accuracy"], styles),
        _chart(charts["trend"], styles),
        widths=[BAR_CHART_WIDTH * CHART_SCALE + 6, LINE_CHART_WIDTH * CHART_SCALE + 6],
    )


def _styles():
    """The report's paragraphs, aligned on the side their language starts from."""
    from reportlab.lib.enums import TA_LEFT, TA_RIGHT
    from reportlab.lib.styles import ParagraphStyle

    start = TA_RIGHT if pdf_bidi.right_to_left() else TA_LEFT
    return {
        "title": ParagraphStyle(
            "title", fontName=FONT_BOLD, fontSize=17, leading=21, alignment=start
        ),
        "subtitle": ParagraphStyle(
            "subtitle", fontName=FONT, fontSize=10, leading=14, alignment=start
        ),
        "heading": ParagraphStyle(
            "heading",
            fontName=FONT_BOLD,
            fontSize=11,
            leading=14,
            spaceBefore=8,
            spaceAfter=3,
            alignment=start,
        ),
        "body": ParagraphStyle("body", fontName=FONT, fontSize=9, leading=12, alignment=start),
        "chart": ParagraphStyle(
            "chart", fontName=FONT_BOLD, fontSize=9, leading=12, spaceAfter=2, alignment=start
        ),
    }


# Table text: 8 points, headers in bold at 7.5; a header, or a cell too wide for its column,
# is a Paragraph that wraps within it instead of running into the next column.
CELL_SIZE = 8
HEAD_SIZE = 7.5
CELL_PADDING = 4  # left and right of every cell: 8 points between two columns' texts


def _cell_styles():
    from reportlab.lib.enums import TA_LEFT, TA_RIGHT
    from reportlab.lib.styles import ParagraphStyle

    return {
        (head, align): ParagraphStyle(
            f"cell-{head}-{align}",
            fontName=FONT_BOLD if head else FONT,
            fontSize=HEAD_SIZE if head else CELL_SIZE,
            leading=9 if head else 9.6,
            alignment=TA_LEFT if align == "LEFT" else TA_RIGHT,
        )
        for head in (True, False)
        for align in ("LEFT", "RIGHT")
    }


def _table(rows, widths, header=True, text_columns=(0,)):
    """A table of the report: the `text_columns` aligned where their language starts, the
    others (numbers) where it ends; right to left, its columns mirrored (pdf_bidi). The header's
    cells are Paragraphs, and so is any other text wider than its column, so that every text
    wraps within its column, in any language."""
    from reportlab.lib import colors
    from reportlab.platypus import Table, TableStyle

    styles = _cell_styles()
    aligns = ["LEFT" if i in text_columns else "RIGHT" for i in range(len(widths))]
    # A cell's Paragraph is aligned on the side its column's ALIGN names once mirrored.
    sides = {"LEFT": "RIGHT", "RIGHT": "LEFT"} if pdf_bidi.right_to_left() else {}
    cells = []
    for y, row in enumerate(rows):
        head = header and y == 0
        row = [str(value) if isinstance(value, Promise) else value for value in row]  # lazy text
        cells.append(
            [
                _cell_text(value, styles[(head, sides.get(align, align))], head, width)
                if isinstance(value, str)
                else value
                for value, width, align in zip(row, widths, aligns, strict=True)
            ]
        )
    style = [
        ("FONT", (0, 0), (-1, -1), FONT, CELL_SIZE),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.HexColor("#c9d1dc")),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        *(("ALIGN", (x, 0), (x, -1), align) for x, align in enumerate(aligns)),
    ]
    if header:
        style.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eef3fb")))
    cells, widths, style = pdf_bidi.mirrored(cells, widths, style)
    table = Table(
        cells, colWidths=widths, hAlign=pdf_bidi.start_side(), repeatRows=1 if header else 0
    )
    table.setStyle(TableStyle(style))
    return table


def _cell_text(value: str, style, head: bool, width: float):
    """A cell's text as drawn (pdf_bidi.line); a Paragraph when a header or too wide."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    drawn = pdf_bidi.line(value)
    if head or stringWidth(drawn, FONT, CELL_SIZE) > width - 2 * CELL_PADDING:
        return pdf_bidi.paragraph(value, style)
    return drawn


def _figures_row(progress: Progress, students: int | None = None):
    total = progress.total
    header = [_("Answers"), _("Right"), _("Accuracy"), _("Median answer time")]
    values = [
        str(total.attempts),
        str(total.correct),
        total.accuracy_text,
        total.median_text,
    ]
    widths = [75, 75, 100, 110]  # the accuracy wide enough for "too few answers" on one line
    if students is not None:
        header.insert(0, _("Students"))
        values.insert(0, str(students))
        widths.insert(0, 75)
    return _table([header, values], widths, text_columns=())


def _skills_table(progress: Progress):
    levels = any(s.mastery is not None for s in progress.skills)
    header = [_("Skill"), _("Answers"), _("Right"), _("Accuracy"), _("Median answer time")]
    if levels:
        header.append(_("Level (latest answers)"))
    rows = [header]
    for s in progress.skills:
        row = [
            s.label,
            s.figures.attempts,
            s.figures.correct,
            s.figures.accuracy_text,
            s.figures.median_text,
        ]
        if levels:
            # The level and how it was reached, in the student page's words (Mastery.text).
            row.append("—" if s.mastery is None else s.mastery.text)
        rows.append(row)
    # Within the page's 498 points: the longest header word ("Respuestas") on one line, a level
    # and how it was reached on three at most, "too few answers" on one line (two in Spanish).
    if levels:
        return _table(rows, [110, 57, 50, 74, 58, 149], text_columns=(0, 5))
    return _table(rows, [154, 60, 55, 100, 110])


# The pages' shades (static/css/site.css, .fact-cell): background and ink per shade.
GRID_SHADES = {
    0: ("#ffffff", "#4a5568"),
    1: ("#eff3ff", "#1a202c"),
    2: ("#bdd7e7", "#1a202c"),
    3: ("#6baed6", "#0b1a2e"),
    4: ("#2171b5", "#ffffff"),
    5: ("#08306b", "#ffffff"),
}


def _fact_grid(grid):
    """A fact grid as on the pages: the share right in each cell, shaded in one blue, a tick
    for a fluent fact, "right/answers" unshaded when too few. Two grids side by side fill the
    page's width; the widest cell, "100%" and a tick, fits its column with room to spare at
    5 points (the tick after a thin space)."""
    from reportlab.lib import colors
    from reportlab.platypus import Table, TableStyle

    numbers = list(grid.table.numbers)
    rows = [[grid.table.sign, *numbers]]
    style = [
        ("FONT", (0, 0), (-1, -1), FONT, 5),
        ("FONT", (0, 0), (-1, 0), FONT_BOLD, 6),
        ("FONT", (0, 0), (0, -1), FONT_BOLD, 6),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
        ("RIGHTPADDING", (0, 0), (-1, -1), 0),
        ("INNERGRID", (1, 1), (-1, -1), 0.5, colors.white),
        ("BOX", (1, 1), (-1, -1), 0.25, colors.HexColor("#c9d1dc")),
    ]
    for y, row in enumerate(grid.rows, start=1):
        rows.append(
            [row[0].first]
            + [cell.short + ("\u2009✓" if cell.fluent_mostly else "") for cell in row]
        )
        for x, cell in enumerate(row, start=1):
            background, ink = GRID_SHADES[cell.shade]
            style.append(("BACKGROUND", (x, y), (x, y), colors.HexColor(background)))
            style.append(("TEXTCOLOR", (x, y), (x, y), colors.HexColor(ink)))
    # The row's first number ("10", in bold at 6 points) in 10 points, the cells in the rest.
    rows = [[pdf_bidi.line(v) if isinstance(v, str) else v for v in row] for row in rows]
    widths = [10] + [232 / len(numbers)] * len(numbers)
    # Right to left the grid is mirrored, as on the pages: its numbers run from the right.
    rows, widths, style = pdf_bidi.mirrored(rows, widths, style)
    table = Table(rows, colWidths=widths, hAlign=pdf_bidi.start_side())
    table.setStyle(TableStyle(style))
    return table


def _fact_grids(progress: Progress, styles):

    grids = progress.fact_grids
    if not grids or not any(grid.answers for grid in grids):
        return []
    return [
        pdf_bidi.paragraph(_("Fact grids"), styles["heading"]),
        _side_by_side(
            *[
                [pdf_bidi.paragraph(grid.caption, styles["body"]), _fact_grid(grid)]
                for grid in grids
            ]
        ),
        pdf_bidi.paragraph(
            (
                _(
                    "The share of right answers per fact, darker when higher; ✓: at least "
                    "%(percent)s%% right within %(seconds)s s (fluent); right/answers when "
                    "fewer than %(answers)s."
                )
                % {
                    "percent": mastery.FLUENT_MOSTLY_PERCENT,
                    "seconds": mastery.FLUENT_MS // 1000,
                    "answers": MIN_ANSWERS_TO_JUDGE,
                }
            ),
            styles["body"],
        ),
    ]


def _side_by_side(left, right, widths=(249, 249)):
    from reportlab.platypus import Table

    # The first of the two on the reading side: right to left, on the right.
    rows, widths, style = pdf_bidi.mirrored(
        [[left, right]],
        list(widths),
        [("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0)],
    )
    table = Table(rows, colWidths=widths, hAlign=pdf_bidi.start_side())
    table.setStyle(style)
    return table


def _facts_and_slips(progress: Progress, styles):

    facts = [[_("Most-missed facts"), _("Misses")]] + [
        [f.text, f.misses] for f in progress.missed_facts
    ]
    if len(facts) == 1:
        facts.append([_("No missed facts"), ""])
    slips = [[_("Kinds of slips"), _("Wrong answers")]] + [
        [m.label, m.count] for m in progress.total.mistake_rows()
    ]
    # A kind of slip on one line in English and Spanish (the longest, "Dio un número de la
    # propia operación", takes 152 points at 8); a longer one wraps within its column.
    return [
        pdf_bidi.paragraph(_("Where answers went wrong"), styles["heading"]),
        _side_by_side(_table(facts, [170, 60]), _table(slips, [162, 78])),
    ]


def _page(flowables, frame_width, frame_height):
    """One page's content, shrunk to fit the page when a class or a list is long."""
    from reportlab.platypus import KeepInFrame, PageBreak

    return [KeepInFrame(frame_width, frame_height, flowables, mode="shrink"), PageBreak()]


def report_pdf(
    *, classroom_name: str, summary: Progress, reports: list[StudentReport], period_text: str
) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import cm
    from reportlab.platypus import SimpleDocTemplate, Spacer

    _fonts()
    styles = _styles()
    buffer = io.BytesIO()
    margin = 1.5 * cm
    document = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin,
        bottomMargin=margin,
        title=_("Progress report: %(name)s") % {"name": classroom_name},
        author="",
        creator="",
        producer="",
        invariant=1,
    )
    # The frame's inner size (SimpleDocTemplate pads its frame by 6 points on every side).
    width, height = A4[0] - 2 * margin - 12, A4[1] - 2 * margin - 12
    story = []
    students_rows = [[_("Student"), _("Answers"), _("Accuracy"), _("Median"), _("Weakest skill")]]
    for entry in summary.students:
        weakest = entry.weakest_skill
        students_rows.append(
            [
                str(entry.student),
                entry.figures.attempts,
                entry.figures.accuracy_text,
                entry.figures.median_text,
                weakest.label if weakest else "—",
            ]
        )
    story += _page(
        [
            pdf_bidi.paragraph(
                _("Progress report: %(name)s") % {"name": classroom_name}, styles["title"]
            ),
            pdf_bidi.paragraph(period_text, styles["subtitle"]),
            Spacer(1, 6),
            _figures_row(summary, students=len(summary.students)),
            Spacer(1, 6),
            _charts(summary, "class", styles),
            pdf_bidi.paragraph(_("By skill"), styles["heading"]),
            _skills_table(summary),
            *_facts_and_slips(summary, styles),
            *_fact_grids(summary, styles),
            pdf_bidi.paragraph(_("Students"), styles["heading"]),
            _table(students_rows, [130, 57, 78, 58, 170], text_columns=(0, 4)),
            Spacer(1, 6),
            pdf_bidi.paragraph(median_precision_text(), styles["body"]),
        ],
        width,
        height,
    )
    for report in reports:
        name = str(report.student)
        content = [
            pdf_bidi.paragraph(name, styles["title"]),
            pdf_bidi.paragraph(f"{classroom_name} · {period_text}", styles["subtitle"]),
            Spacer(1, 6),
            _figures_row(report.progress),
            Spacer(1, 6),
        ]
        if report.progress.total.attempts:
            content += [
                _charts(report.progress, f"student-{report.student.pk}", styles),
                pdf_bidi.paragraph(_("By skill"), styles["heading"]),
                _skills_table(report.progress),
                *_facts_and_slips(report.progress, styles),
                *_fact_grids(report.progress, styles),
            ]
        else:
            content.append(pdf_bidi.paragraph(_("No answers in this period."), styles["body"]))
        story += _page(content, width, height)
    story.pop()  # no blank page after the last one
    document.build(story)
    return buffer.getvalue()
