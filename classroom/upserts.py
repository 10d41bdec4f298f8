"""The one builder of the upserts that keep classroom's running counts: ``INSERT ... ON CONFLICT
DO UPDATE SET n = n + excluded.n``, the same SQL on PostgreSQL and SQLite. The analytics rollups
(classroom/progress/rollup.py) and a session's figures (classroom/sessions/figures.py) both add
a move's answers this way, inside the move's transaction (games.hooks): two processes adding to
the same row never lose a count, and nothing is read first.

The callers cache the text they build (a move's upserts take a few dozen shapes), so each is
written once a process and prepared once a connection (games/async_db.py)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import connection

# Parameters per statement: what every SQLite build allows (older ones stop at 999). A move's
# rows of one table fit in one statement; a rebuild's chunk takes several.
PARAMETERS_PER_STATEMENT = 999


def chunks(rows: Sequence, parameters_per_row: int, *, reserved: int = 0) -> Iterable[Sequence]:
    """``rows`` in runs that fit one statement each: ``parameters_per_row`` parameters a row, and
    ``reserved`` more for the statement's own (a ``WHERE``'s)."""
    per_statement = max(1, (PARAMETERS_PER_STATEMENT - reserved) // parameters_per_row)
    return [rows[start : start + per_statement] for start in range(0, len(rows), per_statement)]


def adding_upsert(
    table_name: str,
    columns: Sequence[str],
    rows_from: str,
    key_columns: Sequence[str],
    sums: Sequence[str],
    *,
    also: Sequence[str] = (),
) -> str:
    """``INSERT INTO table_name (columns) <rows_from> ON CONFLICT (key_columns)``, then each of
    ``sums`` added to the row already there and ``also`` (more ``SET`` clauses, written by the
    caller); with neither, ``DO NOTHING``. ``rows_from`` is the ``VALUES`` list or ``SELECT`` that
    gives the rows, in ``columns`` order. Names are quoted for Django's connection."""
    quote = connection.ops.quote_name
    table = quote(table_name)
    updates = [f"{quote(c)} = {table}.{quote(c)} + excluded.{quote(c)}" for c in sums]
    updates.extend(also)
    return (
        f"INSERT INTO {table} ({', '.join(quote(c) for c in columns)}) {rows_from} "
        f"ON CONFLICT ({', '.join(quote(c) for c in key_columns)}) "
        + (f"DO UPDATE SET {', '.join(updates)}" if updates else "DO NOTHING")
    )
