"""A teacher imports her classes from her district's OneRoster zip in Chromium, on a phone-sized
screen: the preview names each refused line, and "Import" imports (in a browser the form's
required zip field, empty after the preview, kept the button from submitting at all)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page
from tests.classroom.test_oneroster_import import DISTRICT_REFUSALS, district_with_mistakes

pytestmark = pytest.mark.browser

SETUP = """
import json
from tests.factories import make_teacher, session_cookie_for

teacher = make_teacher(email="marta@hill.example", name="Marta R.")
print(json.dumps({"teacher": session_cookie_for(teacher)}))
"""


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("oneroster_import", setup=SETUP) as site:
        yield site


def test_a_teacher_checks_her_districts_zip_then_imports_it(browser, server, tmp_path):
    district = tmp_path / "district.zip"
    district.write_bytes(district_with_mistakes().build())
    page = signed_in_page(
        browser,
        server,
        server.made["teacher"],
        "/teacher/oneroster/",
        viewport={"width": 390, "height": 844},
    )
    try:
        page.get_by_label("OneRoster zip").set_input_files(district)
        page.get_by_role("button", name="Check the zip").click()
        expect(page.get_by_role("heading", name="Check the import")).to_be_visible()
        refused = page.get_by_role("table", name="Refused lines")
        for refusal in DISTRICT_REFUSALS:
            expect(refused).to_contain_text(refusal.split(": ", 1)[1])
        assert server.rows("select count(*) from classroom_classroom") == [(0,)]

        page.get_by_role("button", name="Import", exact=True).click()

        expect(page.get_by_role("heading", name="Imported from OneRoster")).to_be_visible()
        expect(page.get_by_role("link", name="Open Math 3, room 2 Hill")).to_be_visible()
        assert server.rows("select name from classroom_classroom") == [("Math 3, room 2 Hill",)]
        assert server.rows("select display_name from accounts_user where role = 'student'") == [
            ("Ana López",)
        ]
    finally:
        page.context.close()
