"""The SQL of a match's write, all of it, written once per process per connection: the lock
statement, the writes, and how they are framed in a transaction on the event loop's own
connections (``opening``, ``closing``). Those connections (``games.async_db``) and Django's
(``games.services.runner``) only send what is written here, with the statements the layers
above add (``games.hooks``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.db import connections, models

from games.async_db import Statement
from games.models import Attempt, Match, MoveRecord, Seat
from games.services.common import MatchError

# The low 32 bits of this transaction's id: how xmin shows it on the rows the transaction writes.
CURRENT_XID = "(pg_current_xact_id()::text::bigint & 4294967295)::text"


def opening(lock: Statement) -> list[Statement]:
    """The lock statement behind its transaction's ``BEGIN``, sent in one message (one round trip;
    its rows are the last statement's). On Django's connection ``transaction.atomic`` begins."""
    return [("BEGIN", []), lock]


def closing(statements: Sequence[Statement]) -> list[Statement]:
    """A write's statements and the ``COMMIT``, sent in one message. None of them returns a row or
    a count, so nothing is lost by not reading their results one by one."""
    return [*statements, ("COMMIT", [])]


# The error PostgreSQL's games_lock_match_unchanged raises for a match whose row has changed
# (games/migrations/0001_squashed_0011_lock_match_unchanged.py).
CHANGED_SQLSTATE = "GM409"


def at_once(match_id: int, row_version: str, statements: Sequence[Statement]) -> list[Statement]:
    """A whole write in one message, decided on the match as it was at ``row_version`` (its xmin):
    the match's row locked and checked unchanged, then ``statements`` and the ``COMMIT``. Changed,
    the check raises ``CHANGED_SQLSTATE`` and PostgreSQL runs none of the rest. The check's row is
    the id this transaction writes under (``CURRENT_XID``)."""
    check = ("SELECT games_lock_match_unchanged(%s, %s)", [match_id, row_version])
    return [("BEGIN", []), check, *statements, ("COMMIT", [])]


class SeatRow(NamedTuple):
    user_id: int | None
    bot_level: str
    time_zone: str  # the player's (accounts.User.time_zone), "" for a bot or the site's zone


class _LockStatement:
    """``SELECT <match>, <seat>, <client_id seen> FROM match JOIN seat ... FOR UPDATE OF match``
    for one database connection's dialect: the match under its row lock, its seats, and whether
    each seat already sent the write's ``client_id``, in one query. A write with no ``client_id``
    (every write but a player's move, and a move sent without one) asks about NULL, which no
    record has. Seats never change once the match is made, so reading them with the lock is as
    good as after it.

    It is written once per process: building it through the ORM would take a quarter of a server
    process's Python time under load. ``read`` applies the converters the ORM
    would apply to each match column (JSON, dates), so its match is what ``Match.objects.get``
    would return."""

    _cache: dict[str, _LockStatement] = {}

    @classmethod
    def get(cls, conn) -> _LockStatement:
        statement = cls._cache.get(conn.alias)
        if statement is None:
            statement = cls._cache[conn.alias] = cls(conn)
        return statement

    def __init__(self, conn):
        quote = conn.ops.quote_name
        match_table, seat_table = Match._meta.db_table, Seat._meta.db_table
        move_table = MoveRecord._meta.db_table
        self.alias = conn.alias
        self.fields = list(Match._meta.concrete_fields)
        self.attnames = [model_field.attname for model_field in self.fields]
        self.converters = []
        for model_field in self.fields:
            column = model_field.get_col(match_table)
            found = conn.ops.get_db_converters(column) + column.get_db_converters(conn)
            self.converters.append((column, found))
        self.seat_at = len(self.fields)
        # The JSON a write gives the match (``_Writes``): the rest of its JSON is as read.
        self.saved_json_fields = [
            f
            for f in self.fields
            if isinstance(f, models.JSONField) and f.name in _Writes._MATCH_FIELDS
        ]

        def column_of(model, name, alias):
            return f"{alias}.{quote(model._meta.get_field(name).column)}"

        columns = [f"m.{quote(model_field.column)}" for model_field in self.fields]
        columns += [column_of(Seat, name, "s") for name in ("index", "user", "bot_level")]
        # The player's time zone, so the teaching layer counts an attempt on the school's day
        # without a query of its own (accounts.User.time_zone, classroom.progress.rollup).
        user_model = get_user_model()
        columns.append(column_of(user_model, "time_zone", "u"))
        # On PostgreSQL, the row version read (xmin) and the id this transaction writes under,
        # which the row's xmin will be once it commits an UPDATE: what a process knows of the
        # match after this write (games.services.runner._KnownMatches).
        self.versioned = conn.vendor == "postgresql"
        if self.versioned:
            columns += ["m.xmin::text", CURRENT_XID]
        columns.append(
            f"EXISTS(SELECT 1 FROM {quote(move_table)} r"
            f" WHERE {column_of(MoveRecord, 'client_id', 'r')} = %s"
            f" AND {column_of(MoveRecord, 'match', 'r')} = {column_of(Seat, 'match', 's')}"
            f" AND {column_of(MoveRecord, 'seat', 'r')} = {column_of(Seat, 'index', 's')})"
        )
        lock = " FOR UPDATE OF m" if conn.features.has_select_for_update_of else ""
        self.sql = (
            f"SELECT {', '.join(columns)} FROM {quote(match_table)} m"
            f" INNER JOIN {quote(seat_table)} s"
            f" ON {column_of(Seat, 'match', 's')} = {column_of(Match, 'id', 'm')}"
            f" LEFT OUTER JOIN {quote(user_model._meta.db_table)} u"
            f" ON {column_of(user_model, 'id', 'u')} = {column_of(Seat, 'user', 's')}"
            f" WHERE {column_of(Match, 'id', 'm')} = %s"
            f" ORDER BY {column_of(Seat, 'index', 's')}{lock}"
        )

    def statement(self, match_id: int, client_id: str) -> Statement:
        return self.sql, [client_id or None, match_id]

    def read(self, rows) -> tuple[Match, dict[int, SeatRow], set[int]]:
        if not rows:
            raise MatchError("no_match", "there is no such match")
        match = self.match_from(rows[0])
        seat_at = self.seat_at
        seats = {
            row[seat_at]: SeatRow(row[seat_at + 1], row[seat_at + 2], row[seat_at + 3] or "")
            for row in rows
        }
        replayed = {row[seat_at] for row in rows if row[-1]}
        return match, seats, replayed

    def row_versions(self, rows) -> tuple[str, str] | None:
        """The match row's version as read and the version an UPDATE in this transaction leaves
        (PostgreSQL; None elsewhere)."""
        if not self.versioned or not rows:
            return None
        return rows[0][-3], rows[0][-2]

    def as_read(self, match: Match) -> Match:
        """``match`` with the values a write gave it as reading its row would give them: the JSON
        it saved through JSON (a state the engine dumped may hold tuples, and shares its data
        with the engine's state; a read gives lists, its own)."""
        for model_field in self.saved_json_fields:
            value = getattr(match, model_field.attname)
            text = json.dumps(value, cls=model_field.encoder)
            setattr(match, model_field.attname, json.loads(text, cls=model_field.decoder))
        return match

    def match_from(self, row) -> Match:
        conn = connections[self.alias]
        values = []
        for value, (column, converters) in zip(row[: self.seat_at], self.converters, strict=True):
            for convert in converters:
                value = convert(value, column, conn)
            values.append(value)
        return Match.from_db(self.alias, self.attnames, values)


class _Writes:
    """A write's statements, their SQL written once per process: INSERT the MoveRecord, INSERT its
    Attempts (their record found by match and version, so nothing waits for the record's id),
    UPDATE the match (or only its count of connected players). No statement returns a row or a
    count, so they can all go to the server at once (``closing``, and on Django's connection
    ``games.services.runner._pipelined``); each value is prepared by its model field, as the ORM
    would (``get_db_prep_save``)."""

    _cache: dict[str, _Writes] = {}
    _MATCH_FIELDS = (
        "state",
        "clock_offset_ms",
        "paused_at_ms",
        "version",
        "bot_plan",
        "wake_at_ms",
        "updated_at",
        "status",
        "outcome",
        "finished_at",
    )

    @classmethod
    def get(cls, conn) -> _Writes:
        writes = cls._cache.get(conn.alias)
        if writes is None:
            writes = cls._cache[conn.alias] = cls(conn)
        return writes

    def __init__(self, conn):
        quote = conn.ops.quote_name

        def column(model, name):
            return quote(model._meta.get_field(name).column)

        def insert(model, fields, extra=""):
            columns = ", ".join([quote(f.column) for f in fields] + ([extra] if extra else []))
            return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES "

        self.alias = conn.alias
        self.record_fields = [f for f in MoveRecord._meta.concrete_fields if not f.primary_key]
        self.record_sql = (
            insert(MoveRecord, self.record_fields) + f"({_placeholders(self.record_fields)})"
        )
        self.attempt_fields = [
            f for f in Attempt._meta.concrete_fields if not f.primary_key and f.name != "move"
        ]
        self.attempt_sql = insert(Attempt, self.attempt_fields, column(Attempt, "move"))
        record_of_the_move = (
            f"SELECT {column(MoveRecord, 'id')} FROM {quote(MoveRecord._meta.db_table)}"
            f" WHERE {column(MoveRecord, 'match')} = %s AND {column(MoveRecord, 'version')} = %s"
        )
        self.attempt_row = f"({_placeholders(self.attempt_fields)}, ({record_of_the_move}))"
        self.match_fields = [Match._meta.get_field(name) for name in self._MATCH_FIELDS]
        assignments = ", ".join(f"{quote(f.column)} = %s" for f in self.match_fields)
        self.match_sql = (
            f"UPDATE {quote(Match._meta.db_table)} SET {assignments}"
            f" WHERE {column(Match, 'id')} = %s"
        )
        self.players_connected_sql = (
            f"UPDATE {quote(Match._meta.db_table)} SET {column(Match, 'players_connected')} = %s"
            f" WHERE {column(Match, 'id')} = %s"
        )

    def insert(self, record: MoveRecord, attempts: Sequence[Attempt]) -> list[Statement]:
        conn = connections[self.alias]
        statements = [(self.record_sql, self._values(self.record_fields, record, conn))]
        if attempts:
            params = []
            for attempt in attempts:
                params += self._values(self.attempt_fields, attempt, conn)
                params += [record.match_id, record.version]
            statements.append(
                (self.attempt_sql + ", ".join([self.attempt_row] * len(attempts)), params)
            )
        return statements

    def update(self, match: Match) -> Statement:
        conn = connections[self.alias]
        return self.match_sql, [*self._values(self.match_fields, match, conn), match.pk]

    def players_connected(self, match_id: int, count: int) -> Statement:
        return self.players_connected_sql, [count, match_id]

    @staticmethod
    def _values(fields, instance, conn) -> list:
        return [f.get_db_prep_save(getattr(instance, f.attname), conn) for f in fields]


def _placeholders(fields) -> str:
    return ", ".join(["%s"] * len(fields))
