"""Play pages on a phone and a tablet (issue 15): what a child needs to play (the card to solve,
their hand, the button that plays) is on the first screen without scrolling, disabled controls
and texts meet WCAG 2.2 AA contrast, and the page says whose turn it is."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

pytestmark = pytest.mark.browser

SETUP = """
import json
from tests.factories import make_class, make_match, make_student, make_teacher, session_cookie_for

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher)
ana = make_student(classroom, "Ana")
ben = make_student(classroom, "Ben")
carla = make_student(classroom, "Carla")
matches = {
    "mia": make_match(game="mia", variant="express", players=[ana], bots=["easy", "easy"],
                      options={"pass_timeout_seconds": 120, "extra_time_seconds": 5}, seed=4),
    "sum": make_match(game="sum", variant="standard", players=[ana], bots=["easy"], seed=4),
    "add_up": make_match(game="add_up", variant="standard", players=[ana], bots=["easy"], seed=4),
    "mathable_junior": make_match(game="mathable_junior", variant="front", players=[ana],
                                  bots=["easy"], seed=4),
    "mia_solo": make_match(game="mia", variant="solo3", players=[ana], seed=4),
    "add_or_multiply": make_match(game="add_or_multiply", variant="standard",
                                  players=[ana, ben, carla], seed=4),
    # Numbers to 10: eleven number cards in the hand instead of ten.
    "add_or_multiply_to_ten": make_match(game="add_or_multiply", variant="to_ten",
                                         players=[ana, ben, carla], seed=4),
    # The score phase on a phone: Ana chooses, her bots at once.
    "aom_score_en": make_match(game="add_or_multiply", variant="to_ten", players=[ana],
                               bots=["easy", "easy"], seed=4),
    "aom_score_es": make_match(game="add_or_multiply", variant="to_ten", players=[ana],
                               bots=["easy", "easy"], seed=4),
}
print(json.dumps({"ana": session_cookie_for(ana),
                  "matches": {game: match.pk for game, match in matches.items()}}))
"""

# What a child must reach at once in each game, as CSS selectors of the rendered board.
KEY_CONTROLS = {
    "mia": [".op-card", ".hand", '[data-key="top-option-0"]'],
    "sum": [".sum-centre", ".sum-hand", ".sum-actions"],
    "add_up": [".addup-rows", ".addup-hand"],
    "mathable_junior": [".mj-rack", ".mj-actions"],
    "add_or_multiply": ["fieldset[data-seat]", "[data-op]"],
    "add_or_multiply_to_ten": ["fieldset[data-seat]", "[data-op]"],
}
# Games in which a bot may open, so that the child's first screen is the one after its moves.
TURNS_AFTER_BOTS = {"sum", "add_up", "mathable_junior"}
SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 768, "height": 1024}}


# Every button's text against the background it is drawn on (the first opaque one up the tree),
# with the opacity it is drawn with: WCAG's relative luminance and contrast ratio.
LOW_CONTRAST = """() => {
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const channel = (v) => {
    v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const background = (el) => {
    for (; el; el = el.parentElement) {
      const [r, g, b, a = 1] = rgb(getComputedStyle(el).backgroundColor);
      if (a > 0.5) return [r, g, b];
    }
    return [255, 255, 255];
  };
  const opacity = (el) => {
    let o = 1;
    for (; el; el = el.parentElement) o *= Number(getComputedStyle(el).opacity);
    return o;
  };
  const low = [];
  for (const button of document.querySelectorAll("#play-board button, .play-bar button")) {
    if (!button.offsetParent || !button.textContent.trim()) continue;
    const back = background(button);
    const [r, g, b] = rgb(getComputedStyle(button).color);
    const o = opacity(button);
    const seen = [r, g, b].map((v, i) => v * o + back[i] * (1 - o));
    const [light, dark] = [luminance(seen), luminance(back)].sort((x, y) => y - x);
    const ratio = (light + 0.05) / (dark + 0.05);
    if (ratio < 4.5) low.push(`${button.textContent.trim().slice(0, 20)}: ${ratio.toFixed(2)}`);
  }
  return low;
}"""


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("layout", setup=SETUP) as site:
        yield site


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", KEY_CONTROLS)
def test_a_childs_controls_are_on_the_first_screen(browser, server, game, size):
    viewport = SIZES[size]
    # Without motion: contrast is read on the table at rest, not on a card being dealt in.
    page = signed_in_page(
        browser,
        server,
        server.made["ana"],
        f"/play/{server.made['matches'][game]}/",
        viewport=viewport,
        has_touch=True,
        reduced_motion="reduce",
    )
    try:
        expect(page.locator("#play-status")).to_have_text("")
        if game in TURNS_AFTER_BOTS:
            # Read the table the child plays on: once the bots have moved and handed the turn to
            # Ana (an ADD UP bot's opening moves lengthen the rows; under load they come late).
            expect(page.locator("#play-turn")).to_have_text("Your turn!", timeout=20_000)
        # Bots play on: the rectangles are read in one go, once every control is on the table.
        selectors = [f"#play-board {selector}" for selector in KEY_CONTROLS[game]]
        page.wait_for_function(
            "(selectors) => selectors.every((s) => document.querySelector(s))", arg=selectors
        )
        boxes = page.evaluate(
            """(selectors) => selectors.map((s) => {
                const r = document.querySelector(s).getBoundingClientRect();
                return {selector: s, left: r.left, right: r.right, bottom: r.bottom};
            })""",
            selectors,
        )
        for box in boxes:
            where = f"{game} at {size}: {box['selector']}"
            assert box["left"] >= 0 and box["right"] <= viewport["width"] + 1, where
            assert box["bottom"] <= viewport["height"], f"{where} ends at {box['bottom']:.0f} px"
        expect(page.locator("#play-turn")).not_to_be_empty()
        if game == "add_or_multiply_to_ten":
            # A digit key gives 0 to 9; the note says how to reach the 10 card.
            expect(page.locator("#play-keys")).to_contain_text("0–9: a number for the next player")
            expect(page.locator("#play-keys")).to_contain_text("10: Tab to its card")
        low = page.evaluate(LOW_CONTRAST)
        assert low == [], f"{game} at {size}: text under 4.5:1 {low}"
        assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        page.context.close()


def test_the_solo_squares_open_and_blocked_cards_differ_by_more_than_colour(browser, server):
    page = signed_in_page(
        browser,
        server,
        server.made["ana"],
        f"/play/{server.made['matches']['mia_solo']}/",
        viewport=SIZES["phone"],
    )
    try:
        expect(page.locator("#play-status")).to_have_text("")
        cells = page.evaluate(
            """() => [...document.querySelectorAll('.square-cell:not(.is-empty)')].map((c) => ({
                open: c.classList.contains('is-open'),
                said: c.querySelector('.square-state').textContent,
                pattern: getComputedStyle(c).backgroundImage,
                border: getComputedStyle(c).borderTopStyle}))"""
        )
        assert {cell["open"] for cell in cells} == {True, False}
        for cell in cells:
            if cell["open"]:
                assert cell["said"] == "open" and cell["border"] == "solid"
            else:
                assert cell["said"] == "blocked" and cell["border"] == "dashed"
                assert cell["pattern"].startswith("repeating-linear-gradient")
        # One meaning for the score column from start to end: the cards solved.
        expect(page.locator(".score-table thead th").nth(1)).to_have_text("Cards solved")
        expect(page.locator(".score-table tbody td")).to_have_text("0")
    finally:
        page.context.close()


@pytest.mark.parametrize("locale", ["es", "nl"])
def test_the_solo_squares_words_fit_its_cards_on_a_phone(browser, server, locale):
    """The state under each card of the solo square stays inside it on a phone, in the languages
    whose word is longest ("BLOQUEADA" spilled over the next card at 360 px; "geblokkeerd")."""
    page = signed_in_page(
        browser,
        server,
        server.made["ana"],
        f"/play/{server.made['matches']['mia_solo']}/",
        viewport={"width": 390, "height": 740},
        locale=locale,
    )
    try:
        expect(page.locator("#play-status")).to_have_text("")
        for width in (390, 360, 320):
            page.set_viewport_size({"width": width, "height": 740})
            spilled = page.evaluate(
                """() => [...document.querySelectorAll('.square-cell:not(.is-empty)')].flatMap(
                    (c) => {
                        const cell = c.getBoundingClientRect();
                        const word = c.querySelector('.square-state');
                        const text = word.getBoundingClientRect();
                        const inside = text.left >= cell.left + 2 && text.right <= cell.right - 2
                            && word.scrollWidth <= word.clientWidth;
                        return inside ? [] : [`${word.textContent}: ${text.width.toFixed(0)} px`
                            + ` in a ${cell.width.toFixed(0)} px card`];
                    })"""
            )
            assert spilled == [], f"at {width} px: {spilled}"
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    finally:
        page.context.close()


@pytest.mark.parametrize("locale", ["en", "es"])
def test_the_round_score_question_fits_a_phone(browser, server, locale):
    """After the reveal the child reads the sum or product to work out and types the score: on a
    phone, in English and Spanish, the page does not scroll sideways (the rounds' table fits),
    the equation is not broken across two lines, and the score field sits under the question,
    covering none of it."""
    page = signed_in_page(
        browser,
        server,
        server.made["ana"],
        f"/play/{server.made['matches'][f'aom_score_{locale}']}/",
        viewport=SIZES["phone"],
        locale=locale,
        has_touch=True,
    )
    try:
        expect(page.locator("#play-status")).to_have_text("")
        opponents = page.locator("#play-board fieldset[data-seat]")
        opponents.nth(0).locator('[data-value="8"]').click()
        opponents.nth(1).locator('[data-value="9"]').click()
        page.locator('#play-board [data-op="M"]').click()
        page.locator('#play-board [data-key="choose"]').click()
        expect(page.locator("#aom-score")).to_be_visible(timeout=20_000)
        expect(page.locator(".aom-table")).to_be_visible()
        layout = page.evaluate(
            """() => {
                const label = document.querySelector('label[for="aom-score"]');
                const equation = label.querySelector('.aom-equation');
                return {
                    width: document.documentElement.scrollWidth,
                    labelBottom: label.getBoundingClientRect().bottom,
                    inputTop: document.getElementById('aom-score').getBoundingClientRect().top,
                    equation: equation ? equation.textContent : null,
                    equationLines: equation ? equation.getClientRects().length : null,
                };
            }"""
        )
        assert layout["width"] <= SIZES["phone"]["width"], layout
        assert layout["equation"] is not None and layout["equation"].endswith("= ?"), layout
        assert layout["equationLines"] == 1, layout
        assert layout["labelBottom"] <= layout["inputTop"], layout
    finally:
        page.context.close()
