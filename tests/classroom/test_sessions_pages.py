"""Pages of class sessions: permissions over every URL, the new-session form (engine-validated),
the teacher's lobby, seating and monitor, the projector, the students' Join and waiting room, and
query counts the same for 3 and for 30 students."""

import re
import time

import pytest
import segno
from django.urls import reverse

from classroom.models import ClassSession, SessionPlace, SessionPresence
from classroom.sessions import selectors, services
from engine import get_game
from games.models import Match
from tests.classroom.sessions_helpers import (
    a_class,
    joined_session,
    record_attempts,
    seat_of,
    started_session,
)
from tests.factories import (
    finish_match_by_bots,
    make_class,
    make_session,
    make_student,
    make_teacher,
)

pytestmark = pytest.mark.django_db


def sign_in(client, user):
    client.force_login(
        user,
        backend="django.contrib.auth.backends.ModelBackend"
        if user.role == "teacher"
        else "accounts.backends.StudentSecretBackend",
    )
    return client


TEACHER_GETS = ["sessions_detail", "sessions_live", "sessions_projector", "sessions_projector_live"]
TEACHER_POSTS = [
    "sessions_deal",
    "sessions_move",
    "sessions_unseat",
    "sessions_lock",
    "sessions_start",
    "sessions_seat_late",
    "sessions_pause",
    "sessions_add_time",
    "sessions_next_round",
    "sessions_end",
]
CLASS_URLS = ["sessions_list", "sessions_create"]


@pytest.fixture
def world():
    classroom, (ana, ben) = a_class(2)
    session = make_session(classroom, table_size=2)
    other_class, (stranger,) = a_class(1, teacher=make_teacher(), name="Other class")
    return {
        "classroom": classroom,
        "session": session,
        "teacher": classroom.teacher,
        "ana": ana,
        "ben": ben,
        "other_teacher": other_class.teacher,
        "stranger": stranger,
    }


def teacher_urls(world):
    session, classroom = world["session"], world["classroom"]
    urls = [("get", reverse(f"classroom:{name}", args=[classroom.pk])) for name in CLASS_URLS]
    urls += [("get", reverse(f"classroom:{name}", args=[session.pk])) for name in TEACHER_GETS]
    urls += [("post", reverse(f"classroom:{name}", args=[session.pk])) for name in TEACHER_POSTS]
    urls.append(("get", reverse("classroom:sessions_end", args=[session.pk])))
    return urls


def student_urls(world):
    session = world["session"]
    return [
        ("get", reverse("classroom:sessions_lobby", args=[session.pk])),
        ("post", reverse("classroom:sessions_join", args=[session.pk])),
    ]


def test_anonymous_visitors_are_sent_to_sign_in(client, world):
    for method, url in teacher_urls(world) + student_urls(world):
        response = getattr(client, method)(url)
        assert response.status_code == 302 and "/login/" in response["Location"], url


def test_students_never_reach_teacher_pages(client, world):
    sign_in(client, world["ana"])
    for method, url in teacher_urls(world):
        assert getattr(client, method)(url).status_code == 403, url


def test_another_teacher_gets_not_found_and_changes_nothing(client, world):
    services.session_join(session=world["session"], student=world["ana"])
    sign_in(client, world["other_teacher"])
    for method, url in teacher_urls(world):
        assert getattr(client, method)(url).status_code == 404, url
    world["session"].refresh_from_db()
    assert world["session"].status == ClassSession.Status.LOBBY
    assert not Match.objects.exists()


def test_teachers_never_reach_student_pages(client, world):
    sign_in(client, world["teacher"])
    for method, url in student_urls(world):
        assert getattr(client, method)(url).status_code == 403, url


def test_a_student_of_another_class_gets_not_found(client, world):
    sign_in(client, world["stranger"])
    for method, url in student_urls(world):
        assert getattr(client, method)(url).status_code == 404, url
    assert not SessionPresence.objects.exists()


def test_the_classes_teacher_reaches_every_page(client, world):
    sign_in(client, world["teacher"])
    for method, url in teacher_urls(world):
        if method == "get":
            assert client.get(url).status_code == 200, url


# --- the new-session form ------------------------------------------------------------------------


def create_url(classroom):
    return reverse("classroom:sessions_create", args=[classroom.pk])


def test_the_form_offers_every_variant_with_its_options(client, world):
    sign_in(client, world["teacher"])
    page = client.get(create_url(world["classroom"])).content.decode()
    for key in (
        "mia:canada47",
        "mia:solo3",
        "mia:express",
        "sum:standard",
        "add_or_multiply:standard",
    ):
        assert f'value="{key}"' in page
        assert f'data-variant="{key}"' in page
    assert 'name="opt__mia__canada47__target"' in page and 'value="47"' in page
    assert 'data-min-players="1" data-max-players="1"' in page  # the solo square
    assert "Canada 47 (first to the target wins) (2 to 6 players)" in page


def test_opening_a_lobby(client, world):
    sign_in(client, world["teacher"])
    response = client.post(
        create_url(world["classroom"]),
        {
            "variant": "mia:canada47",
            "table_size": "3",
            "bot_level": "strong",
            "opt__mia__canada47__target": "30",
            "opt__mia__canada47__pass_timeout_seconds": "25",
            "opt__mia__express__target": "not even a field",
            "opt__mia__express__pass_timeout_seconds": "-5",  # another variant's: ignored
        },
    )
    session = ClassSession.objects.latest("id")
    assert response.status_code == 302
    assert response["Location"] == reverse("classroom:sessions_detail", args=[session.pk])
    assert (session.game, session.variant, session.table_size, session.bot_level) == (
        "mia",
        "canada47",
        3,
        "strong",
    )
    assert session.options["target"] == 30 and session.options["pass_timeout_seconds"] == 25
    assert session.status == ClassSession.Status.LOBBY


def test_a_solo_variant_gets_tables_of_one(client, world):
    sign_in(client, world["teacher"])
    client.post(
        create_url(world["classroom"]),
        {"variant": "mia:solo3", "table_size": "4", "bot_level": "easy"},
    )
    session = ClassSession.objects.latest("id")
    assert (session.variant, session.table_size) == ("solo3", 1)


def test_the_engine_refusing_the_table_size_is_a_form_error(client, world):
    sign_in(client, world["teacher"])
    before = ClassSession.objects.count()
    response = client.post(
        create_url(world["classroom"]),
        {"variant": "add_or_multiply:standard", "table_size": "4", "bot_level": "easy"},
    )
    assert response.status_code == 200
    assert "Add or Multiply? is played by exactly 3 players." in response.content.decode()
    assert ClassSession.objects.count() == before


def test_an_option_out_of_range_is_a_form_error(client, world):
    sign_in(client, world["teacher"])
    response = client.post(
        create_url(world["classroom"]),
        {
            "variant": "mia:canada47",
            "table_size": "3",
            "bot_level": "easy",
            "opt__mia__canada47__target": "5",
        },
    )
    assert response.status_code == 200
    assert "greater than or equal to 10" in response.content.decode()
    assert ClassSession.objects.count() == 1  # the fixture's


# --- the teacher's session page ------------------------------------------------------------------


def test_the_lobby_page_shows_who_is_present(client, world):
    session = world["session"]
    services.session_join(session=session, student=world["ben"])
    sign_in(client, world["teacher"])
    page = client.get(reverse("classroom:sessions_detail", args=[session.pk])).content.decode()
    assert "1 student in the lobby" in page and "Student 02" in page
    assert "Start the game" in page
    assert f'data-socket="/ws/session/{session.pk}/"' in page
    live = client.get(reverse("classroom:sessions_live", args=[session.pk])).content.decode()
    assert "Student 02" in live and "<html" not in live


def test_deal_move_start_and_end_through_the_pages(client, world):
    session = world["session"]
    for student in (world["ana"], world["ben"]):
        services.session_join(session=session, student=student)
    sign_in(client, world["teacher"])
    detail = reverse("classroom:sessions_detail", args=[session.pk])

    assert client.post(reverse("classroom:sessions_deal", args=[session.pk])).status_code == 302
    page = client.get(detail).content.decode()
    move_page = reverse("classroom:sessions_move_page", args=[session.pk, world["ana"].pk])
    assert f'href="{move_page}"' in page
    page = client.get(move_page).content.decode()
    assert "Move Student 01 to" in page and "Table 1, seat 2 (Student 02)" in page
    response = client.post(
        reverse("classroom:sessions_move", args=[session.pk]),
        {"student": world["ana"].pk, "place": "2:0"},
    )
    assert response.status_code == 302
    page = client.get(detail).content.decode()
    assert "The student was moved." in page
    page = client.get(move_page).content.decode()
    assert "A new table (3)" in page  # two tables now: a third can be opened

    response = client.post(reverse("classroom:sessions_move", args=[session.pk]), {"place": "x"})
    assert "Choose where the student goes." in client.get(response["Location"]).content.decode()

    client.post(reverse("classroom:sessions_start", args=[session.pk]))
    session.refresh_from_db()
    assert session.status == ClassSession.Status.PLAYING
    page = client.get(detail).content.decode()
    assert "Live monitor" in page and "Projector view" in page
    assert Match.objects.filter(session_table__session=session).count() == 2
    for match in Match.objects.filter(session_table__session=session):
        assert reverse("games:watch", args=[match.pk]) in page

    client.post(reverse("classroom:sessions_end", args=[session.pk]))
    session.refresh_from_db()
    assert session.status == ClassSession.Status.ENDED
    assert not Match.objects.filter(status=Match.Status.PLAYING).exists()
    assert "End the session" not in client.get(detail).content.decode()


def test_starting_an_empty_lobby_says_why(client, world):
    sign_in(client, world["teacher"])
    response = client.post(reverse("classroom:sessions_start", args=[world["session"].pk]))
    assert (
        "No student has joined the lobby yet." in client.get(response["Location"]).content.decode()
    )


def test_late_arrivals_are_listed_and_seated(client, world):
    session = world["session"]
    services.session_join(session=session, student=world["ana"])
    services.session_start(session=session)
    services.session_join(session=session, student=world["ben"])
    sign_in(client, world["teacher"])
    page = client.get(reverse("classroom:sessions_detail", args=[session.pk])).content.decode()
    assert "Seat 1 late arrival" in page
    client.post(reverse("classroom:sessions_seat_late", args=[session.pk]))
    assert seat_of(session, world["ben"])[0].shown_label == "Table 2"


def test_the_projector_shows_tables_and_the_leaderboard_but_no_flags(client, world):
    _classroom, students, session = started_session(3, table_size=2)
    ana = students[0]
    match, seat = seat_of(session, ana)
    record_attempts(match, ana, seat, [("add.within10", False, 900)] * 5)
    sign_in(client, session.classroom.teacher)
    page = client.get(reverse("classroom:sessions_projector", args=[session.pk])).content.decode()
    assert "Top 10" in page and "Table 1" in page and "Table 2" in page
    assert "Student 01" in page
    assert "Low accuracy" not in page  # the class sees the projector
    detail = client.get(reverse("classroom:sessions_detail", args=[session.pk])).content.decode()
    assert "Low accuracy (0%)" in detail and "1 student needs help." in detail


def test_the_projector_has_no_site_chrome_and_shows_how_to_join(client):
    _classroom, _students, session = joined_session(3, table_size=2)
    sign_in(client, session.classroom.teacher)
    url = reverse("classroom:sessions_projector", args=[session.pk])
    page = client.get(url).content.decode()
    code = session.classroom.code
    assert 'class="site-header"' not in page and "Sign out" not in page
    assert f">{code}</p>" in page
    join_url = "http://testserver" + reverse("classroom:student_login_roster", args=[code])
    assert f'data-join-url="{join_url}"' in page and "<svg" in page
    # The QR code on the page opens that very address.
    matrix = segno.make(join_url, error="m", micro=False)
    assert matrix.svg_inline(scale=6, border=2, dark="#1a202c", light="#ffffff") in page
    # Once the game is under way the code is one line for late arrivals, and the QR code makes
    # room for the leaderboard and the tables.
    services.session_start(session=session)
    page = client.get(url).content.decode()
    assert f"{code}</strong>" in page and "/student/</bdi></strong>" in page
    assert "<svg" not in page and "data-join-url" not in page


def test_the_projector_ranks_by_the_games_points_and_ends_with_a_podium(client):
    _classroom, students, session = started_session(4, table_size=2)
    ana = students[0]
    ana_match, _ = seat_of(session, ana)
    finish_match_by_bots(ana_match, seed=3)
    ana_match.refresh_from_db()
    services.session_end(session=session)
    sign_in(client, session.classroom.teacher)
    snapshot = selectors.session_monitor(session=session)
    board = snapshot["leaderboard"]
    points = [row["points"] for row in board]
    assert points == sorted(points, reverse=True)
    scores = dict(
        zip(
            [seat.user_id for seat in ana_match.seats.order_by("index")],
            ana_match.outcome["scores"],
            strict=True,
        )
    )
    assert {row["id"]: row["points"] for row in board if row["id"] in scores} == scores
    page = client.get(reverse("classroom:sessions_projector", args=[session.pk])).content.decode()
    assert "Well played, everyone!" in page and "data-podium" in page
    assert "4 players" in page and "2 tables" in page


# --- students ------------------------------------------------------------------------------------


def test_the_home_page_shows_an_open_session_with_a_join_button(client, world):
    sign_in(client, world["ana"])
    page = client.get(reverse("classroom:student_home")).content.decode()
    join = reverse("classroom:sessions_join", args=[world["session"].pk])
    assert f'action="{join}"' in page and "Join" in page
    assert 'data-socket="/ws/student/"' in page


def test_joining_leads_to_the_waiting_room_then_the_table(client, world):
    session = world["session"]
    sign_in(client, world["ana"])
    response = client.post(reverse("classroom:sessions_join", args=[session.pk]))
    lobby = reverse("classroom:sessions_lobby", args=[session.pk])
    assert response["Location"] == lobby
    assert SessionPresence.objects.filter(session=session, student=world["ana"]).exists()
    assert "Wait for your teacher to start the game." in client.get(lobby).content.decode()
    services.session_start(session=session)
    match, _seat = seat_of(session, world["ana"])
    assert client.get(lobby)["Location"] == reverse("games:play", args=[match.pk])
    page = client.get(reverse("classroom:student_home")).content.decode()
    assert reverse("games:play", args=[match.pk]) in page and "Go to your table" in page


def test_joining_an_ended_session_says_so(client, world):
    services.session_end(session=world["session"])
    sign_in(client, world["ana"])
    response = client.post(reverse("classroom:sessions_join", args=[world["session"].pk]))
    assert response["Location"] == reverse("classroom:student_home")
    assert "This game session has ended." in client.get(response["Location"]).content.decode()


# --- query counts --------------------------------------------------------------------------------


def a_busy_session(size):
    _classroom, students, session = started_session(size, table_size=4)
    for student in students:
        match, seat = seat_of(session, student)
        record_attempts(match, student, seat, [("add.within10", True, 800)] * 2)
    late = make_student(session.classroom, "Late")
    services.session_join(session=session, student=late)
    return session


PAGES_PLAYING = [
    # name, queries: the auth session, the user, the session, then the monitor's seven; the
    # teacher's own pages add the record of access (docs/privacy.md): whether the hour's row is
    # there, and (here, the first look) the row
    ("sessions_detail", 12),
    ("sessions_live", 12),
    ("sessions_projector", 10),
    ("sessions_projector_live", 10),
]


@pytest.mark.parametrize("size", [3, 30])
@pytest.mark.parametrize(("name", "queries"), PAGES_PLAYING)
def test_session_pages_read_as_many_queries_for_3_as_for_30_students(
    client, size, name, queries, django_assert_num_queries
):
    session = a_busy_session(size)
    sign_in(client, session.classroom.teacher)
    url = reverse(f"classroom:{name}", args=[session.pk])
    with django_assert_num_queries(queries):
        response = client.get(url)
    assert response.status_code == 200
    assert response.content.decode().count("Student ") >= size


@pytest.mark.parametrize("size", [3, 30])
def test_the_lobby_page_reads_as_many_queries_for_3_as_for_30_students(
    client, size, django_assert_num_queries
):
    _classroom, _students, session = joined_session(size, table_size=4)
    services.session_deal(session=session)
    sign_in(client, session.classroom.teacher)
    # the auth session, the user, the session, presences, tables, places (no match yet), the
    # students not in the lobby, the facts kept for this session ("practise these facts")
    with django_assert_num_queries(8):
        response = client.get(reverse("classroom:sessions_detail", args=[session.pk]))
    page = response.content.decode()
    assert page.count("data-seat-of=") == size
    # Each student's controls are a link and a button: the page grows with the class, not with
    # its square (a list of every place beside every student was 48 MB for 900).
    assert page.split("data-live-region", 1)[1].count("<option") == 0


def test_the_lobby_sends_a_student_back_locks_out_newcomers_and_names_who_is_missing(client):
    classroom, students, session = joined_session(3, table_size=2)
    late = make_student(classroom, "Student 04")
    services.session_deal(session=session)
    sign_in(client, classroom.teacher)
    detail = reverse("classroom:sessions_detail", args=[session.pk])
    page = client.get(detail).content.decode()
    assert "Not here yet (1):" in page and "Student 04" in page
    client.post(
        reverse("classroom:sessions_unseat", args=[session.pk]), {"student": students[0].pk}
    )
    assert not SessionPlace.objects.filter(student=students[0]).exists()
    assert SessionPresence.objects.filter(session=session, student=students[0]).exists()
    assert "(no seat yet)" in client.get(detail).content.decode()
    client.post(reverse("classroom:sessions_lock", args=[session.pk]), {"locked": "1"})
    with pytest.raises(services.SessionError) as refused:
        services.session_join(session=session, student=late)
    assert refused.value.code == "lobby_locked"
    services.session_join(session=session, student=students[1])  # already in: still welcome
    client.post(reverse("classroom:sessions_lock", args=[session.pk]), {"locked": "0"})
    services.session_join(session=session, student=late)
    # The start seats the student sent back, like any other.
    services.session_start(session=session)
    assert seat_of(session, students[0])[0].status == Match.Status.PLAYING


@pytest.mark.parametrize("size", [3, 30])
def test_the_sessions_list_reads_as_many_queries_for_3_as_for_30_students(
    client, size, django_assert_num_queries
):
    classroom, _students, _session = started_session(size, table_size=4)
    make_session(classroom)
    sign_in(client, classroom.teacher)
    with django_assert_num_queries(4):
        response = client.get(reverse("classroom:sessions_list", args=[classroom.pk]))
    page = response.content.decode()
    assert page.count("/teacher/sessions/") >= 2


@pytest.mark.parametrize("size", [3, 30])
def test_the_students_open_sessions_read_two_queries_whatever_the_class(
    size, django_assert_num_queries
):
    from classroom.sessions.selectors import student_open_sessions

    classroom, students, _session = started_session(size, table_size=4)
    make_session(classroom)
    with django_assert_num_queries(2):
        sessions = student_open_sessions(student=students[0])
    assert [s["status"] for s in sessions] == ["playing", "lobby"]
    assert sessions[0]["play_url"] and sessions[1]["play_url"] is None


def test_the_teachers_session_pages_go_out_compressed(client):
    _classroom, _students, session = joined_session(6, table_size=2)
    services.session_deal(session=session)
    sign_in(client, session.classroom.teacher)
    for name in TEACHER_GETS:
        response = client.get(
            reverse(f"classroom:{name}", args=[session.pk]), HTTP_ACCEPT_ENCODING="gzip"
        )
        assert response["Content-Encoding"] == "gzip", name


def test_only_the_classes_teacher_opens_a_students_move_page(client, world):
    session = world["session"]
    services.session_join(session=session, student=world["ana"])
    services.session_deal(session=session)
    url = reverse("classroom:sessions_move_page", args=[session.pk, world["ana"].pk])
    sign_in(client, world["other_teacher"])
    assert client.get(url).status_code == 404
    sign_in(client, world["ana"])
    assert client.get(url).status_code == 403
    sign_in(client, world["teacher"])
    assert client.get(url).status_code == 200


def test_a_table_is_named_in_the_readers_language_not_the_starting_teachers(client):
    from django.utils import translation

    _classroom, students, session = joined_session(2, table_size=2)
    with translation.override("es"):  # the teacher runs the site in Spanish
        services.session_start(session=session)
    match, _seat = seat_of(session, students[0])
    sign_in(client, students[0])
    play = reverse("games:play", args=[match.pk])
    assert '<p class="play-label">Table 1</p>' in client.get(play).content.decode()
    spanish = client.get(play, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<p class="play-label">Mesa 1</p>' in spanish


def test_the_live_part_of_the_tables_that_moved_holds_only_them_and_who_answered(client):
    _classroom, students, session = started_session(6, table_size=2)
    ana = students[0]
    match, seat = seat_of(session, ana)
    record_attempts(match, ana, seat, [("add.within10", False, 900)] * 5)
    sign_in(client, session.classroom.teacher)
    live = reverse("classroom:sessions_live", args=[session.pk])
    table_number = SessionPlace.objects.get(student=ana, table__session=session).table.number

    def parts_of(query):
        response = client.get(f"{live}?{query}")
        return response, re.findall(r'<template data-part="([^"]+)">', response.content.decode())

    before = time.time() * 1000
    response, names = parts_of(f"tables={match.pk}&answered={match.pk}:{seat}")
    assert before <= int(response["X-As-Of"]) <= time.time() * 1000
    assert sorted(names) == sorted(["help-summary", f"table-{table_number}", f"student-{ana.pk}"])
    parts = response.content.decode()
    assert "1 student needs help." in parts and "Low accuracy (0%)" in parts
    # "<match>:*": every seat of a quiet table (whose players' stalls grow).
    mates = SessionPlace.objects.filter(table__number=table_number, table__session=session)
    _response, names = parts_of(f"tables={match.pk}&answered={match.pk}:*")
    assert sorted(names) == sorted(
        ["help-summary", f"table-{table_number}"] + [f"student-{p.student_id}" for p in mates]
    )
    # Each part is the element of the whole page with the same data-part, as rendered there.
    whole = client.get(live).content.decode()
    for name in names:
        assert f'data-part="{name}"' in whole
    # Anything but lists of ids is the whole part again.
    for asked in (
        "tables=",
        "tables=x",
        "tables=1,,2",
        "tables=²",
        "tables=" + "1," * 1001 + "1",
        "tables=" + "9" * 19,
        "tables=" + "1" * 5000,
    ):
        whole_again = client.get(f"{live}?{asked}")
        assert whole_again.status_code == 200 and "<template" not in whole_again.content.decode()
    for asked in ("1", "1:x", "1:2:3", "²:1", "9" * 19 + ":0", "1" * 5000 + ":0"):
        whole_again = client.get(f"{live}?tables={match.pk}&answered={asked}")
        assert whole_again.status_code == 200 and "<template" not in whole_again.content.decode()


def test_the_monitor_words_skills_and_rounds_seconds_as_the_progress_pages(client):
    """2.25 s is 2.3 s on the progress pages (halves up), a skill is "within 10" there, and a
    share reads "20%". One answer is "1 attempt", in every language's plural form."""
    _classroom, students, session = started_session(2, table_size=2)
    ana = students[0]
    match, seat = seat_of(session, ana)
    record_attempts(match, ana, seat, [("add.within10", True, 2250)])
    record_attempts(match, ana, seat, [("sub.within20", False, 2250)] * 4)
    sign_in(client, session.classroom.teacher)
    page = " ".join(
        client.get(reverse("classroom:sessions_detail", args=[session.pk])).content.decode().split()
    )
    assert "Addition within 10: 1 attempt, too few to judge, 2.3 s" in page
    assert "Subtraction within 20: 4 attempts, too few to judge, 2.3 s" in page
    assert "4 wrong in a row: Subtraction within 20" in page
    assert "<td>20%</td>" in page and "Low accuracy (20%)" in page
    assert "up to" not in page and " %" not in page


def test_a_lesson_of_add_or_multiply_with_numbers_to_ten_through_the_pages(client):
    """The platform's variant "numbers to 10" (docs/rules/add_or_multiply.md) as a teacher picks
    it for a lesson: the form names it as not the rulebook's, and the table's match deals every
    player one card of each number 0 to 10 (a child and two bots at a table of three)."""
    teacher = make_teacher()
    classroom = make_class(teacher)
    ana = make_student(classroom, "Ana")
    client.force_login(teacher)
    form = client.get(reverse("classroom:sessions_create", args=[classroom.pk])).content.decode()
    assert 'value="add_or_multiply:to_ten"' in form
    assert "Numbers to 10 (a card of each number from 0 to 10; not in the rulebook)" in form
    response = client.post(
        reverse("classroom:sessions_create", args=[classroom.pk]),
        {"variant": "add_or_multiply:to_ten", "table_size": 3, "bot_level": "easy"},
    )
    assert response.status_code == 302
    session = classroom.sessions.get()
    assert (session.game, session.variant) == ("add_or_multiply", "to_ten")
    services.session_join(session=session, student=ana)
    client.post(reverse("classroom:sessions_start", args=[session.pk]))
    match = Match.objects.get(session_table__session=session)
    assert (match.game, match.variant) == ("add_or_multiply", "to_ten")
    state = get_game("add_or_multiply").load(match.state)
    assert all(sorted(hand) == list(range(11)) for hand in state.data["numbers"])
