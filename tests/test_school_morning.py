"""tools.school_morning, run as the lead runs it (a process of its own, its own SQLite file): a
small morning at a high speed seats every child and exits 0."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.timeout(400)
def test_a_small_morning_seats_every_child(tmp_path):
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    }
    environment["DATABASE_URL"] = f"sqlite:///{tmp_path}/morning.sqlite3"
    environment["PYTHONPATH"] = str(ROOT)
    run = subprocess.run(
        [sys.executable, "-m", "tools.school_morning", "--children", "60", "--speed", "120"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=380,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "legitimate children refused (never seated): 0" in run.stdout
    assert "the teacher at the school address afterwards: 302" in run.stdout
