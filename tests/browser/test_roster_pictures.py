"""A teacher adds students one after another and gives each a picture password by tapping the
pictures, as on a classroom tablet (issue 15: it was typed as words)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

pytestmark = pytest.mark.browser

SETUP = """
import json
from tests.factories import make_class, make_teacher, session_cookie_for

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher)
print(json.dumps({"teacher": session_cookie_for(teacher), "class": classroom.pk}))
"""


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("roster_pictures", setup=SETUP) as site:
        yield site


def test_a_teacher_taps_picture_passwords_and_adds_another(browser, server):
    page = signed_in_page(
        browser,
        server,
        server.made["teacher"],
        f"/teacher/classes/{server.made['class']}/students/new/",
        viewport={"width": 768, "height": 1024},
        has_touch=True,
    )
    try:
        for name, pictures in (
            ("Ana", ["cat", "sun", "star"]),
            ("Ben", ["dog", "fish", "apple", "tree"]),
        ):
            expect(page.locator("[data-picture-picker][data-ready]")).to_have_count(1)
            page.get_by_label("Name").fill(name)
            for picture in pictures:
                page.get_by_role("button", name=picture, exact=True).tap()
            expect(page.get_by_label("Picture password or PIN")).to_have_value(" ".join(pictures))
            page.get_by_role("button", name="Add the student").click()
            expect(page.get_by_text(f"{name} is in the class.")).to_be_visible()
            stored = server.rows(
                "select secret_kind from accounts_user where display_name = ?", name
            )
            assert stored == [("picture",)]
            page.get_by_role("link", name="Add another student").click()
        assert server.rows("select count(*) from accounts_user where role = 'student'") == [(2,)]
    finally:
        page.context.close()
