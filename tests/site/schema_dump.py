"""A database's schema, as data that compares equal whatever order the columns were added in: for
each table of the apps whose migrations are squashed, its columns (type, null, default), indexes
and constraints, and on PostgreSQL the functions the migrations create. Read from the database's
own catalogue (sqlite_master, pg_catalog), so it says what the database holds, not what Django
thinks it should.

``python -m tests.site.schema_dump DATABASE_URL`` prints it as JSON
(tests/site/squashed_schema.json holds the schema the migrations made before they were squashed)."""

from __future__ import annotations

import json
import re
import sys

# The apps whose migrations are squashed; classroom_lti (classroom/lti) keeps its own few.
PREFIXES = ("accounts_", "games_", "classroom_")
NOT_PREFIXES = ("classroom_lti_",)


def _ours(table: str) -> bool:
    return table.startswith(PREFIXES) and not table.startswith(NOT_PREFIXES)


def _top_level_items(body: str) -> list[str]:
    """The comma-separated items of a CREATE TABLE's parentheses, commas in nested ones kept."""
    items, depth, current, quote = [], 0, [], None
    for char in body:
        if quote:
            current.append(char)
            if char == quote:
                quote = None
            continue
        if char in "'\"":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            items.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    items.append("".join(current).strip())
    return [re.sub(r"\s+", " ", item) for item in items if item]


def sqlite_schema(connection) -> dict:
    """``connection``: a sqlite3 connection."""
    tables, indexes = {}, {}
    rows = connection.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL"
    ).fetchall()
    for kind, name, table, sql in rows:
        if not _ours(table):
            continue
        if kind == "table":
            body = sql[sql.index("(") + 1 : sql.rindex(")")]
            tables[name] = sorted(_top_level_items(body))
        elif kind == "index":
            indexes[name] = re.sub(r"\s+", " ", sql)
    return {"tables": tables, "indexes": indexes}


def postgresql_schema(connection) -> dict:
    """``connection``: a psycopg connection."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
                   pg_get_expr(d.adbin, d.adrelid), a.attidentity
            FROM pg_attribute a
            JOIN pg_class c ON c.oid = a.attrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
            WHERE n.nspname = current_schema() AND c.relkind = 'r'
              AND a.attnum > 0 AND NOT a.attisdropped
            """
        )
        tables: dict[str, dict] = {}
        for table, column, kind, not_null, default, identity in cursor.fetchall():
            if _ours(table):
                tables.setdefault(table, {})[column] = {
                    "type": kind,
                    "null": not not_null,
                    "default": default,
                    "identity": identity,
                }
        cursor.execute(
            "SELECT tablename, indexname, indexdef FROM pg_indexes"
            " WHERE schemaname = current_schema()"
        )
        indexes = {name: sql for table, name, sql in cursor.fetchall() if _ours(table)}
        cursor.execute(
            """
            SELECT c.relname, k.conname, k.contype, pg_get_constraintdef(k.oid)
            FROM pg_constraint k
            JOIN pg_class c ON c.oid = k.conrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema()
            """
        )
        constraints = {
            name: {"table": table, "kind": kind, "definition": definition}
            for table, name, kind, definition in cursor.fetchall()
            if _ours(table)
        }
        cursor.execute(
            """
            SELECT p.proname, pg_get_functiondef(p.oid)
            FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = current_schema()
            """
        )
        functions = dict(cursor.fetchall())
    return {
        "tables": tables,
        "indexes": indexes,
        "constraints": constraints,
        "functions": functions,
    }


def schema_at(url: str) -> dict:
    """The schema of the database at ``url`` (sqlite:///path or postgres://...)."""
    if url.startswith("sqlite:///"):
        import sqlite3

        connection = sqlite3.connect(url.removeprefix("sqlite:///"))
        try:
            return sqlite_schema(connection)
        finally:
            connection.close()
    import psycopg

    with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as connection:
        return postgresql_schema(connection)


if __name__ == "__main__":
    json.dump(schema_at(sys.argv[1]), sys.stdout, indent=1, sort_keys=True, ensure_ascii=False)
    print()
