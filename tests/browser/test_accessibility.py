"""An automated accessibility scan of every page type (issue 15): axe-core (through the kept
axe-playwright-python package) in real Chromium, on the pages a visitor, a teacher and a child
see, in English, in Spanish and in Arabic (right to left). No serious or critical violation may
remain; the report names each one with the page and the element."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser.conftest import add_session_cookie

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

# The tables are dealt from fixed seeds, so that every run reads the same pages (the worded cards a
# random deal gives only now and then are dealt on purpose in test_card_text_fits.py).
SETUP = """
import json
from django.urls import reverse
from classroom.demo import seed_demo
import datetime
from django.utils import timezone
from classroom.homework.services import BotGamesSpec, work_start
from classroom.practice.services import personal_assignment_create
from classroom.models import Assignment, ClassSession
from classroom.sessions.services import session_deal, session_join, session_start
from games.models import Match
from tests.factories import (
    make_assignment, make_match, make_session, make_student, session_cookie_for,
)

classroom = seed_demo()
teacher = classroom.teacher
students = [e.student for e in classroom.enrollments.select_related("student").order_by("id")]
ana, ben, carla = students[:3]
pin_student = next(s for s in students if s.secret_kind == "pin")
lobby = make_session(classroom, game="add_up", variant="standard", table_size=3)
for student in students[:4]:
    session_join(session=lobby, student=student)
session_deal(session=lobby)
playing = make_session(classroom, game="mia", variant="express", table_size=3)
for student in students[4:6]:
    session_join(session=playing, student=student)
session_start(session=playing)
tables = {
    "mia": make_match(game="mia", variant="express", players=[ana, ben], bots=["easy"],
                      teacher=teacher, options={"pass_timeout_seconds": 120}, seed=1),
    "sum": make_match(game="sum", variant="standard", players=[ana, ben], teacher=teacher,
                      seed=2),
    "add_up": make_match(game="add_up", variant="standard", players=[ana, ben], teacher=teacher,
                         seed=3),
    "mathable_junior": make_match(game="mathable_junior", variant="front", players=[ana, ben],
                                  teacher=teacher, seed=4),
    "add_or_multiply": make_match(game="add_or_multiply", variant="standard",
                                  players=[ana, ben, carla], teacher=teacher, seed=5),
    "mia_solo": make_match(game="mia", variant="solo3", players=[ana], teacher=teacher, seed=6),
}
homework = make_assignment(classroom, spec=BotGamesSpec("sum", "standard", 2, "adaptive", 2, {}))
work_start(assignment=homework, student=ana, item=0)
personal = personal_assignment_create(
    classroom=classroom, allowed=["mia:puzzles", "add_or_multiply"], count=2,
    due_at=timezone.now() + datetime.timedelta(days=3), title="Our facts",
)
c, s = classroom.pk, ana.pk
pages = [
    ("visitor", reverse("landing"), "page"),
    ("visitor", reverse("accounts:login"), "page"),
    ("visitor", reverse("accounts:signup"), "page"),
    ("visitor", reverse("accounts:password_reset"), "page"),
    ("visitor", reverse("classroom:student_login"), "page"),
    ("visitor", reverse("classroom:student_login_roster", args=[classroom.code]), "page"),
    ("visitor", reverse("classroom:student_login_secret", args=[classroom.code, ana.pk]), "page"),
    ("visitor", reverse("classroom:student_login_secret", args=[classroom.code, pin_student.pk]),
     "page"),
    ("teacher", reverse("classroom:teacher_home"), "page"),
    ("teacher", reverse("classroom:teacher_settings"), "page"),
    ("teacher", reverse("accounts:password_change"), "page"),
    ("teacher", reverse("classroom:match_new"), "page"),
    ("teacher", reverse("classroom:match_new") + f"?variant=mia:canada47&classroom={c}", "page"),
    ("teacher", reverse("classroom:roster_class", args=[c]), "page"),
    ("teacher", reverse("classroom:roster_student_add", args=[c]), "page"),
    ("teacher", reverse("classroom:roster_student", args=[c, s]) + "?added=1", "page"),
    ("teacher", reverse("classroom:roster_import", args=[c]), "page"),
    ("teacher", reverse("classroom:sessions_list", args=[c]), "page"),
    ("teacher", reverse("classroom:sessions_create", args=[c]), "page"),
    ("teacher", reverse("classroom:sessions_detail", args=[lobby.pk]), "page"),
    ("teacher", reverse("classroom:sessions_move_page", args=[lobby.pk, ana.pk]), "page"),
    ("teacher", reverse("classroom:sessions_detail", args=[playing.pk]), "page"),
    ("teacher", reverse("classroom:sessions_end", args=[playing.pk]), "page"),
    ("teacher", reverse("classroom:sessions_projector", args=[playing.pk]), "page"),
    ("teacher", reverse("classroom:homework_list", args=[c]), "page"),
    ("teacher", reverse("classroom:homework_create", args=[c]), "page"),
    ("teacher", reverse("classroom:homework_detail", args=[homework.pk]), "page"),
    ("teacher", reverse("classroom:homework_personal_create", args=[c]), "page"),
    ("teacher", reverse("classroom:homework_detail", args=[personal.pk]), "page"),
    ("teacher", reverse("classroom:progress_class", args=[c]), "page"),
    ("teacher", reverse("classroom:progress_class_facts", args=[c]), "page"),
    ("teacher", reverse("classroom:progress_class_activity", args=[c]), "page"),
    ("teacher", reverse("classroom:progress_student", args=[c, s]), "page"),
    ("teacher", reverse("classroom:progress_student_summary", args=[c, s]), "page"),
    ("teacher", reverse("classroom:progress_reports"), "page"),
    ("teacher", reverse("games:watch", args=[tables["mia"].pk]), "play"),
    ("student", reverse("classroom:student_home"), "page"),
    ("student", reverse("classroom:own_progress"), "page"),
    ("student", reverse("classroom:sessions_lobby", args=[lobby.pk]), "page"),
    ("student", reverse("classroom:homework_student", args=[homework.pk]), "page"),
    ("student", reverse("classroom:homework_student", args=[personal.pk]), "page"),
    *[("student", reverse("games:play", args=[m.pk]), "play") for m in tables.values()],
]
print(json.dumps({"teacher": session_cookie_for(teacher), "student": session_cookie_for(ana),
                  "pages": pages}))
"""

SERIOUS = {"serious", "critical"}


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("accessibility", setup=SETUP) as site:
        yield site


# Arabic: every page written right to left passes the same scan (docs/translations.md).
@pytest.mark.parametrize("locale", ["en", "es", "ar"])
def test_no_page_has_a_serious_accessibility_violation(browser, server, locale):
    axe = Axe()
    contexts = {}
    found = []
    try:
        for who in ("visitor", "teacher", "student"):
            context = browser.new_context(viewport={"width": 1024, "height": 800}, locale=locale)
            if who != "visitor":
                add_session_cookie(context, server.url, server.made[who])
            contexts[who] = context
        # One tab per person, each of their pages opened in it in turn: every navigation is a new
        # document to scan, and a new tab for each page cost Chromium a renderer of its own and a
        # cold first load, about 0.8 s a page.
        tabs = {}
        for who, path, kind in server.made["pages"]:
            if who not in tabs:
                tabs[who] = contexts[who].new_page()
                tabs[who].set_default_timeout(15_000)
            page = tabs[who]
            response = page.goto(server.url + path)
            assert response.status < 400, (who, path, response.status)
            if kind == "play":
                expect(page.locator("#play-status")).to_have_text("")
                expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")
                # Contrast is judged on the table at rest: mid-way through the deal's fade-in a
                # card is paler than it will be (a loaded machine once caught one there).
                # Polled from here: wait_for_function polls by eval, which the page's
                # Content-Security-Policy refuses whenever the first look finds a motion running.
                for _ in range(100):
                    if page.evaluate(
                        "() => document.getAnimations().every(a => a.playState !== 'running')"
                    ):
                        break
                    page.wait_for_timeout(100)
                else:
                    pytest.fail(f"{path}: the table was still moving after 10 s")
            results = axe.run(page)
            for violation in results.response["violations"]:
                if violation["impact"] in SERIOUS:
                    targets = [node["target"] for node in violation["nodes"]][:3]
                    found.append(
                        f"{who} {path}: {violation['id']} ({violation['impact']}) {targets}"
                    )
    finally:
        for context in contexts.values():
            context.close()
    assert found == [], "\n".join(found)
