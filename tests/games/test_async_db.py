"""The moves' connection pool hands out the connection returned last (games/async_db.py,
``MostRecentFirstPool``): one after another, a process's moves keep one PostgreSQL backend
awake instead of taking each of its connections in turn."""

from __future__ import annotations

import asyncio

import pytest

from games import async_db

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


async def test_moves_one_after_another_all_get_the_connection_returned_last(settings):
    # The pool is the test's event loop's, closed with it (tests/conftest.py).
    settings.GAMES_MOVE_CONNECTIONS = 3
    # Three at once, each long enough for the pool to open the other two: three backends.
    slow_read = "SELECT pg_backend_pid() FROM pg_sleep(1)"
    at_once = await asyncio.gather(*(async_db.fetch(slow_read, []) for _ in range(3)))
    one_after_another = [await async_db.fetch("SELECT pg_backend_pid()", []) for _ in range(6)]
    opened = {rows[0][0] for rows in at_once}
    assert len(opened) == 3  # handed out in turn, the six below would take all three
    used = [rows[0][0] for rows in one_after_another]
    assert len(set(used)) == 1, used
    assert used[0] in opened
