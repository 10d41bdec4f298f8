"""Reading a class list from CSV: one student a row, ``name[,pin|pictures]``, the header optional.

Nothing is written here: ``plan_import`` checks every line and says what an import would do, so
the teacher sees every problem, by line, before any account exists."""

import codecs
import csv
import io
import re
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from accounts.models import SecretKind
from classroom.roster.student_secrets import Secret, fold_word, guess_kind, parse_secret

MAX_BYTES = 200_000
MAX_STUDENTS = 300
NAME_MAX_LENGTH = 80
# Control characters but tab and line ends.
_CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

_NAME_HEADERS = {"name", "names", "student", "students", "nombre", "nombres", "estudiante"}
_NAME_HEADERS |= {"alumno", "alumna", "alumnos"}
_PIN_HEADERS = {"pin", "pins"}
_PICTURE_HEADERS = {"picture", "pictures", "dibujo", "dibujos", "imagenes"}


@dataclass
class ImportRow:
    line: int
    name: str
    secret: Secret | None  # None: one is generated when the student is created
    errors: list[str] = field(default_factory=list)
    secret_text: str = ""  # as written, to show beside its error


@dataclass
class ImportPlan:
    rows: list[ImportRow] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # about the whole file, not one line

    @property
    def error_rows(self) -> list[ImportRow]:
        return [row for row in self.rows if row.errors]

    @property
    def ok(self) -> bool:
        return bool(self.rows) and not self.problems and not self.error_rows


def decode_upload(data: bytes) -> str:
    """The text of an uploaded file: UTF-8, with or without the byte-order mark Excel writes, or
    UTF-16 with its byte-order mark (Excel's "Unicode text"). Anything else is refused whole: no
    control characters (a NUL, which the database cannot store, or a binary file's bytes)."""
    if len(data) > MAX_BYTES:
        raise ValidationError(_("The file is too big for a class list."))
    utf16 = data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    try:
        text = data.decode("utf-16" if utf16 else "utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValidationError(
            _('The file is not UTF-8 text. In your spreadsheet, save it as "CSV UTF-8".')
        ) from error
    if _CONTROL_CHARACTERS.search(text):
        raise ValidationError(
            _('The file is not a plain text list. In your spreadsheet, save it as "CSV UTF-8".')
        )
    return text


def normalise_name(name: str) -> str:
    return " ".join(name.split())


def name_key(name: str) -> str:
    """Two names that a child could not tell apart on the sign-in page are the same name."""
    return normalise_name(name).casefold()


def _delimiter(text: str) -> str:
    first = next((line for line in text.splitlines() if line.strip()), "")
    if "\t" in first:
        return "\t"
    # Spreadsheets set to Spanish (and much of Europe) separate columns with semicolons.
    if ";" in first and "," not in first:
        return ";"
    return ","


def plan_import(*, text: str, existing_names) -> ImportPlan:
    """Checks a class list. ``existing_names``: the names already in the class."""
    plan = ImportPlan()
    text = text.lstrip("\ufeff")  # a BOM left in pasted text
    taken = {name_key(name): None for name in existing_names}
    seen: dict[str, int] = {}
    forced_kind = None
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(text))
    line = 0
    try:
        for cells in reader:
            first_line, line = line + 1, reader.line_num
            cells = [cell.strip() for cell in cells]
            while cells and not cells[-1]:
                cells.pop()  # spreadsheets pad rows with empty columns
            if not cells:
                continue
            if not plan.rows and forced_kind is None and fold_word(cells[0]) in _NAME_HEADERS:
                second = fold_word(cells[1]) if len(cells) > 1 else ""
                forced_kind = (
                    SecretKind.PIN
                    if second in _PIN_HEADERS
                    else SecretKind.PICTURE
                    if second in _PICTURE_HEADERS
                    else ""
                )
                continue
            plan.rows.append(_row(first_line, cells, forced_kind, taken, seen))
    except csv.Error as error:
        plan.problems.append(
            _("Line %(line)s cannot be read: %(error)s") % {"line": line + 1, "error": error}
        )
    if not plan.rows and not plan.problems:
        plan.problems.append(_("The list has no students."))
    if len(plan.rows) > MAX_STUDENTS:
        plan.problems.append(
            _("A list can add at most %(max)s students at once.") % {"max": MAX_STUDENTS}
        )
    return plan


def _row(line: int, cells: list[str], forced_kind, taken: dict, seen: dict) -> ImportRow:
    name = normalise_name(cells[0])
    row = ImportRow(line=line, name=name, secret=None)
    if len(cells) > 2:
        row.errors.append(
            _("Too many columns: a row has a name and, if you like, a PIN or pictures.")
        )
    if not name:
        row.errors.append(_("The name is missing."))
    elif len(name) > NAME_MAX_LENGTH:
        row.errors.append(
            _("The name is longer than %(max)s characters.") % {"max": NAME_MAX_LENGTH}
        )
    else:
        key = name_key(name)
        if key in taken:
            row.errors.append(_("%(name)s is already in this class.") % {"name": name})
        elif key in seen:
            row.errors.append(
                _("%(name)s is already on line %(line)s.") % {"name": name, "line": seen[key]}
            )
        else:
            seen[key] = line
    if len(cells) > 1 and cells[1]:
        row.secret_text = cells[1]
        try:
            row.secret = parse_secret(forced_kind or guess_kind(cells[1]), cells[1])
        except ValidationError as error:
            row.errors.extend(error.messages)
    return row
