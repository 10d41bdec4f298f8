"""A real Celery worker killed (kill -9, parent and child) while it compiles a progress report:
after a new worker starts, the beat's sweep sends the report again and it is done exactly once,
within a bound (the sweep's, set here to 2 s, plus one compilation)."""

import contextlib
import datetime
import os
import signal
import subprocess
import sys
import time

import pytest
from django.utils import timezone

from classroom.models import ProgressReport
from classroom.progress import services as reports
from classroom.progress.selectors import Period
from tests.factories import make_attempts, make_class, make_student
from tools.loadtest.servers import database_url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services, pytest.mark.slow]

STUCK_AFTER_S = 2
RECOVERY_BOUND_S = 30  # from the new worker's start to the report being done


def a_class_worth_a_second_of_compiling():
    classroom = make_class(name="Class 4A")
    now = timezone.now() - datetime.timedelta(hours=2)
    for n in range(12):
        student = make_student(classroom, f"Student {n:02d}", kind="", secret=None)
        make_attempts(
            student,
            [
                (a, "+", b, a + b + (n % 2), 1000 + 100 * a, now)
                for a in range(1, 9)
                for b in (2, 3)
            ],
        )
    return classroom


def start_worker(queue: str, log_path, media_root) -> subprocess.Popen:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url(),
        "MEDIA_ROOT": str(media_root),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency=1", "-Q", queue],
        stdout=log_path.open("ab"),
        stderr=subprocess.STDOUT,
        env=env,
        start_new_session=True,  # its own process group: kill -9 takes parent and child
    )


def kill_whole(worker: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(worker.pid, signal.SIGKILL)
    worker.wait(timeout=10)


def wait_for(condition, seconds, what, log_path):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} not within {seconds} s\n{log_path.read_text()[-3000:]}")
        time.sleep(0.01)


@pytest.mark.timeout(150)
def test_a_report_whose_whole_worker_was_killed_is_done_once_after_a_new_worker_starts(
    services, settings, tmp_path, monkeypatch
):
    from config.celery import app

    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PROGRESS_REPORT_STUCK_AFTER_SECONDS = STUCK_AFTER_S
    queue = f"reports-{os.getpid()}-{time.monotonic_ns()}"  # this test's own
    monkeypatch.setitem(app.conf, "task_default_queue", queue)
    classroom = a_class_worth_a_second_of_compiling()
    log = tmp_path / "workers.log"

    first = start_worker(queue, log, settings.MEDIA_ROOT)
    workers = [first]
    try:
        today = timezone.localdate()
        report = reports.report_request(
            classroom=classroom, period=Period(today - datetime.timedelta(days=1), today)
        )

        def state():
            report.refresh_from_db()
            return report.status

        wait_for(lambda: state() == "running", 60, "the first worker taking the report", log)
        kill_whole(first)
        assert state() == "running" and report.tries == 1  # stuck, as a killed worker leaves it

        second = start_worker(queue, log, settings.MEDIA_ROOT)
        workers.append(second)
        started = time.monotonic()
        # The beat's sweep, once the report has been stuck past its bound.
        time.sleep(STUCK_AFTER_S + 0.5)
        assert reports.reports_sweep() == [report.pk]
        wait_for(lambda: state() == "done", RECOVERY_BOUND_S, "the report being done", log)
        recovery = time.monotonic() - started
        print(f"report done {recovery:.1f} s after the new worker started")
        assert report.tries == 2  # the killed run and the one that finished: once each
        assert report.csv_file and report.pdf_file
        folder = settings.MEDIA_ROOT / f"reports/class-{classroom.pk}"
        files = sorted(p.name for p in folder.iterdir())
        assert len(files) == 2 and not [n for n in files if "part" in n], files
        assert ProgressReport.objects.count() == 1
    finally:
        for worker in workers:
            if worker.poll() is None:
                kill_whole(worker)
