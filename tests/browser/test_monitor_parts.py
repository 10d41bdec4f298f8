"""The teacher's session page follows a move by fetching only what it changed: the mover's table
and the mover's row come back (``?tables=..&answered=..``) and are swapped in, the rest of the
page stays as the teacher left it (an open "By skill" list at another table stays open). The move
is a real one, made through the student's match socket."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect
from websockets.sync.client import connect

import engine
from tests.browser.conftest import signed_in_page

pytestmark = pytest.mark.browser

SETUP = """
import json
from classroom.sessions.services import session_join, session_start
from tests.classroom.sessions_helpers import record_attempts, seat_of
from tests.factories import make_class, make_session, make_student, make_teacher, session_cookie_for

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher)
students = [make_student(classroom, name) for name in ("Ana", "Ben", "Carla", "Dan")]
session = make_session(classroom, game="mia", variant="express", table_size=2,
                       options={"pass_timeout_seconds": 120})
for student in students:
    session_join(session=session, student=student)
session_start(session=session)
ana, carla = students[0], students[1]  # at the two tables (dealt in turn)
match, seat = seat_of(session, ana)
elsewhere, carla_seat = seat_of(session, carla)
assert elsewhere.pk != match.pk
record_attempts(elsewhere, carla, carla_seat, [("add.within10", True, 2000)] * 2)
print(json.dumps({
    "teacher": session_cookie_for(teacher), "ana": session_cookie_for(ana),
    "session": session.pk, "match": match.pk, "seat": seat, "ana_id": ana.pk, "carla_id": carla.pk,
}))
"""


@pytest.fixture
def server(daphne_site):
    """A site per test: after a claim Ana may have no claim left to make (out of the round, or
    too few cards)."""
    with daphne_site("monitor_parts", setup=SETUP) as site:
        yield site


def a_claim(server) -> dict:
    """A claim Ana may make now, right if she has one (either is an answer to count)."""
    [(state,)] = server.rows("select state from games_match where id = ?", server.made["match"])
    mia = engine.get_game("mia")
    state = mia.load(json.loads(state))
    hint = mia.hint(state, server.made["seat"])
    if hint and hint["type"] == "claim":
        return hint
    return next(m for m in mia.legal_moves(state, server.made["seat"]) if m["type"] == "claim")


@pytest.mark.parametrize(
    ("viewport", "locale"),
    [({"width": 768, "height": 1024}, "en"), ({"width": 390, "height": 844}, "es")],
    ids=["tablet-en", "phone-es"],
)
def test_a_move_brings_back_only_its_table_and_its_player(browser, server, viewport, locale):
    made = server.made
    page = signed_in_page(
        browser,
        server,
        made["teacher"],
        f"/teacher/sessions/{made['session']}/",
        viewport=viewport,
        locale=locale,
    )
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    try:
        region = page.locator("[data-live-region]")
        expect(region).to_have_attribute("data-connected", "true")
        ana_row = page.locator(f'[data-part="student-{made["ana_id"]}"]')
        before = int(ana_row.get_attribute("data-attempts"))
        # Every child's figures open on demand; a child's figures by skill open within them.
        page.locator("details[data-key=monitor] > summary").click()
        carla_skills = page.locator(f'[data-part="student-{made["carla_id"]}"] details')
        carla_skills.locator("summary").click()
        expect(carla_skills).to_have_attribute("open", "")

        with connect(
            server.url.replace("http", "ws") + f"/ws/match/{made['match']}/",
            origin=server.url,
            additional_headers={"Cookie": made["ana"]},
            open_timeout=10,
        ) as socket:
            first = json.loads(socket.recv(timeout=10))  # the state on connect
            socket.send(json.dumps({"type": "move", "move": a_claim(server)}))
            answer = json.loads(socket.recv(timeout=10))
            assert answer["type"] == "state" and answer["version"] > first["version"], answer
            expect(ana_row).to_have_attribute("data-attempts", str(before + 1), timeout=10_000)

        parts = [url for url in asked if "/live/?tables=" in url]
        assert parts and all(f"tables={made['match']}" in url for url in parts)
        assert f"answered={made['match']}:{made['seat']}" in parts[0]
        expect(carla_skills).to_have_attribute("open", "")  # not redrawn: not asked for
        # The page fits the screen; the monitor's wide table scrolls on its own.
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(server.folder / f"monitor-{locale}.png"), full_page=True)
    finally:
        page.context.close()
