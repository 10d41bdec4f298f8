"""The benchmark command runs end to end (tiny sizes here; `bench_progress` alone seeds 30
students and 200,000 attempts) and leaves nothing behind."""

import io
import re

import pytest
from django.core.management import call_command

from accounts.models import User
from classroom.models import Classroom, SkillDay
from games.models import Attempt, Match

pytestmark = pytest.mark.django_db


def test_bench_progress_prints_its_figures_and_cleans_up(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    out = io.StringIO()
    call_command("bench_progress", students=3, attempts=500, requests=2, stdout=out)
    text = out.getvalue()

    assert "3 students, 500 attempts over 90 days" in text
    assert re.search(r"report compile: [\d.]+ s \(first, cold: [\d.]+ s\)", text)
    pages = re.findall(r"^(.+?): median (\d+) ms .* (\d+) queries", text, re.M)
    assert [name for name, _, _ in pages] == [
        "class page, last 30 days",
        "class page, last 90 days",
        "student page, last 30 days",
        "student page, last 90 days",
        "class fact grids, last 30 days",
        "class fact grids, last 90 days",
        "games and time, last 30 days",
        "games and time, last 90 days",
        "report list",
    ]
    assert all(int(queries) <= 20 for _, _, queries in pages)
    assert "cleaned up" in text
    assert not Attempt.objects.exists() and not Match.objects.exists()
    assert not SkillDay.objects.exists() and not Classroom.objects.exists()
    assert not User.objects.exists()
    assert not list(tmp_path.rglob("*.pdf"))


def test_bench_progress_seeds_what_it_says(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    call_command(
        "bench_progress", students=2, attempts=301, requests=1, keep=True, stdout=io.StringIO()
    )
    classroom = Classroom.objects.get()
    students = [e.student for e in classroom.enrollments.all()]
    assert len(students) == 2
    assert Attempt.objects.filter(user__in=students).count() == 301
    # Counted into the rollups as live play counts them.
    assert sum(SkillDay.objects.values_list("attempts", flat=True)) == 301
