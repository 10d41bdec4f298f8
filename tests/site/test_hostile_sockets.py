"""Hostile input on every socket (match, session monitor, student home): whatever a client sends,
it gets an answer, the socket stays open, nothing is logged as an error and nothing changes.

Two inputs once reached the move's transaction and ended with a traceback and a 1011 close: a NUL
in client_id and a lone surrogate (a JSON "\\ud800" escape) in any string of a move."""

import json
import logging

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.asgi import application
from games import async_db
from games.models import Match, MoveRecord
from tests.factories import (
    make_class,
    make_match,
    make_session,
    make_student,
    make_teacher,
    session_cookie_for,
)

pytestmark = pytest.mark.django_db(transaction=True)

HOSTILE_TEXTS = [
    # a NUL in client_id: psycopg refused it inside the move's transaction
    '{"type": "move", "move": {"type": "pass"}, "client_id": "a\\u0000b"}',
    # a lone surrogate in a move's string, in a key, in client_id: UTF-8 cannot encode it
    '{"type": "move", "move": {"type": "\\ud800"}, "client_id": "x1"}',
    '{"type": "move", "move": {"type": "claim", "\\udfff": 1}, "client_id": "x2"}',
    '{"type": "move", "move": {"type": "pass"}, "client_id": "\\ud83d"}',
    '{"type": "\\u0000"}',
    # past the parser's recursion limit in a few kilobytes
    "[" * 2000 + "]" * 2000,
    '{"type": "move", "move": ' + '{"a": ' * 30 + "1" + "}" * 30 + "}",
    # not JSON, though Python's parser takes them
    '{"type": "move", "move": {"type": "claim", "cards": [NaN]}}',
    '{"type": "move", "move": {"type": "claim", "cards": [Infinity]}}',
    "1" * 5000,
    "",
    "null",
    "[]",
    '"move"',
    b'{"type": "ping"}',  # a binary frame
]

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(alphabet=st.characters(exclude_categories=()), max_size=12),  # surrogates too
)
json_value = st.recursive(
    json_leaf,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet=st.characters(exclude_categories=()), max_size=6), inner)
    ),
    max_leaves=10,
)
move_types = st.sampled_from(
    ["claim", "pass", "play", "draw", "equation", "swap", "solve", "rotate", "wild", "end_turn"]
)
a_move = st.one_of(
    json_value,
    st.fixed_dictionaries(
        {"type": move_types}, optional={"cards": json_value, "option": json_value}
    ),
    st.dictionaries(st.text(max_size=8), json_value, max_size=4).map(
        lambda extra: {**extra, "type": "claim"}
    ),
)
message = st.one_of(
    json_value.map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["move", "sync", "ping", "pong", "state", ""])},
        optional={"move": a_move, "client_id": json_value},
    ).map(json.dumps),
    st.text(max_size=40),
    st.binary(max_size=40),  # a binary frame
    st.sampled_from(HOSTILE_TEXTS),
)


async def open_socket(path, cookie):
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"cookie", cookie.encode())]
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await ws.connect(timeout=5)
    assert connected, code
    return ws


async def answer_to(ws, text, answers=("error", "pong", "state", "monitor", "sessions")):
    """Sends ``text``; the first answer of a kind in ``answers``. A close (of any code) or an
    exception in the consumer fails the test."""
    frame = {"text": text} if isinstance(text, str) else {"bytes": text}
    await ws.send_input({"type": "websocket.receive", **frame})
    while True:
        output = await ws.receive_output(timeout=5)
        assert output["type"] == "websocket.send", f"closed after {text!r}: {output}"
        reply = json.loads(output["text"])
        if reply["type"] in answers:
            return reply


async def play_hostile(path, cookie, texts, opened=None):
    ws = await open_socket(path, cookie)
    try:
        if opened:  # the first message a socket sends of itself
            assert (await ws.receive_json_from(timeout=5))["type"] == opened
        replies = [await answer_to(ws, text) for text in texts]
        # Still open and answering. (An answer may have come after the one read for its message,
        # as when the match's heartbeat brought a state in between: what is left is read first.)
        assert (await answer_to(ws, '{"type": "ping"}', answers=("pong",)))["type"] == "pong"
        return replies
    finally:
        await ws.disconnect()
        # This event loop ends with the example: so must its pool of move connections.
        await async_db.close_pool()


@pytest.fixture
def no_errors_logged(caplog):
    caplog.set_level(logging.WARNING)
    yield
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not errors, [r.getMessage() for r in errors]


def a_table():
    teacher = make_teacher()
    classroom = make_class(teacher)
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    match = make_match(players=[ana, ben], teacher=teacher, seed=7)
    return match, session_cookie_for(ana), session_cookie_for(teacher), session_cookie_for(ben)


def version_and_moves(match_id):
    return Match.objects.get(pk=match_id).version, MoveRecord.objects.filter(
        match_id=match_id
    ).count()


@pytest.mark.timeout(120)
def test_the_named_hostile_inputs_are_refused_and_change_nothing(no_errors_logged):
    match, ana, _teacher, _ben = a_table()
    before = version_and_moves(match.pk)
    replies = async_to_sync(play_hostile)(f"/ws/match/{match.pk}/", ana, HOSTILE_TEXTS, "state")
    assert [(r["type"], r["code"]) for r in replies] == [
        ("error", "too_large" if len(text) > 4096 else "malformed") for text in HOSTILE_TEXTS
    ]
    assert version_and_moves(match.pk) == before


def fuzzed(socket_path, cookie, opened, match_id=None):
    @settings(
        max_examples=settings.default.max_examples * 2,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        deadline=None,
    )
    @given(st.lists(message, min_size=1, max_size=12))
    def fuzz(texts):
        before = version_and_moves(match_id) if match_id else None
        replies = async_to_sync(play_hostile)(socket_path, cookie, texts, opened)
        if match_id:
            # Nothing changed but what the socket was told of (an arbitrary move may be legal).
            versions = [r["version"] for r in replies if r["type"] == "state"]
            version, moves = version_and_moves(match_id)
            assert version == max([before[0], *versions])
            assert moves - before[1] == version - before[0]

    fuzz()


@pytest.mark.timeout(600)
def test_arbitrary_messages_on_a_players_match_socket(no_errors_logged):
    match, ana, _teacher, _ben = a_table()
    fuzzed(f"/ws/match/{match.pk}/", ana, "state", match.pk)


@pytest.mark.timeout(600)
def test_arbitrary_messages_on_the_teachers_watching_socket(no_errors_logged):
    match, _ana, teacher, _ben = a_table()
    fuzzed(f"/ws/match/{match.pk}/", teacher, "state", match.pk)


@pytest.mark.timeout(600)
def test_arbitrary_messages_on_the_session_monitor_socket(no_errors_logged):
    classroom = make_class()
    make_student(classroom, "Ana")
    session = make_session(classroom)
    fuzzed(f"/ws/session/{session.pk}/", session_cookie_for(classroom.teacher), "monitor")


@pytest.mark.timeout(600)
def test_arbitrary_messages_on_a_students_home_socket(no_errors_logged):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    fuzzed("/ws/student/", session_cookie_for(ana), "sessions")


@pytest.mark.timeout(600)
def test_arbitrary_messages_on_the_ping_socket(no_errors_logged):
    classroom = make_class()
    fuzzed("/ws/ping/", session_cookie_for(make_student(classroom, "Ana")), None)
