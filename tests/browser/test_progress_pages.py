"""The progress pages of the demo class (with its history of answers) on a phone, in a real
browser: nothing makes the page wider than the screen (a wide table or grid scrolls on its own),
and the fact grids read as tables."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import expect

from classroom.demo import DEMO_TEACHER_EMAIL, DEMO_TEACHER_PASSWORD, seed_demo
from classroom.models import Classroom

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _seeded() -> int:
    from django.db import connection

    try:
        return seed_demo().pk
    finally:
        connection.close()


@pytest.fixture
def demo(live_server):
    # The demo's history plays real games, whose news goes through async_to_sync: not in this
    # thread, where Playwright's sync API keeps an event loop running.
    with ThreadPoolExecutor(1) as pool:
        classroom_id = pool.submit(_seeded).result(timeout=120)
    return live_server.url, classroom_id


def test_the_progress_pages_fit_a_phone(browser, demo):
    url, classroom_id = demo
    classroom = Classroom.objects.get(pk=classroom_id)
    student = classroom.enrollments.order_by("student__display_name").first().student
    context = browser.new_context(viewport=PHONE, locale="en")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(url + "/accounts/login/")
        page.get_by_label("E-mail").fill(DEMO_TEACHER_EMAIL)
        page.get_by_label("Password").fill(DEMO_TEACHER_PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        base = f"/teacher/classes/{classroom.pk}"
        for path in (
            f"{base}/progress/",
            f"{base}/progress/facts/",
            f"{base}/progress/activity/",
            f"{base}/progress/{student.pk}/",
            f"{base}/",
            f"{base}/sessions/",
            "/teacher/reports/",
        ):
            page.goto(url + path)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], (path, width)
        page.goto(url + f"{base}/progress/{student.pk}/")
        grid = page.get_by_role("table", name="Addition facts, 0 + 0 to 10 + 10")
        expect(grid).to_be_visible()
        expect(grid.get_by_role("columnheader", name="10", exact=True)).to_have_count(1)
        expect(
            page.get_by_role("table", name="Multiplication facts, 1 × 1 to 10 × 10")
        ).to_be_visible()
    finally:
        context.close()
