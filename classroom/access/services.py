"""Writes of the access record: one row per look at, or download of, children's data."""

import datetime

from django.urls import reverse
from django.utils import timezone

from classroom.models import Classroom, DataAccess


def data_access_record(
    *,
    viewer,
    classroom: Classroom,
    kind: DataAccess.Kind,
    page: str,
    student=None,
    viewer_name: str = "",
) -> DataAccess:
    """Records that ``viewer`` opened ``page`` (a path) of the class's data, or of one child's.
    ``viewer`` is None for an operator's command, named by ``viewer_name``."""
    [row] = data_access_record_many(
        viewer=viewer,
        classroom=classroom,
        kind=kind,
        page=page,
        students=[student],
        viewer_name=viewer_name,
    )
    return row


def data_access_record_many(
    *, viewer, classroom: Classroom, kind: DataAccess.Kind, page: str, students, viewer_name=""
) -> list[DataAccess]:
    """One row per child of ``students`` (None: the whole class) that one download covered,
    in one statement."""
    at, who = timezone.now(), (viewer_name or _who(viewer))[:150]
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


# The live monitor's figures come back whenever a table moves (twice a second at most): its rows
# say who watched a session, and for about how long, without a row per update.
LIVE_MONITOR_RECORDED_EVERY = datetime.timedelta(hours=1)


def data_access_record_live_monitor(*, viewer, session) -> DataAccess | None:
    """Records that ``viewer`` watched the session's live monitor (every child's figures, a row
    for the whole class), unless their last such row is younger than an hour: the new row, or
    None. Two fetches at the same instant may both write one; a row too many says nothing false."""
    page = reverse("classroom:sessions_detail", args=[session.pk])
    watched = DataAccess.objects.filter(
        classroom=session.classroom_id,
        at__gt=timezone.now() - LIVE_MONITOR_RECORDED_EVERY,
        viewer=viewer,
        kind=DataAccess.Kind.LIVE_MONITOR,
        page=page,
    )
    if watched.exists():
        return None
    return data_access_record(
        viewer=viewer,
        classroom=session.classroom,
        kind=DataAccess.Kind.LIVE_MONITOR,
        page=page,
    )


def _who(viewer) -> str:
    """The viewer as a school tells people apart: their name and their e-mail address."""
    return f"{viewer} <{viewer.email}>" if viewer.email else str(viewer)
