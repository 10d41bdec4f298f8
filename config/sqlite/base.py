"""Django's SQLite backend, whose connections are kept open when Django closes them and handed out
again to the next thread that connects.

Under ASGI each page runs its database work on a thread of its own, and Django closes the page's
connection when it ends (a persistent one would stay behind with the finished thread); the
sockets' shared thread closes its connection after each piece of work too. A new SQLite
connection registers Django's functions and reads the whole schema again before its first query,
and in WAL mode the last connection to close checkpoints the log and deletes it: opening and
closing them took about a third of a small box's CPU while a class played with the monitor and
the projector open (docs/capacity.md, "The classroom box"). A kept connection costs neither.
"""

from __future__ import annotations

import os
import sqlite3
import threading

from django.db.backends.sqlite3 import base

# Idle connections kept for each database file; a process seldom has more threads at the
# database at once, and past this they close as Django asked.
KEPT_PER_DATABASE = 8


class KeptConnection(sqlite3.Connection):
    """A connection whose ``close`` puts it with the kept ones, its transaction rolled back, so
    it starts as a new one would. ``file`` is the database file as it was when it opened."""

    kept_for: str = ""
    file: tuple[int, int] | None = None

    def close(self) -> None:
        try:
            if self.in_transaction:
                self.rollback()
        except sqlite3.Error:
            super().close()  # unusable: it is not handed out again
            return
        if not _kept.keep(self):
            super().close()

    def close_for_good(self) -> None:
        super().close()


def _file(database: str) -> tuple[int, int] | None:
    """The database file's identity: a file deleted and made again (a test database) is another."""
    try:
        found = os.stat(database)
    except OSError:
        return None
    return found.st_dev, found.st_ino


class _Kept:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.idle: dict[str, list[KeptConnection]] = {}

    def keep(self, connection: KeptConnection) -> bool:
        with self.lock:
            idle = self.idle.setdefault(connection.kept_for, [])
            if len(idle) >= KEPT_PER_DATABASE:
                return False
            idle.append(connection)
            return True

    def take(self, database: str) -> KeptConnection | None:
        """The connection kept last for ``database``, if it is still of the same file."""
        with self.lock:
            idle = self.idle.get(database)
            connection = idle.pop() if idle else None
        if connection is None:
            return None
        if connection.file is None or connection.file != _file(database):
            connection.close_for_good()
            return self.take(database)
        return connection


_kept = _Kept()


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params):
        if self.is_in_memory_db():  # Django never closes these: each is a database of its own
            return super().get_new_connection(conn_params)
        database = str(conn_params["database"])
        kept = _kept.take(database)
        if kept is not None:
            return kept
        connection = super().get_new_connection({**conn_params, "factory": KeptConnection})
        connection.kept_for = database
        connection.file = _file(database)
        return connection
