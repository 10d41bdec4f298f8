"""LTI Deep Linking end to end: the independent platform (lti1p3platform) sends a teacher's
"Select content" (an LtiDeepLinkingRequest) through the tool's OIDC login; the teacher picks on
the tool's page; the platform checks the tool's signed LtiDeepLinkingResponse against the tool's
key set; then launches of the link it saved (its custom parameters) land the teacher and a child
exactly where the link promises. Whatever the tool must refuse is answered with a page, one log
line, and no row written."""

import datetime as dt
import json
from urllib.parse import parse_qsl, urlsplit

import jwt
import pytest
from django.test import Client
from django.utils import timezone

from classroom.lti import services
from classroom.lti.models import LtiUsedNonce
from classroom.models import Assignment, Classroom, ClassSession, SessionPresence
from classroom.practice import services as practice
from classroom.services import classroom_create
from classroom.sessions import services as session_services

from .deep_linking_platform import (
    RETURN_URL,
    content_items,
    deep_linking_request,
    forms_of,
    response_checked,
)
from .platform import INSTRUCTOR, LEARNER, Course, KeySetServer, Person, Platform, path_of
from .test_launch import assert_refused_writing_nothing, launch, launch_form, login, post

pytestmark = pytest.mark.django_db

TEACHER = Person(sub="teacher-7", roles=[INSTRUCTOR], name="Ana Ruiz")
CHILD = Person(sub="child-42", roles=[LEARNER], name="Leo Díaz")
OTHER_CHILD = Person(sub="child-43", roles=[LEARNER], name="Mia Sanz")
COURSE = Course(id="course-3B", title="3B maths")


@pytest.fixture
def key_set():
    server = KeySetServer()
    yield server
    server.close()


@pytest.fixture
def platform(key_set):
    services.keys_rotate(rotate=False)
    platform = Platform(
        issuer="https://moodle.school.test",
        client_id="client-abc",
        deployment_id="deployment-1",
        key_set=key_set,
    )
    platform.publish_key()
    services.registration_save(
        name="School Moodle",
        issuer=platform.issuer,
        client_id=platform.client_id,
        deployment_ids=[platform.deployment_id],
        keyset_url=key_set.url,
        auth_url=platform.auth_url,
        token_url=platform.token_url,
    )
    return platform


def deep_link_form(client, platform, person=TEACHER) -> dict:
    return deep_linking_request(platform, login(client, platform, person), person, COURSE)


def deep_link_launch(client, platform, person=TEACHER, **headers):
    form = deep_link_form(client, platform, person)
    return client.post(
        path_of(form["launch_url"]),
        {"id_token": form["id_token"], "state": form["state"]},
        **headers,
    )


def picker_of(response) -> dict:
    """The picker's form, as the page holds it."""
    assert response.status_code == 200, response.content
    (form,) = [f for f in forms_of(response.content.decode()) if "picking" in f["fields"]]
    assert form["action"] == "/lti/deep-link/"
    return form


def choose(picker: dict, **chosen) -> dict:
    """The picker's fields as a browser without scripts posts them, with the teacher's choice."""
    return {**picker["fields"], **chosen}


def answer(client, data: dict):
    """The teacher's choice posted from inside the platform's frame: a new browser context, with
    no cookie of the launch."""
    return client.post("/lti/deep-link/", data)


def returned(platform, response) -> dict:
    """The answer page's form, checked by the platform as it receives it: the signed response."""
    assert response.status_code == 200, response.content
    html = response.content.decode()
    (form,) = [f for f in forms_of(html) if "JWT" in f["fields"]]
    assert form["action"] == RETURN_URL
    assert form["buttons"]  # a visible Continue, for a browser that runs no script
    assert 'src="/static/js/lti/deep-link-return.js"' in html
    assert "<script>" not in html  # no inline script: the page's CSP forbids them
    assert "form-action 'self' https://platform.test" in response["Content-Security-Policy"]
    keys = Client().get("/lti/.well-known/jwks.json").json()
    return response_checked(platform, form["fields"]["JWT"], keys)


def custom_of(claims: dict) -> dict:
    (item,) = content_items(claims)
    assert item["type"] == "ltiResourceLink"
    assert item["url"] == "http://testserver/lti/launch/"
    return item["custom"]


# --- a game --------------------------------------------------------------------------------


def test_a_teacher_links_a_game_with_its_variant_and_options(platform):
    client = Client()
    response = deep_link_launch(client, platform)
    classroom = Classroom.objects.get()  # the teacher's first launch: their account and class
    picker = picker_of(response)
    assert "3B maths" in response.content.decode()
    request_nonce = LtiUsedNonce.objects.get().nonce

    chosen = choose(
        picker,
        kind="game",
        variant="mia:canada47",
        opt__mia__canada47__target="50",
        opt__mia__canada47__pass_timeout_seconds="30",
        opt__mia__canada47__calm="on",
    )
    claims = returned(platform, answer(Client(), chosen))

    assert claims["nonce"] and claims["nonce"] != request_nonce
    (item,) = content_items(claims)
    assert item["title"].startswith("¡Mía!")
    assert custom_of(claims) == {
        "game": "mia",
        "variant": "canada47",
        "option_target": "50",
        "option_pass_timeout_seconds": "30",
        "option_extra_time_seconds": "5",
        "option_first_player": "random",
        "option_calm": "true",
    }

    # The link's launch: the teacher lands on a new lesson of that game, set as chosen.
    platform.custom = custom_of(claims)
    teacher = Client()
    response = launch(teacher, platform, TEACHER)
    assert response.status_code == 302
    location = urlsplit(response["Location"])
    assert location.path == f"/teacher/classes/{classroom.pk}/sessions/new/"
    assert dict(parse_qsl(location.query))["variant"] == "mia:canada47"
    page = teacher.get(response["Location"])
    (form,) = [f for f in forms_of(page.content.decode()) if "variant" in f["fields"]]
    assert form["fields"]["variant"] == "mia:canada47"
    assert form["fields"]["opt__mia__canada47__target"] == "50"
    assert form["fields"]["opt__mia__canada47__pass_timeout_seconds"] == "30"
    assert form["fields"]["opt__mia__canada47__calm"] == "on"

    # A child before the lesson opens: a page that says so, and nothing joined.
    child = Client()
    response = launch(child, platform, CHILD)
    waiting = f"/lti/classes/{classroom.pk}/games/mia/canada47/"
    assert response["Location"] == waiting
    page = child.get(waiting)
    assert page.status_code == 200 and "has not started this game" in page.content.decode()

    # The teacher opens the lesson from that form, as preset.
    opened = teacher.post(
        f"/teacher/classes/{classroom.pk}/sessions/new/",
        {**form["fields"], "table_size": "4", "bot_level": "easy"},
    )
    assert opened.status_code == 302, opened.content
    session = ClassSession.objects.get()
    assert (session.game, session.variant) == ("mia", "canada47")
    assert session.options["target"] == 50 and session.options["calm"] is True

    # Now the child's launch joins that lesson; the waiting page leads there too.
    response = launch(Client(), platform, CHILD)
    assert response["Location"] == f"/me/sessions/{session.pk}/"
    assert SessionPresence.objects.filter(session=session, student__lti_person__sub="child-42")
    assert child.get(waiting)["Location"] == f"/me/sessions/{session.pk}/"
    # And the teacher's launch leads to the open lesson rather than a second one.
    assert launch(Client(), platform, TEACHER)["Location"] == f"/teacher/sessions/{session.pk}/"


def test_a_lobby_closed_to_newcomers_is_shown_not_joined(platform):
    launch(Client(), platform, TEACHER)
    classroom = Classroom.objects.get()
    session = session_services.session_open(
        classroom=classroom, game="sum", variant="standard", table_size=4
    )
    session_services.session_lock(session=session, locked=True)
    platform.custom = {"game": "sum", "variant": "standard"}
    child = Client()
    response = launch(child, platform, CHILD)
    assert response["Location"] == f"/me/sessions/{session.pk}/"
    assert not SessionPresence.objects.exists()
    assert (
        "closed this game session to newcomers" in child.get(response["Location"]).content.decode()
    )


# --- homework and personal practice --------------------------------------------------------


def homework(classroom, title="Sums to 20", **fields):
    return Assignment.objects.create(
        classroom=classroom,
        title=title,
        kind=Assignment.Kind.PUZZLES,
        game="mia",
        variant="solo4",
        due_at=timezone.now() + dt.timedelta(days=3),
        **fields,
    )


def test_a_teacher_links_a_homework(platform):
    launch(Client(), platform, TEACHER)
    launch(Client(), platform, CHILD)
    classroom = Classroom.objects.get()
    sums = homework(classroom)
    homework(classroom, title="Another one")

    picker = picker_of(deep_link_launch(Client(), platform))
    assert str(sums.pk) in picker["options"]["homework"]
    claims = returned(platform, answer(Client(), choose(picker, kind="homework", homework=sums.pk)))
    assert custom_of(claims) == {"assignment": str(sums.pk)}
    assert content_items(claims)[0]["title"] == "Sums to 20"

    platform.custom = custom_of(claims)
    assert launch(Client(), platform, CHILD)["Location"] == f"/me/homework/{sums.pk}/"
    assert launch(Client(), platform, TEACHER)["Location"] == f"/teacher/homework/{sums.pk}/"


def test_a_teacher_links_a_personal_practice(platform):
    launch(Client(), platform, TEACHER)
    launch(Client(), platform, CHILD)
    launch(Client(), platform, OTHER_CHILD)
    classroom = Classroom.objects.get()
    leo = classroom.enrollments.get(student__lti_person__sub="child-42").student
    personal = practice.personal_assignment_create(
        classroom=classroom,
        title="Leo's practice",
        allowed=["sum"],
        count=2,
        due_at=timezone.now() + dt.timedelta(days=3),
        student_ids=[leo.pk],
    )

    picker = picker_of(deep_link_launch(Client(), platform))
    assert picker["options"]["personal"] == [str(personal.pk)]
    assert "homework" not in picker["options"]  # "This class has no homework yet"
    claims = returned(
        platform, answer(Client(), choose(picker, kind="personal", personal=personal.pk))
    )
    platform.custom = custom_of(claims)
    assert custom_of(claims) == {"assignment": str(personal.pk)}

    assert launch(Client(), platform, CHILD)["Location"] == f"/me/homework/{personal.pk}/"
    other = Client()
    response = launch(other, platform, OTHER_CHILD)
    assert response["Location"] == f"/lti/practice/{personal.pk}/"
    page = other.get(response["Location"])
    assert "set for other children of your class" in page.content.decode()


def test_a_teacher_may_cancel(platform):
    picker = picker_of(deep_link_launch(Client(), platform))
    claims = returned(platform, answer(Client(), choose(picker, cancel="1")))
    assert content_items(claims) == []


# --- the picker's page ---------------------------------------------------------------------


def test_the_picker_is_a_labelled_form_in_spanish_with_no_inline_script(platform):
    response = deep_link_launch(Client(), platform, HTTP_ACCEPT_LANGUAGE="es")
    html = response.content.decode()
    picker_of(response)
    assert '<html lang="es">' in html
    assert "Elige qué abre el enlace" in html and "Añadir el enlace" in html
    assert 'src="/static/js/lti/deep-link.js"' in html and "<script>" not in html
    assert html.count("<legend>") >= 4  # each kind's part, and the kind itself, is a group
    assert 'name="viewport"' in html


def test_the_picker_says_what_it_refuses_and_answers_nothing(platform):
    picker = picker_of(deep_link_launch(Client(), platform))
    for chosen in (
        {"kind": "game", "variant": "mia:nonesuch"},
        {"kind": "game", "variant": "mia:canada47", "opt__mia__canada47__target": "many"},
        {"kind": "homework", "homework": "999"},
        {"kind": "nothing"},
    ):
        response = answer(Client(), choose(picker, **chosen))
        assert response.status_code == 200
        assert 'name="JWT"' not in response.content.decode()
        assert 'class="errorlist' in response.content.decode()
    assert LtiUsedNonce.objects.count() == 1  # the request's own: no answer was given


# --- refused, nothing written --------------------------------------------------------------


def test_a_learners_deep_linking_request_is_refused(platform, caplog):
    launch(Client(), platform, TEACHER)
    client = Client()
    form = deep_link_form(client, platform, CHILD)
    line = assert_refused_writing_nothing(
        caplog,
        lambda: client.post(
            path_of(form["launch_url"]), {"id_token": form["id_token"], "state": form["state"]}
        ),
        status=403,
        says="Only the course",
    )
    assert "deep linking by" in line


def test_a_tampered_picking_is_refused(platform, caplog):
    picker = picker_of(deep_link_launch(Client(), platform))
    token = picker["fields"]["picking"]
    tampered = token[:-3] + ("AAA" if token[-3:] != "AAA" else "BBB")
    assert_refused_writing_nothing(
        caplog,
        lambda: answer(
            Client(), choose(picker, kind="game", variant="sum:standard", picking=tampered)
        ),
        says="could not be checked",
    )


def test_a_choice_is_answered_once(platform, caplog):
    picker = picker_of(deep_link_launch(Client(), platform))
    chosen = choose(picker, kind="game", variant="sum:standard")
    returned(platform, answer(Client(), chosen))
    line = assert_refused_writing_nothing(
        caplog, lambda: answer(Client(), chosen), says="already been sent"
    )
    assert "already answered" in line


def test_an_answer_altered_on_its_way_fails_the_platforms_check(platform):
    picker = picker_of(deep_link_launch(Client(), platform))
    response = answer(Client(), choose(picker, kind="game", variant="sum:standard"))
    (form,) = [f for f in forms_of(response.content.decode()) if "JWT" in f["fields"]]
    header, _body, signature = form["fields"]["JWT"].split(".")
    claims = jwt.decode(form["fields"]["JWT"], options={"verify_signature": False})
    claims["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"][0]["custom"]["game"] = (
        "mia"
    )
    forged = jwt.utils.base64url_encode(json.dumps(claims).encode()).decode()
    keys = Client().get("/lti/.well-known/jwks.json").json()
    with pytest.raises(jwt.InvalidSignatureError):
        response_checked(platform, f"{header}.{forged}.{signature}", keys)


@pytest.mark.parametrize(
    ("custom", "status"),
    [
        ({"game": "chess", "variant": "standard"}, 400),
        ({"game": "mia", "variant": "nonesuch"}, 400),
        ({"game": "mia"}, 400),
        ({"game": "mia", "variant": "express", "option_speed": "9"}, 400),
        ({"game": "mia", "variant": "express", "option_pass_timeout_seconds": "soon"}, 400),
        ({"game": "mia", "variant": "express", "option_pass_timeout_seconds": "99999"}, 400),
        ({"game": "mia", "variant": "express", "option_calm": "yes"}, 400),
        ({"game": "mia", "variant": "express", "option_first_player": "youngest"}, 400),
        ({"game": "mia", "variant": "express", "assignment": "1"}, 400),
        ({"assignment": "one"}, 400),
        ({"assignment": "999999"}, 403),
        ({"assignment": "OTHER_CLASS"}, 403),
    ],
)
@pytest.mark.parametrize("person", [TEACHER, CHILD], ids=["teacher", "child"])
def test_a_link_naming_what_the_class_does_not_have_is_refused(
    platform, caplog, custom, status, person
):
    launch(Client(), platform, TEACHER)
    if person is CHILD:
        launch(Client(), platform, CHILD)
    teacher = Classroom.objects.get().teacher
    elsewhere = homework(classroom_create(teacher=teacher, name="Another class"))
    if custom.get("assignment") == "OTHER_CLASS":
        custom = {"assignment": str(elsewhere.pk)}
    platform.custom = custom
    client = Client()
    sent = launch_form(client, platform, person)
    line = assert_refused_writing_nothing(
        caplog, lambda: post(client, sent), status=status, says="does not have here"
    )
    assert "link" in line
