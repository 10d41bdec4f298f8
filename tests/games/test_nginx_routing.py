"""The project's nginx configuration (docker/nginx.conf), run by Debian's nginx on loopback in front
of two Daphne processes (tools/nginx_loopback.py): websockets are upgraded through it, every socket
of a match goes to the one process its id hashes to, and a process that is not ready is taken out
by its readiness check while the others serve its matches. Correctness never rests on the routing:
test_two_daphnes.py plays one match with its sockets split over two processes on purpose."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from collections import defaultdict

import pytest

from tests.factories import make_class, make_match, make_student, session_cookie_for
from tools.loadtest.servers import DaphneFleet, match_socket
from tools.nginx_loopback import LoopbackNginx, ReadinessWatch, available

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

TIMEOUT = 20
MATCHES = 12


@pytest.fixture
def nginx_binary(services):
    if not available():
        pytest.fail("nginx is not installed (scripts/system-deps nginx, which make test runs)")


@pytest.fixture
def tables():
    """ADD UP tables of Ana and Ben, and their cookies."""
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    matches = [
        make_match(game="add_up", variant="no_jokers", players=[ana, ben]) for _ in range(MATCHES)
    ]
    return [match.pk for match in matches], [session_cookie_for(ana), session_cookie_for(ben)]


async def first_state(base: str, match_id: int, cookie: str) -> dict:
    async with match_socket(base, match_id, cookie, open_timeout=TIMEOUT) as socket:
        return json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT))


async def every_seat_of(base: str, match_ids: list[int], cookies: list[str]) -> list[dict]:
    return await asyncio.gather(
        *(first_state(base, match_id, cookie) for match_id in match_ids for cookie in cookies)
    )


def served_by(nginx: LoopbackNginx, match_ids: list[int], at_least: int) -> dict[int, set[str]]:
    """The process that answered each socket of each match, once nginx has logged them all (a
    socket's line is written when it closes)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        servers: dict[int, set[str]] = defaultdict(set)
        count = 0
        for uri, addresses, status in nginx.routes():
            if uri.startswith("/ws/match/") and status == "101":
                servers[int(uri.split("/")[3])].add(addresses[-1])
                count += 1
        if count >= at_least or time.monotonic() > deadline:
            return {match_id: servers[match_id] for match_id in match_ids}
        time.sleep(0.1)


def test_a_matchs_sockets_all_go_to_the_process_its_id_hashes_to(nginx_binary, tables):
    match_ids, cookies = tables
    with (
        DaphneFleet(2) as fleet,
        LoopbackNginx([f"127.0.0.1:{port}" for port in fleet.ports]) as nginx,
    ):
        try:
            states = asyncio.run(every_seat_of(nginx.ws_url, match_ids, cookies))
            assert [state["type"] for state in states] == ["state"] * len(states)
            first = served_by(nginx, match_ids, at_least=len(states))
            # Both seats of a match on one process, again when they come back.
            assert all(len(servers) == 1 for servers in first.values()), first
            asyncio.run(every_seat_of(nginx.ws_url, match_ids, cookies))
            again = served_by(nginx, match_ids, at_least=2 * len(states))
            assert again == first
            # And the matches are spread over both processes.
            assert set().union(*first.values()) == set(nginx.upstreams)
            # nginx answers its own liveness; pages go through to a process.
            with urllib.request.urlopen(f"{nginx.url}/livez", timeout=TIMEOUT) as got:
                assert got.read() == b"ok\n"
            with urllib.request.urlopen(f"{nginx.url}/readyz", timeout=TIMEOUT) as got:
                assert json.loads(got.read())["status"] == "ok"
        except Exception:
            print(fleet.log_tail(), nginx.error_log())
            raise


def test_a_process_that_is_not_ready_is_taken_out_and_its_matches_play_elsewhere(
    nginx_binary, tables
):
    match_ids, cookies = tables
    # The second process cannot reach Redis, so its /readyz says 503 (it would accept sockets
    # whose news could not leave it).
    with (
        DaphneFleet(1) as ready,
        DaphneFleet(1, env={"REDIS_URL": "redis://127.0.0.1:1/0"}) as broken,
        LoopbackNginx([f"127.0.0.1:{ready.ports[0]}", f"127.0.0.1:{broken.ports[0]}"]) as nginx,
    ):
        try:
            watch = ReadinessWatch(nginx, interval=0.5)
            assert watch.look() == {f"127.0.0.1:{broken.ports[0]}"}
            time.sleep(1)  # nginx's new workers take over after the reload
            states = asyncio.run(every_seat_of(nginx.ws_url, match_ids, cookies))
            assert [state["type"] for state in states] == ["state"] * len(states)
            servers = served_by(nginx, match_ids, at_least=len(states))
            assert set().union(*servers.values()) == {f"127.0.0.1:{ready.ports[0]}"}
        except Exception:
            print(ready.log_tail(), broken.log_tail(), nginx.error_log())
            raise
