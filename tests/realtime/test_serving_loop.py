"""realtime.news.serving_loop: news committed in a sync thread is handed to the event loop that
serves the process's sockets, recorded by the server itself (config/asgi.py, a match hub), not
read from asgiref's thread-locals."""

import asyncio
import threading

import pytest

from realtime import news

TIMEOUT = 5
# The marker bounds a test with its fixtures, and a worker's last test also tears down the
# session's test database, which PostgreSQL may take seconds to drop (it waits for other sessions
# to leave): the marker leaves room for that, and the test's own waits have TIMEOUT.
WHOLE_TEST_TIMEOUT = 60


@pytest.mark.timeout(WHOLE_TEST_TIMEOUT)
async def test_any_thread_of_a_serving_process_finds_its_loop():
    news.serving_here()
    loop = asyncio.get_running_loop()
    found = []
    # A plain thread, not one of asgiref's sync_to_async threads.
    thread = threading.Thread(target=lambda: found.append(news.serving_loop()))
    thread.start()
    await asyncio.to_thread(thread.join, TIMEOUT)
    assert found == [loop]


@pytest.mark.timeout(WHOLE_TEST_TIMEOUT)
def test_a_loop_that_stopped_serving_is_not_handed_news():
    async def serve():
        news.serving_here()
        return news.serving_loop()

    assert asyncio.run(serve()) is not None
    assert news.serving_loop() is None


@pytest.mark.timeout(WHOLE_TEST_TIMEOUT)
async def test_the_asgi_application_records_its_loop():
    from config.asgi import application

    async def receive():
        return {"type": "lifespan.startup"}

    async def send(message):
        pass

    news._serving = None
    # An unknown protocol is refused after the loop is recorded.
    with pytest.raises(ValueError):
        await application({"type": "no-such-protocol"}, receive, send)
    assert news.serving_loop() is asyncio.get_running_loop()
