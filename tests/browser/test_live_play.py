"""Live matches played to the end by several browsers at once, through the real pages and sockets.

The site runs in a real Daphne process (``daphne_site``), with its data made by the project's
factories. Each browser context is one student; the test reads the page to choose a move and
clicks it as a child would.
"""

from __future__ import annotations

import itertools
import json
import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import add_session_cookie

pytestmark = pytest.mark.browser

GAME_SECONDS = 60

SETUP = """
import json
from tests.factories import (
    make_class, make_match, make_session, make_student, make_teacher, session_cookie_for,
)

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher)
students = [
    make_student(classroom, name, secret=secret)
    for name, secret in (("Ana", "1111"), ("Ben", "2222"), ("Carla", "3333"))
]
mia = make_match(
    game="mia", variant="express", players=students, bots=["random"], teacher=teacher,
    options={"pass_timeout_seconds": 5, "extra_time_seconds": 1}, label="Table 1",
)
aom = make_match(game="add_or_multiply", variant="standard", players=students, teacher=teacher)
session = make_session(classroom)
print(json.dumps({
    "students": [session_cookie_for(s) for s in students],
    "teacher": session_cookie_for(teacher),
    "mia": mia.pk,
    "aom": aom.pk,
    "session": session.pk,
}))
"""


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("live", setup=SETUP) as site:
        yield site


def open_as(browser, server, cookie: str, path: str):
    context = browser.new_context(viewport={"width": 1024, "height": 900}, locale="en")
    add_session_cookie(context, server.url, cookie)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(server.url + path)
    expect(page.locator("#play-status")).to_have_text("")  # connected
    return page


def match_row(server, match_id: int) -> dict:
    [(status, outcome)] = server.rows(
        "select status, outcome from games_match where id = ?", match_id
    )
    return {"status": status, "outcome": json.loads(outcome) if outcome else None}


def page_scores(page) -> list[str]:
    return page.locator(".score-table tbody td").all_inner_texts()


def click_if_enabled(locator) -> bool:
    """Between reading the page and tapping, the table may have moved on (another player won the
    card): a button that is no longer there, or disabled, is simply not tapped."""
    try:
        if locator.count() == 0 or not locator.is_enabled():
            return False
        locator.click(timeout=2_000)
        return True
    except Exception:  # re-rendered under the finger: read the page again
        return False


def wait_answered(page):
    expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")


# --- ¡Mía! -------------------------------------------------------------------------------------

READ_MIA = """() => {
  const top = document.querySelector("[data-round]");
  const hand = [...document.querySelectorAll(".hand [data-card]")].map((b) => ({
    id: Number(b.dataset.card), value: b.dataset.value, enabled: !b.disabled,
  }));
  const options = [...document.querySelectorAll(".op-card [data-option]")].map((b) => ({
    index: Number(b.dataset.option), op: b.dataset.op, target: Number(b.dataset.target),
    enabled: !b.disabled,
  }));
  return {round: top ? Number(top.dataset.round) : null, hand, options,
          over: !document.getElementById("play-result").hidden};
}"""


def right_claim(hand, options):
    """Two cards of the hand and an option they make (a Wild takes the value that works)."""
    usable = [card for card in hand if card["enabled"]]
    numbers = [c for c in usable if c["value"].isdigit()]
    wilds = [c for c in usable if c["value"] == "wild"]
    for option in (o for o in options if o["enabled"]):
        target = option["target"]
        for a, b in itertools.combinations(numbers, 2):
            x, y = int(a["value"]), int(b["value"])
            if (x + y if option["op"] == "+" else abs(x - y)) == target:
                return option, [a, b], None
        for wild in wilds:
            for card in numbers:
                x = int(card["value"])
                for value in range(1, 10):
                    if (x + value if option["op"] == "+" else abs(x - value)) == target:
                        return option, [wild, card], value
    return None


def play_mia_turn(page) -> str:
    seen = page.evaluate(READ_MIA)
    if seen["over"] or seen["round"] is None:
        return "over" if seen["over"] else "idle"
    board = page.locator("#play-board")
    claim = right_claim(seen["hand"], seen["options"])
    if claim is None:
        return "passed" if click_if_enabled(board.locator('[data-key="pass"]')) else "idle"
    option, cards, wild_value = claim
    for card in cards:
        if not click_if_enabled(board.locator(f'[data-card="{card["id"]}"]')):
            return "idle"
    if wild_value is not None:
        wild = next(c for c in cards if c["value"] == "wild")
        click_if_enabled(board.locator(f'[data-key="wild-{wild["id"]}-{wild_value}"]'))
    # Two cards chosen, the target reads "¡Mía! +12": a tap on it claims.
    target = board.locator(f'.op-card [data-option="{option["index"]}"].is-claim')
    if not click_if_enabled(target):
        # The table moved on under the finger: drop the selection and look again.
        for card in cards:
            click_if_enabled(board.locator(f'[data-card="{card["id"]}"][aria-pressed="true"]'))
        return "idle"
    wait_answered(page)
    return "claimed"


# What the table showed in motion: the scorers' chips and the cards dealt in, as they appeared.
WATCH_THE_TABLE = """() => {
  window.seenOnTable = {chips: [], dealt: 0};
  new MutationObserver(() => {
    for (const chip of document.querySelectorAll('#play-scored:not([hidden]) .scored-chip')) {
      if (!window.seenOnTable.chips.includes(chip.textContent)) {
        window.seenOnTable.chips.push(chip.textContent);
      }
    }
    window.seenOnTable.dealt += document.querySelectorAll('#play-board .is-dealt').length;
  }).observe(document.body, {subtree: true, childList: true, attributes: true});
}"""


def test_three_students_and_a_bot_play_mia_express_to_the_end(browser, server):
    path = f"/play/{server.made['mia']}/"
    pages = [open_as(browser, server, cookie, path) for cookie in server.made["students"]]
    for page in pages:
        page.evaluate(WATCH_THE_TABLE)
    try:
        expect(pages[0].locator("#play-turn")).to_have_text("Your turn!")
        expect(pages[0].get_by_role("heading", name=re.compile(r"^Round \d+"))).to_be_visible()
        claims = 0
        deadline = time.monotonic() + GAME_SECONDS
        while not all(page.locator("#play-result").is_visible() for page in pages):
            assert time.monotonic() < deadline, "the match did not end in time"
            moved = [play_mia_turn(page) for page in pages]
            claims += moved.count("claimed")
            if not any(m in ("claimed", "passed") for m in moved):
                pages[0].wait_for_timeout(100)
        row = match_row(server, server.made["mia"])
        assert row["status"] == "finished"
        scores = [str(s) for s in row["outcome"]["scores"]]
        assert claims > 0
        assert sum(row["outcome"]["scores"][:3]) > 0, "the students won cards through the page"
        for page in pages:
            expect(page.locator("#play-result")).to_contain_text("Game over")
            assert page_scores(page) == scores
            expect(page.locator("#play-turn")).to_have_text("The game is over.")
            assert page.locator("#play-log li").count() > 0
        # A wrong claim's reason was never needed here; the shell's log announced every card.
        expect(pages[1].locator("#play-announcer")).not_to_be_empty()
        # Who scored was shown on the table as it happened, and new cards were dealt in.
        seen = [page.evaluate("() => window.seenOnTable") for page in pages]
        assert any(chip.startswith("You +") for s in seen for chip in s["chips"]), seen
        assert all(s["dealt"] > 0 for s in seen), seen
    finally:
        for page in pages:
            page.context.close()


# --- Add or Multiply? --------------------------------------------------------------------------


def choose_aom(page):
    board = page.locator("#play-board")
    for fieldset in board.locator("fieldset[data-seat]").all():
        buttons = fieldset.locator("button:enabled")
        buttons.nth(buttons.count() - 1).click()  # the largest number left
    board.locator("[data-op]:enabled").first.click()
    board.get_by_role("button", name="Play these cards").click()
    wait_answered(page)
    expect(board.get_by_role("button", name="Play these cards")).to_have_count(0)


def choose_aom_by_keyboard(page):
    """Arrow keys move within a row of cards, Enter and Space press, Tab goes on: the focus stays
    on the pressed card while the board re-renders around it; the choice complete, "Play these
    cards" takes the focus, so Enter plays them."""
    board = page.locator("#play-board")
    for index, key in enumerate(("Enter", " ")):
        fieldset = board.locator("fieldset[data-seat]").nth(index)
        fieldset.locator("button:enabled").first.focus()
        page.keyboard.press("End")
        page.keyboard.press(key)
        expect(fieldset.locator("button:focus")).to_have_attribute("aria-pressed", "true")
    operation = board.locator("[data-op]:enabled").first
    operation.focus()
    page.keyboard.press("Enter")
    expect(operation).to_have_attribute("aria-pressed", "true")
    play = board.get_by_role("button", name="Play these cards")
    expect(play).to_be_focused()
    page.keyboard.press("Enter")
    wait_answered(page)
    expect(board.get_by_role("button", name="Play these cards")).to_have_count(0)


def status_after_drop(page) -> str:
    """Drops Carla's socket and reports what the status line said while it was down."""
    return page.evaluate(
        """async () => {
          playShell.socket.drop();
          const status = document.getElementById("play-status");
          for (let i = 0; i < 100 && !status.textContent; i++) {
            await new Promise((done) => setTimeout(done, 10));
          }
          return status.textContent;
        }"""
    )


def type_aom_score(page, *, wrong=False) -> int:
    board = page.locator("#play-board")
    question = board.locator("label[for=aom-score]").inner_text()
    a, sign, b = re.search(r"(\d+) ([+×]) (\d+) = \?", question).groups()
    answer = int(a) + int(b) if sign == "+" else int(a) * int(b)
    board.get_by_label(question).fill(str(answer + 1 if wrong else answer))
    board.get_by_role("button", name="That's my score").click()
    wait_answered(page)
    return answer


def test_three_students_play_add_or_multiply_and_one_reloads_mid_game(browser, server):
    path = f"/play/{server.made['aom']}/"
    pages = [open_as(browser, server, cookie, path) for cookie in server.made["students"]]
    watch = open_as(browser, server, server.made["teacher"], f"/play/{server.made['aom']}/watch/")
    started = time.monotonic()
    try:
        for round_number in range(1, 6):
            for n, page in enumerate(pages):
                expect(
                    page.get_by_role(
                        "heading", name=f"Round {round_number} of 5: choose your cards"
                    )
                ).to_be_visible()
                if round_number == 1 and n == 2:
                    choose_aom_by_keyboard(page)
                else:
                    choose_aom(page)
            for n, page in enumerate(pages):
                expect(page.locator("label[for=aom-score]")).to_be_visible()
                type_aom_score(page, wrong=(round_number == 1 and n == 0))
            if round_number == 1:
                expect(pages[0].locator(".claim-feedback")).to_contain_text("Not quite")
            if round_number == 2:
                # Ben reloads: the same cards and the same score come back over the socket.
                ben = pages[1]
                expect(
                    ben.get_by_role("heading", name="Round 3 of 5: choose your cards")
                ).to_be_visible()
                cards_before = ben.locator('.others li[data-seat="1"]').inner_text()
                # His numbers, then his operation cards as the signs printed on them.
                assert re.fullmatch(r"You \(is choosing\): [\d ]+ · [+×]( [+×])*", cards_before), (
                    cards_before
                )
                scores_before = page_scores(ben)
                assert scores_before != ["0", "0", "0"]
                log_before = ben.locator("#play-log li").all_inner_texts()
                assert log_before
                ben.reload()
                expect(ben.locator("#play-status")).to_have_text("")
                expect(ben.locator('.others li[data-seat="1"]')).to_have_text(cards_before)
                assert page_scores(ben) == scores_before
                # "What just happened" is rebuilt from the stored moves, as it read before.
                assert ben.locator("#play-log li").all_inner_texts() == log_before
                # Carla's connection drops: the page says so and comes back by itself.
                carla = pages[2]
                assert status_after_drop(carla) == "Reconnecting…"
                expect(carla.locator("#play-status")).to_have_text("")
        row = match_row(server, server.made["aom"])
        assert row["status"] == "finished"
        totals = [str(t) for t in row["outcome"]["scores"]]
        for page in [*pages, watch]:
            expect(page.locator("#play-result")).to_contain_text("Game over")
            assert page_scores(page) == totals
        # The projector shows the table but nothing to tap.
        assert watch.locator("#play-board button, #play-board input").count() == 0
        assert time.monotonic() - started < GAME_SECONDS
    finally:
        for page in [*pages, watch]:
            page.context.close()


def test_a_signed_out_play_page_says_so_and_stops_reconnecting(browser, server):
    """The server refused the socket at its handshake (HTTP 403), which the page could not tell
    from a dropped line: it retried every few seconds forever. Now it closes with 4401."""
    page = open_as(browser, server, server.made["students"][0], f"/play/{server.made['mia']}/")
    sockets = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        page.context.clear_cookies()  # signed out (elsewhere, or the session expired)
        page.evaluate("playShell.socket.drop()")
        status = page.locator("#play-status")
        expect(status).to_contain_text("You are signed out.")
        expect(status.get_by_role("link", name="Sign in again")).to_have_attribute("href", "/")
        tries = len(sockets)
        page.wait_for_timeout(3000)  # the backoff would have retried several times by now
        assert len(sockets) == tries == 1
    finally:
        page.context.close()


@pytest.mark.parametrize(
    ("who", "path", "connected", "handle"),
    [
        ("student", "/me/", "[data-student-sessions][data-connected]", "studentSessions"),
        (
            "teacher",
            "/teacher/sessions/{session}/",
            "[data-live-region][data-connected]",
            "sessionLive",
        ),
    ],
)
def test_a_signed_out_live_page_says_so_and_stops_reconnecting(
    browser, server, who, path, connected, handle
):
    """The student's home page and the teacher's session page stopped following their socket on
    4401 without a word; now they say so, with the way back, and try no more."""
    cookie = server.made["students"][0] if who == "student" else server.made["teacher"]
    context = browser.new_context(viewport={"width": 1024, "height": 900}, locale="en")
    add_session_cookie(context, server.url, cookie)
    page = context.new_page()
    page.set_default_timeout(10_000)
    sockets = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    try:
        page.goto(server.url + path.format(session=server.made["session"]))
        expect(page.locator(connected)).to_have_count(1)
        notice = page.get_by_role("alert").filter(has_text="You are signed out.")
        expect(notice).to_be_hidden()
        context.clear_cookies()  # signed out (elsewhere, or the session expired)
        page.evaluate(f"{handle}.drop()")
        expect(notice).to_be_visible()
        expect(notice.get_by_role("link", name="Sign in again")).to_have_attribute("href", "/")
        # Counted from the refusal on: before it, a busy server may have asked the page to try
        # again (4503), which it rightly did.
        refused_at = len(sockets)
        page.wait_for_timeout(3000)  # the backoff would have retried several times by now
        assert refused_at >= 2  # the first socket, and the one refused
        assert len(sockets) == refused_at
    finally:
        context.close()
