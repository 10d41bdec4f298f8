"""Pausing a lesson (issue 15): the teacher's "Pause every table" freezes a ¡Mía! table's timer on
the server, the child's page says so and its countdown stands still; "Resume" lets it run on from
where it stood."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

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
    return signed_in_page(browser, server, cookie, path, viewport=viewport)


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
        teacher.get_by_role("button", name="Pause every table").click()
        expect(teacher.get_by_role("button", name="Resume every table")).to_be_visible()
        expect(ana.locator("#play-paused")).to_be_visible()
        expect(ana.locator("#play-board button:enabled")).to_have_count(0)
        # Read once the pause holds: on a busy machine the 8 s timer may fire before it does.
        start_version = version(server)
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


# --- a session that finishes by itself -------------------------------------------------------

FINISH_SETUP = """
import json, random
import engine
from classroom.sessions.services import session_join, session_start
from games.models import Match
from games.services import submit_move
from tests.factories import make_class, make_session, make_student, make_teacher, session_cookie_for

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher)
ana, ben = make_student(classroom, "Ana"), make_student(classroom, "Ben")
session = make_session(classroom, game="add_up", variant="no_jokers", table_size=2)
for student in (ana, ben):
    session_join(session=session, student=student)
session_start(session=session)
match = Match.objects.get(session_table__session=session)
users = {seat.index: seat.user for seat in match.seats.all()}
rules, choose = engine.get_game("add_up"), random.Random(3)
# Played through the service, as the children would, until one card is left: in the hand of the
# child whose turn it is. Playing it ends the game.
for _ in range(500):
    match.refresh_from_db()
    data = rules.load(match.state).data
    if not data["deck"] and sum(len(hand) for hand in data["hands"]) == 1:
        break
    state = rules.load(match.state)
    move = engine.bots.choose(rules, state, data["turn"], "easy", choose)
    submit_move(match_id=match.pk, user=users[data["turn"]], move=move)
last = users[rules.load(match.state).data["turn"]]
print(json.dumps({"teacher": session_cookie_for(teacher), "last": session_cookie_for(last),
                  "session": session.pk, "match": match.pk}))
"""


@pytest.fixture(scope="module")
def finishing(daphne_site):
    with daphne_site("finishing", setup=FINISH_SETUP) as site:
        yield site


def test_a_session_finishes_by_itself_when_its_last_table_ends(browser, finishing):
    server = finishing
    home = open_as(browser, server, server.made["last"], "/me/", {"width": 390, "height": 844})
    teacher = open_as(
        browser,
        server,
        server.made["teacher"],
        f"/teacher/sessions/{server.made['session']}/",
        {"width": 1280, "height": 900},
    )
    play = home.context.new_page()
    play.set_default_timeout(10_000)
    try:
        expect(home.get_by_role("link", name="Go to your table")).to_be_visible()
        play.goto(f"{server.url}/play/{server.made['match']}/")
        expect(play.locator("#play-turn")).to_have_text("Your turn!")
        play.locator(".addup-hand [data-card]").click()
        play.locator(".addup-row-target:enabled").first.click()
        expect(play.locator("#play-result")).to_contain_text("Game over")
        # The last table's end ends the session: the teacher's page and the child's home follow.
        expect(teacher.get_by_role("heading", name="This session has ended")).to_be_visible()
        expect(home.get_by_role("link", name="Go to your table")).to_have_count(0)
        status = server.rows(
            "select status from classroom_classsession where id = ?", server.made["session"]
        )
        assert status == [("ended",)]
        # The end offers the way back to the lesson.
        expect(play.get_by_role("link", name="Back to the lesson")).to_be_visible()
    finally:
        home.context.close()
        teacher.context.close()
