"""The class list from the learning platform (LTI Names and Role Provisioning), end to end: the
independent platform (lti1p3platform) launches the teacher with the course's membership service
in its signed claims; the teacher's "Sync the roster now" (a Celery task, run in-process here)
asks the platform's token endpoint for an access token with a client assertion signed by the
tool's key, and reads every page of the course's members, over HTTP on 127.0.0.1
(tests/lti/service_platform.py)."""

import threading

import pytest
from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django_celery_beat.models import PeriodicTask
from django_celery_beat.schedulers import DatabaseScheduler

from classroom.lti import services as lti_services
from classroom.lti.models import LtiCourse, LtiPerson, LtiRosterSync
from classroom.models import Classroom, Enrollment, LoginCard
from games.models import Attempt
from tests.factories import make_attempts, make_class, make_student, make_teacher

from .platform import INSTRUCTOR, LEARNER, Course, KeySetServer, Person, Platform
from .service_platform import Memberships, Reply, ServicePlatform, member
from .test_launch import login, post

pytestmark = pytest.mark.django_db

User = get_user_model()
TEACHER = Person(sub="teacher-7", roles=[INSTRUCTOR], name="Ana Ruiz", email="ana@school.test")
CHILD = Person(sub="child-42", roles=[LEARNER], name="Leo Díaz", email="leo@school.test")
COURSE = Course(id="course-3B", title="3B maths")


def course_members() -> list[dict]:
    return [
        member("teacher-7", "Instructor", name="Ana Ruiz", email="ana@school.test"),
        member("child-42", "Learner", name="Leo Díaz", email="leo@school.test"),
        member("child-43", "Learner", given_name="Mia", family_name="Gómez", email="m@school.test"),
        member("child-44", "Learner", name="Noa Pérez", status="Active"),
        member("teacher-8", "Instructor", name="Marta Gil"),
        member("child-45", "Learner", name="Olga Ros", status="Inactive"),
        member(
            "child-46",
            "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner",
            name="Pau Vidal",
        ),
    ]


@pytest.fixture(autouse=True)
def eager_celery():
    """The sync's task runs in-process, with Redis as without (embedded, it always does)."""
    conf = current_app.conf
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
def platform_services(platform, key_set):
    """The platform's services on 127.0.0.1, and the tool registered with their token URL; the
    platform knows the tool's keys as the tool publishes them. (Not named ``services``: that is
    tests/conftest.py's fixture of the tests that need PostgreSQL and Redis.)"""
    server = ServicePlatform(platform)
    lti_services.registration_save(
        name="School Moodle",
        issuer=platform.issuer,
        client_id=platform.client_id,
        deployment_ids=[platform.deployment_id],
        keyset_url=key_set.url,
        auth_url=platform.auth_url,
        token_url=server.token_url,
    )
    server.tool_jwks = Client().get("/lti/.well-known/jwks.json").json()
    yield server
    server.close()


@pytest.fixture
def memberships(platform_services):
    return Memberships(platform_services, COURSE.id, course_members(), page_size=3)


def launch(client, platform, person, memberships_url: str | None):
    """A launch whose signed claims name the course's membership service (when given)."""
    message = platform.launch_message(login(client, platform, person), person, COURSE)
    if memberships_url:
        message.set_nrps(memberships_url)
    response = post(client, message.lti_launch())
    assert response.status_code == 302, response.content
    return response


@pytest.fixture
def teacher(platform, memberships):
    """The teacher's client, signed in by their launch; the class of the course."""
    client = Client()
    launch(client, platform, TEACHER, memberships.url)
    return client, Classroom.objects.get()


def sync_now(client, classroom, capture):
    """The teacher's "Sync the roster now", and the class page it leads back to."""
    with capture(execute=True):
        response = client.post(f"/lti/classes/{classroom.pk}/sync-roster/")
    assert response.status_code == 302
    assert response["Location"] == f"/teacher/classes/{classroom.pk}/#lti-heading"
    page = client.get(response["Location"])
    assert page.status_code == 200
    return page.content.decode()


def roster(classroom) -> dict[str, str]:
    """{platform user id: name here} of the class's children (by hand: "-")."""
    return {
        (getattr(getattr(e.student, "lti_person", None), "sub", None) or "-"): (
            e.student.display_name
        )
        for e in Enrollment.objects.filter(classroom=classroom).select_related(
            "student__lti_person"
        )
    }


def last_run() -> LtiRosterSync:
    return LtiRosterSync.objects.order_by("-created_at", "-pk").first()


# --- the first sync ------------------------------------------------------------------------------


def test_the_button_puts_the_courses_learners_in_the_class(
    teacher, platform_services, memberships, django_capture_on_commit_callbacks
):
    client, classroom = teacher
    assert LtiCourse.objects.get().memberships_url == memberships.url  # from the signed launch
    first = client.get(f"/teacher/classes/{classroom.pk}/").content.decode()
    assert "Learning platform" in first and "Sync the roster now" in first
    assert "has not been synced" in first
    # Its children arrive from the platform: the empty class says so, not "import a list".
    assert "They arrive from the learning platform" in first
    assert "import a list from a spreadsheet" not in first
    assert 'id="lti-grades"' in first  # the grades' part, in the same section

    page = sync_now(client, classroom, django_capture_on_commit_callbacks)

    # Active learners, every page of the list (3 a page, the next named by an opaque cursor).
    assert roster(classroom) == {
        "child-42": "Leo Díaz",
        "child-43": "Mia Gómez",
        "child-44": "Noa Pérez",
        "child-46": "Pau Vidal",
    }
    pages = [r for r in platform_services.requests if r.path == memberships.path]
    assert len(pages) == 3 and pages[1].query["cursor"] != pages[1].query["cursor"].lower()
    assert platform_services.tokens_issued == 1
    children = User.objects.filter(role="student")
    assert all(c.secret_kind == "picture" and c.email == "" for c in children)
    assert LoginCard.objects.filter(student__in=children).count() == 4  # cards to print
    assert not any("@school.test" in str(row) for row in User.objects.values_list())
    # One teacher: the course's other instructor is reported, made nothing.
    assert classroom.teacher.display_name == "Ana Ruiz"
    assert not User.objects.filter(display_name="Marta Gil").exists()
    assert not LtiPerson.objects.filter(sub="teacher-8").exists()

    run = last_run()
    assert (run.status, run.trigger, run.requested_by) == ("done", "teacher", classroom.teacher)
    assert sorted(run.added) == ["Leo Díaz", "Mia Gómez", "Noa Pérez", "Pau Vidal"]
    assert (run.renamed, run.dropped, run.members) == ([], [], 7)
    assert run.finished_at is not None
    assert "4 added: " in page and "Pau Vidal" in page
    assert "Marta Gil also teaches the course on the platform" in page
    assert "asked for by Ana Ruiz" in page


def test_a_child_who_launched_first_is_the_same_child_after_the_sync(
    teacher, platform, memberships, django_capture_on_commit_callbacks
):
    client, classroom = teacher
    launch(Client(), platform, CHILD, memberships.url)
    leo = User.objects.get(lti_person__sub="child-42")

    sync_now(client, classroom, django_capture_on_commit_callbacks)

    assert User.objects.get(lti_person__sub="child-42") == leo
    assert User.objects.filter(display_name="Leo Díaz").count() == 1
    assert "Leo Díaz" not in last_run().added


# --- later syncs ---------------------------------------------------------------------------------


def test_a_second_sync_takes_the_platforms_renames_but_never_the_teachers_renamed_child(
    teacher, memberships, django_capture_on_commit_callbacks
):
    client, classroom = teacher
    sync_now(client, classroom, django_capture_on_commit_callbacks)
    leo = User.objects.get(lti_person__sub="child-42")
    renamed = client.post(
        f"/teacher/classes/{classroom.pk}/students/{leo.pk}/name/", {"name": "Leo D."}
    )
    assert renamed.status_code == 302
    # On the platform, Leo and Mia are renamed too.
    memberships.members[1]["name"] = "Leonardo Díaz"
    memberships.members[2]["given_name"] = "Mía"

    page = sync_now(client, classroom, django_capture_on_commit_callbacks)

    assert roster(classroom) == {
        "child-42": "Leo D.",  # the teacher's name stays
        "child-43": "Mía Gómez",  # the platform's new name is taken
        "child-44": "Noa Pérez",
        "child-46": "Pau Vidal",
    }
    run = last_run()
    assert (run.added, run.renamed, run.dropped) == ([], [["Mia Gómez", "Mía Gómez"]], [])
    assert "Mia Gómez is now Mía Gómez" in page
    assert "Leo D. keeps the name given here; the platform now calls them Leonardo Díaz" in page

    # A third sync: nothing changed anywhere, nothing is changed or reported.
    page = sync_now(client, classroom, django_capture_on_commit_callbacks)
    run = last_run()
    assert (run.added, run.renamed, run.dropped, run.notes[1:]) == ([], [], [], [])
    assert run.notes == [["extra_instructor", "Marta Gil", ""]]
    assert roster(classroom)["child-42"] == "Leo D."
    assert "nothing needed changing" in page


def test_a_deleted_child_leaves_no_name_in_the_syncs_records(
    teacher, memberships, django_capture_on_commit_callbacks
):
    client, classroom = teacher
    sync_now(client, classroom, django_capture_on_commit_callbacks)
    memberships.members[2]["given_name"] = "Mía"  # renamed on the platform
    sync_now(client, classroom, django_capture_on_commit_callbacks)
    mia = User.objects.get(lti_person__sub="child-43")
    assert mia.display_name == "Mía Gómez"

    deleted = client.post(f"/teacher/classes/{classroom.pk}/students/{mia.pk}/delete/")

    assert deleted.status_code == 302 and not User.objects.filter(pk=mia.pk).exists()
    runs = list(LtiRosterSync.objects.filter(course__classroom=classroom))
    recorded = repr([(r.added, r.renamed, r.dropped, r.notes) for r in runs])
    assert "Mia" not in recorded and "Mía" not in recorded, recorded
    # The classmates stay named, and the page shows the runs without her.
    assert {"Leo Díaz", "Noa Pérez", "Pau Vidal"} <= set(runs[-1].added)
    client.get(f"/teacher/classes/{classroom.pk}/")  # the message that she was deleted, read
    page = client.get(f"/teacher/classes/{classroom.pk}/").content.decode()
    assert "Gómez" not in page and "Noa Pérez" in page


def test_a_child_dropped_from_the_course_leaves_the_class_and_keeps_their_answers(
    teacher, memberships, django_capture_on_commit_callbacks
):
    client, classroom = teacher
    by_hand = make_student(classroom, name="Quim (added here)")
    sync_now(client, classroom, django_capture_on_commit_callbacks)
    noa = User.objects.get(lti_person__sub="child-44")
    make_attempts(noa, [(3, "+", 4, 7, 1500), (6, "x", 7, 42, 3000)])
    # Noa leaves the course; Pau is Deleted, Mia Inactive there.
    memberships.members = [m for m in memberships.members if m["user_id"] != "child-44"]
    memberships.members[-1]["status"] = "Deleted"
    memberships.members[2]["status"] = "Inactive"

    page = sync_now(client, classroom, django_capture_on_commit_callbacks)

    assert roster(classroom) == {"child-42": "Leo Díaz", "-": "Quim (added here)"}
    noa.refresh_from_db()  # the account stays, with everything it answered
    assert Attempt.objects.filter(user=noa).count() == 2
    assert Enrollment.objects.filter(student=by_hand, classroom=classroom).exists()
    assert sorted(last_run().dropped) == ["Mia Gómez", "Noa Pérez", "Pau Vidal"]
    assert "3 left the class (their answers are kept)" in page

    # Noa comes back: the same account, back in the class, with her answers.
    memberships.members.append(member("child-44", "Learner", name="Noa Pérez"))
    sync_now(client, classroom, django_capture_on_commit_callbacks)
    assert roster(classroom)["child-44"] == "Noa Pérez"
    assert User.objects.get(lti_person__sub="child-44") == noa
    assert last_run().added == ["Noa Pérez"]


# --- failures: recorded, nothing changed --------------------------------------------------------


def refuse_tokens(server, memberships):
    server.tool_jwks = {"keys": []}  # the platform does not know the tool's key


def answer_500(server, memberships):
    server.routes[("GET", memberships.path)] = lambda request: Reply(500, "Internal error")


def fail_second_page(server, memberships):
    first_page = memberships

    def handler(request):
        if "cursor" in request.query:
            return Reply(503, "maintenance")
        return first_page(request)

    server.routes[("GET", memberships.path)] = handler


def refuse_bearer(server, memberships):
    def handler(request):
        return server.authorized(request, "https://example.test/another-scope") or Reply(200)

    server.routes[("GET", memberships.path)] = handler


def go_down(server, memberships):
    server.close()


def list_nobody(server, memberships):
    memberships.members = []


FAILURES = [
    (
        refuse_tokens,
        "token_refused",
        "the platform refused this tool&#x27;s access",
        "invalid_client",
    ),
    (answer_500, "platform_error", "the platform answered with an error", "HTTP 500"),
    (fail_second_page, "platform_error", "the platform answered with an error", "HTTP 503"),
    (refuse_bearer, "refused", "the platform refused to give the class list", "HTTP 401"),
    (go_down, "unreachable", "the platform could not be reached", "/token"),
    (list_nobody, "unreadable", "the platform&#x27;s answer could not be read", "nobody"),
]


@pytest.mark.parametrize(
    ("break_it", "failure", "says", "detail"), FAILURES, ids=[f[0].__name__ for f in FAILURES]
)
def test_a_failed_sync_records_why_and_changes_nothing(
    teacher,
    platform_services,
    memberships,
    django_capture_on_commit_callbacks,
    break_it,
    failure,
    says,
    detail,
):
    client, classroom = teacher
    sync_now(client, classroom, django_capture_on_commit_callbacks)
    before = roster(classroom)
    memberships.members[1]["name"] = "Leonardo Díaz"  # what a working sync would change
    del memberships.members[3]
    break_it(platform_services, memberships)

    page = sync_now(client, classroom, django_capture_on_commit_callbacks)

    assert roster(classroom) == before
    run = last_run()
    assert (run.status, run.failure) == ("failed", failure)
    assert detail in run.error
    assert (run.added, run.renamed, run.dropped) == ([], [], [])
    assert f"It failed: {says}. Nothing was changed." in page
    assert LtiPerson.objects.get(sub="child-42").imported_name == "Leo Díaz"


def test_a_platform_that_never_answers_is_given_up_on(
    teacher, platform_services, memberships, django_capture_on_commit_callbacks, settings
):
    client, classroom = teacher
    settings.LTI_SERVICE_TIMEOUT_SECONDS = 0.5
    release = threading.Event()

    def hang(request):
        release.wait(timeout=10)
        return Reply(200, {"members": []})

    platform_services.routes[("GET", memberships.path)] = hang
    try:
        sync_now(client, classroom, django_capture_on_commit_callbacks)
    finally:
        release.set()
    run = last_run()
    assert (run.status, run.failure) == ("failed", "unreachable")
    assert Enrollment.objects.filter(classroom=classroom).count() == 0


# --- the page and who may ask --------------------------------------------------------------------


def test_a_course_whose_platform_offers_no_class_list_says_what_the_admin_must_enable(
    platform, platform_services, django_capture_on_commit_callbacks
):
    client = Client()
    launch(client, platform, TEACHER, memberships_url=None)
    classroom = Classroom.objects.get()
    page = client.get(f"/teacher/classes/{classroom.pk}/").content.decode()
    assert "Learning platform" in page
    assert "switches on Names and Role Provisioning" in page
    assert "Sync the roster now" not in page
    sync_now(client, classroom, django_capture_on_commit_callbacks)
    assert (last_run().status, last_run().failure) == ("failed", "no_service")


def test_only_the_classs_teacher_syncs_it_and_only_a_linked_class(
    teacher, django_capture_on_commit_callbacks
):
    _client, classroom = teacher
    other = Client()
    stranger = make_teacher()
    other.force_login(stranger)
    assert other.post(f"/lti/classes/{classroom.pk}/sync-roster/").status_code == 404
    own = make_class(stranger)
    assert other.post(f"/lti/classes/{own.pk}/sync-roster/").status_code == 404
    page = other.get(f"/teacher/classes/{own.pk}/").content.decode()
    assert "Learning platform" not in page
    assert _client.get(f"/lti/classes/{classroom.pk}/sync-roster/").status_code == 405
    assert LtiRosterSync.objects.count() == 0


# --- the schedule --------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)  # the scheduler closes its connection, as beat does
def test_the_nightly_schedule_syncs_every_linked_class(
    teacher, platform, memberships, django_capture_on_commit_callbacks
):
    _client, classroom = teacher
    entry = settings.CELERY_BEAT_SCHEDULE["lti-sync-rosters"]
    # django-celery-beat's scheduler (as `celery beat` runs it) installs the entry...
    DatabaseScheduler(app=current_app)
    task = PeriodicTask.objects.get(name="lti-sync-rosters")
    assert task.task == entry["task"] and task.crontab is not None and task.enabled
    assert entry["task"] in current_app.tasks
    # ...and its task, sent as the beat sends it, syncs the class.
    with django_capture_on_commit_callbacks(execute=True):
        current_app.tasks[task.task].apply_async()
    run = last_run()
    assert (run.status, run.trigger, run.requested_by) == ("done", "schedule", None)
    assert len(roster(classroom)) == 4
    page = _client.get(f"/teacher/classes/{classroom.pk}/").content.decode()
    assert "on the schedule" in page


def test_the_nightly_schedule_leaves_out_courses_without_a_class_list(
    platform, platform_services, django_capture_on_commit_callbacks
):
    launch(Client(), platform, TEACHER, memberships_url=None)
    with django_capture_on_commit_callbacks(execute=True):
        current_app.tasks["classroom.lti.tasks.sync_every_roster"].delay()
    assert LtiRosterSync.objects.count() == 0
