"""Homework: teachers set solo puzzles or games against bots with a due date; students play them
from their home page and resume where they stopped; the teacher sees completion and results."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

import engine
from classroom.homework import selectors, services
from classroom.homework.services import AssignmentLocked, BotGamesSpec, PuzzleSpec
from classroom.models import Assignment, AssignmentWork
from engine import mia_puzzles
from engine.mia import GAME
from games import services as games_services
from games.models import Attempt, Match, Seat
from tests.classroom.homework_helpers import finish_puzzle, right_solve, solo_state, wrong_solve
from tests.factories import make_assignment, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db

MIA = engine.get_game("mia")


@pytest.fixture
def classroom():
    return make_class(make_teacher(name="Ms Rivera"), name="Class 3B")


@pytest.fixture
def ana(classroom):
    return make_student(classroom, "Ana", secret="1111")


@pytest.fixture
def ben(classroom):
    return make_student(classroom, "Ben", secret="2222")


def due(days=7):
    return timezone.now() + timedelta(days=days)


def form_data(**overrides):
    data = {
        "title": "Squares for Monday",
        "kind": "puzzles",
        "due_at": timezone.localtime(due()).strftime("%Y-%m-%dT%H:%M"),
        "count": "3",
        "size": "3",
        "difficulty": "2",
        "variant": "mia:express",
        "players": "3",
        "bot_level": "easy",
    }
    data.update(overrides)
    return data


# --- setting homework ----------------------------------------------------------------------------


def test_puzzles_are_dealt_once_so_the_whole_class_gets_the_same_ones(classroom, ana, ben):
    assignment = make_assignment(classroom, spec=PuzzleSpec(size=4, difficulty=3, count=3), seed=77)
    assert assignment.kind == Assignment.Kind.PUZZLES
    assert (assignment.game, assignment.variant, assignment.difficulty) == ("mia", "solo4", 3)
    seeds = [item["seed"] for item in assignment.items]
    assert len(set(seeds)) == 3
    # The seeds are the engine's own puzzles of that difficulty, from the assignment's seed.
    assert seeds[0] == mia_puzzles.generate_puzzle(GAME, 4, 3, 77).seed
    for seed in seeds:
        assert mia_puzzles.rate_deal(GAME, "solo4", seed).difficulty == 3

    ana_work = services.work_start(assignment=assignment, student=ana, item=1)
    ben_work = services.work_start(assignment=assignment, student=ben, item=1)
    assert ana_work.match_id != ben_work.match_id
    assert ana_work.match.seed == ben_work.match.seed == seeds[1]
    assert (
        MIA.view(solo_state(ana_work.match_id), None)["square"]
        == MIA.view(solo_state(ben_work.match_id), None)["square"]
    )


def test_games_against_bots_are_checked_by_the_engine(classroom):
    good = BotGamesSpec(
        game="mia",
        variant="canada47",
        players=3,
        bot_level="strong",
        count=2,
        options={"target": 30},
    )
    assignment = make_assignment(classroom, spec=good)
    assert (assignment.kind, assignment.players, assignment.bot_level) == ("bot_games", 3, "strong")
    assert assignment.options == {"target": 30}
    assert len(assignment.items) == 2
    for bad, code in [
        (BotGamesSpec("mia", "canada47", 3, "easy", 2, {"target": 5}), "bad_option"),
        (BotGamesSpec("mia", "express", 3, "easy", 2, {"colour": "red"}), "unknown_option"),
        (BotGamesSpec("add_or_multiply", "standard", 2, "easy", 2, {}), "bad_players"),
        (BotGamesSpec("mia", "express", 1, "easy", 2, {}), "bad_players"),
        (BotGamesSpec("mia", "express", 3, "genius", 2, {}), "bad_bot_level"),
        (BotGamesSpec("chess", "standard", 2, "easy", 2, {}), "unknown_game"),
        (BotGamesSpec("mia", "express", 3, "easy", 11, {}), "bad_count"),
    ]:
        with pytest.raises(engine.SetupError) as refused:
            make_assignment(classroom, spec=bad)
        assert refused.value.code == code
    with pytest.raises(engine.SetupError):
        make_assignment(classroom, spec=PuzzleSpec(size=6, difficulty=1, count=1))
    assert Assignment.objects.count() == 1


def test_teacher_sets_puzzles_through_the_form(client, classroom):
    client.force_login(classroom.teacher)
    url = reverse("classroom:homework_create", args=[classroom.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert "Solo square 3×3 (children)" in page.content.decode()
    response = client.post(url, form_data())
    assignment = Assignment.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("classroom:homework_detail", args=[assignment.pk])
    assert (assignment.classroom, assignment.variant, assignment.difficulty) == (
        classroom,
        "solo3",
        2,
    )
    assert len(assignment.items) == 3
    assert all(
        mia_puzzles.rate_deal(GAME, "solo3", i["seed"]).difficulty == 2 for i in assignment.items
    )
    assert assignment.options == {}  # the bot-game fields of the same form are ignored


def test_a_new_homework_is_due_a_week_from_today_at_five_unless_the_teacher_says(client, classroom):
    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:homework_create", args=[classroom.pk]))
    due = page.context["form"]["due_at"].value()
    week_ahead = timezone.localtime() + timedelta(days=7)
    assert (due.date(), due.hour, due.minute) == (week_ahead.date(), 17, 0)
    assert f'value="{due:%Y-%m-%dT%H:%M}"' in page.content.decode()


def test_teacher_sets_games_against_bots_with_options_through_the_form(client, classroom):
    client.force_login(classroom.teacher)
    url = reverse("classroom:homework_create", args=[classroom.pk])
    response = client.post(
        url,
        form_data(
            kind="bot_games",
            variant="mia:canada47",
            players="4",
            bot_level="random",
            count="2",
            option_target="25",
            option_first_player="seat0",
            option_wrong_limit="5",  # a SUM option: not for ¡Mía!, ignored
        ),
    )
    assert response.status_code == 302
    assignment = Assignment.objects.get()
    assert (assignment.game, assignment.variant, assignment.players) == ("mia", "canada47", 4)
    assert assignment.options == {"target": 25, "first_player": "seat0"}
    assert assignment.bot_level == "random"


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"option_target": "5"}, "Ensure this value is greater than or equal to 10."),
        ({"players": "8"}, "Ensure this value is less than or equal to 6."),
        ({"variant": "add_or_multiply:standard", "players": "4"}, "takes 3 to 3 players"),
        ({"variant": "mia:solo3"}, "Select a valid choice."),
        ({"count": "0"}, "Ensure this value is greater than or equal to 1."),
        ({"title": "   "}, "This field is required."),
    ],
)
def test_the_form_refuses_what_the_engine_would(client, classroom, overrides, message):
    client.force_login(classroom.teacher)
    url = reverse("classroom:homework_create", args=[classroom.pk])
    data = form_data(**{"kind": "bot_games", "variant": "mia:canada47", **overrides})
    response = client.post(url, data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Assignment.objects.exists()


def test_bad_options_are_refused_in_spanish_too(client, classroom):
    client.force_login(classroom.teacher)
    client.post(reverse("set_language"), {"language": "es"})
    url = reverse("classroom:homework_create", args=[classroom.pk])
    response = client.post(url, form_data(kind="bot_games", players="9"))
    assert response.status_code == 200
    assert "Deberes" in response.content.decode()


def test_edit_changes_title_and_due_date_any_time_but_content_only_before_students_begin(
    client, classroom, ana
):
    assignment = make_assignment(classroom, spec=PuzzleSpec(size=3, difficulty=1, count=2))
    client.force_login(classroom.teacher)
    url = reverse("classroom:homework_edit", args=[assignment.pk])
    # Before anyone begins: the teacher makes it 4 puzzles at difficulty 3, new deals.
    response = client.post(url, form_data(title="Four squares", count="4", difficulty="3"))
    assert response.status_code == 302
    assignment.refresh_from_db()
    assert (assignment.title, len(assignment.items), assignment.difficulty) == (
        "Four squares",
        4,
        3,
    )
    items = list(assignment.items)
    # Saving the same content again keeps the deals.
    client.post(url, form_data(title="Four squares!", count="4", difficulty="3"))
    assignment.refresh_from_db()
    assert assignment.items == items

    services.work_start(assignment=assignment, student=ana, item=0)
    page = client.get(url).content.decode()
    assert "only its title and due date can change" in page
    new_due = timezone.localtime(due(14)).replace(second=0, microsecond=0)
    response = client.post(
        url,
        form_data(
            title="Still four",
            count="9",
            difficulty="5",
            kind="bot_games",
            due_at=new_due.strftime("%Y-%m-%dT%H:%M"),
        ),
    )
    assert response.status_code == 302
    assignment.refresh_from_db()
    assert (assignment.title, assignment.due_at, assignment.items) == ("Still four", new_due, items)
    assert assignment.kind == Assignment.Kind.PUZZLES

    with pytest.raises(AssignmentLocked):
        services.assignment_update(
            assignment=assignment,
            title="x",
            due_at=due(),
            spec=PuzzleSpec(size=5, difficulty=1, count=1),
        )


def test_delete_stops_matches_still_playing_and_keeps_the_answers(client, classroom, ana, ben):
    assignment = make_assignment(classroom)
    playing = services.work_start(assignment=assignment, student=ana, item=0).match_id
    wrong_solve(playing, ana)
    finished = finish_puzzle(
        services.work_start(assignment=assignment, student=ben, item=0).match_id, ben
    )
    client.force_login(classroom.teacher)
    url = reverse("classroom:homework_delete", args=[assignment.pk])
    assert "Delete “Homework”?" in client.get(url).content.decode()
    response = client.post(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("classroom:homework_list", args=[classroom.pk])
    assert not Assignment.objects.exists()
    assert not AssignmentWork.objects.exists()
    assert Match.objects.get(pk=playing).status == Match.Status.ABANDONED
    assert Match.objects.get(pk=finished.pk).status == Match.Status.FINISHED
    assert Attempt.objects.filter(user=ana, correct=False).count() == 1


# --- students ------------------------------------------------------------------------------------


def play(client, assignment, **data):
    return client.post(reverse("classroom:homework_play", args=[assignment.pk]), data)


def match_id_of(response):
    assert response.status_code == 302, response
    found = re.fullmatch(r"/play/(\d+)/", response["Location"])
    assert found, response["Location"]
    return int(found.group(1))


def test_play_makes_the_match_on_first_use_and_resumes_it_after(client, classroom, ana):
    assignment = make_assignment(classroom, spec=PuzzleSpec(size=3, difficulty=1, count=2))
    client.force_login(ana)
    assert not Match.objects.exists()  # nothing is dealt until the student opens it
    first = match_id_of(play(client, assignment))
    match = Match.objects.get(pk=first)
    assert (match.game, match.variant, match.seed) == ("mia", "solo3", assignment.items[0]["seed"])
    assert list(Seat.objects.filter(match=match).values_list("index", "user_id", "bot_level")) == [
        (0, ana.pk, "")
    ]
    right_solve(first, ana)
    version = Match.objects.get(pk=first).version
    # She leaves and comes back: the same match, where she stopped.
    assert match_id_of(play(client, assignment)) == first
    assert Match.objects.get(pk=first).version == version
    assert AssignmentWork.objects.filter(student=ana).count() == 1
    # Once it is over, the next item.
    finish_puzzle(first, ana)
    second = match_id_of(play(client, assignment))
    assert second != first
    assert Match.objects.get(pk=second).seed == assignment.items[1]["seed"]
    finish_puzzle(second, ana)
    response = play(client, assignment)
    assert response["Location"] == reverse("classroom:homework_student", args=[assignment.pk])
    assert Match.objects.count() == 2


def test_games_against_bots_seat_the_student_first_and_bots_of_the_level(client, classroom, ana):
    spec = BotGamesSpec("mia", "express", 3, "strong", 2, {"pass_timeout_seconds": 30})
    assignment = make_assignment(classroom, spec=spec)
    client.force_login(ana)
    match = Match.objects.get(pk=match_id_of(play(client, assignment)))
    assert match.seed == assignment.items[0]["seed"]
    assert match.options["pass_timeout_seconds"] == 30
    seats = list(
        Seat.objects.filter(match=match).values_list("index", "user_id", "bot_level", "name")
    )
    assert seats == [
        (0, ana.pk, "", ana.display_name or str(ana)),
        (1, None, "strong", "Pixel"),
        (2, None, "strong", "Bolt"),
    ]


def test_a_student_may_open_a_chosen_item(client, classroom, ana):
    assignment = make_assignment(classroom, spec=PuzzleSpec(size=3, difficulty=1, count=3))
    client.force_login(ana)
    third = match_id_of(play(client, assignment, item="2"))
    assert Match.objects.get(pk=third).seed == assignment.items[2]["seed"]
    assert play(client, assignment, item="3").status_code == 404
    assert play(client, assignment, item="-1").status_code == 404
    # "Continue" goes back to what she left playing, before the items she has not begun.
    assert match_id_of(play(client, assignment)) == third


def test_a_double_tap_makes_one_match(classroom, ana, monkeypatch):
    """Two requests for the same item at once: the unique constraint lets one work in; the other
    rolls its own match back and answers with the winner's."""
    assignment = make_assignment(classroom)
    # The other request: its work and match, committed just after our look-up found nothing.
    winner = services.work_start(assignment=assignment, student=ana, item=0)
    real_lookup = services._existing_work
    lookups = []

    def lookup_too_early(*args):
        lookups.append(args)
        return None if len(lookups) == 1 else real_lookup(*args)

    monkeypatch.setattr(services, "_existing_work", lookup_too_early)
    work = services.work_start(assignment=assignment, student=ana, item=0)
    assert len(lookups) == 2  # missed, inserted, lost on the constraint, looked again
    assert (work.pk, work.match_id) == (winner.pk, winner.match_id)
    assert list(Match.objects.values_list("pk", flat=True)) == [winner.match_id]


def test_home_page_lists_open_homework_with_progress_and_overdue_marked(client, classroom, ana):
    other_class = make_class(classroom.teacher, name="Class 5C")
    make_assignment(other_class, title="Not for Ana")
    late = make_assignment(classroom, title="Late squares", due_in_days=-1)
    soon = make_assignment(
        classroom, title="Squares", spec=PuzzleSpec(size=3, difficulty=1, count=5)
    )
    done = make_assignment(classroom, title="Done squares", spec=PuzzleSpec(3, 1, 1))
    for item in range(2):
        finish_puzzle(services.work_start(assignment=soon, student=ana, item=item).match_id, ana)
    services.work_start(assignment=soon, student=ana, item=2)
    finish_puzzle(services.work_start(assignment=done, student=ana, item=0).match_id, ana)

    client.force_login(ana)
    page = client.get(reverse("classroom:student_home")).content.decode()
    assert "Not for Ana" not in page
    cards = dict(re.findall(r'data-assignment="(\d+)">(.*?)</li>', page, re.S))
    assert set(cards) == {str(late.pk), str(soon.pk)}
    assert "2 of 5 done" in cards[str(soon.pk)]
    assert ">Continue<" in cards[str(soon.pk)]
    assert "Overdue" not in cards[str(soon.pk)]
    assert "0 of 2 done" in cards[str(late.pk)]
    assert ">Play<" in cards[str(late.pk)]
    assert "Overdue" in cards[str(late.pk)]
    assert page.index(f'data-assignment="{late.pk}"') < page.index(f'data-assignment="{soon.pk}"')
    assert "Finished homework" in page
    assert "Done squares" in page.split("Finished homework")[1]


def test_the_students_own_page_shows_each_item(client, classroom, ana, ben):
    assignment = make_assignment(classroom, spec=PuzzleSpec(size=3, difficulty=1, count=3))
    first = services.work_start(assignment=assignment, student=ana, item=0).match_id
    finished = finish_puzzle(first, ana)
    services.work_start(assignment=assignment, student=ana, item=1)
    finish_puzzle(services.work_start(assignment=assignment, student=ben, item=2).match_id, ben)
    client.force_login(ana)
    page = client.get(reverse("classroom:homework_student", args=[assignment.pk])).content.decode()
    states = re.findall(r'data-item="(\d)" data-state="(\w+)"', page)
    assert states == [("0", "done"), ("1", "started"), ("2", "not_started")]
    stars = finished.outcome["scores"][0]
    assert f"Done, {stars} star" in page
    assert "1 of 3 done" in page
    assert ">Continue<" in page


# --- the teacher's pages -------------------------------------------------------------------------


def test_assignment_page_shows_completion_results_and_accuracy(client, classroom, ana, ben):
    carla = make_student(classroom, "Carla", secret="3333")
    assignment = make_assignment(classroom, spec=PuzzleSpec(size=3, difficulty=1, count=2))
    ana_first = services.work_start(assignment=assignment, student=ana, item=0).match_id
    wrong_solve(ana_first, ana)
    finished = finish_puzzle(ana_first, ana)
    ana_second = services.work_start(assignment=assignment, student=ana, item=1).match_id
    right_solve(ana_second, ana)
    for item in range(2):
        finish_puzzle(
            services.work_start(assignment=assignment, student=ben, item=item).match_id, ben
        )

    report = selectors.assignment_report(assignment=assignment)
    rows = {row.student.display_name: row for row in report.students}
    assert [i.state for i in rows["Ana"].items] == ["done", "started"]
    assert [i.state for i in rows["Ben"].items] == ["done", "done"]
    assert [i.state for i in rows["Carla"].items] == ["not_started", "not_started"]
    assert rows["Ana"].items[0].stars == finished.outcome["scores"][0]
    attempts = Attempt.objects.filter(user=ana)
    assert rows["Ana"].attempts == attempts.count()
    assert rows["Ana"].right == attempts.filter(correct=True).count() == attempts.count() - 1
    assert rows["Ana"].items[0].attempts == attempts.filter(match_id=ana_first).count()
    assert (report.finished, report.started, report.not_started) == (1, 1, 1)
    assert rows["Carla"].accuracy is None

    # Attempts outside this homework do not count in it.
    other = make_assignment(classroom, title="Other")
    wrong_solve(services.work_start(assignment=other, student=carla, item=0).match_id, carla)
    assert selectors.assignment_report(assignment=assignment).students[2].attempts == 0

    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:homework_detail", args=[assignment.pk])).content.decode()
    row = re.search(rf'data-student="{ana.pk}">(.*?)</tr>', page, re.S).group(1)
    assert "1 of 2" in row
    assert f"{rows['Ana'].accuracy}% ({rows['Ana'].right} of {rows['Ana'].attempts})" in row
    assert 'data-state="started"' in row
    assert "1 student finished" in page
    assert "1 student has begun" in page
    assert "1 student has not begun" in page
    listing = client.get(reverse("classroom:homework_list", args=[classroom.pk])).content.decode()
    entry = re.search(rf'data-assignment="{assignment.pk}">(.*?)</tr>', listing, re.S).group(1)
    assert re.findall(r"<td>(.*?)</td>", entry)[1:4] == ["1 of 3", "1", "1"]


def test_games_against_bots_report_scores_and_wins(client, classroom, ana, ben):
    spec = BotGamesSpec("add_up", "standard", 2, "easy", 2, {})
    assignment = make_assignment(classroom, spec=spec)
    won = services.work_start(assignment=assignment, student=ana, item=0).match_id
    lost = services.work_start(assignment=assignment, student=ana, item=1).match_id
    stopped = services.work_start(assignment=assignment, student=ben, item=0).match_id
    # The games' ends, as games.services leaves them (playing them out with bots takes long).
    Match.objects.filter(pk=won).update(
        status=Match.Status.FINISHED, outcome={"scores": [14, 9], "winners": [0]}
    )
    Match.objects.filter(pk=lost).update(
        status=Match.Status.FINISHED, outcome={"scores": [3, 20], "winners": [1]}
    )
    games_services.match_abandon(match_id=stopped)

    rows = {r.student.pk: r for r in selectors.assignment_report(assignment=assignment).students}
    first, second = rows[ana.pk].items
    assert (first.state, first.score, first.won, first.stars) == ("done", 14, True, None)
    assert (second.state, second.score, second.won) == ("done", 3, False)
    assert rows[ana.pk].finished
    assert (rows[ben.pk].items[0].state, rows[ben.pk].items[0].stopped) == ("done", True)
    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:homework_detail", args=[assignment.pk])).content.decode()
    assert "Won, 14 points" in page
    assert "Played, 3 points" in page
    assert "Stopped" in page
    assert "2 games of ADD UP · 48 cards with jokers · 2 players · easy bots" in page


def test_work_of_a_student_who_left_the_class_is_not_counted(client, classroom, ana, ben):
    assignment = make_assignment(classroom, spec=PuzzleSpec(3, 1, 1))
    finish_puzzle(services.work_start(assignment=assignment, student=ben, item=0).match_id, ben)
    ben.enrollments.all().delete()
    (summary,) = selectors.classroom_assignments(classroom=classroom)
    assert (summary.students, summary.finished, summary.started, summary.not_started) == (
        1,
        0,
        0,
        1,
    )
    assert [r.student for r in selectors.assignment_report(assignment=assignment).students] == [ana]


def _class_with_work(students, teacher=None):
    """A class of ``students`` where each has finished, begun or not begun a two-puzzle homework
    (in turn), with attempts."""
    classroom = make_class(teacher or make_teacher(), name=f"Class of {students}")
    assignment = make_assignment(classroom, spec=PuzzleSpec(size=3, difficulty=1, count=2))
    for n in range(students):
        student = make_student(classroom, f"S{n}", secret=f"{1000 + n}")
        if n % 3 == 2:
            continue
        match_id = services.work_start(assignment=assignment, student=student, item=0).match_id
        right_solve(match_id, student)
        if n % 3 == 0:
            finish_puzzle(match_id, student)
            services.work_start(assignment=assignment, student=student, item=1)
    make_assignment(classroom, title="Second")
    return classroom, assignment


def _queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("students", [3, 30])
def test_teacher_pages_query_counts_stay_the_same_as_the_class_grows(
    client, django_assert_num_queries, students
):
    classroom, assignment = _class_with_work(students)
    client.force_login(classroom.teacher)
    # session, user, assignment with its class, roster, works, attempt totals, the access record
    with django_assert_num_queries(7):
        page = client.get(reverse("classroom:homework_detail", args=[assignment.pk]))
    assert page.content.decode().count("data-student=") == students
    # session, user, class, assignments, roster count, per-student completion
    with django_assert_num_queries(6):
        client.get(reverse("classroom:homework_list", args=[classroom.pk]))


@pytest.mark.parametrize("assignments", [1, 12])
def test_student_homework_reads_in_one_query_whatever_the_number(
    classroom, ana, django_assert_num_queries, assignments
):
    for n in range(assignments):
        made = make_assignment(classroom, title=f"H{n}", spec=PuzzleSpec(3, 1, 1), seed=n)
        if n % 2:
            services.work_start(assignment=made, student=ana, item=0)
    with django_assert_num_queries(1):
        entries = selectors.student_assignments(student=ana)
        assert len(entries) == assignments
        assert [e.started for e in entries] == [bool(n % 2) for n in range(assignments)]
    with django_assert_num_queries(1):
        selectors.student_home_context(student=ana)


def test_student_pages_query_counts_do_not_grow_with_the_homework(client, classroom, ana):
    def counts():
        client.force_login(ana)
        return (
            _queries(client, reverse("classroom:student_home")),
            _queries(client, reverse("classroom:homework_student", args=[first.pk])),
        )

    first = make_assignment(classroom, spec=PuzzleSpec(3, 1, 2))
    few = counts()
    for n in range(8):
        more = make_assignment(classroom, title=f"H{n}", spec=PuzzleSpec(3, 1, 1), seed=n)
        services.work_start(assignment=more, student=ana, item=0)
    services.work_start(assignment=first, student=ana, item=0)
    services.work_start(assignment=first, student=ana, item=1)
    assert counts() == few
