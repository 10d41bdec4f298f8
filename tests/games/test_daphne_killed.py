"""A Daphne process killed (kill -9) in the middle of a move: the page resends the same move, with
the same client_id, through the other process, and it is applied exactly once; every socket then
agrees on the match's version and the game goes on to its end."""

import asyncio
import json
import signal
import time

import pytest

from games.models import Match, MoveRecord
from tests.factories import make_class, make_match, make_student, session_cookie_for
from tests.games.test_two_daphnes import a_move
from tools.loadtest.servers import DaphneFleet, match_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services, pytest.mark.slow]

KILLS = 3


async def connect(url, match_id, cookie):
    ws = await match_socket(url, match_id, cookie)
    return ws, json.loads(await asyncio.wait_for(ws.recv(), 10))


async def answer_to(ws, client_id):
    """The state that answers ``client_id`` on the mover's socket (applied now, or before)."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert message["type"] != "error", message
        if message["type"] == "state" and message.get("client_id") == client_id:
            return message


@pytest.mark.timeout(150)
def test_a_move_resent_after_its_server_was_killed_is_applied_once(services):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    match = make_match(
        game="add_up", variant="no_jokers", players=[ana, ben], options={"first_player": "seat0"}
    )
    cookies = [session_cookie_for(ana), session_cookie_for(ben)]
    killed_ids = []

    async def play(fleet):
        # Ben stays on the second process the whole game; Ana moves on the first, which dies
        # under her move, and comes back on the second.
        ben_ws, ben_state = await connect(fleet.urls[1], match.pk, cookies[1])
        views = [None, ben_state["view"]]
        ana_ws, ana_state = await connect(fleet.urls[0], match.pk, cookies[0])
        views[0] = ana_state["view"]
        moves = 0
        try:
            while views[0]["outcome"] is None:
                seat = views[0]["turn"]
                client_id = f"m{moves}"
                move = {"type": "move", "move": a_move(views[seat]), "client_id": client_id}
                moves += 1
                if seat == 0 and len(killed_ids) < KILLS and fleet.processes[0].poll() is None:
                    await ana_ws.send(json.dumps(move))
                    fleet.processes[0].send_signal(signal.SIGKILL)  # mid-move
                    fleet.processes[0].wait(timeout=10)
                    killed_ids.append(client_id)
                    # The page reconnects (to the other process) and resends the same move.
                    ana_ws, ana_state = await connect(fleet.urls[1], match.pk, cookies[0])
                    await ana_ws.send(json.dumps(move))
                    answer = await answer_to(ana_ws, client_id)
                    fleet.restart_dead()  # the orchestrator brings the process back
                else:
                    mover = ana_ws if seat == 0 else ben_ws
                    await mover.send(json.dumps(move))
                    answer = await answer_to(mover, client_id)
                views[seat] = answer["view"]
                other = 1 - seat
                deadline = time.monotonic() + 5
                while views[other]["version"] < answer["version"]:
                    assert time.monotonic() < deadline, "the other socket fell behind"
                    sock = ben_ws if other == 1 else ana_ws
                    message = json.loads(await asyncio.wait_for(sock.recv(), 5))
                    if message["type"] == "state":
                        views[other] = message["view"]
        finally:
            await ana_ws.close()
            await ben_ws.close()

    with DaphneFleet(2) as fleet:
        try:
            asyncio.run(play(fleet))
        except Exception:
            print(fleet.log_tail())
            raise
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert len(killed_ids) == KILLS
    records = MoveRecord.objects.filter(match=match, actor=MoveRecord.Actor.PLAYER)
    for client_id in killed_ids:
        assert records.filter(client_id=client_id).count() == 1, client_id
    # Every version was written once, by one move.
    assert sorted(records.values_list("version", flat=True)) == list(range(1, match.version + 1))
