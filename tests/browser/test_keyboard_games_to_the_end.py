"""A keyboard-only child plays each of the five games against bots to the end (issue 22, "Done
when"): after the page has loaded, nothing but key presses; the first move starts with Tab
presses from the top of the page into the game table, every move after it takes at most four
keys, the focus never drops to the page, and the server applies what the keys said.

The child's moves are worked out from what the table shows (¡Mía!, ADD UP) or from the match's
stored state, read with the engine (SUM's fewest-cards equation, Mathable Junior's right
placements, Add or Multiply?'s round score): the test is about the keys, not the strategy. A move
the keys cannot make in four (a card beyond the tenth, a square too far) is not made: the child
passes, draws or ends the turn instead, as a keyboard child would.
"""

from __future__ import annotations

import itertools
import json
import time
from collections import Counter

import pytest
from playwright.sync_api import expect

import engine
from engine import mathable_junior_board as mj_board
from engine import mathable_junior_bots as mj_bots
from engine import sum_cards as sum_rules
from tests.browser.conftest import add_session_cookie
from tests.browser.test_keyboard_play import FOCUS, READ_TABLE, TAB_ORDER, WATCH_THE_FOCUS
from tests.browser.test_live_play import right_claim

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

MOST_KEYS_PER_MOVE = 4

SETUP = """
import itertools
import json
from tests.factories import make_class, make_match, make_student, make_teacher, session_cookie_for

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher)
ana = make_student(classroom, "Ana", secret="1111")
matches = {
    "mia": make_match(
        game="mia", variant="express", players=[ana], bots=["random"], teacher=teacher, seed=5,
        options={"pass_timeout_seconds": 5, "extra_time_seconds": 1},
    ),
    "add_up": make_match(
        game="add_up", variant="no_jokers", players=[ana], bots=["easy"], teacher=teacher, seed=7,
    ),
    "sum": make_match(
        game="sum", variant="standard", players=[ana], bots=["easy"], teacher=teacher, seed=6,
    ),
    "mathable_junior": make_match(
        game="mathable_junior", variant="front", players=[ana], bots=["easy"], teacher=teacher,
        seed=4,
    ),
    "add_or_multiply": make_match(
        game="add_or_multiply", variant="standard", players=[ana], bots=["easy", "easy"],
        teacher=teacher, seed=7,
    ),
    "add_or_multiply_to_ten": make_match(
        game="add_or_multiply", variant="to_ten", players=[ana], bots=["easy", "easy"],
        teacher=teacher, seed=7,
    ),
}


def near_the_end(match, child_moves_left):
    # Plays the match on with easy bots in every seat (the engine, as the server would) and
    # keeps the state at the child's turn `child_moves_left` of seat 0's moves before the end:
    # the child plays the last part of a whole game, not an hour of it.
    import random

    import engine
    from engine import bots
    from games.services import now_ms
    from games.services.bots import _plan

    rules = engine.get_game(match.game)
    state = rules.load(match.state)
    rng = random.Random(match.seed)
    at = now_ms()
    states = [state]
    while rules.outcome(state) is None:
        seat = min(rules.active(state))
        state = rules.apply(state, seat, bots.choose(rules, state, seat, "easy", rng), at).state
        states.append(state)
    turns = [s for s in states if rules.outcome(s) is None and rules.active(s) == {0}]
    chosen = turns[-child_moves_left]
    match.state = rules.dump(chosen)
    match.version = chosen.version
    _plan(match, rules, chosen, {1: "easy"}, at, acted=None)
    match.save()


near_the_end(matches["sum"], 8)
near_the_end(matches["mathable_junior"], 12)
print(json.dumps({"ana": session_cookie_for(ana),
                  "matches": {game: match.pk for game, match in matches.items()}}))
"""

# How long each game may take here; every game must reach its end in that time. SUM from eight
# of the child's turns before the bots' end takes the child about 90 keyed moves (drawing and
# ending turns, the equations when they come), 24 s on a quiet machine: 120 s leaves room for a
# loaded one.
BUDGET_SECONDS = {
    "mia": 45,
    "add_up": 30,
    "sum": 120,
    "mathable_junior": 30,
    "add_or_multiply": 30,
    "add_or_multiply_to_ten": 30,
}


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("keyboard-games", setup=SETUP) as site:
        yield site


def my_moves(server, match_id: int) -> list[dict]:
    rows = server.rows(
        "select move from games_moverecord where match_id = ? and actor = 'player'"
        " order by version",
        match_id,
    )
    return [json.loads(move) for (move,) in rows]


def stored_state(server, game: str, match_id: int):
    ((state, status),) = server.rows("select state, status from games_match where id = ?", match_id)
    return engine.get_game(game).load(json.loads(state)), status


OVER = """() => !document.getElementById("play-result").hidden"""
BUSY = """() => document.getElementById("play-board").getAttribute("aria-busy") === "true" """
MY_TURN = """() => document.getElementById("play-turn").textContent === "Your turn!" """


class Child:
    """Presses keys and counts them per move; only moves the server applied are counted."""

    def __init__(self, page, server, match_id):
        self.page, self.server, self.match_id = page, server, match_id
        self.keys: list[str] = []
        self.moves: list[tuple[list[str], dict]] = []  # (keys, the move applied)
        self.first_done = False

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.keys.append(key)

    def tab_into_the_table(self) -> None:
        for _ in range(15):
            if self.page.evaluate(FOCUS)["inTable"]:
                return
            self.press("Tab")
        pytest.fail("Tab never reached the game table")

    def wait_applied(self, before: int, moved_on=lambda: False) -> dict | None:
        """The move the server recorded after `before` moves, or None when the table moved on
        under the keys (then nothing was sent, or it was refused: not a move)."""
        for _ in range(60):
            moves = my_moves(self.server, self.match_id)
            if len(moves) > before:
                return moves[before]
            if moved_on():
                return None
            self.page.wait_for_timeout(50)
        return None

    def record(self, applied: dict | None) -> None:
        if applied is None:
            return
        if self.first_done:
            self.moves.append((list(self.keys), applied))
        self.first_done = True
        self.keys = []

    def check_focus(self) -> None:
        expect(self.page.locator("#play-board")).to_have_attribute("aria-busy", "false")
        focus = self.page.evaluate(FOCUS)
        over = self.page.evaluate(OVER)
        assert not focus["body"] or over, focus
        assert focus["inTable"] or over, focus

    def report(self) -> None:
        too_many = [(keys, move) for keys, move in self.moves if len(keys) > MOST_KEYS_PER_MOVE]
        assert too_many == [], too_many
        assert self.page.evaluate("() => window.focusOnBody") == 0


def open_play(browser, server, game: str):
    match_id = server.made["matches"][game]
    context = browser.new_context(viewport={"width": 1024, "height": 900}, locale="en")
    add_session_cookie(context, server.url, server.made["ana"])
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{server.url}/play/{match_id}/")
    expect(page.locator("#play-status")).to_have_text("")  # connected
    expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")
    page.evaluate(WATCH_THE_FOCUS)
    expect(page.locator("#play-keys")).to_contain_text("Keys, while the focus is on the game table")
    return page, Child(page, server, match_id)


# A table named by more than its game: its game's slug.
SLUGS = {"add_or_multiply_to_ten": "add_or_multiply"}


def the_end(page, server, game, match_id, started, child):
    """The game ended: the result is shown, the match is finished and the focus is on the
    result's heading, so the keyboard goes on from there."""
    over = page.evaluate(OVER)
    assert over, f"{game} did not end in {BUDGET_SECONDS[game]} s ({len(child.moves)} moves)"
    _, status = stored_state(server, SLUGS.get(game, game), match_id)
    assert status == "finished"
    assert page.evaluate("() => document.activeElement.tagName") == "H2"
    seconds = time.monotonic() - started
    kinds = Counter(move.get("type") for _, move in child.moves)
    print(f"{game}: {len(child.moves) + 1} moves in {seconds:.0f} s: {dict(kinds)}")


# --- ¡Mía! -------------------------------------------------------------------------------------


def play_mia(page, child, server, match_id, deadline):
    while time.monotonic() < deadline:
        seen = page.evaluate(READ_TABLE)
        if seen["over"]:
            return
        if seen["busy"] or not seen["canAct"] or seen["round"] is None:
            page.wait_for_timeout(50)
            continue
        if not child.first_done and not child.keys:
            child.tab_into_the_table()
        found = right_claim(seen["hand"], seen["options"])
        if found is not None and (found[2] is not None or max(c["position"] for c in found[1]) > 9):
            found = None  # a Wild's number or a card beyond the tenth: more keys, so a pass
        before = len(my_moves(server, match_id))
        if found is None:
            child.press("p")
        else:
            option, pair, _ = found
            for card in pair:
                child.press(str((card["position"] + 1) % 10))
            child.press("a" if option["index"] == 0 else "b")  # the target claims
        applied = child.wait_applied(
            before, lambda at=seen["round"]: page.evaluate(READ_TABLE)["round"] != at
        )
        if applied is None:
            # Keys pressed on a table that moved on (a bot took the card first) leave cards
            # chosen: this try clears them by key too. A try the server never applied is not a
            # move: its keys are not a move's.
            for card in page.evaluate(READ_TABLE)["hand"]:
                if card["pressed"]:
                    child.press(str((card["position"] + 1) % 10))
            child.keys = []
        child.record(applied)
        child.check_focus()


# --- ADD UP ------------------------------------------------------------------------------------


def play_add_up(page, child, server, match_id, deadline):
    while time.monotonic() < deadline:
        if page.evaluate(OVER):
            return
        if page.evaluate(BUSY) or not page.evaluate(MY_TURN):
            page.wait_for_timeout(50)
            continue
        if not child.first_done and not child.keys:
            child.tab_into_the_table()
        state, _ = stored_state(server, "add_up", match_id)
        top = sum(value for _, value in state.data["top"])
        bottom = sum(value for _, value in state.data["bottom"])
        before = len(my_moves(server, match_id))
        child.press("1")
        child.press("b" if bottom < top else "t")
        child.record(child.wait_applied(before))
        child.check_focus()


# --- SUM ---------------------------------------------------------------------------------------


OPERATION_KEY = {"+": "+", "-": "-", "x": "x", "÷": "/"}


def short_equation(hand: list[int], target: int) -> list[int] | None:
    """A number, an operation and a number of the hand that make `target`, the numbers among the
    ten cards a digit reaches (the operation by its sign's key): digit, sign, digit and C."""
    numbers = [c for c in hand[:10] if sum_rules.KIND[c] == sum_rules.NUMBER]
    operations = {}
    for card in hand:
        if sum_rules.KIND[card] == sum_rules.OPERATION:
            operations.setdefault(sum_rules.FACE[card], card)  # the first of each sign
    operations = list(operations.values())
    for a in numbers:
        for b in numbers:
            if a == b:
                continue
            x, y = sum_rules.FACE[a], sum_rules.FACE[b]
            for op in operations:
                value = {
                    "+": x + y,
                    "-": x - y,
                    "x": x * y,
                    "÷": x // y if x % y == 0 else None,
                }[sum_rules.FACE[op]]
                if value == target:
                    return [a, op, b]
    return None


def play_sum(page, child, server, match_id, deadline):
    while time.monotonic() < deadline:
        if page.evaluate(OVER):
            return
        if page.evaluate(BUSY) or not page.evaluate(MY_TURN):
            page.wait_for_timeout(50)
            continue
        if not child.first_done and not child.keys:
            child.tab_into_the_table()
        state, _ = stored_state(server, "sum", match_id)
        data = state.data
        hand_on_page = [
            int(card)
            for card in page.locator("#play-board .sum-hand [data-card]").evaluate_all(
                "(cards) => cards.map((c) => c.dataset.card)"
            )
        ]
        cards = None
        if data["wrong"] < state.options["wrong_limit"] and data["rotation"] is None:
            cards = short_equation(hand_on_page, sum_rules.FACE[data["centre"]])
        before = len(my_moves(server, match_id))
        if cards:
            a, op, b = cards
            child.press(str((hand_on_page.index(a) + 1) % 10))
            child.press(OPERATION_KEY[sum_rules.FACE[op]])
            child.press(str((hand_on_page.index(b) + 1) % 10))
            child.press("c")
        elif data["drawn"] < sum_rules.DRAWS_PER_TURN and (data["numbers"] or data["operations"]):
            child.press("n" if data["numbers"] else "o")
        else:
            child.press("e")
        child.record(child.wait_applied(before))
        child.check_focus()


# --- Mathable Junior -----------------------------------------------------------------------------


def beside_a_line(board, square) -> bool:
    return any(board[near] and board[far] for near, far in mj_board.LINES[square])


def g_presses(board, cursor: int, square: int, backwards: bool = False) -> int:
    """How many presses of G (Shift+G backwards) take the cursor to `square`: G visits the free
    squares beside two tiles in a line, in reading order after the cursor, round the board."""
    presses = 0
    for step in range(1, mj_board.SQUARE_COUNT + 1):
        here = (cursor + (-step if backwards else step)) % mj_board.SQUARE_COUNT
        if not board[here] and beside_a_line(board, here):
            presses += 1
            if here == square:
                return presses
    return mj_board.SQUARE_COUNT


CURSOR = """() => {
  const square = document.querySelector('#play-board [role=grid] button[tabindex="0"]');
  return square ? Number(square.dataset.row) * 10 + Number(square.dataset.col) : 44;
}"""


def play_mathable(page, child, server, match_id, deadline):
    while time.monotonic() < deadline:
        if page.evaluate(OVER):
            return
        if page.evaluate(BUSY) or not page.evaluate(MY_TURN):
            page.wait_for_timeout(50)
            continue
        if not child.first_done and not child.keys:
            child.tab_into_the_table()
        state, _ = stored_state(server, "mathable_junior", match_id)
        data = state.data
        rack_on_page = [
            int(tile)
            for tile in page.locator("#play-board [data-key^=rack-]").evaluate_all(
                "(tiles) => tiles.map((t) => t.dataset.tile)"
            )
        ]
        cursor = page.evaluate(CURSOR)
        best = None
        for _, value, square in mj_bots.front_right_placements(data["board"], data["racks"][0]):
            index = rack_on_page.index(value)
            for key in ("g", "Shift+G"):
                presses = g_presses(data["board"], cursor, square, backwards=key != "g")
                if index < 10 and presses <= 2 and (best is None or presses < best[0]):
                    best = (presses, key, index, square)
        before = len(my_moves(server, match_id))
        if best is not None:
            presses, key, index, square = best
            child.press(str((index + 1) % 10))
            for _ in range(presses):
                child.press(key)
            assert page.evaluate(FOCUS)["key"] == f"square-{square // 10}-{square % 10}"
            child.press("Enter")
        elif data["draws"] and data["pot"]:
            child.press("d")  # an extra tile earned on a + or - square
        else:
            child.press("e")  # no right square within two presses of G: end the turn (or pass)
        child.record(child.wait_applied(before))
        child.check_focus()


# --- Add or Multiply? ----------------------------------------------------------------------------


def play_add_or_multiply(page, child, server, match_id, deadline, give=None):
    """``give(data)``: presses (or taps) the two numbers for the opponents; by default the
    largest for the first opponent on the page and the smallest for the other."""
    from engine import add_or_multiply as aom

    while time.monotonic() < deadline:
        if page.evaluate(OVER):
            return
        if page.evaluate(BUSY) or not page.evaluate(MY_TURN):
            page.wait_for_timeout(50)
            continue
        state, _ = stored_state(server, "add_or_multiply", match_id)
        data = state.data
        if data["phase"] == aom.CHOOSE and data["choices"][0] is not None:
            page.wait_for_timeout(50)
            continue
        if data["phase"] == aom.SCORE and data["typed"][0] is not None:
            page.wait_for_timeout(50)
            continue
        if not child.first_done and not child.keys:
            child.tab_into_the_table()
        before = len(my_moves(server, match_id))
        if data["phase"] == aom.CHOOSE:
            if give is None:
                numbers = sorted(data["numbers"][0])
                child.press(str(numbers[-1]))  # the largest for the first opponent on the page
                child.press(str(numbers[0]))  # the smallest for the other
            else:
                give(data)
            child.press("a" if aom.ADD in data["operations"][0] else "m")
            assert page.evaluate(FOCUS)["key"] == "choose"
            child.press("Enter")
        else:
            last = data["history"][-1]
            a, b = last["received"][0]
            score = aom.round_score(a, b, last["ops"][0])
            # The score field has the focus: the child types the number and Enter.
            assert page.evaluate(FOCUS)["key"] == "score-input"
            for digit in str(score):
                child.press(digit)
            child.press("Enter")
        child.record(child.wait_applied(before))
        child.check_focus()


def play_add_or_multiply_to_ten(page, child, server, match_id, deadline):
    """Numbers to 10: the digit keys give 0 to 9, and the keys note says how to reach the 10
    card while the child holds it. In round 1 the child gives 10 with a tap (a child may mix the
    two), so later notes name only the digits that are still cards in the hand."""

    def give(data):
        numbers = sorted(data["numbers"][0])
        note = page.locator("#play-keys")
        if 10 in numbers:
            expect(note).to_contain_text("0–9: a number for the next player · 10: Tab")
        elif numbers[-1] > 6:
            expect(note).to_contain_text("0–9: a number for the next player · Backspace")
        else:  # the last rounds, the big numbers given away
            expect(note).to_contain_text("0–6: a number for the next player")
        if data["round"] == 1:
            first_opponent = page.locator("#play-board fieldset[data-seat]").first
            first_opponent.locator('[data-value="10"]').click()
            child.press(str(numbers[0]))
        else:
            digits = [n for n in numbers if n <= 9]
            child.press(str(digits[-1]))
            child.press(str(digits[0]))

    play_add_or_multiply(page, child, server, match_id, deadline, give=give)


# The Tab order is the order of the page's instructions: groups of controls (by their data-key's
# start) in the order the page tells the child to use them.
INSTRUCTED_ORDER = {
    "mia": ["card-", "top-option-", "pass"],
    "add_up": ["hand-", "row-"],
    "mathable_junior": ["rack-", "square-", "draw", "exchange", "end-turn"],
    "add_or_multiply": ["give-", "op-", "choose"],
    "add_or_multiply_to_ten": ["give-", "op-", "choose"],
}


def assert_tab_order_follows_the_instructions(page, game):
    if game not in INSTRUCTED_ORDER:
        return  # SUM: its hand, then its actions; covered by test_keyboard_play
    order = page.evaluate(TAB_ORDER)
    groups = [
        [i for i, key in enumerate(order) if key and key.startswith(start)]
        for start in INSTRUCTED_ORDER[game]
    ]
    present = [group for group in groups if group]
    assert present, order
    for earlier, later in itertools.pairwise(present):
        assert max(earlier) < min(later), order


PLAYERS = {
    "mia": play_mia,
    "add_up": play_add_up,
    "sum": play_sum,
    "mathable_junior": play_mathable,
    "add_or_multiply": play_add_or_multiply,
    "add_or_multiply_to_ten": play_add_or_multiply_to_ten,
}


@pytest.mark.parametrize("game", PLAYERS)
def test_a_keyboard_child_plays_to_the_end(browser, server, game):
    page, child = open_play(browser, server, game)
    match_id = server.made["matches"][game]
    started = time.monotonic()
    try:
        assert_tab_order_follows_the_instructions(page, game)
        PLAYERS[game](page, child, server, match_id, started + BUDGET_SECONDS[game])
        assert child.first_done, f"{game}: no move was applied"
        the_end(page, server, game, match_id, started, child)
        child.report()
    finally:
        page.context.close()
