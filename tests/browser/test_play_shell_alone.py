"""The play page's shell (static/js/play/shell.js) is a module that does nothing when imported:
the page's entry (static/js/play/main.js) starts it. Here it is imported on a page that is not a
play page, then started on play parts the test draws, with a socket the test holds: the shell
draws the table, sends a move and settles it when the state naming it comes back, and words a
refusal, with no server behind it."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

# Every WebSocket the page opens, counted before any of its own scripts runs.
COUNT_SOCKETS = """
window.__socketsOpened = 0;
const RealWebSocket = window.WebSocket;
window.WebSocket = class extends RealWebSocket {
  constructor(...args) {
    super(...args);
    window.__socketsOpened += 1;
  }
};
"""

IMPORT = """async () => {
  const before = document.body.innerHTML;
  const module = await import("/static/js/play/shell.js");
  await new Promise((resolve) => setTimeout(resolve, 300));
  return {
    exports: Object.keys(module),
    pageUnchanged: document.body.innerHTML === before,
    socketsOpened: window.__socketsOpened,
    playShell: "playShell" in globalThis,
  };
}"""

# The parts of templates/games/play.html the shell draws into.
PLAY_PARTS = """
<div class="play" data-game="count_to_ten">
  <p id="play-status"></p>
  <p id="play-turn"></p><p id="play-countdown" hidden></p><p id="play-scored" hidden></p>
  <button type="button" id="play-sound" hidden>Sound</button>
  <p id="play-paused" hidden></p>
  <div id="play-errors" role="alert"></div>
  <section id="play-result" hidden></section>
  <section id="play-board" aria-busy="true" tabindex="-1"></section>
  <p id="play-keys" hidden></p>
  <div id="play-scores"></div>
  <ol id="play-log"></ol>
  <div id="play-announcer" aria-live="polite"></div>
</div>
"""

# Started with a socket that keeps what the shell sends and lets the test answer for the server.
START = """async (parts) => {
  document.body.innerHTML = parts;
  const { startPlay } = await import("/static/js/play/shell.js");
  const socket = { sent: [], connected: false, handlers: null };
  const config = {
    game: "count_to_ten",
    seat: 0,
    seats: [{ seat: 0, name: "Ana", bot: false }, { seat: 1, name: "Robo", bot: true }],
    socket_path: "/ws/nowhere/",
    log: { version: -1, events: [] },
  };
  const handle = await startPlay(document.querySelector(".play"), {
    config,
    openSocket(path, handlers) {
      socket.path = path;
      socket.handlers = handlers;
      return Object.assign(socket, {
        connect() { socket.connected = true; },
        send(message) { socket.sent.push(message); },
      });
    },
  });
  window.testPlay = { handle, socket };
  return { started: handle !== null, path: socket.path, connected: socket.connected };
}"""

STATE = """(message) => window.testPlay.socket.handlers.onMessage(
  { type: "state", server_time: Date.now(), events: [], ...message })"""


@pytest.fixture(scope="module")
def server(daphne_site):
    # tests.settings serves the test-only game's renderer (tests/static).
    with daphne_site("play_shell", extra_env={"DJANGO_SETTINGS_MODULE": "tests.settings"}) as site:
        yield site


def test_importing_the_shell_opens_no_socket_and_draws_nothing(browser, server):
    page = signed_in_page(browser, server, None, "/", viewport={"width": 800, "height": 600})
    try:
        page.add_init_script(COUNT_SOCKETS)
        page.reload()
        assert page.evaluate(IMPORT) == {
            "exports": ["startPlay"],
            "pageUnchanged": True,
            "socketsOpened": 0,
            "playShell": False,
        }
    finally:
        page.context.close()


def test_started_with_its_own_socket_it_plays_a_move_and_words_a_refusal(browser, server):
    page = signed_in_page(browser, server, None, "/", viewport={"width": 800, "height": 600})
    try:
        assert page.evaluate(START, PLAY_PARTS) == {
            "started": True,
            "path": "/ws/nowhere/",
            "connected": True,
        }
        view = {"count": 3, "goal": 10, "turn": 0, "active": [0], "said": None}
        page.evaluate(STATE, {"version": 1, "view": view})
        expect(page.locator("#play-turn")).to_have_text("Your turn!")
        expect(page.locator(".ctt-count")).to_have_text("The count is at 3. The goal is 10.")
        expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false")

        page.evaluate(
            "() => { window.answer = null; window.testPlay.handle.ctx"
            ".send({ type: 'add', step: 1, answer: 4 }).then((a) => { window.answer = a; }); }"
        )
        (sent,) = page.evaluate("window.testPlay.socket.sent")
        assert sent["type"] == "move" and sent["move"] == {"type": "add", "step": 1, "answer": 4}
        expect(page.locator("#play-board")).to_have_attribute("aria-busy", "true")
        page.evaluate(
            STATE,
            {
                "version": 2,
                "client_id": sent["client_id"],
                "view": {**view, "count": 4, "turn": 1, "active": [1], "said": 4},
                "events": [{"type": "attempt", "seat": 0, "answer": 4, "correct": True}],
            },
        )
        page.wait_for_function("window.answer !== null", timeout=5_000)
        assert page.evaluate("window.answer") == {"ok": True}
        expect(page.locator("#play-log")).to_contain_text("You said 4.")
        expect(page.locator("#play-turn")).to_have_text("Waiting for Robo")

        page.evaluate(
            "() => window.testPlay.socket.handlers.onMessage("
            "{ type: 'error', code: 'flood', message: 'Too many messages.' })"
        )
        expect(page.locator("#play-errors")).to_have_text("Slow down a little!")
        assert page.evaluate("'playShell' in globalThis") is False
    finally:
        page.context.close()
