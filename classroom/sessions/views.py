"""Pages of class sessions. Teachers: the class's sessions, a new session, the session page (lobby
and seating, then the live monitor), the projector view and the actions. Students: join, and the
waiting room that moves them to their table when the teacher starts.

The live parts of the teacher's pages are separate fragments (``*_live``): the page's script
fetches them again whenever the monitor socket says something changed, so everything shown is
rendered (and translated) here, once."""

from __future__ import annotations

import segno
from django.conf import settings
from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_http_methods, require_POST

import engine
from accounts.permissions import student_required, teacher_required
from classroom.access.services import data_access_record_live_monitor
from classroom.models import Classroom, ClassSession
from classroom.practice import plans as practice_plans
from classroom.sessions import selectors, services
from classroom.sessions.forms import ProjectorForm, SessionCreateForm
from config.local_network import device_base
from games.services import now_ms


def _teacher_session(request, session_id) -> ClassSession:
    session = selectors.teacher_session(teacher=request.user, session_id=session_id)
    if session is None:
        raise Http404
    return session


def _monitor_watched(request, session: ClassSession) -> None:
    """Once the game starts the page shows every child's figures: recorded (docs/privacy.md),
    once an hour of watching, however often the live part comes back."""
    if session.status != ClassSession.Status.LOBBY:
        data_access_record_live_monitor(viewer=request.user, session=session)


# --- teacher -------------------------------------------------------------------------------------


@teacher_required
def sessions_list(request, classroom_id):
    classroom = get_object_or_404(Classroom, pk=classroom_id, teacher=request.user)
    return render(
        request,
        "classroom/sessions/list.html",
        {
            "classroom": classroom,
            "sessions": [
                {"session": s, "title": selectors.session_title(s)}
                for s in selectors.classroom_sessions(classroom=classroom)
            ],
        },
    )


@teacher_required
@require_http_methods(["GET", "POST"])
def sessions_create(request, classroom_id):
    classroom = get_object_or_404(Classroom, pk=classroom_id, teacher=request.user)
    form = SessionCreateForm(request.POST or None, preset=request.GET)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            session = services.session_open(
                classroom=classroom,
                game=data["game"],
                variant=data["variant_name"],
                options=data["options"],
                table_size=data["table_size"],
                bot_level=data["bot_level"],
                team_mode=data["team_mode"],
                projector_names=data["projector_names"],
                projector_top=data["projector_top"],
            )
        except engine.SetupError as error:
            form.add_engine_error(error)
        except services.SessionError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request,
                _("The lobby is open: your students can join from their home page."),
            )
            return redirect("classroom:sessions_detail", session_id=session.pk)
    return render(
        request,
        "classroom/sessions/create.html",
        {"classroom": classroom, "form": form, "groups": form.option_groups()},
    )


def _detail_context(request, session: ClassSession) -> dict:
    monitor = selectors.session_monitor(session=session)
    in_lobby = session.status == ClassSession.Status.LOBBY
    return {
        "session": session,
        "classroom": session.classroom,
        "title": monitor["session"]["title"],
        "monitor": monitor,
        "late": [p for p in monitor["present"] if not p["seated"]],
        "absent": selectors.students_not_in_lobby(session=session) if in_lobby else [],
        "projector_form": ProjectorForm(
            initial={
                "projector_names": session.projector_names,
                "projector_top": session.projector_top,
            },
            auto_id="projector_%s",
        ),
    }


def _place_choices(session: ClassSession, monitor: dict) -> list[tuple[str, str]]:
    """Where the teacher may move a student: any seat of any table (a taken seat swaps) or the
    first seat of a new table."""
    choices = []
    for table in monitor["tables"]:
        for seat in table["seats"]:
            who = _("free") if seat["bot"] else seat["name"]
            choices.append(
                (
                    f"{table['number']}:{seat['seat']}",
                    _("%(table)s, seat %(seat)s (%(who)s)")
                    % {"table": table["label"], "seat": seat["seat"] + 1, "who": who},
                )
            )
    new_table = len(monitor["tables"]) + 1
    choices.append((f"{new_table}:0", _("A new table (%(number)s)") % {"number": new_table}))
    return choices


# The teacher's session pages grow with the class (a school assembly is 900 students): they go
# out compressed. They hold no secret but the CSRF token, which Django masks anew for every
# response (the defence against BREACH-style guessing through compressed sizes).
@teacher_required
@gzip_page
def sessions_detail(request, session_id):
    session = _teacher_session(request, session_id)
    _monitor_watched(request, session)
    context = _detail_context(request, session)
    if session.status == ClassSession.Status.LOBBY:
        # Facts a teacher kept for this session ("practise these facts"): said before Start.
        context["focus_waiting"] = practice_plans.session_focus_waiting(session=session)
    return render(request, "classroom/sessions/detail.html", context)


@teacher_required
@gzip_page
def sessions_live(request, session_id):
    """The page's live part; with ``?tables=<match ids>`` (the monitor socket's news of what
    moved) only those tables' cards, the rows of the students at ``&answered=<match>:<seat>,...``
    (whose figures changed) and the help summary, for the page to swap in.
    ``X-As-Of``: the server's clock before reading, every move committed earlier is shown."""
    session = _teacher_session(request, session_id)
    _monitor_watched(request, session)
    as_of = now_ms()
    moved = _match_ids(request.GET.get("tables"))
    answered = _seats(request.GET.get("answered"))
    if moved is None or answered is None or session.status != ClassSession.Status.PLAYING:
        response = render(
            request, "classroom/sessions/_live.html", _detail_context(request, session)
        )
    else:
        seated = selectors.students_at(session=session, seats=answered)
        monitor = selectors.session_monitor(session=session, detailed=seated)
        response = render(
            request,
            "classroom/sessions/_live_parts.html",
            {
                "session": session,
                "monitor": monitor,
                "tables": [table for table in monitor["tables"] if table["match_id"] in moved],
                "students": [s for s in monitor["students"] if s["id"] in seated],
            },
        )
    response["X-As-Of"] = str(as_of)
    return response


MAX_TABLES_ASKED = 1000


def _match_ids(text: str | None) -> set[int] | None:
    """The ids of ``?tables=3,17``; None (everything) when absent or not such a list."""
    if not text:
        return None
    parts = text.split(",")
    if len(parts) > MAX_TABLES_ASKED or not all(_number(part) for part in parts):
        return None
    return {int(part) for part in parts}


def _seats(text: str | None) -> set[tuple[int, int | None]] | None:
    """The (match id, seat) pairs of ``?answered=3:0,17:2,20:*`` (``*``, as None: every seat);
    empty when absent; None (everything) when not such a list."""
    if not text:
        return set()
    pairs = [part.split(":") for part in text.split(",")]
    if len(pairs) > MAX_TABLES_ASKED * 8 or not all(
        len(pair) == 2 and _number(pair[0]) and (_number(pair[1]) or pair[1] == "*")
        for pair in pairs
    ):
        return None
    return {(int(match_id), None if seat == "*" else int(seat)) for match_id, seat in pairs}


def _number(text: str) -> bool:
    """An id as a database holds it: a few ASCII digits (a longer one is no id, and would not fit
    a bigint or even be read as an int)."""
    return 0 < len(text) <= 18 and text.isascii() and text.isdigit()


def _projector_context(request, session: ClassSession) -> dict:
    """What the projector's live part shows. Before the start the class joins: the class code in
    large type and a QR code that opens the class's sign-in; once the game is under way the
    leaderboard and the tables need the screen, and the code is one line for late arrivals."""
    monitor = selectors.session_monitor(session=session)
    code = session.classroom.code
    sign_in = reverse("classroom:student_login")
    devices_reach = device_base(request, settings.LOCAL_NETWORK_ADDRESS)
    join_url = devices_reach + reverse("classroom:student_login_roster", args=[code])
    context = {
        "session": session,
        "classroom": session.classroom,
        "monitor": monitor,
        # The class reads the projector: the game in a child's words.
        "title": selectors.session_title(session, child=True),
        "join_url": join_url,
        # Typed as shown: left to right and in Western digits on a page in Arabic too.
        "join_address": format_html(
            '<bdi dir="ltr" data-digits="latn">{}</bdi>',
            devices_reach.partition("://")[2] + sign_in,
        ),
        "code_spelled": " ".join(code),
    }
    if session.status == ClassSession.Status.LOBBY:
        qr = segno.make(join_url, error="m", micro=False)
        # segno writes the SVG from the URL alone: nothing in it comes from a user.
        context["qr_svg"] = mark_safe(
            qr.svg_inline(scale=6, border=2, dark="#1a202c", light="#ffffff")
        )
    return context


@teacher_required
@gzip_page
def sessions_projector(request, session_id):
    """The big screen: no site chrome; before the start the class code and a QR code to join and
    who has joined, then the leaderboard and the tables a screen at a time, and at the end the
    podium and a summary."""
    session = _teacher_session(request, session_id)
    return render(
        request, "classroom/sessions/projector.html", _projector_context(request, session)
    )


@teacher_required
@gzip_page
def sessions_projector_live(request, session_id):
    session = _teacher_session(request, session_id)
    return render(
        request,
        "classroom/sessions/_projector_live.html",
        _projector_context(request, session),
    )


def _posted_number(request, name: str) -> int:
    """A posted id or number; -1 (which no row has) for anything else, so the service refuses it
    with its own message."""
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        return -1


def _act(request, session_id, action, done: str):
    session = _teacher_session(request, session_id)
    try:
        action(session)
    except services.SessionError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done)
    return redirect("classroom:sessions_detail", session_id=session.pk)


@teacher_required
@require_POST
def sessions_projector_settings(request, session_id):
    session = _teacher_session(request, session_id)
    form = ProjectorForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose how the projector names children and ranks them."))
        return redirect("classroom:sessions_detail", session_id=session.pk)
    return _act(
        request,
        session_id,
        lambda s: services.session_set_projector(
            session=s,
            names=form.cleaned_data["projector_names"],
            top=form.cleaned_data["projector_top"],
        ),
        _("The projector shows your choice."),
    )


@teacher_required
@require_POST
def sessions_deal(request, session_id):
    session = _teacher_session(request, session_id)
    try:
        again = services.session_deal(
            session=session,
            calm_together=request.POST.get("calm_together") == "on",
            seat_by_level=request.POST.get("seat_by_level") == "on",
        )
    except services.SessionError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, _("The tables were dealt again.") if again else _("The tables were dealt.")
        )
    return redirect("classroom:sessions_detail", session_id=session.pk)


@teacher_required
@require_POST
def sessions_move(request, session_id):
    try:
        student_id = int(request.POST.get("student", ""))
        table_text, seat_text = request.POST.get("place", "").split(":")
        table_number, seat = int(table_text), int(seat_text)
    except ValueError:
        messages.error(request, _("Choose where the student goes."))
        return redirect(
            "classroom:sessions_detail", session_id=_teacher_session(request, session_id).pk
        )
    return _act(
        request,
        session_id,
        lambda session: services.session_move(
            session=session, student_id=student_id, table_number=table_number, seat=seat
        ),
        _("The student was moved."),
    )


@teacher_required
def sessions_move_page(request, session_id, student_id):
    """Where one student may go: every seat of every table, or a new table. One student's page,
    so that the lobby stays as light as its class is large (a list of every place beside every
    student grew with the square of the class)."""
    session = _teacher_session(request, session_id)
    monitor = selectors.session_monitor(session=session)
    seat = next(
        (
            seat
            for table in monitor["tables"]
            for seat in table["seats"]
            if seat["student_id"] == student_id
        ),
        None,
    )
    if seat is None or session.status != ClassSession.Status.LOBBY:
        return redirect("classroom:sessions_detail", session_id=session.pk)
    return render(
        request,
        "classroom/sessions/move.html",
        {
            "session": session,
            "classroom": session.classroom,
            "title": monitor["session"]["title"],
            "seat": seat,
            "places": _place_choices(session, monitor),
        },
    )


@teacher_required
@require_POST
def sessions_unseat(request, session_id):
    student_id = _posted_number(request, "student")
    return _act(
        request,
        session_id,
        lambda session: services.session_unseat(session=session, student_id=student_id),
        _("The student is back in the lobby, without a seat."),
    )


@teacher_required
@require_POST
def sessions_lock(request, session_id):
    locked = request.POST.get("locked") == "1"
    return _act(
        request,
        session_id,
        lambda session: services.session_lock(session=session, locked=locked),
        _("The session is closed to newcomers.") if locked else _("Newcomers may join again."),
    )


@teacher_required
@require_POST
def sessions_pause(request, session_id):
    paused = request.POST.get("paused") == "1"
    return _act(
        request,
        session_id,
        lambda session: services.session_pause(session=session, paused=paused),
        _("Every table is paused: their clocks stand still.")
        if paused
        else _("Every table plays on."),
    )


@teacher_required
@require_POST
def sessions_add_time(request, session_id):
    table_number = _posted_number(request, "table")
    return _act(
        request,
        session_id,
        lambda session: services.session_add_time(session=session, table_number=table_number),
        _("30 seconds more for that table."),
    )


@teacher_required
@require_POST
def sessions_start(request, session_id):
    return _act(
        request,
        session_id,
        lambda session: services.session_start(session=session),
        _("The game has started: every table is playing."),
    )


@teacher_required
@require_POST
def sessions_seat_late(request, session_id):
    return _act(
        request,
        session_id,
        lambda session: services.session_seat_late_arrivals(session=session),
        _("The late arrivals have their tables."),
    )


@teacher_required
@require_http_methods(["GET", "POST"])
def sessions_end(request, session_id):
    """GET asks first (ending stops every table still playing); POST ends."""
    session = _teacher_session(request, session_id)
    if request.method == "GET":
        if session.status == ClassSession.Status.ENDED:
            return redirect("classroom:sessions_detail", session_id=session.pk)
        return render(
            request,
            "classroom/sessions/end_confirm.html",
            {
                "session": session,
                "classroom": session.classroom,
                "title": selectors.session_title(session),
                "playing": selectors.tables_playing(session=session),
            },
        )
    return _act(
        request,
        session_id,
        lambda session: services.session_end(session=session),
        _("The session has ended."),
    )


@teacher_required
@require_http_methods(["GET", "POST"])
def sessions_stop_table(request, session_id, table_number):
    """GET asks first (who sits there, what their screens will say); POST stops that one table."""
    session = _teacher_session(request, session_id)
    if request.method == "GET":
        monitor = selectors.session_monitor(session=session)
        table = next(
            (
                table
                for table in monitor["tables"]
                if table["number"] == table_number and table["status"] == "playing"
            ),
            None,
        )
        if table is None or session.status != ClassSession.Status.PLAYING:
            messages.error(request, _("That table is not playing."))
            return redirect("classroom:sessions_detail", session_id=session.pk)
        return render(
            request,
            "classroom/sessions/stop_table_confirm.html",
            {
                "session": session,
                "classroom": session.classroom,
                "title": monitor["session"]["title"],
                "table": table,
                "others_playing": sum(
                    1 for other in monitor["tables"] if other["status"] == "playing"
                )
                - 1,
            },
        )
    return _act(
        request,
        session_id,
        lambda session: services.session_stop_table(session=session, table_number=table_number),
        _("Table %(number)s is stopped.") % {"number": table_number},
    )


@teacher_required
@require_POST
def sessions_next_round(request, session_id):
    session = _teacher_session(request, session_id)
    try:
        following = services.session_next_round(session=session)
    except services.SessionError as error:
        messages.error(request, error.message)
        return redirect("classroom:sessions_detail", session_id=session.pk)
    messages.success(request, _("A new round has started at the same tables."))
    return redirect("classroom:sessions_detail", session_id=following.pk)


# --- students ------------------------------------------------------------------------------------


def _student_session(request, session_id) -> ClassSession:
    session = selectors.student_session(student=request.user, session_id=session_id)
    if session is None:
        raise Http404
    return session


@student_required
@require_POST
def sessions_join(request, session_id):
    session = _student_session(request, session_id)
    try:
        services.session_join(session=session, student=request.user)
    except services.SessionError as error:
        messages.error(request, error.message)
        return redirect("classroom:student_home")
    match_id = selectors.student_table(session=session, student=request.user)
    if match_id is not None:
        return redirect("games:play", match_id=match_id)
    return redirect("classroom:sessions_lobby", session_id=session.pk)


@student_required
def sessions_lobby(request, session_id):
    session = _student_session(request, session_id)
    match_id = selectors.student_table(session=session, student=request.user)
    if match_id is not None and session.status == ClassSession.Status.PLAYING:
        return redirect("games:play", match_id=match_id)
    joined = session.presences.filter(student=request.user).exists()
    return render(
        request,
        "classroom/sessions/lobby.html",
        {
            "session": session,
            "title": selectors.session_title(session, child=True),
            "joined": joined,
        },
    )
