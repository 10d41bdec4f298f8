"""A sign-in that ends ends its sockets: a teacher resets a child's secret (or deletes the child,
or the account is deactivated), and every socket of that child closes at once with 4401, the
match socket, the home page's and any other, so that no move is applied after (realtime/sockets.py,
user_sockets_end)."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from config.asgi import application
from games.models import Match, MoveRecord
from realtime.sockets import CLOSE_UNAUTHENTICATED
from tests.factories import make_class, make_match, make_student, make_teacher, session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def a_child_at_a_table():
    teacher = make_teacher()
    classroom = make_class(teacher)
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    match = make_match(game="mia", variant="express", players=[ana, ben], teacher=teacher)
    return {
        "teacher": teacher,
        "classroom": classroom,
        "ana": ana,
        "match": match,
        "ana_cookie": session_cookie_for(ana),
        "ben_cookie": session_cookie_for(ben),
    }


async def open_socket(path, cookie):
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"cookie", cookie.encode())]
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await ws.connect(timeout=5)
    assert connected, code
    await ws.receive_json_from(timeout=5)  # the first state, or the list of sessions
    return ws


async def the_childs_sockets(t):
    return [
        await open_socket(f"/ws/match/{t['match'].pk}/", t["ana_cookie"]),
        await open_socket("/ws/student/", t["ana_cookie"]),
    ]


async def closed_with(ws) -> int:
    """The close code, after any news that came before it (a deleted child's match is stopped
    first; a new session is listed), each within 5 s."""
    for _ in range(10):
        output = await ws.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return output["code"]
    pytest.fail("the socket was not closed")


def teacher_posts(t, name, data):
    client = Client()
    client.force_login(t["teacher"])
    url = reverse(
        f"classroom:{name}", kwargs={"classroom_id": t["classroom"].pk, "student_id": t["ana"].pk}
    )
    assert client.post(url, data).status_code == 302


async def test_a_new_secret_closes_every_socket_of_the_child_and_no_move_follows():
    t = await a_child_at_a_table()
    sockets = await the_childs_sockets(t)
    bens = await open_socket(f"/ws/match/{t['match'].pk}/", t["ben_cookie"])
    await database_sync_to_async(teacher_posts)(
        t, "roster_student_secret", {"kind": "pin", "secret": "9876"}
    )
    for ws in sockets:
        assert await closed_with(ws) == CLOSE_UNAUTHENTICATED
    # A move sent after the reset goes nowhere; the socket sends nothing more.
    await sockets[0].send_json_to({"type": "move", "move": {"type": "pass"}, "client_id": "late"})
    assert await sockets[0].receive_nothing(timeout=0.5)
    match = await database_sync_to_async(Match.objects.get)(pk=t["match"].pk)
    assert match.version == 0
    assert not await database_sync_to_async(MoveRecord.objects.exists)()
    # Only Ana's: her classmate plays on.
    await bens.send_json_to({"type": "ping"})
    assert await bens.receive_json_from(timeout=5) == {"type": "pong"}
    for ws in [*sockets, bens]:
        await ws.disconnect()


async def test_deleting_the_child_closes_their_sockets():
    t = await a_child_at_a_table()
    sockets = await the_childs_sockets(t)
    await database_sync_to_async(teacher_posts)(t, "roster_student_delete", {})
    for ws in sockets:
        assert await closed_with(ws) == CLOSE_UNAUTHENTICATED
        await ws.disconnect()


async def test_deactivating_an_account_closes_its_sockets_the_teachers_monitor_too():
    t = await a_child_at_a_table()
    sockets = await the_childs_sockets(t)

    @database_sync_to_async
    def a_session_and_its_teacher_deactivated_later():
        from tests.factories import make_session

        return make_session(t["classroom"]), session_cookie_for(t["teacher"])

    session, teacher_cookie = await a_session_and_its_teacher_deactivated_later()
    monitor = await open_socket(f"/ws/session/{session.pk}/", teacher_cookie)

    @database_sync_to_async
    def deactivate(user):
        user.is_active = False
        user.save(update_fields=["is_active"])

    await deactivate(t["ana"])
    await deactivate(t["teacher"])
    for ws in [*sockets, monitor]:
        assert await closed_with(ws) == CLOSE_UNAUTHENTICATED
        await ws.disconnect()
