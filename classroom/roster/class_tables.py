"""The whole class's answers and figures as a zip of CSV files, one per table of the figures
(docs/privacy.md, "Taking it out"; docs/progress.md says how each figure is made), with a
README.csv naming every file and column, its type and meaning.

For programs and spreadsheets alike: column names are stable English identifiers, the same in
every language, and only the README's descriptions are in the reader's language. Every number is
a plain number (a share right is ``accuracy_fraction``, 0 to 1, never "50%"), a yes or no is
``true`` or ``false``, an empty cell is no value, times are ISO 8601 in the school's time zone
with its UTC offset (``2026-11-03T10:30:00+01:00``) and days ISO dates (``2026-11-03``).
Text cells that a spreadsheet would run as a formula are guarded as in every CSV of the site.

The zip is written as it is read (``class_tables_zip`` yields its bytes), a table at a time:
``class_table_columns`` defines the tables (their files and columns, README.csv's rows) and
``class_table_rows`` reads their rows (the answers streamed from the database in chunks, the
figures from the same selectors as the report, over the class's whole history).
"""

import csv
import datetime
import io
import zipfile
from collections.abc import Iterable, Iterator

from django.utils import timezone, translation

from classroom.models import Classroom
from classroom.progress.report_files import write_row
from classroom.progress.selectors import Period
from classroom.roster.class_table_columns import (
    README,
    README_COLUMNS,
    TABLES_OF_THE_CLASS,
    readme_rows,
)
from classroom.roster.class_table_rows import ROWS_PER_CHUNK, ClassData

FORMAT = "arithmetic-games-classroom/class-tables/1"


# --- the files -----------------------------------------------------------------------------------


def cell(value):
    """A value as the CSV holds it: numbers as they are, true/false, ISO times and days."""
    if type(value) is int or type(value) is str:
        return value
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime.datetime):
        return timezone.localtime(value).isoformat(timespec="seconds")
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value


def _csv_chunks(header: Iterable[str], rows: Iterable[list]) -> Iterator[bytes]:
    """UTF-8 with a byte-order mark (spreadsheets need it for accents), commas, a header."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    out.write("\ufeff")
    writer.writerow(header)
    for n, row in enumerate(rows, 1):
        write_row(writer, [cell(value) for value in row])
        if n % ROWS_PER_CHUNK == 0:
            yield out.getvalue().encode()
            out.seek(0)
            out.truncate()
    yield out.getvalue().encode()


class _Sink:
    """The zip's output, handed on as it is written (a stream has no seek: zipfile then writes
    each file's sizes after its data)."""

    def __init__(self):
        self._chunks: list[bytes] = []

    def write(self, data) -> int:
        self._chunks.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        pass

    def take(self) -> bytes:
        data = b"".join(self._chunks)
        self._chunks.clear()
        return data


def class_tables_zip(
    *, classroom: Classroom, language: str, period: Period | None = None
) -> Iterator[bytes]:
    """The export's bytes, as they are made, README.csv's descriptions in ``language``, the
    answers up to ``period``'s last day (None: all). Runs in the school's time zone: the days,
    weeks and times of every table are the school's, as on the pages. Both are set here, not by
    the caller: a stream is read after the caller is over."""
    with translation.override(language), timezone.override(classroom.teacher.zone):
        data = ClassData(classroom, period)
        sink = _Sink()
        with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.comment = FORMAT.encode()
            files = [(README, list(README_COLUMNS), readme_rows)]
            files += [
                (table.file, [c.name for c in table.columns], _bound(table.rows, data))
                for table in TABLES_OF_THE_CLASS
            ]
            for name, header, rows in files:
                with archive.open(_entry(name), "w") as member:
                    for chunk in _csv_chunks(header, rows()):
                        member.write(chunk)
                        yield sink.take()
                yield sink.take()
        yield sink.take()


def _bound(rows, data):
    return lambda: rows(data)


def _entry(name: str) -> zipfile.ZipInfo:
    entry = zipfile.ZipInfo(name, date_time=timezone.localtime().timetuple()[:6])
    entry.compress_type = zipfile.ZIP_DEFLATED
    return entry
