"""The projector as the room sees it, second pass (issue "The live lesson, second pass", "The
projector"): in the lobby a live wall of who has joined; "Paused" in large type while the teacher
pauses; names by the teacher's choice for the room (full, first names, initials; a child's own
stricter choice wins); the top places only, nobody ranked with no points, the class's total; a
table card's Score column never clipped, at 1920x1080 and 1280x720."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

SHOTS = Path("/tmp/shots/projector")
SIZES = [(1920, 1080), (1280, 720)]

SETUP = """
import json
from classroom.roster.services import student_accommodations_set
from classroom.sessions.services import session_end, session_join, session_start
from engine.core import Outcome, places
from games.models import Match
from tests.factories import (
    finish_match_by_bots, make_class, make_session, make_student, make_teacher, session_cookie_for,
)

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher, name="Class 4A")
NAMES = ["Ana Ruiz", "Ana Mora", "Ben Soto", "Carla Diaz", "Dan Moreno", "Eva Lind", "Fran Gil",
         "Gus Paz"]
students = {name: make_student(classroom, name) for name in NAMES}
student_accommodations_set(student=students["Eva Lind"], public_name="hidden")
student_accommodations_set(student=students["Carla Diaz"], public_name="initials")

lobby = make_session(classroom, game="add_up", variant="no_jokers", table_size=2)

# An ended round whose points are set here (two children a table, in the order they joined).
ranked = make_session(classroom, game="add_up", variant="no_jokers", table_size=2)
for name in NAMES:
    session_join(session=ranked, student=students[name])
session_start(session=ranked)
POINTS = {"Ana Ruiz": 30, "Ana Mora": 25, "Ben Soto": 20, "Carla Diaz": 18, "Dan Moreno": 15,
          "Eva Lind": 12, "Fran Gil": 10, "Gus Paz": 0}
for match in Match.objects.filter(session_table__session=ranked):
    finish_match_by_bots(match, seed=7)
    seats = {seat.index: seat.user.display_name for seat in match.seats.all()}
    scores = [POINTS[seats[index]] for index in range(len(seats))]
    winners = [i for i, s in enumerate(scores) if s == max(scores)]
    match.outcome = {"scores": scores, "winners": winners,
                     "places": places(Outcome(scores, winners))}
    match.save()
session_end(session=ranked)

# A lesson under way with bots at every table: three tables of three, one child each.
playing = make_session(classroom, game="add_up", variant="no_jokers", table_size=3)
for name in ("Ana Ruiz", "Ben Soto", "Fran Gil"):
    session_join(session=playing, student=students[name])
from classroom.sessions.services import session_deal, session_move
session_deal(session=playing)
session_move(session=playing, student_id=students["Ben Soto"].pk, table_number=2, seat=0)
session_move(session=playing, student_id=students["Fran Gil"].pk, table_number=3, seat=0)
session_start(session=playing)

print(json.dumps({
    "teacher": session_cookie_for(teacher),
    "students": {name: session_cookie_for(s) for name, s in students.items()},
    "lobby": lobby.pk,
    "ranked": ranked.pk,
    "classroom": classroom.pk,
    "playing": playing.pk,
}))
"""


@pytest.fixture(scope="module")
def server(daphne_site):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with daphne_site("projector-room", setup=SETUP) as site:
        yield site


def projector(browser, server, session_id, size=(1280, 720)):
    page = signed_in_page(
        browser,
        server,
        server.made["teacher"],
        f"/teacher/sessions/{session_id}/projector/",
        viewport={"width": size[0], "height": size[1]},
    )
    expect(page.locator("[data-live-region][data-connected]")).to_have_count(1, timeout=10_000)
    return page


def teacher_page(browser, server, session_id):
    return signed_in_page(
        browser,
        server,
        server.made["teacher"],
        f"/teacher/sessions/{session_id}/",
        viewport={"width": 1280, "height": 900},
    )


def font_px(locator) -> float:
    return locator.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)")


def test_the_lobby_wall_fills_live_as_children_join(browser, server):
    wall = projector(browser, server, server.made["lobby"], (1920, 1080))
    children = []
    try:
        expect(wall.get_by_role("heading", name="0 players have joined")).to_be_visible()
        for name in ("Ana Ruiz", "Ben Soto", "Eva Lind", "Carla Diaz"):
            child = signed_in_page(
                browser,
                server,
                server.made["students"][name],
                "/me/",
                viewport={"width": 390, "height": 844},
            )
            children.append(child)
            lobby = server.made["lobby"]
            child.locator(f'form[action="/me/sessions/{lobby}/join/"] button').click()
            expect(child.get_by_text("You are in! Wait for your teacher")).to_be_visible()
        # No reload: the socket brought each of them.
        expect(wall.get_by_role("heading", name="4 players have joined")).to_be_visible()
        names = wall.locator("[data-joined] li")
        # First names by default; Carla's own choice (initials) is stricter; Eva is not shown.
        expect(names).to_have_text(["Ana", "Ben", "C. D."])
        expect(wall.locator("[data-lobby-wall]")).not_to_contain_text("Ruiz")
        expect(wall.locator("[data-lobby-wall]")).not_to_contain_text("Eva")
        assert font_px(names.first) >= 28
        for width, height in SIZES:
            wall.set_viewport_size({"width": width, "height": height})
            wall.screenshot(
                path=str(SHOTS / f"lobby-wall-{width}x{height}.png"), animations="disabled"
            )
    finally:
        for page in [wall, *children]:
            page.context.close()


def test_paused_shows_in_large_type_on_the_projector(browser, server):
    room = projector(browser, server, server.made["playing"])
    teacher = teacher_page(browser, server, server.made["playing"])
    try:
        expect(room.locator("[data-paused]")).to_have_count(0)
        teacher.get_by_role("button", name="Pause every table").click()
        paused = room.locator("[data-paused]")
        expect(paused).to_have_text("Paused")
        expect(paused).to_be_visible()
        for width, height in SIZES:
            room.set_viewport_size({"width": width, "height": height})
            assert font_px(paused) >= 64, (width, font_px(paused))
            box = paused.bounding_box()
            assert box["y"] + box["height"] <= height  # on the first screen
            room.screenshot(path=str(SHOTS / f"paused-{width}x{height}.png"), animations="disabled")
        teacher.get_by_role("button", name="Resume every table").click()
        expect(room.locator("[data-paused]")).to_have_count(0)
    finally:
        room.context.close()
        teacher.context.close()


def test_bots_are_named_apart_across_the_room(browser, server):
    room = projector(browser, server, server.made["playing"])
    try:
        bots = room.locator(".seat-table tbody th:has(.bot-tag)")
        expect(bots).to_have_count(6)
        names = [re.sub(r"\s*\(bot\).*$", "", text).strip() for text in bots.all_inner_texts()]
        assert len(set(names)) == 6, names
    finally:
        room.context.close()


def leaderboard(page):
    return page.locator("[data-leaderboard] tbody tr")


def test_the_ranking_shows_names_as_chosen_the_top_places_and_the_class_total(browser, server):
    room = projector(browser, server, server.made["ranked"], (1920, 1080))
    teacher = teacher_page(browser, server, server.made["ranked"])
    try:
        # First names by default, told apart where two children share one; Carla by her own
        # choice (initials); Eva not shown; Gus, with no points, is not ranked.
        expect(leaderboard(room).locator("th")).to_have_text(
            ["Ana R.", "Ana M.", "Ben", "C. D.", "Dan", "Fran"]
        )
        expect(leaderboard(room).locator("td:nth-child(3)")).to_have_text(
            ["30", "25", "20", "18", "15", "10"]
        )
        expect(room.locator("[data-leaderboard]")).not_to_contain_text("Gus")
        expect(room.locator("[data-podium] .podium-name")).to_have_text(["Ana R.", "Ana M.", "Ben"])
        # The class total: every child's points, Eva's included.
        total = room.locator("[data-class-total] .projector-total-points")
        expect(total).to_have_text("130")
        assert font_px(total) >= 48
        for width, height in SIZES:
            room.set_viewport_size({"width": width, "height": height})
            room.screenshot(
                path=str(SHOTS / f"ranked-first-names-{width}x{height}.png"), animations="disabled"
            )

        # The teacher chooses initials and the top 5: the projector follows, live.
        teacher.get_by_label("Initials only").check()
        teacher.get_by_label("The top 5").check()
        teacher.get_by_role("button", name="Show this on the projector").click()
        expect(teacher.get_by_text("The projector shows your choice.")).to_be_visible()
        expect(leaderboard(room).locator("th")).to_have_text(
            ["A. R.", "A. M.", "B. S.", "C. D.", "D. M."]
        )
        expect(room.get_by_role("heading", name="Top 5")).to_be_visible()
        expect(room.locator(".projector")).not_to_contain_text("Ana")
        expect(total).to_have_text("130")

        # Full names: each child's own stricter choice still wins.
        teacher.get_by_label("Full names").check()
        expect(teacher.get_by_label("Full names")).to_be_checked()
        teacher.get_by_role("button", name="Show this on the projector").click()
        expect(leaderboard(room).locator("th")).to_have_text(
            ["Ana Ruiz", "Ana Mora", "Ben Soto", "C. D.", "Dan Moreno"]
        )
        for width, height in SIZES:
            room.set_viewport_size({"width": width, "height": height})
            room.screenshot(
                path=str(SHOTS / f"ranked-full-top5-{width}x{height}.png"), animations="disabled"
            )
        # The teacher's panel, on a phone and a tablet.
        for width, height in [(390, 844), (820, 1180)]:
            teacher.set_viewport_size({"width": width, "height": height})
            # One call in the page: the live part is redrawn on every tick, so an element found
            # in one step may be detached by the next.
            teacher.locator("[data-projector-settings]").evaluate("(form) => form.scrollIntoView()")
            teacher.screenshot(path=str(SHOTS / f"teacher-panel-{width}x{height}.png"))
    finally:
        room.context.close()
        teacher.context.close()


# Every cell of a table card's Score column (and the leaderboard's places and points) shows all
# it holds (scrollWidth <= clientWidth) on one line (a word squeezed to a letter a line is as
# unreadable as one cut off), and the table ends inside its card.
CLIPPED = """(root) => {
  const lines = (cell) => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  };
  const out = [];
  const check = (cell, what) => {
    const text = cell.textContent.trim();
    if (cell.scrollWidth > cell.clientWidth) {
      out.push(`${what} "${text}" clipped: ${cell.scrollWidth} > ${cell.clientWidth}`);
    }
    if (lines(cell) > 1) out.push(`${what} "${text}" on ${lines(cell)} lines`);
  };
  for (const table of root.querySelectorAll('.seat-table')) {
    const card = table.closest('.session-table').getBoundingClientRect();
    for (const cell of table.querySelectorAll('tr > :last-child')) check(cell, 'score');
    if (table.scrollWidth > table.clientWidth) out.push(`a table ${table.scrollWidth} wide`);
    const right = table.getBoundingClientRect().right;
    if (right > card.right + 0.5) out.push(`a table ends at ${right}, its card at ${card.right}`);
  }
  for (const cell of root.querySelectorAll(
    '.leaderboard thead th, .leaderboard td'
  )) check(cell, 'leaderboard');
  return out;
}"""


@pytest.mark.parametrize("session", ["ranked", "playing"])
@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_table_cards_score_column_is_not_clipped(browser, server, session, size):
    room = projector(browser, server, server.made[session], size)
    try:
        expect(room.locator(".seat-table").first).to_be_visible()
        assert room.locator(".projector").evaluate(CLIPPED) == []
        room.screenshot(
            path=str(SHOTS / f"tables-{session}-{size[0]}x{size[1]}.png"), full_page=True
        )
    finally:
        room.context.close()


def test_the_new_session_form_offers_the_projector_choices(browser, server):
    page = signed_in_page(
        browser,
        server,
        server.made["teacher"],
        f"/teacher/classes/{server.made['classroom']}/sessions/new/",
        viewport={"width": 390, "height": 844},
    )
    try:
        names = page.get_by_role("group", name="Names on the projector")
        expect(names.get_by_label("First names only")).to_be_checked()
        top = page.get_by_role("group", name="Leaderboard on the projector")
        expect(top.get_by_label("The top 10")).to_be_checked()
        for width, height in [(390, 844), (820, 1180)]:
            page.set_viewport_size({"width": width, "height": height})
            names.scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"new-session-form-{width}x{height}.png"))
    finally:
        page.context.close()
