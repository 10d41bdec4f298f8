"""Arabic in Chromium (issue 46; docs/translations.md, "Right to left"): the rendered order of an
expression on a card and inside an Arabic sentence, left to right whatever the digits; a hand
laid from the right and Mathable Junior's printed board kept as printed; the arrows moving the
way the child sees; an answer typed in Eastern Arabic digits counted.

The order is read from the page as drawn: each digit and sign's box, left to right. Without the
isolation (accounts/bidi.py, static/js/numerals.js) an Arabic sentence turns "3 × 4 = 12" into
"12 = 4 × 3", and these tests fail.

Where locale/ar has no translation yet, the sentences read here are Arabic placeholders of the
tests' own (tests/locale/ar: "Practise %(facts)s", "You got %(a)s and %(b)s and chose
%(operation)s:", "Add", "Multiply", "%(name)s: %(equation)s. Right!", "You")."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

SETUP = """
import json
from django.urls import reverse
import engine
from accounts import digits
from classroom.homework.titles import practise_facts
from engine.add_up import card_kind
from games.services import match_wake, submit_move
from tests.factories import (
    make_assignment, make_class, make_match, make_student, make_teacher, session_cookie_for,
)

AOM = engine.get_game("add_or_multiply")
ADD_UP = engine.get_game("add_up")


def school(system):
    teacher = make_teacher()
    teacher.digits = system
    teacher.save(update_fields=["digits"])
    classroom = make_class(teacher)
    ana = make_student(classroom, "Ana")
    make_assignment(classroom, title=practise_facts([("add", 5, 9)]))
    # Add or Multiply? at Ana's round score: she has chosen, the bots choose on their wake-ups.
    # A deal whose question reads otherwise backwards: two numbers apart, a score of two digits.
    for seed in range(1, 200):
        match = make_match(game="add_or_multiply", variant="standard", players=[ana],
                           bots=["random", "random"], teacher=teacher, seed=seed)
        moves = AOM.legal_moves(AOM.load(match.state), 0)
        submit_move(match_id=match.pk, user=ana,
                    move=next((m for m in moves if m["op"] == "M"), moves[0]))
        for _ in range(20):
            match.refresh_from_db()
            state = AOM.load(match.state)
            if state.data["phase"] == "score":
                break
            match_wake(match_id=match.pk, at_ms=match.wake_at_ms)
        play = state.data["history"][-1]
        a, b = play["received"][0]
        if a != b and 0 not in (a, b) and play["scores"][0] >= 10:
            break
        match.delete()
    mia = make_match(game="mia", variant="express", players=[ana], bots=["easy"], teacher=teacher,
                     options={"pass_timeout_seconds": 240}, seed=1)
    board = make_match(game="mathable_junior", variant="front", players=[ana], bots=["easy"],
                       teacher=teacher, seed=4)
    # ADD UP with both jokers in Ana's hand.
    for seed in range(1, 2000):
        add_up = make_match(game="add_up", variant="standard", players=[ana], bots=["easy"],
                            teacher=teacher, seed=seed)
        kinds = {card_kind(card) for card in ADD_UP.load(add_up.state).data["hands"][0]}
        if {"white_joker", "yellow_joker"} <= kinds:
            break
        add_up.delete()
    return {
        "student": session_cookie_for(ana),
        "aom": match.pk,
        "received": play["received"][0],
        "sign": "×" if play["ops"][0] == "M" else "+",
        "score": play["scores"][0],
        "mia": mia.pk,
        "mathable": board.pk,
        "add_up": add_up.pk,
    }


print(json.dumps({"western": school(digits.WESTERN), "eastern": school(digits.EASTERN_ARABIC),
                  "home": reverse("classroom:student_home")}))
"""

EASTERN = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
SIGNS = "0-9٠-٩+−×=?–"

# Each digit and sign under `element`, with the middle of its box, in the DOM's order.
GLYPHS = """(element) => {
  const found = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.data.length; i += 1) {
      if (!/[SIGNS]/.test(node.data[i])) continue;
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getBoundingClientRect();
      found.push({ glyph: node.data[i], x: box.left + box.width / 2, y: box.top + box.height / 2 });
    }
  }
  return found;
}""".replace("SIGNS", SIGNS)


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site(
        "right_to_left", setup=SETUP, extra_env={"DJANGO_SETTINGS_MODULE": "tests.settings"}
    ) as site:
        yield site


def arabic_page(browser, server, school: str, path: str, viewport=None):
    page = signed_in_page(
        browser,
        server,
        server.made[school]["student"],
        path,
        viewport=viewport or {"width": 1024, "height": 800},
        locale="ar",
    )
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    return page


def seen_order(locator) -> str:
    """The digits and signs of the element as a reader sees them: left to right on its line."""
    glyphs = locator.evaluate(GLYPHS)
    assert glyphs, "no digit or sign in the element"
    lines = {round(g["y"] / 8) for g in glyphs}
    assert len(lines) == 1, f"the expression is not on one line: {glyphs}"
    return "".join(g["glyph"] for g in sorted(glyphs, key=lambda g: g["x"]))


def shown(text: str, school: str) -> str:
    return text.translate(EASTERN) if school == "eastern" else text


@pytest.mark.parametrize("school", ["western", "eastern"])
def test_an_expression_reads_left_to_right_on_an_arabic_card_and_in_an_arabic_sentence(
    browser, server, school
):
    """Add or Multiply?'s round score: the question's "a × b = ?" on the table, then the answer
    typed in Eastern Arabic digits, and the sentence "أنت: a × b = c. صحيح!" in the log: each
    expression drawn left to right, in the school's digits."""
    made = server.made[school]
    a, b = made["received"]
    page = arabic_page(browser, server, school, f"/play/{made['aom']}/")
    try:
        question = page.locator("#play-board .aom-equation")
        expect(question).to_be_visible(timeout=20_000)
        sign = made["sign"]
        assert seen_order(question) == shown(f"{a}{sign}{b}=?", school)
        # The label around it is Arabic (the tests' placeholder while locale/ar has none).
        assert "حصلت على" in page.locator("label[for=aom-score]").inner_text()
        # Typed on an Arabic keyboard: Eastern Arabic digits, whatever the school shows.
        page.locator("#aom-score").fill(str(made["score"]).translate(EASTERN))
        page.locator("#aom-score").press("Enter")
        sentence = page.locator("#play-log li", has_text="صحيح").first
        expect(sentence).to_be_visible(timeout=15_000)
        assert "أنت" in sentence.inner_text()
        assert seen_order(sentence) == shown(f"{a}{sign}{b}={made['score']}", school)
    finally:
        page.context.close()


@pytest.mark.parametrize("school", ["western", "eastern"])
def test_a_homework_title_keeps_its_fact_in_order_on_the_childs_arabic_home(
    browser, server, school
):
    """A server-worded sentence: "Practise 5 + 9" in Arabic, "تدرّب على 5 + 9", on the child's
    home page (the title is worded when read, in the child's language)."""
    page = arabic_page(browser, server, school, server.made["home"])
    try:
        title = page.get_by_role("link", name="تدرّب على").first
        expect(title).to_be_visible()
        assert seen_order(title) == shown("5+9", school)
    finally:
        page.context.close()


@pytest.mark.parametrize("school", ["western", "eastern"])
def test_add_ups_jokers_show_their_ranges_left_to_right_in_an_arabic_hand(browser, server, school):
    """The white joker's face "0–5" and the yellow joker's "10+" in the school's digits: without
    the isolation they read "5–0" and "+10" in an Arabic hand."""
    page = arabic_page(browser, server, school, f"/play/{server.made[school]['add_up']}/")
    try:
        hand = page.locator("#play-board .addup-hand [data-card]")
        expect(hand.first).to_be_visible(timeout=20_000)
        faces = sorted(seen_order(card) for card in hand.all())
        assert shown("0–5", school) in faces and shown("10+", school) in faces, faces
    finally:
        page.context.close()


def test_a_hand_flows_from_the_right_and_the_arrows_go_the_way_the_child_sees(browser, server):
    """¡Mía!'s hand in Arabic: the first card at the right, the next to its left; ArrowLeft
    moves to the card drawn to the left, ArrowRight back (issue 44's roving groups)."""
    page = arabic_page(browser, server, "western", f"/play/{server.made['western']['mia']}/")
    try:
        hand = page.locator("#play-board [data-roving='hand'] button")
        expect(hand.nth(1)).to_be_visible(timeout=20_000)
        first, second = hand.nth(0), hand.nth(1)
        assert first.bounding_box()["x"] > second.bounding_box()["x"]
        first.focus()
        page.keyboard.press("ArrowLeft")
        expect(second).to_be_focused()
        page.keyboard.press("ArrowRight")
        expect(first).to_be_focused()
    finally:
        page.context.close()


def test_mias_claim_word_on_a_target_reads_as_printed_in_an_arabic_hand(browser, server):
    """Two cards chosen, each target reads "¡Mía! +12": the game's name keeps its ¡ before the
    M and its ! after the a, as the box prints it; left to the page's direction it read "!Mía¡"."""
    page = arabic_page(browser, server, "western", f"/play/{server.made['western']['mia']}/")
    try:
        hand = page.locator("#play-board [data-roving='hand'] button:not([disabled])")
        expect(hand.nth(1)).to_be_visible(timeout=20_000)
        hand.nth(0).click()
        hand.nth(1).click()
        word = page.locator("#play-board .option-button.is-claim .claim-word").first
        expect(word).to_be_visible()
        assert word.inner_text() == "¡Mía!"
        marks = word.evaluate(
            """(element) => {
              const text = element.firstChild;
              const at = (i) => {
                const range = document.createRange();
                range.setStart(text, i);
                range.setEnd(text, i + 1);
                return range.getBoundingClientRect().left;
              };
              return [at(0), at(1), at(4)];
            }"""
        )
        opening, m, closing = marks
        assert opening < m < closing, marks
    finally:
        page.context.close()


def test_the_keys_note_keeps_its_range_of_digits_in_order_on_an_arabic_page(browser, server):
    """¡Mía!'s keys under the table begin "1–9: your cards": the range reads 1–9, not 9–1, in
    the Arabic sentence around it."""
    page = arabic_page(browser, server, "western", f"/play/{server.made['western']['mia']}/")
    try:
        note = page.locator("#play-keys")
        expect(note).to_be_visible(timeout=20_000)
        first, dash, last = note.evaluate(GLYPHS)[:3]
        assert (first["glyph"], dash["glyph"], last["glyph"]) == ("1", "–", "9")
        assert first["x"] < dash["x"] < last["x"], (first, dash, last)
    finally:
        page.context.close()


def test_mathable_juniors_board_stays_as_printed_and_its_columns_are_counted_from_the_right(
    browser, server
):
    """The printed board keeps its columns where the box prints them (the start square, the
    +, − and 2X squares, the equations along the rows); on an Arabic page its column 1 is the
    reader's first, at the right, and ArrowRight moves to the square drawn to the right."""
    page = arabic_page(browser, server, "western", f"/play/{server.made['western']['mathable']}/")
    try:
        square = page.locator("#play-board .mj-square[data-row='4'][data-col='4']")
        right = page.locator("#play-board .mj-square[data-row='4'][data-col='5']")
        expect(square).to_be_visible(timeout=20_000)
        assert right.bounding_box()["x"] > square.bounding_box()["x"]
        # "العمود 6": column 6, in locale/ar's words ("row %(row)s, column %(col)s").
        assert "العمود 6" in square.get_attribute("aria-label")
        assert "العمود 10" in page.locator(".mj-square[data-row='0'][data-col='0']").get_attribute(
            "aria-label"
        )
        square.focus()
        page.keyboard.press("ArrowRight")
        expect(right).to_be_focused()
        page.keyboard.press("ArrowLeft")
        expect(square).to_be_focused()
    finally:
        page.context.close()
