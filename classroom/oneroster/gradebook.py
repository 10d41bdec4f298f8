"""Reads for the OneRoster 1.2 gradebook export: a class's homework results as categories.csv,
lineItems.csv and results.csv, zipped with manifest.csv, keyed by the sourcedIds the roster came
with (docs/oneroster.md, "Sending results back").

One line item per homework; a child's score is how much of it they did, 0 to 100 (the items done,
or the minutes played of practice sized in minutes), a number; scoreStatus says whether they
finished (fully graded), started (partially graded) or not (not submitted). Only a class and
children that came from OneRoster have sourcedIds: a child added here by hand is left out (the
page names them), as the district's system would not know whom the row is about."""

import csv
import io
import zipfile
from dataclasses import dataclass, field
from datetime import date

from django.utils import timezone

from classroom.homework.selectors import assignment_report
from classroom.models import Assignment, Classroom
from classroom.oneroster.models import OneRosterLink

Kind = OneRosterLink.Kind
# Our own sourcedIds start so, to be told apart from the district's in its system.
ID_PREFIX = "arithmetic-games"
CATEGORY_ID = f"{ID_PREFIX}-homework"

CATEGORY_COLUMNS = ["sourcedId", "status", "dateLastModified", "title", "weight"]
LINE_ITEM_COLUMNS = [
    "sourcedId",
    "status",
    "dateLastModified",
    "title",
    "description",
    "classSourcedId",
    "categorySourcedId",
    "academicSessionSourcedId",
    "assignDate",
    "dueDate",
    "resultValueMin",
    "resultValueMax",
]
RESULT_COLUMNS = [
    "sourcedId",
    "status",
    "dateLastModified",
    "lineItemSourcedId",
    "studentSourcedId",
    "scoreStatus",
    "score",
    "scoreDate",
    "comment",
]


@dataclass
class Gradebook:
    classroom: Classroom
    class_sourced_id: str
    assignments: list[Assignment]
    line_items: list[list] = field(default_factory=list)
    results: list[list] = field(default_factory=list)
    left_out: list = field(default_factory=list)  # children without a sourcedId


def class_sourced_id(*, classroom: Classroom) -> str | None:
    return (
        OneRosterLink.objects.filter(kind=Kind.CLASS, classroom=classroom)
        .values_list("sourced_id", flat=True)
        .first()
    )


def class_homework(
    *, classroom: Classroom, homework_id: int | None = None, start=None, end=None
) -> list[Assignment]:
    """One homework of the class, or those due from ``start`` to ``end`` (dates, inclusive, in
    the teacher's zone)."""
    homework = Assignment.objects.filter(classroom=classroom)
    if homework_id is not None:
        return list(homework.filter(pk=homework_id))
    zone = classroom.teacher.zone
    return [
        assignment
        for assignment in homework
        if (start is None or timezone.localtime(assignment.due_at, zone).date() >= start)
        and (end is None or timezone.localtime(assignment.due_at, zone).date() <= end)
    ]


def _score_status(student_result) -> str:
    if student_result.finished:
        return "fully graded"
    return "partially graded" if student_result.started else "not submitted"


def gradebook(*, classroom: Classroom, assignments: list[Assignment]) -> Gradebook | None:
    """None when the class did not come from OneRoster (no classSourcedId to key it by)."""
    sid = class_sourced_id(classroom=classroom)
    if sid is None:
        return None
    book = Gradebook(classroom=classroom, class_sourced_id=sid, assignments=assignments)
    zone = classroom.teacher.zone
    student_ids = dict(
        OneRosterLink.objects.filter(
            kind=Kind.STUDENT, user__enrollments__classroom=classroom
        ).values_list("user_id", "sourced_id")
    )
    left_out = {}
    today = timezone.localdate(timezone=zone).isoformat()
    for assignment in assignments:
        line_item = f"{ID_PREFIX}-homework-{assignment.pk}"
        book.line_items.append(
            [
                line_item,
                "",
                "",
                assignment.title,
                "",
                sid,
                CATEGORY_ID,
                "",
                timezone.localtime(assignment.created_at, zone).date().isoformat(),
                timezone.localtime(assignment.due_at, zone).date().isoformat(),
                0,
                100,
            ]
        )
        for result in assignment_report(assignment=assignment).students:
            student_sid = student_ids.get(result.student.pk)
            if student_sid is None:
                left_out[result.student.pk] = result.student
                continue
            comment = f"{result.right}/{result.attempts} answers right" if result.attempts else ""
            book.results.append(
                [
                    f"{line_item}-{result.student.pk}",
                    "",
                    "",
                    line_item,
                    student_sid,
                    _score_status(result),
                    result.score,
                    today,
                    comment,
                ]
            )
    book.left_out = sorted(left_out.values(), key=lambda s: s.display_name.casefold())
    return book


def _csv(header, rows) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def gradebook_zip(book: Gradebook) -> bytes:
    manifest = [
        ["manifest.version", "1.0"],
        ["oneroster.version", "1.2"],
        ["file.categories", "bulk"],
        ["file.lineItems", "bulk"],
        ["file.results", "bulk"],
        ["source.systemName", "Arithmetic Games Classroom"],
        ["source.systemCode", ID_PREFIX],
    ]
    for name in [
        "academicSessions",
        "classes",
        "classResources",
        "courses",
        "courseResources",
        "demographics",
        "enrollments",
        "orgs",
        "resources",
        "users",
    ]:
        manifest.append([f"file.{name}", "absent"])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.csv", _csv(["propertyName", "value"], manifest))
        archive.writestr(
            "categories.csv", _csv(CATEGORY_COLUMNS, [[CATEGORY_ID, "", "", "Homework", ""]])
        )
        archive.writestr("lineItems.csv", _csv(LINE_ITEM_COLUMNS, book.line_items))
        archive.writestr("results.csv", _csv(RESULT_COLUMNS, book.results))
    return buffer.getvalue()


def gradebook_file_name(book: Gradebook, today: date | None = None) -> str:
    today = today or timezone.localdate()
    return f"oneroster-gradebook-{book.class_sourced_id}-{today.isoformat()}.zip"
