"""The embedded default's SQLite backend (config/sqlite): a connection Django closes is kept open
and handed to the next thread that connects, as a new one would start."""

import threading

import pytest
from django.db.utils import ConnectionHandler

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(autouse=True)
def _own_databases(django_db_blocker):
    """These tests make databases of their own, outside the test database."""
    with django_db_blocker.unblock():
        yield


def _databases(path):
    return ConnectionHandler(
        {
            "default": {
                "ENGINE": "config.sqlite",
                "NAME": str(path),
                "OPTIONS": {"init_command": "PRAGMA journal_mode=WAL;"},
            }
        }
    )


def _on_another_thread(work):
    done = {}
    thread = threading.Thread(target=lambda: done.update(result=work()))
    thread.start()
    thread.join(timeout=30)
    return done["result"]


def _connect_and_close(databases):
    """What a page's thread does: connect, read, close; returns the SQLite connection it had."""
    database = databases["default"]
    with database.cursor() as cursor:
        rows = cursor.execute("SELECT count(*) FROM t").fetchone()[0]
    raw = database.connection
    database.close()
    return raw, rows


def test_the_next_thread_gets_the_connection_closed_before(tmp_path):
    databases = _databases(tmp_path / "kept.sqlite3")
    first = databases["default"]
    with first.cursor() as cursor:
        cursor.execute("CREATE TABLE t (n)")
    raw = first.connection
    first.close()
    # In WAL mode the last connection to close deletes the log: the kept one is still open.
    assert (tmp_path / "kept.sqlite3-wal").exists()
    assert _on_another_thread(lambda: _connect_and_close(databases)) == (raw, 0)


def test_a_kept_connection_starts_without_the_transaction_it_was_closed_in(tmp_path):
    databases = _databases(tmp_path / "kept.sqlite3")
    first = databases["default"]
    with first.cursor() as cursor:
        cursor.execute("CREATE TABLE t (n)")
    first.set_autocommit(False)
    with first.cursor() as cursor:
        cursor.execute("INSERT INTO t VALUES (1)")
    raw = first.connection
    first.close()
    assert not raw.in_transaction
    assert _on_another_thread(lambda: _connect_and_close(databases)) == (raw, 0)


def test_a_database_file_made_again_gets_a_new_connection(tmp_path):
    path = tmp_path / "kept.sqlite3"
    databases = _databases(path)
    first = databases["default"]
    with first.cursor() as cursor:
        cursor.execute("CREATE TABLE t (n)")
    raw = first.connection
    first.close()
    for made in tmp_path.glob("kept.sqlite3*"):
        made.unlink()
    with databases["default"].cursor() as cursor:
        cursor.execute("CREATE TABLE t (n)")
        cursor.execute("INSERT INTO t VALUES (1)")
    databases["default"].close()
    other, rows = _on_another_thread(lambda: _connect_and_close(databases))
    assert other is not raw and rows == 1


@pytest.mark.embedded
@pytest.mark.django_db
def test_the_suite_runs_on_sqlites_in_memory_database_in_every_worker():
    """`make test` runs the suite in xdist workers, each naming its test database; the embedded
    default's must stay in memory there as under Django's own engine, not a file named after
    the path (which cannot be opened)."""
    from django.db import connection

    assert connection.vendor == "sqlite"
    assert connection.is_in_memory_db()
