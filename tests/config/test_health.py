import asyncio

import pytest
from django.test import AsyncClient

from config import health

pytestmark = pytest.mark.django_db(transaction=True)

READINESS = "/readyz"


async def get_healthz(path=READINESS):
    return await AsyncClient().get(path)


async def test_healthz_reports_each_part_and_200_when_all_work():
    response = await get_healthz()
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["channel_layer"] == "ok"
    assert body["broker"] in {"ok", "eager"}
    assert response["Cache-Control"].startswith("max-age=0")


async def test_healthz_is_503_when_the_database_is_down(monkeypatch):
    async def broken():
        raise ConnectionError("database gone")

    monkeypatch.setattr(health, "_check_database", broken)
    response = await get_healthz()
    assert response.status_code == 503
    assert response.json()["database"] == "down: ConnectionError"
    assert response.json()["channel_layer"] == "ok"


async def test_healthz_is_503_when_the_channel_layer_is_down(monkeypatch):
    async def broken():
        raise OSError("layer gone")

    monkeypatch.setattr(health, "_check_channel_layer", broken)
    response = await get_healthz()
    assert response.status_code == 503
    assert response.json()["channel_layer"] == "down: OSError"


async def test_healthz_is_503_when_the_broker_is_unreachable(settings, monkeypatch):
    from config.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(app.conf, "broker_url", "redis://127.0.0.1:1/0")
    response = await get_healthz()
    assert response.status_code == 503
    assert response.json()["broker"].startswith("down")


async def test_healthz_checks_the_real_postgresql_and_redis(services):
    response = await get_healthz()
    assert response.status_code == 200, response.json()
    body = response.json()
    assert {k: body[k] for k in ("status", "database", "channel_layer", "broker")} == {
        "status": "ok",
        "database": "ok",
        "channel_layer": "ok",
        "broker": "ok",
    }


async def test_readiness_stays_200_with_a_match_socket_open_in_this_process(services):
    """The channel-layer check once read from this process's own channel, where the match hub's
    reader already waits: with a socket open it timed out, and a load balancer would have taken
    every busy server out mid-lesson."""
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.factories import make_class, make_match, make_student, session_cookie_for

    def a_seated_student():
        classroom = make_class()
        ana = make_student(classroom, "Ana")
        match = make_match(players=[ana, make_student(classroom, "Ben", secret="1111")])
        return match, session_cookie_for(ana)

    match, cookie = await database_sync_to_async(a_seated_student)()
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"cookie", cookie.encode())]
    ws = WebsocketCommunicator(application, f"/ws/match/{match.pk}/", headers=headers)
    assert (await ws.connect(timeout=5))[0]
    try:
        assert (await ws.receive_json_from(timeout=5))["type"] == "state"
        for _ in range(3):
            response = await AsyncClient().get(READINESS)
            assert response.status_code == 200, response.json()
            assert response.json()["channel_layer"] == "ok"
    finally:
        await ws.disconnect()


async def test_liveness_touches_no_other_service(monkeypatch):
    def broken():
        raise AssertionError("liveness must not check anything")

    for check in ("_check_database", "_check_channel_layer", "_check_broker", "_workers"):
        monkeypatch.setattr(health, check, broken)
    response = await get_healthz("/livez")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


@pytest.mark.parametrize("probe", ["/livez", "/readyz", "/healthz"])
def test_probes_read_no_session_and_no_user_whatever_cookies_come(probe, django_assert_num_queries):
    """A session cookie made every probe read the session and its user (the time zone's
    middleware, accounts/middleware.py): with the database down, /livez answered 500. Readiness
    checks the database on a connection of its own, never through the session."""
    from django.test import Client

    from tests.factories import make_teacher, session_cookie_for

    client = Client()
    client.cookies.load(session_cookie_for(make_teacher()))
    with django_assert_num_queries(0):
        response = client.get(probe)
    assert response.status_code == 200, response.content


async def test_healthz_is_the_older_name_of_readiness(monkeypatch):
    async def broken():
        raise ConnectionError("database gone")

    monkeypatch.setattr(health, "_check_database", broken)
    response = await get_healthz("/healthz")
    assert response.status_code == 503 and response.json()["database"] == "down: ConnectionError"


async def test_a_hanging_database_is_not_reported_as_a_broker_down(monkeypatch):
    """The broker check once queued behind the database check on the thread Channels shares for
    database work, and timed out with it."""
    import time

    monkeypatch.setattr(health, "CHECK_TIMEOUT_S", 0.5)

    async def hanging():
        await asyncio.sleep(1.0)

    monkeypatch.setattr(health, "_check_database", hanging)

    def broker_on_its_own_thread():
        time.sleep(0.05)  # a round trip to the broker
        return "ok"

    monkeypatch.setattr(health, "_check_broker", broker_on_its_own_thread)
    response = await get_healthz()
    assert response.status_code == 503
    assert response.json()["database"] == "down: TimeoutError"
    assert response.json()["broker"] == "ok"


@pytest.mark.parametrize(
    ("seconds_ago", "workers"),
    [
        (None, "unknown: no worker has reported yet"),
        (20, "ok"),
        (300, "stale: last seen 300 s ago"),
    ],
)
async def test_a_silent_worker_is_reported_without_making_the_server_unready(
    settings, monkeypatch, seconds_ago, workers
):
    import time

    from django.core.cache import cache

    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(health, "_check_broker", lambda: "ok")
    await cache.adelete(health.WORKER_HEARTBEAT_KEY)
    if seconds_ago is not None:
        health.record_worker_heartbeat(time.time() - seconds_ago)
    response = await get_healthz()
    assert response.status_code == 200, response.json()
    assert response.json()["workers"] == workers


@pytest.mark.timeout(90)
def test_a_real_worker_reports_its_rounds(services, tmp_path):
    """A Celery worker takes the heartbeat from the broker and readiness sees it."""
    import os
    import subprocess
    import sys
    import time

    from django.core.cache import cache
    from django.test import Client

    from config.celery import worker_heartbeat
    from tools.processes import stop

    cache.delete(health.WORKER_HEARTBEAT_KEY)
    log = tmp_path / "worker.log"
    queue = f"health-{os.getpid()}-{time.monotonic_ns()}"  # this test's own: no other worker
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q", queue],
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
    )
    try:
        worker_heartbeat.apply_async(queue=queue)
        deadline = time.monotonic() + 60
        while cache.get(health.WORKER_HEARTBEAT_KEY) is None:
            assert worker.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        body = Client().get("/readyz").json()
        assert body["workers"] == "ok" and body["broker"] == "ok", body
    finally:
        stop(worker, grace_seconds=20)
