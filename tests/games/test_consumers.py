"""The match socket, through the whole ASGI application (origin check, session auth, routing)."""

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

import engine
from config.asgi import application
from games import consumers, services
from games.delivery import MatchHub
from games.models import Match, MoveRecord
from realtime import sockets
from tests.factories import (
    close_code_after_accept,
    make_class,
    make_match,
    make_student,
    make_teacher,
    session_cookie_for,
)

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def a_table(game="mia", variant="express", bots=(), options=None, seed=7, at_ms=None):
    teacher = make_teacher()
    classroom = make_class(teacher)
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    carla = make_student(classroom, "Carla", secret="2222")
    match = make_match(
        game=game,
        variant=variant,
        players=[ana, ben],
        bots=bots,
        teacher=teacher,
        seed=seed,
        options=options,
        at_ms=at_ms,
    )
    return {
        "match": match,
        "ana": session_cookie_for(ana),
        "ben": session_cookie_for(ben),
        "carla": session_cookie_for(carla),
        "teacher": session_cookie_for(teacher),
        "other_teacher": session_cookie_for(make_teacher()),
        "staff": session_cookie_for(make_staff()),
    }


def make_staff():
    user = make_teacher(name="Site staff")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user


@database_sync_to_async
def current(match):
    match.refresh_from_db()
    rules = engine.get_game(match.game)
    return rules, rules.load(match.state)


async def connect(match_id, cookie=None):
    headers = [(b"origin", b"http://127.0.0.1:8000")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    ws = WebsocketCommunicator(application, f"/ws/match/{match_id}/", headers=headers)
    connected, code = await ws.connect()
    return ws, connected, code


async def receive_state(ws, timeout=2):
    """The next state message (errors are returned too, to be checked by the caller)."""
    return await ws.receive_json_from(timeout=timeout)


async def test_a_seated_player_gets_their_own_view_at_once():
    t = await a_table()
    ws, connected, _ = await connect(t["match"].pk, t["ana"])
    assert connected
    first = await receive_state(ws)
    assert first["type"] == "state" and first["version"] == 0 and first["events"] == []
    assert first["view"]["seat"] == 0 and "hand" in first["view"]
    assert isinstance(first["server_time"], int)
    await ws.disconnect()


@pytest.mark.parametrize(
    ("who", "expected"),
    [(None, 4401), ("carla", 4403), ("other_teacher", 4403)],
)
async def test_nobody_else_can_connect(who, expected):
    t = await a_table()
    ws, connected, _code = await connect(t["match"].pk, t[who] if who else None)
    assert connected and await close_code_after_accept(ws) == expected


async def test_an_unknown_match_is_refused():
    t = await a_table()
    ws, connected, _code = await connect(t["match"].pk + 1000, t["ana"])
    assert connected and await close_code_after_accept(ws) == 4403


async def test_a_closed_socket_stops_hearing_its_match():
    t = await a_table()
    match = t["match"]
    ana, _, _ = await connect(match.pk, t["ana"])
    ben, _, _ = await connect(match.pk, t["ben"])
    await receive_state(ana)
    await receive_state(ben)
    hub = MatchHub.here()
    assert hub.listeners(match.pk) == 2
    await ana.disconnect()
    assert hub.listeners(match.pk) == 1
    await ben.disconnect()
    assert hub.listeners(match.pk) == 0


async def test_staff_watch_a_match_they_neither_made_nor_play():
    t = await a_table()
    ws, connected, _ = await connect(t["match"].pk, t["staff"])
    assert connected
    state = await receive_state(ws)
    assert state["view"]["seat"] is None
    await ws.disconnect()


async def test_the_creating_teacher_watches_without_hands_and_cannot_play():
    t = await a_table()
    ws, connected, _ = await connect(t["match"].pk, t["teacher"])
    assert connected
    state = await receive_state(ws)
    assert state["view"]["seat"] is None
    assert "hand" not in state["view"] or state["view"]["hand"] is None
    await ws.send_json_to({"type": "move", "move": {"type": "pass"}, "client_id": "t1"})
    error = await receive_state(ws)
    assert error == {
        "type": "error",
        "code": "spectator",
        "message": "spectators watch; they do not play",
    }
    assert await database_sync_to_async(MoveRecord.objects.count)() == 0
    await ws.disconnect()


async def test_a_move_reaches_every_socket_each_with_its_own_view():
    t = await a_table()
    match = t["match"]
    ana, _, _ = await connect(match.pk, t["ana"])
    ben, _, _ = await connect(match.pk, t["ben"])
    teacher, _, _ = await connect(match.pk, t["teacher"])
    for ws in (ana, ben, teacher):
        await receive_state(ws)
    rules, state = await current(match)
    claim = rules.hint(state, 0)
    await ana.send_json_to({"type": "move", "move": claim, "client_id": "a-1"})
    to_ana = await receive_state(ana)
    to_ben = await receive_state(ben)
    to_teacher = await receive_state(teacher)
    assert to_ana["version"] == to_ben["version"] == to_teacher["version"] == 1
    assert to_ana["client_id"] == "a-1"
    assert "client_id" not in to_ben and "client_id" not in to_teacher
    assert any(e["type"] == "claim_won" for e in to_ben["events"])

    # Events are filtered per recipient like the view: Ana's attempt goes to Ana and to the
    # teacher, not to the table; the rest of the news is the same for everyone.
    def attempts(message):
        return [e for e in message["events"] if e["type"] == "attempt"]

    assert [e["seat"] for e in attempts(to_ana)] == [0] and attempts(to_teacher) == attempts(to_ana)
    assert attempts(to_ben) == []
    assert [e for e in to_ana["events"] if e["type"] != "attempt"] == to_ben["events"]
    _, state = await current(match)
    assert to_ana["view"] == rules.view(state, 0)
    assert to_ben["view"] == rules.view(state, 1)
    assert to_teacher["view"] == rules.view(state, None)
    # Ana's hand never reaches Ben.
    ana_cards = {card["id"] for card in to_ana["view"]["hand"]}
    assert not ana_cards & {card["id"] for card in to_ben["view"]["hand"]}
    assert str(sorted(ana_cards)) not in json.dumps(to_ben)
    for ws in (ana, ben, teacher):
        await ws.disconnect()


async def test_a_repeated_client_id_is_answered_and_applied_once():
    t = await a_table()
    match = t["match"]
    ana, _, _ = await connect(match.pk, t["ana"])
    await receive_state(ana)
    await ana.send_json_to({"type": "move", "move": {"type": "pass"}, "client_id": "p-1"})
    applied = await receive_state(ana)
    await ana.send_json_to({"type": "move", "move": {"type": "pass"}, "client_id": "p-1"})
    answered = await receive_state(ana)
    assert applied["version"] == answered["version"] == 1
    assert answered["client_id"] == "p-1" and answered["events"] == []
    assert await database_sync_to_async(MoveRecord.objects.count)() == 1
    await ana.disconnect()


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("not json", "malformed"),
        ("[1, 2]", "malformed"),
        ('{"type": 5}', "unknown_type"),
        ('{"type": "launch"}', "unknown_type"),
        ('{"type": "move"}', "malformed"),
        ('{"type": "move", "move": [1]}', "malformed"),
        ('{"type": "move", "move": {"type": "pass"}, "client_id": 7}', "bad_client_id"),
        ('{"type": "move", "move": {"type": "jump"}}', "unknown_move"),
        ('{"type": "move", "move": {"type": "claim", "cards": "all"}}', "malformed"),
        ('{"type": "move", "move": {"type": "pass", "round": 42}}', "stale_round"),
        ('{"type": "move", "move": {"type": "pass"}, "x": "' + "y" * 5000 + '"}', "too_large"),
        # Under 4096 characters, over 4096 bytes: the limit is on what crosses the wire.
        ('{"type": "move", "move": {"type": "pass"}, "x": "' + "é" * 2100 + '"}', "too_large"),
        # A legal move carrying a key its game never declared is not stored as sent.
        (
            '{"type": "move", "move": {"type": "pass", "junk": "' + "x" * 3000 + '"}}',
            "unknown_field",
        ),
        (
            '{"type": "move", "move": {"type": "claim", "cards": [1, 2], "option": 0, "x": 1}}',
            "unknown_field",
        ),
    ],
)
async def test_bad_messages_get_a_code_change_nothing_and_keep_the_socket(message, code):
    t = await a_table()
    ana, _, _ = await connect(t["match"].pk, t["ana"])
    await receive_state(ana)
    await ana.send_to(text_data=message)
    error = await receive_state(ana)
    assert error["type"] == "error" and error["code"] == code and error["message"]
    await ana.send_json_to({"type": "ping"})
    assert await receive_state(ana) == {"type": "pong"}
    match = await database_sync_to_async(Match.objects.get)(pk=t["match"].pk)
    assert match.version == 0
    assert await database_sync_to_async(MoveRecord.objects.count)() == 0
    await ana.disconnect()


async def test_binary_frames_are_refused_politely():
    t = await a_table()
    ana, _, _ = await connect(t["match"].pk, t["ana"])
    await receive_state(ana)
    await ana.send_to(bytes_data=b"\x00\x01")
    error = await receive_state(ana)
    assert error["code"] == "malformed"
    await ana.disconnect()


class FakeClock:
    """The flood limit's clock (realtime/sockets.py), moved by the test: when the server reads
    each message, whatever the test's own pace."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def flood_clock(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(sockets, "monotonic", clock, raising=False)
    return clock


async def answers_until_closed(ws, count, timeout=2):
    """The codes of the next ``count`` answers ("pong" for a pong), and the close code if the
    socket closed before (None if it did not)."""
    codes = []
    while len(codes) < count:
        output = await ws.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            return codes, output["code"]
        message = json.loads(output["text"])
        codes.append(message.get("code", message["type"]))
    return codes, None


async def test_a_backlog_the_server_reads_at_once_is_never_closed(flood_clock):
    """A child who sent under 8 messages a second while the server was busy: the server reads
    their 200 messages in an instant. Some are refused, the socket stays open, and messages at
    the child's pace are answered again at once."""
    t = await a_table()
    ana, _, _ = await connect(t["match"].pk, t["ana"])
    await receive_state(ana)
    for _ in range(200):
        await ana.send_json_to({"type": "ping"})
    codes, closed = await answers_until_closed(ana, 200)
    assert closed is None
    assert codes.count("pong") == sockets.FLOOD_BURST
    assert set(codes) == {"pong", "flood"}
    for _ in range(20):
        flood_clock.now += 0.2  # five a second
        await ana.send_json_to({"type": "ping"})
        assert await receive_state(ana) == {"type": "pong"}
    # Refused again later, after a pause: that earlier flood is forgotten, not added to.
    for _ in range(200):
        await ana.send_json_to({"type": "ping"})
    codes, closed = await answers_until_closed(ana, 200)
    assert closed is None and "flood" in codes
    await ana.disconnect()


async def test_a_sustained_flood_is_refused_then_closed(flood_clock):
    t = await a_table()
    ana, _, _ = await connect(t["match"].pk, t["ana"])
    await receive_state(ana)
    codes = []
    first_refused_at = None
    for _ in range(400):
        flood_clock.now += 0.05  # twenty a second, for as long as the socket stays open
        await ana.send_json_to({"type": "move", "move": {"type": "pass"}})
        answers, closed = await answers_until_closed(ana, 1)
        codes += answers
        if "flood" in answers and first_refused_at is None:
            first_refused_at = flood_clock.now
        if closed is not None:
            assert closed == sockets.CLOSE_FLOOD
            break
    else:
        pytest.fail("a socket sending twenty messages a second was never closed")
    assert "flood" in codes
    assert flood_clock.now - first_refused_at >= sockets.FLOOD_CLOSE_SECONDS
    # Nothing is sent after the close; once the client's side is closed too, the socket has left
    # its match's hub.
    assert await ana.receive_nothing(timeout=0.2)
    await ana.disconnect()
    assert MatchHub.here().listeners(t["match"].pk) == 0
    assert await database_sync_to_async(MoveRecord.objects.count)() < len(codes)


async def test_sync_and_reconnect_give_the_seat_its_hand_and_score_back():
    t = await a_table()
    match = t["match"]
    ana, _, _ = await connect(match.pk, t["ana"])
    await receive_state(ana)
    rules, state = await current(match)
    await ana.send_json_to({"type": "move", "move": rules.hint(state, 0), "client_id": "w"})
    after_win = await receive_state(ana)
    assert after_win["view"]["scores"][0] > 0
    await ana.send_json_to({"type": "sync"})
    synced = await receive_state(ana)
    assert synced["version"] == after_win["version"] and synced["view"] == after_win["view"]
    await ana.disconnect()
    again, connected, _ = await connect(match.pk, t["ana"])
    assert connected
    back = await receive_state(again)
    assert back["view"] == after_win["view"]
    await again.disconnect()


async def test_stale_news_is_not_sent_after_a_newer_sync():
    t = await a_table()
    match = t["match"]
    ana, _, _ = await connect(match.pk, t["ana"])
    await receive_state(ana)
    await ana.send_json_to({"type": "move", "move": {"type": "pass"}})
    await receive_state(ana)
    # The same news again (as a slow channel layer might deliver it) is dropped.
    from channels.layers import get_channel_layer

    record = await database_sync_to_async(MoveRecord.objects.get)(match=match)
    _, state = await current(match)
    await get_channel_layer().group_send(
        f"match.{match.pk}",
        {
            "type": "match.changed",
            "match_id": match.pk,
            "version": record.version,
            "state": engine.get_game("mia").dump(state),
            "events": record.events,
            "actor_seat": 0,
            "client_id": "",
            "wake_at_ms": None,
        },
    )
    assert await ana.receive_nothing(timeout=0.3)
    await ana.disconnect()


async def test_bots_and_timers_act_through_the_sockets_clock(settings):
    settings.GAMES_BOT_DELAY_SCALE = 0.01
    t = await a_table(game="add_up", variant="standard", bots=["easy"], seed=5)
    match = t["match"]
    ana, _, _ = await connect(match.pk, t["ana"])
    ben, _, _ = await connect(match.pk, t["ben"])
    await receive_state(ana)
    await receive_state(ben)
    rules, state = await current(match)
    sockets = {0: ana, 1: ben}
    seen_bot_move = False
    for _ in range(30):
        active = rules.active(state)
        human = next((seat for seat in sorted(active) if seat in sockets), None)
        if human is not None:
            move = rules.hint(state, human) or rules.legal_moves(state, human)[0]
            await sockets[human].send_json_to({"type": "move", "move": move})
        news = await receive_state(ana, timeout=3)
        await receive_state(ben, timeout=3)
        assert news["type"] == "state"
        rules, state = await current(match)
        if human is None:
            seen_bot_move = True
            assert news["version"] == state.version
            break
    assert seen_bot_move
    records = await database_sync_to_async(
        lambda: list(MoveRecord.objects.filter(match=match, actor="bot"))
    )()
    assert len(records) == 1 and records[0].seat == 2
    await ana.disconnect()
    await ben.disconnect()


async def test_a_late_socket_catches_up_on_an_overdue_timer():
    """Deadlines live in the database: a match whose sockets were all gone (a restart) fires its
    overdue timer as soon as somebody connects again."""
    t = await a_table(at_ms=1_700_000_000_000)  # set up in 2023: its pass timeout is long overdue
    ana, _, _ = await connect(t["match"].pk, t["ana"])
    first = await receive_state(ana)
    assert first["version"] == 0
    fired = await receive_state(ana, timeout=3)
    assert fired["version"] == 1
    assert any(e["type"] == "nobody_solved" for e in fired["events"])
    await ana.disconnect()


async def test_news_that_comes_while_a_sync_reads_the_database_follows_its_answer(monkeypatch):
    """The sync's answer is read before Ben's move and its news arrives while the answer is on
    its way: the socket still sends them in version order."""
    t = await a_table()
    match = t["match"]
    ana, _, _ = await connect(match.pk, t["ana"])
    await receive_state(ana)
    ben_user = await database_sync_to_async(lambda: match.seats.get(index=1).user)()
    read = consumers.selectors.match_access_async

    async def read_then_ben_moves(**kwargs):
        access = await read(**kwargs)
        await database_sync_to_async(services.submit_move)(
            match_id=match.pk, user=ben_user, move={"type": "pass"}
        )
        return access

    monkeypatch.setattr(consumers.selectors, "match_access_async", read_then_ben_moves)
    await ana.send_json_to({"type": "sync"})

    answer, news = await receive_state(ana), await receive_state(ana)
    assert (answer["version"], news["version"]) == (0, 1)
    await ana.disconnect()


async def test_a_stopped_match_tells_its_sockets_and_leaves_them_the_last_state():
    t = await a_table()
    match = t["match"]
    ana, _, _ = await connect(match.pk, t["ana"])
    first = await receive_state(ana)

    await database_sync_to_async(services.match_abandon)(match_id=match.pk)

    told, last = await receive_state(ana), await receive_state(ana)
    assert told["type"] == "error" and told["code"] == "match_stopped"
    assert last["type"] == "state" and last["version"] == first["version"]
    assert last["view"] == first["view"]
    await ana.disconnect()


async def test_a_pause_reaches_the_sockets_and_their_clock_stands_still():
    t = await a_table()
    match = t["match"]
    ana, _, _ = await connect(match.pk, t["ana"])
    first = await receive_state(ana)
    assert first["paused"] is False

    await database_sync_to_async(services.match_pause)(match_id=match.pk)
    told = await receive_state(ana)
    assert told["type"] == "clock" and told["paused"] is True
    frozen = told["server_time"]
    rules, state = await current(match)
    await ana.send_json_to({"type": "move", "move": rules.legal_moves(state, 0)[0]})
    refused = await receive_state(ana)
    assert refused["type"] == "error" and refused["code"] == "paused"
    # A state read while paused says so, at the same standing time.
    await ana.send_json_to({"type": "sync"})
    synced = await receive_state(ana)
    assert synced["paused"] is True and synced["server_time"] == frozen

    await database_sync_to_async(services.match_resume)(match_id=match.pk)
    resumed = await receive_state(ana)
    assert resumed["type"] == "clock" and resumed["paused"] is False
    assert resumed["server_time"] >= frozen
    await ana.disconnect()


async def ana_passes_while_the_next_socket_reads_the_match(monkeypatch, match):
    """The next socket's read of the match is followed, before its connect goes on, by Ana's
    pass committing."""
    ana_user = await database_sync_to_async(lambda: match.seats.get(index=0).user)()
    read = consumers.selectors.match_access_async

    async def read_then_ana_moves(**kwargs):
        access = await read(**kwargs)
        await database_sync_to_async(services.submit_move)(
            match_id=match.pk, user=ana_user, move={"type": "pass"}
        )
        return access

    monkeypatch.setattr(consumers.selectors, "match_access_async", read_then_ana_moves)


async def test_a_socket_that_connects_while_a_move_commits_sees_the_move(monkeypatch, settings):
    """Ben's socket reads the match, and Ana's move commits before his connect goes on: he joined
    the match's news before that read, so the move reaches him at once, after the state he read
    (no heartbeat here to catch it up)."""
    settings.GAMES_HEARTBEAT_SECONDS = 0
    t = await a_table()
    match = t["match"]
    ana, _, _ = await connect(match.pk, t["ana"])
    await receive_state(ana)
    await ana_passes_while_the_next_socket_reads_the_match(monkeypatch, match)
    ben, connected, _ = await connect(match.pk, t["ben"])
    assert connected
    first, news = await receive_state(ben), await receive_state(ben, timeout=1)
    assert (first["version"], news["version"]) == (0, 1)
    assert (await receive_state(ana))["version"] == 1
    await ana.disconnect()
    await ben.disconnect()


async def test_a_refused_socket_hears_nothing_of_the_match_it_joined_to_read(monkeypatch):
    """Carla is not at the table: her socket joined the match's news before the match was read,
    and a move committed meanwhile reaches her no more than the match does."""
    t = await a_table()
    match = t["match"]
    ana, _, _ = await connect(match.pk, t["ana"])
    await receive_state(ana)
    await ana_passes_while_the_next_socket_reads_the_match(monkeypatch, match)
    carla, connected, _ = await connect(match.pk, t["carla"])
    assert connected and await close_code_after_accept(carla) == 4403
    assert MatchHub.here().listeners(match.pk) == 1
    await ana.disconnect()
