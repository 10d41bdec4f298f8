"""The start of a class session's tables: one games.Match per seated table, made together, with
bots of the lesson's level (or each table's) in the empty seats, the deal turned toward the facts
the teacher kept for the session (classroom.practice), and each child told where to go."""

from __future__ import annotations

from django.db.models import Prefetch
from django.utils.translation import gettext_noop

from classroom.bots import AT_TABLE_LEVEL, bot_name, table_level
from classroom.models import ClassSession, SessionPlace, SessionTable
from classroom.practice import services as practice
from classroom.progress.levels import levels_in_game
from classroom.sessions import push
from games.models import Seat
from games.services import NewMatch, SeatSpec, match_create_many


def tables_with_students(session: ClassSession) -> list[SessionTable]:
    return list(
        session.tables.filter(places__isnull=False)
        .distinct()
        .order_by("number")
        .prefetch_related(
            Prefetch("places", queryset=SessionPlace.objects.select_related("student"))
        )
    )


def open_tables(session: ClassSession, tables: list[SessionTable], teacher) -> None:
    """One match per table, made together (``match_create_many``), and each student told. The
    bots are numbered across the session's tables (those opened before included), so that no
    two in the room share a name (the projector shows every table at once)."""
    news = []
    bots = Seat.objects.filter(match__session_table__session=session).exclude(bot_level="").count()
    seated = {table.pk: [place.student_id for place in table.places.all()] for table in tables}
    focus, focused = _tables_focus(session, seated)
    levels = _tables_bot_levels(session, seated)
    for table in tables:
        students = {place.seat: place.student for place in table.places.all()}
        seats = []
        for index in range(session.table_size):
            student = students.get(index)
            if student is not None:
                seats.append(SeatSpec(name=student.display_name or student.username, user=student))
            else:
                bots += 1
                seats.append(SeatSpec(name=bot_name(bots), bot_level=levels[table.pk]))
        news.append(
            NewMatch(
                game=session.game,
                variant=session.variant,
                options=session.options,
                seats=seats,
                created_by=teacher,
                label=gettext_noop("Table %(number)s"),
                label_values={"number": table.number},
                focus=focus.get(table.pk, ()),
            )
        )
    matches = match_create_many(news)
    if focused:
        practice.pending_focus_used(
            classroom_id=session.classroom_id, student_ids=focused, session=session
        )
    for table, match in zip(tables, matches, strict=True):
        table.match = match
    SessionTable.objects.bulk_update(tables, ["match"])
    for table, match in zip(tables, matches, strict=True):
        for place in table.places.all():
            push.seated(place.student_id, session.pk, match.pk)


def _tables_bot_levels(session: ClassSession, seated: dict[int, list[int]]) -> dict[int, str]:
    """Each table's bots' level (``seated``: each table's children): the lesson's, or with "at
    each table's level" its children's (``classroom.bots.table_level`` of their levels at the
    lesson's game, one read for all)."""
    if session.bot_level != AT_TABLE_LEVEL:
        return dict.fromkeys(seated, session.bot_level)
    found = levels_in_game(
        student_ids=[pk for ids in seated.values() for pk in ids], game=session.game
    )
    return {
        table: table_level([found[pk].mean_level if pk in found else None for pk in ids])
        for table, ids in seated.items()
    }


def _tables_focus(
    session: ClassSession, seated: dict[int, list[int]]
) -> tuple[dict[int, tuple], list[int]]:
    """Each table's deal (``seated``: each table's children) toward the facts their teacher kept
    for this session (classroom.practice, "practise these facts"), cut to what the session's
    game and variant can deal; and the children whose facts were dealt (the others' wait for a
    session that can)."""
    pending = practice.pending_focus(
        classroom_id=session.classroom_id,
        student_ids=[pk for ids in seated.values() for pk in ids],
    )
    focus: dict[int, tuple] = {}
    focused: list[int] = []
    if not pending:
        return focus, focused
    for table, children in seated.items():
        facts = [fact for pk in children for fact in pending.get(pk, [])]
        cut = practice.table_focus(session.game, session.variant, facts) if facts else None
        if not cut:
            continue
        focus[table] = cut
        focused += [pk for pk in children if set(pending.get(pk, [])) & set(cut)]
    return focus, focused
