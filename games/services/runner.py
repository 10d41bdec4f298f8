"""How a write of a match reaches the database, whatever its kind (games.services.writes): the
``_MatchWrite`` a kind fills in (lock, decide, tell), and the two runners. ``write_match`` runs it
in one transaction on Django's connection; ``write_match_async`` from a server's event loop, one
write of a match at a time per process (``_turn_of``), on PostgreSQL on the loop's own
connections (games.async_db), where a player's move on a match this process wrote last is decided
on the match as it left it and sent in one message (``_KnownMatches``)."""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections import OrderedDict
from typing import Any, NamedTuple

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import IntegrityError, connection, transaction

from engine import IllegalMove
from games import async_db, delivery, trace
from games.async_db import Statement
from games.models import Match
from games.services.common import Change, MatchError, MoveWaitedTooLong
from games.services.sql import CHANGED_SQLSTATE, SeatRow, _LockStatement, at_once, closing, opening


def _match_id(match_id) -> int:
    try:
        return int(match_id)
    except (ValueError, TypeError):
        raise MatchError("no_match", "there is no such match") from None


class _MatchWrite:
    """One write of a match, apart from how it reaches the database: the lock statement
    (``_LockStatement``: the match row locked, with its seats), the decision taken from its rows
    (the result, and the statements that save it), and the news told once it has committed.
    ``write_match`` and ``write_match_async`` run it; every decision is taken here."""

    client_id = ""
    arrived_ns: int | None = None  # a player's move: when its socket read it
    # What this write leaves this process knowing of the match once it has committed: the match
    # as saved, its seats, and whether it saved the match's row (_KnownMatches). None: nothing
    # (the process then reads the match under its lock at its next write).
    after: tuple[Match, dict[int, SeatRow], bool] | None = None
    row_versions: tuple[str, str] | None = None  # PostgreSQL's xmin read, and this write's id

    def __init__(self, match_id):
        self.match_id = _match_id(match_id)
        self._lock = _LockStatement.get(connection)
        self.changes: list[Change] = []
        self.wake_at_ms: int | None = None

    def lock(self) -> Statement:
        return self._lock.statement(self.match_id, self.client_id)

    def read(self, rows) -> tuple[Match, dict[int, SeatRow], set[int]]:
        """The lock statement's rows: the match, its seats, the seats that sent ``client_id``."""
        self.row_versions = self._lock.row_versions(rows)
        return self._lock.read(rows)

    def decides_on_known(self) -> bool:
        """Whether this write may be decided on the match as this process last wrote it
        (``decide_on_known``) rather than read under its lock."""
        return False

    def decide_on_known(self, known: _KnownMatch) -> tuple[Any, list[Statement]]:
        raise NotImplementedError

    def begin(self) -> None:
        """Called once the write holds its turn and a connection, before any statement: a
        player's move that has waited longer than ``GAMES_MOVE_WAIT_LIMIT_MS`` by then while
        other writes of this process were done is refused (``MoveWaitedTooLong``). The bound is
        on waiting time, not on how many moves are in flight: a queue of moves that are each
        answered quickly is no trouble; moves that wait long behind others are the queue that
        grows without bound. A move that waited while no write was done (the database away, its
        connections being made again) is not queueing behind anyone: it is played once it can
        be, within the connection's own deadlines."""
        if self.arrived_ns is None:
            return
        now = time.monotonic_ns()
        waited_ms = (now - self.arrived_ns) / 1e6
        if waited_ms > settings.GAMES_MOVE_WAIT_LIMIT_MS and _writes_done.last_ns > self.arrived_ns:
            raise MoveWaitedTooLong(f"the move waited {waited_ms:.0f} ms behind other writes")

    def decide(self, rows) -> tuple[Any, list[Statement]]:
        raise NotImplementedError

    def tell(self) -> None:
        """The news of what was committed, to the match's sockets and the teaching layer, from
        wherever it committed (``games.delivery``)."""
        if self.changes:
            delivery.match_changed(self.match_id, self.changes, self.wake_at_ms)


def write_match(write: _MatchWrite):
    """``write`` in one transaction on Django's connection (a savepoint inside the caller's), its
    news on commit: Celery, the teaching layer, tests, and a server's writes where they cannot run
    on its event loop (``write_match_async``)."""
    _known_matches.forget(write.match_id)  # a write here leaves what the loop knew out of date
    write.begin()
    with transaction.atomic(), _pipelined():
        with connection.cursor() as cursor:
            cursor.execute(*write.lock())
            result, statements = write.decide(cursor.fetchall())
            for sql, params in statements:
                cursor.execute(sql, params)
        transaction.on_commit(write.tell)
    _writes_done.last_ns = time.monotonic_ns()
    return result


class _WritesDone:
    """When this process last finished a write of a match (``time.monotonic_ns()``): a move that
    waited past its bound is refused only if others were written meanwhile (``begin``)."""

    last_ns = 0


_writes_done = _WritesDone()


async def write_match_async(write: _MatchWrite):
    """``write`` from a server's event loop, read top to bottom: take the match's turn; decide
    on the match as this process last wrote it, if it may (``_write_on_known``: one message), or
    else read it under its lock and decide (``_write_under_lock``: two); then hand the news to
    its one path out (``tell``) and keep what the write left known. On PostgreSQL the
    transaction runs on the loop's own connections (``games.async_db``, which only sends): on a
    thread each round trip had to win the GIL back from the loop (docs/capacity.md). SQLite has
    no such driver: there ``write_match`` runs on the thread Channels shares for database
    work."""
    async with _turn_of(write.match_id):
        if not async_db.enabled():
            return await _write_match_on_thread(write)
        known = _known_matches.take(write.match_id)
        done = None
        if known is not None and write.decides_on_known():
            done = await _write_on_known(write, known)
        if done is None:
            done = await _write_under_lock(write)
        result, versions = done
        _writes_done.last_ns = time.monotonic_ns()
        write.tell()
        if versions is not None:
            _known_matches.keep(write, *versions)
        return result


@trace.spanned("known")
async def _write_on_known(write: _MatchWrite, known: _KnownMatch):
    """``write`` decided on ``known`` and sent in one message (``sql.at_once``: ``BEGIN``, the
    check under the row lock that the row is still ``known``'s version, the writes, ``COMMIT``):
    its result and the row versions to keep (``_KnownMatches.keep``) once committed; None if it
    must read the match under its lock: the row changed since, the connection was lost (the
    message may have committed: the lock statement's replay check tells), or the decision on
    what this process knew refused the write (the match may have moved on: read, the move may
    be allowed, or refused for the right reason)."""
    try:
        async with async_db.connection() as db:
            write.begin()
            with trace.span("decide"):
                result, statements = write.decide_on_known(known)
            message = at_once(write.match_id, known.row_version, statements)
            async with db.transaction():
                with trace.span("commit"):
                    rows = await db.send(message, rows_of=1, refused=CHANGED_SQLSTATE)
    except (async_db.RowChanged, async_db.ConnectionLost, IntegrityError, IllegalMove, MatchError):
        return None
    (written_under,) = rows[0]  # the check's row: the id this transaction wrote under
    return result, (known.row_version, written_under)


async def _write_under_lock(write: _MatchWrite):
    """``write`` read under the match's row lock, decided and committed (``_read_and_decide``):
    its result and the row versions to keep. A connection the pool kept idle across a restart of
    PostgreSQL is found dead at the first message, before anything was written: the pool drops
    every dead one and the write is tried once more, on a connection made now."""
    try:
        return await _read_and_decide(write)
    except _NothingWritten as stale:
        await async_db.drop_dead_connections()
        try:
            return await _read_and_decide(write)
        except _NothingWritten as again:
            raise again.lost.error from stale.lost.error


async def _read_and_decide(write: _MatchWrite):
    async with async_db.connection() as db:
        write.begin()
        async with db.transaction():
            with trace.span("read"):
                try:
                    rows = await db.send(opening(write.lock()), rows_of=-1)
                except async_db.ConnectionLost as lost:
                    raise _NothingWritten(lost) from lost
            with trace.span("decide"):
                result, statements = write.decide(rows)
            with trace.span("commit"):
                await db.send(closing(statements))
    return result, write.row_versions


class _NothingWritten(Exception):
    """The connection was found dead at a transaction's first message (``_write_under_lock``)."""

    def __init__(self, lost: async_db.ConnectionLost):
        super().__init__(str(lost))
        self.lost = lost


class _KnownMatch(NamedTuple):
    match: Match
    seats: dict[int, SeatRow]
    row_version: str  # the match row's xmin when this process last read or wrote it
    kept_at: float  # time.monotonic()


class _KnownMatches:
    """The match as this process last wrote it, for the playing matches it wrote last. Routed by
    match, a table's moves all come to one process, one at a time (``_turn_of``), so the match a
    move saved is almost always the match the next move would read: reading it again under the
    lock, a round trip before the one that writes, told the process what it already knew. A move
    decided on what the process knows is sent with a check, under the row lock, that the row is
    still the version it knew (``sql.at_once``). Written meanwhile by anyone (another process, a
    teacher's pause from a page, a sweep), the row has a new version: the check aborts the
    message, nothing of it is written, and the move is read and decided again. A process keeps
    at most ``SIZE`` matches, each for ``KEPT_S`` at most (a child's time zone, read with the
    seats, may change)."""

    SIZE = 4096
    KEPT_S = 300.0

    def __init__(self):
        self._matches: OrderedDict[int, _KnownMatch | _Unsettled] = OrderedDict()

    def take(self, match_id: int) -> _KnownMatch | None:
        known = self._matches.pop(match_id, None)
        if known is None or time.monotonic() - known.kept_at > self.KEPT_S:
            return None
        return known.settled() if isinstance(known, _Unsettled) else known

    def forget(self, match_id: int) -> None:
        self._matches.pop(match_id, None)

    def keep(self, write: _MatchWrite, read_version: str, written_under: str) -> None:
        """What ``write`` left known, once committed: its match and seats, at the row version
        it read or, if it saved the match, the one it wrote (its transaction's id). Called once
        the write's news is queued, the copy of its match is made when the event loop has run
        what was ready then: the news's task goes first, and the sockets do not wait for the
        copy. A move of the match that comes sooner makes the copy itself (``take``)."""
        if write.after is None or not write.after[0].is_playing:
            return
        saved = write.after[2]
        entry = _Unsettled(write, written_under if saved else read_version, time.monotonic())
        self._matches[write.match_id] = entry
        if len(self._matches) > self.SIZE:
            self._matches.popitem(last=False)
        asyncio.get_running_loop().call_soon(self._settle, write.match_id, entry)

    def _settle(self, match_id: int, entry: _Unsettled) -> None:
        if self._matches.get(match_id) is entry:
            self._matches[match_id] = entry.settled()


class _Unsettled(NamedTuple):
    """A committed write whose match is not yet copied as it would be read (``_KnownMatches``)."""

    write: _MatchWrite
    row_version: str
    kept_at: float

    def settled(self) -> _KnownMatch:
        match, seats, _ = self.write.after
        return _KnownMatch(self.write._lock.as_read(match), seats, self.row_version, self.kept_at)


_known_matches = _KnownMatches()

_write_match_on_thread = database_sync_to_async(write_match)

# One write of a match at a time per process, on top of the row lock: its news then leaves in
# commit order (the lock orders the commits, not the coroutines that tell of them afterwards),
# and a race at one table (every claim on a ¡Mía! card) waits here, holding one of the few
# move connections (GAMES_MOVE_CONNECTIONS) rather than one each, blocked on the row lock.
_match_turns: weakref.WeakValueDictionary[int, _Turn] = weakref.WeakValueDictionary()


class _Turn(asyncio.Lock):
    """A match's turn: a lock whose ``async with`` is timed while it waits (games/trace.py)."""

    async def __aenter__(self) -> None:
        with trace.span("turn"):
            await self.acquire()


def _turn_of(match_id: int) -> _Turn:
    turn = _match_turns.get(match_id)
    if turn is None:
        turn = _match_turns[match_id] = _Turn()
    return turn


@contextlib.contextmanager
def _pipelined():
    """On PostgreSQL, the statements of a write whose results nobody reads (its writes and the
    roll-ups') go to the server together, in psycopg's pipeline mode: a write on Django's
    connection takes four round trips (BEGIN, the lock, the writes, the COMMIT) whatever it
    writes, where each statement took one. In a busy server process every round trip also waits
    for the GIL again (docs/capacity.md).

    It is entered inside the transaction, after Django's autocommit switch, and left before the
    COMMIT: psycopg syncs the pipeline to switch autocommit, and on-commit hooks (the news, the
    teaching layer's look-ups) then run outside it. A failed write raises as the pipeline ends,
    inside the transaction, which rolls back."""
    if connection.vendor != "postgresql":
        yield
        return
    connection.ensure_connection()
    # Errors raised as the pipeline ends come from psycopg itself: Django's wrapper makes them
    # django.db errors (IntegrityError, ...), as they would be from a cursor.
    with connection.wrap_database_errors, connection.connection.pipeline():
        yield
