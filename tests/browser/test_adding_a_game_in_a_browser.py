"""The test-only game Count to ten (tests/games/test_adding_a_game.py) played on the real play
page: the page imports its renderer by slug and loads its stylesheet, both from tests/static
(tests/settings.py), and a child plays it to the end against a bot."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

pytestmark = pytest.mark.browser

SETUP = """
import json
from tests.factories import make_class, make_match, make_student, make_teacher, session_cookie_for

classroom = make_class(make_teacher(name="Ms Rivera"))
ana = make_student(classroom, "Ana")
match = make_match(game="count_to_ten", variant="ten", players=[ana], bots=["easy"],
                   options={"first_player": "seat0"}, seed=3)
print(json.dumps({"ana": session_cookie_for(ana), "match": match.pk}))
"""


@pytest.fixture(scope="module")
def server(daphne_site):
    extra_env = {
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "TEST_GAMES": "tests.engine.count_to_ten",
    }
    with daphne_site("count_to_ten", setup=SETUP, extra_env=extra_env) as site:
        yield site


def test_a_child_plays_it_to_the_end_on_the_play_page(browser, server):
    page = signed_in_page(
        browser,
        server,
        server.made["ana"],
        f"/play/{server.made['match']}/",
        viewport={"width": 390, "height": 844},
    )
    try:
        expect(page.locator("h1")).to_contain_text("Count to ten")
        expect(page.locator(".ctt")).to_have_css("display", "grid")  # its own stylesheet
        count = page.locator(".ctt-count")
        for _turn in range(12):
            expect(page.locator("#play-turn")).to_have_text("Your turn!", timeout=10_000)
            reached = int(count.inner_text().split("The count is at ")[1].split(".")[0])
            if reached == 9:
                break
            page.get_by_role("button", name="+2").click()
            page.get_by_label("The number you reach").fill(str(reached + 2))
            page.get_by_role("button", name="Say it").click()
            expect(page.locator(".play-log")).to_contain_text(f"You said {reached + 2}.")
            expect(count).not_to_contain_text(f"at {reached}.")
        page.get_by_role("button", name="+1").click()
        page.get_by_label("The number you reach").fill("10")
        page.get_by_role("button", name="Say it").click()
        expect(page.locator(".play-result")).to_be_visible(timeout=10_000)
        expect(page.locator(".play-result")).to_contain_text("Ana")
    finally:
        page.context.close()
