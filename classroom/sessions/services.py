"""Writes of class sessions: open a lobby, join it, deal the tables, move a student, start, seat
late arrivals, stop a table, end. Every write that touches the seating plan first locks the
session's row, so a join racing the start (or two teacher tabs) can never seat a student twice or
leave one out.

The plan (SessionTable + SessionPlace) exists from the first deal in the lobby
(classroom.sessions.seating says how children are seated); the start turns each table into one
games.Match, its empty seats taken by bots of the session's level (classroom.sessions.opening).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from classroom.bots import AT_TABLE_LEVEL
from classroom.models import (
    PROJECTOR_TOP_CHOICES,
    ClassSession,
    Enrollment,
    ProjectorNames,
    SessionPlace,
    SessionPresence,
    SessionTable,
    TeamMode,
)
from classroom.sessions import opening, push, seating
from engine.bots import LEVELS as BOT_LEVELS
from games.models import Match
from games.services import (
    match_abandon,
    match_add_time,
    match_pause,
    match_resume,
)


class SessionError(Exception):
    """A session write refused; ``code`` is stable, ``message`` is for people (translated)."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@transaction.atomic
def session_open(
    *,
    classroom,
    game: str,
    variant: str,
    table_size: int,
    options: dict | None = None,
    bot_level: str = "easy",
    team_mode: str = TeamMode.NONE,
    projector_names: str = ProjectorNames.FIRST,
    projector_top: int = 10,
) -> ClassSession:
    """A new session in the lobby. Raises ``engine.SetupError`` for a game, variant, option or
    table size the engine refuses, ``SessionError`` for an unknown bots' level, team mode or
    projector choice."""
    if bot_level not in (*BOT_LEVELS, AT_TABLE_LEVEL):
        raise SessionError("bad_bot_level", _("Choose the bots' level from the list."))
    if team_mode not in TeamMode.values:
        raise SessionError("bad_team_mode", _("Choose how the class scores from the list."))
    _check_projector(projector_names, projector_top)
    # The engine is the judge of variants, options and table sizes: setting up one table now shows
    # a mistake on the teacher's form, never while the class waits for the start.
    state = engine.get_game(game).new(
        variant=variant, players=table_size, seed=0, options=options or {}
    )
    session = ClassSession.objects.create(
        classroom=classroom,
        game=game,
        variant=variant,
        options=dict(state.options),
        table_size=table_size,
        bot_level=bot_level,
        team_mode=team_mode,
        projector_names=projector_names,
        projector_top=projector_top,
    )
    push.sessions_changed_for_class(classroom.pk)
    return session


def _check_projector(names: str, top: int) -> None:
    if names not in ProjectorNames.values:
        raise SessionError("bad_projector_names", _("Choose how the projector names children."))
    if top not in PROJECTOR_TOP_CHOICES:
        raise SessionError("bad_projector_top", _("Choose how many places the projector shows."))


@transaction.atomic
def session_set_projector(*, session: ClassSession, names: str, top: int) -> None:
    """How the projector names the children (a child's own stricter choice still wins) and how
    many places its leaderboard shows; the projector shows it at once."""
    _check_projector(names, top)
    session = _locked(session)
    session.projector_names = names
    session.projector_top = top
    session.save(update_fields=["projector_names", "projector_top"])
    push.session_changed(session.pk)


@transaction.atomic
def session_join(*, session: ClassSession, student) -> SessionPresence:
    """The student is in the lobby (or arrives late, once the session is playing). Once the
    teacher has dealt the tables, a newcomer in the lobby gets the emptiest table's free seat."""
    session = _locked(session)
    if session.status == ClassSession.Status.ENDED:
        raise SessionError("session_ended", _("This game session has ended."))
    if not Enrollment.objects.filter(classroom_id=session.classroom_id, student=student).exists():
        raise SessionError("not_enrolled", _("This game session is for another class."))
    if (
        session.lobby_locked
        and not SessionPresence.objects.filter(session=session, student=student).exists()
    ):
        raise SessionError(
            "lobby_locked", _("Your teacher has closed this game session to newcomers.")
        )
    presence, created = SessionPresence.objects.get_or_create(session=session, student=student)
    if not created:
        presence.save(update_fields=["last_seen_at"])
    if (
        session.status == ClassSession.Status.LOBBY
        and session.tables.exists()
        and not SessionPlace.objects.filter(table__session=session, student=student).exists()
    ):
        seating.place(session, student.pk)
    push.session_changed(session.pk)
    push.send_after_commit(push.student_group(student.pk), {"type": "sessions.listed"})
    return presence


@transaction.atomic
def session_deal(
    *,
    session: ClassSession,
    calm_together: bool | None = None,
    seat_by_level: bool | None = None,
) -> bool:
    """Deal the present students to tables afresh (in the order they joined), undoing moves.
    ``calm_together`` (kept for the session's later deals and newcomers; None: as before): the
    children who need a calm table (a calm table or no clock, accounts.Accommodations) are
    dealt to tables of their own, whose matches are then calm where the game has calm tables.
    ``seat_by_level`` (kept likewise): children of similar level at the session's game share
    tables (``_by_level``). Returns whether tables had been dealt before (the teacher's message
    says "again" only then)."""
    session = _locked(session)
    _require_lobby(session)
    changed = []
    if calm_together is not None and calm_together != session.calm_together:
        session.calm_together = calm_together
        changed.append("calm_together")
    if seat_by_level is not None and seat_by_level != session.seat_by_level:
        session.seat_by_level = seat_by_level
        changed.append("seat_by_level")
    if changed:
        session.save(update_fields=changed)
    dealt_before, _deleted = session.tables.all().delete()
    seating.deal(session, _present_student_ids(session))
    push.session_changed(session.pk)
    return dealt_before > 0


@transaction.atomic
def session_move(*, session: ClassSession, student_id: int, table_number: int, seat: int) -> None:
    """Move a seated student to another seat, at their table or another one, before the start; a
    student already in that seat takes the mover's old one. ``table_number`` one past the last
    table opens a new table."""
    session = _locked(session)
    _require_lobby(session)
    if not 0 <= seat < session.table_size:
        raise SessionError("bad_seat", _("There is no such seat."))
    place = (
        SessionPlace.objects.select_related("table")
        .filter(table__session=session, student_id=student_id)
        .first()
    )
    if place is None:
        raise SessionError("not_placed", _("That student has no seat yet."))
    target = session.tables.filter(number=table_number).first()
    if target is None:
        last = session.tables.aggregate(last=Max("number"))["last"] or 0
        if table_number != last + 1:
            raise SessionError("bad_table", _("There is no such table."))
        target = SessionTable.objects.create(session=session, number=table_number)
    if place.table_id == target.pk and place.seat == seat:
        return
    occupant = SessionPlace.objects.filter(table=target, seat=seat).first()
    source_table, source_seat = place.table, place.seat
    place.delete()
    if occupant is not None:
        occupant.delete()
        SessionPlace.objects.create(
            table=source_table, seat=source_seat, student_id=occupant.student_id
        )
    SessionPlace.objects.create(table=target, seat=seat, student_id=student_id)
    seating.drop_empty_tables(session)
    push.session_changed(session.pk)


@transaction.atomic
def session_unseat(*, session: ClassSession, student_id: int) -> None:
    """Back to the lobby: the student keeps their presence but no seat (the teacher seats them
    again, or the start deals them to the emptiest table)."""
    session = _locked(session)
    _require_lobby(session)
    deleted, _kinds = SessionPlace.objects.filter(
        table__session=session, student_id=student_id
    ).delete()
    if not deleted:
        raise SessionError("not_placed", _("That student has no seat yet."))
    seating.drop_empty_tables(session)
    push.session_changed(session.pk)


@transaction.atomic
def session_lock(*, session: ClassSession, locked: bool) -> None:
    """Close the session to newcomers, or open it again."""
    session = _locked(session)
    if session.status == ClassSession.Status.ENDED:
        raise SessionError("session_ended", _("This game session has ended."))
    session.lobby_locked = locked
    session.save(update_fields=["lobby_locked"])
    push.sessions_changed_for_class(session.classroom_id)
    push.session_changed(session.pk)


@transaction.atomic
def session_start(*, session: ClassSession) -> list[SessionTable]:
    """Seat every present student (dealing the tables if the teacher has not), fill the empty
    seats with bots and open one match per table. Raises SessionError when nobody is present."""
    session = _locked(session)
    _require_lobby(session)
    placed = set(
        SessionPlace.objects.filter(table__session=session).values_list("student_id", flat=True)
    )
    unplaced = [sid for sid in _present_student_ids(session) if sid not in placed]
    if not placed:
        seating.deal(session, unplaced)
    else:
        for student_id in unplaced:
            seating.place(session, student_id)
    seating.drop_empty_tables(session)
    tables = opening.tables_with_students(session)
    if not tables:
        raise SessionError("nobody_present", _("No student has joined the lobby yet."))
    opening.open_tables(session, tables, session.classroom.teacher)
    session.status = ClassSession.Status.PLAYING
    session.started_at = timezone.now()
    session.save(update_fields=["status", "started_at"])
    push.sessions_changed_for_class(session.classroom_id)
    push.session_changed(session.pk)
    return tables


@transaction.atomic
def session_seat_late_arrivals(*, session: ClassSession) -> list[SessionTable]:
    """Students who joined after the start get tables of their own (bots fill the rest)."""
    session = _locked(session)
    if session.status != ClassSession.Status.PLAYING:
        raise SessionError("not_playing", _("The session is not playing."))
    placed = set(
        SessionPlace.objects.filter(table__session=session).values_list("student_id", flat=True)
    )
    late = [sid for sid in _present_student_ids(session) if sid not in placed]
    if not late:
        return []
    numbers = set(seating.deal(session, late))
    tables = [t for t in opening.tables_with_students(session) if t.number in numbers]
    opening.open_tables(session, tables, session.classroom.teacher)
    if session.paused_at is not None:  # the class is paused: so are the new tables
        for table in tables:
            match_pause(match_id=table.match_id)
    push.session_changed(session.pk)
    return tables


@transaction.atomic
def session_end(*, session: ClassSession) -> ClassSession:
    """Stop the matches still playing and close the session; the students' pages are told (the
    play page by its match socket, the home page by the student socket)."""
    session = _locked(session)
    if session.status == ClassSession.Status.ENDED:
        return session
    playing = SessionTable.objects.filter(
        session=session, match__status=Match.Status.PLAYING
    ).values_list("match_id", flat=True)
    for match_id in list(playing):
        match_abandon(match_id=match_id)
    _close(session)
    return session


@transaction.atomic
def session_stop_table(*, session: ClassSession, table_number: int) -> None:
    """Stop one table still playing, as ``session_end`` stops each (``match_abandon``): its
    children's play pages are told by their match socket and read "The teacher stopped this
    game."; the other tables play on. When no table is left playing the session ends, as it
    does when its last table finishes (``session_finish_if_done``)."""
    session = _locked(session)
    match_id = (
        SessionTable.objects.filter(
            session=session, number=table_number, match__status=Match.Status.PLAYING
        )
        .values_list("match_id", flat=True)
        .first()
    )
    if session.status != ClassSession.Status.PLAYING or match_id is None:
        raise SessionError("not_playing", _("That table is not playing."))
    match_abandon(match_id=match_id)
    if _playing_match_ids(session):
        push.session_changed(session.pk)
    else:
        _close(session)


@transaction.atomic
def session_pause(*, session: ClassSession, paused: bool) -> None:
    """Pause every table at once (their timers and bots stand still on the server, the pages say
    so), or let them all go on."""
    session = _locked(session)
    if session.status != ClassSession.Status.PLAYING:
        raise SessionError("not_playing", _("The session is not playing."))
    for match_id in _playing_match_ids(session):
        (match_pause if paused else match_resume)(match_id=match_id)
    session.paused_at = timezone.now() if paused else None
    session.save(update_fields=["paused_at"])
    push.session_changed(session.pk)


def session_add_time(*, session: ClassSession, table_number: int, seconds: int = 30) -> None:
    """``seconds`` more for one table (its running countdown and its bots come that much later)."""
    match_id = (
        SessionTable.objects.filter(session=session, number=table_number)
        .values_list("match_id", flat=True)
        .first()
    )
    if match_id is None or not match_add_time(match_id=match_id, seconds=seconds):
        raise SessionError("not_playing", _("That table is not playing."))
    push.session_changed(session.pk)


def _playing_match_ids(session: ClassSession) -> list[int]:
    return list(
        SessionTable.objects.filter(
            session=session, match__status=Match.Status.PLAYING
        ).values_list("match_id", flat=True)
    )


@transaction.atomic
def session_finish_if_done(*, session_id: int) -> bool:
    """Ends a playing session whose every table has ended (finished, or stopped), as the teacher
    would: the students' home pages stop offering "Go to your table". Called after each match's
    last move commits; the row lock makes the last of several tables ending at once the one that
    sees them all ended. Returns whether it ended the session."""
    session = (
        ClassSession.objects.select_for_update()
        .filter(pk=session_id, status=ClassSession.Status.PLAYING)
        .first()
    )
    if session is None:
        return False
    tables = SessionTable.objects.filter(session=session, match__isnull=False)
    if not tables.exists() or tables.filter(match__status=Match.Status.PLAYING).exists():
        return False
    _close(session)
    return True


@transaction.atomic
def session_next_round(*, session: ClassSession) -> ClassSession:
    """Another round of an ended session: a new session of the same game, options and bots, the
    same students at the same tables and seats, started at once (their home pages offer their new
    table). Students who have left the class since are left out."""
    session = _locked(session)
    if session.status != ClassSession.Status.ENDED:
        raise SessionError("not_ended", _("Finish this round before starting another."))
    enrolled = set(
        Enrollment.objects.filter(classroom_id=session.classroom_id).values_list(
            "student_id", flat=True
        )
    )
    plan = [
        (place.table.number, place.seat, place.student_id)
        for place in SessionPlace.objects.filter(table__session=session)
        .select_related("table")
        .order_by("table__number", "seat")
        if place.student_id in enrolled
    ]
    if not plan:
        raise SessionError("nobody_present", _("Nobody sat at a table in this round."))
    following = ClassSession.objects.create(
        classroom=session.classroom,
        game=session.game,
        variant=session.variant,
        options=session.options,
        table_size=session.table_size,
        bot_level=session.bot_level,
        calm_together=session.calm_together,
        seat_by_level=session.seat_by_level,
        team_mode=session.team_mode,
        projector_names=session.projector_names,
        projector_top=session.projector_top,
    )
    SessionPresence.objects.bulk_create(
        SessionPresence(session=following, student_id=student_id) for _t, _s, student_id in plan
    )
    tables = {
        number: SessionTable.objects.create(session=following, number=number)
        for number in sorted({number for number, _s, _id in plan})
    }
    SessionPlace.objects.bulk_create(
        SessionPlace(table=tables[number], seat=seat, student_id=student_id)
        for number, seat, student_id in plan
    )
    session_start(session=following)
    following.refresh_from_db()
    # The old round's screens (the projector on its podium) go to the new one by themselves.
    session.next_round = following
    session.save(update_fields=["next_round"])
    push.session_changed(session.pk)
    return following


# --- the parts -----------------------------------------------------------------------------------


def _close(session: ClassSession) -> None:
    """The session has ended: the students' home pages and the teacher's displays are told."""
    session.status = ClassSession.Status.ENDED
    session.ended_at = timezone.now()
    session.paused_at = None
    session.save(update_fields=["status", "ended_at", "paused_at"])
    push.sessions_changed_for_class(session.classroom_id)
    push.session_changed(session.pk)


def _locked(session: ClassSession) -> ClassSession:
    return ClassSession.objects.select_for_update().select_related("classroom").get(pk=session.pk)


def _require_lobby(session: ClassSession) -> None:
    if session.status != ClassSession.Status.LOBBY:
        raise SessionError("not_in_lobby", _("The session has already started."))


def _present_student_ids(session: ClassSession) -> list[int]:
    return list(session.presences.order_by("joined_at", "id").values_list("student_id", flat=True))
