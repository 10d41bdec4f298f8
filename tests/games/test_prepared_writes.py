"""On PostgreSQL a move's statements are prepared on the moves' connection once a write that sent
them has committed, and sent from then on as ``EXECUTE`` (games/async_db.py, "prepared
statements"): the same rows are written, one message each way as before. A statement
PostgreSQL cannot prepare stays text, and nothing fails for it."""

from __future__ import annotations

import types

import pytest
from asgiref.sync import async_to_sync
from django.db import connection

import engine
from games import async_db, services
from games.models import Attempt, Match, MoveRecord
from games.services import sql
from tests.factories import make_class, make_match, make_student

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("services")]


@pytest.fixture
def one_connection(settings):
    settings.GAMES_MOVE_CONNECTIONS = 1  # every write and read below on the same connection


def _moves(match, players, count):
    rules = engine.get_game(match.game)

    async def play():
        try:
            for number in range(count):
                state = rules.load((await Match.objects.aget(pk=match.pk)).state)
                seat = min(rules.active(state))
                move = rules.legal_moves(state, seat)[0]
                await services.submit_move_async(
                    match_id=match.pk, user=players[seat], move=move, client_id=f"m{number}"
                )
            return await async_db.fetch("SELECT statement FROM pg_prepared_statements", [])
        finally:
            await async_db.close_pool()

    return async_to_sync(play)()


def test_a_moves_statements_are_prepared_and_its_rows_written_the_same(one_connection):
    assert async_db.enabled()
    classroom = make_class()
    players = [make_student(classroom, "Ana"), make_student(classroom, "Ben")]
    match = make_match(game="add_up", variant="standard", players=players, seed=3)
    prepared = [row[0] for row in _moves(match, players, 6)]
    lock = sql._LockStatement.get(connection).sql.split(" WHERE ")[0]
    assert any(lock.split(" FROM ")[0] in text for text in prepared), prepared
    assert any('INSERT INTO "games_moverecord"' in text for text in prepared), prepared
    match.refresh_from_db()
    assert match.version == 6
    assert MoveRecord.objects.filter(match=match).count() == 6
    assert list(MoveRecord.objects.filter(match=match).values_list("version", flat=True)) == [
        1,
        2,
        3,
        4,
        5,
        6,
    ]
    assert Attempt.objects.filter(match=match).count() > 0  # ADD UP's plays with a balance


def test_a_moves_news_goes_out_before_its_connection_prepares_what_it_sent(
    one_connection, monkeypatch
):
    """A connection new to the pool prepares a move's statements, a round trip each, after the
    move: its news does not wait for them."""
    from games.services import runner

    happened = []
    preparing = async_db._prepare
    telling = runner._MatchWrite.tell

    async def prepare(conn, texts):
        happened.append("prepare")
        await preparing(conn, texts)

    def tell(write):
        happened.append("news")
        telling(write)

    monkeypatch.setattr(async_db, "_prepare", prepare)
    monkeypatch.setattr(runner._MatchWrite, "tell", tell)
    classroom = make_class()
    players = [make_student(classroom, "Ana"), make_student(classroom, "Ben")]
    match = make_match(game="add_up", variant="standard", players=players, seed=3)

    prepared = [row[0] for row in _moves(match, players, 2)]

    assert happened[:2] == ["news", "prepare"], happened
    assert any('INSERT INTO "games_moverecord"' in text for text in prepared), prepared
    assert happened.count("news") == 2
    assert happened.count("prepare") <= 2  # the second move's statements, if any were new


def test_a_statement_postgresql_cannot_prepare_stays_text_and_commits(one_connection):
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE prepared_probe (n bigint)")
    # A value whose type only its place decides: PREPARE types it text, and bigint refuses it.
    untyped = ("INSERT INTO prepared_probe (n) SELECT v FROM (VALUES (%s)) AS given(v)", [7])

    async def write_twice():
        try:
            for _ in range(2):
                async with async_db.connection() as db, db.transaction():
                    await db.send([("BEGIN", []), ("SELECT 1", [])], rows_of=-1)
                    await db.send([untyped, ("COMMIT", [])])
            return await async_db.fetch("SELECT statement FROM pg_prepared_statements", [])
        finally:
            await async_db.close_pool()

    prepared = async_to_sync(write_twice)()
    assert prepared == []
    assert untyped[0] in async_db._unpreparable
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM prepared_probe")
        assert cursor.fetchone()[0] == 2


def test_placeholders_become_postgresqls_numbered_ones():
    assert async_db._numbered("SELECT %s, '%%', %s") == "SELECT $1, '%', $2"


def test_a_moves_session_figures_are_prepared_too(one_connection, monkeypatch):
    """At a session's table a move with an answer also adds to the session's figures and answer
    times (classroom/sessions/figures.py): every one of its statements can be prepared."""
    from classroom.models import SessionAnswerTimes
    from tests.classroom.sessions_helpers import seat_of, started_session

    # A known deal: with a random one, twelve first legal moves answer nothing about once in
    # 170 deals (the engine alone, 2,000 deals), and the test has nothing to look at.
    monkeypatch.setattr(
        "games.services.creation.secrets", types.SimpleNamespace(randbits=lambda bits: 7)
    )
    _classroom, students, session = started_session(
        3, game="add_up", variant="standard", table_size=3
    )
    match, _ = seat_of(session, students[0])
    assert match.seed == 7
    players = [seat.user for seat in match.seats.order_by("index")]
    prepared = [row[0] for row in _moves(match, players, 12)]
    answered = Attempt.objects.filter(match=match).count()
    assert answered > 0
    assert any('INSERT INTO "classroom_sessionanswertimes"' in text for text in prepared), prepared
    assert not [text for text in async_db._unpreparable if "classroom_session" in text]
    times = SessionAnswerTimes.objects.filter(session=session)
    assert sum(times.values_list("answers", flat=True)) == answered


def test_a_moves_message_is_quoted_in_pieces_psycopg_keeps_and_reads_as_the_whole(
    one_connection, monkeypatch
):
    """psycopg keeps where a query's placeholders are only for queries of at most 50 values (and
    4 KB); a move with an answer sends about 90, so its message is quoted in pieces within both.
    The text PostgreSQL gets is the one quoting the whole message at once would give."""
    classroom = make_class()
    players = [make_student(classroom, name) for name in ("Ana", "Ben", "Cai")]
    match = make_match(game="add_up", variant="standard", players=players, seed=5)
    quoted = []  # (the statements, their message, the whole message quoted by psycopg)
    pieces = []
    message = async_db._message

    def quoting(cursor, statements):
        mogrify = type(cursor).mogrify.__get__(cursor)

        def piece(text, values):
            pieces.append((len(values), len(text.encode())))
            return mogrify(text, values)

        monkeypatch.setattr(cursor, "mogrify", piece)
        sent = message(cursor, statements)
        names = async_db._prepared.get(cursor.connection, {})
        texts = [
            sql if sql not in names else f"EXECUTE {names[sql]}({', '.join(['%s'] * len(p))})"
            for sql, p in statements
        ]
        whole = mogrify("; ".join(texts), [value for _, p in statements for value in p])
        quoted.append((statements, sent, whole))
        return sent

    monkeypatch.setattr(async_db, "_message", quoting)
    _moves(match, players, 12)
    assert any(sum(len(p) for _, p in statements) > 50 for statements, _, _ in quoted)
    assert all(sent == whole for _, sent, whole in quoted)
    assert max(values for values, _ in pieces) <= async_db.QUOTED_PIECE_VALUES
    assert max(length for _, length in pieces) <= async_db.QUOTED_PIECE_BYTES
