"""Numbers for every child (issue 22, accommodations): read aloud from recorded clips with the
network cut, in English and Spanish; drawn as ten-frames for a child with dots, and for nobody
else; and every number on a card, target or tile in the accessible name a screen reader says."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.read_aloud import WORDS
from tests.browser.conftest import add_session_cookie, signed_in_page

pytestmark = pytest.mark.browser

SETUP = """
import json
from accounts.models import Accommodations
from tests.factories import make_class, make_match, make_student, make_teacher, session_cookie_for

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher)
ana = make_student(classroom, "Ana")
ben = make_student(classroom, "Ben", secret="1111")
carla = make_student(classroom, "Carla", secret="2222")
Accommodations.objects.create(student=ana, read_aloud=True, dots=True)
# Two children and no bot: nothing moves on the table while the test reads it.
matches = {
    "mia": make_match(game="mia", variant="express", players=[ana, ben],
                      options={"pass_timeout_seconds": 120, "extra_time_seconds": 5}, seed=4),
    "sum": make_match(game="sum", variant="standard", players=[ana, ben], seed=4),
    "add_up": make_match(game="add_up", variant="standard", players=[ana, ben], seed=4),
    "mathable_junior": make_match(game="mathable_junior", variant="front", players=[ana, ben],
                                  seed=4),
    "add_or_multiply": make_match(game="add_or_multiply", variant="standard",
                                  players=[ana, ben, carla], seed=4),
    "mia_solo": make_match(game="mia", variant="solo3", players=[ana], seed=4),
}
print(json.dumps({"ana": session_cookie_for(ana), "ben": session_cookie_for(ben),
                  "matches": {game: match.pk for game, match in matches.items()}}))
"""

VIEWPORT = {"width": 1024, "height": 900}
# Where each game draws numbers a child with dots must also see as ten-frames.
DOTS_IN = {
    "mia": ['.hand [data-key^="card-"]'],
    "sum": [".sum-hand .sum-card-number"],
    "add_up": [".addup-hand-cards .addup-card", ".addup-row-cards .addup-card"],
    "mathable_junior": [".mj-rack-tile"],
    "add_or_multiply": ["fieldset[data-seat] .card-button"],
    # The square's cards have targets from 11 to 20: two frames, the first full.
    "mia_solo": ['.hand [data-key^="card-"]', ".square-cell"],
}


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("numbers", setup=SETUP) as site:
        yield site


def open_play(browser, server, who, game, locale="en"):
    page = signed_in_page(
        browser,
        server,
        server.made[who],
        f"/play/{server.made['matches'][game]}/",
        viewport=VIEWPORT,
        locale=locale,
        reduced_motion="reduce",
    )
    expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")
    return page


# --- read aloud, offline ----------------------------------------------------------------------


def number_clips(n: int, lang: str) -> list[str]:
    """How a number is said in clips (static/js/play/read-aloud.js), written again here."""
    if lang == "es":
        if n < 30:
            return [str(n)]
        if n < 100:
            return [str(n - n % 10), "y", str(n % 10)] if n % 10 else [str(n)]
        if n == 100:
            return ["100"]
        rest = n % 100
        return ["ciento" if n < 200 else str(n - rest)] + (number_clips(rest, lang) if rest else [])
    if n < 20:
        return [str(n)]
    if n < 100:
        return [str(n - n % 10), str(n % 10)] if n % 10 else [str(n)]
    rest = n % 100
    return [str(n // 100), "hundred"] + (number_clips(rest, lang) if rest else [])


OPERATOR_CLIPS = {"+": "plus", "−": "minus", "-": "minus", "×": "times", "=": "equals"}


def said(text: str, lang: str) -> list[str]:
    clips = []
    for token in re.findall(r"\d+|[+\-−×=]", text):
        clips += number_clips(int(token), lang) if token.isdigit() else [OPERATOR_CLIPS[token]]
    return clips


def spoken(page) -> list[str]:
    return (page.locator("#play-read").get_attribute("data-spoken") or "").split()


def wait_until_said(page, clips: list[str]):
    reader = page.locator("#play-read")
    expect(reader).to_have_attribute("data-spoken", " ".join(clips), timeout=15_000)
    expect(reader).to_have_attribute("data-state", "ready")


@pytest.mark.parametrize(
    ("locale", "button", "plus", "minus"),
    [("en", "Read aloud", "plus", "minus"), ("es", "Leer en voz alta", "plus", "minus")],
)
def test_numbers_are_read_aloud_with_the_network_cut(browser, server, locale, button, plus, minus):
    page = open_play(browser, server, "ana", "mia", locale=locale)
    try:
        reader = page.get_by_role("button", name=button, exact=True)
        expect(reader).to_be_visible()
        # Every clip of the page's language is fetched at start, into Blobs.
        expect(reader).to_have_attribute("data-state", "ready")
        expect(reader).to_have_attribute("data-preloaded", str(len(WORDS[locale])))
        first = page.locator('[data-key="top-option-0"]').get_attribute("data-read")
        second = page.locator('[data-key="top-option-1"]').get_attribute("data-read")
        card = page.locator('#play-board .hand [data-key^="card-"]').first
        value = int(card.get_attribute("data-value"))

        page.context.set_offline(True)
        # The button reads the card to solve: "plus twelve, minus three".
        reader.click()
        wait_until_said(page, said(f"{first} {second}", locale))
        assert spoken(page)[0] in (plus, minus)
        # R reads the focused number on the table (a card of the hand).
        card.focus()
        page.keyboard.press("r")
        wait_until_said(page, number_clips(value, locale))
        # Numbers the page composes from several clips: 31 is "thirty one", "treinta y uno".
        page.evaluate("playShell.reader.say('31 × 4 = 124')")
        wait_until_said(page, said("31 × 4 = 124", locale))
        sources = page.evaluate("playShell.reader.history.map((entry) => entry.src)")
        assert sources and all(src.startswith("blob:") for src in sources), sources
        clips = page.evaluate("playShell.reader.history.map((entry) => entry.clip)")
        assert all(clip.startswith(f"{locale}/") for clip in clips), clips
        # The key is listed on the page.
        expect(page.locator("#play-keys")).to_contain_text("R: " if locale == "en" else "R:")
    finally:
        page.context.close()


def test_a_new_card_is_read_by_itself_and_not_once_the_child_turns_that_off(browser, server):
    """Both children pass: nobody solved the card, a new one is turned up, and Ana's page reads it
    without being asked (she has pressed a button on the page: browsers allow sound from then on).
    With "Read new cards" off, the next new card comes in silence."""
    ana = open_play(browser, server, "ana", "mia")
    ben = open_play(browser, server, "ben", "mia")

    def both_pass_and_a_new_card_comes():
        round_ = int(ana.locator("#play-board [data-round]").get_attribute("data-round"))
        ana.locator('[data-key="pass"]').click()
        ben.locator('[data-key="pass"]').click()
        expect(ana.locator("#play-board [data-round]")).to_have_attribute(
            "data-round", str(round_ + 1)
        )
        options = [
            ana.locator(f'[data-key="top-option-{i}"]').get_attribute("data-read") for i in (0, 1)
        ]
        return ", ".join(options)

    try:
        expect(ana.locator("#play-read")).to_have_attribute("data-state", "ready")
        expect(ana.get_by_role("button", name="Read new cards: on")).to_have_attribute(
            "aria-pressed", "true"
        )
        new_card = both_pass_and_a_new_card_comes()
        wait_until_said(ana, said(new_card, "en"))
        heard = ana.evaluate("playShell.reader.history.length")

        ana.get_by_role("button", name="Read new cards: on").click()
        expect(ana.get_by_role("button", name="Read new cards: off")).to_have_attribute(
            "aria-pressed", "false"
        )
        both_pass_and_a_new_card_comes()
        ana.wait_for_timeout(1500)
        assert ana.evaluate("playShell.reader.history.length") == heard
        expect(ana.locator("#play-read")).to_have_attribute("data-state", "ready")
    finally:
        ana.context.close()
        ben.context.close()


def test_a_child_without_read_aloud_gets_no_reader_and_no_clips(browser, server):
    """Ben plays at Ana's table: nothing of Ana's accommodations reaches his page."""
    context = browser.new_context(viewport=VIEWPORT, locale="en")
    add_session_cookie(context, server.url, server.made["ben"])
    clips_fetched = []
    context.on("request", lambda r: "/static/audio/" in r.url and clips_fetched.append(r.url))
    page = context.new_page()
    try:
        page.goto(f"{server.url}/play/{server.made['matches']['mia']}/")
        expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")
        expect(page.locator("#play-read")).to_have_count(0)
        config = page.evaluate("JSON.parse(document.getElementById('play-config').textContent)")
        assert config["read_aloud"] is None and config["dots"] is False
        expect(page.locator("#play-keys")).not_to_contain_text("read aloud")
        assert clips_fetched == []
    finally:
        context.close()


# --- dots and ten-frames ----------------------------------------------------------------------

# Each ten-frame drawing: the number beside it, the dots it says, and the dots it draws.
FRAMES = """(board) => [...board.querySelectorAll("svg.ten-frames")].map((svg) => ({
  digits: svg.closest(".with-dots").querySelector(".with-dots-digits").textContent,
  says: Number(svg.dataset.dots),
  drawn: svg.querySelectorAll("circle.ten-frame-dot").length,
  frames: svg.querySelectorAll("g.ten-frame").length,
  hidden: svg.getAttribute("aria-hidden"),
}))"""


@pytest.mark.parametrize("game", DOTS_IN)
def test_a_child_with_dots_sees_ten_frames_and_a_child_without_sees_none(browser, server, game):
    page = open_play(browser, server, "ana", game)
    try:
        for selector in DOTS_IN[game]:
            numbered = page.locator(f"#play-board {selector}")
            expect(numbered.first).to_be_visible()
            for i in range(numbered.count()):
                item = numbered.nth(i)
                value = item.get_attribute("data-read")
                if value is None or not value.isdigit() or int(value) > 20:
                    continue
                frame = item.locator("svg.ten-frames")
                expect(frame).to_have_count(1)
                expect(frame).to_have_attribute("data-dots", value)
                expect(frame.locator("circle.ten-frame-dot")).to_have_count(int(value))
        drawings = page.locator("#play-board").evaluate(FRAMES)
        assert drawings, f"no ten-frames in {game}"
        for drawing in drawings:
            number = int(re.sub(r"\D", "", drawing["digits"]))
            assert drawing["says"] == drawing["drawn"] == number, drawing
            assert drawing["frames"] == (2 if number > 10 else 1), drawing
            assert drawing["hidden"] == "true", drawing
        if game == "mia_solo":
            assert any(drawing["frames"] == 2 for drawing in drawings), drawings
    finally:
        page.context.close()
    if game == "mia_solo":
        return  # Ana plays the square alone
    page = open_play(browser, server, "ben", game)
    try:
        expect(page.locator(f"#play-board {DOTS_IN[game][0]}").first).to_be_visible()
        expect(page.locator("#play-board svg.ten-frames")).to_have_count(0)
    finally:
        page.context.close()


# --- what a screen reader says --------------------------------------------------------------------

OPERATOR_WORDS = {
    "+": r"(plus|sum|add)",
    "−": r"(minus|difference)",
    "-": r"(minus|difference)",
    "×": r"(times|multiply)",
    "÷": r"divided",
}
# The text a screen reader reads in browse mode for an element that is not a control: its text,
# less what is hidden from assistive technology.
SPOKEN_TEXT = """(element) => {
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    if (node.nodeType !== Node.ELEMENT_NODE) return "";
    if (node.getAttribute("aria-hidden") === "true") return "";
    return [...node.childNodes].map(walk).join(" ");
  };
  return walk(element).replace(/\\s+/g, " ").trim();
}"""
CONTROLS = {"button", "input", "select"}


@pytest.mark.parametrize("game", DOTS_IN)
def test_every_number_on_a_card_is_in_what_a_screen_reader_says(browser, server, game):
    page = open_play(browser, server, "ana", game)
    try:
        numbered = page.locator("#play-board [data-read]")
        expect(numbered.first).to_be_attached()
        assert numbered.count() >= 3, f"too few numbered cards in {game}"
        for i in range(numbered.count()):
            item = numbered.nth(i)
            read = item.get_attribute("data-read")
            tag = item.evaluate("(e) => e.tagName.toLowerCase()")
            role = item.get_attribute("role")
            if tag in CONTROLS or role == "img":
                # A control or an image: its accessible name, as the browser's tree has it.
                name = item.aria_snapshot()
            else:
                name = item.evaluate(SPOKEN_TEXT)
            for number in re.findall(r"\d+", read):
                assert re.search(rf"(?<!\d){number}(?!\d)", name), (game, read, name)
            for operator in re.findall(r"[+\-−×÷]", read):
                assert re.search(OPERATOR_WORDS[operator], name, re.I), (game, read, name)
    finally:
        page.context.close()


# --- no serious accessibility violation with dots and read-aloud on ------------------------------


@pytest.mark.timeout(300)
def test_the_tables_with_dots_and_read_aloud_have_no_serious_accessibility_violation(
    browser, server
):
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    found = []
    for game in DOTS_IN:
        page = open_play(browser, server, "ana", game)
        try:
            expect(page.locator("#play-read")).to_have_attribute("data-state", "ready")
            for violation in axe.run(page).response["violations"]:
                if violation["impact"] in {"serious", "critical"}:
                    targets = [node["target"] for node in violation["nodes"]][:3]
                    found.append(f"{game}: {violation['id']} ({violation['impact']}) {targets}")
        finally:
            page.context.close()
    assert found == [], "\n".join(found)
