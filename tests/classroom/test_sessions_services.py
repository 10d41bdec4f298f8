"""classroom.sessions.services: opening, joining, dealing tables, moving, starting, late arrivals,
ending; and the monitor's figures and "needs help" flags (classroom.sessions.selectors)."""

from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import engine
from classroom.models import ClassSession, SessionPlace, SessionPresence, SessionTable
from classroom.sessions import selectors, services
from classroom.sessions.services import SessionError
from games.models import Attempt, Match, MoveRecord
from games.services import match_wake, submit_move
from tests.classroom.sessions_helpers import (
    a_class,
    any_move,
    joined_session,
    record_attempts,
    seat_of,
    started_session,
    wrong_claim,
)
from tests.factories import finish_match_by_bots, make_class, make_session, make_student

pytestmark = pytest.mark.django_db


def plan(session):
    """{table number: {seat: student name}} of the session's seating plan."""
    result = {}
    for place in SessionPlace.objects.filter(table__session=session).select_related(
        "table", "student"
    ):
        result.setdefault(place.table.number, {})[place.seat] = place.student.display_name
    return result


# --- opening -------------------------------------------------------------------------------------


def test_open_puts_the_session_in_the_lobby_with_the_engines_options():
    classroom = make_class()
    session = make_session(classroom, game="mia", variant="canada47", table_size=4)
    assert session.status == ClassSession.Status.LOBBY
    assert session.table_size == 4 and session.bot_level == "easy"
    assert session.options["target"] == 47  # the engine's default, stored resolved
    session = make_session(classroom, options={"target": 30}, bot_level="strong")
    assert session.options["target"] == 30 and session.bot_level == "strong"


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"variant": "no_such_variant"}, "unknown_variant"),
        ({"game": "chess", "variant": "standard"}, "unknown_game"),
        ({"table_size": 7}, "bad_players"),  # Canada 47 is for 2 to 6
        ({"variant": "solo3", "table_size": 2}, "bad_players"),
        ({"game": "add_or_multiply", "variant": "standard", "table_size": 4}, "bad_players"),
        ({"options": {"target": 5}}, "bad_option"),
        ({"options": {"colour": "red"}}, "unknown_option"),
    ],
)
def test_open_is_refused_when_the_engine_refuses(kwargs, code):
    classroom = make_class()
    with pytest.raises(engine.SetupError) as error:
        make_session(classroom, **kwargs)
    assert error.value.code == code
    assert not ClassSession.objects.exists()


def test_open_refuses_an_unknown_bot_level():
    with pytest.raises(SessionError) as error:
        make_session(make_class(), bot_level="genius")
    assert error.value.code == "bad_bot_level"


# --- joining -------------------------------------------------------------------------------------


def test_joining_records_presence_once():
    classroom, (ana, _ben) = a_class(2)
    session = make_session(classroom)
    services.session_join(session=session, student=ana)
    services.session_join(session=session, student=ana)
    assert list(SessionPresence.objects.values_list("student_id", flat=True)) == [ana.pk]


def test_only_the_class_may_join_and_not_after_the_end():
    classroom, (ana,) = a_class(1)
    _other_class, (stranger,) = a_class(1, name="Other")
    session = make_session(classroom)
    with pytest.raises(SessionError) as error:
        services.session_join(session=session, student=stranger)
    assert error.value.code == "not_enrolled"
    services.session_end(session=session)
    with pytest.raises(SessionError) as error:
        services.session_join(session=session, student=ana)
    assert error.value.code == "session_ended"
    assert not SessionPresence.objects.exists()


# --- dealing and moving --------------------------------------------------------------------------


@pytest.mark.parametrize("students", [1, 3, 4, 5, 7, 8, 9, 30])
def test_dealing_balances_the_tables(students):
    _classroom, everyone, session = joined_session(students, table_size=4)
    services.session_deal(session=session)
    tables = plan(session)
    sizes = [len(seats) for seats in tables.values()]
    assert len(tables) == -(-students // 4)  # ceil
    assert max(sizes) - min(sizes) <= 1
    assert sorted(tables) == list(range(1, len(tables) + 1))
    for seats in tables.values():  # students sit from seat 0 on; bots take the seats after
        assert sorted(seats) == list(range(len(seats)))
    names = Counter(name for seats in tables.values() for name in seats.values())
    assert names == Counter(s.display_name for s in everyone)


def test_dealing_is_round_robin_in_joining_order():
    _classroom, _students, session = joined_session(7, table_size=4)
    services.session_deal(session=session)
    assert plan(session) == {
        1: {0: "Student 01", 1: "Student 03", 2: "Student 05", 3: "Student 07"},
        2: {0: "Student 02", 1: "Student 04", 2: "Student 06"},
    }


def test_a_student_joining_after_the_deal_gets_the_emptiest_tables_free_seat():
    classroom, _students, session = joined_session(5, table_size=3)
    services.session_deal(session=session)  # 3 + 2
    sixth = make_student(classroom, "Student 06")
    services.session_join(session=session, student=sixth)
    assert plan(session)[2] == {0: "Student 02", 1: "Student 04", 2: "Student 06"}
    seventh = make_student(classroom, "Student 07")
    services.session_join(session=session, student=seventh)  # every table is full: a new one
    assert plan(session)[3] == {0: "Student 07"}


def test_moving_to_a_free_seat_a_taken_seat_or_a_new_table():
    _classroom, students, session = joined_session(5, table_size=3)
    services.session_deal(session=session)
    s1, s2, s3, _s4, s5 = students
    services.session_move(session=session, student_id=s5.pk, table_number=2, seat=2)  # free seat
    assert plan(session) == {
        1: {0: "Student 01", 1: "Student 03"},
        2: {0: "Student 02", 1: "Student 04", 2: "Student 05"},
    }
    services.session_move(session=session, student_id=s1.pk, table_number=2, seat=0)  # a swap
    assert plan(session) == {
        1: {0: "Student 02", 1: "Student 03"},
        2: {0: "Student 01", 1: "Student 04", 2: "Student 05"},
    }
    services.session_move(session=session, student_id=s3.pk, table_number=3, seat=0)  # new table
    assert plan(session)[3] == {0: "Student 03"}
    # Table 1 left with one student; moving them away empties it: it goes, the rest renumber.
    services.session_move(session=session, student_id=s2.pk, table_number=3, seat=1)
    assert plan(session) == {
        1: {0: "Student 01", 1: "Student 04", 2: "Student 05"},
        2: {0: "Student 03", 1: "Student 02"},
    }
    assert SessionTable.objects.filter(session=session).count() == 2


@pytest.mark.parametrize(
    ("table", "seat", "code"),
    [(1, 3, "bad_seat"), (1, -1, "bad_seat"), (5, 0, "bad_table"), (0, 0, "bad_table")],
)
def test_moving_nowhere_is_refused(table, seat, code):
    _classroom, students, session = joined_session(4, table_size=3)
    services.session_deal(session=session)
    before = plan(session)
    with pytest.raises(SessionError) as error:
        services.session_move(
            session=session, student_id=students[0].pk, table_number=table, seat=seat
        )
    assert error.value.code == code
    assert plan(session) == before


def test_moving_a_student_without_a_seat_or_after_the_start_is_refused():
    _classroom, students, session = joined_session(2, table_size=2)
    with pytest.raises(SessionError) as error:  # no deal yet
        services.session_move(session=session, student_id=students[0].pk, table_number=1, seat=0)
    assert error.value.code == "not_placed"
    services.session_start(session=session)
    with pytest.raises(SessionError) as error:
        services.session_move(session=session, student_id=students[0].pk, table_number=1, seat=1)
    assert error.value.code == "not_in_lobby"
    with pytest.raises(SessionError):
        services.session_deal(session=session)


# --- starting ------------------------------------------------------------------------------------


def test_start_opens_one_match_per_table_with_bots_in_the_empty_seats():
    classroom, _students, session = joined_session(5, table_size=4, bot_level="strong")
    tables = services.session_start(session=session)
    session.refresh_from_db()
    assert session.status == ClassSession.Status.PLAYING and session.started_at is not None
    assert [t.number for t in tables] == [1, 2]
    for table in SessionTable.objects.filter(session=session).select_related("match"):
        match = table.match
        assert match.shown_label == f"Table {table.number}"
        assert match.created_by_id == classroom.teacher_id
        assert (match.game, match.variant, match.status) == ("mia", "canada47", "playing")
        assert match.options == session.options
    seats = {
        table.number: [
            (seat.name, seat.user_id is not None, seat.bot_level)
            for seat in table.match.seats.order_by("index")
        ]
        for table in SessionTable.objects.filter(session=session)
    }
    assert seats == {
        1: [
            ("Student 01", True, ""),
            ("Student 03", True, ""),
            ("Student 05", True, ""),
            ("Pixel", False, "strong"),
        ],
        2: [
            ("Student 02", True, ""),
            ("Student 04", True, ""),
            # Named after the room's other bots: never two "Pixel" on the projector.
            ("Bolt", False, "strong"),
            ("Sparky", False, "strong"),
        ],
    }


def test_start_keeps_the_teachers_moves_and_seats_students_who_came_after_the_deal():
    classroom, students, session = joined_session(3, table_size=2)
    services.session_deal(session=session)  # 1: 01, 03 / 2: 02
    services.session_move(session=session, student_id=students[2].pk, table_number=2, seat=1)
    late = make_student(classroom, "Student 04")
    SessionPresence.objects.create(session=session, student=late)  # joined, not yet placed
    services.session_start(session=session)
    assert plan(session) == {
        1: {0: "Student 01", 1: "Student 04"},
        2: {0: "Student 02", 1: "Student 03"},
    }


def test_start_without_anybody_is_refused_and_the_lobby_stays_open():
    session = make_session(make_class())
    with pytest.raises(SessionError) as error:
        services.session_start(session=session)
    assert error.value.code == "nobody_present"
    session.refresh_from_db()
    assert session.status == ClassSession.Status.LOBBY
    assert not Match.objects.exists()


def test_start_twice_is_refused():
    _classroom, _students, session = started_session(2, table_size=2)
    with pytest.raises(SessionError) as error:
        services.session_start(session=session)
    assert error.value.code == "not_in_lobby"
    assert Match.objects.count() == 1


def test_solo_variants_give_every_student_a_table_of_their_own():
    _classroom, _students, session = started_session(3, variant="solo3", table_size=1)
    matches = Match.objects.filter(session_table__session=session)
    assert matches.count() == 3
    for match in matches:
        assert match.variant == "solo3"
        assert [seat.user_id is not None for seat in match.seats.all()] == [True]


def test_late_arrivals_get_new_tables_after_the_start():
    classroom, _students, session = started_session(4, table_size=2)
    assert services.session_seat_late_arrivals(session=session) == []
    late = [make_student(classroom, f"Late {i}") for i in (1, 2, 3)]
    for student in late:
        services.session_join(session=session, student=student)
    assert len(plan(session)) == 2  # joining while playing seats nobody by itself
    tables = services.session_seat_late_arrivals(session=session)
    assert [t.number for t in tables] == [3, 4]
    assert plan(session)[3] == {0: "Late 1", 1: "Late 3"}
    assert plan(session)[4] == {0: "Late 2"}
    match, _seat = seat_of(session, late[1])
    assert match.shown_label == "Table 4"
    assert [s.bot_level for s in match.seats.all()] == ["", "easy"]
    assert services.session_seat_late_arrivals(session=session) == []


# --- ending --------------------------------------------------------------------------------------


def test_end_stops_the_unfinished_matches_and_closes_the_session():
    _classroom, students, session = started_session(4, table_size=2)
    finished, _seat = seat_of(session, students[0])
    Match.objects.filter(pk=finished.pk).update(status=Match.Status.FINISHED)
    services.session_end(session=session)
    session.refresh_from_db()
    assert session.status == ClassSession.Status.ENDED and session.ended_at is not None
    statuses = dict(
        Match.objects.filter(session_table__session=session).values_list("pk", "status")
    )
    assert statuses.pop(finished.pk) == Match.Status.FINISHED
    assert set(statuses.values()) == {Match.Status.ABANDONED}
    services.session_end(session=session)  # again: nothing changes
    assert Match.objects.filter(status=Match.Status.PLAYING).count() == 0


def test_a_lobby_can_be_ended_before_the_start():
    _classroom, _students, session = joined_session(2)
    services.session_end(session=session)
    session.refresh_from_db()
    assert session.status == ClassSession.Status.ENDED
    with pytest.raises(SessionError):
        services.session_start(session=session)


# --- the monitor's figures -----------------------------------------------------------------------


def figures(session, **kwargs):
    snapshot = selectors.session_monitor(session=session, **kwargs)
    return snapshot, {s["name"]: s for s in snapshot["students"]}


def test_monitor_counts_each_students_attempts_accuracy_and_median_by_skill():
    _classroom, students, session = started_session(3, table_size=3)
    ana, _ben, _carla = students
    match, ana_seat = seat_of(session, ana)
    record_attempts(
        match,
        ana,
        ana_seat,
        [
            ("add.within10", True, 1000),
            ("add.within10", False, 3000),
            ("add.within10", True, 2000),
            ("sub.within20", True, 5000),
        ],
    )
    _snapshot, by_name = figures(session)
    row = by_name["Student 01"]
    assert (row["attempts"], row["correct"], row["accuracy"]) == (4, 3, 0.75)
    assert row["median_ms"] == 2500 and row["median_seconds"] == 2.5
    # Four answers are too few to judge a child by: no percentage yet (progress/numbers.py).
    assert row["accuracy_percent"] is None and row["too_few"]
    assert [(s["skill"], s["attempts"], s["correct"], s["median_ms"]) for s in row["skills"]] == [
        ("add.within10", 3, 2, 2000),
        ("sub.within20", 1, 1, 5000),
    ]
    assert row["skills"][1]["label"] == "Subtraction within 20"
    assert row["needs_help"] == []
    assert by_name["Student 02"]["attempts"] == 0 and by_name["Student 02"]["accuracy"] is None


def test_monitor_leaves_out_bots_and_other_matches():
    _classroom, students, session = started_session(1, table_size=3)
    (ana,) = students
    match, _seat = seat_of(session, ana)
    record_attempts(match, None, 1, [("add.within10", True, 900)] * 4)  # a bot's
    from tests.factories import make_match

    elsewhere = make_match(players=[ana], bots=["easy"])
    record_attempts(elsewhere, ana, 0, [("add.within10", False, 900)] * 6)
    _snapshot, by_name = figures(session)
    assert by_name["Student 01"]["attempts"] == 0


def test_needs_help_low_accuracy_after_five_attempts():
    _classroom, (ana, _ben), session = started_session(2, table_size=2)
    match, seat = seat_of(session, ana)
    record_attempts(
        match, ana, seat, [("add.within10", False, 1000), ("sub.within10", False, 1000)]
    )
    record_attempts(match, ana, seat, [("mul.within10", True, 1000)] * 2)
    _snapshot, by_name = figures(session)
    assert by_name["Student 01"]["needs_help"] == []  # 4 attempts: too few to judge
    record_attempts(match, ana, seat, [("add.within20", False, 1000)])
    snapshot, by_name = figures(session)
    assert by_name["Student 01"]["needs_help"] == [
        {"reason": "low_accuracy", "accuracy": 0.4, "percent": 40}
    ]
    assert snapshot["needs_help"] == [ana.pk]
    record_attempts(match, ana, seat, [("mul.within10", True, 1000)])  # 3 of 6: still below 60 %
    record_attempts(match, ana, seat, [("mul.within10", True, 1000)] * 2)  # 5 of 8: fine
    _snapshot, by_name = figures(session)
    assert by_name["Student 01"]["needs_help"] == []


def test_needs_help_after_three_wrong_in_a_row_on_one_skill():
    _classroom, (ana, _ben), session = started_session(2, table_size=2)
    match, seat = seat_of(session, ana)
    # Wrong, wrong on subtraction, something else right, then wrong again: three in a row on
    # that skill, whatever happened on the others in between.
    record_attempts(
        match,
        ana,
        seat,
        [("sub.within20", False, 900), ("sub.within20", False, 900)]
        + [("add.within10", True, 900)] * 8
        + [("sub.within20", False, 900)],
    )
    _snapshot, by_name = figures(session)
    assert by_name["Student 01"]["needs_help"] == [
        {
            "reason": "repeated_errors",
            "skill": "sub.within20",
            "skill_label": "Subtraction within 20",
            "wrong_in_a_row": 3,
        }
    ]
    record_attempts(match, ana, seat, [("sub.within20", True, 900)])  # a right one ends it
    _snapshot, by_name = figures(session)
    assert by_name["Student 01"]["needs_help"] == []


def test_needs_help_when_a_student_who_may_act_has_not_moved_for_a_minute():
    """¡Mía! is real time: everybody may claim at once, so a child's own last move counts."""
    _classroom, (ana, ben), session = started_session(2, table_size=2)
    match, ana_seat = seat_of(session, ana)
    start = match.created_at
    _snapshot, by_name = figures(session, now=start + timedelta(seconds=59))
    assert by_name["Student 01"]["needs_help"] == []
    submit_move(match_id=match.pk, user=ben, move=any_move(match, seat_of(session, ben)[1]))
    _snapshot, by_name = figures(session, now=start + timedelta(seconds=61))
    assert {"reason": "stall", "seconds": 61} in by_name["Student 01"]["needs_help"]
    assert all(f["reason"] != "stall" for f in by_name["Student 02"]["needs_help"])
    # Ana answers at 30 s: her clock starts again from there.
    record_attempts(
        match, ana, ana_seat, [("add.within10", True, 900)], at=start + timedelta(seconds=30)
    )
    _snapshot, by_name = figures(session, now=start + timedelta(seconds=61))
    assert by_name["Student 01"]["needs_help"] == []
    _snapshot, by_name = figures(session, now=start + timedelta(seconds=91))
    assert {"reason": "stall", "seconds": 61} in by_name["Student 01"]["needs_help"]


def test_a_turn_game_counts_the_stall_from_when_the_turn_came():
    _classroom, (ana, _ben), session = started_session(
        2, game="sum", variant="standard", table_size=2, options={"first_player": "seat0"}
    )
    match, ana_seat = seat_of(session, ana)
    assert ana_seat == 0
    snapshot, by_name = figures(session, now=match.created_at + timedelta(seconds=70))
    assert [f["reason"] for f in by_name["Student 01"]["needs_help"]] == ["stall"]
    assert by_name["Student 02"]["needs_help"] == []  # not Ben's turn: waiting is not stalling
    seats = {s["name"]: s for s in snapshot["tables"][0]["seats"]}
    assert seats["Student 01"]["active"] and not seats["Student 02"]["active"]


def test_monitor_tables_and_leaderboard():
    _classroom, students, session = started_session(3, table_size=2)
    for student, right in zip(students, (2, 5, 2), strict=True):
        match, seat = seat_of(session, student)
        record_attempts(match, student, seat, [("add.within10", True, 1000)] * right)
    snapshot, _by_name = figures(session)
    # Nobody has scored in the game yet: all share the first place, right answers order them.
    assert [(row["rank"], row["name"], row["correct"]) for row in snapshot["leaderboard"]] == [
        (1, "Student 02", 5),
        (1, "Student 01", 2),
        (1, "Student 03", 2),
    ]
    tables = snapshot["tables"]
    assert [t["label"] for t in tables] == ["Table 1", "Table 2"]
    assert [(s["name"], s["bot"], s["score"]) for s in tables[1]["seats"]] == [
        ("Student 02", False, 0),
        ("Pixel", True, 0),
    ]
    assert tables[0]["status"] == "playing" and tables[0]["watch_url"].endswith("/watch/")


def test_a_finished_table_reads_as_its_podium():
    _classroom, students, session = started_session(3, table_size=4)
    match, _seat = seat_of(session, students[0])
    outcome = finish_match_by_bots(match, seed=5)
    snapshot, _by_name = figures(session)
    seats = snapshot["tables"][0]["seats"]
    ranks = [seat["rank"] for seat in seats]
    assert ranks == sorted(ranks) and sorted(ranks) == sorted(outcome.as_dict()["places"])
    for seat in seats:
        assert seat["rank"] == outcome.as_dict()["places"][seat["seat"]]
        assert seat["rank_label"] == {1: "1st", 2: "2nd", 3: "3rd"}.get(
            seat["rank"], f"{seat['rank']}th"
        )
    assert snapshot["tables"][0]["status"] == "finished"


def test_monitor_in_the_lobby_shows_who_is_present_and_the_plan():
    classroom, _students, session = joined_session(3, table_size=2)
    services.session_deal(session=session)
    late = make_student(classroom, "Zoe")
    SessionPresence.objects.create(session=session, student=late)
    snapshot = selectors.session_monitor(session=session)
    assert [(p["name"], p["seated"]) for p in snapshot["present"]] == [
        ("Student 01", True),
        ("Student 02", True),
        ("Student 03", True),
        ("Zoe", False),
    ]
    assert [[s["name"] for s in t["seats"]] for t in snapshot["tables"]] == [
        ["Student 01", "Student 03"],
        ["Student 02", "Pixel"],
    ]
    assert snapshot["tables"][0]["match_id"] is None


@pytest.mark.parametrize("size", [3, 30])
def test_monitor_reads_the_same_number_of_queries_for_3_and_30_students(
    size, django_assert_num_queries
):
    _classroom, students, session = started_session(size, table_size=4)
    for student in students:
        match, seat = seat_of(session, student)
        record_attempts(match, student, seat, [("add.within10", True, 1000)] * 3)
    session = ClassSession.objects.get(pk=session.pk)
    # presences, tables+matches, places, the bots' seats, the running figures, the real-time
    # seats' last moves, the states of the tables that moved since the last look
    with django_assert_num_queries(7):
        snapshot = selectors.session_monitor(session=session)
    assert len(snapshot["students"]) == size
    assert sum(s["attempts"] for s in snapshot["students"]) == 3 * size


def test_the_monitor_reads_each_tables_match_row_once():
    """The seats are read without their matches' rows: on SQLite a match's row is read past its
    state, which a seat's default order (by match) would do again for every seat."""
    _classroom, _students, session = started_session(4, table_size=3)
    session = ClassSession.objects.get(pk=session.pk)
    with CaptureQueriesContext(connection) as queries:
        snapshot = selectors.session_monitor(session=session)
    assert [seat["bot"] for table in snapshot["tables"] for seat in table["seats"]].count(True)
    seats = [q["sql"] for q in queries.captured_queries if 'FROM "games_seat"' in q["sql"]]
    assert len(seats) == 2  # the bots' names, the players' last moves
    assert not [sql for sql in seats if '"games_match"' in sql]


def test_the_monitor_reads_neither_the_sessions_answers_nor_its_move_history(
    django_assert_max_num_queries,
):
    """Work per change must not grow as the lesson goes on: the figures are kept as answers are
    written, and a seat's last move is one index step back from its match's newest move."""
    _classroom, students, session = started_session(4, table_size=2)
    for student in students:
        match, seat = seat_of(session, student)
        record_attempts(match, student, seat, [("add.within10", True, 1000)] * 40)
    session = ClassSession.objects.get(pk=session.pk)
    with CaptureQueriesContext(connection) as queries:
        snapshot = selectors.session_monitor(session=session)
    assert sum(s["attempts"] for s in snapshot["students"]) == 160
    sql = [query["sql"] for query in queries.captured_queries]
    assert not [q for q in sql if '"games_attempt"' in q]
    for query in (q for q in sql if '"games_moverecord"' in q):
        assert "LIMIT 1" in query and "GROUP BY" not in query
    # A table's state is read again only once it has moved.
    with CaptureQueriesContext(connection) as queries:
        selectors.session_monitor(session=session)
    assert not [q["sql"] for q in queries.captured_queries if '"games_match"."state"' in q["sql"]]
    match, seat = seat_of(session, students[0])
    submit_move(match_id=match.pk, user=students[0], move=any_move(match, seat))
    with CaptureQueriesContext(connection) as queries:
        snapshot = selectors.session_monitor(session=session)
    [states] = [q["sql"] for q in queries.captured_queries if '"games_match"."state"' in q["sql"]]
    assert f"IN ({match.pk})" in states


def test_live_moves_keep_the_figures_that_a_recount_of_the_answers_gives(monkeypatch):
    from classroom.models import SessionSkillFigures
    from classroom.sessions.figures import figures_rebuild
    from engine import IllegalMove
    from games.services import creation
    from tests.factories import make_match

    # A fixed deal: some random deals offer a child no wrong claim in one of the four rounds.
    monkeypatch.setattr(creation.secrets, "randbits", lambda bits: 7)
    _classroom, (ana, ben, carla), session = started_session(3, table_size=3)
    match, _seat = seat_of(session, ana)
    for _round in range(4):
        for student in (ana, ben):
            submit_move(
                match_id=match.pk,
                user=student,
                move=wrong_claim(match, seat_of(session, student)[1]),
            )
        submit_move(match_id=match.pk, user=carla, move=any_move(match, seat_of(session, carla)[1]))
    with pytest.raises(IllegalMove):  # refused: changes nothing, counts nothing
        submit_move(match_id=match.pk, user=ana, move={"type": "claim", "card": -1})
    elsewhere = make_match(players=[ana], bots=["easy"])  # outside any session
    submit_move(match_id=elsewhere.pk, user=ana, move=any_move(elsewhere, 0))

    def kept():
        return sorted(
            SessionSkillFigures.objects.filter(session=session).values_list(
                "student__display_name",
                "skill",
                "attempts",
                "correct",
                "wrong_in_a_row",
                "elapsed_ms_sum",
            )
        )

    as_played = kept()
    assert as_played, "the moves counted nothing"
    ana_rows = [row for row in as_played if row[0] == "Student 01"]
    assert sum(row[2] for row in ana_rows) == 4 and sum(row[3] for row in ana_rows) == 0
    figures_rebuild(session_id=session.pk)
    assert kept() == as_played
    _snapshot, by_name = figures(session)
    assert by_name["Student 01"]["attempts"] == 4
    assert by_name["Student 01"]["correct"] == 0
    streaks = {row[1]: row[4] for row in ana_rows}
    assert sum(streaks.values()) == 4  # no right answer: every wrong one is still in its streak


# --- which session a match belongs to (read once per match and process) -------------------------


def test_a_matchs_session_is_read_once_and_then_known(django_assert_num_queries):
    from classroom.sessions.receivers import session_of_match
    from games.services import SeatSpec, match_create

    classroom, _students, session = started_session(3)
    table = SessionTable.objects.filter(session=session).exclude(match=None).first()
    with django_assert_num_queries(1):
        assert session_of_match(table.match_id) == session.pk
    with django_assert_num_queries(0):
        assert session_of_match(table.match_id) == session.pk
    outside = match_create(
        game="add_up",
        variant="standard",
        seats=[
            SeatSpec(name="A", user=make_student(classroom)),
            SeatSpec(name="B", bot_level="easy"),
        ],
    )
    with django_assert_num_queries(1):
        assert session_of_match(outside.pk) is None
    with django_assert_num_queries(0):
        assert session_of_match(outside.pk) is None


def test_needs_help_when_a_student_passes_or_times_out_card_after_card():
    """A pass is no wrong answer, but three cards in a row passed or let run out flag the child
    (issue 22): Ana passes each card, Ben lets each one's time run out."""
    _classroom, (ana, _ben), session = started_session(2, table_size=2)
    match, ana_seat = seat_of(session, ana)
    rules = engine.get_game(match.game)
    for card in range(3):
        match.refresh_from_db()
        state = rules.load(match.state)
        move = {"type": "pass", "round": state.data["round"]}
        submit_move(match_id=match.pk, user=ana, move=move, at_ms=state.data["revealed_at"] + 500)
        record = MoveRecord.objects.filter(match=match).latest("version")
        assert [e["type"] for e in record.events] == ["passed"]  # recorded as a pass, no answer
        match_wake(match_id=match.pk, at_ms=state.data["flip_at"] + match.clock_offset_ms)
        record = MoveRecord.objects.filter(match=match).latest("version")
        assert [e["seat"] for e in record.events if e["type"] == "timed_out"] == [1 - ana_seat]
        _snapshot, by_name = figures(session)
        flagged = [f for f in by_name["Student 01"]["needs_help"] if f["reason"] == "passing"]
        assert flagged == ([{"reason": "passing", "in_a_row": 3}] if card == 2 else []), card
    assert {"reason": "passing", "in_a_row": 3} in by_name["Student 02"]["needs_help"]
    assert not Attempt.objects.filter(match=match).exists()  # passes are not wrong answers
    # Any claim is an answer: Ana's run of passes ends.
    submit_move(match_id=match.pk, user=ana, move=wrong_claim(match, ana_seat))
    _snapshot, by_name = figures(session)
    assert all(f["reason"] != "passing" for f in by_name["Student 01"]["needs_help"])
