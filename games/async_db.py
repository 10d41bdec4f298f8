"""PostgreSQL on a server process's event loop: the primitives a match's write calls to send
its transaction (``connection``, ``Connection.transaction``, ``Connection.send``) and a read
(``fetch``), with their pool and their deadline. What is sent and when is decided by the write
(games/services/runner.py) and written in its SQL (games/services/sql.py); this only sends it,
and never calls back.

On a thread, a move would spend most of its time waiting for PostgreSQL, and after each of its
round trips the thread must win Python's GIL back from the event loop, which under load takes
three times as long as the round trip itself (docs/capacity.md). So a move's transaction runs on the
event loop, on psycopg's asynchronous connections: nothing has to win the GIL back, and the
transaction takes two messages instead of four (``BEGIN`` and the locking read; the writes and
the ``COMMIT``), or one for a write decided on what its caller already knew of the row
(``BEGIN``, a check under the row lock that the row is as the caller knew it, the writes and
the ``COMMIT``).

The connections bind parameters on the client, as Django's do, so a query of several statements
goes out in PostgreSQL's simple protocol in one message. psycopg's transaction blocks would send
``BEGIN`` and ``COMMIT`` in round trips of their own, and its pipeline mode costs a write and a
wait on the event loop per statement (slower under load: docs/capacity.md), so the connections
stay in autocommit mode and the transaction is written out.

A statement sent as text is parsed and planned again each time, which takes PostgreSQL about as
long as running a move's writes. So each connection prepares (SQL ``PREPARE``) the statements it
has sent once, after the transaction that sent them has committed and while the write's news
goes out, and sends them from then on as ``EXECUTE name(values)`` in the same one message. A
statement PostgreSQL cannot prepare (a value whose type only its place in the text decides)
stays text. Prepared statements live as long as their connection: a pooler in front of
PostgreSQL must keep a client on one server connection (PgBouncer's session mode), as a
connection pool does.

The connections come from a psycopg pool per event loop, made with Django's own connection
parameters and adapters (JSON as text, time zones), so rows read here convert exactly as the ORM's
do. The pool is psycopg_pool's own, as it comes. SQLite, which the embedded set-up uses, has no
such driver: there moves stay on Django's synchronous path (``games.consumers``).

Every wait on PostgreSQL here ends within ``DATABASE_WAIT_S``: past it the connection is cut, so
a hung database answers a move ``try_again`` instead of holding it (``realtime.database_waits``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import weakref
from collections.abc import Sequence
from typing import Any

import psycopg
from django.conf import settings
from django.db import OperationalError, connections
from psycopg.pq import TransactionStatus
from psycopg_pool import AsyncConnectionPool

from games import trace
from realtime.database_waits import DATABASE_WAIT_S, DatabaseTimeout, cut

log = logging.getLogger(__name__)

Statement = tuple[str, Sequence[Any]]
APPLICATION_NAME = "games-moves"
POOL_TIMEOUT_S = 3

_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Future] = (
    weakref.WeakKeyDictionary()
)


def enabled(alias: str = "default") -> bool:
    """Whether moves run on the event loop here: PostgreSQL, and connections allowed for them."""
    return (
        connections[alias].vendor == "postgresql"
        and getattr(settings, "GAMES_MOVE_CONNECTIONS", 0) > 0
    )


class ConnectionLost(Exception):
    """The connection broke under a message before the deadline (``Connection.send``): what the
    message asked may or may not have been done. On a connection the pool had kept idle, the
    first message finding it dead means PostgreSQL restarted and nothing was written."""

    def __init__(self, error: BaseException):
        super().__init__(str(error))
        self.error = error


class RowChanged(Exception):
    """A statement of the message raised the SQLSTATE its sender named (``Connection.send``):
    PostgreSQL ran none of the rest, and the transaction is rolled back."""


class _Deadline:
    passed = False


@contextlib.contextmanager
def _deadline(conn: psycopg.AsyncConnection):
    """Cut ``conn`` if what is done within takes longer than ``DATABASE_WAIT_S``, and raise
    ``DatabaseTimeout`` then. Cut, it is broken: its pool drops it, never to hand it out
    mid-transaction (and PostgreSQL rolls back what it had not committed)."""
    deadline = _Deadline()
    fileno = conn.fileno()

    def at_deadline():
        deadline.passed = True
        cut(fileno)

    handle = asyncio.get_running_loop().call_later(DATABASE_WAIT_S, at_deadline)
    try:
        yield deadline
    except (psycopg.OperationalError, OperationalError) as error:
        if deadline.passed:
            raise DatabaseTimeout(
                f"no answer from PostgreSQL within {DATABASE_WAIT_S:g} s"
            ) from error
        raise
    finally:
        handle.cancel()


class Connection:
    """One connection of this event loop's pool, held for one write (``connection``): it sends
    the messages of a transaction (``transaction``, ``send``) and remembers the statements each
    committed transaction sent, to prepare once the write is done."""

    def __init__(self, conn: psycopg.AsyncConnection):
        self._conn = conn
        self._cursor = conn.cursor()
        self._deadline: _Deadline | None = None
        self._sending: list[Statement] = []
        self.committed: list[Statement] = []

    @contextlib.asynccontextmanager
    async def transaction(self):
        """The messages sent within are one transaction (the first begins it, the last commits
        it: their SQL says so), all within ``DATABASE_WAIT_S`` (``_deadline``), psycopg's errors
        raised as Django's (``django.db.IntegrityError``, ..., as the ORM would raise them), and
        rolled back if anything raises: a write the server refused leaves it failed, a cancelled
        one may leave it open, and either way the connection must not go back to the pool like
        that."""
        conn = self._conn
        self._sending = []
        with _deadline(conn) as self._deadline:
            try:
                with connections["default"].wrap_database_errors:
                    yield
            except BaseException:
                if not conn.closed and conn.info.transaction_status in (
                    TransactionStatus.INTRANS,
                    TransactionStatus.INERROR,
                ):
                    await conn.rollback()
                raise
        self.committed += self._sending

    async def send(
        self, statements: Sequence[Statement], *, rows_of: int | None = None, refused: str = ""
    ) -> list[tuple]:
        """``statements`` in one message (``_message``), within ``transaction``: the rows of the
        statement at index ``rows_of`` (-1: the last), or none (a write's statements return no
        row, so nothing is lost by not reading their results one by one). Raises ``RowChanged``
        if a statement raised the SQLSTATE ``refused``, ``ConnectionLost`` if the connection
        broke under the message before the deadline, the database's other errors as Django's."""
        cursor = self._cursor
        try:
            await cursor.execute(_message(cursor, statements))
        except psycopg.Error as error:
            if refused and error.sqlstate == refused:
                raise RowChanged(str(error)) from error
            if self._conn.broken and not self._deadline.passed:
                raise ConnectionLost(error) from error
            raise
        self._sending += statements
        if rows_of is None:
            return []
        if rows_of < 0:
            while cursor.nextset():  # to the last statement's rows
                pass
        else:
            for _ in range(rows_of):
                cursor.nextset()
        return await cursor.fetchall()


@contextlib.asynccontextmanager
async def connection():
    """A ``Connection`` from this event loop's pool for one write. It goes back to the pool once
    the statements its committed transactions sent that it has not prepared yet are
    (``_prepare``), in a task of its own: a connection new to the pool (at a server's start, or
    grown in a burst) has a handful to prepare, a round trip each, and the write's news, which
    its caller sends once this returns, does not wait for them."""
    pool = await _pool()
    with trace.span("connection"):
        conn = await pool.getconn()
    held = Connection(conn)
    try:
        yield held
    except BaseException:
        await pool.putconn(conn)
        raise
    unprepared = _unprepared(conn, held.committed)
    if not unprepared:
        await pool.putconn(conn)
        return
    preparing = asyncio.get_running_loop().create_task(_prepare_and_return(pool, conn, unprepared))
    _preparing.add(preparing)
    preparing.add_done_callback(_preparing.discard)


async def drop_dead_connections() -> None:
    """Check the pool's idle connections and drop the dead ones (PostgreSQL restarted): the next
    ``connection`` is one made now."""
    await (await _pool()).check()


# --- prepared statements ------------------------------------------------------------------------

PREPARED_PER_CONNECTION = 64  # a move's writes take a handful of shapes; a bound all the same
_prepared: weakref.WeakKeyDictionary[psycopg.AsyncConnection, dict[str, str]] = (
    weakref.WeakKeyDictionary()
)
_unpreparable: set[str] = set()  # texts PostgreSQL refused to prepare, in this process
_PLACEHOLDER = re.compile(r"%%|%s")
# What psycopg's cache of a query's placeholders takes (psycopg/_queries.py, 3.3).
QUOTED_PIECE_VALUES = 50
QUOTED_PIECE_BYTES = 4096


def _message(cursor: psycopg.AsyncClientCursor, statements: Sequence[Statement]) -> str:
    """``statements`` as one query, its values quoted in, each statement prepared on the
    cursor's connection sent as its ``EXECUTE``. psycopg keeps where a query's placeholders are
    only for queries of at most ``QUOTED_PIECE_VALUES`` values and ``QUOTED_PIECE_BYTES``; a
    move with an answer sends about 90 values, and finding them again in the whole message took
    longer than quoting them (docs/capacity.md). So it is quoted in pieces that stay within both,
    whose places psycopg finds once."""
    names = _prepared.get(cursor.connection, {})
    pieces: list[str] = []
    texts: list[str] = []
    values: list[Any] = []
    length = 0
    for sql, params in statements:
        name = names.get(sql)
        text = sql if name is None else f"EXECUTE {name}({', '.join(['%s'] * len(params))})"
        if texts and (
            len(values) + len(params) > QUOTED_PIECE_VALUES
            or length + len(text) > QUOTED_PIECE_BYTES
        ):
            pieces.append(cursor.mogrify("; ".join(texts), values))
            texts, values, length = [], [], 0
        texts.append(text)
        values += params
        length += len(text) + 2
    pieces.append(cursor.mogrify("; ".join(texts), values))
    return "; ".join(pieces)


def _numbered(sql: str) -> str:
    """Django's ``%s`` placeholders as PostgreSQL's ``$1, $2, ...`` (and ``%%`` as ``%``)."""
    count = 0

    def number(found: re.Match) -> str:
        nonlocal count
        if found.group() == "%%":
            return "%"
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


# The tasks preparing a connection's statements, kept until done (the event loop keeps only weak
# references to its tasks).
_preparing: set[asyncio.Task] = set()


async def _prepare_and_return(
    pool: AsyncConnectionPool, conn: psycopg.AsyncConnection, texts: Sequence[str]
) -> None:
    try:
        with _deadline(conn):  # cut past the deadline: its pool drops it
            await _prepare(conn, texts)
    except Exception:
        # The write has committed and its news has gone: the statements stay text.
        log.warning("could not prepare a move connection's statements", exc_info=True)
    finally:
        await pool.putconn(conn)


def _unprepared(conn: psycopg.AsyncConnection, statements: Sequence[Statement]) -> list[str]:
    """The texts of ``statements`` (those with values) that ``conn`` has not prepared and
    PostgreSQL has not refused to, each once, as many as ``conn`` has room for."""
    names = _prepared.get(conn, {})
    room = PREPARED_PER_CONNECTION - len(names)
    texts = {sql: None for sql, params in statements if params and sql not in names}
    return [sql for sql in texts if sql not in _unpreparable][: max(room, 0)]


async def _prepare(conn: psycopg.AsyncConnection, texts: Sequence[str]) -> None:
    """Prepare ``texts`` (``_unprepared``) on ``conn``. Called once the transaction that sent them
    has committed, on a connection in autocommit: a statement refused here fails nothing.
    Whatever goes wrong, the write it follows has committed, so nothing is raised; a broken
    connection is dropped by its pool."""
    names = _prepared.setdefault(conn, {})
    for sql in texts:
        name = f"games_write_{len(names)}"
        try:
            await conn.execute(f"PREPARE {name} AS {_numbered(sql)}")
        except psycopg.DatabaseError:
            if conn.broken:
                return
            _unpreparable.add(sql)
        else:
            names[sql] = name


async def fetch(sql: str, params: Sequence[Any]) -> list[tuple]:
    """The rows of one read, in autocommit: one round trip (once more, on a new connection, if
    the one drawn from the pool was dead: PostgreSQL restarted)."""
    pool = await _pool()
    for attempt in (1, 2):
        async with pool.connection() as conn:
            with _deadline(conn) as deadline, connections["default"].wrap_database_errors:
                try:
                    cursor = await conn.execute(sql, params)
                except psycopg.OperationalError:
                    if not conn.broken or deadline.passed or attempt == 2:
                        raise
                else:
                    return await cursor.fetchall()
        await pool.check()
    raise AssertionError("unreachable")


async def close_pool() -> None:
    """Close this event loop's pool (tests, whose event loops end with each test: a pool left
    open keeps its connections, and its tasks are cancelled under it when the loop closes)."""
    loop = asyncio.get_running_loop()
    preparing = [task for task in _preparing if task.get_loop() is loop]
    if preparing:
        await asyncio.wait(preparing)  # each gives its connection back to the pool
    made = _pools.pop(loop, None)
    if made is not None and made.done() and made.exception() is None:
        await made.result().close()


async def _pool() -> AsyncConnectionPool:
    loop = asyncio.get_running_loop()
    made = _pools.get(loop)
    if made is None:
        made = _pools[loop] = loop.create_future()
        try:
            pool = _new_pool()
            await pool.open()
        except BaseException as error:
            del _pools[loop]
            made.set_exception(error)
            made.exception()  # retrieved: those waiting on it get it raised
            raise
        made.set_result(pool)
    return await asyncio.shield(made)


def _new_pool() -> AsyncConnectionPool:
    wrapper = connections["default"]
    params = wrapper.get_connection_params()
    # Django's cursors bind parameters on the client (its default); these do the same, so a
    # statement written for Django's cursor means the same here, and several go in one message.
    params["cursor_factory"] = psycopg.AsyncClientCursor
    params["autocommit"] = True
    params.setdefault("application_name", APPLICATION_NAME)  # as pg_stat_activity shows them
    timezone_name = wrapper.timezone_name
    set_time_zone = wrapper.ops.set_time_zone_sql()

    async def configure(conn: psycopg.AsyncConnection) -> None:
        # As Django does on each new connection: timestamps are read in the project's time zone.
        if timezone_name and conn.info.parameter_status("TimeZone") != timezone_name:
            with _deadline(conn):  # a connection that hangs here is dropped, not waited for
                await conn.execute(set_time_zone, [timezone_name])

    return AsyncConnectionPool(
        kwargs=params,
        min_size=1,
        max_size=settings.GAMES_MOVE_CONNECTIONS,
        open=False,
        configure=configure,
        name="games-moves",
        # A move waits no longer than this for a connection (PostgreSQL down or overloaded):
        # its socket is answered try_again (games/consumers.py).
        timeout=POOL_TIMEOUT_S,
    )
