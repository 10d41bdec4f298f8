"""A child who plays by keyboard only: after the page has loaded, nothing but key presses.

The shortcuts (digits for cards, letters for the targets, which claim, P to pass) make each
move a few keys; the focus stays on the game table through every re-render, so the next move
starts where the last one ended. The test counts the keys and reads what the server applied.

Without the shortcuts (the second half): each group of choices is one Tab stop with the arrows
inside it, and a move of each game is made by Tab, the arrows, Enter and Space alone, its keys
counted (docs/accessibility.md, "Keys without the shortcuts").
"""

from __future__ import annotations

import json
import re
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
import engine
from tests.factories import make_class, make_match, make_student, make_teacher, session_cookie_for

MIA = engine.get_game("mia")
CALM = {"calm": True, "first_player": "seat0"}


def side_by_side(seed):
    view = MIA.view(MIA.new("express", 2, seed, CALM), 0)
    first, second = view["hand"][:2]
    option = view["top"]["options"][0]
    if first["kind"] != "number" or second["kind"] != "number":
        return False
    a, b = first["value"], second["value"]
    return (a + b if option["op"] == "+" else abs(a - b)) == option["target"]


def wild_last(seed):
    view = MIA.view(MIA.new("express", 2, seed, CALM), 0)
    number, wild = view["hand"][-2:]
    option = view["top"]["options"][0]
    if wild["kind"] != "wild" or number["kind"] != "number":
        return False
    return any(
        (number["value"] + v if option["op"] == "+" else abs(number["value"] - v))
        == option["target"]
        for v in range(1, 10)
    )

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
# Tables for the child who uses no shortcut (Tab, arrows, Enter and Space alone): the child's
# turn first where a game has turns; a long clock, so that keys are never hurried.
by_keys = {
    "mia": make_match(
        game="mia", variant="express", players=[ana], bots=["random"], teacher=teacher, seed=3,
        options={"pass_timeout_seconds": 60, "extra_time_seconds": 1},
    ),
    # A calm table (the first card waits for the child) whose first two cards make the first
    # target: the shortest claim by Tab, arrows and Enter.
    "mia_calm": make_match(
        game="mia", variant="express", players=[ana], bots=["random"], teacher=teacher,
        seed=next(s for s in range(2000) if side_by_side(s)), options=CALM,
    ),
    # A calm table whose last card, a Wild, makes the first target with the card before it.
    "mia_wild": make_match(
        game="mia", variant="express", players=[ana], bots=["random"], teacher=teacher,
        seed=next(s for s in range(2000) if wild_last(s)), options=CALM,
    ),
    "mia_solo": make_match(game="mia", variant="solo3", players=[ana], teacher=teacher, seed=6),
    "add_up": make_match(
        game="add_up", variant="no_jokers", players=[ana], bots=["easy"], teacher=teacher, seed=7,
        options={"first_player": "seat0"},
    ),
    "sum": make_match(
        game="sum", variant="standard", players=[ana], bots=["easy"], teacher=teacher,
        options={"first_player": "seat0"}, seed=5,
    ),
    # A hand that makes the centre number with three of its cards (7 − 1 = 6).
    "sum_equation": make_match(
        game="sum", variant="standard", players=[ana], bots=["easy"], teacher=teacher,
        options={"first_player": "seat0"}, seed=4,
    ),
    "mathable_junior": make_match(
        game="mathable_junior", variant="front", players=[ana], bots=["easy"], teacher=teacher,
        options={"first_player": "seat0"}, seed=4,
    ),
    "add_or_multiply": make_match(
        game="add_or_multiply", variant="standard", players=[ana], bots=["easy", "easy"],
        teacher=teacher, seed=7,
    ),
}
print(json.dumps({
    "ana": session_cookie_for(ana), "mia": mia.pk, "add_up": add_up.pk, "sum": sum_match.pk,
    "by_keys": {game: match.pk for game, match in by_keys.items()},
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

        # The Tab order is the page's note: the cards, then the targets (which claim), then pass.
        # It is read while the child can act: while a bot holds its extra time, the targets are
        # rightly disabled (CI once read the order in that second). Polled from here:
        # wait_for_function polls by eval, which the page's Content-Security-Policy refuses.
        for _ in range(100):
            order = page.evaluate(TAB_ORDER)
            if any(key.startswith("top-option-") for key in order):
                break
            page.wait_for_timeout(100)
        cards = [i for i, key in enumerate(order) if key.startswith("card-")]
        targets = [i for i, key in enumerate(order) if key.startswith("top-option-")]
        assert max(cards) < min(targets) < order.index("pass"), order

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
                # The second card sent the focus to the targets, which now claim: the letter
                # (or Enter on the first) sends the claim.
                assert page.evaluate(FOCUS)["key"] == "top-option-0"
                press("a" if option["index"] == 0 else "b")
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


# --- without the shortcuts: one Tab stop per group, arrows inside it ---------------------------
# A child who does not use the letter and digit shortcuts (a switch or a screen reader user, or
# a child who never learnt them) plays by Tab, Shift+Tab, the arrows, Home, End, Enter and Space.
# Each group of choices is one Tab stop (the WAI-ARIA Authoring Practices' toolbar and grid), so a
# move costs a Tab per group it uses, not one per card.

# The groups of choices of each table, by the data-key of their controls (a key ending in "-" is
# a prefix; the longest match wins).
GROUPS = {
    "mia": {
        "hand": ["card-"],
        "wild": ["wild-"],
        "targets": ["top-option-"],
        "actions": ["pass", "extra-time"],
    },
    "mia_solo": {
        "square": ["cell-"],
        "card": ["cell-option-"],
        "hand": ["card-"],
        "actions": ["solve", "swap"],
    },
    "add_up": {"hand": ["hand-"], "rows": ["row-"]},
    "sum": {
        "hand": ["hand-"],
        "equation": ["equation-"],
        "check": ["check", "clear"],
        "turn": ["draw-numbers", "draw-operations", "end-turn"],
    },
    "mathable_junior": {
        "rack": ["rack-"],
        "board": ["square-"],
        "actions": ["draw", "exchange", "end-turn"],
    },
    "add_or_multiply": {
        "first": ["give-1-"],
        "second": ["give-2-"],
        "operation": ["op-"],
        "play": ["choose"],
    },
}
ARROWS_AND_TABS = {
    "Tab",
    "Shift+Tab",
    "ArrowLeft",
    "ArrowRight",
    "ArrowUp",
    "ArrowDown",
    "Home",
    "End",
}
CHOICE_KEYS = {"Enter", "Space"}


def group_of(game: str, key: str | None) -> str | None:
    if key is None:
        return None
    best = None
    for group, names in GROUPS[game].items():
        for name in names:
            matches = key == name or (name.endswith("-") and key.startswith(name))
            if matches and (best is None or len(name) > best[1]):
                best = (group, len(name))
    return best[0] if best else key


FOCUSED_KEY = """() => {
  const active = document.activeElement;
  const board = document.getElementById("play-board");
  if (!active || !board.contains(active) || active === board) return null;
  const keyed = active.closest("[data-key]");
  return keyed ? keyed.dataset.key : null;
}"""

# The enabled keyed buttons of the table in page order, with their place in a grid if any.
CONTROLS = """() => [...document.querySelectorAll("#play-board button[data-key]")]
  .filter((b) => !b.disabled)
  .map((b) => ({key: b.dataset.key, row: b.dataset.row === undefined ? null : Number(b.dataset.row),
                col: b.dataset.col === undefined ? null : Number(b.dataset.col)}))"""


# Whether the control `key` comes after the focus in the page's order.
COMES_LATER = """(key) => {
  const target = document.querySelector(`#play-board [data-key="${key}"]`);
  const active = document.activeElement;
  if (!active || active === document.body) return true;
  return Boolean(active.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING);
}"""


class KeysOnly:
    """A child who presses only Tab, Shift+Tab, the arrows, Home, End, Enter and Space, and
    counts them per move."""

    def __init__(self, page, game: str):
        self.page, self.game = page, game
        self.keys: list[str] = []

    def press(self, key: str) -> None:
        assert key in ARROWS_AND_TABS | CHOICE_KEYS, key
        self.page.keyboard.press(key)
        self.keys.append(key)

    def focused(self) -> str | None:
        return self.page.evaluate(FOCUSED_KEY)

    def tab_into_the_table(self) -> None:
        """From the top of the page; these keys come before the first move and are not counted
        with it (as in test_keyboard_games_to_the_end)."""
        self.page.keyboard.press("Tab")
        for _ in range(20):
            if self.focused() is not None:
                return
            self.page.keyboard.press("Tab")
        pytest.fail("Tab never reached the game table")

    def tab_to_group(self, key: str) -> None:
        """Tab (or Shift+Tab) until the focus is in the group of `key`: every press must leave
        the group it was in, or the group is more than one Tab stop."""
        target = group_of(self.game, key)
        for _ in range(30):
            here = self.focused()
            if group_of(self.game, here) == target:
                return
            self.press("Tab" if self.page.evaluate(COMES_LATER, key) else "Shift+Tab")
            after = self.focused()
            assert group_of(self.game, after) != group_of(self.game, here), (
                f"{self.keys[-1]} stayed in the group {group_of(self.game, here)!r}: "
                f"{here} -> {after}"
            )
        pytest.fail(f"Tab never reached {key}")

    def arrow_to(self, key: str) -> None:
        """The shortest way by arrows (Home and End included) inside the focused group."""
        here = self.focused()
        group = group_of(self.game, here)
        controls = [
            c for c in self.page.evaluate(CONTROLS) if group_of(self.game, c["key"]) == group
        ]
        keys = [c["key"] for c in controls]
        at, to = keys.index(here), keys.index(key)
        if controls[at]["col"] is not None and controls[to]["col"] is not None:  # a grid
            rows = controls[to]["row"] - controls[at]["row"]
            cols = controls[to]["col"] - controls[at]["col"]
            plan = ["ArrowDown" if rows > 0 else "ArrowUp"] * abs(rows)
            plan += ["ArrowRight" if cols > 0 else "ArrowLeft"] * abs(cols)
        else:
            plans = [
                ["ArrowRight" if to > at else "ArrowLeft"] * abs(to - at),
                ["Home"] + ["ArrowRight"] * to,
                ["End"] + ["ArrowLeft"] * (len(keys) - 1 - to),
            ]
            plan = min(plans, key=len)
        for arrow in plan:
            self.press(arrow)
        assert self.focused() == key, (self.keys, self.focused(), key)

    def go_to(self, key: str) -> None:
        self.tab_to_group(key)
        self.arrow_to(key)

    def choose(self, key: str) -> None:
        if self.focused() != key:
            self.go_to(key)
        self.press("Enter")

    def move_done(self) -> list[str]:
        keys, self.keys = self.keys, []
        return keys


def wait_for(page, check, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the table never got there"
        page.wait_for_timeout(50)


MY_TURN = """() => document.getElementById("play-turn").textContent === "Your turn!"
  && document.getElementById("play-board").getAttribute("aria-busy") === "false" """


def ready_to_play(page, game: str) -> None:
    if game == "mia":
        wait_for(
            page,
            lambda: (
                page.evaluate(READ_TABLE)["canAct"]
                and any(o["enabled"] for o in page.evaluate(READ_TABLE)["options"])
            ),
        )
    elif game != "mia_solo":
        wait_for(page, lambda: page.evaluate(MY_TURN))


TAB_STOP_GAMES = list(GROUPS)


@pytest.mark.parametrize("game", TAB_STOP_GAMES)
def test_each_group_of_choices_is_one_tab_stop(browser, server, game):
    page = open_play(browser, server, server.made["by_keys"][game])
    try:
        ready_to_play(page, game)
        child = KeysOnly(page, game)
        child.tab_into_the_table()
        stops = [child.focused()]
        for _ in range(60):
            page.keyboard.press("Tab")
            key = child.focused()
            if key is None:
                break
            stops.append(key)
        else:
            pytest.fail(f"Tab never left the table: {stops}")
        groups = [group_of(game, key) for key in stops]
        # Every group the table shows now (an enabled control in it) is one stop, in page order.
        shown = []
        for control in page.evaluate(CONTROLS):
            group = group_of(game, control["key"])
            if group not in shown:
                shown.append(group)
        assert groups == shown, stops
    finally:
        page.context.close()


def test_arrows_follow_the_page_direction(browser, server):
    """On a page read right to left, Left goes to the next card (drawn to the left of it)."""
    page = open_play(browser, server, server.made["by_keys"]["add_up"])
    try:
        expect(page.locator("#play-board .addup-hand [data-card]").nth(1)).to_be_visible()
        child = KeysOnly(page, "add_up")
        child.tab_into_the_table()
        hand = page.locator("#play-board .addup-hand [data-card]")
        first, second = (hand.nth(i).get_attribute("data-key") for i in (0, 1))
        assert child.focused() == first
        page.keyboard.press("ArrowRight")
        assert child.focused() == second
        page.keyboard.press("ArrowLeft")
        assert child.focused() == first
        page.evaluate("() => { document.documentElement.dir = 'rtl'; }")
        page.keyboard.press("ArrowLeft")
        assert child.focused() == second
        page.keyboard.press("ArrowRight")
        assert child.focused() == first
    finally:
        page.context.close()


def record_applied(server, match_id: int, before: int, moved_on=lambda: False) -> dict | None:
    for _ in range(80):
        moves = my_moves(server, match_id)
        if len(moves) > before:
            return moves[before]
        if moved_on():
            return None
        time.sleep(0.05)
    return None


def counted(keys: list[str]) -> dict:
    return {
        "keys": len(keys),
        "tabs": sum(k in ("Tab", "Shift+Tab") for k in keys),
        "arrows": sum(k.startswith("Arrow") or k in ("Home", "End") for k in keys),
        "choices": sum(k in CHOICE_KEYS for k in keys),
    }


def row_distance(at: int, to: int, count: int) -> int:
    """The fewest arrow keys (Home and End included) from item `at` to item `to` of a row of
    `count` items: what KeysOnly.arrow_to presses."""
    return min(abs(to - at), 1 + to, 1 + (count - 1 - to))


def cheapest_plain_claim(hand: list[dict], options: list[dict], at: int):
    """The right claim without a Wild that takes the fewest arrows from the hand's item `at`:
    (arrows, option, [first card, second card]), or None. Positions count the enabled cards only
    (the arrows pass over an Extra time card)."""
    usable = [c for c in hand if c["enabled"]]
    numbers = [(i, c) for i, c in enumerate(usable) if c["value"].isdigit()]
    best = None
    for option in (o for o in options if o["enabled"]):
        for i, a in numbers:
            for j, b in numbers:
                if i == j:
                    continue
                x, y = int(a["value"]), int(b["value"])
                if (x + y if option["op"] == "+" else abs(x - y)) != option["target"]:
                    continue
                arrows = (
                    row_distance(at, i, len(usable))
                    + row_distance(i, j, len(usable))
                    # the focus goes to the first target once the two cards are chosen
                    + row_distance(0, option["index"], len(options))
                )
                if best is None or arrows < best[0]:
                    best = (arrows, option, [a, b])
    return best


@pytest.mark.parametrize("table", ["mia_calm", "mia"])
def test_a_mia_claim_by_tab_arrows_and_enter(browser, server, table):
    """Two cards, then the target they make: three choices and no Tab. The second card sends the
    focus to the targets (a Wild's numbers first, when a Wild is chosen), which then read
    "¡Mía! +12": Enter on one claims it. After a claim the focus is back in the hand. So a claim
    whose two cards lie side by side, the focus on one of them and the first target right, is
    Enter, an arrow, Enter, Enter; every other claim adds only the arrows of its distances. The
    same claim took 11 keys when every card was a Tab stop, then 7 with a claim button.

    The calm table deals such a claim on its first card (the card waits for the child there); the
    race (a bot may take a card first) counts whatever claims come."""
    match_id = server.made["by_keys"][table]
    claims_wanted = 2 if table == "mia_calm" else 1
    page = open_play(browser, server, match_id)
    child = KeysOnly(page, "mia")
    moves: list[tuple[str, list[str], int | None]] = []  # kind, keys, arrows expected
    try:
        page.evaluate(WATCH_THE_FOCUS)
        ready_to_play(page, "mia")
        child.tab_into_the_table()
        assert group_of("mia", child.focused()) == "hand"
        deadline = time.monotonic() + GAME_SECONDS
        while sum(kind == "claim" for kind, _, _ in moves) < claims_wanted:
            assert time.monotonic() < deadline, moves
            seen = page.evaluate(READ_TABLE)
            assert not seen["over"], moves
            if seen["busy"] or not seen["canAct"] or seen["round"] is None:
                page.wait_for_timeout(50)
                continue
            before = len(my_moves(server, match_id))
            here = child.focused()
            usable_keys = [f"card-{c['id']}" for c in seen["hand"] if c["enabled"]]
            in_hand = here in usable_keys
            cheapest = cheapest_plain_claim(
                seen["hand"], seen["options"], usable_keys.index(here) if in_hand else 0
            )
            found = right_claim(seen["hand"], seen["options"])
            arrows = None
            if cheapest is not None:
                arrows, option, pair = cheapest
                for card in pair:
                    child.choose(f"card-{card['id']}")
                assert child.focused() == "top-option-0", "the second card did not move the focus"
                child.choose(f"top-option-{option['index']}")
                if not in_hand:
                    arrows = None  # the way back to the hand is counted, not predicted
            elif found is not None:
                # A Wild: its number is chosen between the cards and the target.
                option, pair, value = found
                for card in pair:
                    child.choose(f"card-{card['id']}")
                picked = child.focused()
                assert picked and picked.startswith("wild-"), picked
                wild = picked.rsplit("-", 1)[0]
                child.choose(f"{wild}-{value}")
                assert child.focused() == "top-option-0", "the Wild's number did not move the focus"
                child.choose(f"top-option-{option['index']}")
            else:
                child.choose("pass")
            applied = record_applied(
                server,
                match_id,
                before,
                lambda at=seen["round"]: page.evaluate(READ_TABLE)["round"] != at,
            )
            keys = child.move_done()
            if applied is None:
                # The table moved on under the keys (a bot was quicker): clear what was chosen,
                # by keys, and look again. Not a move.
                for card in page.evaluate(READ_TABLE)["hand"]:
                    if card["pressed"]:
                        child.choose(f"card-{card['id']}")
                child.move_done()
                continue
            if applied["type"] == "claim":
                assert applied["option"] == option["index"], applied
                assert sorted(applied["cards"]) == sorted(c["id"] for c in pair), applied
            moves.append((applied["type"], keys, arrows))
            expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")
            assert child.focused() is not None, "the focus left the table"
            if applied["type"] == "claim":
                assert group_of("mia", child.focused()) == "hand", child.focused()
        print(
            f"¡Mía! ({table}) by Tab, arrows and Enter:",
            [(kind, counted(keys), keys) for kind, keys, _ in moves],
        )
        for kind, keys, arrows in moves:
            count = counted(keys)
            # A Tab for each group the move goes into, never one per card.
            assert count["tabs"] <= len(GROUPS["mia"]), keys
            if kind == "claim" and "wild" not in keys:
                assert count["choices"] == 3, keys  # two cards, a target: no claim button
            if kind == "claim" and arrows is not None:
                # From the hand: no Tab, and the arrows only for the distances.
                assert count["tabs"] == 0 and count["arrows"] == arrows, (keys, arrows)
                assert len(keys) == 3 + arrows, keys
        if table == "mia_calm":
            # The deal: the first two cards make the first target, and Tab lands on the first.
            assert moves[0][0] == "claim", moves
            assert moves[0][1] == ["Enter", "ArrowRight", "Enter", "Enter"], moves[0]
            assert len(moves[0][1]) <= MOST_KEYS_PER_MOVE
        assert page.evaluate("() => window.focusOnBody") == 0
    finally:
        page.context.close()


def test_a_mia_claim_with_a_wild_by_tab_arrows_and_enter(browser, server):
    """A Wild's number is chosen between the cards and the target: the second card sends the
    focus to the Wild's numbers (on 1), and the number to the targets. The Wild is the hand's
    last card: End, Enter, Left, Enter, the arrows to its number, Enter, Enter on the first
    target."""
    match_id = server.made["by_keys"]["mia_wild"]
    page = open_play(browser, server, match_id)
    child = KeysOnly(page, "mia")
    try:
        page.evaluate(WATCH_THE_FOCUS)
        ready_to_play(page, "mia")
        child.tab_into_the_table()
        seen = page.evaluate(READ_TABLE)
        number, wild = [c for c in seen["hand"] if c["enabled"]][-2:]
        option = seen["options"][0]
        x = int(number["value"])
        value = next(
            v
            for v in range(1, 10)
            if (x + v if option["op"] == "+" else abs(x - v)) == option["target"]
        )
        before = len(my_moves(server, match_id))
        child.choose(f"card-{wild['id']}")
        child.choose(f"card-{number['id']}")
        assert child.focused() == f"wild-{wild['id']}-1", child.focused()
        child.choose(f"wild-{wild['id']}-{value}")
        assert child.focused() == "top-option-0", child.focused()
        expect(page.locator('[data-key="top-option-0"]')).to_have_attribute(
            "aria-label", re.compile(rf"^¡Mía! (Sum|Difference) {option['target']} with ")
        )
        child.press("Enter")
        applied = record_applied(server, match_id, before)
        assert applied == {
            "type": "claim",
            "cards": [wild["id"], number["id"]],
            "option": 0,
            "wild": value,
            "round": seen["round"],
        }, applied
        keys = child.move_done()
        to_number = row_distance(0, value - 1, 9)
        print("¡Mía! with a Wild by Tab, arrows and Enter:", counted(keys), keys)
        assert keys[:4] == ["End", "Enter", "ArrowLeft", "Enter"], keys
        assert len(keys) == 6 + to_number and counted(keys)["choices"] == 4, keys
        expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")
        assert group_of("mia", child.focused()) == "hand", child.focused()
        assert page.evaluate("() => window.focusOnBody") == 0
    finally:
        page.context.close()


def test_add_up_moves_by_tab_arrows_and_enter_in_four_keys(browser, server):
    """A card of the hand (the focused one), then a row: Enter, Tab, an arrow for the bottom row,
    Enter. After the move the focus is back in the hand, where the next move starts."""
    match_id = server.made["by_keys"]["add_up"]
    page = open_play(browser, server, match_id)
    child = KeysOnly(page, "add_up")
    counts = []
    try:
        page.evaluate(WATCH_THE_FOCUS)
        ready_to_play(page, "add_up")
        child.tab_into_the_table()
        for _ in range(3):
            wait_for(page, lambda: page.evaluate(MY_TURN))
            assert group_of("add_up", child.focused()) == "hand", child.focused()
            card = int(child.focused()[5:])
            ((state_json,),) = server.rows("select state from games_match where id = ?", match_id)
            rows = engine_state("add_up", state_json).data
            top = sum(value for _, value in rows["top"])
            bottom = sum(value for _, value in rows["bottom"])
            row = "bottom" if bottom < top else "top"
            before = len(my_moves(server, match_id))
            child.press("Enter")
            child.choose(f"row-{row}")
            applied = record_applied(server, match_id, before)
            assert applied == {"type": "play", "card": card, "row": row}, applied
            keys = child.move_done()
            counts.append(counted(keys))
            assert len(keys) <= MOST_KEYS_PER_MOVE, keys
            expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")
            if page.evaluate(READ_TABLE)["over"]:
                break
        print("ADD UP by Tab, arrows and Enter:", counts)
        assert page.evaluate("() => window.focusOnBody") == 0
    finally:
        page.context.close()


def test_sum_draws_by_tab_and_enter(browser, server):
    """From the hand: Tab to the turn's buttons, Enter draws a number card (2 keys); Enter again
    draws the second; a Right arrow and Enter end the turn."""
    match_id = server.made["by_keys"]["sum"]
    page = open_play(browser, server, match_id)
    child = KeysOnly(page, "sum")
    counts = []
    try:
        page.evaluate(WATCH_THE_FOCUS)
        ready_to_play(page, "sum")
        child.tab_into_the_table()
        assert group_of("sum", child.focused()) == "hand", child.focused()
        for expected in (
            {"type": "draw", "from": "numbers"},
            {"type": "draw", "from": "numbers"},
            {"type": "end_turn"},
        ):
            wait_for(page, lambda: page.evaluate(MY_TURN))
            before = len(my_moves(server, match_id))
            child.choose("draw-numbers" if expected["type"] == "draw" else "end-turn")
            assert record_applied(server, match_id, before) == expected
            keys = child.move_done()
            counts.append(counted(keys))
            assert len(keys) <= MOST_KEYS_PER_MOVE, keys
            expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")
            assert child.focused() is not None, "the focus left the table"
        print("SUM by Tab, arrows and Enter:", counts)
        assert page.evaluate("() => window.focusOnBody") == 0
    finally:
        page.context.close()


def test_sum_equation_by_tab_arrows_and_enter(browser, server):
    """Three cards of the hand in the equation's order, then "Check my equation": the arrows
    inside the hand, a Tab past the equation's cards and one to the check button."""
    from engine import sum_cards as sum_rules
    from tests.browser.test_keyboard_games_to_the_end import short_equation

    match_id = server.made["by_keys"]["sum_equation"]
    page = open_play(browser, server, match_id)
    child = KeysOnly(page, "sum")
    try:
        page.evaluate(WATCH_THE_FOCUS)
        ready_to_play(page, "sum")
        child.tab_into_the_table()
        ((state_json,),) = server.rows("select state from games_match where id = ?", match_id)
        data = engine_state("sum", state_json).data
        hand = [
            int(card)
            for card in page.locator("#play-board .sum-hand [data-card]").evaluate_all(
                "(cards) => cards.map((c) => c.dataset.card)"
            )
        ]
        cards = short_equation(hand, sum_rules.FACE[data["centre"]])
        assert cards, "no equation of three cards on this deal"
        before = len(my_moves(server, match_id))
        for card in cards:
            child.choose(f"hand-{card}")
        child.choose("check")
        assert record_applied(server, match_id, before) == {"type": "equation", "cards": cards}
        keys = child.move_done()
        count = counted(keys)
        print("SUM equation by Tab, arrows and Enter:", count, keys)
        assert count["choices"] == 4 and count["tabs"] == 2, keys
        expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")
        assert child.focused() is not None, "the focus left the table"
        assert page.evaluate("() => window.focusOnBody") == 0
    finally:
        page.context.close()


def test_mathable_junior_places_a_tile_by_tab_arrows_and_enter(browser, server):
    """A tile of the rack, Tab to the board, arrows to the square, Enter: the board and the rack
    are one Tab stop each. The placement that takes the fewest keys is played."""
    from engine import mathable_junior_board as mj_board
    from engine import mathable_junior_bots as mj_bots

    match_id = server.made["by_keys"]["mathable_junior"]
    page = open_play(browser, server, match_id)
    child = KeysOnly(page, "mathable_junior")
    try:
        page.evaluate(WATCH_THE_FOCUS)
        ready_to_play(page, "mathable_junior")
        child.tab_into_the_table()
        assert group_of("mathable_junior", child.focused()) == "rack", child.focused()
        ((state_json,),) = server.rows("select state from games_match where id = ?", match_id)
        state = engine_state("mathable_junior", state_json)
        rack = [
            int(t)
            for t in page.locator("#play-board [data-key^=rack-]").evaluate_all(
                "(tiles) => tiles.map((t) => t.dataset.tile)"
            )
        ]
        cursor = page.evaluate(
            """() => {
              const square = document.querySelector('#play-board [role=grid] button[tabindex="0"]');
              return square ? [Number(square.dataset.row), Number(square.dataset.col)] : null;
            }"""
        )
        assert cursor is not None, "the board has no Tab stop"
        at = int(child.focused().removeprefix("rack-"))

        def cost(option):
            _, value, square = option
            row, col = divmod(square, mj_board.SIZE)
            index = min(range(len(rack)), key=lambda i: (rack[i] != value, abs(i - at)))
            return abs(index - at) + abs(row - cursor[0]) + abs(col - cursor[1]), index, row, col

        options = mj_bots.front_right_placements(state.data["board"], state.data["racks"][0])
        assert options, "no right placement on this deal"
        arrows, index, row, col = min(cost(o) for o in options)
        before = len(my_moves(server, match_id))
        child.choose(f"rack-{index}")
        child.choose(f"square-{row}-{col}")
        applied = record_applied(server, match_id, before)
        assert applied == {"type": "place", "tile": rack[index], "row": row, "col": col}, applied
        keys = child.move_done()
        count = counted(keys)
        print("Mathable Junior by Tab, arrows and Enter:", count)
        assert count["tabs"] == 1 and count["choices"] == 2, keys
        assert count["arrows"] == arrows, keys
        expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")
        assert child.focused() is not None
        assert page.evaluate("() => window.focusOnBody") == 0
    finally:
        page.context.close()


def engine_state(game: str, state_json: str):
    import engine

    return engine.get_game(game).load(json.loads(state_json))


def test_add_or_multiply_chooses_by_tab_arrows_and_enter(browser, server):
    """A number for each of the two others and an operation: a Tab between the three groups,
    and "Play these cards" takes the focus once the choice is complete, so Enter plays it."""
    match_id = server.made["by_keys"]["add_or_multiply"]
    page = open_play(browser, server, match_id)
    child = KeysOnly(page, "add_or_multiply")
    try:
        page.evaluate(WATCH_THE_FOCUS)
        ready_to_play(page, "add_or_multiply")
        child.tab_into_the_table()
        assert group_of("add_or_multiply", child.focused()) == "first", child.focused()
        first = child.focused()
        value = int(first.rsplit("-", 1)[1])
        before = len(my_moves(server, match_id))
        child.press("Enter")  # the focused number for the first
        second = next(c["key"] for c in page.evaluate(CONTROLS) if c["key"].startswith("give-2-"))
        child.choose(second)
        operation = next(c["key"] for c in page.evaluate(CONTROLS) if c["key"].startswith("op-"))
        child.choose(operation)
        assert child.focused() == "choose", "the complete choice did not take the focus"
        child.press("Enter")
        applied = record_applied(server, match_id, before)
        assert applied == {
            "type": "choose",
            "give": {"1": value, "2": int(second.rsplit("-", 1)[1])},
            "op": operation[3:],
        }, applied
        keys = child.move_done()
        count = counted(keys)
        print("Add or Multiply? by Tab, arrows and Enter:", count)
        assert count["tabs"] == 2 and count["choices"] == 4, keys
        assert page.evaluate("() => window.focusOnBody") == 0
    finally:
        page.context.close()
