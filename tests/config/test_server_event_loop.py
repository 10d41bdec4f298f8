"""The site's server processes start through ``python -m config.server`` (Daphne on uvloop); these
tests start it as the load test's fleet does (``DAPHNE``, the command ``make run`` and the Docker
image also run), serving ``application`` below, which answers with the kind of event loop it
runs on."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tools.loadtest.servers import DAPHNE, free_port
from tools.processes import stop

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 30


async def application(scope, receive, send):
    """The loop's class, as ``module.Name``, to every HTTP request."""
    if scope["type"] != "http":
        return
    loop = type(asyncio.get_running_loop())
    headers = [(b"content-type", b"text/plain")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    body = f"{loop.__module__}.{loop.__name__}".encode()
    await send({"type": "http.response.body", "body": body})


def _loop_of_a_server(tmp_path, chosen: str | None) -> str:
    env = {name: value for name, value in os.environ.items() if name != "SERVER_EVENT_LOOP"}
    if chosen is not None:
        env["SERVER_EVENT_LOOP"] = chosen
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [*DAPHNE, "-b", "127.0.0.1", "-p", str(port), f"{__name__}:application"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as answer:
                    return answer.read().decode()
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the server did not answer:\n{log.read_text(errors='replace')}")
                time.sleep(0.1)
    finally:
        stop(process)


@pytest.mark.timeout(60)
def test_the_server_runs_on_uvloop(tmp_path):
    assert _loop_of_a_server(tmp_path, None) == "uvloop.Loop"


@pytest.mark.timeout(60)
def test_the_operator_can_keep_asyncios_own_loop(tmp_path):
    assert _loop_of_a_server(tmp_path, "asyncio").startswith("asyncio.")


def test_an_unknown_loop_is_refused_before_the_server_starts():
    refused = subprocess.run(
        [sys.executable, "-m", "config.server", "--help"],
        cwd=ROOT,
        env={**os.environ, "SERVER_EVENT_LOOP": "trio"},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert refused.returncode != 0
    assert "SERVER_EVENT_LOOP is one of uvloop, asyncio, not 'trio'" in refused.stderr
