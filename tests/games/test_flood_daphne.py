"""A flood on real Daphne processes ends cleanly (issue 21).

An operator flooded pings at five sockets of a match on two Daphne processes: 120 at once, then
40 more 50 ms apart. The consumer closed the socket, then went on answering the messages queued
behind the close: Daphne refused each send on the closing connection ("Attempt to send on a
closed protocol"), which ended the consumer without its disconnect. The client saw 1006 instead of
4429, and the process stayed in the match's group after every socket had closed. A client that
closes its socket itself while its messages are still being answered (a child closing the tab)
meets the same refusal.
"""

import asyncio
import contextlib
import time

import pytest
import redis
from websockets.client import ClientProtocol
from websockets.uri import parse_uri

from games.delivery import match_group
from realtime.sockets import CLOSE_FLOOD, user_group
from tests.factories import make_class, make_match, make_student, session_cookie_for
from tools.loadtest.servers import DaphneFleet, match_socket, origin_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

SOCKETS = 5
TIMEOUT = 30  # seconds for any one socket's flood and close; the whole test is bounded by it


class DeafClient:
    """A websocket client that keeps sending after the server has closed: it reads what the
    server sends (into a buffer) but answers nothing until it is done, as the operator's fuzzer
    did. websockets' sans-I/O protocol frames what it sends and parses what came at the end."""

    def __init__(self, url, match_id, cookie):
        self.uri = parse_uri(f"{url}/ws/match/{match_id}/")
        self.protocol = ClientProtocol(self.uri)
        self.request = self.protocol.connect()
        self.request.headers["Origin"] = origin_for(url)
        self.request.headers["Cookie"] = cookie
        self.received = bytearray()

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection(self.uri.host, self.uri.port)
        self.protocol.send_request(self.request)
        self.writer.write(b"".join(self.protocol.data_to_send()))
        self.protocol.receive_data(
            await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), TIMEOUT)
        )
        assert self.protocol.handshake_exc is None, self.protocol.handshake_exc
        self.reading = asyncio.create_task(self._read())

    async def _read(self):
        with contextlib.suppress(OSError):
            while chunk := await self.reader.read(65536):
                self.received += chunk

    async def send(self, text: str) -> bool:
        """False once the server has dropped the connection."""
        self.protocol.send_text(text.encode())
        try:
            self.writer.write(b"".join(self.protocol.data_to_send()))
            await self.writer.drain()
        except OSError:
            return False
        return True

    async def close_code(self) -> int | None:
        """The code of the server's close frame, once it has dropped the connection."""
        await asyncio.wait_for(self.reading, TIMEOUT)
        self.writer.close()
        self.protocol.receive_data(bytes(self.received))
        self.protocol.receive_eof()
        return self.protocol.close_rcvd.code if self.protocol.close_rcvd else None


async def flood(url, match_id, cookie):
    """120 pings at once, then more 50 ms apart, sent whatever the server does (the operator's
    flood: 40 more), until the server drops the connection, at most 10 s. Returns the close code
    the server sent."""
    client = DeafClient(url, match_id, cookie)
    await client.open()
    for _ in range(120):
        await client.send('{"type": "ping"}')
    for _ in range(200):
        await asyncio.sleep(0.05)
        if not await client.send('{"type": "ping"}'):
            break
    return await client.close_code()


async def flood_and_go(url, match_id, cookie):
    """120 syncs at once (each answered one reads the database: the server is still answering
    when the client has gone), then the client closes the socket without waiting."""
    async with match_socket(url, match_id, cookie, open_timeout=TIMEOUT) as ws:
        await asyncio.wait_for(ws.recv(), TIMEOUT)
        for _ in range(120):
            await ws.send('{"type": "sync"}')
    return ws.close_code


async def flood_every_socket(urls, match_id, cookies):
    """Five sockets, flooding at once, spread over the processes and the two children: three as
    the operator did, two closing their end in the middle of the flood."""
    return await asyncio.gather(
        *(
            (flood if n < 3 else flood_and_go)(
                urls[n % len(urls)], match_id, cookies[n % len(cookies)]
            )
            for n in range(SOCKETS)
        )
    )


def members(client, prefix, group):
    return client.zcard(f"{prefix}:group:{group}")


def test_a_flood_is_closed_with_4429_and_leaves_nothing_behind(services):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    match = make_match(game="mia", variant="express", players=[ana, ben])
    cookies = [session_cookie_for(ana), session_cookie_for(ben)]

    with DaphneFleet(2) as fleet:
        try:
            codes = asyncio.run(flood_every_socket(fleet.urls, match.pk, cookies))
        except Exception:
            print(fleet.log_tail())
            raise
        client = redis.Redis.from_url(services.REDIS_URL)
        prefix = fleet.env["CHANNEL_LAYER_PREFIX"]
        groups = [match_group(match.pk), user_group(ana.pk), user_group(ben.pk)]
        # Each process leaves the groups as its last socket's disconnect is handled.
        deadline = time.monotonic() + 10
        while any(members(client, prefix, g) for g in groups) and time.monotonic() < deadline:
            time.sleep(0.1)
        left_in = {g: members(client, prefix, g) for g in groups}
        logs = "\n".join(path.read_text(errors="replace") for path in fleet.logs)

    assert codes == [CLOSE_FLOOD] * 3 + [1000] * 2
    assert "Attempt to send on a closed protocol" not in logs
    assert "Traceback" not in logs, logs[-3000:]
    assert left_in == dict.fromkeys(groups, 0)
