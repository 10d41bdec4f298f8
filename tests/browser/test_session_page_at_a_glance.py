"""The teacher's session page during play, at a glance on a 1366x768 laptop (issue "The lesson,
third pass", "The projector and the teacher's page during play"): for 25 children at 7 tables the
first screen shows every table and whether it is playing, stuck, finished or stopped and who
there needs help; the status line is said once; the details (a table's seats and scores and its
controls, every child's figures) open on demand, by keyboard too. The page was 3,674 px tall."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

SHOTS = Path("/tmp/shots/session-page")
LAPTOP = {"width": 1366, "height": 768}

SETUP = """
import json
from datetime import timedelta

from django.utils import timezone

from classroom.sessions.services import session_join, session_start
from games.models import Match
from games.services import match_abandon
from tests.classroom.sessions_helpers import record_attempts, seat_of
from tests.factories import (
    finish_match_by_bots, make_class, make_session, make_student, make_teacher, session_cookie_for,
)

NAMES = ["Ana Ruiz", "Ben Soto", "Carla Diaz", "Dan Moreno", "Eva Lind", "Fran Gil", "Gus Paz",
         "Hana Mora", "Ivan Petrov", "Julia Santos", "Karim Haddad", "Lena Fischer", "Mateo Cruz",
         "Nora Berg", "Omar Nasser", "Paula Vidal", "Quim Puig", "Rosa Ortega", "Samuel Okafor",
         "Tina Weber", "Uma Patel", "Victor Hugo", "Wendy Chen", "Xavier Roca", "Yara Costa"]
teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher, name="Class 4A")
students = [make_student(classroom, name) for name in NAMES]
session = make_session(classroom, game="add_up", variant="no_jokers", table_size=4)
for student in students:
    session_join(session=session, student=student)
session_start(session=session)
tables = {t.session_table.number: t for t in Match.objects.filter(session_table__session=session)
          .select_related("session_table")}
finish_match_by_bots(tables[2], seed=3)  # finished
match_abandon(match_id=tables[3].pk)  # stopped by the teacher
# Table 4 has not moved for two minutes: stuck.
Match.objects.filter(pk=tables[4].pk).update(updated_at=timezone.now() - timedelta(minutes=2))
# Ana (at table 1) keeps getting it wrong: she needs help.
match, seat = seat_of(session, students[0])
record_attempts(match, students[0], seat, [("add.within20", False, 4000)] * 6)
print(json.dumps({"teacher": session_cookie_for(teacher), "session": session.pk,
                  "ana_table": match.session_table.number}))
"""


@pytest.fixture(scope="module")
def server(daphne_site):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with daphne_site("session-page-at-a-glance", setup=SETUP) as site:
        yield site


def session_page(browser, server):
    page = signed_in_page(
        browser,
        server,
        server.made["teacher"],
        f"/teacher/sessions/{server.made['session']}/",
        viewport=LAPTOP,
    )
    expect(page.locator("[data-live-region][data-connected]")).to_have_count(1, timeout=10_000)
    return page


def on_the_first_screen(locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"]


def test_the_first_screen_shows_every_table_and_how_it_is_doing(browser, server):
    page = session_page(browser, server)
    try:
        page.screenshot(path=str(SHOTS / "first-screen-1366x768.png"))
        page.screenshot(path=str(SHOTS / "whole-page-1366x768.png"), full_page=True)
        # The class, the table size and the status: said once.
        expect(page.locator("[data-session-status]")).to_have_count(1)
        expect(page.get_by_text("Players per table")).to_have_count(1)
        tables = page.locator("[data-live-region] [data-table]")
        expect(tables).to_have_count(7)
        for number in range(1, 8):
            table = page.locator(f'[data-live-region] [data-table="{number}"]')
            assert on_the_first_screen(table), f"table {number} is below the first screen"
        states = {
            int(n): s
            for n, s in tables.evaluate_all(
                "(tiles) => tiles.map((tile) => [tile.dataset.table, tile.dataset.state])"
            )
        }
        assert states[2] == "finished" and states[3] == "stopped" and states[4] == "stuck"
        assert {states[n] for n in (1, 5, 6, 7)} == {"playing"}
        # Said in words, not by colour alone.
        expect(page.locator('[data-table="2"]')).to_contain_text("Finished")
        expect(page.locator('[data-table="3"]')).to_contain_text("Stopped")
        expect(page.locator('[data-table="4"]')).to_contain_text(
            re.compile(r"Stuck\s+No move for \d+ s")
        )
        help_tile = page.locator(f'[data-table="{server.made["ana_table"]}"]')
        expect(help_tile).to_contain_text("Ana Ruiz needs help")
        # The controls a lesson needs stay on the first screen.
        for control in (
            page.get_by_role("link", name="Projector view"),
            page.get_by_role("button", name="Pause every table"),
        ):
            assert on_the_first_screen(control)
        # The whole page is short: the details wait to be opened.
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height <= 2 * LAPTOP["height"], height
    finally:
        page.context.close()


def test_the_details_open_on_demand_by_keyboard(browser, server):
    page = session_page(browser, server)
    try:
        table = page.locator('[data-live-region] [data-table="1"]')
        summary = table.locator("summary")
        summary.focus()
        page.keyboard.press("Enter")
        # The table's seats and scores and its controls.
        expect(table.locator(".seat-table tbody tr")).to_have_count(4)
        expect(table.get_by_role("button", name=re.compile(r"^\+30 seconds"))).to_be_visible()
        expect(table.get_by_role("link", name="Watch Table 1")).to_be_visible()
        page.screenshot(path=str(SHOTS / "table-open-1366x768.png"), full_page=True)
        # Every child's figures, on demand.
        monitor = page.locator("details[data-key=monitor]")
        monitor.locator("summary").first.focus()
        page.keyboard.press("Enter")
        expect(page.locator("[data-monitor] tr[data-student]").first).to_be_visible()
        expect(page.locator("[data-monitor] tr[data-student]")).to_have_count(25)
        # What was opened stays open when the page refreshes its live part.
        page.evaluate("() => window.sessionLive.drop()")
        expect(page.locator("[data-live-region][data-connected]")).to_have_count(1, timeout=15_000)
        expect(table.locator("details")).to_have_attribute("open", "")
        page.screenshot(path=str(SHOTS / "monitor-open-1366x768.png"), full_page=True)
    finally:
        page.context.close()
