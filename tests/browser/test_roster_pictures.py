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
            expect(page.get_by_role("textbox", name="The pictures")).to_have_value(
                " ".join(pictures)
            )
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


def test_choosing_a_pin_hides_the_picture_picker_and_shows_the_pin_field(browser, server):
    page = signed_in_page(
        browser,
        server,
        server.made["teacher"],
        f"/teacher/classes/{server.made['class']}/students/new/",
        viewport={"width": 390, "height": 844},
        has_touch=True,
    )
    try:
        expect(page.locator("[data-secret-fields][data-ready]")).to_have_count(1)
        picker = page.locator("[data-picture-picker]")
        pin = page.get_by_role("textbox", name="The PIN")
        # A picture password first: the picker shows, the PIN field does not.
        expect(page.get_by_role("textbox", name="The pictures")).to_be_visible()
        expect(picker).to_be_visible()
        expect(pin).to_be_hidden()
        page.get_by_role("radio", name="PIN").check()
        expect(picker).to_be_hidden()
        expect(page.get_by_role("textbox", name="The pictures")).to_be_hidden()
        expect(pin).to_be_visible()
        page.get_by_label("Name").fill("Carla")
        pin.fill("4321")
        page.get_by_role("button", name="Add the student").click()
        expect(page.get_by_text("Carla is in the class.")).to_be_visible()
        assert server.rows(
            "select secret_kind from accounts_user where display_name = ?", "Carla"
        ) == [("pin",)]
        # Back to pictures: digits typed there get a clear message, not "Unknown picture".
        page.goto(f"{server.url}/teacher/classes/{server.made['class']}/students/new/")
        page.get_by_label("Name").fill("Dan")
        page.get_by_role("textbox", name="The pictures").fill("4321")
        page.get_by_role("button", name="Add the student").click()
        expect(page.get_by_text("is digits, not pictures")).to_be_visible()
        expect(page.get_by_text("Unknown picture")).to_have_count(0)
        page.screenshot(path=shot("add-student-digits-under-pictures-phone.png"), full_page=True)
    finally:
        page.context.close()


def shot(name):
    from pathlib import Path

    folder = Path("/tmp/shots/roster")
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / name)
