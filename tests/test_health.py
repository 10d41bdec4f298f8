import pytest
from django.test import AsyncClient

from config import health

pytestmark = pytest.mark.django_db(transaction=True)


async def get_healthz():
    return await AsyncClient().get("/healthz")


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
    def broken():
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
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "channel_layer": "ok",
        "broker": "ok",
    }
