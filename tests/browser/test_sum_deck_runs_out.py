"""A SUM game that ends because the number deck has run out (RULINGS 2: "when a new centre card is
needed and the number deck is empty, the largest completed pile wins") has no centre card: the
table says so, in the child's language, and never prints "null" where the number was, nor
"= null" after the equation (static/js/play/games/sum.js), for a player or the teacher watching,
on opening the page (as after a reload)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

# SUM at two seats played to its end by easy bots from seed 3: the number deck runs out.
SETUP = """
import json
from tests.factories import (
    finish_match_by_bots, make_class, make_match, make_student, make_teacher, session_cookie_for,
)

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher)
ana = make_student(classroom, "Ana")
match = make_match(game="sum", variant="standard", players=[ana], bots=["easy"], teacher=teacher,
                   seed=3)
finish_match_by_bots(match, seed=3)
match.refresh_from_db()
print(json.dumps({
    "ana": session_cookie_for(ana),
    "teacher": session_cookie_for(teacher),
    "match": match.pk,
    "centre": match.state["data"]["centre"],
    "numbers_left": len(match.state["data"]["numbers"]),
}))
"""

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("sum-deck-runs-out", setup=SETUP) as site:
        yield site


@pytest.mark.parametrize(
    ("who", "locale", "says"),
    [
        ("ana", "en", "No centre card: the number deck has run out."),
        ("ana", "es", "No hay número en el centro: el mazo de números se ha acabado."),
        ("teacher", "en", "No centre card: the number deck has run out."),
    ],
)
def test_a_game_over_with_no_number_left_has_no_centre_card(browser, server, who, locale, says):
    assert server.made["centre"] is None and server.made["numbers_left"] == 0, (
        "the set-up must end with the number deck run out"
    )
    page = signed_in_page(
        browser,
        server,
        server.made[who],
        f"/play/{server.made['match']}/",
        viewport=PHONE,
        locale=locale,
    )
    try:
        expect(page.locator("#play-result")).to_be_visible()
        board = page.locator("#play-board")
        expect(board.locator(".sum-table")).to_be_visible()
        for text in (board.inner_text(), page.locator("main").inner_text()):
            assert "null" not in text and "undefined" not in text
        expect(board.locator("[data-no-centre]")).to_have_text(says)
        expect(board.locator(".sum-card-centre")).to_have_count(0)
        expect(board.locator(".sum-equals")).to_have_count(0)
        labels = board.evaluate(
            "(b) => [...b.querySelectorAll('[aria-label]')].map((e) => e.ariaLabel).join(' ')"
        )
        assert "null" not in labels
        page.reload()
        expect(board.locator("[data-no-centre]")).to_have_text(says)
        assert "null" not in board.inner_text()
    finally:
        page.context.close()
