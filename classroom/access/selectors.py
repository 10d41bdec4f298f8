"""Reads of the access record: a class's, and the rows about one child."""

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
