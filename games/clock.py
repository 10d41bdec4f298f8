"""Wake-ups for timers and bots, run by every server process that has a socket on the match.

The schedule itself lives in the database (``Match.wake_at_ms``); this only decides when to look.
Each process keeps at most one timer per match it serves and calls ``services.match_wake_async``
when it fires: the same write path as a player's move, on PostgreSQL on the event loop itself.
Several processes may fire for the same match: the service acts under the row lock on what is
due, so the second finds nothing to do. After a restart the sockets reconnect and schedule again
from the database; ``games.tasks.wake_overdue_matches`` (Celery beat) catches matches whose
sockets are all gone.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from games import services

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0


class MatchClock:
    def __init__(self, loop: asyncio.AbstractEventLoop):
        self._loop = loop
        self._timers: dict[int, tuple[int, asyncio.TimerHandle]] = {}
        self._watchers: dict[int, int] = {}
        self._running: set[asyncio.Task] = set()

    def watch(self, match_id: int) -> None:
        self._watchers[match_id] = self._watchers.get(match_id, 0) + 1

    def unwatch(self, match_id: int) -> None:
        left = self._watchers.get(match_id, 0) - 1
        if left > 0:
            self._watchers[match_id] = left
            return
        self._watchers.pop(match_id, None)
        timer = self._timers.pop(match_id, None)
        if timer:
            timer[1].cancel()

    def schedule(self, match_id: int, at_ms: int | None) -> None:
        if at_ms is None or match_id not in self._watchers:
            return
        current = self._timers.get(match_id)
        if current is not None:
            if current[0] <= at_ms:
                return  # the earlier wake-up looks again and reschedules from what it finds
            current[1].cancel()
        delay = max(0.0, (at_ms - services.now_ms()) / 1000)
        handle = self._loop.call_later(delay, self._fire, match_id)
        self._timers[match_id] = (at_ms, handle)

    def _fire(self, match_id: int) -> None:
        self._timers.pop(match_id, None)
        task = self._loop.create_task(self._wake(match_id))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _wake(self, match_id: int) -> None:
        try:
            next_at = await services.match_wake_async(match_id=match_id)
        except Exception:
            log.exception("wake-up of match %s failed; trying again", match_id)
            next_at = services.now_ms() + int(RETRY_SECONDS * 1000)
        self.schedule(match_id, next_at)


_clocks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, MatchClock] = (
    weakref.WeakKeyDictionary()
)


def clock() -> MatchClock:
    """This process's clock (one per event loop)."""
    loop = asyncio.get_running_loop()
    found = _clocks.get(loop)
    if found is None:
        found = _clocks[loop] = MatchClock(loop)
    return found
