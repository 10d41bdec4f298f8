"""The teacher's session page announces who needs help as the monitor's news says so (screen
readers hear "Ana needs help"), from the slim news the monitor socket now sends."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

pytestmark = pytest.mark.browser

SETUP = """
import json
from classroom.sessions.services import session_join, session_start
from tests.classroom.sessions_helpers import record_attempts, seat_of
from tests.factories import make_class, make_session, make_student, make_teacher, session_cookie_for

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher)
ana, ben = make_student(classroom, "Ana"), make_student(classroom, "Ben")
session = make_session(classroom, game="mia", variant="express", table_size=2,
                       options={"pass_timeout_seconds": 120})
for student in (ana, ben):
    session_join(session=session, student=student)
session_start(session=session)
match, seat = seat_of(session, ana)
record_attempts(match, ana, seat, [("add.within20", False, 4000)] * 5)
print(json.dumps({"teacher": session_cookie_for(teacher), "session": session.pk}))
"""


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("monitor_help", setup=SETUP) as site:
        yield site


def test_the_session_page_announces_who_needs_help(browser, server):
    page = signed_in_page(
        browser,
        server,
        server.made["teacher"],
        f"/teacher/sessions/{server.made['session']}/",
        viewport={"width": 1280, "height": 900},
    )
    try:
        expect(page.locator("[data-announce]")).to_have_text("Ana needs help")
        expect(page.locator("[data-monitor] tr.needs-help")).to_have_count(1)
    finally:
        page.context.close()
