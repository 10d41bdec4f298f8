"""A child's home page with nothing on it says "No game yet"; when the teacher opens a game
session the student socket lists it, and the line goes with no reload
(static/js/student-sessions.js) rather than stay under the session it says is not there."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

SETUP = """
import json
from tests.factories import make_class, make_student, make_teacher, session_cookie_for

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher)
ana = make_student(classroom, "Ana")
print(json.dumps({
    "ana": session_cookie_for(ana),
    "teacher": session_cookie_for(teacher),
    "classroom": classroom.pk,
}))
"""

TABLET = {"width": 820, "height": 1180}


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("student-home-nothing-yet", setup=SETUP) as site:
        yield site


def test_no_game_yet_goes_when_a_session_opens(browser, server):
    ana = signed_in_page(browser, server, server.made["ana"], "/me/", viewport=TABLET)
    teacher = signed_in_page(
        browser,
        server,
        server.made["teacher"],
        f"/teacher/classes/{server.made['classroom']}/sessions/new/",
        viewport=TABLET,
    )
    try:
        nothing_yet = ana.locator("[data-nothing-yet]")
        expect(nothing_yet).to_be_visible()
        expect(ana.locator("[data-student-sessions][data-connected]")).to_have_count(1)
        ana.evaluate("window.notReloaded = true")
        teacher.get_by_role("button", name="Open the lobby").click()
        expect(teacher.get_by_text("The lobby is open")).to_be_visible()
        expect(ana.get_by_role("button", name=re.compile("^Join"))).to_be_visible()
        expect(nothing_yet).to_be_hidden()
        assert ana.evaluate("window.notReloaded === true")
    finally:
        ana.context.close()
        teacher.context.close()
