"""Writes of the access record: one row per look at, or download of, children's data."""

from django.utils import timezone

from classroom.models import Classroom, DataAccess


def data_access_record(
    *, viewer, classroom: Classroom, kind: DataAccess.Kind, page: str, student=None
) -> DataAccess:
    """Records that ``viewer`` opened ``page`` (a path) of the class's data, or of one child's."""
    return DataAccess.objects.create(
        at=timezone.now(),
        viewer=viewer,
        viewer_name=_who(viewer)[:150],
        classroom=classroom,
        student=student,
        kind=kind,
        page=page[:300],
    )


def _who(viewer) -> str:
    """The viewer as a school tells people apart: their name and their e-mail address."""
    return f"{viewer} <{viewer.email}>" if viewer.email else str(viewer)
