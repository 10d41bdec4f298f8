"""The projector during play fits its screen (issue "The lesson, third pass", "The projector and the
teacher's page during play"): once the game starts the class code shrinks to one line, and at
1280x720 and 1920x1080, for 25 children and for 300, everything the projector promises lies inside
the window, nothing to scroll: the game's title, where and with which code to join, "Paused" while
paused, the class's total, the leaderboard's top places and the tables with their players and
scores. What does not fit at once (the tables of 300 children, everyone's places when the teacher
chose "everyone") is shown a page at a time, the pages turning by themselves, with "Tables 1–9 of
75" saying which; every table comes round once a turn of the pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]

SHOTS = Path("/tmp/shots/projector-fits")
SIZES = [(1280, 720), (1920, 1080)]

SETUP = """
import json
import random

import engine
from classroom.sessions.services import session_join, session_start
from engine.simulate import bot_chooser, play
from games.models import Match
from tests.factories import make_class, make_session, make_student, make_teacher, session_cookie_for

FIRST = ["Ana", "Ben", "Carla", "Dan", "Eva", "Fran", "Gus", "Hana", "Ivan", "Julia", "Karim",
         "Lena", "Mateo", "Nora", "Omar", "Paula", "Quim", "Rosa", "Samuel", "Tina", "Uma",
         "Victor", "Wendy", "Xavier", "Yara", "Zoe", "Alejandro", "Bea", "Cristina", "Dario"]
LAST = ["Ruiz", "Mora", "Soto", "Diaz", "Moreno", "Lind", "Gil", "Paz", "Fernandez-Castillo",
        "Oyelaran"]
teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher, name="Class 4A")
students = [make_student(classroom, f"{FIRST[i % 30]} {LAST[i // 30]}") for i in range(300)]


def lesson(children, top=10, team_mode="none"):
    # Each table a few turns into its game, as a lesson is a few minutes after the start.
    session = make_session(classroom, game="add_up", variant="no_jokers", table_size=4,
                           projector_top=top, team_mode=team_mode)
    for student in children:
        session_join(session=session, student=student)
    session_start(session=session)
    for match in Match.objects.filter(session_table__session=session):
        rules = engine.get_game(match.game)
        dealt = rules.load(match.state)  # dealt again from a fixed seed: the same every run
        state = rules.new(variant=dealt.variant, players=dealt.players, seed=match.pk,
                          options=dealt.options)
        run = play(rules, state, [bot_chooser("easy")] * state.players, random.Random(match.pk),
                   until=lambda run: len(run.moves) >= 20)
        match.state, match.version = rules.dump(run.state), run.state.version
        match.save(update_fields=["state", "version"])
    return session.pk


print(json.dumps({
    "teacher": session_cookie_for(teacher),
    "code": classroom.code,
    "class-of-25": lesson(students[:25]),
    "class-of-300": lesson(students),
    "class-of-300-everyone": lesson(students, top=0),
    "teams-of-25": lesson(students[:25], team_mode="tables"),
    "teams-of-300": lesson(students, team_mode="tables"),
}))
"""


@pytest.fixture(scope="module")
def server(daphne_site):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with daphne_site("projector-fits", setup=SETUP) as site:
        yield site


def projector(browser, server, lesson, size):
    page = signed_in_page(
        browser,
        server,
        server.made["teacher"],
        f"/teacher/sessions/{server.made[lesson]}/projector/",
        viewport={"width": size[0], "height": size[1]},
    )
    expect(page.locator("[data-live-region][data-connected]")).to_have_count(1, timeout=10_000)
    return page


# Where each element the projector promises lies, and whether it is shown at all.
BOXES = """(selectors) => Object.fromEntries(Object.entries(selectors).map(([what, selector]) => [
  what,
  [...document.querySelectorAll(selector)].filter((el) => el.checkVisibility()).map((el) => {
    const box = el.getBoundingClientRect();
    return {text: el.textContent.trim().replace(/\\s+/g, " ").slice(0, 60),
            top: box.top, left: box.left, bottom: box.bottom, right: box.right};
  }),
]))"""

PROMISED = {
    "title": ".projector h1",
    "where to join": "[data-join-how]",
    "class code": "[data-class-code]",
    "paused": "[data-paused]",
    "class total": "[data-class-total]",
    "leaderboard heading": "#projector-leaderboard",
    "leaderboard row": "[data-leaderboard] tbody tr",
    "tables heading": "#projector-tables",
    "table": ".projector [data-table]",
    "table seat": ".projector [data-table] .seat-table tbody tr",
    "teams heading": "#projector-teams-title",
    "team": "[data-team-standings] li",
}


def outside_the_window(page) -> list[str]:
    """Each shown element the projector promises that is not wholly inside the window, and
    whether the page scrolls at all."""
    width, height = page.evaluate("[innerWidth, innerHeight]")
    found = page.evaluate(BOXES, PROMISED)
    out = []
    for what, boxes in found.items():
        for box in boxes:
            if (
                box["top"] < -0.5
                or box["left"] < -0.5
                or box["bottom"] > height + 0.5
                or box["right"] > width + 0.5
            ):
                out.append(f"{what} {box['text']!r} at {box}")
    scroll = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    if scroll[0] > width or scroll[1] > height:
        out.append(f"the page scrolls: {scroll} in a {width}x{height} window")
    return out


def shown(page, what) -> list[str]:
    return [box["text"] for box in page.evaluate(BOXES, {what: PROMISED[what]})[what]]


def table_numbers(page) -> list[int]:
    return [
        int(n)
        for n in page.locator(".projector [data-table]").evaluate_all(
            "(cards) => cards.filter((card) => card.checkVisibility())"
            ".map((card) => card.dataset.table)"
        )
    ]


def turn_the_page(page, what):
    """The next page of ``what`` ("tables", "leaderboard"), as the timer would turn it."""
    page.evaluate("(what) => window.projectorPages.turn(what)", what)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_class_of_25_sees_the_top_10_and_every_table_at_once(browser, server, size):
    page = projector(browser, server, "class-of-25", size)
    try:
        expect(page.locator(".projector [data-table]")).to_have_count(7)
        page.screenshot(path=str(SHOTS / f"25-{size[0]}x{size[1]}.png"))
        # The class code is a line in a corner now, not the top of the screen: late arrivals
        # can still read it.
        expect(page.locator("[data-class-code]")).to_have_text(server.made["code"])
        expect(page.get_by_role("img", name=re.compile("QR code"))).to_have_count(0)
        assert outside_the_window(page) == []
        for what in ("title", "where to join", "class code", "class total"):
            assert len(shown(page, what)) == 1, what
        # The top 10 (children sharing the tenth place with it), every row shown.
        rows = page.locator("[data-leaderboard] tbody tr")
        assert rows.count() >= 10
        assert len(shown(page, "leaderboard row")) == rows.count()
        # Every table, with every child and bot at it.
        assert table_numbers(page) == list(range(1, 8))
        assert len(shown(page, "table seat")) == 7 * 4
        expect(page.locator("[data-pager]:visible")).to_have_count(0)
    finally:
        page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_paused_fits_with_everything_else(browser, server, size):
    teacher = signed_in_page(
        browser,
        server,
        server.made["teacher"],
        f"/teacher/sessions/{server.made['class-of-25']}/",
        viewport={"width": 1366, "height": 768},
    )
    page = projector(browser, server, "class-of-25", size)
    try:
        teacher.get_by_role("button", name="Pause every table").click()
        expect(page.locator("[data-paused]")).to_be_visible()
        page.screenshot(path=str(SHOTS / f"25-paused-{size[0]}x{size[1]}.png"))
        assert outside_the_window(page) == []
        # What does not fit beside "Paused" is paged, never cut: every table comes round.
        seen = set(table_numbers(page))
        for _ in range(7):
            if seen == set(range(1, 8)):
                break
            turn_the_page(page, "tables")
            assert outside_the_window(page) == []
            seen |= set(table_numbers(page))
        assert seen == set(range(1, 8))
    finally:
        teacher.get_by_role("button", name="Resume every table").click()
        expect(teacher.get_by_role("button", name="Pause every table")).to_be_visible()
        teacher.context.close()
        page.context.close()


def items_shown(page, what) -> list:
    if what == "tables":
        return table_numbers(page)
    return shown(page, {"leaderboard": "leaderboard row", "teams": "team"}[what])


def pages_of(page, what, count) -> list[list]:
    """The pages of ``what`` in one turn of them, each checked to fit, from the first (one page
    when all fit)."""
    pager = page.locator(f'[data-pager="{what}"]')
    if not pager.is_visible():
        items = items_shown(page, what)
        assert len(items) == count
        return [items]
    pages = []
    while True:
        assert outside_the_window(page) == []
        items = items_shown(page, what)
        assert items, f"an empty page of {what}"
        first, last, total = (int(n) for n in re.findall(r"\d+", pager.inner_text()))
        assert (last - first + 1, total) == (len(items), count), pager.inner_text()
        assert first == 1 + sum(len(p) for p in pages)
        pages.append(items)
        if last == total:
            return pages
        assert len(pages) < count
        turn_the_page(page, what)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_class_of_300_sees_the_top_10_and_the_tables_a_page_at_a_time(browser, server, size):
    page = projector(browser, server, "class-of-300", size)
    try:
        expect(page.locator(".projector [data-table]")).to_have_count(75)
        page.screenshot(path=str(SHOTS / f"300-{size[0]}x{size[1]}.png"))
        assert outside_the_window(page) == []
        rows = page.locator("[data-leaderboard] tbody tr")
        assert len(shown(page, "leaderboard row")) == rows.count() >= 10
        pages = pages_of(page, "tables", 75)
        assert [n for p in pages for n in p] == list(range(1, 76))
        # After the last page, the first again.
        turn_the_page(page, "tables")
        assert table_numbers(page) == pages[0]
        # The pages turn by themselves.
        expect(page.locator('[data-pager="tables"]')).not_to_contain_text(
            f"1–{len(pages[0])} ", timeout=20_000
        )
        assert outside_the_window(page) == []
    finally:
        page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_everyone_with_points_is_ranked_a_page_at_a_time(browser, server, size):
    page = projector(browser, server, "class-of-300-everyone", size)
    try:
        rows = page.locator("[data-leaderboard] tbody tr")
        total = rows.count()
        assert total > 100
        page.screenshot(path=str(SHOTS / f"300-everyone-{size[0]}x{size[1]}.png"))
        pages = pages_of(page, "leaderboard", total)
        assert sum(len(p) for p in pages) == total
    finally:
        page.context.close()


@pytest.mark.parametrize("lesson", ["teams-of-25", "teams-of-300"])
@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_tables_as_teams_fit_and_every_team_comes_round(browser, server, size, lesson):
    page = projector(browser, server, lesson, size)
    tables = 7 if lesson == "teams-of-25" else 75
    try:
        expect(page.locator("[data-team-standings] li")).to_have_count(tables)
        page.screenshot(path=str(SHOTS / f"{lesson}-{size[0]}x{size[1]}.png"))
        assert outside_the_window(page) == []
        for what in ("title", "where to join", "class code", "class total", "teams heading"):
            assert len(shown(page, what)) == 1, what
        teams = pages_of(page, "teams", tables)
        assert len({name for p in teams for name in p}) == tables
        if lesson == "teams-of-25" and size == (1920, 1080):
            assert len(teams) == 1  # every team at once
        assert [n for p in pages_of(page, "tables", tables) for n in p] == list(
            range(1, tables + 1)
        )
    finally:
        page.context.close()
