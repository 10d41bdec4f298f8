"""A child who plays by keyboard only: after the page has loaded, nothing but key presses.

The shortcuts (digits for cards, letters for targets, M or Enter to claim, P to pass) make each
move a few keys; the focus stays on the game table through every re-render, so the next move
starts where the last one ended. The test counts the keys and reads what the server applied.
"""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import add_session_cookie
from tests.browser.test_live_play import right_claim

pytestmark = pytest.mark.browser

MOST_KEYS_PER_MOVE = 4
CLAIMS_WANTED = 2
GAME_SECONDS = 60

SETUP = """
import json
from tests.factories import make_class, make_match, make_student, make_teacher, session_cookie_for

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher)
ana = make_student(classroom, "Ana", secret="1111")
mia = make_match(
    game="mia", variant="express", players=[ana], bots=["random", "random"], teacher=teacher,
    options={"pass_timeout_seconds": 5, "extra_time_seconds": 1},
)
add_up = make_match(
    game="add_up", variant="no_jokers", players=[ana], bots=["easy"], teacher=teacher,
)
# The child's turn first, from a fixed deal: in about one deal of a hundred where the bot begins,
# it empties its hand before the child ever plays.
sum_match = make_match(
    game="sum", variant="standard", players=[ana], bots=["easy"], teacher=teacher,
    options={"first_player": "seat0"}, seed=5,
)
print(json.dumps({
    "ana": session_cookie_for(ana), "mia": mia.pk, "add_up": add_up.pk, "sum": sum_match.pk,
}))
"""


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("keyboard", setup=SETUP) as site:
        yield site


# Every time the focus leaves an element, one task later: did it land on the page itself?
WATCH_THE_FOCUS = """() => {
  window.focusOnBody = 0;
  document.addEventListener("focusout", () => setTimeout(() => {
    if (document.activeElement === document.body) window.focusOnBody += 1;
  }), true);
}"""

READ_TABLE = """() => {
  const board = document.getElementById("play-board");
  const top = board.querySelector("[data-round]");
  const hand = [...board.querySelectorAll(".hand [data-card]")].map((b, position) => ({
    id: Number(b.dataset.card), value: b.dataset.value, enabled: !b.disabled, position,
    pressed: b.getAttribute("aria-pressed") === "true",
  }));
  const options = [...board.querySelectorAll(".op-card [data-option]")].map((b) => ({
    index: Number(b.dataset.option), op: b.dataset.op, target: Number(b.dataset.target),
    enabled: !b.disabled, pressed: b.getAttribute("aria-pressed") === "true",
  }));
  const pass = board.querySelector('[data-key="pass"]');
  return {
    round: top ? Number(top.dataset.round) : null, hand, options,
    canAct: Boolean(pass) && pass.getAttribute("aria-disabled") === "false",
    over: !document.getElementById("play-result").hidden,
    busy: board.getAttribute("aria-busy") === "true",
  };
}"""

FOCUS = """() => {
  const active = document.activeElement;
  return {
    body: active === document.body || active === null,
    inTable: document.getElementById("play-board").contains(active),
    key: active && active.dataset ? active.dataset.key || null : null,
  };
}"""

TAB_ORDER = """() => [...document.querySelectorAll("#play-board button")]
  .filter((b) => !b.disabled).map((b) => b.dataset.key)"""


def my_moves(server, match_id: int) -> list[dict]:
    rows = server.rows(
        "select move from games_moverecord where match_id = ? and actor = 'player'"
        " order by version",
        match_id,
    )
    return [json.loads(move) for (move,) in rows]


def open_play(browser, server, match_id: int):
    context = browser.new_context(viewport={"width": 1024, "height": 900}, locale="en")
    add_session_cookie(context, server.url, server.made["ana"])
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{server.url}/play/{match_id}/")
    expect(page.locator("#play-status")).to_have_text("")  # connected
    return page


def test_a_keyboard_child_claims_in_mia_with_a_few_keys_per_move(browser, server):
    match_id = server.made["mia"]
    page = open_play(browser, server, match_id)
    pressed_keys: list[list[str]] = []  # one list per try at a move
    applied_keys: list[list[str]] = []  # the tries the server applied, after the first move

    def press(key: str) -> None:
        page.keyboard.press(key)
        pressed_keys[-1].append(key)

    try:
        expect(page.locator("#play-board .hand [data-card]").first).to_be_visible()
        page.evaluate(WATCH_THE_FOCUS)
        expect(page.locator("#play-keys")).to_contain_text("1–9: your cards")

        # The Tab order is the page's note: the cards, then the targets, then claim and pass. It is
        # read while the child can act: while a bot holds its extra time, the targets are rightly
        # disabled (CI once read the order in that second). Polled from here: wait_for_function
        # polls by eval, which the page's Content-Security-Policy refuses.
        for _ in range(100):
            order = page.evaluate(TAB_ORDER)
            if any(key.startswith("top-option-") for key in order):
                break
            page.wait_for_timeout(100)
        cards = [i for i, key in enumerate(order) if key.startswith("card-")]
        targets = [i for i, key in enumerate(order) if key.startswith("top-option-")]
        assert max(cards) < min(targets) < order.index("claim") < order.index("pass"), order

        # The first move starts with Tab presses from the top of the page into the table.
        pressed_keys.append([])
        for _ in range(12):
            if page.evaluate(FOCUS)["inTable"]:
                break
            press("Tab")
        assert page.evaluate(FOCUS)["inTable"], "Tab never reached the game table"

        claims = passes = 0
        deadline = time.monotonic() + GAME_SECONDS
        while claims < CLAIMS_WANTED:
            assert time.monotonic() < deadline, f"only {claims} claims applied in time"
            seen = page.evaluate(READ_TABLE)
            if seen["over"]:
                break
            if seen["busy"] or not seen["canAct"] or seen["round"] is None:
                page.wait_for_timeout(50)
                continue
            assert not any(c["pressed"] for c in seen["hand"]), "a stale selection was left"
            found = right_claim(seen["hand"], seen["options"])
            if found is not None and found[2] is not None:
                found = None  # a Wild needs its number chosen too: this child passes instead
            if found is not None and max(c["position"] for c in found[1]) > 9:
                found = None  # beyond the tenth card there is no digit
            before = len(my_moves(server, match_id))
            first = not applied_keys and len(pressed_keys) == 1 and not claims + passes
            if not first:
                pressed_keys.append([])
            if found is None:
                press("p")
                expected = {"type": "pass", "round": seen["round"]}
            else:
                option, pair, _ = found
                for card in pair:
                    press(str((card["position"] + 1) % 10))
                press("a" if option["index"] == 0 else "b")
                # The selection complete, the focus went to the claim button: Enter claims.
                assert page.evaluate(FOCUS)["key"] == "claim"
                press("Enter")
                expected = {
                    "type": "claim",
                    "cards": [c["id"] for c in pair],
                    "option": option["index"],
                    "round": seen["round"],
                }
            # The server's word: the move is applied (recorded), unless the table moved on under
            # the keys (a bot took the card first, the round changed): then nothing was sent.
            applied = None
            for _ in range(40):
                moves = my_moves(server, match_id)
                if len(moves) > before:
                    applied = moves[-1]
                    break
                if page.evaluate(READ_TABLE)["round"] != seen["round"]:
                    break
                page.wait_for_timeout(50)
            if applied is not None:
                # On a slow machine the round may change between reading the table and Enter:
                # the page then sends the same keys' move for the round it shows.
                assert applied["round"] >= expected["round"], (applied, expected)
                assert {**applied, "round": expected["round"]} == expected
                claims += applied["type"] == "claim"
                passes += applied["type"] == "pass"
                if not first:
                    applied_keys.append(list(pressed_keys[-1]))
            expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")
            focus = page.evaluate(FOCUS)
            assert not focus["body"], focus
            assert focus["inTable"] or page.evaluate(READ_TABLE)["over"], focus
            # Keys pressed on a table that moved on leave cards chosen: this try clears them by
            # key too (counted with it; a try the server never applied is not a move).
            if any(c["pressed"] for c in page.evaluate(READ_TABLE)["hand"]):
                for card in page.evaluate(READ_TABLE)["hand"]:
                    if card["pressed"]:
                        press(str((card["position"] + 1) % 10))

        assert claims >= 1, (claims, passes, pressed_keys)
        assert page.evaluate("() => window.focusOnBody") == 0
        assert applied_keys, pressed_keys
        assert all(len(keys) <= MOST_KEYS_PER_MOVE for keys in applied_keys), applied_keys
    finally:
        page.context.close()


READ_ADD_UP = """() => {
  const board = document.getElementById("play-board");
  const hand = [...board.querySelectorAll(".addup-hand [data-card]")]
    .map((b) => Number(b.dataset.card));
  return {hand, myTurn: document.getElementById("play-turn").textContent === "Your turn!",
          busy: board.getAttribute("aria-busy") === "true",
          over: !document.getElementById("play-result").hidden};
}"""


def test_a_keyboard_child_plays_add_up_with_two_keys_per_move(browser, server):
    match_id = server.made["add_up"]
    page = open_play(browser, server, match_id)
    try:
        expect(page.locator("#play-board .addup-hand [data-card]").first).to_be_visible()
        page.evaluate(WATCH_THE_FOCUS)
        expect(page.locator("#play-keys")).to_contain_text("T, B: put it on the top or the bottom")
        # The Tab order is the page's note: a card, then the row.
        order = page.evaluate(TAB_ORDER)
        assert order[0].startswith("hand-"), order
        tabs = 0
        while not page.evaluate(FOCUS)["inTable"]:
            assert tabs < 12, "Tab never reached the game table"
            page.keyboard.press("Tab")
            tabs += 1

        moves_played = 0
        deadline = time.monotonic() + GAME_SECONDS
        while moves_played < 3:
            assert time.monotonic() < deadline, f"only {moves_played} moves applied in time"
            seen = page.evaluate(READ_ADD_UP)
            if seen["over"]:
                break
            if seen["busy"] or not seen["myTurn"]:
                page.wait_for_timeout(50)
                continue
            before = len(my_moves(server, match_id))
            row = "top" if moves_played % 2 == 0 else "bottom"
            keys = ["1", "t" if row == "top" else "b"]
            for key in keys:
                page.keyboard.press(key)
            assert len(keys) <= MOST_KEYS_PER_MOVE
            for _ in range(40):
                if len(my_moves(server, match_id)) > before:
                    break
                page.wait_for_timeout(50)
            moves = my_moves(server, match_id)
            assert len(moves) == before + 1, "the move was not applied"
            assert moves[-1] == {"type": "play", "card": seen["hand"][0], "row": row}
            moves_played += 1
            expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")
            focus = page.evaluate(FOCUS)
            assert not focus["body"], focus
            assert focus["inTable"] or page.evaluate(READ_ADD_UP)["over"], focus
        assert moves_played >= 1
        assert page.evaluate("() => window.focusOnBody") == 0
    finally:
        page.context.close()


def test_a_keyboard_child_builds_a_sum_equation_and_draws_by_keys(browser, server):
    match_id = server.made["sum"]
    page = open_play(browser, server, match_id)
    try:
        board = page.locator("#play-board")
        expect(page.locator("#play-turn")).to_have_text("Your turn!")
        page.evaluate(WATCH_THE_FOCUS)
        expect(page.locator("#play-keys")).to_contain_text("C: check")
        tabs = 0
        while not page.evaluate(FOCUS)["inTable"]:
            assert tabs < 12, "Tab never reached the game table"
            page.keyboard.press("Tab")
            tabs += 1
        hand = board.locator(".sum-hand [data-card]")
        first, second = (
            hand.nth(0).get_attribute("data-card"),
            hand.nth(1).get_attribute("data-card"),
        )
        # Two digits put the first two cards into the equation, in that order.
        page.keyboard.press("1")
        page.keyboard.press("2")
        expect(board.locator(f'[data-key="equation-{first}"]')).to_be_visible()
        expect(board.locator(".sum-equation-cards [data-key]")).to_have_count(2)
        assert (
            board.locator(".sum-equation-cards [data-key]").nth(1).get_attribute("data-key")
            == f"equation-{second}"
        )
        # One key draws: the server applies it.
        before = len(my_moves(server, match_id))
        page.keyboard.press("n")
        for _ in range(40):
            if len(my_moves(server, match_id)) > before:
                break
            page.wait_for_timeout(50)
        assert my_moves(server, match_id)[before:] == [{"type": "draw", "from": "numbers"}]
        expect(board).to_have_attribute("aria-busy", "false")
        assert not page.evaluate(FOCUS)["body"]
        assert page.evaluate("() => window.focusOnBody") == 0
    finally:
        page.context.close()
