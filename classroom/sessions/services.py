"""Writes of class sessions: open a lobby, join it, deal the tables, move a student, start, seat
late arrivals, stop a table, end. Every write that touches the seating plan first locks the
session's row, so a join racing the start (or two teacher tabs) can never seat a student twice or
leave one out.

The plan (SessionTable + SessionPlace) exists from the first deal in the lobby; the start turns
each table into one games.Match, its empty seats taken by bots of the session's level.
"""

from __future__ import annotations

import math
import statistics

from django.db import transaction
from django.db.models import Count, Max, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

import engine
from accounts.models import Accommodations, TimeAllowance
from classroom.bots import AT_TABLE_LEVEL, bot_name, table_level
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
from classroom.practice import services as practice
from classroom.progress.selectors import levels_in_game
from classroom.sessions import push
from engine.bots import LEVELS as BOT_LEVELS
from games.models import Match, Seat
from games.services import (
    NewMatch,
    SeatSpec,
    match_abandon,
    match_add_time,
    match_create_many,
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
        _place(session, student.pk)
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
    _deal(session, _present_student_ids(session))
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
    _drop_empty_tables(session)
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
    _drop_empty_tables(session)
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
        _deal(session, unplaced)
    else:
        for student_id in unplaced:
            _place(session, student_id)
    _drop_empty_tables(session)
    tables = _tables_with_students(session)
    if not tables:
        raise SessionError("nobody_present", _("No student has joined the lobby yet."))
    _open_tables(session, tables, session.classroom.teacher)
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
    numbers = set(_deal(session, late))
    tables = [t for t in _tables_with_students(session) if t.number in numbers]
    _open_tables(session, tables, session.classroom.teacher)
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


def _deal(session: ClassSession, student_ids: list[int]) -> list[int]:
    """New tables after the existing ones: the fewest that seat everyone
    (``ceil(children / table size)``), their sizes within one of each other (seven students at
    tables of four: four and three, not four and three bots beside one child), dealt
    round-robin. With ``seat_by_level`` the children are ordered by level (``_by_level``) and
    dealt in runs, not round-robin: the first tables take the strongest children, the last ones
    the weakest. With ``calm_together`` the same tables are dealt, and the children who need a
    calm table sit together at the fewest of them (``_calm_tables``), each filled before the
    next; the others take the other tables, and the seats the calm children leave free at
    theirs (that table plays calm: any child needing calm makes a calm table). Seating them
    together costs the class no table and no bot. Returns the new tables' numbers."""
    if not student_ids:
        return []
    count = math.ceil(len(student_ids) / session.table_size)
    base, extra = divmod(len(student_ids), count)
    sizes = [base + 1] * extra + [base] * (count - extra)
    calm = _needing_calm(student_ids) if session.calm_together else set()
    others = [sid for sid in student_ids if sid not in calm]
    needing = [sid for sid in student_ids if sid in calm]
    if session.seat_by_level:
        others, needing = _by_level(session, others), _by_level(session, needing)
    calm_sizes = _calm_tables(sizes, len(needing))
    other_sizes = list(sizes)
    for size in calm_sizes:
        other_sizes.remove(size)
    # The others who fill the calm tables' free seats: the last of them (the last to join, or
    # with seating by level the weakest, whose tables come last too).
    own = len(others) - (sum(calm_sizes) - len(needing))
    fill = _runs if session.seat_by_level else _round_robin
    first = (session.tables.aggregate(last=Max("number"))["last"] or 0) + 1
    tables = [SessionTable.objects.create(session=session, number=first + i) for i in range(count)]
    seating = list(zip(fill(other_sizes), others[:own], strict=True))
    seating += [
        ((len(other_sizes) + table, seat), sid)
        for (table, seat), sid in zip(_runs(calm_sizes), needing + others[own:], strict=True)
    ]
    SessionPlace.objects.bulk_create(
        SessionPlace(table=tables[table], seat=seat, student_id=student_id)
        for (table, seat), student_id in seating
    )
    return [table.number for table in tables]


def _calm_tables(sizes: list[int], calm: int) -> list[int]:
    """The sizes of the tables, among ``sizes`` (within one of each other), that seat ``calm``
    children together: as few as will hold them, and of those the smallest, so that as few other
    children as possible share them. Bigger first, as the deal fills them."""
    if not calm:
        return []
    small, big = min(sizes), max(sizes)
    smalls, bigs = sizes.count(small), len(sizes) - sizes.count(small)
    if small == big:
        return [small] * math.ceil(calm / small)
    for count in range(1, len(sizes) + 1):
        # As many small tables as still hold everyone, the rest big.
        for small_count in range(min(count, smalls), -1, -1):
            big_count = count - small_count
            if big_count <= bigs and small_count * small + big_count * big >= calm:
                return [big] * big_count + [small] * small_count
    raise ValueError("more children who need a calm table than seats")


def _round_robin(sizes: list[int]) -> list[tuple[int, int]]:
    """(table index, seat) of each child in turn: one to each table with a free seat, and round
    again (``sizes`` bigger first, so every round after the first ones skips the same last
    tables)."""
    return [
        (table, seat)
        for seat in range(max(sizes, default=0))
        for table, size in enumerate(sizes)
        if seat < size
    ]


def _runs(sizes: list[int]) -> list[tuple[int, int]]:
    """(table index, seat) of each child in turn: the first table filled before the next, so
    neighbours in the order sit together."""
    return [(table, seat) for table, size in enumerate(sizes) for seat in range(size)]


def _by_level(session: ClassSession, student_ids: list[int]) -> list[int]:
    """The children strongest first by their level at the session's game
    (``classroom.progress.selectors.levels_in_game``); children with no answers on its skills yet
    come last, beside the weakest (their level is "not started"); ties keep the joining order."""
    levels = levels_in_game(student_ids=student_ids, game=session.game)

    def strongest_first(sid: int) -> tuple:
        level = levels.get(sid)
        return (1, 0.0, 0.0) if level is None else (0, -level.mean_level, -level.accuracy)

    return sorted(student_ids, key=strongest_first)


def _needing_calm(student_ids) -> set[int]:
    """The children among ``student_ids`` who need a calm table: one set for them, or no clock."""
    return set(
        Accommodations.objects.filter(student_id__in=list(student_ids))
        .filter(Q(calm_table=True) | Q(time=TimeAllowance.NO_CLOCK))
        .values_list("student_id", flat=True)
    )


def _place(session: ClassSession, student_id: int) -> None:
    """The free seat of the emptiest table, or a new table when every table is full. With
    ``calm_together``, a child who needs a calm table takes a free seat at a table where a child
    needing calm sits (else a new table of their own); another child a free seat at a table
    without one, else at a calm table (it plays calm for them, and no table is opened for one
    child beside bots). With ``seat_by_level``, among those the free table whose children's
    level is nearest the child's."""
    every_table = list(session.tables.annotate(taken=Count("places")).order_by("taken", "number"))
    choices = [every_table]
    places = []
    if (session.calm_together or session.seat_by_level) and every_table:
        places = list(
            SessionPlace.objects.filter(table__session=session).values_list(
                "table_id", "student_id"
            )
        )
    if session.calm_together and every_table:
        calm = _needing_calm([student_id, *(seated for _table, seated in places)])
        calm_tables = {table_id for table_id, seated in places if seated in calm}
        alike = [t for t in every_table if (t.pk in calm_tables) == (student_id in calm)]
        choices = [alike]
        if student_id not in calm:
            choices.append([t for t in every_table if t.pk in calm_tables])
    table = None
    for tables in choices:
        free = [t for t in tables if t.taken < session.table_size]
        if session.seat_by_level and len(free) > 1:
            free = _nearest_level_first(session, student_id, free, places)
        table = next(iter(free), None)
        if table is not None:
            break
    if table is None:
        last = max((t.number for t in every_table), default=0)
        table = SessionTable.objects.create(session=session, number=last + 1)
        seat = 0
    else:
        taken = set(table.places.values_list("seat", flat=True))
        seat = min(set(range(session.table_size)) - taken)
    SessionPlace.objects.create(table=table, seat=seat, student_id=student_id)


def _nearest_level_first(session, student_id, tables, places) -> list[SessionTable]:
    """``tables`` (emptiest first) by how near their children's mean level at the session's game
    is to the child's, nearest first (``_by_level``'s level; no answers yet counts as 0, not
    started, as the deal seats such children beside the weakest); ties keep the emptiest first."""
    levels = levels_in_game(
        student_ids=[student_id, *(seated for _table, seated in places)], game=session.game
    )

    def level(sid: int) -> float:
        found = levels.get(sid)
        return 0.0 if found is None else found.mean_level

    by_table: dict[int, list[float]] = {}
    for table_id, seated in places:
        by_table.setdefault(table_id, []).append(level(seated))
    mine = level(student_id)

    def distance(table: SessionTable) -> float:
        children = by_table.get(table.pk)
        return abs(statistics.fmean(children) - mine) if children else math.inf

    return sorted(tables, key=distance)


def _drop_empty_tables(session: ClassSession) -> None:
    """Remove tables nobody sits at and number the rest 1, 2, 3… again, in their order."""
    session.tables.filter(places__isnull=True).delete()
    tables = list(session.tables.order_by("number"))
    if all(table.number == i for i, table in enumerate(tables, start=1)):
        return
    # Two passes: the unique (session, number) index must hold after every row's update.
    offset = len(tables) + 1000
    for table in tables:
        table.number += offset
    SessionTable.objects.bulk_update(tables, ["number"])
    for i, table in enumerate(tables, start=1):
        table.number = i
    SessionTable.objects.bulk_update(tables, ["number"])


def _tables_with_students(session: ClassSession) -> list[SessionTable]:
    return list(
        session.tables.filter(places__isnull=False)
        .distinct()
        .order_by("number")
        .prefetch_related(
            Prefetch("places", queryset=SessionPlace.objects.select_related("student"))
        )
    )


def _open_tables(session: ClassSession, tables: list[SessionTable], teacher) -> None:
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
