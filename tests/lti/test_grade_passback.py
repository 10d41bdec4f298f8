"""Grades back to the learning platform (LTI Assignment and Grade Services), end to end: the
independent platform (lti1p3platform) launches the teacher and the children with the AGS endpoint
claim; the children finish homework through its pages and the games service; the teacher's "Send
the grades now" runs the Celery task, which asks the platform's token endpoint for a token (its
client assertion checked against the tool's key set) and sends the scores to the platform's
gradebook on 127.0.0.1 (tests/lti/service_platform.py), where each score is checked and kept as
it arrived."""

import datetime as dt
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from classroom.homework.services import work_start
from classroom.lti import services as lti_services
from classroom.lti import tasks
from classroom.lti.models import LtiGradeRun, LtiGradeService, LtiLineItem, LtiScoreSent
from classroom.models import Classroom
from classroom.progress.mastery import student_skill_mastery
from config.celery import app as celery_app
from games.models import Attempt
from tests.classroom.homework_helpers import finish_puzzle
from tests.factories import make_assignment, make_class, make_student, make_teacher

from .platform import (
    INSTRUCTOR,
    LEARNER,
    Course,
    KeySetServer,
    Person,
    Platform,
    auth_params_of,
    path_of,
)
from .service_platform import Gradebook, Reply, ServicePlatform

pytestmark = pytest.mark.django_db

User = get_user_model()
TEACHER = Person(sub="teacher-7", roles=[INSTRUCTOR], name="Ana Ruiz")
LEO = Person(sub="child-42", roles=[LEARNER], name="Leo Díaz")
MIA = Person(sub="child-43", roles=[LEARNER], name="Mia Soto")
COURSE = Course(id="course-3B", title="3B maths")
SEND = "/lti/classes/{}/send-grades/"


@pytest.fixture(autouse=True)
def eager_celery():
    # The services pass sets REDIS_URL, which sends tasks to the broker; here they run in-process.
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved


@pytest.fixture
def key_set():
    server = KeySetServer()
    yield server
    server.close()


@pytest.fixture
def platform(key_set):
    lti_services.keys_rotate(rotate=False)  # the tool's own key, as `manage.py lti_keys` makes it
    platform = Platform(
        issuer="https://moodle.school.test",
        client_id="client-abc",
        deployment_id="deployment-1",
        key_set=key_set,
    )
    platform.publish_key()
    return platform


@pytest.fixture
def services(platform):
    services = ServicePlatform(platform)
    platform.token_url = services.token_url
    lti_services.registration_save(
        name="School Moodle",
        issuer=platform.issuer,
        client_id=platform.client_id,
        deployment_ids=[platform.deployment_id],
        keyset_url=platform.key_set.url,
        auth_url=platform.auth_url,
        token_url=services.token_url,
    )
    # The tool's key set as the platform fetches it from /lti/.well-known/jwks.json.
    services.tool_jwks = Client().get("/lti/.well-known/jwks.json").json()
    yield services
    services.close()


@pytest.fixture
def gradebook(services):
    return Gradebook(services)


def launch(client, platform, person, *, claims=None, custom=None):
    """The OIDC login, then the platform's signed launch, with ``claims`` added (AGS's)."""
    response = client.get(path_of(platform.login_url(person)))
    assert response.status_code == 302, response.content
    message = platform.launch_message(auth_params_of(response["Location"]), person, COURSE)
    if claims:
        message.set_extra_claims(claims)
    if custom:
        message.set_custom_parameters_claim(custom)
    form = message.lti_launch()
    response = client.post(
        path_of(form["launch_url"]), {"id_token": form["id_token"], "state": form["state"]}
    )
    assert response.status_code == 302, response.content
    return response


@pytest.fixture
def linked(platform, services, gradebook):
    """The teacher's launch made the class; Leo's and Mia's made them its children; Noa was added
    here by hand (no account on the platform). One homework of two puzzles, due in a week."""
    teacher = Client()
    launch(teacher, platform, TEACHER, claims=gradebook.claim())
    classroom = Classroom.objects.get()
    children = {}
    for person in (LEO, MIA):
        children[person.sub] = Client()
        launch(children[person.sub], platform, person, claims=gradebook.claim())
    noa = make_student(classroom, name="Noa")
    homework = make_assignment(classroom, title="Sums to 10")
    return {
        "teacher": teacher,
        "classroom": classroom,
        "leo": children[LEO.sub],
        "mia": children[MIA.sub],
        "noa": noa,
        "homework": homework,
    }


def play_item(child: Client, homework) -> int:
    """The child opens the homework's next item from their page; its match's id."""
    response = child.post(f"/me/homework/{homework.pk}/play/")
    assert response.status_code == 302, response.content
    return int(re.fullmatch(r"/play/(\d+)/", response["Location"]).group(1))


def student(person: Person):
    return User.objects.get(lti_person__sub=person.sub)


def finish(child: Client, homework, items: int = 2) -> None:
    """The child plays the homework's next ``items`` puzzles to their end, from their page."""
    for _ in range(items):
        match_id = play_item(child, homework)
        finish_puzzle(match_id, User.objects.get(pk=child.session["_auth_user_id"]))


def send_now(linked, django_capture_on_commit_callbacks, **data):
    with django_capture_on_commit_callbacks(execute=True):
        response = linked["teacher"].post(SEND.format(linked["classroom"].pk), data)
    assert response.status_code == 302
    assert response["Location"] == f"/teacher/classes/{linked['classroom'].pk}/#lti-grades"
    return LtiGradeRun.objects.order_by("-pk").first()


def scores_by_user(gradebook, item) -> dict[str, list[dict]]:
    by_user: dict[str, list[dict]] = {}
    for score in gradebook.scores_of(item):
        by_user.setdefault(score["userId"], []).append(score)
    return by_user


# --- the launch ----------------------------------------------------------------------------------


def test_a_launch_keeps_the_courses_gradebook_service_as_the_platform_names_it(
    platform, services, gradebook
):
    launch(Client(), platform, TEACHER)  # no AGS claim: nothing to keep
    assert not LtiGradeService.objects.exists()

    launch(Client(), platform, TEACHER, claims=gradebook.claim())
    service = LtiGradeService.objects.get()
    assert service.course.classroom == Classroom.objects.get()
    assert service.lineitems_url == gradebook.lineitems_url
    assert "https://purl.imsglobal.org/spec/lti-ags/scope/score" in service.scopes
    assert not service.send_mastery


def test_a_link_to_a_homework_with_its_own_column_sends_the_homeworks_results_there(
    platform, services, gradebook, django_capture_on_commit_callbacks
):
    teacher = Client()
    launch(teacher, platform, TEACHER, claims=gradebook.claim())
    classroom = Classroom.objects.get()
    homework = make_assignment(classroom, title="Sums to 10")
    column = gradebook.add(label="Sums to 10 (the link's)", scoreMaximum=10, resourceLinkId="rl-1")
    leo = Client()
    launch(
        leo,
        platform,
        LEO,
        claims=gradebook.claim(lineitem=column["id"]),
        custom={"assignment": str(homework.pk)},
    )
    finish(leo, homework)

    run = send_now({"teacher": teacher, "classroom": classroom}, django_capture_on_commit_callbacks)

    assert run.status == LtiGradeRun.Status.DONE
    assert len(gradebook.line_items) == 1  # no second column made
    assert [s["userId"] for s in gradebook.scores_of(column)] == [LEO.sub]


# --- sending -------------------------------------------------------------------------------------


def test_send_the_grades_now_sends_each_finished_childs_result_once(
    linked, gradebook, django_capture_on_commit_callbacks
):
    homework = linked["homework"]
    finish(linked["leo"], homework)  # both puzzles
    finish(linked["mia"], homework, items=1)  # one of two
    noa = linked["noa"]
    for item in range(2):  # Noa finishes too, but the platform does not know her
        finish_puzzle(work_start(assignment=homework, student=noa, item=item).match_id, noa)

    run = send_now(linked, django_capture_on_commit_callbacks)

    assert (run.status, run.trigger, run.tries) == ("done", "teacher", 1)
    (column,) = gradebook.line_items
    assert column["label"] == "Sums to 10"
    assert column["resourceId"] == f"homework-{homework.pk}"
    assert column["scoreMaximum"] == 100
    (score,) = gradebook.scores_of(column)  # Leo's alone: Mia is not done, Noa is not theirs
    assert score["userId"] == LEO.sub
    assert (score["scoreGiven"], score["scoreMaximum"]) == (100, 100)
    assert (score["activityProgress"], score["gradingProgress"]) == ("Completed", "FullyGraded")
    sent_at = dt.datetime.fromisoformat(score["timestamp"])
    assert abs(sent_at - timezone.now()) < dt.timedelta(minutes=1)
    assert (run.sent, run.unchanged, run.left_out) == (1, 0, 1)
    record = LtiScoreSent.objects.get()
    assert (record.student.display_name, record.score_given, record.sent_at) == (
        "Leo Díaz",
        100,
        sent_at,
    )

    # Again: nothing new to send, nothing sent.
    again = send_now(linked, django_capture_on_commit_callbacks)
    assert (again.status, again.sent, again.unchanged) == ("done", 0, 1)
    assert len(gradebook.scores) == 1 and len(gradebook.line_items) == 1

    # Mia finishes: hers alone goes, in the same column.
    finish(linked["mia"], homework, items=1)
    third = send_now(linked, django_capture_on_commit_callbacks)
    assert (third.sent, third.unchanged) == (1, 1)
    by_user = scores_by_user(gradebook, column)
    assert {user: len(scores) for user, scores in by_user.items()} == {LEO.sub: 1, MIA.sub: 1}
    assert by_user[MIA.sub][0]["scoreGiven"] == 100


def test_a_changed_result_sends_one_update(linked, gradebook, django_capture_on_commit_callbacks):
    homework = linked["homework"]
    finish(linked["mia"], homework, items=1)
    # Past due: what Mia did counts, in progress.
    homework.due_at = timezone.now() - dt.timedelta(hours=1)
    homework.save(update_fields=["due_at"])

    first = send_now(linked, django_capture_on_commit_callbacks)
    (column,) = gradebook.line_items
    (score,) = gradebook.scores_of(column)
    assert (score["userId"], score["scoreGiven"], score["activityProgress"]) == (
        MIA.sub,
        50,
        "InProgress",
    )
    assert first.sent == 1

    finish(linked["mia"], homework, items=1)
    second = send_now(linked, django_capture_on_commit_callbacks)

    assert (second.sent, second.unchanged) == (1, 0)
    before, after = gradebook.scores_of(column)
    assert (after["userId"], after["scoreGiven"], after["activityProgress"]) == (
        MIA.sub,
        100,
        "Completed",
    )
    assert dt.datetime.fromisoformat(after["timestamp"]) > dt.datetime.fromisoformat(
        before["timestamp"]
    )
    assert LtiScoreSent.objects.get().score_given == 100
    send_now(linked, django_capture_on_commit_callbacks)
    assert len(gradebook.scores) == 2


def test_a_link_to_a_homework_brings_its_own_column_in_place_of_the_tools(
    linked, platform, gradebook, django_capture_on_commit_callbacks
):
    homework = linked["homework"]
    finish(linked["leo"], homework)
    send_now(linked, django_capture_on_commit_callbacks)
    (made,) = gradebook.line_items
    # The teacher then links the homework in the course, with a column of its own.
    column = gradebook.add(label="Sums to 10", scoreMaximum=100, resourceLinkId="rl-2")
    launch(
        Client(),
        platform,
        MIA,
        claims=gradebook.claim(lineitem=column["id"]),
        custom={"assignment": str(homework.pk)},
    )

    run = send_now(linked, django_capture_on_commit_callbacks)

    assert (run.status, run.sent) == ("done", 1)
    assert [s["userId"] for s in gradebook.scores_of(column)] == [LEO.sub]
    assert len(gradebook.scores_of(made)) == 1  # the old column keeps what it had
    assert LtiLineItem.objects.get().url == column["id"]


def test_a_score_the_platform_refuses_is_counted_and_the_others_go(
    linked, services, gradebook, django_capture_on_commit_callbacks
):
    homework = linked["homework"]
    finish(linked["leo"], homework)
    finish(linked["mia"], homework)
    column = gradebook.add(
        label="Sums to 10", scoreMaximum=100, resourceId=f"homework-{homework.pk}"
    )
    route = ("POST", column["id"].removeprefix(services.base_url) + "/scores")
    takes = services.routes[route]

    def refuses_mia(request):
        if request.json()["userId"] == MIA.sub:
            return Reply(400, {"error": "no such user in the course"})
        return takes(request)

    services.routes[route] = refuses_mia
    run = send_now(linked, django_capture_on_commit_callbacks)

    assert (run.status, run.sent, run.tries) == ("done", 1, 1)
    assert run.error == "The learning platform refused 1 score: HTTP 400."
    assert [s["userId"] for s in gradebook.scores_of(column)] == [LEO.sub]

    services.routes[route] = takes  # Mia is back in the course: hers goes at the next run
    again = send_now(linked, django_capture_on_commit_callbacks)
    assert (again.sent, again.unchanged, again.error) == (1, 1, "")
    assert [s["userId"] for s in gradebook.scores_of(column)] == [LEO.sub, MIA.sub]


def test_a_registration_switched_off_here_sends_nothing(
    linked, gradebook, django_capture_on_commit_callbacks
):
    finish(linked["leo"], linked["homework"])
    registration = LtiGradeService.objects.get().course.deployment.registration
    registration.is_active = False
    registration.save()

    run = send_now(linked, django_capture_on_commit_callbacks)

    assert run.status == LtiGradeRun.Status.FAILED
    assert run.error == ("The learning platform's registration or deployment is switched off here.")
    assert not gradebook.scores and not gradebook.line_items


# --- the platform down ---------------------------------------------------------------------------


def test_the_platform_down_for_a_while_the_task_tries_again_and_sends_each_score_once(
    linked, services, gradebook, django_capture_on_commit_callbacks
):
    homework = linked["homework"]
    finish(linked["leo"], homework)
    finish(linked["mia"], homework)
    services.down = 2  # the first try's token request, and the second's, answer 503

    run = send_now(linked, django_capture_on_commit_callbacks)

    assert (run.status, run.tries, run.sent) == ("done", 3, 2)
    assert "HTTP 503" in run.error  # why it took three tries
    (column,) = gradebook.line_items
    by_user = scores_by_user(gradebook, column)
    assert {user: len(scores) for user, scores in by_user.items()} == {LEO.sub: 1, MIA.sub: 1}


def test_down_in_the_middle_of_a_run_the_retry_sends_only_what_is_missing(
    linked, services, gradebook, django_capture_on_commit_callbacks
):
    homework = linked["homework"]
    finish(linked["leo"], homework)
    finish(linked["mia"], homework)
    # A column the tool made before (found by its resourceId, not made again); its scores
    # service fails once, at the second score.
    column = gradebook.add(
        label="Sums to 10", scoreMaximum=100, resourceId=f"homework-{homework.pk}"
    )
    route = ("POST", column["id"].removeprefix(services.base_url) + "/scores")
    takes = services.routes[route]
    calls = []

    def fails_once_at_the_second(request):
        calls.append(request)
        if len(calls) == 2:
            return Reply(503, "Service Unavailable", content_type="text/plain")
        return takes(request)

    services.routes[route] = fails_once_at_the_second

    run = send_now(linked, django_capture_on_commit_callbacks)

    assert (run.status, run.tries, run.sent, run.unchanged) == ("done", 2, 2, 0)
    assert len(gradebook.line_items) == 1
    by_user = scores_by_user(gradebook, column)
    assert {user: len(scores) for user, scores in by_user.items()} == {LEO.sub: 1, MIA.sub: 1}
    assert len(calls) == 3  # Leo's, Mia's refused, Mia's again: Leo's not twice


def test_the_platform_down_through_every_try_fails_the_run_saying_why_then_sends_once_up(
    linked, services, gradebook, django_capture_on_commit_callbacks
):
    homework = linked["homework"]
    finish(linked["leo"], homework)
    services.down = 1000

    run = send_now(linked, django_capture_on_commit_callbacks)

    assert run.status == LtiGradeRun.Status.FAILED
    assert run.tries == tasks.send_grades.max_retries + 1
    assert run.error == "The learning platform did not answer (HTTP 503)."
    assert run.finished_at is not None
    assert not gradebook.scores and not LtiScoreSent.objects.exists()
    service = LtiGradeService.objects.get()
    assert service.sending_until is None  # the course is free for the next run

    services.down = 0
    again = send_now(linked, django_capture_on_commit_callbacks)
    assert (again.status, again.sent) == ("done", 1)
    assert [s["userId"] for s in gradebook.scores_of(gradebook.line_items[0])] == [LEO.sub]


def test_a_platform_that_cannot_be_reached_fails_the_run_saying_so(
    linked, platform, services, django_capture_on_commit_callbacks
):
    finish(linked["leo"], linked["homework"])
    closed = ServicePlatform(platform)
    closed.close()  # nothing listens at its address any more
    registration = LtiGradeService.objects.get().course.deployment.registration
    registration.token_url = closed.token_url
    registration.save()

    run = send_now(linked, django_capture_on_commit_callbacks)

    assert run.status == LtiGradeRun.Status.FAILED
    assert run.error == "The learning platform did not answer (ConnectionError)."


def test_a_column_deleted_on_the_platform_is_made_again_with_every_score(
    linked, gradebook, django_capture_on_commit_callbacks
):
    homework = linked["homework"]
    finish(linked["leo"], homework)
    finish(linked["mia"], homework, items=1)
    send_now(linked, django_capture_on_commit_callbacks)
    (old,) = gradebook.line_items
    gradebook.remove(old)  # the teacher deleted the column in the platform's gradebook

    finish(linked["mia"], homework, items=1)
    run = send_now(linked, django_capture_on_commit_callbacks)

    assert run.status == LtiGradeRun.Status.DONE
    (new,) = gradebook.line_items
    assert new["id"] != old["id"] and new["resourceId"] == f"homework-{homework.pk}"
    by_user = scores_by_user(gradebook, new)
    assert {user: len(scores) for user, scores in by_user.items()} == {LEO.sub: 1, MIA.sub: 1}
    assert LtiLineItem.objects.get().url == new["id"]


def test_a_run_that_finds_another_sending_for_the_class_leaves_it_to_that_one(
    linked, gradebook, django_capture_on_commit_callbacks
):
    finish(linked["leo"], linked["homework"])
    # Another run holds the class: a worker sending its grades now.
    LtiGradeService.objects.update(sending_until=timezone.now() + dt.timedelta(minutes=5))

    run = send_now(linked, django_capture_on_commit_callbacks)

    assert (run.status, run.tries, run.sent) == ("skipped", 0, 0)
    assert run.error == "Another sending of this class's grades was under way."
    assert not gradebook.scores
    # A worker that died holding it frees the class once its time is up.
    LtiGradeService.objects.update(sending_until=timezone.now() - dt.timedelta(seconds=1))
    assert send_now(linked, django_capture_on_commit_callbacks).sent == 1


# --- the mastery figure --------------------------------------------------------------------------


def test_the_teacher_chooses_to_send_a_mastery_figure_too(
    linked, gradebook, django_capture_on_commit_callbacks
):
    homework = linked["homework"]
    finish(linked["leo"], homework)

    run = send_now(linked, django_capture_on_commit_callbacks, send_mastery="on")

    assert run.with_mastery and run.sent == 2
    assert LtiGradeService.objects.get().send_mastery  # the schedule follows the choice
    result, mastery = gradebook.line_items
    assert result["resourceId"] == f"homework-{homework.pk}"
    assert mastery["resourceId"] == f"homework-{homework.pk}-mastery"
    assert mastery["label"] == "Sums to 10: mastery (0 to 4)"
    assert mastery["scoreMaximum"] == 4
    (score,) = gradebook.scores_of(mastery)
    # Leo's level at each skill he answered in the homework, as his progress page reads it.
    leo = student(LEO)
    skills = set(
        Attempt.objects.filter(user=leo, match__assignment_work__assignment=homework).values_list(
            "skill", flat=True
        )
    )
    now = timezone.now()
    levels = student_skill_mastery(student_id=leo.pk, start=now - dt.timedelta(days=120), end=now)
    expected = round(sum(int(levels[skill].level) for skill in skills) / len(skills), 1)
    assert skills and score["scoreGiven"] == expected > 0
    assert (score["userId"], score["scoreMaximum"]) == (LEO.sub, 4)

    # Unticked: the results alone from now on; the mastery column keeps what it had.
    finish(linked["mia"], homework)
    later = send_now(linked, django_capture_on_commit_callbacks)
    assert not later.with_mastery and later.sent == 1
    assert [s["userId"] for s in gradebook.scores_of(result)] == [LEO.sub, MIA.sub]
    assert len(gradebook.scores_of(mastery)) == 1


# --- the schedule --------------------------------------------------------------------------------


def test_celery_beat_sends_every_linked_classs_changed_grades_every_hour(linked, gradebook):
    entries = {entry["task"]: entry for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "classroom.lti.tasks.send_grades_of_every_course" in entries
    homework = linked["homework"]
    finish(linked["leo"], homework)
    other = make_teacher(email="other@school.test")
    make_assignment(make_class(other, name="Not linked"))

    assert tasks.send_grades_of_every_course.delay().get() == 1
    run = LtiGradeRun.objects.get()
    assert (run.trigger, run.status, run.sent) == ("schedule", "done", 1)
    assert tasks.send_grades_of_every_course.delay().get() == 1
    assert len(gradebook.scores) == 1  # nothing changed, nothing sent


# --- the class page ------------------------------------------------------------------------------


def page_text(client, classroom) -> str:
    response = client.get(f"/teacher/classes/{classroom.pk}/")
    assert response.status_code == 200
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def test_the_class_page_says_when_the_grades_last_went_and_what_went_or_why_not(
    linked, services, gradebook, django_capture_on_commit_callbacks
):
    teacher, classroom, homework = linked["teacher"], linked["classroom"], linked["homework"]
    text = page_text(teacher, classroom)
    assert "Learning platform" in text and "Grades" in text
    assert "No grades have been sent to the platform yet." in text
    page = teacher.get(f"/teacher/classes/{classroom.pk}/").content.decode()
    assert f'action="/lti/classes/{classroom.pk}/send-grades/"' in page
    assert 'name="send_mastery"' in page and "Send the grades now" in page

    finish(linked["leo"], homework)
    noa = linked["noa"]  # she finishes too, but the platform does not know her
    for item in range(2):
        finish_puzzle(work_start(assignment=homework, student=noa, item=item).match_id, noa)
    send_now(linked, django_capture_on_commit_callbacks)
    text = page_text(teacher, classroom)
    assert "asked for here. 1 score sent." in text
    assert "1 child who did not come from the platform was left out." in text  # Noa
    assert "Sums to 10 Leo Díaz 100 of 100" in text  # the table: homework, child, score

    send_now(linked, django_capture_on_commit_callbacks)
    text = page_text(teacher, classroom)
    assert "Nothing new to send. 1 score was already there as it is." in text

    finish(linked["mia"], homework)
    services.down = 1000
    send_now(linked, django_capture_on_commit_callbacks)
    text = page_text(teacher, classroom)
    assert "It failed: The learning platform did not answer (HTTP 503)." in text

    services.down = 0
    send_now(linked, django_capture_on_commit_callbacks, send_mastery="on")
    page = teacher.get(f"/teacher/classes/{classroom.pk}/").content.decode()
    assert 'id="lti-send-mastery" aria-describedby="lti-send-mastery-hint" checked' in page
    assert "Sums to 10: mastery" in " ".join(re.sub(r"<[^>]+>", " ", page).split())


def test_a_linked_class_whose_platform_offers_no_gradebook_says_so(platform, services):
    teacher = Client()
    launch(teacher, platform, TEACHER)  # no AGS claim
    text = page_text(teacher, Classroom.objects.get())
    assert "The platform has not offered this course's gradebook yet." in text
    assert "Send the grades now" not in text


# --- who may ask ---------------------------------------------------------------------------------


def test_only_the_classs_teacher_sends_its_grades_and_only_by_post(linked, gradebook):
    url = SEND.format(linked["classroom"].pk)
    assert linked["teacher"].get(url).status_code == 405
    stranger = Client()
    stranger.force_login(make_teacher(email="stranger@school.test"))
    assert stranger.post(url).status_code == 404
    assert linked["leo"].post(url).status_code in (302, 403)  # a child: to sign-in, or refused
    not_linked = make_class(linked["classroom"].teacher, name="Not linked")
    assert linked["teacher"].post(SEND.format(not_linked.pk)).status_code == 404
    assert not LtiGradeRun.objects.exists()
