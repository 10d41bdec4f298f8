"""A child's own page and the teacher's printable summary, in Chromium at phone and tablet sizes,
in English and Spanish: nothing wider than the screen, the stars and facts shown (screenshots in
/tmp/shots/roster/)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

SHOTS = Path("/tmp/shots/roster")
SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 820, "height": 1180}}

SETUP = """
import datetime, json
from django.utils import timezone
from classroom.progress.rollup import week_start
from tests.factories import (
    make_attempts, make_class, make_student, make_teacher, session_cookie_for,
)

tz = timezone.get_current_timezone()
def at(day, hour):
    return datetime.datetime.combine(day, datetime.time(hour), tzinfo=tz)
today = timezone.localdate()
monday = week_start(today)
before = [monday - datetime.timedelta(days=n) for n in (4, 3)]
teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher)
ana = make_student(classroom, "Ana")
answers = []
for day in before:
    answers += [(5, "+", 5, 10, 1200, at(day, 9)) for _ in range(3)]
    answers += [(6, "x", 7, 41, 4000, at(day, 10))]
answers += [(3, "+", 4, 7, 1500, at(before[1], 11)) for _ in range(5)]
answers += [(2, "x", 3, 6, 1500, at(before[1], 11)) for _ in range(5)]
answers += [(3, "+", 4, 7, 1400, at(today, 9)) for _ in range(3)]
answers += [(2, "x", 3, 6, 1400, at(today, 9)) for _ in range(3)]
make_attempts(ana, answers)
print(json.dumps({"ana": session_cookie_for(ana), "teacher": session_cookie_for(teacher),
                  "class": classroom.pk, "student": ana.pk}))
"""


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("own_progress", setup=SETUP) as site:
        yield site


@pytest.mark.parametrize("locale", ["en", "es"])
@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_child_page_at_phone_and_tablet_sizes(browser, server, size, locale):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = signed_in_page(
        browser, server, server.made["ana"], "/me/", viewport=SIZES[size], locale=locale
    )
    try:
        name = {"en": "My stars", "es": "Mis estrellas"}[locale]
        page.get_by_role("link", name=name).click()
        expect(page.get_by_role("heading", level=1)).to_have_text(name, timeout=10_000)
        expect(page.locator(".own-facts li")).to_have_text(["3 + 4 = 7", "2 × 3 = 6"])
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
        page.screenshot(path=str(SHOTS / f"child-page-{size}-{locale}.png"), full_page=True)
    finally:
        page.context.close()


def test_the_printable_summary(browser, server):
    SHOTS.mkdir(parents=True, exist_ok=True)
    made = server.made
    page = signed_in_page(
        browser,
        server,
        made["teacher"],
        f"/teacher/classes/{made['class']}/progress/{made['student']}/",
        viewport=SIZES["tablet"],
    )
    try:
        page.get_by_role("link", name="One-page summary to print or send home").click()
        expect(page.get_by_role("heading", level=1)).to_have_text(
            "Ana: how it is going", timeout=10_000
        )
        expect(page.get_by_role("button", name="Print or save as PDF")).to_be_visible()
        page.screenshot(path=str(SHOTS / "summary-screen-tablet.png"), full_page=True)
        page.emulate_media(media="print")
        expect(page.locator(".site-header")).to_be_hidden()
        expect(page.get_by_role("button", name="Print or save as PDF")).to_be_hidden()
        page.screenshot(path=str(SHOTS / "summary-print.png"), full_page=True)
        pdf = page.pdf(format="A4")
        (SHOTS / "summary.pdf").write_bytes(pdf)
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1  # one page
    finally:
        page.context.close()
