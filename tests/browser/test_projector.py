"""The projector page as a class sees it across the room (issue 15): no site chrome, before the
start the class code in large type and a QR code that opens the class's sign-in, then the
leaderboard by game points with the code in one line, and at the end the podium and a summary."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

pytestmark = pytest.mark.browser

SETUP = """
import json
from classroom.sessions.services import session_end, session_join, session_start
from games.models import Match
from tests.factories import (
    finish_match_by_bots, make_class, make_session, make_student, make_teacher, session_cookie_for,
)

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher, name="Class 4A")
students = [make_student(classroom, name) for name in ("Ana", "Ben", "Carla", "Dan")]
playing = make_session(classroom, game="add_up", variant="no_jokers", table_size=2)
ended = make_session(classroom, game="add_up", variant="no_jokers", table_size=2)
lobby = make_session(classroom, game="add_up", variant="no_jokers", table_size=2)
for session in (playing, ended):
    for student in students:
        session_join(session=session, student=student)
    session_start(session=session)
for match in Match.objects.filter(session_table__session=ended):
    finish_match_by_bots(match, seed=7)
session_end(session=ended)
print(json.dumps({
    "teacher": session_cookie_for(teacher),
    "playing": playing.pk,
    "ended": ended.pk,
    "lobby": lobby.pk,
    "code": classroom.code,
}))
"""


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("projector", setup=SETUP) as site:
        yield site


def open_projector(browser, server, session_id):
    return signed_in_page(
        browser,
        server,
        server.made["teacher"],
        f"/teacher/sessions/{session_id}/projector/",
        viewport={"width": 1280, "height": 720},
    )


def code_font_size(page) -> float:
    """The class code's font size in px, read in one go: the live part is redrawn every few
    seconds, and a code element read as it was replaced has no size."""
    return page.wait_for_function(
        """() => {
            const code = document.querySelector("[data-class-code]");
            const size = code && parseFloat(getComputedStyle(code).fontSize);
            return size > 0 ? size : null;
        }"""
    ).json_value()


def test_the_projector_shows_the_code_and_a_qr_code_to_join_and_no_chrome(browser, server):
    page = open_projector(browser, server, server.made["lobby"])
    try:
        expect(page.locator(".site-header")).to_have_count(0)
        expect(page.get_by_role("button", name="Sign out")).to_have_count(0)
        code = page.locator("[data-class-code]")
        expect(code).to_have_text(server.made["code"])
        assert code_font_size(page) >= 48
        qr = page.get_by_role("img", name="QR code that opens")
        expect(qr).to_be_visible()
        join = qr.get_attribute("data-join-url")
        assert join == f"{server.url}/student/{server.made['code']}/"
        # The QR code and the code are on the first screen, as the room sees it.
        for element in (code, qr):
            box = element.bounding_box()
            assert box["y"] + box["height"] <= 720
        # The address it encodes is the class's own sign-in page.
        assert page.request.get(join).status == 200
    finally:
        page.context.close()


def test_once_the_game_is_under_way_the_code_is_one_line(browser, server):
    page = open_projector(browser, server, server.made["playing"])
    try:
        # Late arrivals still read where to join and the code; the QR code has made room for
        # the leaderboard and the tables.
        expect(page.locator("[data-join-how]")).to_contain_text("/student/")
        code = page.locator("[data-class-code]")
        expect(code).to_have_text(server.made["code"])
        assert code_font_size(page) < 48
        expect(page.get_by_role("img", name="QR code that opens")).to_have_count(0)
        # Nobody has scored yet: nobody is ranked in public with 0 points.
        expect(page.locator("[data-leaderboard] tbody tr")).to_have_count(0)
        expect(page.get_by_text("The leaderboard appears with the first points.")).to_be_visible()
    finally:
        page.context.close()


def test_the_projector_ends_with_the_podium_and_a_summary(browser, server):
    page = open_projector(browser, server, server.made["ended"])
    try:
        expect(page.get_by_role("heading", name="Well played, everyone!")).to_be_visible()
        places = [
            int(p)
            for p in page.locator("[data-podium] li").evaluate_all(
                "(rows) => rows.map((row) => row.dataset.place)"
            )
        ]
        assert places and places == sorted(places) and places[0] == 1
        expect(page.locator("[data-summary]")).to_contain_text("4 players")
        points = [
            int(t)
            for t in page.locator("[data-leaderboard] tbody td:nth-child(3)").all_inner_texts()
        ]
        assert points == sorted(points, reverse=True)
        page.screenshot(path=str(server.folder / "projector-end.png"), full_page=True)
    finally:
        page.context.close()
