"""The projector as the room sees it, second pass (issue "The live lesson, second pass", "The
projector"), below the page: bots named apart across the whole room by the dealing service, the
teacher's choice of names for the room against each child's own, the top places, nobody ranked
with no points and the class's total; the choice set through the teacher's form."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.public_names import name_others_see, told_apart
from classroom.roster.services import student_accommodations_set
from classroom.sessions import services
from classroom.sessions.selectors import session_monitor, session_title
from engine.core import Outcome, places
from games.models import Match, Seat
from tests.classroom.sessions_helpers import started_session
from tests.factories import (
    finish_match_by_bots,
    make_class,
    make_session,
    make_student,
    make_teacher,
)

pytestmark = pytest.mark.django_db


def lesson(names, table_size, **options):
    classroom = make_class(make_teacher())
    students = {name: make_student(classroom, name) for name in names}
    session = make_session(
        classroom, game="add_up", variant="no_jokers", table_size=table_size, **options
    )
    for student in students.values():
        services.session_join(session=session, student=student)
    return classroom, students, session


def bot_names(session) -> list[str]:
    return list(
        Seat.objects.filter(match__session_table__session=session)
        .exclude(bot_level="")
        .order_by("match__session_table__number", "index")
        .values_list("name", flat=True)
    )


def test_dealt_tables_bots_are_named_apart_across_the_room_and_on_the_monitor():
    # Five children at tables of three: two tables (three and two), then one child a table.
    _classroom, students, session = lesson(["Ana", "Ben", "Carla", "Dan", "Eva"], table_size=3)
    services.session_deal(session=session)
    for number, name in enumerate(["Ben", "Carla", "Dan", "Eva"], start=2):
        services.session_move(
            session=session, student_id=students[name].pk, table_number=number, seat=0
        )
    # Before the start, the monitor's preview already names the bots to come apart.
    lobby = [
        seat["name"]
        for table in session_monitor(session=session)["tables"]
        for seat in table["seats"]
        if seat["bot"]
    ]
    assert len(lobby) == 10 and len(set(lobby)) == 10
    services.session_start(session=session)
    names = bot_names(session)
    assert len(names) == 10 and len(set(names)) == 10, names
    # The monitor and the projector show the names the matches were made with.
    monitor = session_monitor(session=session)
    shown = [seat["name"] for table in monitor["tables"] for seat in table["seats"] if seat["bot"]]
    assert shown == names
    public = [
        seat["name"] for table in monitor["public_tables"] for seat in table["seats"] if seat["bot"]
    ]
    assert public == names


def test_late_arrivals_bots_are_named_after_the_rooms_others():
    classroom, _students, session = lesson(["Ana", "Ben"], table_size=3)
    services.session_start(session=session)
    before = bot_names(session)
    late = make_student(classroom, "Zoe")
    services.session_join(session=session, student=late)
    services.session_seat_late_arrivals(session=session)
    after = bot_names(session)
    assert after[: len(before)] == before
    assert len(after) == len(before) + 2 and len(set(after)) == len(after), after


def test_the_rooms_choice_of_names_and_the_childs_own_stricter_one():
    name = "Ana María Ruiz"
    assert name_others_see(name, "full", "full") == name
    assert name_others_see(name, "full", "first") == "Ana"
    assert name_others_see(name, "full", "initials") == "A. M. R."
    assert name_others_see(name, "initials", "first") == "A. M. R."
    assert name_others_see(name, "initials", "full") == "A. M. R."
    assert name_others_see(name, "hidden", "first") is None
    full = {1: "Ana Ruiz", 2: "Ana Mora", 3: "Ben", 4: "Ana"}
    shown = {key: name_others_see(value, "full", "first") for key, value in full.items()}
    assert told_apart(shown, full) == {1: "Ana R.", 2: "Ana M.", 3: "Ben", 4: "Ana"}


POINTS = {
    "Ana Ruiz": 30,
    "Ana Mora": 25,
    "Ben Soto": 20,
    "Carla Diaz": 18,
    "Dan Moreno": 15,
    "Eva Lind": 12,
    "Fran Gil": 10,
    "Gus Paz": 0,
}


def ended_round(**options):
    classroom, students, session = lesson(list(POINTS), table_size=2, **options)
    student_accommodations_set(student=students["Eva Lind"], public_name="hidden")
    student_accommodations_set(student=students["Carla Diaz"], public_name="initials")
    services.session_start(session=session)
    for match in Match.objects.filter(session_table__session=session):
        finish_match_by_bots(match, seed=7)
        seats = {seat.index: seat.user.display_name for seat in match.seats.all()}
        scores = [POINTS[seats[index]] for index in range(len(seats))]
        winners = [i for i, score in enumerate(scores) if score == max(scores)]
        match.outcome = {
            "scores": scores,
            "winners": winners,
            "places": places(Outcome(scores, winners)),
        }
        match.save()
    services.session_end(session=session)
    session.refresh_from_db()
    return classroom, session


def test_the_projectors_ranking_top_places_no_zero_and_the_class_total():
    _classroom, session = ended_round(projector_top=5)
    monitor = session_monitor(session=session)
    public = monitor["public_leaderboard"]
    assert [row["name"] for row in public] == ["Ana R.", "Ana M.", "Ben", "C. D.", "Dan"]
    assert [row["rank"] for row in public] == [1, 2, 3, 4, 5]
    assert monitor["class_total"] == sum(POINTS.values())
    # Everyone with points: Eva is not shown (her own choice), Gus has none.
    services.session_set_projector(session=session, names="full", top=0)
    session.refresh_from_db()
    public = session_monitor(session=session)["public_leaderboard"]
    assert [row["name"] for row in public] == [
        "Ana Ruiz",
        "Ana Mora",
        "Ben Soto",
        "C. D.",
        "Dan Moreno",
        "Fran Gil",
    ]
    # The teacher's full leaderboard still has everyone.
    assert len(session_monitor(session=session)["leaderboard"]) == len(POINTS)


def test_places_shared_at_the_last_of_the_top_are_all_shown():
    _classroom, session = ended_round(projector_top=5)
    Match.objects.filter(session_table__session=session)
    # Fran scores as much as Dan: both are 5th.
    match = Match.objects.get(seats__user__display_name="Fran Gil")
    fran = match.seats.get(user__display_name="Fran Gil").index
    match.outcome["scores"][fran] = 15
    match.save()
    public = session_monitor(session=session)["public_leaderboard"]
    assert [(row["name"], row["rank"]) for row in public][-2:] == [("Dan", 5), ("Fran", 5)]


def test_the_teacher_sets_the_projector_on_the_new_session_form_and_the_session_page(client):
    classroom = make_class(make_teacher())
    client.force_login(classroom.teacher)
    response = client.post(
        reverse("classroom:sessions_create", args=[classroom.pk]),
        {
            "variant": "add_up:no_jokers",
            "table_size": 2,
            "bot_level": "easy",
            "projector_names": "initials",
            "projector_top": "5",
        },
    )
    assert response.status_code == 302
    session = classroom.sessions.get()
    assert (session.projector_names, session.projector_top) == ("initials", 5)
    page = client.get(reverse("classroom:sessions_detail", args=[session.pk])).content.decode()
    assert "Names on the projector" in page
    url = reverse("classroom:sessions_projector_settings", args=[session.pk])
    client.post(url, {"projector_names": "full", "projector_top": "0"})
    session.refresh_from_db()
    assert (session.projector_names, session.projector_top) == ("full", 0)
    # A choice that is not one changes nothing.
    client.post(url, {"projector_names": "nicknames", "projector_top": "3"})
    session.refresh_from_db()
    assert (session.projector_names, session.projector_top) == ("full", 0)
    # Another teacher's session is not found.
    other = make_teacher(email="other@example.com")
    client.force_login(other)
    assert client.post(url, {"projector_names": "first", "projector_top": "5"}).status_code == 404


def test_the_projector_names_the_game_in_a_childs_words(client):
    _classroom, _students, session = started_session(2, game="mia", variant="express", table_size=2)
    client.force_login(session.classroom.teacher)
    page = client.get(reverse("classroom:sessions_projector", args=[session.pk])).content.decode()
    assert session_title(session, child=True) in page
    assert "the number deck runs out" not in page
