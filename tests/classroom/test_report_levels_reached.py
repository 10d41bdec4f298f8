"""The report's PDF and CSV say how each level was reached, as the student page does
(docs/progress.md, "Mastery and the fact grids"): the latest answers, how many right and fluent,
on how many days, and the day last seen, counted in the school's zone, its date worded in the
report's language. Through the request page, with Celery run in-process, and against the student
page's own words."""

import csv
import datetime
import io
import re
from html import unescape

import pytest
from django.urls import reverse

from classroom.models import ProgressReport
from config.celery import app as celery_app
from tests.classroom.report_pdf_helpers import level_column_text
from tests.factories import make_attempts, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
TUESDAY = datetime.datetime(2026, 3, 3, 10, tzinfo=UTC)
# 23:30 UTC on Wednesday 4 March is 00:30 on Thursday 5 March in Madrid.
WEDNESDAY_NIGHT_UTC = datetime.datetime(2026, 3, 4, 23, 30, tzinfo=UTC)
WEEK = {"period": "dates", "start": "2026-03-02", "end": "2026-03-08"}


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture(autouse=True)
def eager_celery():
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved


@pytest.fixture
def lesson(settings, client, django_capture_on_commit_callbacks):
    """Ana knows 3 + 4 by heart: five right quick answers on Tuesday and five on Thursday in
    Madrid (late on Wednesday in UTC), and one slow right 6 x 7 on Tuesday."""
    settings.TIME_ZONE = "UTC"  # the site's zone is not the school's
    teacher = make_teacher()
    classroom = make_class(teacher, name="Class 4A")
    ana = make_student(classroom, "Ana")
    client.force_login(teacher)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("classroom:teacher_settings"), {"time_zone": "Europe/Madrid"})
    quick = [(3, "+", 4, 7, 1000)]
    make_attempts(ana, [(*q, TUESDAY) for q in quick * 5])
    make_attempts(ana, [(*q, WEDNESDAY_NIGHT_UTC) for q in quick * 5])
    make_attempts(ana, [(6, "x", 7, 42, 4000, TUESDAY)])
    return classroom, ana


def compiled(client, classroom, capture, language):
    with capture(execute=True):
        response = client.post(
            reverse("classroom:progress_reports"),
            {"classroom": classroom.pk, **WEEK},
            HTTP_ACCEPT_LANGUAGE=language,
        )
    report = ProgressReport.objects.get(pk=response["Location"].rstrip("/").split("/")[-1])
    assert report.status == ProgressReport.Status.DONE, report.error
    assert report.language == language
    return report


def csv_rows(report):
    with report.csv_file.open("rb") as handle:
        text = handle.read().decode("utf-8-sig")
    delimiter = ";" if report.language == "es" else ","
    return list(csv.reader(io.StringIO(text), delimiter=delimiter))


def levels_on_the_student_page(client, classroom, ana, language):
    """Each skill's level and how it was reached, as the student page words them."""
    page = client.get(
        reverse("classroom:progress_student", args=[classroom.pk, ana.pk]),
        WEEK,
        HTTP_ACCEPT_LANGUAGE=language,
    ).content.decode()
    found = re.findall(
        r'<span class="level level-[a-z-]+">([^<]+)</span> <span class="hint">([^<]+)</span>', page
    )
    return [(unescape(level), unescape(reached)) for level, reached in found]


@pytest.mark.parametrize(
    "language, mastered, slow, last_seen",
    [
        ("en", "10 of the latest 10 right, 10 fluent, on 2 days; last seen 5 Mar 2026",
         "1 of the latest 1 right, 0 fluent, on 0 days; last seen 3 Mar 2026", "2026-03-05"),
        ("es", "10 bien de las últimas 10, 10 con soltura, en 2 días; vista por última vez el "
         "5 mar 2026", None, "2026-03-05"),
    ],
)  # fmt: skip
def test_the_pdf_and_the_csv_say_how_each_level_was_reached_as_the_student_page_does(
    client, lesson, language, mastered, slow, last_seen, django_capture_on_commit_callbacks
):
    classroom, ana = lesson
    report = compiled(client, classroom, django_capture_on_commit_callbacks, language)
    on_the_page = levels_on_the_student_page(client, classroom, ana, language)
    assert on_the_page[0][1] == mastered  # Thursday in Madrid, in the page's language
    if slow is not None:
        assert on_the_page[1][1] == slow

    # The PDF's student page: each level with how it was reached, word for word as on the page.
    column = level_column_text(report.pdf_file.path, 2, header=LEVEL_COLUMNS[language][0])
    assert column == " ".join(f"{level}: {reached}" for level, reached in on_the_page)

    # The CSV: the days with a right, fluent answer and the day last seen, beside the level.
    header, *rows = csv_rows(report)
    level_columns = header[6:12]
    assert level_columns == LEVEL_COLUMNS[language]
    by_code = {row[header.index("skill_code")]: dict(zip(header, row, strict=True)) for row in rows}
    addition = [by_code["add.within10"][name] for name in level_columns]
    assert addition == [on_the_page[0][0], "10", "10", "10", "2", last_seen]
    multiplication = [by_code["mul.within100"][name] for name in level_columns]
    assert multiplication[1:] == ["1", "1", "0", "0", "2026-03-03"]
    assert [by_code["all"][name] for name in level_columns] == [""] * 6


LEVEL_COLUMNS = {
    "en": [
        *["Level", "Latest answers", "Right of the latest", "Fluent of the latest"],
        *["Days right and fluent", "Last seen"],
    ],
    "es": [
        *["Nivel", "Últimas respuestas", "Bien de las últimas", "Con soltura de las últimas"],
        *["Días bien y con soltura", "Vista por última vez"],
    ],
}
