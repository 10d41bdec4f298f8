"""Deleting a student with all their data, and exporting it first."""

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from classroom.models import (
    AssignmentWork,
    Enrollment,
    LoginCard,
    SessionPlace,
    SessionPresence,
    SessionTable,
)
from classroom.roster import services
from classroom.roster.cards import card_token
from classroom.roster.student_secrets import Secret
from games.models import Attempt, Match, MoveRecord, Seat
from tests.classroom.roster_helpers import give_homework, join_session, record_attempts
from tests.factories import make_class, make_match, make_student, make_teacher

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def classroom():
    return make_class(make_teacher(), name="Class 6B")


@pytest.fixture
def pupils(classroom):
    """Ana with a full record (shared and solo games, a lobby, a table place, homework) and Ben,
    her classmate, who shares a game with her."""
    ana, _ = services.student_add(
        classroom=classroom, display_name="Ana", secret=Secret("pin", "8642")
    )
    ben = make_student(classroom, name="Ben")
    shared = make_match(players=[ana, ben])
    record_attempts(shared, ana, count=3)
    record_attempts(shared, ben, count=2)
    solo = make_match(players=[ana], bots=["easy"])
    record_attempts(solo, ana, count=2, correct=False)
    presence = join_session(classroom, ana)
    table = SessionTable.objects.create(session=presence.session, number=1, match=shared)
    SessionPlace.objects.create(table=table, seat=0, student=ana)
    work = give_homework(classroom, ana)
    return ana, ben, shared, solo, work


def url(name, classroom, student):
    return reverse(
        f"classroom:{name}", kwargs={"classroom_id": classroom.pk, "student_id": student.pk}
    )


@pytest.fixture
def teacher_client(client, classroom):
    client.force_login(classroom.teacher)
    return client


def test_deleting_a_student_deletes_all_their_data_and_only_theirs(
    teacher_client, classroom, pupils, django_capture_on_commit_callbacks
):
    ana, ben, shared, solo, work = pupils
    assert teacher_client.get(url("roster_student_delete", classroom, ana)).status_code == 200
    assert User.objects.filter(pk=ana.pk).exists()  # asking changed nothing

    with django_capture_on_commit_callbacks(execute=True):
        response = teacher_client.post(url("roster_student_delete", classroom, ana))
    assert response["Location"] == reverse(
        "classroom:roster_class", kwargs={"classroom_id": classroom.pk}
    )
    assert not User.objects.filter(pk=ana.pk).exists()
    assert not Attempt.objects.filter(user_id=ana.pk).exists()
    assert not Seat.objects.filter(user_id=ana.pk).exists()
    assert not Enrollment.objects.filter(student_id=ana.pk).exists()
    assert not SessionPresence.objects.filter(student_id=ana.pk).exists()
    assert not SessionPlace.objects.filter(student_id=ana.pk).exists()
    assert not AssignmentWork.objects.filter(student_id=ana.pk).exists()
    assert not LoginCard.objects.filter(student_id=ana.pk).exists()
    # Her own games go whole, moves and all; the homework game with them.
    assert not Match.objects.filter(pk__in=[solo.pk, work.match_id]).exists()
    assert not MoveRecord.objects.filter(match_id=solo.pk).exists()
    # The game she shared with Ben stays for him, stopped, with his answers.
    shared.refresh_from_db()
    assert shared.status == Match.Status.ABANDONED
    assert list(shared.seats.values_list("user", flat=True)) == [ben.pk]
    assert Attempt.objects.filter(match=shared, user=ben).count() == 2
    assert User.objects.filter(pk=ben.pk).exists()


def test_a_finished_shared_game_is_left_as_it_was(classroom, pupils):
    ana, _ben, shared, _solo, _work = pupils
    Match.objects.filter(pk=shared.pk).update(status=Match.Status.FINISHED)
    services.student_delete(student=ana)
    shared.refresh_from_db()
    assert shared.status == Match.Status.FINISHED


def test_a_student_in_another_teachers_class_only_leaves_this_one(
    teacher_client, classroom, pupils
):
    ana = pupils[0]
    elsewhere = make_class(make_teacher(), name="Chess club")
    Enrollment.objects.create(classroom=elsewhere, student=ana)
    page = teacher_client.get(url("roster_student_delete", classroom, ana)).content.decode()
    assert "only leave this class" in page
    teacher_client.post(url("roster_student_delete", classroom, ana))
    assert User.objects.filter(pk=ana.pk).exists()
    assert list(ana.enrollments.values_list("classroom", flat=True)) == [elsewhere.pk]
    assert Attempt.objects.filter(user=ana).count() == 5


def test_the_confirmation_page_counts_what_will_go(teacher_client, classroom, pupils):
    ana = pupils[0]
    deletion = teacher_client.get(url("roster_student_delete", classroom, ana)).context["deletion"]
    assert deletion.attempts == 5
    assert (deletion.own_matches, deletion.shared_matches) == (2, 1)  # solo + homework; shared
    assert (deletion.lobby_visits, deletion.session_places, deletion.homework_items) == (1, 1, 1)
    assert not deletion.other_teachers


def test_only_students_are_deleted_by_the_service(classroom):
    with pytest.raises(ValueError):
        services.student_delete(student=classroom.teacher)


# --- export --------------------------------------------------------------------------------------


def test_export_is_a_json_download_of_everything_about_the_student(
    teacher_client, classroom, pupils
):
    ana, _ben, shared, solo, work = pupils
    response = teacher_client.get(url("roster_student_export", classroom, ana))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert re.fullmatch(
        r'attachment; filename="ana-\d{4}-\d{2}-\d{2}\.json"', response["Content-Disposition"]
    )
    data = json.loads(response.content)
    assert data["profile"]["name"] == "Ana"
    assert data["profile"]["sign_in"] == "pin"
    assert [c["code"] for c in data["classes"]] == [classroom.code]
    assert len(data["attempts"]) == 5
    assert {a["match"] for a in data["attempts"]} == {shared.pk, solo.pk}
    assert sum(not a["correct"] for a in data["attempts"]) == 2
    assert {m["match"] for m in data["matches"]} == {shared.pk, solo.pk, work.match_id}
    assert data["class_sessions"][0]["game"] == "mia"
    assert data["homework"] == [{"assignment": "Sums", "item": 0, "match": work.match_id}]


def test_export_holds_no_secret(teacher_client, classroom, pupils):
    ana, _ben, shared, _solo, _work = pupils
    ana.refresh_from_db()
    body = teacher_client.get(url("roster_student_export", classroom, ana)).content.decode()
    card = LoginCard.objects.get(student=ana)
    for secret in (
        "8642",
        ana.secret_hash,
        ana.password,
        card.sealed_secret,
        card_token(ana),
        str(shared.seed),
        ana.username,
    ):
        assert secret not in body
    assert "state" not in json.loads(body)["matches"][0]


def test_export_of_a_student_with_nothing_recorded(teacher_client, classroom):
    zoe = make_student(classroom, name="Zoë")
    response = teacher_client.get(url("roster_student_export", classroom, zoe))
    data = json.loads(response.content)
    assert (data["attempts"], data["matches"], data["homework"]) == ([], [], [])
    assert response["Content-Disposition"].startswith('attachment; filename="zoe-')


def test_export_tells_the_score_and_result_of_finished_games(teacher_client, classroom, pupils):
    ana, _ben, shared, solo, _work = pupils
    Match.objects.filter(pk=shared.pk).update(
        status=Match.Status.FINISHED, outcome={"scores": [3, 5], "winners": [1]}
    )
    data = json.loads(teacher_client.get(url("roster_student_export", classroom, ana)).content)
    games = {m["match"]: m for m in data["matches"]}
    assert (games[shared.pk]["score"], games[shared.pk]["won"]) == (3, False)
    assert games[shared.pk]["status"] == "finished"
    assert (games[solo.pk]["score"], games[solo.pk]["won"]) == (None, None)  # still playing


def test_a_deleted_students_seat_in_a_session_history_is_a_removed_player_not_a_bot(
    teacher_client, classroom
):
    from classroom.sessions import selectors as session_selectors
    from tests.factories import make_session

    ana = make_student(classroom, name="Ana")
    ben = make_student(classroom, name="Ben", secret="2222")
    session = make_session(classroom, game="add_up", variant="standard", table_size=3)
    from classroom.sessions import services as session_services

    for student in (ana, ben):
        session_services.session_join(session=session, student=student)
    session_services.session_deal(session=session)
    session_services.session_start(session=session)
    services.student_delete(student=ana)
    [table] = session_selectors.session_monitor(session=session)["tables"]
    names = [(seat["name"], seat["bot"]) for seat in table["seats"]]
    assert ("Removed player", False) in names and ("Ben", False) in names
    assert [name for name, bot in names if bot] == ["Pixel"]


def play_real_moves(match, players, rounds):
    """Each player in turn plays the engine's hint, through the live-play service."""
    import engine
    from games.services import submit_move

    rules = engine.get_game(match.game)
    for n in range(rounds):
        for seat, user in enumerate(players):
            state = rules.load(Match.objects.get(pk=match.pk).state)
            move = rules.hint(state, seat)
            if move:
                submit_move(match_id=match.pk, user=user, move=move, client_id=f"m{n}-{seat}")


def answer_events(match, seat):
    return [
        event
        for events in MoveRecord.objects.filter(match=match).values_list("events", flat=True)
        for event in events
        if event["type"] == "attempt" and event.get("seat") == seat
    ]


def test_deleting_a_student_removes_their_moves_and_answers_from_a_shared_games_log(
    teacher_client, classroom, django_capture_on_commit_callbacks
):
    ana = make_student(classroom, name="Ana")
    ben = make_student(classroom, name="Ben", secret="2222")
    shared = make_match(players=[ana, ben], seed=7)
    play_real_moves(shared, [ana, ben], rounds=4)
    ana_seat, ben_seat = 0, 1
    assert MoveRecord.objects.filter(match=shared, seat=ana_seat).exists()
    assert answer_events(shared, ana_seat)
    ben_answers = Attempt.objects.filter(match=shared, user=ben).count()
    ben_moves = MoveRecord.objects.filter(match=shared, seat=ben_seat).count()
    assert ben_answers and ben_moves

    with django_capture_on_commit_callbacks(execute=True):
        teacher_client.post(url("roster_student_delete", classroom, ana))

    assert not MoveRecord.objects.filter(match=shared, seat=ana_seat).exists()
    assert answer_events(shared, ana_seat) == []
    assert not Attempt.objects.filter(match=shared, seat=ana_seat).exists()
    # Ben's game is his as before: his moves, his answers, and he can still look at it.
    assert MoveRecord.objects.filter(match=shared, seat=ben_seat).count() == ben_moves
    assert len(answer_events(shared, ben_seat)) == ben_answers
    assert Attempt.objects.filter(match=shared, user=ben).count() == ben_answers
    teacher_client.force_login(ben)
    assert teacher_client.get(reverse("games:play", args=[shared.pk])).status_code == 200
