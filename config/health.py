"""Health endpoints for orchestrators and load balancers, as they expect them:

- ``/livez``: the process answers. It touches nothing else, so a database or Redis outage never
  gets healthy servers restarted.
- ``/readyz`` (and ``/healthz``, its older name): the process can serve, i.e. the database, the
  channel layer and the broker each answer within ``CHECK_TIMEOUT_S``; 503 names what is down.
  It also says when a Celery worker last did its rounds (``workers``), without turning 503 for it:
  live play needs no worker, only reports (and overdue bots and timers' back-up sweep) do.

Each check runs apart from the others, so one service down is never reported as another, and none
on the thread asgiref gives the request for database work: a check hung there (PostgreSQL
accepting connections and never answering) would hold the response until it ended, since the
request's end waits for that thread. PostgreSQL is probed on the event loop with a connection of
its own, and every answer comes within ``CHECK_TIMEOUT_S`` whatever a check still does. The
channel layer is checked on a channel of its own, not on this process's channel, whose one reader
is the match hub's (games/delivery.py): a check waiting there would time out whenever a match
socket is open, and take every busy server out.
"""

import asyncio
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import celery
import psycopg
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

CHECK_TIMEOUT_S = 3
WORKER_HEARTBEAT_KEY = "health:celery-worker-heartbeat"
# The beat schedules the heartbeat every WORKER_HEARTBEAT_SECONDS; a worker silent for three
# rounds is reported stale.
WORKER_HEARTBEAT_SECONDS = 30
WORKER_STALE_AFTER_S = 3 * WORKER_HEARTBEAT_SECONDS
# SQLite's probes (a file cannot hang as a server can; a locked one waits its busy timeout).
_database_probes = ThreadPoolExecutor(max_workers=2, thread_name_prefix="readyz-database")


async def _check_database() -> None:
    if connection.vendor == "postgresql":
        await _check_postgresql()
    else:
        await asyncio.get_running_loop().run_in_executor(_database_probes, _check_on_thread)


async def _check_postgresql() -> None:
    """A new connection of its own, on the event loop: a PostgreSQL that hangs holds up no thread
    (asgiref's, which the request's end waits for, held the answer for as long as it hung), and
    one probe that never ends cannot hold up the next."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params["connect_timeout"] = CHECK_TIMEOUT_S
    params["autocommit"] = True
    conn = await psycopg.AsyncConnection.connect(**params)
    try:
        await conn.execute("SELECT 1")
    finally:
        await conn.close()


def _check_on_thread() -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connection.close()


async def _check_channel_layer() -> None:
    layer = get_channel_layer()
    # A plain channel name (no "!"): read directly, not through this process's shared reader.
    channel = f"healthz.{uuid.uuid4().hex}"
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "healthz", "token": token})
    message = await layer.receive(channel)
    if message.get("token") != token:
        raise RuntimeError("the channel layer returned another message")


def _check_broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    # The app config/celery.py made (config/__init__.py), without importing it: its worker task
    # calls record_worker_heartbeat here.
    with celery.current_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=CHECK_TIMEOUT_S)
    return "ok"


def record_worker_heartbeat(now: float | None = None) -> None:
    """Called by a worker (config.celery.worker_heartbeat, on the beat's schedule)."""
    cache.set(WORKER_HEARTBEAT_KEY, time.time() if now is None else now, timeout=None)


def _workers() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    last = cache.get(WORKER_HEARTBEAT_KEY)
    if last is None:
        return "unknown: no worker has reported yet"
    ago = max(0, round(time.time() - last))
    if ago > WORKER_STALE_AFTER_S:
        return f"stale: last seen {ago} s ago"
    return "ok"


async def _run(check, *, thread: bool = False) -> str:
    """``thread``: a synchronous check, run on a thread of its own (not on the thread asgiref
    gives the request, which the request's end waits for). The answer never waits past
    ``CHECK_TIMEOUT_S``: a check still running then is left to finish in the background."""
    coro = sync_to_async(check, thread_sensitive=False)() if thread else check()
    task = asyncio.ensure_future(coro)
    done, _pending = await asyncio.wait({task}, timeout=CHECK_TIMEOUT_S)
    if not done:
        task.cancel()
        task.add_done_callback(_forget)
        return "down: TimeoutError"
    try:
        return task.result() or "ok"
    except Exception as exc:  # any failure is a "down", reported by name, never a 500
        return f"down: {type(exc).__name__}"


def _forget(task: asyncio.Future) -> None:
    if not task.cancelled():
        task.exception()  # retrieved: a hung check that failed late is no unhandled error


@never_cache
@require_GET
async def livez(request):
    return JsonResponse({"status": "ok"})


@never_cache
@require_GET
async def readyz(request):
    database, channel_layer, broker, workers = await asyncio.gather(
        _run(_check_database),
        _run(_check_channel_layer),
        _run(_check_broker, thread=True),
        _run(_workers, thread=True),
    )
    checks = {"database": database, "channel_layer": channel_layer, "broker": broker}
    ready = all(not value.startswith("down") for value in checks.values())
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", **checks, "workers": workers},
        status=200 if ready else 503,
    )
