"""No page shows a child, a teacher or a visitor an unfinished text (issue "The live lesson,
second pass", "Words a child reads"): every page type, in English and in Spanish, and the end of a
game, read as a person reads them (the visible text, the names screen readers say, the page's
title), holds no placeholder left unformatted ("Table %(number)s"), no template tag, and no
"null", "undefined", "NaN" or "[object …]" that a script wrote for a missing value. A child also
reads a child's words: their table's label in their language, short game names, robots."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import add_session_cookie
from tests.browser.solo_square import play_the_solvers_move, stored_match

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

SHOTS = Path("/tmp/shots/words")
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}

# Every page type of tests/browser/test_accessibility.py, plus a child's table in a class session
# (its card on the home page is titled with the table's label), finished games (a podium, a solo
# square's stars) and a solo square the child plays to its end here.
SETUP = """
import json
from django.urls import reverse
from classroom.demo import seed_demo
from classroom.homework.services import BotGamesSpec, work_start
from classroom.sessions.services import session_deal, session_join, session_start
from tests.factories import (
    finish_match_by_bots, make_assignment, make_match, make_session, session_cookie_for,
)

classroom = seed_demo()
teacher = classroom.teacher
students = [e.student for e in classroom.enrollments.select_related("student").order_by("id")]
ana, ben, carla = students[:3]
pin_student = next(s for s in students if s.secret_kind == "pin")
lobby = make_session(classroom, game="add_up", variant="standard", table_size=3)
for student in students[1:4]:
    session_join(session=lobby, student=student)
session_deal(session=lobby)
# Ana's own table in a session that plays: "Table 1" on her home page.
playing = make_session(classroom, game="mia", variant="express", table_size=3)
for student in [ana, *students[4:6]]:
    session_join(session=playing, student=student)
session_start(session=playing)
tables = {
    "mia": make_match(game="mia", variant="express", players=[ana, ben], bots=["easy"],
                      teacher=teacher, options={"pass_timeout_seconds": 120}),
    "sum": make_match(game="sum", variant="standard", players=[ana, ben], teacher=teacher),
    "add_up": make_match(game="add_up", variant="standard", players=[ana, ben], teacher=teacher),
    "mathable_junior": make_match(game="mathable_junior", variant="front", players=[ana, ben],
                                  teacher=teacher),
    "add_or_multiply": make_match(game="add_or_multiply", variant="standard",
                                  players=[ana, ben, carla], teacher=teacher),
    "mia_solo": make_match(game="mia", variant="solo3", players=[ana], teacher=teacher),
}
finished = {
    "mia": make_match(game="mia", variant="express", players=[ana, ben], bots=["easy"],
                      teacher=teacher, seed=3),
    "mia_solo": make_match(game="mia", variant="solo3", players=[ana], teacher=teacher, seed=2),
}
for match in finished.values():
    finish_match_by_bots(match, level="strong")
to_play = {language: make_match(game="mia", variant="solo3", players=[ana], teacher=teacher,
                                seed=4)
           for language in ("en", "es")}
homework = make_assignment(classroom, spec=BotGamesSpec("sum", "standard", 2, "adaptive", 2, {}))
work_start(assignment=homework, student=ana, item=0)
c, s = classroom.pk, ana.pk
pages = [
    ("visitor", reverse("landing")),
    ("visitor", reverse("accounts:login")),
    ("visitor", reverse("accounts:signup")),
    ("visitor", reverse("accounts:password_reset")),
    ("visitor", reverse("classroom:student_login")),
    ("visitor", reverse("classroom:student_login_roster", args=[classroom.code])),
    ("visitor", reverse("classroom:student_login_secret", args=[classroom.code, ana.pk])),
    ("visitor", reverse("classroom:student_login_secret", args=[classroom.code, pin_student.pk])),
    ("teacher", reverse("classroom:teacher_home")),
    ("teacher", reverse("classroom:teacher_settings")),
    ("teacher", reverse("accounts:password_change")),
    ("teacher", reverse("classroom:match_new")),
    ("teacher", reverse("classroom:match_new") + f"?variant=mia:canada47&classroom={c}"),
    ("teacher", reverse("classroom:roster_class", args=[c])),
    ("teacher", reverse("classroom:roster_student_add", args=[c])),
    ("teacher", reverse("classroom:roster_student", args=[c, s]) + "?added=1"),
    ("teacher", reverse("classroom:roster_import", args=[c])),
    ("teacher", reverse("classroom:sessions_list", args=[c])),
    ("teacher", reverse("classroom:sessions_create", args=[c])),
    ("teacher", reverse("classroom:sessions_detail", args=[lobby.pk])),
    ("teacher", reverse("classroom:sessions_move_page", args=[lobby.pk, ben.pk])),
    ("teacher", reverse("classroom:sessions_detail", args=[playing.pk])),
    ("teacher", reverse("classroom:sessions_end", args=[playing.pk])),
    ("teacher", reverse("classroom:sessions_projector", args=[playing.pk])),
    ("teacher", reverse("classroom:homework_list", args=[c])),
    ("teacher", reverse("classroom:homework_create", args=[c])),
    ("teacher", reverse("classroom:homework_detail", args=[homework.pk])),
    ("teacher", reverse("classroom:progress_class", args=[c])),
    ("teacher", reverse("classroom:progress_class_facts", args=[c])),
    ("teacher", reverse("classroom:progress_class_activity", args=[c])),
    ("teacher", reverse("classroom:progress_student", args=[c, s])),
    ("teacher", reverse("classroom:progress_reports")),
    ("teacher", reverse("games:watch", args=[tables["mia"].pk])),
    ("teacher", reverse("games:watch", args=[finished["mia"].pk])),
    ("student", reverse("classroom:student_home")),
    ("student", reverse("classroom:sessions_lobby", args=[lobby.pk])),
    ("student", reverse("classroom:homework_student", args=[homework.pk])),
    *[("student", reverse("games:play", args=[m.pk])) for m in tables.values()],
    *[("student", reverse("games:play", args=[m.pk])) for m in finished.values()],
]
print(json.dumps({"teacher": session_cookie_for(teacher), "student": session_cookie_for(ana),
                  "pages": pages, "to_play": {k: m.pk for k, m in to_play.items()},
                  "solo_done": finished["mia_solo"].pk, "homework": homework.pk,
                  "shots": {"mia-table": reverse("games:play", args=[tables["mia"].pk]),
                            "lobby": reverse("classroom:sessions_lobby", args=[lobby.pk]),
                            "sessions-list": reverse("classroom:sessions_list", args=[c]),
                            "homework-teacher": reverse("classroom:homework_detail",
                                                        args=[homework.pk])}}))
"""

# What a person must never read: a placeholder or a template tag left as it was, or a value a
# script wrote for nothing.
UNFINISHED = re.compile(
    r"%\(\w*\)?[sd]?|%[sd]\b|\{\{|\}\}|\{%|%\}|\bnull\b|\bundefined\b|\bNaN\b|\[object"
)

# The page as a person reads it: the visible text (visually hidden text included), the names and
# descriptions screen readers say, placeholders, and the page's title.
READ = """() => {
    const texts = [document.title, document.body.innerText];
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], img[alt]')) {
        for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
            if (el.hasAttribute(name)) texts.push(el.getAttribute(name));
        }
    }
    return texts.join('\\n');
}"""


# A count that disagrees with its noun ("1 card in the pile (1 points)"): every count is ngettext's.
ONE_IN_THE_PLURAL = re.compile(
    r"(?<![\d.,])1 (points|cards|games|players|stars|puntos|cartas|partidas|jugadores|estrellas)\b"
)


def unfinished_in(text: str) -> list[str]:
    lines = []
    for line in text.splitlines():
        if UNFINISHED.search(line) or ONE_IN_THE_PLURAL.search(line):
            lines.append(line.strip()[:160])
    return lines


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("words", setup=SETUP) as site:
        yield site


def settled(page):
    """A play page connected, its table drawn (and the end shown for a finished game)."""
    if page.locator("#play-board").count() == 0:
        return
    expect(page.locator("#play-status")).to_have_text("", timeout=15_000)
    expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false", timeout=15_000)


def watch_for_script_traffic(page) -> list[str]:
    """What the page's scripts open or fetch once it is served (a socket, a fetch): only such a
    page can write a text after it has loaded, so only such a page is given time to."""
    opened = []
    page.on("websocket", lambda socket: opened.append(socket.url))
    page.on(
        "request",
        lambda request: (
            opened.append(request.url) if request.resource_type in ("fetch", "xhr") else None
        ),
    )
    return opened


@pytest.mark.parametrize("locale", ["en", "es"])
def test_no_page_shows_an_unfinished_text(browser, server, locale):
    contexts = {}
    found = []
    try:
        for who in ("visitor", "teacher", "student"):
            context = browser.new_context(viewport={"width": 1024, "height": 800}, locale=locale)
            if who != "visitor":
                add_session_cookie(context, server.url, server.made[who])
            contexts[who] = context
        # One tab per person, each of their pages opened in it in turn: every navigation reads a
        # new document, and a new tab for each page cost Chromium a renderer of its own and a cold
        # first load, about 0.8 s a page.
        tabs = {}
        for who, path in server.made["pages"]:
            if who not in tabs:
                tab = contexts[who].new_page()
                tab.set_default_timeout(15_000)
                tabs[who] = tab, watch_for_script_traffic(tab)
            page, talks_back = tabs[who]
            talks_back.clear()  # what this page's scripts open, not the previous page's
            response = page.goto(server.url + path)
            assert response.status < 400, (who, path, response.status)
            settled(page)
            if talks_back:
                page.wait_for_timeout(300)  # the student socket's first push, a result's drawing
            found += [f"{who} {path}: {line}" for line in unfinished_in(page.evaluate(READ))]
    finally:
        for context in contexts.values():
            context.close()
    assert found == [], "\n".join(found)


HOME_WORDS = {
    "en": {"table": "Table 1", "game": "¡Mía! · Quick game", "robots": "robots"},
    "es": {"table": "Mesa 1", "game": "¡Mía! · Partida rápida", "robots": "robots"},
}
TEACHER_WORDING = [
    "%(number)s",
    "the game ends when",
    "la partida termina",
    "follow each child",
    "resultados de cada",
]


@pytest.mark.parametrize("locale", ["en", "es"])
def test_a_childs_home_page_names_their_table_and_games_in_a_childs_words(browser, server, locale):
    SHOTS.mkdir(parents=True, exist_ok=True)
    words = HOME_WORDS[locale]
    for name, viewport in (("phone", PHONE), ("tablet", TABLET)):
        context = browser.new_context(viewport=viewport, locale=locale)
        add_session_cookie(context, server.url, server.made["student"])
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(server.url + "/me/")
        cards = page.locator(".card-list .card")
        expect(cards.first).to_be_visible()
        headings = cards.locator("h3").all_inner_texts()
        assert words["table"] in headings, headings
        expect(page.locator(".card-list")).to_contain_text(words["game"])
        homework = page.locator(f'[data-assignment="{server.made["homework"]}"] .homework-what')
        expect(homework).to_contain_text(words["robots"])
        # The session list, drawn again by the student socket, stays in the child's language.
        expect(page.locator("[data-session-list]")).to_contain_text(words["game"])
        page.wait_for_timeout(500)
        text = page.evaluate(READ)
        for teacher_words in TEACHER_WORDING:
            assert teacher_words not in text, (teacher_words, text)
        if locale == "es":
            assert "Quick game" not in text and "Table 1" not in text, text
        page.screenshot(path=str(SHOTS / f"home-{locale}-{name}.png"), full_page=True)
        context.close()


RESULT_WORDS = {
    "en": re.compile(r"You cleared the square! \d stars?\.|The deck ran out"),
    "es": re.compile(r"¡Has vaciado el cuadrado! \d estrellas?\.|El mazo se acabó"),
}


@pytest.mark.parametrize("locale", ["en", "es"])
def test_a_child_plays_a_solo_square_to_the_end_and_reads_a_finished_end(browser, server, locale):
    """The end screen printed "null" under "You cleared the square! 3 stars." (a missing part
    written as text), and the "You +1" chip of the last solved card stayed on the bar: its flex
    display overrode [hidden]."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    match_id = server.made["to_play"][locale]
    context = browser.new_context(viewport=PHONE, locale=locale)
    add_session_cookie(context, server.url, server.made["student"])
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.url}/play/{match_id}/")
    settled(page)
    result = page.locator("#play-result")
    for _ in range(60):
        if stored_match(server, match_id)[2] != "playing":
            break
        play_the_solvers_move(page, server, match_id)
        expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")
    else:
        pytest.fail("the solo square did not end in 60 moves")
    expect(result).to_be_visible()
    page.wait_for_timeout(500)
    sentence = result.inner_text()
    assert RESULT_WORDS[locale].search(sentence), sentence
    assert unfinished_in(sentence) == [], sentence
    assert unfinished_in(page.evaluate(READ)) == []
    expect(page.locator("#play-scored")).to_be_hidden()
    page.screenshot(path=str(SHOTS / f"solo-end-{locale}-phone.png"), full_page=True)
    context.close()

    # The same end, reloaded, at tablet size: a finished square read afresh.
    context = browser.new_context(viewport=TABLET, locale=locale)
    add_session_cookie(context, server.url, server.made["student"])
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.url}/play/{server.made['solo_done']}/")
    expect(page.locator("#play-result")).to_be_visible()
    assert unfinished_in(page.evaluate(READ)) == []
    page.screenshot(path=str(SHOTS / f"solo-end-{locale}-tablet.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("locale", ["en", "es"])
def test_the_changed_screens_at_phone_and_tablet_sizes(browser, server, locale):
    """Screenshots to look at (/tmp/shots/words/): the ¡Mía! table's facts ("1 card in the pile
    (1 point)"), the waiting room in a child's words, and dates in words on a teacher's lists."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, viewport in (("phone", PHONE), ("tablet", TABLET)):
        for shot, path in server.made["shots"].items():
            who = "teacher" if shot in ("sessions-list", "homework-teacher") else "student"
            context = browser.new_context(viewport=viewport, locale=locale)
            add_session_cookie(context, server.url, server.made[who])
            page = context.new_page()
            page.set_default_timeout(15_000)
            page.goto(server.url + path)
            settled(page)
            page.wait_for_timeout(300)
            assert unfinished_in(page.evaluate(READ)) == [], shot
            page.screenshot(path=str(SHOTS / f"{shot}-{locale}-{name}.png"), full_page=True)
            context.close()
