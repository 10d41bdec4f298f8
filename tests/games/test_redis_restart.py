"""Redis restarted mid-game under two Daphne processes: the news of the next moves never reaches
the other process (the groups went with Redis), yet every socket converges on the match's version
within about two seconds (the hub's heartbeat, games/delivery.py) and the game plays on to its
end."""

import asyncio
import json
import shutil
import signal
import subprocess
import time

import pytest

from games.models import Match
from tests.factories import make_class, make_match, make_student, session_cookie_for
from tests.games.test_two_daphnes import a_move
from tools.loadtest.servers import DaphneFleet, free_port, match_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services, pytest.mark.slow]

CONVERGE_S = 3.0


class OwnRedis:
    """A redis-server of this test's own, on a free port, that the test can kill and restart."""

    def __init__(self, folder):
        self.folder = folder
        self.port = free_port("127.0.0.1")
        self.process = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        server = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.process = subprocess.Popen(
            [
                server,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while (
            subprocess.run(
                ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True
            ).stdout.strip()
            != "PONG"
        ):
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)


async def latest_version(ws, seconds) -> int:
    """Reads what the socket is sent for ``seconds``; the last state's version."""
    version = -1
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), left))
        except TimeoutError:
            break
        if message["type"] == "state":
            version = max(version, message["version"])
    return version


@pytest.mark.timeout(120)
def test_every_socket_converges_after_redis_restarts_mid_game(services, tmp_path):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    match = make_match(
        game="add_up", variant="no_jokers", players=[ana, ben], options={"first_player": "seat0"}
    )
    cookies = [session_cookie_for(ana), session_cookie_for(ben)]
    redis = OwnRedis(tmp_path)
    redis.start()

    async def play(urls):
        sockets = [
            await match_socket(url, match.pk, cookie)
            for url, cookie in zip(urls, cookies, strict=True)
        ]
        views = [json.loads(await asyncio.wait_for(ws.recv(), 10))["view"] for ws in sockets]
        restarted_after = 3
        moves = 0
        lags = []
        try:
            while views[0]["outcome"] is None:
                seat = views[0]["turn"]
                client_id = f"m{moves}"
                move = {"type": "move", "move": a_move(views[seat]), "client_id": client_id}
                await sockets[seat].send(json.dumps(move))
                moves += 1
                # The mover's own answer: its process applied it, whatever Redis is doing.
                while True:
                    message = json.loads(await asyncio.wait_for(sockets[seat].recv(), 10))
                    assert message["type"] != "error", message
                    if message["type"] == "state" and message.get("client_id") == client_id:
                        break
                views[seat] = message["view"]
                target = message["version"]
                if moves == restarted_after:
                    redis.kill()
                    redis.start()
                # Every socket reaches that version, whatever became of the news.
                started = time.monotonic()
                for n, ws in enumerate(sockets):
                    while views[n]["version"] < target:
                        left = CONVERGE_S - (time.monotonic() - started)
                        assert left > 0, f"socket {n} stuck at {views[n]['version']} < {target}"
                        message = json.loads(await asyncio.wait_for(ws.recv(), left))
                        if message["type"] == "state" and message["version"] >= views[n]["version"]:
                            views[n] = message["view"]
                lags.append(time.monotonic() - started)
            return moves, max(lags)
        finally:
            for ws in sockets:
                await ws.close()

    try:
        with DaphneFleet(2, env={"REDIS_URL": redis.url}) as fleet:
            try:
                moves, worst = asyncio.run(play(fleet.urls))
            except Exception:
                print(fleet.log_tail())
                raise
    finally:
        redis.kill()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and moves > 3
    print(f"{moves} moves; the slowest socket caught up in {worst:.2f} s")
