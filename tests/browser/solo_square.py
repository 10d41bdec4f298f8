"""A child playing ¡Mía!'s solo square on the play page, move by move, as the solver would."""

from __future__ import annotations

import json

from playwright.sync_api import expect

import engine

MIA = engine.get_game("mia")


def stored_match(server, match_id: int):
    """(version, state, status) of the match as the site's database holds it."""
    [(version, state, status)] = server.rows(
        "select version, state, status from games_match where id = ?", match_id
    )
    return version, MIA.load(json.loads(state)), status


def play_the_solvers_move(page, server, match_id: int) -> dict:
    """Tap the solver's next move as a child would: the card of the square, the sum or difference,
    two number cards, then Solve (or the two cards and Swap when stuck)."""
    version, state, _status = stored_match(server, match_id)
    move = MIA.hint(state, 0)
    board = page.locator("#play-board")
    if move["type"] == "solve":
        board.locator(f'[data-key="cell-{move["row"]}-{move["col"]}"]').click()
        board.locator(f'[data-key="cell-option-{move["option"]}"]').click()
    for card in move["cards"]:
        board.locator(f'[data-key="card-{card}"]').click()
    board.locator(f'[data-key="{move["type"]}"]').click()
    expect(board).to_have_attribute("aria-busy", "false")
    page.wait_for_function(
        "v => globalThis.playShell && globalThis.playShell.shell.version > v",
        arg=version,
        timeout=10_000,
    )
    assert stored_match(server, match_id)[0] == version + 1
    return move
