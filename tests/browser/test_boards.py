"""The SUM, ADD UP and Mathable Junior boards, played in headless Chromium against a real Daphne.

Each test seats a student against a bot, opens the play page as the student and makes real moves
by tapping the page: moves are chosen with the engine's hint, read from the match in the
database, then made by clicking the buttons a child would click. It checks that the match
version advances and the board follows, that a refused move shows its message, and that a move
can be made with the keyboard alone.

Daphne runs in a subprocess (``daphne_site``), so it cannot see pytest-django's in-memory test
database: the server and this module share a SQLite file of their own, which this module reaches
from one thread of its own (see ``BoardDatabase``).
"""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.db import connections
from django.db.utils import ConnectionHandler
from playwright.sync_api import expect

import engine
import engine.sum_cards
from tests.browser.conftest import add_session_cookie
from tests.factories import make_class, make_student, make_teacher, session_cookie_for

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SEAT0_FIRST = {"first_player": "seat0"}


# --- the server --------------------------------------------------------------------------------


class BoardDatabase:
    """The SQLite file the Daphne subprocess serves, reached from a thread of its own.

    Django keeps one connection per thread; once Playwright runs its event loop in the main
    thread, Django's per-thread storage there follows the running loop's context instead. A plain
    worker thread keeps the connection to this file stable and leaves the main thread's
    connection (the suite's test database) alone."""

    def __init__(self, path: Path):
        self.path = path
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="board-db")
        self.run(self._connect)

    def _connect(self):
        handler = ConnectionHandler(
            {
                "default": {
                    "ENGINE": "django.db.backends.sqlite3",
                    "NAME": str(self.path),
                    "OPTIONS": {"timeout": 20},
                }
            }
        )
        connections["default"] = handler["default"]

    def run(self, function, *args, **kwargs):
        return self.worker.submit(function, *args, **kwargs).result()

    def close(self):
        self.run(lambda: connections["default"].close())
        self.worker.shutdown()


@dataclass
class Server:
    url: str
    database: BoardDatabase


@pytest.fixture(scope="module")
def server(daphne_site, django_db_blocker):
    with daphne_site("boards") as site, django_db_blocker.unblock():
        database = BoardDatabase(site.database)
        try:
            yield Server(url=site.url, database=database)
        finally:
            database.close()


# --- a match and its page ------------------------------------------------------------------------


def stored_match(match_id: int) -> tuple[int, dict]:
    from games.models import Match

    return Match.objects.values_list("version", "state").get(pk=match_id)


# Whether the focus is on the control `key` or on another item of its group of choices.
IN_THE_GROUP_OF = """(key) => {
  const active = document.activeElement;
  const target = document.querySelector(`#play-board [data-key="${key}"]`);
  if (!active || !target) return false;
  if (active === target) return true;
  const group = target.closest("[data-roving]");
  return Boolean(group) && active.closest("[data-roving]") === group;
}"""
# Whether the control `key` comes after the focus in the page's order.
COMES_LATER = """(key) => {
  const target = document.querySelector(`#play-board [data-key="${key}"]`);
  const after = document.activeElement.compareDocumentPosition(target);
  return Boolean(after & Node.DOCUMENT_POSITION_FOLLOWING);
}"""


@dataclass
class Table:
    match_id: int
    game: engine.Game
    page: object
    database: BoardDatabase

    def state(self):
        version, state = self.database.run(stored_match, self.match_id)
        return version, self.game.load(state)

    def hint(self):
        _, state = self.state()
        return self.game.hint(state, 0)

    def page_version(self) -> int:
        return self.page.evaluate("globalThis.playShell ? globalThis.playShell.shell.version : -1")

    def wait_for_version_above(self, version: int):
        """The page shows a newer version than ``version``, which the database holds too."""
        self.page.wait_for_function(
            "v => globalThis.playShell && globalThis.playShell.shell.version > v", arg=version
        )
        shown = self.page_version()
        stored, _ = self.state()
        assert stored >= shown > version
        return shown

    def wait_for_my_turn(self, timeout: float = 20.0):
        deadline = time.monotonic() + timeout
        while True:
            _, state = self.state()
            if 0 in self.game.active(state):
                expect(self.page.locator("#play-turn")).to_have_class("play-turn is-my-turn")
                return state
            assert self.game.outcome(state) is None, "the game ended before the student's turn"
            assert time.monotonic() < deadline, "the bot did not play"
            time.sleep(0.1)

    def key(self, key: str):
        return self.page.locator(f'#play-board [data-key="{key}"]')

    def tab_to(self, key: str, limit: int = 80):
        """Press Tab until the focus is in the group of the control with data-key ``key`` (a
        group of choices, a hand or a row of buttons, is one Tab stop), then the arrows to it."""
        for _ in range(limit):
            self.page.keyboard.press("Tab")
            if self.page.evaluate(IN_THE_GROUP_OF, key):
                break
        else:
            pytest.fail(f"Tab never reached {key}")
        for _ in range(limit):
            if self.page.evaluate("document.activeElement?.dataset?.key") == key:
                return
            self.page.keyboard.press(
                "ArrowRight" if self.page.evaluate(COMES_LATER, key) else "ArrowLeft"
            )
        pytest.fail(f"the arrows never reached {key}")

    def error(self):
        return self.page.locator("#play-errors")


def seed_where(game: engine.Game, variant: str, wanted, tries: int = 3000) -> int:
    """A seed whose opening (student first) suits the test; the engine is pure, so it is quick."""
    for seed in range(tries):
        state = game.new(variant=variant, players=2, seed=seed, options=SEAT0_FIRST)
        if wanted(state):
            return seed
    raise AssertionError("no seed gives that opening")


def seat_student_against_a_bot(slug: str, variant: str, seed: int) -> tuple[int, str]:
    """A new student at a new match, seat 0, against an easy bot: the match id and the student's
    session cookie."""
    from games.services import SeatSpec, match_create

    teacher = make_teacher()
    student = make_student(make_class(teacher), name="Ana")
    match = match_create(
        game=slug,
        variant=variant,
        seats=[SeatSpec(name="Ana", user=student), SeatSpec(name="Robo", bot_level="easy")],
        options=SEAT0_FIRST,
        seed=seed,
        created_by=teacher,
    )
    return match.pk, session_cookie_for(student)


def creator_cookie(match_id: int) -> str:
    from games.models import Match

    return session_cookie_for(Match.objects.get(pk=match_id).created_by)


@pytest.fixture
def open_table(server, page):
    def open_table(slug: str, variant: str, seed: int) -> Table:
        match_id, cookie = server.database.run(seat_student_against_a_bot, slug, variant, seed)
        add_session_cookie(page.context, server.url, cookie)
        page.goto(f"{server.url}/play/{match_id}/")
        page.locator("#play-board .board").wait_for()
        table = Table(match_id, engine.get_game(slug), page, server.database)
        expect(page.locator("#play-turn")).to_have_class("play-turn is-my-turn")
        assert table.page_version() == 0
        return table

    return open_table


# --- SUM -----------------------------------------------------------------------------------------


def test_sum_board_draws_and_makes_the_hinted_equation_by_tapping(open_table):
    game = engine.get_game("sum")
    seed = seed_where(game, "standard", lambda s: game.hint(s, 0) is not None)
    table = open_table("sum", "standard", seed)
    page = table.page
    version, state = table.state()
    centre = state.data["centre"]
    expect(page.locator("[data-centre]")).to_have_text(str(engine.sum_cards.FACE[centre]))

    # A refused move: one operation card alone is no equation; the page says so, nothing moves.
    operation = next(c for c in state.data["hands"][0] if engine.sum_cards.KIND[c] == "operation")
    table.key(f"hand-{operation}").click()
    expect(table.key(f"hand-{operation}")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Check my equation").click()
    expect(table.error()).to_contain_text("Those cards do not make an equation")
    assert table.state()[0] == version
    page.get_by_role("button", name="Clear").click()
    expect(table.key(f"hand-{operation}")).to_have_attribute("aria-pressed", "false")

    # Keyboard alone: Tab to "Draw a number card", Enter.
    page.locator("body").focus()
    table.tab_to("draw-numbers")
    page.keyboard.press("Enter")
    version = table.wait_for_version_above(version)
    expect(page.locator(".sum-hand-cards > li")).to_have_count(8)
    expect(page.get_by_text("Draws left this turn: 1.")).to_be_visible()

    # Tapping: draw an operation card, then the hinted equation card by card.
    page.get_by_role("button", name="Draw an operation card").click()
    version = table.wait_for_version_above(version)
    expect(page.locator(".sum-hand-cards > li")).to_have_count(9)
    move = table.hint()
    assert move is not None and move["type"] == "equation"
    for card in move["cards"]:
        table.key(f"hand-{card}").click()
    expect(page.locator(".sum-equation-cards > li")).to_have_count(len(move["cards"]))
    page.get_by_role("button", name="Check my equation").click()
    table.wait_for_version_above(version)
    _, after = table.state()
    kept = sum(engine.sum_cards.KIND[c] == "number" for c in move["cards"])
    assert len(after.data["piles"][0]) == kept
    assert after.data["centre"] != centre
    expect(page.locator(".sum-hand-cards > li")).to_have_count(9 - len(move["cards"]))
    expect(page.locator("#play-log")).to_contain_text("Ana made")
    for card in move["cards"]:
        expect(table.key(f"hand-{card}")).to_have_count(0)


# --- ADD UP --------------------------------------------------------------------------------------


YELLOW_JOKERS = range(42, 48)  # card ids (docs/rules/add_up.md)


def add_up_tap(table: Table, move: dict):
    """Make an ADD UP move as a child does: the card, a joker's value, then the row."""
    table.key(f"hand-{move['card']}").click()
    expect(table.key(f"hand-{move['card']}")).to_have_attribute("aria-pressed", "true")
    if move["card"] in YELLOW_JOKERS:
        table.key("joker-value-input").fill(str(move["value"]))
    elif "value" in move:
        table.key(f"joker-value-{move['value']}").click()
    table.key(f"row-{move['row']}").click()


def test_add_up_board_balances_the_rows_by_tapping(open_table):
    game = engine.get_game("add_up")

    def opening(state):
        move = game.hint(state, 0)
        hand = state.data["hands"][0]
        return move is not None and "value" not in move and any(c in YELLOW_JOKERS for c in hand)

    table = open_table("add_up", "standard", seed_where(game, "standard", opening))
    page = table.page
    version, state = table.state()
    joker = next(c for c in state.data["hands"][0] if c in YELLOW_JOKERS)

    # A refused move: a yellow joker worth 5 (yellow jokers are worth 10 to 99).
    add_up_tap(table, {"type": "play", "card": joker, "row": "top", "value": 5})
    expect(page.get_by_label("How much is your yellow joker worth? (10 to 99)")).to_have_value("5")
    expect(table.error()).to_contain_text("a yellow joker 10 to 99")
    assert table.state()[0] == version

    # Tapping the hinted card onto the hinted row balances the rows: a capture, and (the default
    # option) the same player plays again.
    add_up_tap(table, table.hint())
    version = table.wait_for_version_above(version)
    _, state = table.state()
    assert len(state.data["captured"][0]) == 3
    expect(page.locator("#play-log")).to_contain_text("Equal rows! Ana takes 3 cards.")
    expect(page.locator("#play-scores tr.is-me td")).to_have_text("3")
    # What a screen reader reads for each row's player: the name, then its tags, apart.
    expect(page.locator("#play-scores tbody th")).to_have_text(["Ana you", "Robo bot"])
    for row in ("top", "bottom"):
        cards = state.data[row]
        expect(page.locator(f'[data-row="{row}"] > li')).to_have_count(len(cards))
        expect(page.locator(f".addup-row-{row} [data-sum]")).to_have_attribute(
            "data-sum", str(sum(value for _, value in cards))
        )
    assert 0 in game.active(state)

    # A second tap-made move: the hint again, or else the first number card on the top row.
    move = table.hint() or next(
        {"type": "play", "card": c, "row": "top"} for c in state.data["hands"][0] if c < 36
    )
    add_up_tap(table, move)
    version = table.wait_for_version_above(version)
    expect(table.key(f"hand-{move['card']}")).to_have_count(0)

    # Keyboard alone, on the student's next turn: Tab to a number card, Enter, Tab to a row, Enter.
    state = table.wait_for_my_turn()
    version = table.page_version()
    number = next(c for c in state.data["hands"][0] if c < 36)
    page.locator("body").focus()
    table.tab_to(f"hand-{number}")
    page.keyboard.press("Enter")
    expect(table.key(f"hand-{number}")).to_have_attribute("aria-pressed", "true")
    table.tab_to("row-bottom")
    page.keyboard.press("Enter")
    table.wait_for_version_above(version)
    expect(table.key(f"hand-{number}")).to_have_count(0)


# --- Mathable Junior -----------------------------------------------------------------------------


def arrow_to(table: Table, row: int, col: int):
    """Move the focus across the board with the arrow keys to the square (row, col)."""
    page = table.page
    at = page.evaluate("[+document.activeElement.dataset.row, +document.activeElement.dataset.col]")
    for _ in range(abs(row - at[0])):
        page.keyboard.press("ArrowDown" if row > at[0] else "ArrowUp")
    for _ in range(abs(col - at[1])):
        page.keyboard.press("ArrowRight" if col > at[1] else "ArrowLeft")
    expect(table.key(f"square-{row}-{col}")).to_be_focused()


def rack_index(table: Table, tile: int) -> int:
    return table.page.evaluate(
        "tile => [...document.querySelectorAll('.mj-rack [data-tile]')]"
        ".findIndex(b => b.dataset.tile === String(tile))",
        tile,
    )


def test_mathable_junior_front_places_hinted_tiles_by_tapping_and_by_keyboard(open_table):
    game = engine.get_game("mathable_junior")

    def two_right_placements(state):
        first = game.hint(state, 0)
        return first is not None and game.hint(game.apply(state, 0, first, 0).state, 0) is not None

    table = open_table("mathable_junior", "front", seed_where(game, "front", two_right_placements))
    page = table.page
    version, _ = table.state()

    # Tapping: the hinted tile from the rack, then its square.
    move = table.hint()
    rack_tile = table.key(f"rack-{rack_index(table, move['tile'])}")
    rack_tile.click()
    expect(rack_tile).to_have_attribute("aria-pressed", "true")
    square = table.key(f"square-{move['row']}-{move['col']}")
    expect(square).to_have_attribute(
        "aria-label", re.compile(f"^row {move['row'] + 1}, column {move['col'] + 1}, empty")
    )
    square.click()
    version = table.wait_for_version_above(version)
    expect(square).to_have_text(str(move["tile"]))
    expect(square).to_have_attribute(
        "aria-label", f"row {move['row'] + 1}, column {move['col'] + 1}, tile {move['tile']}"
    )
    _, state = table.state()
    assert state.data["board"][move["row"] * 10 + move["col"]] == move["tile"]
    assert state.data["scores"][0] > 0
    expect(page.locator("#play-scores tr.is-me td")).to_have_text(str(state.data["scores"][0]))
    expect(page.locator("#play-log")).to_contain_text(f"Ana placed {move['tile']}")

    # A refused move: a tile onto the square just filled.
    table.key("rack-0").click()
    square.click()
    expect(table.error()).to_contain_text("That square already has a tile.")
    assert table.state()[0] == version
    table.key("rack-0").click()  # put the tile back down
    expect(table.key("rack-0")).to_have_attribute("aria-pressed", "false")

    # Keyboard alone: Tab to the rack, arrows to the tile, Enter; Tab on into the board (the rack
    # and the board are one Tab stop each, the rack first: a tile, then its square, as the page
    # says), arrows to the square, Enter.
    move = table.hint()
    index = rack_index(table, move["tile"])
    page.evaluate("document.activeElement.blur()")
    table.tab_to(f"rack-{index}")
    page.keyboard.press("Enter")
    expect(table.key(f"rack-{index}")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Tab")
    expect(page.locator("[role=grid] button:focus")).to_have_count(1)
    arrow_to(table, move["row"], move["col"])
    page.keyboard.press("Enter")
    table.wait_for_version_above(version)
    expect(table.key(f"square-{move['row']}-{move['col']}")).to_have_text(str(move["tile"]))
    _, state = table.state()
    assert state.data["board"][move["row"] * 10 + move["col"]] == move["tile"]


def test_mathable_junior_back_shows_the_squares_of_a_tile_and_refuses_another_number(
    open_table, browser, server
):
    game = engine.get_game("mathable_junior")
    table = open_table("mathable_junior", "back", seed_where(game, "back", lambda _: True))
    page = table.page
    version, state = table.state()
    move = table.hint()
    grid = game.view(state, 0)["numbers"]  # the numbers printed on the back side

    # Choosing a tile marks the empty squares printed with its number, and only those.
    rack_tile = table.key(f"rack-{rack_index(table, move['tile'])}")
    rack_tile.click()
    printed = {(r, c) for r in range(10) for c in range(10) if grid[r][c] == move["tile"]}
    marked = page.locator(".mj-square.is-match")
    expect(marked).to_have_count(len(printed))
    assert {
        (int(b.get_attribute("data-row")), int(b.get_attribute("data-col"))) for b in marked.all()
    } == printed

    # A refused move: a square printed with another number.
    other = next((r, c) for r in range(10) for c in range(10) if grid[r][c] != move["tile"])
    table.key(f"square-{other[0]}-{other[1]}").click()
    expect(table.error()).to_contain_text("Put each tile on a square printed with its own number.")
    assert table.state()[0] == version

    # Tapping the hinted square places the tile; the rack shrinks.
    table.key(f"square-{move['row']}-{move['col']}").click()
    table.wait_for_version_above(version)
    expect(table.key(f"square-{move['row']}-{move['col']}")).to_have_text(str(move["tile"]))
    expect(page.locator(".mj-rack [data-tile]")).to_have_count(2)

    # The teacher's projector view: the same board, every rack (face up on this side), no controls.
    teacher_cookie = server.database.run(creator_cookie, table.match_id)
    watcher = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en")
    add_session_cookie(watcher, server.url, teacher_cookie)
    projector = watcher.new_page()
    projector.goto(f"{server.url}/play/{table.match_id}/watch/")
    projector.locator("#play-board .board").wait_for()
    expect(projector.locator(f'[data-key="square-{move["row"]}-{move["col"]}"]')).to_have_text(
        str(move["tile"])
    )
    expect(projector.locator(".mj-players li")).to_have_count(2)
    expect(projector.locator(".mj-rack, .mj-actions")).to_have_count(0)
    watcher.close()
