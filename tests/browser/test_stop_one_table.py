"""Stopping one table in Chromium, by keyboard alone (issue "The lesson, third pass"): the teacher
opens a table's tile, tabs to "Stop Table 1…", is asked first, confirms; the children at that
table read "The teacher stopped this game." on the pages they had open, as when the whole lesson
ends, while the other table plays on."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

SHOTS = Path("/tmp/shots/stop-one-table")
SHOWS = 15_000

SETUP = """
import json
from classroom.sessions.services import session_join, session_start
from tests.classroom.sessions_helpers import seat_of
from tests.factories import make_class, make_session, make_student, make_teacher, session_cookie_for

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher)
kids = [make_student(classroom, name) for name in ("Ana", "Ben", "Carla", "Dan")]
session = make_session(classroom, game="add_up", variant="no_jokers", table_size=2)
for kid in kids:
    session_join(session=session, student=kid)
session_start(session=session)
tables = {kid.display_name: seat_of(session, kid)[0] for kid in kids}
print(json.dumps({
    "teacher": session_cookie_for(teacher),
    "kids": {kid.display_name: session_cookie_for(kid) for kid in kids},
    "table": {name: [match.pk, match.session_table.number] for name, match in tables.items()},
    "session": session.pk,
}))
"""


@pytest.fixture(scope="module")
def server(daphne_site):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with daphne_site("stop-one-table", setup=SETUP) as site:
        yield site


def tab_to(page, name: str, most: int = 40):
    """Tab until the focused element is named ``name``, as a keyboard user would."""
    for _ in range(most):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            "() => (document.activeElement.innerText || '').trim().replace(/\\s+/g, ' ')"
        )
        if focused == name:
            return
    raise AssertionError(f"{name!r} is not reached by Tab")


def test_the_teacher_stops_one_table_by_keyboard_and_its_children_are_told(browser, server):
    made = server.made
    at_one = [name for name, (_m, number) in made["table"].items() if number == 1]
    at_two = [name for name, (_m, number) in made["table"].items() if number == 2]
    children = {
        name: signed_in_page(
            browser,
            server,
            made["kids"][name],
            f"/play/{made['table'][name][0]}/",
            viewport={"width": 820, "height": 1180},
        )
        for name in at_one + at_two
    }
    teacher = signed_in_page(
        browser,
        server,
        made["teacher"],
        f"/teacher/sessions/{made['session']}/",
        viewport={"width": 1366, "height": 768},
    )
    try:
        for child in children.values():
            expect(child.locator("#play-board")).to_have_attribute(
                "aria-busy", "false", timeout=SHOWS
            )
        expect(teacher.locator("[data-live-region][data-connected]")).to_have_count(1)
        tile = teacher.locator('[data-live-region] [data-table="1"]')
        tile.locator("summary").focus()
        teacher.keyboard.press("Enter")
        expect(tile.locator("details")).to_have_attribute("open", "")
        tab_to(teacher, "Stop Table 1…", most=5)
        teacher.keyboard.press("Enter")

        # Asked first: who sits there, what their screens will say.
        expect(teacher.get_by_role("heading", name="Stop Table 1?", level=1)).to_be_visible()
        for name in at_one:
            expect(teacher.locator(".confirm-card")).to_contain_text(name)
        expect(teacher.get_by_text("The other table still playing plays on.")).to_be_visible()
        teacher.screenshot(path=str(SHOTS / "confirm-1366x768.png"))
        tab_to(teacher, "Yes, stop Table 1")
        teacher.keyboard.press("Enter")

        expect(teacher.get_by_text("Table 1 is stopped.")).to_be_visible()
        expect(tile).to_have_attribute("data-state", "stopped")
        expect(tile).to_contain_text("Stopped")
        expect(teacher.locator('[data-live-region] [data-table="2"]')).to_have_attribute(
            "data-state", "playing"
        )
        teacher.screenshot(path=str(SHOTS / "session-page-1366x768.png"))
        # The stopped table's children read it at once, on the pages they had open.
        for name in at_one:
            child = children[name]
            result = child.locator("#play-result")
            expect(result).to_contain_text("The teacher stopped this game.", timeout=SHOWS)
            expect(result.get_by_role("link", name="Back to the lesson")).to_be_visible()
            expect(child.locator("#play-turn")).to_have_text("The teacher stopped this game.")
            expect(child.locator("#play-board button:enabled")).to_have_count(0)
            child.screenshot(path=str(SHOTS / f"stopped-{name}.png"))
        # The other table plays on.
        for name in at_two:
            child = children[name]
            expect(child.locator("#play-result")).not_to_contain_text("stopped")
            expect(child.get_by_text("The teacher stopped this game.")).to_have_count(0)
    finally:
        for page in [teacher, *children.values()]:
            page.context.close()
