"""Mastery per skill and per fact, and the fact grids (issue 14, item 7): the model's
boundaries, and what the student and class pages show for answers whose rightness and speed
the test knows."""

import datetime
import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from classroom.progress.mastery import (
    FLUENT_MS,
    Level,
    Mastery,
    class_fact_grids,
    level_of,
    student_fact_grids,
)
from tests.classroom.report_pdf_helpers import level_column_text
from tests.factories import make_attempts, make_class, make_student


@pytest.mark.parametrize(
    ("answers", "right", "fluent", "level"),
    [
        (0, 0, 0, Level.NOT_STARTED),
        (4, 4, 4, Level.PRACTISING),  # too few to say more, however good
        (10, 5, 5, Level.PRACTISING),  # under 60%
        (10, 6, 0, Level.FAMILIAR),
        (10, 7, 7, Level.FAMILIAR),
        (10, 8, 0, Level.PROFICIENT),
        (10, 9, 7, Level.PROFICIENT),  # right, but not quick enough to be recalled
        (10, 9, 8, Level.MASTERED),
        (5, 5, 4, Level.MASTERED),
        (5, 5, 3, Level.PROFICIENT),
    ],
)
def test_levels_at_their_boundaries(answers, right, fluent, level):
    assert level_of(answers, right, fluent) is level


def test_a_fluent_answer_is_right_within_three_seconds():
    mastery = Mastery.of(
        [(True, FLUENT_MS), (True, FLUENT_MS + 1), (False, 500), (True, 1200), (True, 2999)]
    )
    assert (mastery.answers, mastery.right, mastery.fluent) == (5, 4, 3)
    with translation.override("en"):
        assert mastery.text == "Proficient: 4 of the latest 5 right, 3 fluent"


def _class_with_table_answers():
    """Ana: 3 + 4 ten times (9 right, 8 of them within 3 s, on two days, all in the last ten),
    6 x 7 twice, one wrong; an older run of 3 + 4 answers wrong beyond the latest ten; a 13 + 4
    (no cell) and a 3 + 4 + 1 (three numbers: no cell).
    Ben: 3 + 4 five times, all right and slow."""
    classroom = make_class()
    ana = make_student(classroom, "Ana", kind="", secret=None)
    ben = make_student(classroom, "Ben", kind="", secret=None)
    now = timezone.now() - datetime.timedelta(hours=1)
    older = now - datetime.timedelta(days=2)
    make_attempts(ana, [(3, "+", 4, 9, 1500, older)] * 4)
    # The fluent answers came on two days (yesterday and today): mastery needs two.
    yesterday = now - datetime.timedelta(days=1)
    latest = [(3, "+", 4, 7, 1500, yesterday + datetime.timedelta(seconds=n)) for n in range(4)]
    latest += [(3, "+", 4, 7, 1500, now + datetime.timedelta(seconds=n)) for n in range(4)]
    latest += [(3, "+", 4, 7, 4500, now + datetime.timedelta(seconds=8))]
    latest += [(3, "+", 4, 8, 1000, now + datetime.timedelta(seconds=9))]
    make_attempts(ana, latest)
    make_attempts(ana, [(6, "x", 7, 42, 2000, now), (6, "x", 7, 48, 2000, now)])
    make_attempts(ana, [(13, "+", 4, 17, 2000, now)])
    make_attempts(ben, [(3, "+", 4, 7, 5000, now)] * 5)
    return classroom, ana, ben


def _cell(grids, operation, first, second):
    grid = next(g for g in grids if g.table.operation == operation)
    return next(c for row in grid.rows for c in row if (c.first, c.second) == (first, second))


@pytest.mark.django_db
def test_a_students_fact_grid_shows_each_facts_latest_ten_answers_and_their_level():
    _classroom, ana, _ben = _class_with_table_answers()
    start = timezone.now() - datetime.timedelta(days=7)
    end = timezone.now() + datetime.timedelta(days=1)
    grids = student_fact_grids(student_id=ana.pk, start=start, end=end)
    three_plus_four = _cell(grids, "add", 3, 4)
    # the latest ten: the four older wrong answers are left out
    assert (three_plus_four.answers, three_plus_four.right, three_plus_four.fluent) == (10, 9, 8)
    mastery = three_plus_four.mastery
    assert (mastery.answers, mastery.right, mastery.fluent) == (10, 9, 8)
    assert mastery.level is Level.MASTERED
    assert three_plus_four.percent == 90 and three_plus_four.shade == 4
    assert three_plus_four.fluent_mostly
    six_times_seven = _cell(grids, "mul", 6, 7)
    assert (six_times_seven.answers, six_times_seven.right) == (2, 1)
    assert six_times_seven.short == "1/2" and six_times_seven.shade == 0  # too few to shade
    assert six_times_seven.mastery.level is Level.PRACTISING
    assert _cell(grids, "add", 4, 3).answers == 0  # 4 + 3 is a cell of its own
    assert sum(c.answers for g in grids for row in g.rows for c in row) == 12  # 13 + 4 is no cell


@pytest.mark.django_db
def test_the_class_fact_grid_sums_its_students():
    _classroom, ana, ben = _class_with_table_answers()
    start = timezone.now() - datetime.timedelta(days=7)
    end = timezone.now() + datetime.timedelta(days=1)
    grids = class_fact_grids(student_ids=[ana.pk, ben.pk], start=start, end=end)
    cell = _cell(grids, "add", 3, 4)
    assert (cell.answers, cell.right, cell.fluent) == (19, 14, 8)
    assert cell.percent == 74 and cell.shade == 3 and not cell.fluent_mostly
    # the period bounds the answers: Ana's older four and yesterday's four are out
    grids = class_fact_grids(
        student_ids=[ana.pk, ben.pk], start=start + datetime.timedelta(days=6), end=end
    )
    assert _cell(grids, "add", 3, 4).answers == 19 - 4 - 4


@pytest.mark.django_db
def test_the_pages_show_levels_and_grids_to_screen_readers_too(client):
    classroom, ana, _ben = _class_with_table_answers()
    client.force_login(classroom.teacher)
    page = unescape(
        client.get(
            reverse("classroom:progress_student", args=[classroom.pk, ana.pk])
        ).content.decode()
    )
    # the skill table: addition within 10 rests on Ana's latest ten answers on it
    row = re.search(r'<th scope="row">Addition within 10</th>(.*?)</tr>', page, re.S).group(1)
    assert "Mastered" in row and "9 of the latest 10 right, 8 fluent, on 2 days; last seen" in row
    assert "<caption>Addition facts, 0 + 0 to 10 + 10</caption>" in page
    assert "3 + 4: Mastered, 9 of the latest 10 right, 8 fluent, on 2 days; last seen" in page
    assert "6 × 7: Practising, 1 of the latest 2 right, 1 fluent, on 1 day; last seen" in page
    assert 'class="fact-cell shade-4 fluent"><span aria-hidden="true">90%</span>' in page
    assert 'class="fact-cell shade-0"><span aria-hidden="true">1/2</span>' in page

    class_page = unescape(
        client.get(reverse("classroom:progress_class_facts", args=[classroom.pk])).content.decode()
    )
    assert "3 + 4: 14 of 19 right, 8 fluent" in class_page
    assert 'class="fact-cell shade-3"><span aria-hidden="true">74%</span>' in class_page
    with translation.override("es"):
        spanish = client.get(
            reverse("classroom:progress_class_facts", args=[classroom.pk]),
            HTTP_ACCEPT_LANGUAGE="es",
        ).content.decode()
    spanish = unescape(spanish)
    assert "<h1>Tablas de Class" in spanish
    assert "<caption>Tabla de multiplicar, de 1 × 1 a 10 × 10</caption>" in spanish
    assert "3 + 4: 14 bien de 19, 8 con soltura" in spanish
    # the legend, whose "%" signs Django doubles in its message ids
    assert "Cada casilla es una operación" in spanish and "al menos el 80 % de" in spanish
    assert "menos del 50 %" in spanish


@pytest.mark.django_db
def test_the_report_carries_levels_and_the_fact_grids(settings, tmp_path):
    import csv
    import io
    import subprocess

    from classroom.models import ProgressReport
    from classroom.progress import services
    from classroom.progress.forms import DEFAULT_DAYS
    from classroom.progress.selectors import Period

    settings.MEDIA_ROOT = tmp_path
    classroom, _ana, _ben = _class_with_table_answers()
    period = Period.last_days(DEFAULT_DAYS)
    report = ProgressReport.objects.create(
        classroom=classroom, period_start=period.start, period_end=period.end
    )
    assert services.report_compile(report_id=report.pk) == "done"
    report.refresh_from_db()
    rows = {
        (row["Student"], row["skill_code"]): row
        for row in csv.DictReader(io.StringIO(report.csv_file.read().decode("utf-8-sig")))
    }
    ana = rows["Ana", "add.within10"]
    levels = ("Level", "level_code", "Latest answers", "Right of the latest")
    levels += ("Fluent of the latest",)
    assert [ana[k] for k in levels] == ["Mastered", "mastered", "10", "9", "8"]
    assert rows["Ben", "add.within10"]["level_code"] == "proficient"  # right, never within 3 s
    assert rows["Ana", "all"]["Most-missed facts"] == "4 + 3 (5); 7 × 6 (1)"
    pdf = subprocess.run(
        ["pdftotext", "-layout", report.pdf_file.path, "-"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    pages = pdf.split("\f")
    # Row 3 of the addition grid: the class's 14 right of 19 on 3 + 4, Ana's latest 9 of 10
    assert re.search(r"\n\s*3\s+74%\s", pages[0])
    ana_number, ana_page = next(
        (number, page) for number, page in enumerate(pages, 1) if page.lstrip().startswith("Ana")
    )
    levels_column = level_column_text(report.pdf_file.path, ana_number)
    assert "Mastered: 9 of the latest 10 right, 8 fluent" in levels_column
    assert re.search(r"\n\s*3\s+90% ✓\s", ana_page)
    assert "1/2" in ana_page  # 6 x 7: too few answers to shade
