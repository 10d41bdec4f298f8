"""`make run` (the README's main command) serves the site with Daphne: / and /healthz answer 200."""

import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, timeout: float = 90.0):
    deadline = time.monotonic() + timeout
    while True:
        try:
            return urllib.request.urlopen(url, timeout=2)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


# `make run` migrates and seeds the demo class (which plays its lessons) before Daphne listens:
# about 45 s on a quiet machine, more than 90 s while the rest of the suite shares the 2 cores.
# It runs embedded whatever the environment (its own SQLite file): the embedded pass is its pass.
@pytest.mark.embedded
@pytest.mark.timeout(420)
def test_make_run_serves_the_landing_page_and_healthz(tmp_path, one_make_run_at_a_time):
    port = free_port()
    # A fresh shell's `make run`: none of this test run's service settings, nor the variables of
    # an outer `make` (MAKEFLAGS would hand it the outer command line's DATABASE_URL).
    outer = {"DATABASE_URL", "REDIS_URL", "DJANGO_ENV", "MAKEFLAGS", "MFLAGS", "MAKELEVEL"}
    env = {k: v for k, v in os.environ.items() if k not in outer}
    # The embedded default, on a database file of this test's own.
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'run.sqlite3'}"
    server = subprocess.Popen(
        ["make", "run", f"PORT={port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        landing = wait_for(f"http://127.0.0.1:{port}/", timeout=300.0)
        assert landing.status == 200
        assert "Arithmetic games classroom" in landing.read().decode()
        health = urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5)
        assert health.status == 200
        assert json.loads(health.read())["status"] == "ok"
        css = urllib.request.urlopen(f"http://127.0.0.1:{port}/static/css/site.css", timeout=5)
        assert css.status == 200
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        output, _ = server.communicate(timeout=30)
        print(output)  # shown by pytest when the test fails
    # make run prints the demo logins for whoever started it.
    assert "teacher@example.com" in output
    assert "MATH34" in output
