"""A session's life after the start (issue 15): it finishes by itself when every table has ended,
the teacher may play another round at the same tables, ending asks first, and the deal's message
is true."""

import random

import pytest
from django.urls import reverse

import engine
from classroom.models import ClassSession, SessionPlace, SessionTable
from classroom.sessions import selectors, services
from games.models import Match
from games.services import match_abandon, submit_move
from tests.classroom.sessions_helpers import joined_session, seat_of, started_session
from tests.factories import make_student

GAME = {"game": "add_up", "variant": "no_jokers"}


def play_to_the_end(match: Match) -> None:
    """Every move through games.services, as the table's students would make them (easy bots'
    choices), until the engine says the game is over."""
    rules = engine.get_game(match.game)
    users = {seat.index: seat.user for seat in match.seats.all()}
    choose = random.Random(match.pk)
    for _ in range(2_000):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return
        state = rules.load(match.state)
        seat = min(rules.active(state))
        move = engine.bots.choose(rules, state, seat, "easy", choose)
        submit_move(match_id=match.pk, user=users[seat], move=move)
    raise AssertionError("the game did not end")


@pytest.mark.django_db(transaction=True)
def test_a_session_ends_by_itself_when_its_last_table_has_ended():
    _classroom, students, session = started_session(6, table_size=2, **GAME)
    tables = [seat_of(session, student)[0] for student in students[:3]]
    assert len({t.pk for t in tables}) == 3
    play_to_the_end(tables[0])
    session.refresh_from_db()
    assert session.status == ClassSession.Status.PLAYING
    match_abandon(match_id=tables[1].pk)  # the teacher stopped one table: it has ended too
    session.refresh_from_db()
    assert session.status == ClassSession.Status.PLAYING
    assert selectors.student_open_sessions(student=students[2])
    play_to_the_end(tables[2])
    session.refresh_from_db()
    assert session.status == ClassSession.Status.ENDED and session.ended_at is not None
    # The students' home pages no longer offer "Go to your table".
    assert selectors.student_open_sessions(student=students[2]) == []


@pytest.mark.django_db
def test_finishing_leaves_a_session_with_a_table_playing_alone():
    _classroom, _students, session = started_session(4, table_size=2, **GAME)
    assert services.session_finish_if_done(session_id=session.pk) is False
    lobby = joined_session(2, **GAME)[2]
    assert services.session_finish_if_done(session_id=lobby.pk) is False
    lobby.refresh_from_db()
    assert lobby.status == ClassSession.Status.LOBBY


@pytest.mark.django_db
def test_another_round_seats_everyone_where_they_sat_and_starts():
    _classroom, students, session = started_session(5, table_size=2, **GAME)
    with pytest.raises(services.SessionError) as refused:
        services.session_next_round(session=session)
    assert refused.value.code == "not_ended"
    services.session_end(session=session)
    before = sorted(
        SessionPlace.objects.filter(table__session=session).values_list(
            "table__number", "seat", "student_id"
        )
    )
    following = services.session_next_round(session=session)
    assert following.pk != session.pk and following.status == ClassSession.Status.PLAYING
    assert (following.game, following.variant, following.table_size) == (
        session.game,
        session.variant,
        session.table_size,
    )
    after = sorted(
        SessionPlace.objects.filter(table__session=following).values_list(
            "table__number", "seat", "student_id"
        )
    )
    assert after == before
    for student in students:
        match, _seat = seat_of(following, student)
        assert match.status == Match.Status.PLAYING
    assert {s["id"] for s in selectors.student_open_sessions(student=students[0])} == {following.pk}


@pytest.mark.django_db
def test_ending_asks_first_and_says_how_many_tables_stop(client):
    classroom, _students, session = started_session(4, table_size=2, **GAME)
    client.force_login(classroom.teacher)
    url = reverse("classroom:sessions_end", args=[session.pk])
    detail = client.get(reverse("classroom:sessions_detail", args=[session.pk])).content.decode()
    assert f'href="{url}"' in detail and "button-danger" in detail
    page = client.get(url).content.decode()
    assert "End the session?" in page and "2 tables are still playing" in page
    session.refresh_from_db()
    assert session.status == ClassSession.Status.PLAYING  # asking changed nothing
    client.post(url)
    session.refresh_from_db()
    assert session.status == ClassSession.Status.ENDED
    detail = client.get(reverse("classroom:sessions_detail", args=[session.pk])).content.decode()
    assert "Play another round" in detail
    response = client.post(reverse("classroom:sessions_next_round", args=[session.pk]))
    following = ClassSession.objects.exclude(pk=session.pk).get()
    assert response.url == reverse("classroom:sessions_detail", args=[following.pk])


@pytest.mark.django_db
def test_the_first_deal_is_not_called_dealt_again(client):
    classroom, _students, session = joined_session(3, table_size=2)
    client.force_login(classroom.teacher)
    url = reverse("classroom:sessions_deal", args=[session.pk])
    first = client.post(url, follow=True).content.decode()
    assert "The tables were dealt." in first and "dealt again" not in first
    second = client.post(url, follow=True).content.decode()
    assert "The tables were dealt again." in second


@pytest.mark.django_db
def test_pausing_a_session_pauses_every_table_and_added_time_goes_to_one(client):
    classroom, students, session = started_session(4, table_size=2)
    matches = [seat_of(session, s)[0] for s in (students[0], students[1])]
    client.force_login(classroom.teacher)
    client.post(reverse("classroom:sessions_pause", args=[session.pk]), {"paused": "1"})
    session.refresh_from_db()
    assert session.paused_at is not None
    for match in matches:
        match.refresh_from_db()
        assert match.paused_at_ms is not None
    detail = client.get(reverse("classroom:sessions_detail", args=[session.pk])).content.decode()
    assert "Resume every table" in detail
    # A late arrival's new table starts paused like the rest.
    late = make_student(classroom, "Student 05")
    services.session_join(session=session, student=late)
    services.session_seat_late_arrivals(session=session)
    assert seat_of(session, late)[0].paused_at_ms is not None
    client.post(reverse("classroom:sessions_pause", args=[session.pk]), {"paused": "0"})
    for match in matches:
        match.refresh_from_db()
        assert match.paused_at_ms is None
    before = matches[0].clock_offset_ms
    number = SessionTable.objects.get(match=matches[0]).number
    client.post(reverse("classroom:sessions_add_time", args=[session.pk]), {"table": number})
    matches[0].refresh_from_db()
    matches[1].refresh_from_db()
    assert matches[0].clock_offset_ms == before + 30_000
    assert matches[1].clock_offset_ms < 30_000


@pytest.mark.django_db
def test_the_lessons_controls_refuse_what_does_not_apply_and_change_nothing(client):
    classroom, students, lobby = joined_session(2, table_size=2)
    client.force_login(classroom.teacher)

    def post(name, session, data):
        url = reverse(f"classroom:{name}", args=[session.pk])
        return client.post(url, data, follow=True).content.decode()

    # Nobody is seated yet: nobody can be sent back to the lobby, whatever is posted.
    for student in (str(students[0].pk), "x", ""):
        assert "That student has no seat yet." in post(
            "sessions_unseat", lobby, {"student": student}
        )
    # A lobby is not playing: no pause, no added time.
    assert "The session is not playing." in post("sessions_pause", lobby, {"paused": "1"})
    assert "That table is not playing." in post("sessions_add_time", lobby, {"table": "1"})
    lobby.refresh_from_db()
    assert lobby.paused_at is None and lobby.status == ClassSession.Status.LOBBY
    # Playing: an unknown table gets no time; an ended session cannot be locked or paused.
    services.session_start(session=lobby)
    assert "That table is not playing." in post("sessions_add_time", lobby, {"table": "9"})
    assert "That table is not playing." in post("sessions_add_time", lobby, {"table": "one"})
    services.session_end(session=lobby)
    assert "This game session has ended." in post("sessions_lock", lobby, {"locked": "1"})
    assert "The session is not playing." in post("sessions_pause", lobby, {"paused": "1"})
    lobby.refresh_from_db()
    assert not lobby.lobby_locked and lobby.paused_at is None
    assert not Match.objects.filter(clock_offset_ms__gt=0).exists()


@pytest.mark.django_db
def test_another_teachers_table_is_not_offered_again(client):
    from tests.factories import make_class, make_match, make_teacher

    classroom, _students, _session = joined_session(2, table_size=2)
    stranger = make_teacher()
    theirs = make_match(
        game="mia", variant="canada47", players=[make_student(make_class(stranger), "Zed")],
        bots=["strong"], teacher=stranger,
    )  # fmt: skip
    client.force_login(classroom.teacher)
    url = reverse("classroom:match_new")
    page = client.get(
        url, {"variant": "mia:canada47", "classroom": classroom.pk, "again": theirs.pk}
    ).content.decode()
    # The form opens as for a new table: nothing of the other teacher's seats is filled in.
    seat = page.split('name="seat_0"', 1)[1].split("</select>", 1)[0]
    assert '<option value="" selected>' in seat and seat.count(" selected>") == 1
