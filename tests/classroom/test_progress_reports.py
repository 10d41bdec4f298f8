"""Progress reports: the request page, the Celery task (CSV, PDF, idempotent, retry-safe after a
worker died), the status page and downloads, and the weekly beat task."""

import csv
import datetime
import io
import os
import re
import subprocess
import sys
from html import unescape

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from classroom.models import ProgressReport
from classroom.progress import report_files, services
from classroom.progress.selectors import Period
from classroom.progress.tasks import compile_progress_report, compile_weekly_reports
from config.celery import app as celery_app
from tests.classroom.report_pdf_helpers import level_column_text
from tests.factories import make_attempts, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
DAY1 = datetime.datetime(2026, 3, 3, 10, tzinfo=UTC)
DAY2 = datetime.datetime(2026, 3, 11, 10, tzinfo=UTC)
PERIOD = Period(datetime.date(2026, 3, 1), datetime.date(2026, 3, 14))


class WorkerDied(BaseException):
    """Stands for the worker process being killed: no `except Exception` sees it."""


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture(autouse=True)
def eager_celery():
    # The services pass sets REDIS_URL, which sends tasks to the broker; here they run in-process.
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved


@pytest.fixture
def classroom():
    classroom = make_class(name="Class 4A")
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "=Ben", secret="1111")  # a formula in a spreadsheet
    make_student(classroom, "Carla", secret="2222")  # no answers at all
    make_attempts(
        ana,
        [
            (3, "+", 4, 7, 1200, DAY1),
            (3, "+", 4, 8, 1800, DAY1),
            (4, "+", 3, 7, 2600, DAY2),
            (6, "x", 7, 24, 7000, DAY2),
        ],
    )
    make_attempts(ben, [(9, "+", 8, 17, 2000, DAY2), (9, "+", 8, 16, 3000, DAY2)])
    return classroom


def new_report(classroom, period=PERIOD, **kwargs):
    return ProgressReport.objects.create(
        classroom=classroom, period_start=period.start, period_end=period.end, **kwargs
    )


def read(field):
    with field.open("rb") as handle:
        return handle.read()


def pdf_pages(path):
    info = subprocess.run(["pdfinfo", path], capture_output=True, text=True, check=True).stdout
    return int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))


def pdf_text(path, page):
    return subprocess.run(
        ["pdftotext", "-layout", "-f", str(page), "-l", str(page), path, "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_the_task_writes_the_csv_and_the_pdf(classroom):
    report = new_report(classroom)
    assert compile_progress_report.delay(report.pk).get() == "done"
    report.refresh_from_db()
    assert report.status == ProgressReport.Status.DONE and report.tries == 1
    assert report.finished_at is not None and report.error == ""

    text = read(report.csv_file).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    # Words and figures as the pages have them, then the codes for a program.
    assert rows[0] == [
        *["Student", "Skill", "Answers", "Right", "Accuracy", "Median answer time (s)"],
        *["Level", "Latest answers", "Right of the latest", "Fluent of the latest"],
        *["Days right and fluent", "Last seen"],
        *["Wrong operation", "Carrying or borrowing slip", "Neighbouring times-table fact"],
        *["Another fact of the same times table", "Misread a number", "Digits reversed"],
        *["Off by one", "Off by two", "Off by ten", "Gave back a number of the problem"],
        *["Far off (a guess?)", "Other slips"],
        *["Most-missed facts", "skill_code", "operation_code", "range_code", "level_code"],
    ]
    off_by_one, reversed_digits, both = ["0"] * 12, ["0"] * 12, ["0"] * 12
    off_by_one[6] = both[6] = "1"
    reversed_digits[5] = both[5] = "1"
    no_level = [""] * 6
    few = "too few answers"
    assert rows[1:] == [
        # a student's totals, then their skills; Carla, with no answers, has no row
        [
            *["'=Ben", "All skills", "2", "1", few, "2.5", *no_level, *off_by_one, "9 + 8 (1)"],
            *["all", "", "", ""],
        ],
        [
            *["'=Ben", "Addition within 20", "2", "1", few, "2.5", "Practising", "2", "1", "1"],
            *["1", "2026-03-11", *off_by_one, "", "add.within20", "add", "within20"],
            "practising",
        ],
        [
            *["Ana", "All skills", "4", "2", few, "2.2", *no_level, *both],
            *["4 + 3 (1); 7 × 6 (1)", "all", "", "", ""],
        ],
        [
            *["Ana", "Addition within 10", "3", "2", few, "1.8", "Practising", "3", "2", "2"],
            *["2", "2026-03-11", *off_by_one, "", "add.within10", "add", "within10"],
            "practising",
        ],
        [
            *["Ana", "Multiplication within 100", "1", "0", few, "7.0", "Practising", "1", "0"],
            *["0", "0", "2026-03-11", *reversed_digits, "", "mul.within100", "mul", "within100"],
            "practising",
        ],
    ]

    path = report.pdf_file.path
    assert pdf_pages(path) == 4  # the class summary, then Ana, Ben and Carla
    summary = pdf_text(path, 1)
    assert "Progress report: Class 4A" in summary
    assert "Students" in summary and "Most-missed facts" in summary
    assert re.search(r"4 ?\+ ?3 +1", summary)  # the missed facts, with their misses
    assert "Median times are within 0.2 s of the exact value" in " ".join(summary.split())
    for page, name in [(2, "=Ben"), (3, "Ana"), (4, "Carla")]:
        text = pdf_text(path, page)
        assert text.lstrip().startswith(name), text
    ana = pdf_text(path, 3)
    assert "Multiplication within 100" in ana
    # The level column: the level and how it was reached, as the student page says it.
    reached = "Practising: 0 of the latest 1 right, 0 fluent, on 0 days; last seen 11 Mar 2026"
    assert reached in level_column_text(path, 3)
    assert "Fact grids" in ana and "Multiplication facts, 1 × 1 to 10 × 10" in ana
    assert re.search(r"6 +0/1", ana)  # 6 x 7 in the times grid: 0 right of 1
    assert "No answers in this period." in pdf_text(path, 4)


def test_the_report_is_written_in_the_teachers_language(classroom):
    make_attempts(
        classroom.enrollments.get(student__display_name="Ana").student,
        [(2, "+", 2, 4, 2250, DAY2)] * 4,
    )
    report = new_report(classroom, language="es")
    compile_progress_report.delay(report.pk)
    report.refresh_from_db()
    assert "Informe de progreso: Class 4A" in pdf_text(report.pdf_file.path, 1)
    text = read(report.csv_file).decode("utf-8-sig")
    # A Spanish spreadsheet reads "2,3" as a number and so splits a line at ";", not ",": a
    # comma-separated file opened there is one column.
    assert text.splitlines()[0].startswith("Estudiante;Destreza;")
    rows = list(csv.DictReader(io.StringIO(text), delimiter=";"))
    ana = {row["skill_code"]: row for row in rows if row["Estudiante"] == "Ana"}
    # 6 of the 7 answers within 10 right: 86%, as the pages round; 2.25 s is 2,3 s on the pages.
    assert ana["add.within10"]["Destreza"] == "Suma hasta 10"
    assert ana["add.within10"]["Acierto"] == "86%"
    assert ana["add.within10"]["Tiempo mediano de respuesta (s)"] == "2,3"
    assert ana["add.within10"]["Nivel"] == "Competente"
    assert ana["all"]["Destreza"] == "Todas las destrezas"


def test_the_pdfs_charts_are_the_pages_charts_drawn_as_text_and_lines(classroom, monkeypatch):
    """One path for the charts: the PDF's come from charts.py (the pages' SVG, converted), so
    every word of them is in the PDF's text layer, in the report's language; no second drawing
    library is loaded."""
    from classroom.progress import charts

    drawn = []
    for name in ("bar_chart", "line_chart"):
        real = getattr(charts, name)

        def spy(*args, real=real, **kwargs):
            svg = real(*args, **kwargs)
            drawn.append((kwargs["chart_id"], svg))
            return svg

        monkeypatch.setattr(charts, name, spy)
    report = new_report(classroom, language="es")
    assert compile_progress_report.delay(report.pk).get() == "done"
    report.refresh_from_db()
    ana = get_user_model().objects.get(display_name="Ana")
    pdf_words = set(pdf_text(report.pdf_file.path, 3).split())  # Ana's page
    shown = {chart_id: svg for chart_id, svg in drawn if chart_id.startswith(f"student-{ana.pk}-")}
    assert set(shown) >= {f"student-{ana.pk}-accuracy", f"student-{ana.pk}-trend"}
    for chart_id in (f"student-{ana.pk}-accuracy", f"student-{ana.pk}-trend"):
        texts = [unescape(t) for t in re.findall(r"<(?:text|title)[^>]*>([^<]*)<", shown[chart_id])]
        words = {word for text in texts for word in text.split()}
        assert words <= pdf_words, (chart_id, words - pdf_words)
    # In Spanish, and the chart's own words: its titles, legend, week labels and ticks.
    for words in ("Precisión por destreza", "Todas las operaciones", "Multiplicación", "25%"):
        assert set(words.split()) <= pdf_words, words
    assert "matplotlib" not in sys.modules


def pdf_words(path):
    """Every page's words with their boxes, in points from the page's top left, as pdftotext
    reads them (`-bbox`): [(text, x_min, y_min, x_max, y_max), ...] per page."""
    from xml.etree import ElementTree

    xhtml = subprocess.run(
        ["pdftotext", "-bbox", path, "-"], capture_output=True, text=True, check=True
    ).stdout
    namespace = "{http://www.w3.org/1999/xhtml}"
    return [
        [
            (word.text, *(float(word.get(key)) for key in ("xMin", "yMin", "xMax", "yMax")))
            for word in page.iter(f"{namespace}word")
        ]
        for page in ElementTree.fromstring(xhtml).iter(f"{namespace}page")
    ]


def words_too_close(words, gap=0.5):
    """Pairs of words on one line (their heights overlap by more than half) less than `gap`
    points apart or overlapping: text running into its neighbour. The narrowest space between
    two words of the report is a fact grid's thin space before a tick, 1 point."""
    close = []
    for i, (text, x0, y0, x1, y1) in enumerate(words):
        for other, u0, v0, u1, v1 in words[i + 1 :]:
            shared = min(y1, v1) - max(y0, v0)
            if shared > 0.5 * min(y1 - y0, v1 - v0) and u0 < x1 + gap and x0 < u1 + gap:
                close.append((text, other, round(x0), round(y0)))
    return close


def words_run_together(words):
    """Words whose box is not as wide as their text set in the report's font at their height
    (pdftotext reads two texts that meet as one word: "RespuestasCorrectas")."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from classroom import pdf_fonts

    fonts = pdf_fonts.register(report_files.FONT, report_files.FONT_BOLD)
    return [
        text
        for text, x0, y0, x1, y1 in words
        if min(abs(x1 - x0 - stringWidth(text, font, y1 - y0)) for font in fonts) > 0.25
    ]


@pytest.mark.parametrize("language", ["en", "es"])
def test_no_text_of_the_pdfs_tables_runs_into_its_neighbour(classroom, language):
    """What a teacher sees: on every page no two words of a line overlap or touch (a header
    too wide for its column, "too few answers" over the next column's numbers, a fact grid's
    "100% ✓" over the next cell's), and every word of every table's headers is a word of its
    own."""
    from collections import Counter

    from django.utils import translation

    ana = get_user_model().objects.get(display_name="Ana")
    # More skills, and two fluent facts side by side in the grid: "100% ✓" twice.
    fluent = [(2, "+", 2, 4, 1000, DAY2), (2, "+", 3, 5, 1000, DAY2)] * 5
    make_attempts(ana, [(45, "+", 38, 83, 4000, DAY2), (9, "-", 7, 2, 3000, DAY2), *fluent])
    report = new_report(classroom, language=language)
    assert compile_progress_report.delay(report.pk).get() == "done"
    report.refresh_from_db()
    pages = pdf_words(report.pdf_file.path)
    assert len(pages) == 4
    for number, words in enumerate(pages, start=1):
        assert words_too_close(words) == [], number
        assert words_run_together(words) == [], number

    with translation.override(language):
        _ = translation.gettext
        figures = [_("Answers"), _("Right"), _("Accuracy"), _("Median answer time")]
        where = [_("Most-missed facts"), _("Misses"), _("Kinds of slips"), _("Wrong answers")]
        students = [_("Student"), _("Answers"), _("Accuracy"), _("Median"), _("Weakest skill")]
        headers = {
            1: [_("Students"), *figures, _("Skill"), *figures, *where, *students],
            3: [*figures, _("Skill"), *figures, _("Level (latest answers)"), *where],
        }
        too_few = _("too few answers")
    for number, texts in headers.items():
        seen = Counter(text for text, *_box in pages[number - 1])
        wanted = Counter(word for text in texts for word in text.split())
        assert wanted - seen == Counter(), (number, wanted - seen)
    assert Counter(too_few.split()) - Counter(text for text, *_box in pages[2]) == Counter()


def test_running_the_task_twice_changes_nothing(classroom):
    report = new_report(classroom)
    compile_progress_report.delay(report.pk)
    report.refresh_from_db()
    files = read(report.csv_file), read(report.pdf_file)
    finished = report.finished_at

    assert compile_progress_report.delay(report.pk).get() == "skipped"
    report.refresh_from_db()
    assert (report.tries, report.finished_at) == (1, finished)
    # Compiled afresh (as a redelivered task would), the files are byte for byte the same.
    ProgressReport.objects.filter(pk=report.pk).update(status=ProgressReport.Status.RUNNING)
    assert compile_progress_report.delay(report.pk).get() == "done"
    report.refresh_from_db()
    assert (read(report.csv_file), read(report.pdf_file)) == files
    assert report.tries == 2
    assert sorted(os.listdir(os.path.dirname(report.pdf_file.path))) == sorted(
        os.path.basename(name) for name in (report.csv_file.name, report.pdf_file.name)
    )


def test_a_worker_that_dies_mid_way_is_followed_by_a_run_that_finishes(classroom, monkeypatch):
    clean = new_report(classroom)
    compile_progress_report.delay(clean.pk)
    clean.refresh_from_db()

    report = new_report(classroom)
    real_replace = os.replace

    def die_on_the_pdf(source, target):
        if target.endswith(".pdf"):
            raise WorkerDied  # the CSV is in place, the PDF only half written
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", die_on_the_pdf)
    with pytest.raises(WorkerDied):
        compile_progress_report.delay(report.pk)
    report.refresh_from_db()
    assert report.status == ProgressReport.Status.RUNNING and report.tries == 1
    assert not report.pdf_file and not report.csv_file

    monkeypatch.setattr(os, "replace", real_replace)
    # acks_late: the broker hands the same task to another worker.
    assert compile_progress_report.delay(report.pk).get() == "done"
    report.refresh_from_db()
    assert report.status == ProgressReport.Status.DONE and report.tries == 2
    assert read(report.csv_file) == read(clean.csv_file)
    assert read(report.pdf_file) == read(clean.pdf_file)
    leftovers = [n for n in os.listdir(os.path.dirname(report.pdf_file.path)) if "part" in n]
    assert leftovers == []


def test_an_error_is_retried_by_celery(classroom, monkeypatch):
    real_pdf = report_files.report_pdf
    calls = []

    def flaky(**kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise OSError("disk full")
        return real_pdf(**kwargs)

    monkeypatch.setattr(report_files, "report_pdf", flaky)
    report = new_report(classroom)
    compile_progress_report.delay(report.pk)
    report.refresh_from_db()
    assert report.status == ProgressReport.Status.DONE
    assert report.tries == 2 and len(calls) == 2 and report.error == ""


def test_a_report_that_keeps_failing_is_marked_failed_and_can_be_asked_again(
    classroom, monkeypatch, client, django_capture_on_commit_callbacks
):
    def broken(**kwargs):
        raise ValueError("no good")

    monkeypatch.setattr(report_files, "report_pdf", broken)
    report = new_report(classroom)
    assert compile_progress_report.delay(report.pk).get() == "failed"
    report.refresh_from_db()
    assert report.status == ProgressReport.Status.FAILED
    assert report.tries == compile_progress_report.max_retries + 1
    assert report.error == "ValueError: no good"

    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:progress_report", args=[report.pk])).content.decode()
    assert "could not be compiled" in page and "Try again" in page
    monkeypatch.undo()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("classroom:progress_report_retry", args=[report.pk]))
    report.refresh_from_db()
    assert report.status == ProgressReport.Status.DONE and report.tries == 1


def test_too_many_tries_give_up(classroom):
    report = new_report(classroom, status=ProgressReport.Status.RUNNING, tries=services.MAX_TRIES)
    assert compile_progress_report.delay(report.pk).get() == "gave_up"
    report.refresh_from_db()
    assert report.status == ProgressReport.Status.FAILED and not report.pdf_file


def test_a_run_taken_over_by_a_later_one_does_not_finish_the_report(classroom, monkeypatch):
    real_csv = report_files.report_csv

    def meanwhile_another_run_claims_it(reports):
        ProgressReport.objects.filter(pk=report.pk).update(tries=2)
        return real_csv(reports)

    monkeypatch.setattr(report_files, "report_csv", meanwhile_another_run_claims_it)
    report = new_report(classroom)
    assert services.report_compile(report_id=report.pk) == "superseded"
    report.refresh_from_db()
    assert report.status == ProgressReport.Status.RUNNING and not report.pdf_file


def test_a_teacher_requests_a_report_and_downloads_it(
    classroom, client, django_capture_on_commit_callbacks
):
    client.force_login(classroom.teacher)
    form = client.get(reverse("classroom:progress_reports"), {"classroom": classroom.pk})
    assert f'<option value="{classroom.pk}" selected>' in form.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("classroom:progress_reports"),
            {
                "classroom": classroom.pk,
                "period": "dates",
                "start": "2026-03-01",
                "end": "2026-03-14",
            },
        )
    report = ProgressReport.objects.get()
    assert response["Location"] == reverse("classroom:progress_report", args=[report.pk])
    assert (report.requested_by, report.period_start, report.weekly) == (
        classroom.teacher,
        datetime.date(2026, 3, 1),
        False,
    )
    assert report.status == ProgressReport.Status.DONE  # embedded: Celery ran it eagerly

    status = client.get(reverse("classroom:progress_report_status", args=[report.pk])).json()
    assert status == {"status": "done", "label": "Ready", "pending": False}
    page = client.get(response["Location"]).content.decode()
    pdf_url = reverse("classroom:progress_report_download", args=[report.pk, "pdf"])
    csv_url = reverse("classroom:progress_report_download", args=[report.pk, "csv"])
    assert pdf_url in page and csv_url in page and "js/progress/report-status.js" not in page

    download = client.get(pdf_url)
    assert download["Content-Type"] == "application/pdf"
    assert 'filename="progress-class-4a-20260301-20260314.pdf"' in download["Content-Disposition"]
    assert b"".join(download.streaming_content).startswith(b"%PDF")
    assert client.get(csv_url)["Content-Type"].startswith("text/csv")
    other_kind = reverse("classroom:progress_report_download", args=[report.pk, "doc"])
    assert client.get(other_kind).status_code == 404


def test_the_status_page_of_a_pending_report_updates_itself(classroom, client):
    report = new_report(classroom)
    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:progress_report", args=[report.pk])).content.decode()
    assert "js/progress/report-status.js" in page
    assert '<meta http-equiv="refresh"' in page  # without script
    assert 'role="status"' in page and "Queued" in page
    assert reverse("classroom:progress_report_download", args=[report.pk, "pdf"]) not in page
    download = client.get(reverse("classroom:progress_report_download", args=[report.pk, "pdf"]))
    assert download.status_code == 404
    assert client.get(reverse("classroom:progress_report_status", args=[report.pk])).json() == {
        "status": "queued",
        "label": "Queued",
        "pending": True,
    }


# --- the weekly report (Celery beat) -------------------------------------------------------------


def test_beat_compiles_last_weeks_report_for_each_class_with_activity(
    django_capture_on_commit_callbacks,
):
    assert settings.CELERY_BEAT_SCHEDULE["weekly-progress-reports"]["task"] == (
        compile_weekly_reports.name
    )
    celery_app.loader.import_default_modules()
    assert compile_weekly_reports.name in celery_app.tasks
    assert compile_progress_report.name in celery_app.tasks

    today = timezone.localdate()
    last_wednesday = today - datetime.timedelta(days=today.weekday() + 5)
    when = datetime.datetime.combine(last_wednesday, datetime.time(10), tzinfo=UTC)
    busy = make_class(make_teacher(), name="Busy")
    make_attempts(make_student(busy, "Ana"), [(2, "+", 3, 5, 1000, when)])
    quiet = make_class(make_teacher(), name="Quiet")
    make_attempts(make_student(quiet, "Ben"), [(2, "+", 3, 5, 1000, timezone.now())])
    make_class(make_teacher(), name="Empty")

    with django_capture_on_commit_callbacks(execute=True):
        assert compile_weekly_reports.delay().get() == 1
    report = ProgressReport.objects.get()
    assert report.classroom == busy and report.weekly
    assert report.period_start == last_wednesday - datetime.timedelta(days=2)  # a Monday
    assert report.period_end == report.period_start + datetime.timedelta(days=6)
    assert report.status == ProgressReport.Status.DONE
    # Beat firing twice (or a retried beat task) makes no second report.
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert compile_weekly_reports.delay().get() == 0
    assert callbacks == []
    assert ProgressReport.objects.count() == 1


def test_beat_reports_a_schools_week_once_it_is_over_there(
    monkeypatch, django_capture_on_commit_callbacks
):
    """At 05:05 on Monday (UTC) it is still Sunday in Mexico City: that school's week is reported
    at its own midnight, with the answers of its Sunday evening."""
    from classroom import services as classroom_services

    teacher = make_teacher()
    classroom_services.teacher_time_zone_set(teacher=teacher, time_zone="America/Mexico_City")
    classroom = make_class(teacher, name="Tlalpan")
    sunday_evening = datetime.datetime(2026, 3, 9, 4, tzinfo=UTC)  # 22:00 on Sunday 8 March there
    make_attempts(make_student(classroom, "Ana"), [(2, "+", 3, 5, 1000, sunday_evening)])

    def beat_at(moment):
        monkeypatch.setattr(timezone, "now", lambda: moment)
        with django_capture_on_commit_callbacks(execute=True):
            compile_weekly_reports.delay()
        monkeypatch.undo()

    beat_at(datetime.datetime(2026, 3, 9, 5, 5, tzinfo=UTC))
    assert not ProgressReport.objects.exists()
    beat_at(datetime.datetime(2026, 3, 9, 6, 5, tzinfo=UTC))
    report = ProgressReport.objects.get()
    assert (report.period_start, report.period_end, report.weekly) == (
        datetime.date(2026, 3, 2),
        datetime.date(2026, 3, 8),
        True,
    )
    rows = list(csv.DictReader(io.StringIO(read(report.csv_file).decode("utf-8-sig"))))
    assert [(r["Student"], r["Answers"]) for r in rows if r["skill_code"] == "all"] == [
        ("Ana", "1")
    ]
    beat_at(datetime.datetime(2026, 3, 9, 7, 5, tzinfo=UTC))  # the next hour: no second report
    assert ProgressReport.objects.count() == 1


def test_every_text_cell_that_starts_like_a_formula_is_neutralised_and_numbers_are_not():
    import csv
    import io

    from classroom.progress.report_files import write_row

    out = io.StringIO()
    write_row(
        csv.writer(out), ["=1+1", "+A1", "-Ana", "@SUM", "\tx", "\rx", "Ana", -3, 2.5, "", "+", "-"]
    )
    assert next(csv.reader(io.StringIO(out.getvalue()))) == [
        "'=1+1", "'+A1", "'-Ana", "'@SUM", "'\tx", "'\rx", "Ana", "-3", "2.5", "", "+", "-",
    ]  # fmt: skip


# --- stuck reports and repeated requests ----------------------------------------------------------


def test_two_quick_requests_for_one_class_and_period_make_one_report(classroom, client):
    client.force_login(classroom.teacher)
    ask = {"classroom": classroom.pk, "period": "dates", "start": "2026-03-01", "end": "2026-03-14"}
    # No commit in this test's transaction: the first report stays queued while the second comes.
    first = client.post(reverse("classroom:progress_reports"), ask)
    second = client.post(reverse("classroom:progress_reports"), ask)
    report = ProgressReport.objects.get()
    assert (
        first["Location"]
        == second["Location"]
        == reverse("classroom:progress_report", args=[report.pk])
    )
    # Another period is another report.
    client.post(reverse("classroom:progress_reports"), {**ask, "end": "2026-03-13"})
    assert ProgressReport.objects.count() == 2


def ask_for_a_report(client, classroom, start, end, django_capture_on_commit_callbacks, **headers):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("classroom:progress_reports"),
            {"classroom": classroom.pk, "period": "dates", "start": start, "end": end},
            **headers,
        )
    return ProgressReport.objects.get(pk=response["Location"].rstrip("/").split("/")[-1])


def test_asking_again_for_a_ready_report_of_a_past_period_returns_it(
    classroom, client, django_capture_on_commit_callbacks
):
    client.force_login(classroom.teacher)
    ask = (classroom, "2026-03-01", "2026-03-14", django_capture_on_commit_callbacks)
    first = ask_for_a_report(client, *ask)
    assert first.status == ProgressReport.Status.DONE and first.tries == 1
    again = ask_for_a_report(client, *ask)
    # The same report, not compiled again: the period was over when it was compiled.
    assert again.pk == first.pk and (again.tries, again.finished_at) == (1, first.finished_at)
    assert ProgressReport.objects.count() == 1
    # In another language it is another report.
    spanish = ask_for_a_report(client, *ask, HTTP_ACCEPT_LANGUAGE="es")
    assert spanish.pk != first.pk and spanish.language == "es"
    assert ProgressReport.objects.count() == 2


def test_asking_again_for_a_report_of_a_period_not_over_compiles_it_again_in_place(
    classroom, client, django_capture_on_commit_callbacks
):
    """Answers given since the report was compiled belong in it: the same report is compiled
    again, rather than a second row made."""
    client.force_login(classroom.teacher)
    today = timezone.localdate()
    ask = (classroom, today - datetime.timedelta(days=6), today, django_capture_on_commit_callbacks)
    ana = classroom.enrollments.get(student__display_name="Ana").student
    make_attempts(ana, [(2, "+", 2, 4, 1000)])
    first = ask_for_a_report(client, *ask)
    make_attempts(ana, [(2, "+", 2, 4, 1000)])
    again = ask_for_a_report(client, *ask)
    assert again.pk == first.pk and again.status == ProgressReport.Status.DONE
    assert ProgressReport.objects.count() == 1
    rows = list(csv.DictReader(io.StringIO(read(again.csv_file).decode("utf-8-sig"))))
    assert [r["Answers"] for r in rows if r["skill_code"] == "all"] == ["2"]


def test_asking_again_for_a_failed_report_tries_it_again(
    classroom, client, django_capture_on_commit_callbacks
):
    failed = new_report(classroom, requested_by=classroom.teacher)
    ProgressReport.objects.filter(pk=failed.pk).update(
        status=ProgressReport.Status.FAILED, tries=services.MAX_TRIES, error="gave up"
    )
    client.force_login(classroom.teacher)
    again = ask_for_a_report(
        client, classroom, PERIOD.start, PERIOD.end, django_capture_on_commit_callbacks
    )
    assert again.pk == failed.pk and again.status == ProgressReport.Status.DONE
    assert ProgressReport.objects.count() == 1


def test_a_report_whose_worker_died_is_sent_again_by_the_sweep_and_finishes(classroom, client):
    report = new_report(classroom)
    # A worker claimed it three minutes ago and was killed: RUNNING, one try, nothing more.
    claimed = timezone.now() - datetime.timedelta(minutes=3)
    ProgressReport.objects.filter(pk=report.pk).update(
        status=ProgressReport.Status.RUNNING, tries=1, started_at=claimed, queued_at=claimed
    )
    fresh = new_report(classroom)
    ProgressReport.objects.filter(pk=fresh.pk).update(
        status=ProgressReport.Status.RUNNING, tries=1, started_at=timezone.now()
    )
    assert services.reports_sweep(now=timezone.now() + datetime.timedelta(seconds=1)) == [report.pk]
    report.refresh_from_db()
    # The teacher is told it is being tried again, not an eternal "Queued".
    assert report.status == ProgressReport.Status.QUEUED
    client.force_login(classroom.teacher)
    status = client.get(reverse("classroom:progress_report_status", args=[report.pk])).json()
    assert status == {"status": "queued", "label": "Delayed: trying again (try 2)", "pending": True}
    # Sent to the workers once the sweep commits (embedded: run here).
    compile_progress_report.delay(report.pk)
    report.refresh_from_db()
    assert report.status == ProgressReport.Status.DONE and report.tries == 2
    # A report still within its bound is left to its worker.
    assert ProgressReport.objects.get(pk=fresh.pk).status == ProgressReport.Status.RUNNING


def test_a_report_no_worker_ever_took_is_sent_again(classroom):
    report = new_report(classroom)
    long_ago = timezone.now() - datetime.timedelta(minutes=5)
    ProgressReport.objects.filter(pk=report.pk).update(queued_at=long_ago)
    assert services.reports_sweep() == [report.pk]
    report.refresh_from_db()
    assert report.queued_at > long_ago and report.status == ProgressReport.Status.QUEUED
    assert services.reports_sweep() == []  # not again until the bound has passed once more


def test_the_sweep_is_on_the_beats_schedule():
    entries = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "classroom.progress.tasks.sweep_stuck_reports" in entries
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] >= 10 * 60
