"""A player's move on a match this server process wrote last is decided on the match as that
write left it, and sent as one message: the check that the row is unchanged (under its row
lock), the writes and the COMMIT (games/services/runner.py, ``_KnownMatches``). Written anywhere
else meanwhile, the match is read again under its lock and the move decided on that, as every
write was before: these tests play the same moves both ways and compare what was stored."""

from __future__ import annotations

import asyncio
from unittest import mock

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connections

import engine
from games import async_db, services
from games.models import Attempt, Match, MoveRecord
from games.services import runner, writes
from tests.factories import make_class, make_match, make_student

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("services"),
    pytest.mark.timeout(60),
]


@pytest.fixture
def table():
    classroom = make_class()
    players = [make_student(classroom, name) for name in ("Ana", "Ben", "Cai")]
    return players


def _next_move(match_id):
    match = Match.objects.get(pk=match_id)
    rules = engine.get_game(match.game)
    state = rules.load(match.state)
    seat = min(rules.active(state))
    return seat, rules.legal_moves(state, seat)[0]


def _play_on_the_loop(steps):
    """Runs ``steps`` (a coroutine function taking the message counter) on one event loop, as a
    server process does, counting the messages its moves send to PostgreSQL."""
    sent = mock.Mock(wraps=async_db._message)

    async def run():
        try:
            with mock.patch.object(async_db, "_message", sent):
                return await steps(sent)
        finally:
            await async_db.close_pool()

    return async_to_sync(run)()


def _at_ms(match, number):
    """The same clock for both ways of playing: ``number`` moves 1.5 s apart from the start."""
    return match.state["data"]["turn_started_ms"] + 1_500 * (number + 1)


def _stored(match_id):
    match = Match.objects.get(pk=match_id)
    records = list(
        MoveRecord.objects.filter(match_id=match_id).values_list(
            "version", "seat", "move", "events"
        )
    )
    attempts = list(
        Attempt.objects.filter(match_id=match_id)
        .order_by("move__version", "seat")
        .values_list("seat", "operands", "answer", "correct", "skill")
    )
    return match.state, match.version, match.status, records, attempts


def test_a_players_next_moves_are_one_message_each_and_store_what_the_read_path_stores(table):
    known = make_match(game="add_up", variant="standard", players=table, seed=11)
    read = make_match(game="add_up", variant="standard", players=table, seed=11)
    Match.objects.filter(pk=read.pk).update(state=known.state)  # one start, to the millisecond
    read.refresh_from_db()
    moves = []
    for number in range(8):  # the same moves on the other match, each read under its lock
        seat, move = _next_move(read.pk)
        moves.append((seat, move))
        services.submit_move(
            match_id=read.pk,
            user=table[seat],
            move=move,
            client_id=f"m{number}",
            at_ms=_at_ms(read, number),
        )

    async def play(sent):
        for number, (seat, move) in enumerate(moves):
            result = await services.submit_move_async(
                match_id=known.pk,
                user=table[seat],
                move=move,
                client_id=f"m{number}",
                at_ms=_at_ms(known, number),
            )
            assert result.version == number + 1
        return sent.call_count

    messages = _play_on_the_loop(play)
    assert messages == 2 + 7  # the first move reads the match; the seven after it do not
    assert _stored(known.pk) == _stored(read.pk)
    assert Attempt.objects.filter(match=known).exists()  # moves with answers were among them


def test_a_match_a_move_behind_refuses_the_move_it_knew_and_reads_it(table):
    """Another process played the next move: decided on what this process knew, the next seat's
    move is not its turn; refused there, before anything is sent, it is read and played."""
    match = make_match(game="add_up", variant="standard", players=table, seed=12)

    async def play(sent):
        seat, move = await _next_move_async(match.pk)
        await services.submit_move_async(
            match_id=match.pk, user=table[seat], move=move, client_id="first"
        )
        seat, move = await _next_move_async(match.pk)
        await _elsewhere(
            services.submit_move, match_id=match.pk, user=table[seat], move=move, client_id="x"
        )
        before = sent.call_count
        seat, move = await _next_move_async(match.pk)
        result = await services.submit_move_async(
            match_id=match.pk, user=table[seat], move=move, client_id="third"
        )
        return result, sent.call_count - before

    result, messages = _play_on_the_loop(play)
    assert result.version == 3 and not result.duplicate
    assert messages == 2
    assert list(MoveRecord.objects.filter(match=match).values_list("version", "client_id")) == [
        (1, "first"),
        (2, "x"),
        (3, "third"),
    ]


def test_a_match_written_elsewhere_fails_the_check_and_the_move_is_decided_again(table):
    """The teacher gave the table more time from a page (another process): the move this process
    decides on what it knew is legal, but its message's check finds the row changed, so nothing
    of it is written; read again, the move is timed on the table's new clock and the clock
    kept. Without the check it would have been saved with the old clock, undoing the time."""
    match = make_match(game="add_up", variant="standard", players=table, seed=16)
    second_at = _at_ms(match, 1)

    async def play(sent):
        seat, move = await _next_move_async(match.pk)
        await services.submit_move_async(
            match_id=match.pk,
            user=table[seat],
            move=move,
            client_id="first",
            at_ms=_at_ms(match, 0),
        )
        await _elsewhere(services.match_add_time, match_id=match.pk, seconds=30)
        before = sent.call_count
        seat, move = await _next_move_async(match.pk)
        await services.submit_move_async(
            match_id=match.pk, user=table[seat], move=move, client_id="second", at_ms=second_at
        )
        return sent.call_count - before

    messages = _play_on_the_loop(play)
    assert messages == 1 + 2  # the check found the row changed; then the read and the writes
    match.refresh_from_db()
    assert match.clock_offset_ms == 30_000
    assert MoveRecord.objects.get(match=match, version=2).now_ms == second_at - 30_000


def test_a_pause_elsewhere_stops_the_next_move(table):
    match = make_match(game="add_up", variant="standard", players=table, seed=13)

    async def play(sent):
        seat, move = await _next_move_async(match.pk)
        await services.submit_move_async(
            match_id=match.pk, user=table[seat], move=move, client_id="first"
        )
        await _elsewhere(services.match_pause, match_id=match.pk)
        seat, move = await _next_move_async(match.pk)
        with pytest.raises(services.MatchError) as refused:
            await services.submit_move_async(
                match_id=match.pk, user=table[seat], move=move, client_id="second"
            )
        return refused.value.code

    assert _play_on_the_loop(play) == services.PAUSED
    assert Match.objects.get(pk=match.pk).version == 1
    assert MoveRecord.objects.filter(match=match).count() == 1


def test_a_move_sent_again_is_answered_as_played_and_not_played_twice(table):
    match = make_match(game="add_up", variant="standard", players=table, seed=14)

    async def play(sent):
        seat, move = await _next_move_async(match.pk)
        first = await services.submit_move_async(
            match_id=match.pk, user=table[seat], move=move, client_id="once"
        )
        again = await services.submit_move_async(
            match_id=match.pk, user=table[seat], move=move, client_id="once"
        )
        return first, again

    first, again = _play_on_the_loop(play)
    assert first.version == 1 and not first.duplicate
    assert again.duplicate and again.version == 1
    assert MoveRecord.objects.filter(match=match).count() == 1


def test_a_move_without_a_client_id_is_always_read_under_the_lock(table):
    """Without a client id a move's replay could not be told from a new move, so a move whose
    one message may or may not have committed (its connection lost) could not be sent again
    safely: such moves take the read path."""
    match = make_match(game="add_up", variant="standard", players=table, seed=15)

    async def play(sent):
        for _ in range(3):
            seat, move = await _next_move_async(match.pk)
            await services.submit_move_async(match_id=match.pk, user=table[seat], move=move)
        return sent.call_count

    assert _play_on_the_loop(play) == 3 * 2
    assert Match.objects.get(pk=match.pk).version == 3


async def _next_move_async(match_id):
    return await _elsewhere(_next_move, match_id)


async def _elsewhere(function, *args, **kwargs):
    """``function`` as another process would call it: on a thread, and without telling this
    process's event loop that it wrote the match (a write on this process's own Django connection
    does: ``write_match``)."""

    def call():
        try:
            with mock.patch.object(runner._known_matches, "forget"):
                return function(*args, **kwargs)
        finally:
            connections.close_all()  # this thread's own connection, made for the call

    return await sync_to_async(call, thread_sensitive=False)()


def test_a_process_keeps_no_finished_match_and_at_most_its_size(table, monkeypatch):
    """A finished match takes no more moves: keeping it would only hold memory. And a process
    keeps at most ``SIZE`` matches, dropping the one it wrote longest ago."""
    monkeypatch.setattr(runner._KnownMatches, "SIZE", 2)
    known = runner._KnownMatches()
    matches = [
        make_match(game="add_up", variant="standard", players=table, seed=n) for n in range(3)
    ]

    def written(match):
        write = writes._PlayerMove(match.pk, user=table[0], move={}, client_id="c", at_ms=None)
        write.after = (match, {}, True)
        return write

    async def keep_and_take():  # on an event loop, as a server process keeps them
        matches[0].status = Match.Status.FINISHED
        known.keep(written(matches[0]), "1", "2")
        assert known.take(matches[0].pk) is None
        for match in matches:
            match.status = Match.Status.PLAYING
            known.keep(written(match), "1", "2")
        assert known.take(matches[0].pk) is None  # the oldest, dropped for the third
        assert known.take(matches[1].pk).row_version == "2"  # saved: the version it wrote
        assert known.take(matches[1].pk) is None  # taken: a write of it is under way

    async_to_sync(keep_and_take)()


def test_the_copy_of_a_match_is_made_after_its_news_has_gone_out(table, monkeypatch):
    """The sockets of a move do not wait for the process's copy of its match: the news's task,
    queued before the write is kept, runs first. A move of the match that comes before the copy
    is made gets it all the same."""
    match = make_match(game="add_up", variant="standard", players=table, seed=21)
    order = []
    as_read = runner._LockStatement.as_read

    def copied(lock, match):
        order.append("copy")
        return as_read(lock, match)

    monkeypatch.setattr(runner._LockStatement, "as_read", copied)
    known = runner._KnownMatches()

    def written():
        write = writes._PlayerMove(match.pk, user=table[0], move={}, client_id="c", at_ms=None)
        write.after = (match, {}, True)
        return write

    async def news():
        order.append("news")

    async def keep_after_news():
        asyncio.get_running_loop().create_task(news())
        known.keep(written(), "1", "2")
        assert order == []
        await asyncio.sleep(0)
        assert order == ["news", "copy"]
        assert known.take(match.pk).match.state == match.state

        known.keep(written(), "2", "3")
        taken = known.take(match.pk)  # before the loop has turned: copied here
        assert order == ["news", "copy", "copy"] and taken.row_version == "3"
        await asyncio.sleep(0)
        assert known.take(match.pk) is None and order == ["news", "copy", "copy"]

    async_to_sync(keep_after_news)()
