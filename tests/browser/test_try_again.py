"""The pages in an outage of the server's database or Redis (docs/live-play.md, "Outages"): a move
answered ``try_again`` is sent again by itself, and only then is the child told, in their
language; a socket closed with 4503 right after it opened is retried ever more slowly.

The site runs in a real Daphne (``daphne_site``); the outage is played by Playwright between the
page and the server (``route_web_socket``), which answers for the server or closes the socket."""

from __future__ import annotations

import itertools
import json
import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import add_session_cookie
from tests.games.test_two_daphnes import a_move

pytestmark = pytest.mark.browser

CLOSE_TRY_AGAIN = 4503
RESENDS = 2  # static/js/play/moves.js, RESEND_AFTER_MS

SETUP = """
import json
from tests.factories import make_class, make_match, make_student, session_cookie_for

classroom = make_class()
ana, ben = make_student(classroom, "Ana"), make_student(classroom, "Ben", secret="1111")
match = make_match(
    game="add_up", variant="no_jokers", players=[ana, ben], options={"first_player": "seat0"}
)
print(json.dumps({"ana": session_cookie_for(ana), "match": match.pk}))
"""


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("try_again", setup=SETUP) as site:
        yield site


def page_between(browser, server, path: str, route, *, locale="en"):
    """Ana's page at ``path``, its sockets routed through ``route`` (a WebSocketRoute handler)."""
    context = browser.new_context(viewport={"width": 1024, "height": 900}, locale=locale)
    add_session_cookie(context, server.url, server.made["ana"])
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.route_web_socket(re.compile(r"/ws/"), route)
    page.goto(server.url + path)
    return page


def refusing_moves(refusals: int, moves_sent: list):
    """A route that answers the first ``refusals`` moves try_again, as a server whose database
    is out, and passes everything else through."""

    def route(ws):
        to_server = ws.connect_to_server()

        def from_page(text):
            message = json.loads(text)
            if message.get("type") == "move":
                moves_sent.append(message)
                if len(moves_sent) <= refusals:
                    answer = {
                        "type": "error",
                        "code": "try_again",
                        "client_id": message["client_id"],
                        "message": "the server is busy or restarting; try again in a moment",
                    }
                    ws.send(json.dumps(answer))
                    return
            to_server.send(text)

        ws.on_message(from_page)

    return route


def play_a_move(page) -> dict:
    expect(page.locator("#play-status")).to_have_text("")  # connected
    page.wait_for_function("playShell.shell.view !== null")
    move = a_move(page.evaluate("playShell.shell.view"))
    return page.evaluate("(move) => playShell.ctx.send(move)", move)


def test_a_move_answered_try_again_is_sent_again_by_itself_and_applied_once(browser, server):
    moves_sent = []
    page = page_between(
        browser, server, f"/play/{server.made['match']}/", refusing_moves(RESENDS, moves_sent)
    )
    try:
        before = server.rows("select version from games_match where id = ?", server.made["match"])[
            0
        ][0]
        answer = play_a_move(page)
        assert answer == {"ok": True}, answer
        assert len(moves_sent) == RESENDS + 1
        assert len({message["client_id"] for message in moves_sent}) == 1  # the same move
        expect(page.locator("#play-errors")).to_have_text("")
        [(version,)] = server.rows(
            "select version from games_match where id = ?", server.made["match"]
        )
        assert version == before + 1
        client_id = moves_sent[0]["client_id"]
        assert server.rows(
            "select count(*) from games_moverecord where client_id = ?", client_id
        ) == [(1,)]
    finally:
        page.context.close()


def test_a_move_still_refused_after_its_resends_tells_the_child_in_their_language(browser, server):
    moves_sent = []
    page = page_between(
        browser,
        server,
        f"/play/{server.made['match']}/",
        refusing_moves(RESENDS + 10, moves_sent),
        locale="es",
    )
    try:
        answer = play_a_move(page)
        assert answer["ok"] is False and answer["code"] == "try_again", answer
        assert len(moves_sent) == RESENDS + 1
        expect(page.locator("#play-errors")).to_have_text(
            "El juego está ocupado un momento. Inténtalo otra vez dentro de un ratito."
        )
    finally:
        page.context.close()


def test_a_socket_closed_4503_at_once_is_retried_ever_more_slowly(browser, server):
    """The backoff started again at its shortest wait on every open: a server that accepted and
    closed with 4503 at once was retried every half second by every page."""
    opened = []  # (when, route)

    def accepting(ws):  # not connected to the server: the page's socket opens on this route
        opened.append((time.monotonic(), ws))

    page = page_between(browser, server, "/me/", accepting)
    try:
        closed = 0
        deadline = time.monotonic() + 4.5  # 0.5 + 1 + 2 s of waits fit, not the next 4 s
        while time.monotonic() < deadline:
            page.wait_for_timeout(20)
            for _when, ws in opened[closed:]:
                ws.close(code=CLOSE_TRY_AGAIN, reason="try again")  # as Daphne's 4503
            closed = len(opened)
        waits = [later - earlier for (earlier, _), (later, _) in itertools.pairwise(opened)]
        assert 3 <= len(opened) <= 4, waits
        assert max(waits) >= 1.8, waits  # the third wait, 2 s, was reached
    finally:
        page.context.close()
