"""Teams on the projector (issue 23, docs/rules/teams.md), in Chromium at projector sizes: with
tables as teams the tables' totals are in large type and no child is ranked; with the class
together against the bots the two totals follow the game live (the bots' claims raise theirs
while the projector stays open, with no reload), and Spanish reads as Spanish."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

SETUP = """
import json
from classroom.sessions.services import session_join, session_start
from games.models import Match
from tests.factories import (
    finish_match_by_bots, make_class, make_session, make_student, make_teacher, session_cookie_for,
)

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher, name="Class 4A")
students = [make_student(classroom, name) for name in ("Ana", "Ben", "Carla", "Dan", "Eva")]
tables = make_session(classroom, game="add_up", variant="no_jokers", table_size=2,
                      team_mode="tables")
for student in students:
    session_join(session=tables, student=student)
session_start(session=tables)
for seed, match in enumerate(Match.objects.filter(session_table__session=tables), start=3):
    finish_match_by_bots(match, seed=seed)
together = make_session(classroom, game="mia", variant="express", table_size=2, team_mode="class",
                        options={"pass_timeout_seconds": 5})
session_join(session=together, student=students[0])
session_start(session=together)
match = Match.objects.get(session_table__session=together)
print(json.dumps({
    "teacher": session_cookie_for(teacher),
    "ana": session_cookie_for(students[0]),
    "tables": tables.pk,
    "together": together.pk,
    "together_match": match.pk,
}))
"""

PROJECTOR = {"width": 1920, "height": 1080}
SMALL_PROJECTOR = {"width": 1280, "height": 720}


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("projector-teams", setup=SETUP) as site:
        yield site


def font_size(page, selector: str) -> float:
    # Read in one step: the live region may replace its elements between a locator's find and
    # its read (a detached element has no computed style).
    return page.evaluate(
        "(s) => parseFloat(getComputedStyle(document.querySelector(s)).fontSize)", selector
    )


@pytest.mark.parametrize("viewport", [PROJECTOR, SMALL_PROJECTOR], ids=["1080p", "720p"])
def test_tables_as_teams_show_each_tables_total_and_rank_no_child(browser, server, viewport):
    path = f"/teacher/sessions/{server.made['tables']}/projector/"
    page = signed_in_page(browser, server, server.made["teacher"], path, viewport=viewport)
    try:
        rows = page.locator("[data-team-standings] li")
        expect(rows).to_have_count(3)  # tables of 2, 2 and 1 (with a bot)
        # Ranked by points per player (docs/rules/teams.md, T3): the table with a bot has one
        # child, the others two.
        shares = rows.evaluate_all(
            "(r) => r.map((x) => Number(x.dataset.points) / Number(x.dataset.players))"
        )
        assert shares == sorted(shares, reverse=True)
        assert font_size(page, "[data-team-standings] li .team-points") >= 32
        expect(page.locator("[data-leaderboard]")).to_have_count(0)
        # Every total can be read: nothing cut off or spilling out of its row.
        assert page.evaluate(
            "() => [...document.querySelectorAll('[data-team-standings] li')]"
            ".every((el) => el.scrollWidth <= el.clientWidth + 1)"
        )
        page.screenshot(path=str(server.folder / f"teams-{viewport['width']}.png"))
    finally:
        page.context.close()


def test_the_class_against_the_bots_follows_the_game_live(browser, server):
    path = f"/teacher/sessions/{server.made['together']}/projector/"
    projector = signed_in_page(
        browser, server, server.made["teacher"], path, viewport=PROJECTOR, locale="es"
    )
    child = signed_in_page(
        browser,
        server,
        server.made["ana"],
        f"/play/{server.made['together_match']}/",
        viewport={"width": 820, "height": 1180},
    )
    try:
        versus = projector.locator("[data-team-versus]")
        expect(versus).to_have_attribute("data-bots", "0")
        expect(
            projector.get_by_role("heading", name="Nuestra clase contra los bots")
        ).to_be_visible()
        assert font_size(projector, "[data-team-versus] .team-total") >= 48
        # The child sits still: the bot claims cards, and the projector's bots' total rises
        # without a reload.
        expect(versus).not_to_have_attribute("data-bots", "0", timeout=60_000)
        assert int(versus.get_attribute("data-children")) == 0
        expect(projector.locator("[data-team-verdict]")).to_have_text("Los bots van ganando.")
        projector.screenshot(path=str(server.folder / "together-es.png"))
    finally:
        child.context.close()
        projector.context.close()
