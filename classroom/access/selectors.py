"""Reads of the access record: a class's, and the rows about one child."""

import datetime
from collections.abc import Iterator

from django.db.models import F
from django.utils.translation import gettext as _

from classroom.models import Classroom, DataAccess


def class_access_log(*, classroom: Classroom, limit: int | None = None):
    """The class's record, newest first, each row with its child's name (if it is about one)."""
    rows = DataAccess.objects.filter(classroom=classroom).select_related("student")
    return rows[:limit] if limit else rows


def student_access_log(*, student) -> list[dict]:
    """What the child's data export says of who looked at their data."""
    return [
        {
            "at": row["at"],
            "by": row["viewer_name"],
            "class": row["classroom__name"],
            "what": row["kind"],
            "page": row["page"],
        }
        for row in DataAccess.objects.filter(student=student)
        .order_by("at", "id")
        .values("at", "viewer_name", "classroom__name", "kind", "page")
    ]


def class_wide_access_log(*, student) -> list[dict]:
    """What the child's data export says of the looks at their whole class (its progress, its
    live monitor, its reports...) while they were in it: their figures were among those shown."""
    return [
        {
            "at": row["at"],
            "by": row["viewer_name"],
            "class": row["classroom__name"],
            "what": row["kind"],
            "page": row["page"],
        }
        for row in DataAccess.objects.filter(
            student=None,
            # One join: the child's own enrollment in the row's class.
            classroom__enrollments__student=student,
            at__gte=F("classroom__enrollments__joined_at"),
        )
        .order_by("at", "id")
        .values("at", "viewer_name", "classroom__name", "kind", "page")
    ]


def class_access_log_table(*, classroom: Classroom) -> Iterator[list[str]]:
    """The class's whole record as rows of text, a header first (its CSV, for a school or an
    operator); times in UTC, so that rows from anywhere compare."""
    yield [_("When (UTC)"), _("Who"), _("What"), _("Student"), _("Page")]
    for row in class_access_log(classroom=classroom).iterator():
        yield [
            row.at.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S"),
            row.viewer_name,
            row.get_kind_display(),
            row.student.display_name if row.student else _("The whole class"),
            row.page,
        ]
