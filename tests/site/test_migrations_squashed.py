"""Each app's migrations are squashed into one that builds today's tables directly. A fresh
database migrated with it has the schema the replaced migrations made
(tests/site/squashed_schema.json, recorded from them on SQLite and PostgreSQL before they were
removed); a database that applied the replaced migrations runs nothing; one part-way through them
is refused with what to do (accounts/migration_history.py)."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

from tests.conftest import OUTER_VARIABLES, ROOT, embedded_environment
from tests.site.schema_dump import schema_at

SQUASHED = {
    "accounts": "0001_squashed_0007_user_languages_db_default",
    "games": "0001_squashed_0011_lock_match_unchanged",
    "classroom": "0001_squashed_0029_class_tables_exports",
}
RECORDED = json.loads((Path(__file__).parent / "squashed_schema.json").read_text("utf-8"))
REPLACED = RECORDED["replaced"]


def test_each_squashed_migration_replaces_every_migration_it_stands_for():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    for app, name in SQUASHED.items():
        replaces = loader.disk_migrations[app, name].replaces
        assert replaces == [(app, old) for old in REPLACED[app]]
    assert not [key for key in loader.disk_migrations if key[1] in REPLACED.get(key[0], ())]


@pytest.mark.django_db
def test_the_models_need_no_new_migration():
    out = io.StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out)
    except SystemExit:
        pytest.fail(f"the models have changes no migration makes:\n{out.getvalue()}")


def _migrate_to_the_squashed(environment: dict[str, str]) -> None:
    """``manage.py migrate`` as an operator runs it, up to the squashed migrations only (those
    added after them change the schema the record holds)."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "classroom", SQUASHED["classroom"], "-v0"],
        cwd=ROOT,
        env=environment,
        check=True,
        timeout=540,
    )


@pytest.mark.embedded  # a SQLite file of its own, whatever the environment
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_fresh_sqlite_database_gets_the_replaced_migrations_schema(tmp_path):
    database = tmp_path / "fresh.sqlite3"
    _migrate_to_the_squashed(embedded_environment(database))
    assert schema_at(f"sqlite:///{database}") == RECORDED["sqlite"]


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_fresh_postgresql_database_gets_the_replaced_migrations_schema(services):
    import psycopg

    own = connection.settings_dict
    name = f"{own['NAME']}_fresh"
    credentials = quote(own["USER"] or "", safe="")
    if own["PASSWORD"]:
        credentials += ":" + quote(own["PASSWORD"], safe="")
    server = f"postgresql://{credentials}@{own['HOST'] or '127.0.0.1'}:{own['PORT'] or 5432}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            environment = {k: v for k, v in os.environ.items() if k not in OUTER_VARIABLES}
            environment.update(DATABASE_URL=f"{server}/{name}", PYTHONPATH=str(ROOT))
            _migrate_to_the_squashed(environment)
            assert schema_at(f"{server}/{name}") == RECORDED["postgresql"]
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _as_if_migrated_by_the_replaced_migrations(recorder: MigrationRecorder, *, up_to=None):
    """The test database's history as an older release left it: the replaced migrations
    applied (those of ``up_to``'s app only as far as its name), the squashed ones not. (A
    squashed migration that runs records the names it replaces too.)"""
    for app, name in SQUASHED.items():
        recorder.record_unapplied(app, name)
        for old in REPLACED[app]:
            recorder.record_unapplied(app, old)
        for old in REPLACED[app]:
            recorder.record_applied(app, old)
            if up_to == (app, old):
                break


@pytest.mark.django_db
def test_a_database_that_applied_the_replaced_migrations_runs_nothing():
    recorder = MigrationRecorder(connection)
    _as_if_migrated_by_the_replaced_migrations(recorder)
    executor = MigrationExecutor(connection)
    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []

    out = io.StringIO()
    call_command("migrate", interactive=False, skip_checks=False, stdout=out)

    assert "No migrations to apply." in out.getvalue()
    loader = MigrationLoader(connection)
    assert set(loader.graph.nodes) <= set(loader.applied_migrations)
    applied = recorder.applied_migrations()
    assert all((app, name) in applied for app, name in SQUASHED.items())


@pytest.mark.django_db
def test_a_database_part_way_through_the_replaced_migrations_is_told_what_to_do():
    recorder = MigrationRecorder(connection)
    _as_if_migrated_by_the_replaced_migrations(
        recorder, up_to=("classroom", "0020_personal_practice")
    )

    with pytest.raises(SystemCheckError) as refused:
        call_command("migrate", interactive=False, skip_checks=False, stdout=io.StringIO())

    said = str(refused.value)
    assert "accounts.E001" in said
    assert "20 of the 29 migrations that classroom.0001_squashed_0029" in said
    assert "Migrate it with the previous release first" in said
    assert ("classroom", SQUASHED["classroom"]) not in recorder.applied_migrations()
