"""Reading an OneRoster CSV zip as districts' systems write it: manifest.csv says which files
are there and whether each is bulk (the whole set) or delta (changes, each row with its status and
dateLastModified). Files come with or without a UTF-8 byte-order mark, with CRLF or LF, with
quoted fields holding commas and line breaks, with columns in any order, with extension columns
(``metadata.*``) and with files this platform does not read (all ignored).

Nothing is checked here beyond what makes a file readable: ``planning`` judges each row."""

import csv
import io
import zipfile
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

# Files the platform reads, in the order they depend on each other.
READ_FILES = (
    "orgs.csv",
    "academicSessions.csv",
    "courses.csv",
    "classes.csv",
    "users.csv",
    "roles.csv",
    "enrollments.csv",
)
# A district's zip of 5,000 users is a few megabytes; this bounds a zip bomb.
MAX_UNCOMPRESSED_BYTES = 200_000_000
MAX_MEMBERS = 100
SUPPORTED_VERSIONS = ("1.1", "1.2")


class Mode:
    BULK = "bulk"
    DELTA = "delta"
    ABSENT = "absent"


@dataclass
class Row:
    line: int  # the line of the file the row starts on (a quoted line break spans two)
    cells: dict[str, str]

    def get(self, column: str) -> str:
        return self.cells.get(column, "").strip()


@dataclass
class Table:
    name: str
    mode: str
    columns: list[str]
    rows: list[Row] = field(default_factory=list)


@dataclass
class Bundle:
    version: str = ""
    tables: dict[str, Table] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # the zip cannot be imported at all
    notes: list[str] = field(default_factory=list)  # read, and left alone

    def table(self, name: str) -> Table | None:
        return self.tables.get(name)


def _records(text: str):
    """(first line, cells) of each record; a quoted field may span lines."""
    reader = csv.reader(io.StringIO(text, newline=""))
    line = 0
    for cells in reader:
        first = line + 1
        line = reader.line_num
        yield first, cells


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(_("%(file)s is not UTF-8 text.") % {"file": name}) from error


def _parse_table(name: str, mode: str, text: str) -> Table:
    records = _records(text)
    try:
        header = next(records, None)
        if header is None:
            return Table(name=name, mode=mode, columns=[])
        columns = [column.strip() for column in header[1]]
        table = Table(name=name, mode=mode, columns=columns)
        for line, cells in records:
            if not any(cell.strip() for cell in cells):
                continue  # blank lines, and the empty line some writers end with
            table.rows.append(Row(line=line, cells=dict(zip(columns, cells, strict=False))))
    except csv.Error as error:
        raise ValueError(
            _("%(file)s cannot be read: %(error)s") % {"file": name, "error": error}
        ) from error
    return table


def _manifest(text: str) -> dict[str, str]:
    values = {}
    for _line, cells in _records(text):
        if len(cells) >= 2 and cells[0].strip() != "propertyName":
            values[cells[0].strip()] = cells[1].strip()
    return values


def _system_file(info: zipfile.ZipInfo) -> bool:
    """A folder, or a file the zipping computer added: a Mac's __MACOSX/._* copies of each file's
    metadata, .DS_Store and other hidden files. None is part of the export."""
    parts = info.filename.split("/")
    return info.is_dir() or "__MACOSX" in parts or parts[-1].startswith(".")


def read_zip(data: bytes) -> Bundle:
    bundle = Bundle()
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        bundle.problems.append(_("The file is not a zip of OneRoster CSV files."))
        return bundle
    with archive:
        members = [info for info in archive.infolist() if not _system_file(info)]
        if len(members) > MAX_MEMBERS or (
            sum(info.file_size for info in members) > MAX_UNCOMPRESSED_BYTES
        ):
            bundle.problems.append(_("The zip is too big to be a district's roster."))
            return bundle
        # Some systems zip the files inside a folder: the base name is what counts.
        by_name = {info.filename.rsplit("/", 1)[-1]: info for info in members}
        if "manifest.csv" not in by_name:
            bundle.problems.append(
                _("The zip has no manifest.csv: it is not a OneRoster CSV export.")
            )
            return bundle
        try:
            manifest = _manifest(_decode(archive.read(by_name["manifest.csv"]), "manifest.csv"))
        except ValueError as error:
            bundle.problems.append(str(error))
            return bundle
        bundle.version = manifest.get("oneroster.version", "")
        if bundle.version not in SUPPORTED_VERSIONS:
            bundle.problems.append(
                _("manifest.csv gives OneRoster version “%(version)s”; this platform reads 1.2.")
                % {"version": bundle.version}
            )
            return bundle
        for name in READ_FILES:
            mode = manifest.get(f"file.{name.removesuffix('.csv')}", Mode.ABSENT).lower()
            if mode not in (Mode.BULK, Mode.DELTA, Mode.ABSENT):
                bundle.problems.append(
                    _("manifest.csv: file.%(file)s is “%(mode)s”, not bulk, delta or absent.")
                    % {"file": name.removesuffix(".csv"), "mode": mode}
                )
                continue
            if mode == Mode.ABSENT:
                if name in by_name:
                    bundle.notes.append(
                        _("%(file)s is in the zip but manifest.csv says it is absent: not read.")
                        % {"file": name}
                    )
                continue
            if name not in by_name:
                bundle.problems.append(
                    _("manifest.csv lists %(file)s (%(mode)s) but the zip does not hold it.")
                    % {"file": name, "mode": mode}
                )
                continue
            try:
                text = _decode(archive.read(by_name[name]), name)
                bundle.tables[name] = _parse_table(name, mode, text)
            except ValueError as error:
                bundle.problems.append(str(error))
        ignored = sorted(set(by_name) - set(READ_FILES) - {"manifest.csv"})
        if ignored:
            bundle.notes.append(
                _("Not read (this platform does not need them): %(files)s.")
                % {"files": ", ".join(ignored)}
            )
    return bundle


# What the import reads of users.csv; the rest of a row (and a child's e-mail) is not kept.
USER_COLUMNS_READ = {
    "sourcedId",
    "status",
    "dateLastModified",
    "enabledUser",
    "role",
    "givenName",
    "familyName",
    "preferredGivenName",
    "preferredFirstName",
    "preferredFamilyName",
    "preferredLastName",
    "email",
    "grades",
}


def needed_part(data: bytes) -> bytes:
    """The zip reduced to what an import reads, for the page to keep between the preview and
    the teacher's go-ahead: the manifest and the files read, with every cell of users.csv the
    import does not read blanked, and every e-mail but a teacher's too (demographics and unread
    files go). A teacher is a user whose role in users.csv (1.1), roles.csv (1.2) or an
    enrolment is ``teacher``. Each blanked cell keeps its line breaks, so every row keeps its
    line number."""
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with source, zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as target:
        members = {
            info.filename.rsplit("/", 1)[-1]: info
            for info in source.infolist()
            if not info.is_dir()
            and info.filename.rsplit("/", 1)[-1] in ("manifest.csv", *READ_FILES)
        }
        teachers = set()
        for name, column in (("roles.csv", "userSourcedId"), ("enrollments.csv", "userSourcedId")):
            if name in members:
                teachers |= _teachers(source.read(members[name]).decode("utf-8-sig"), column)
        for name, info in members.items():
            content = source.read(info)
            if name == "users.csv":
                text = content.decode("utf-8-sig")
                content = _blank_unread(text, teachers | _teachers(text, "sourcedId")).encode()
            target.writestr(name, content)
    return buffer.getvalue()


def _teachers(text: str, column: str) -> set[str]:
    """The users ``column`` names on the file's rows whose role is teacher."""
    records = _records(text)
    header = next(records, None)
    if header is None:
        return set()
    columns = [name.strip() for name in header[1]]
    found = set()
    for _line, cells in records:
        row = dict(zip(columns, (cell.strip() for cell in cells), strict=False))
        if row.get("role") == "teacher":
            found.add(row.get(column, ""))
    return found


def _blank_unread(text: str, teachers: set[str]) -> str:
    records = list(_records(text))
    if not records:
        return text
    columns = [column.strip() for column in records[0][1]]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(records[0][1])
    for _line, cells in records[1:]:
        row = dict(zip(columns, cells, strict=False))
        teacher = row.get("sourcedId", "").strip() in teachers
        writer.writerow(
            [
                cell
                if column in USER_COLUMNS_READ and (teacher or column != "email")
                else "\n" * cell.count("\n")
                for column, cell in zip(columns, cells, strict=False)
            ]
        )
    return out.getvalue()
