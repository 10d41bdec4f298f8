"""/healthz: the state of the database, the channel layer and the broker, for load balancers."""

import asyncio
import uuid

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

CHECK_TIMEOUT_S = 3


def _check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


async def _check_channel_layer() -> None:
    layer = get_channel_layer()
    channel = await layer.new_channel("healthz.")
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "healthz", "token": token})
    message = await layer.receive(channel)
    if message.get("token") != token:
        raise RuntimeError("the channel layer returned another message")


def _check_broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    from config.celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=CHECK_TIMEOUT_S)
    return "ok"


async def _run(check, *, sync: bool) -> str:
    try:
        coro = sync_to_async(check)() if sync else check()
        result = await asyncio.wait_for(coro, CHECK_TIMEOUT_S)
        return result or "ok"
    except Exception as exc:  # any failure is a "down", reported by name, never a 500
        return f"down: {type(exc).__name__}"


@never_cache
@require_GET
async def healthz(request):
    database, channel_layer, broker = await asyncio.gather(
        _run(_check_database, sync=True),
        _run(_check_channel_layer, sync=False),
        _run(_check_broker, sync=True),
    )
    checks = {"database": database, "channel_layer": channel_layer, "broker": broker}
    healthy = all(not value.startswith("down") for value in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", **checks}, status=200 if healthy else 503
    )
