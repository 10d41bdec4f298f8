"""Seating by level (issue 25, item 4): with the teacher's "Seat children of similar level
together", a deal orders the present children by their level at the session's game
(classroom.progress.levels.levels_in_game) and seats neighbours together; without it the deal
is round-robin in joining order, as before."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from classroom.models import SessionPlace
from classroom.progress.levels import levels_in_game
from classroom.roster.services import student_accommodations_set
from classroom.sessions import services
from tests.factories import make_attempts, make_class, make_session, make_student

pytestmark = pytest.mark.django_db

FACTS = [(3, "+", 4), (5, "+", 2), (6, "+", 3), (8, "-", 3), (9, "-", 4)]


def history(student, right, wrong, ms=1500, game="mia"):
    """``right`` right and ``wrong`` wrong answers on FACTS, over the last days."""
    now = timezone.now()
    answers = []
    for i in range(right + wrong):
        a, op, b = FACTS[i % len(FACTS)]
        value = a + b if op == "+" else a - b
        answer = value if i < right else value + 1
        answers.append((a, op, b, answer, ms, now - timedelta(days=i % 3, minutes=i)))
    make_attempts(student, answers, game=game)


def a_lesson(names, table_size=3):
    classroom = make_class()
    students = {name: make_student(classroom, name) for name in names}
    session = make_session(classroom, game="mia", variant="express", table_size=table_size)
    for student in students.values():
        services.session_join(session=session, student=student)
    return classroom, students, session


def tables_of(session):
    """{student name: table number}."""
    return {
        place.student.display_name: place.table.number
        for place in SessionPlace.objects.filter(table__session=session).select_related(
            "table", "student"
        )
    }


# Joined strong, middling, weak, in turn: a round-robin deal mixes them at every table.
NAMES = ["Sol", "Mia", "Wil", "Sam", "Max", "Wes", "Sue", "Meg", "Wyn"]
STRONG, MIDDLE, WEAK = {"Sol", "Sam", "Sue"}, {"Mia", "Max", "Meg"}, {"Wil", "Wes", "Wyn"}


def scripted(students):
    for name, student in students.items():
        if name in STRONG:
            history(student, right=20, wrong=0)
        elif name in MIDDLE:
            history(student, right=14, wrong=6)
        else:
            history(student, right=4, wrong=16, ms=6000)


def test_the_deal_seats_children_of_similar_level_together(client):
    classroom, students, session = a_lesson(NAMES)
    scripted(students)
    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:sessions_detail", args=[session.pk])).content.decode()
    assert 'name="seat_by_level"' in page and "Seat children of similar level together" in page
    client.post(reverse("classroom:sessions_deal", args=[session.pk]), {"seat_by_level": "on"})
    session.refresh_from_db()
    assert session.seat_by_level
    tables = tables_of(session)
    assert len({tables[n] for n in STRONG}) == 1  # the strongest share a table
    assert len({tables[n] for n in WEAK}) == 1  # the weakest share another
    assert len({tables[n] for n in MIDDLE}) == 1
    assert tables["Sol"] == 1 and tables["Wil"] == 3  # strongest first
    # The option is kept: the page shows it ticked, and dealing again keeps it.
    page = client.get(reverse("classroom:sessions_detail", args=[session.pk])).content.decode()
    assert 'name="seat_by_level" checked' in page
    services.session_deal(session=session)
    assert tables_of(session) == tables


def test_without_the_option_the_deal_is_round_robin_as_before(client):
    classroom, students, session = a_lesson(NAMES)
    scripted(students)
    client.force_login(classroom.teacher)
    client.post(reverse("classroom:sessions_deal", args=[session.pk]), {})
    session.refresh_from_db()
    assert not session.seat_by_level
    tables = tables_of(session)
    assert [tables[name] for name in NAMES] == [1, 2, 3] * 3
    # Ticked, then unticked: round-robin again.
    client.post(reverse("classroom:sessions_deal", args=[session.pk]), {"seat_by_level": "on"})
    client.post(reverse("classroom:sessions_deal", args=[session.pk]), {})
    assert tables_of(session) == tables


def test_children_with_no_answers_yet_sit_with_the_weakest_and_sizes_stay_within_one():
    names = ["Sol", "New", "Wil", "Sam", "Ned", "Wes", "Sue"]  # 7 at tables of 3: 3, 2, 2
    _classroom, students, session = a_lesson(names)
    for name in ("Sol", "Sam", "Sue"):
        history(students[name], right=20, wrong=0)
    for name in ("Wil", "Wes"):
        history(students[name], right=4, wrong=16, ms=6000)
    services.session_deal(session=session, seat_by_level=True)
    tables = tables_of(session)
    sizes = sorted(list(tables.values()).count(n) for n in set(tables.values()))
    assert sizes == [2, 2, 3]
    assert {tables["Sol"], tables["Sam"], tables["Sue"]} == {1}
    assert tables["Wil"] == tables["Wes"] == 2
    assert tables["New"] == tables["Ned"] == 3  # no figures: last, after the weakest


def test_answers_in_other_games_on_the_games_skills_count_and_calm_tables_stay_apart():
    names = ["Sol", "Wil", "Cal", "Sam", "Wes", "Cat"]
    _classroom, students, session = a_lesson(names, table_size=2)
    history(students["Sol"], right=20, wrong=0)
    history(students["Sam"], right=20, wrong=0, game="sum")  # the same facts, another game
    history(students["Wil"], right=4, wrong=16)
    history(students["Wes"], right=4, wrong=16, game="sum")
    history(students["Cal"], right=20, wrong=0)
    history(students["Cat"], right=4, wrong=16)
    for name in ("Cal", "Cat"):
        student_accommodations_set(student=students[name], calm_table=True)
    services.session_deal(session=session, calm_together=True, seat_by_level=True)
    tables = tables_of(session)
    assert tables["Sol"] == tables["Sam"] == 1
    assert tables["Wil"] == tables["Wes"] == 2
    assert tables["Cal"] == tables["Cat"] == 3  # the calm table, apart from the others


def test_the_levels_of_a_class_take_a_fixed_number_of_queries():
    classroom = make_class()
    students = [make_student(classroom, f"S{i}") for i in range(8)]
    for i, student in enumerate(students):
        history(student, right=10 + i, wrong=10 - i)
    ids = [s.pk for s in students]
    with CaptureQueriesContext(connection) as queries:
        levels = levels_in_game(student_ids=ids, game="mia")
    assert len(queries) <= 3
    assert sorted(ids, key=lambda sid: levels[sid]) == ids  # more right, higher level


def test_bots_at_each_tables_level_follow_its_least_sure_child(client):
    """The lesson's "bots at each table's level": seated by level, the strong children's table
    meets strong bots and the weakest children's table beginners (issue 25, item 5)."""
    names = [name for name in NAMES if name in STRONG | WEAK]
    classroom, students, session = a_lesson(names, table_size=4)
    scripted(students)
    session.bot_level = "table"
    session.save(update_fields=["bot_level"])
    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:sessions_create", args=[classroom.pk])).content.decode()
    assert 'value="table"' in page
    services.session_deal(session=session, seat_by_level=True)
    services.session_start(session=session)
    levels = {}
    for place in SessionPlace.objects.filter(table__session=session).select_related(
        "table__match", "student"
    ):
        bots = {seat.bot_level for seat in place.table.match.seats.exclude(bot_level="")}
        levels[place.student.display_name] = bots
    assert {name: levels[name] for name in STRONG} == {name: {"strong"} for name in STRONG}
    assert {name: levels[name] for name in WEAK} == {name: {"random"} for name in WEAK}


def test_a_tables_bots_are_as_sure_as_its_least_sure_child():
    from classroom.bots import table_level

    assert table_level([3.5, 3.2]) == "strong"
    assert table_level([3.5, 2.0]) == "easy"
    assert table_level([3.5, None]) == "random"  # a child with no figures yet is a beginner
    assert table_level([]) == "random"


def test_a_lesson_refuses_a_bots_level_it_does_not_know():
    classroom = make_class()
    with pytest.raises(services.SessionError):
        services.session_open(
            classroom=classroom, game="mia", variant="express", table_size=3, bot_level="genius"
        )
    session = services.session_open(
        classroom=classroom, game="mia", variant="express", table_size=3, bot_level="table"
    )
    assert session.bot_level == "table"


def test_a_child_who_joins_after_the_deal_sits_at_the_table_of_their_level():
    """Seated by level, a newcomer in the lobby gets a free seat at the table whose children's
    level is nearest theirs, not the emptiest table's (which, dealt in runs, is the first: the
    strongest)."""
    names = ["Sol", "Sam", "Wil", "Wes"]
    classroom, students, session = a_lesson(names, table_size=3)
    for name in ("Sol", "Sam"):
        history(students[name], right=20, wrong=0)
    for name in ("Wil", "Wes"):
        history(students[name], right=4, wrong=16, ms=6000)
    services.session_deal(session=session, seat_by_level=True)
    assert tables_of(session) == {"Sol": 1, "Sam": 1, "Wil": 2, "Wes": 2}
    late_weak = make_student(classroom, "Wyn")
    history(late_weak, right=3, wrong=17, ms=6000)
    services.session_join(session=session, student=late_weak)
    assert tables_of(session)["Wyn"] == 2
    late_strong = make_student(classroom, "Sue")
    history(late_strong, right=20, wrong=0)
    services.session_join(session=session, student=late_strong)
    assert tables_of(session)["Sue"] == 1


def test_without_seating_by_level_a_newcomer_takes_the_emptiest_table():
    names = ["Sol", "Sam", "Wil"]
    classroom, _students, session = a_lesson(names, table_size=2)
    services.session_deal(session=session)
    emptiest = 2  # three children at tables of two: 2 and 1
    late = make_student(classroom, "Wyn")
    history(late, right=20, wrong=0)
    services.session_join(session=session, student=late)
    assert tables_of(session)["Wyn"] == emptiest


def sizes_of(tables):
    """The tables' sizes, biggest first, from {name: table number}."""
    return sorted((list(tables.values()).count(n) for n in set(tables.values())), reverse=True)


@pytest.mark.parametrize(
    ("calm", "together"),
    [
        # Two who need a calm table, at tables of three: one table holds both.
        (("Cal", "Cat"), [("Cal", "Cat")]),
        # Four: three at one table, the fourth at the other (it plays calm too).
        (("Cal", "Cat", "Cy", "Cid"), [("Cal", "Cat", "Cy")]),
    ],
)
def test_calm_children_sit_together_at_the_tables_the_class_needs(client, calm, together):
    # Six children at tables of three: two full tables, with the option as without it (the
    # option once dealt 2 + 2 + 2, the calm children at two tables and a bot at every table).
    names = ["Ana", "Cal", "Ben", "Cat", *[name for name in ("Cy", "Cid") if name in calm]]
    names += ["Dan", "Eva"][: 6 - len(names)]
    classroom, students, session = a_lesson(names)
    for name in calm:
        student_accommodations_set(student=students[name], calm_table=True)
    client.force_login(classroom.teacher)
    client.post(reverse("classroom:sessions_deal", args=[session.pk]), {"calm_together": "on"})
    tables = tables_of(session)
    assert sizes_of(tables) == [3, 3]
    for group in together:
        assert len({tables[name] for name in group}) == 1
    calm_tables = {tables[name] for name in calm}
    assert len(calm_tables) == 1 + (len(calm) > 3)  # as few tables as hold them
    # The start seats them as dealt, and every table with a calm child plays calm.
    services.session_start(session=session)
    for place in SessionPlace.objects.filter(table__session=session).select_related("table"):
        match = place.table.match
        assert bool(match.options.get("calm")) is (place.table.number in calm_tables)
        assert match.seats.filter(user__isnull=True).count() == 0  # no bot at any table


def test_calm_children_fill_the_smallest_table_that_holds_them_and_newcomers_join_them():
    # Seven at tables of three: tables of 3, 2 and 2. The two calm children take a table of two
    # to themselves; the five others the tables of three and two.
    names = ["Ana", "Cal", "Ben", "Cat", "Dan", "Eva", "Fay"]
    _classroom, students, session = a_lesson(names)
    for name in ("Cal", "Cat"):
        student_accommodations_set(student=students[name], calm_table=True)
    services.session_deal(session=session, calm_together=True)
    tables = tables_of(session)
    assert sizes_of(tables) == [3, 2, 2]
    assert tables["Cal"] == tables["Cat"] == 3  # after the others' tables
    assert [name for name, number in tables.items() if number == 3] == ["Cal", "Cat"]
    # A newcomer who needs calm joins them; one who does not, a table without them.
    classroom = session.classroom
    cy = make_student(classroom, "Cy")
    student_accommodations_set(student=cy, calm_table=True)
    services.session_join(session=session, student=cy)
    gus = make_student(classroom, "Gus")
    services.session_join(session=session, student=gus)
    tables = tables_of(session)
    assert tables["Cy"] == 3 and tables["Gus"] == 2
    # Every table full: the next calm newcomer opens a table of their own; then a child who
    # needs no calm table takes a free seat there rather than open one more.
    cid = make_student(classroom, "Cid")
    student_accommodations_set(student=cid, calm_table=True)
    services.session_join(session=session, student=cid)
    hal = make_student(classroom, "Hal")
    services.session_join(session=session, student=hal)
    tables = tables_of(session)
    assert tables["Cid"] == tables["Hal"] == 4
