"""A ¡Mía! claim that loses the race is the slower child's answer (issue 22): their own screen
says, kindly and in their language, whether it was right and who was quicker, the screen reader
announces it, and the focus goes back to their hand, where the next claim starts.

Ben's socket is held back (Playwright's WebSocket route) while Ana wins the card, as a slow
network would: his page still shows the card when he claims it, and hears of Ana's win after."""

from __future__ import annotations

import itertools
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import add_session_cookie
from tests.browser.test_live_play import READ_MIA, right_claim, wait_answered

pytestmark = pytest.mark.browser

CASES = [("en", "right"), ("es", "right"), ("en", "wrong")]

SETUP = f"""
import json
import engine
from tests.factories import make_class, make_match, make_student, session_cookie_for

MIA = engine.get_game("mia")


def plain_claim(state, seat):
    claim = MIA.hint(state, seat)
    return claim if claim and "wild" not in claim else None


# Both children hold a right claim without a Wild on the first card.
seed = next(
    s for s in range(500) if all(plain_claim(MIA.new("express", 2, s), x) for x in (0, 1))
)
classroom = make_class()
ana = make_student(classroom, "Ana", secret="1111")
ben = make_student(classroom, "Ben", secret="2222")
matches = [
    make_match(game="mia", variant="express", players=[ana, ben], seed=seed,
               options={{"pass_timeout_seconds": 90, "first_player": "seat0"}}).pk
    for _ in range({len(CASES)})
]
print(json.dumps({{"ana": session_cookie_for(ana), "ben": session_cookie_for(ben),
                  "ben_id": ben.pk, "matches": matches}}))
"""

EXPECTED = {
    ("en", "right"): r"^Right! Ana was quicker this time\.$",
    ("es", "right"): r"^¡Correcto! Esta vez Ana llegó antes\.$",
    ("en", "wrong"): r"^Not quite: \d+ [+−] \d+ = \d+, not \d+\. Ana took that card\.$",
}


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("late-claim", setup=SETUP) as site:
        yield site


class HeldSocket:
    """Forwards a page's socket both ways, except that while ``hold`` is on, what the server
    sends waits (a slow network towards that child) until ``release``."""

    def __init__(self, page):
        self.holding = False
        self.held = []
        self.route = None
        page.route_web_socket(re.compile(r".*"), self._connect)

    def _connect(self, route):
        server = route.connect_to_server()
        self.route = route
        route.on_message(server.send)
        server.on_message(self._to_page)

    def _to_page(self, message):
        if self.holding:
            self.held.append(message)
        else:
            self.route.send(message)

    def release(self):
        self.holding = False
        for message in self.held:
            self.route.send(message)
        self.held = []


def open_play(browser, server, cookie, match_id, locale, *, held=False):
    context = browser.new_context(viewport={"width": 1024, "height": 900}, locale=locale)
    add_session_cookie(context, server.url, cookie)
    page = context.new_page()
    page.set_default_timeout(10_000)
    socket = HeldSocket(page) if held else None
    page.goto(f"{server.url}/play/{match_id}/")
    expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")
    return page, socket


def wrong_claim(hand, options):
    numbers = [c for c in hand if c["enabled"] and c["value"].isdigit()]
    for option in options:
        for a, b in itertools.combinations(numbers, 2):
            x, y = int(a["value"]), int(b["value"])
            if (x + y if option["op"] == "+" else abs(x - y)) != option["target"]:
                return option, [a, b], None
    raise AssertionError("no wrong claim in this hand")


def choose(page, claim):
    """The two cards: the target then reads "¡Mía! …" and claims (returned, not pressed)."""
    option, cards, wild_value = claim
    assert wild_value is None
    board = page.locator("#play-board")
    for card in cards:
        board.locator(f'[data-card="{card["id"]}"]').click()
    return board.locator(f'.op-card [data-option="{option["index"]}"].is-claim')


@pytest.mark.parametrize(("locale", "kind"), CASES)
def test_the_slower_child_is_told_kindly_whether_their_late_claim_was_right(
    browser, server, locale, kind
):
    match_id = server.made["matches"][CASES.index((locale, kind))]
    ana, _ = open_play(browser, server, server.made["ana"], match_id, "en")
    ben, ben_socket = open_play(browser, server, server.made["ben"], match_id, locale, held=True)
    try:
        seen = ben.evaluate(READ_MIA)
        card_round = seen["round"]
        bens_claim = right_claim if kind == "right" else wrong_claim
        claim = choose(ben, bens_claim(seen["hand"], seen["options"]))
        claim.focus()

        ben_socket.holding = True
        seen = ana.evaluate(READ_MIA)
        choose(ana, right_claim(seen["hand"], seen["options"])).click()
        wait_answered(ana)
        expect(ana.locator("[data-round]")).not_to_have_attribute("data-round", str(card_round))

        # Ben's page still shows the card Ana has just won: he claims it.
        expect(ben.locator("[data-round]")).to_have_attribute("data-round", str(card_round))
        ben.keyboard.press("Enter")
        expect(ben.locator("#play-board")).to_have_attribute("aria-busy", "true")
        ben.wait_for_timeout(300)  # the claim reaches the server before Ben hears of Ana's win
        ben_socket.release()

        message = re.compile(EXPECTED[(locale, kind)])
        wait_answered(ben)
        expect(ben.locator('[data-key="feedback"]')).to_have_text(message)
        expect(ben.locator("#play-announcer")).to_contain_text(message)
        expect(ben.locator("#play-errors")).to_be_empty()  # no "Too late" any more
        # The claim was heard: the focus is back in the hand, nothing chosen for the new card.
        expect(ben.locator('#play-board [data-roving="hand"] button:focus')).to_have_count(1)
        expect(ben.locator('#play-board .hand [aria-pressed="true"]')).to_have_count(0)
        # Ana's screen says nothing of it.
        expect(ana.locator('[data-key="feedback"]')).to_have_count(0)

        [(correct, detail)] = server.rows(
            "select correct, detail from games_attempt where match_id = ? and user_id = ?",
            match_id,
            server.made["ben_id"],
        )
        assert (bool(correct), detail) == (kind == "right", '{"scored": false}')
    finally:
        ana.context.close()
        ben.context.close()
