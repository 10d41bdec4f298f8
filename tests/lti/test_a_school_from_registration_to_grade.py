"""A school, from registration to a grade, as its people meet it in a real Chromium: the site's
operator makes a registration link; the learning platform's admin registers the tool with it (LTI
Dynamic Registration, tests/lti/registration_platform.py); a teacher launches from the course and
lands on the class, sets a homework and links it into the course (Deep Linking); a child opens
that link on a phone, in Spanish as the platform speaks to them, and plays the homework to its
end; the teacher's "Send the grades now" puts the child's score in the platform's gradebook
(tests/lti/service_platform.py).

Every platform part is the independent one (lti1p3platform) on 127.0.0.1; the site runs in Daphne
(``daphne_site``), embedded, so Celery's tasks run in it. Each step leaves a screenshot in
test-artifacts/lti-trial/, for a person to look at."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (  # noqa: F401 (browser, daphne_site: fixtures)
    ROOT,
    add_session_cookie,
    browser,
    daphne_site,
)
from tests.browser.solo_square import MIA, play_the_solvers_move, stored_match

from .platform import INSTRUCTOR, LEARNER, Course, KeySetServer, Person, Platform
from .platform_site import PlatformSite
from .registration_platform import RegistrationPlatform
from .service_platform import Gradebook, ServicePlatform

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TEACHER = Person(sub="teacher-7", roles=[INSTRUCTOR], name="Ana Ruiz")
CHILD = Person(sub="child-42", roles=[LEARNER], name="Leo Díaz")
COURSE = Course(id="course-3B", title="3B maths")
SHOTS = ROOT / "test-artifacts" / "lti-trial"
PHONE = {"width": 360, "height": 740}
DESK = {"width": 1024, "height": 768}

SETUP = """
import json
from accounts.models import User
from classroom.lti import services
from tests.factories import session_cookie_for

services.keys_rotate(rotate=False)  # the tool's key, as `manage.py lti_keys` makes it
operator = User.objects.create_superuser("operator", password=None)
print(json.dumps({"operator": session_cookie_for(operator)}))
"""


@pytest.fixture
def school(daphne_site):  # noqa: F811
    """The tool in Daphne; the platform: its key set, its registration endpoint and admin page,
    its course pages and authorization endpoint, its token endpoint and the course's gradebook.
    The platform's endpoints are named in the configuration it gives the tool at registration."""
    key_set = KeySetServer()
    registration = RegistrationPlatform(key_set_url=key_set.url)
    platform = Platform(
        issuer=registration.issuer,
        client_id=registration.client_id,
        deployment_id=registration.deployment_id,
        key_set=key_set,
    )
    platform.publish_key()
    endpoints = ServicePlatform(platform)
    gradebook = Gradebook(endpoints)
    pages = PlatformSite(people={p.sub: p for p in (TEACHER, CHILD)}, course=COURSE)
    pages.platform = platform
    pages.claims = gradebook.claim()
    platform.auth_url = registration.auth_url = pages.url + "/auth"
    platform.token_url = registration.token_url = endpoints.token_url
    try:
        with daphne_site("lti-trial", setup=SETUP) as site:
            registration.tool = site.url
            platform.tool_login_url = site.url + "/lti/login/"
            platform.tool_launch_url = site.url + "/lti/launch/"
            endpoints.tool_jwks = pages.tool_key_set()
            yield site, registration, pages, gradebook
            assert pages.errors == []
    finally:
        pages.close()
        endpoints.close()
        registration.close()
        key_set.close()


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)


# About 30 s; the run's first site may also migrate its database (70 s on a busy machine).
@pytest.mark.timeout(240)
def test_a_school_registers_links_a_homework_and_gets_the_childs_grade(browser, school):  # noqa: F811
    site, registration, pages, gradebook = school

    # The operator makes a one-time registration link.
    operator = browser.new_context(viewport=DESK, locale="en")
    add_session_cookie(operator, site.url, site.made["operator"])
    page = operator.new_page()
    page.set_default_timeout(10_000)
    page.goto(site.url + "/lti/registrations/")
    page.get_by_label("Name (for you)", exact=True).fill("District Moodle")
    page.get_by_role("button", name="Make a registration link").click()
    link = page.locator("code", has_text="/lti/register/").inner_text()

    # The platform's admin pastes it: the platform opens it in its frame, the admin registers.
    page.goto(f"{registration.issuer}/admin/tools?register={link}")
    frame = page.frame_locator("iframe")
    frame.get_by_role("button", name="Register").click()
    expect(frame.get_by_role("heading", name="Registered")).to_be_visible()
    shot(page, "1-registered")
    operator.close()

    # The teacher launches from the course and lands on their class.
    teacher = browser.new_context(viewport=DESK, locale="en")
    page = teacher.new_page()
    page.set_default_timeout(10_000)
    page.goto(pages.course_url(TEACHER, window=True))
    page.get_by_role("link", name="Arithmetic games").click()
    expect(page.get_by_role("heading", name="3B maths", exact=True)).to_be_visible()
    class_url = page.url
    assert re.fullmatch(rf"{site.url}/teacher/classes/\d+/", class_url)
    shot(page, "2-teacher-landing")

    # A homework: one solo square, gentle.
    page.goto(class_url + "homework/new/")
    page.get_by_label("Title").fill("Squares for Friday")
    page.get_by_label("How many puzzles or games").fill("1")
    page.locator("select[name=difficulty]").select_option("1")
    page.get_by_role("button", name="Set homework").click()
    expect(page.get_by_role("heading", name="Squares for Friday")).to_be_visible()
    (homework,) = site.rows("select id from classroom_assignment")
    homework = homework[0]

    # "Select content" in the course: the teacher picks the homework; the platform saves it.
    page.goto(pages.course_url(TEACHER, "select", window=True))
    page.get_by_role("link", name="Arithmetic games").click()
    expect(page.get_by_role("heading", name="Choose what the link opens")).to_be_visible()
    page.locator("input[name=kind][value=homework]").check()
    page.locator("select[name=homework]").select_option(str(homework))
    shot(page, "3-deep-link-picker")
    page.get_by_role("button", name="Add the link").click()
    expect(page.get_by_role("heading", name="Added to 3B maths")).to_be_visible()
    (item,) = pages.content_items
    assert item["title"] == "Squares for Friday"
    assert item["custom"] == {"assignment": str(homework)}

    # The child opens that link on a phone in English; their platform is in Spanish (Moodle's
    # locale for a Mexican Spanish user).
    pages.locales[CHILD.sub] = "es_mx"
    child = browser.new_context(viewport=PHONE, locale="en", has_touch=True, is_mobile=True)
    phone = child.new_page()
    phone.set_default_timeout(10_000)
    phone.goto(pages.course_url(CHILD, "link-1", window=True))
    phone.get_by_role("link", name="Arithmetic games").click()
    expect(phone).to_have_url(f"{site.url}/me/homework/{homework}/")
    expect(phone.locator("html")).to_have_attribute("lang", "es")
    expect(phone.get_by_role("heading", name="Squares for Friday")).to_be_visible()
    shot(phone, "4-child-first-page")

    phone.get_by_role("button", name="Jugar Squares for Friday").click()
    expect(phone).to_have_url(re.compile(r"/play/\d+/$"))
    match_id = int(re.search(r"/play/(\d+)/", phone.url).group(1))
    expect(phone.locator("#play-status")).to_have_text("")  # the socket is connected
    play_the_solvers_move(phone, site, match_id)
    shot(phone, "5-child-game")
    for _move in range(60):  # a 3x3 square ends in well under 60 moves
        if MIA.outcome(stored_match(site, match_id)[1]) is not None:
            break
        play_the_solvers_move(phone, site, match_id)
    result = phone.locator("#play-result")
    expect(result.get_by_role("heading", name="Fin de la partida")).to_be_visible()
    shot(phone, "6-child-end")
    child.close()

    # The teacher sends the grades now: the child's score is in the platform's gradebook.
    page.goto(class_url)
    page.get_by_role("button", name="Send the grades now").click()
    panel = page.locator(".lti-panel")
    expect(panel.get_by_text("1 score sent.")).to_be_visible()
    sent = panel.locator("table.lti-grades-sent")
    expect(sent).to_contain_text("Leo Díaz")
    # Laid out as the site's other tables, its caption over its first column; the mastery box
    # beside its words, not above them.
    assert sent.locator("caption").evaluate("c => getComputedStyle(c).textAlign") == "start"
    box = panel.get_by_role("checkbox", name="Send a mastery figure too").bounding_box()
    words = panel.get_by_text("Send a mastery figure too").bounding_box()
    assert abs((box["y"] + box["height"] / 2) - (words["y"] + words["height"] / 2)) < 4
    panel.scroll_into_view_if_needed()
    shot(page, "7-teacher-grades-sent")
    teacher.close()

    (column,) = gradebook.line_items
    assert column["label"] == "Squares for Friday"
    (score,) = gradebook.scores_of(column)
    assert score["userId"] == CHILD.sub
    assert (score["scoreGiven"], score["scoreMaximum"]) == (100, 100)
    assert (score["activityProgress"], score["gradingProgress"]) == ("Completed", "FullyGraded")
