"""Every socket passes the origin check and the session authentication (config/asgi.py)."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.factories import close_code_after_accept, make_class, make_student, session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def session_cookie_for_a_student():
    return session_cookie_for(make_student(make_class()))


def communicator(origin=b"http://127.0.0.1:8000", cookie=None):
    headers = [(b"origin", origin)]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    return WebsocketCommunicator(application, "/ws/ping/", headers=headers)


async def test_signed_in_socket_gets_pong():
    ws = communicator(cookie=await session_cookie_for_a_student())
    connected, _ = await ws.connect()
    assert connected
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from() == {"type": "pong"}
    await ws.disconnect()


async def test_anonymous_socket_is_refused():
    ws = communicator()
    connected, _code = await ws.connect()
    assert connected and await close_code_after_accept(ws) == 4401


async def test_foreign_origin_is_refused_even_when_signed_in():
    ws = communicator(origin=b"https://evil.example", cookie=await session_cookie_for_a_student())
    connected, _ = await ws.connect()
    assert not connected
    await ws.disconnect()


@pytest.mark.parametrize(
    "text", ["not json", "[1, 2]", '{"type": "launch"}', "x" * 5000, '{"type": 5}']
)
async def test_bad_messages_get_an_error_and_the_socket_stays_open(text):
    ws = communicator(cookie=await session_cookie_for_a_student())
    await ws.connect()
    await ws.send_to(text_data=text)
    reply = await ws.receive_json_from()
    assert reply["type"] == "error"
    assert reply["code"] in {"malformed", "too_large", "unknown_type"}
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from() == {"type": "pong"}
    await ws.disconnect()
