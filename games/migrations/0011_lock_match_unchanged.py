"""PostgreSQL's function behind a move decided on the match as its server process last wrote it
(games/services/writes.py, ``_KnownMatches``; games/services/sql.py, ``at_once``). SQLite, the
embedded set-up's database, reads every match under its lock and needs none."""

from django.db import migrations

# Locks the match's row and checks that it is the row version the caller knew (its xmin, which
# every UPDATE of the row changes); raises CHANGED_SQLSTATE if not, which aborts the rest of the
# message the check opens. Returns the transaction's id as xmin will show it on the rows it
# writes (the low 32 bits of the 64-bit id).
CREATE = """
CREATE OR REPLACE FUNCTION games_lock_match_unchanged(match_id bigint, seen text)
RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM games_match WHERE id = match_id AND xmin::text = seen FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'match % changed since it was read', match_id USING ERRCODE = 'GM409';
    END IF;
    RETURN (pg_current_xact_id()::text::bigint & 4294967295)::text;
END
$$;
"""
DROP = "DROP FUNCTION IF EXISTS games_lock_match_unchanged(bigint, text);"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0010_match_focus")]

    operations = [migrations.RunPython(create, drop)]
