"""Writes of the access record: one row per look at, or download of, children's data."""

from django.utils import timezone

from classroom.models import Classroom, DataAccess


def data_access_record(
    *, viewer, classroom: Classroom, kind: DataAccess.Kind, page: str, student=None
) -> DataAccess:
    """Records that ``viewer`` opened ``page`` (a path) of the class's data, or of one child's."""
    [row] = data_access_record_many(
        viewer=viewer, classroom=classroom, kind=kind, page=page, students=[student]
    )
    return row


def data_access_record_many(
    *, viewer, classroom: Classroom, kind: DataAccess.Kind, page: str, students
) -> list[DataAccess]:
    """One row per child of ``students`` (None: the whole class) that one download covered,
    in one statement."""
    at, who = timezone.now(), _who(viewer)[:150]
    return DataAccess.objects.bulk_create(
        DataAccess(
            at=at,
            viewer=viewer,
            viewer_name=who,
            classroom=classroom,
            student=student,
            kind=kind,
            page=page[:300],
        )
        for student in students
    )


def _who(viewer) -> str:
    """The viewer as a school tells people apart: their name and their e-mail address."""
    return f"{viewer} <{viewer.email}>" if viewer.email else str(viewer)
