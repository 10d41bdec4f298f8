"""Pausing a lesson (issue 15): the teacher's "Pause every table" freezes a ¡Mía! table's timer on
the server, the child's page says so and its countdown stands still; "Resume" lets it run on from
where it stood."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import add_session_cookie

pytestmark = pytest.mark.browser

TIMEOUT_SECONDS = 8

SETUP = f"""
import json
from classroom.sessions.services import session_join, session_start
from games.models import Match
from tests.factories import (
    make_class, make_session, make_student, make_teacher, session_cookie_for,
)

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher)
ana, ben = make_student(classroom, "Ana"), make_student(classroom, "Ben")
session = make_session(classroom, game="mia", variant="express", table_size=2,
                       options={{"pass_timeout_seconds": {TIMEOUT_SECONDS}}})
for student in (ana, ben):
    session_join(session=session, student=student)
session_start(session=session)
match = Match.objects.get(session_table__session=session)
print(json.dumps({{"teacher": session_cookie_for(teacher), "ana": session_cookie_for(ana),
                  "session": session.pk, "match": match.pk}}))
"""


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("pause", setup=SETUP) as site:
        yield site


def open_as(browser, server, cookie, path, viewport):
    context = browser.new_context(viewport=viewport, locale="en")
    add_session_cookie(context, server.url, cookie)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(server.url + path)
    return page


def version(server) -> int:
    return server.rows("select version from games_match where id = ?", server.made["match"])[0][0]


def test_pausing_freezes_a_mia_timer_on_the_server_and_resuming_runs_it_on(browser, server):
    ana = open_as(
        browser,
        server,
        server.made["ana"],
        f"/play/{server.made['match']}/",
        {"width": 390, "height": 844},
    )
    teacher = open_as(
        browser,
        server,
        server.made["teacher"],
        f"/teacher/sessions/{server.made['session']}/",
        {"width": 1280, "height": 900},
    )
    try:
        countdown = ana.locator("#play-countdown")
        expect(countdown).to_be_visible()
        start_version = version(server)
        teacher.get_by_role("button", name="Pause every table").click()
        expect(teacher.get_by_role("button", name="Resume every table")).to_be_visible()
        expect(ana.locator("#play-paused")).to_be_visible()
        expect(ana.locator("#play-board button:enabled")).to_have_count(0)
        standing = countdown.inner_text()
        # Longer than the whole pass timeout: on the server, nothing fires.
        time.sleep(TIMEOUT_SECONDS + 1.5)
        assert countdown.inner_text() == standing
        assert version(server) == start_version
        teacher.get_by_role("button", name="Resume every table").click()
        expect(ana.locator("#play-paused")).to_be_hidden()
        expect(countdown).not_to_have_text(standing, timeout=3_000)  # it runs again
        left = int(standing.split()[0])
        # The time that was left, and no more, then the timer fires (a new card is revealed).
        deadline = time.monotonic() + left + 5
        while version(server) == start_version:
            assert time.monotonic() < deadline, "the timer did not fire after the resume"
            time.sleep(0.2)
    finally:
        ana.context.close()
        teacher.context.close()
