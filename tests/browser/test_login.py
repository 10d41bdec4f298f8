"""The demo teacher and a demo student sign in in a real browser (headless Chromium)."""

import re

import pytest
from playwright.sync_api import expect

from classroom.demo import DEMO_CLASS_CODE, DEMO_TEACHER_EMAIL, DEMO_TEACHER_PASSWORD, seed_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo(live_server):
    seed_demo(history=False)  # the logins are all these tests need; test_demo.py checks the rest
    return live_server.url


def test_demo_teacher_signs_in_and_sees_the_demo_class(page, demo):
    page.goto(demo + "/")
    page.get_by_role("link", name="Teacher sign-in").first.click()
    page.get_by_label("E-mail").fill(DEMO_TEACHER_EMAIL)
    page.get_by_label("Password").fill(DEMO_TEACHER_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(r"/teacher/$"))
    expect(page.get_by_role("heading", name="Demo class 3B")).to_be_visible()
    expect(page.get_by_text(DEMO_CLASS_CODE)).to_be_visible()


def test_demo_student_signs_in_with_pictures_by_tapping(page, demo):
    page.goto(demo + "/student/")
    page.get_by_label("Class code").fill(DEMO_CLASS_CODE.lower())
    page.get_by_role("button", name="Next").click()
    page.get_by_role("link", name="Ana").click()
    page.locator("[data-picture-password][data-ready]").wait_for()
    # Drawn pictures, the card's own, not emoji a device may lack a font for: every one loaded.
    pictures = page.locator(".picture-button img")
    expect(pictures).to_have_count(9)
    # (Waited for: on a loaded machine the last pictures may still be on their way.)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.picture-button img')]"
        ".every((i) => i.complete && i.naturalWidth > 0)"
    )
    for picture in ("cat", "sun", "star"):
        page.get_by_role("button", name=picture, exact=True).click()
    expect(page.get_by_text("Pictures chosen: 3")).to_be_visible()
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(r"/me/$"))
    expect(page.get_by_role("heading", name="Hello, Ana!")).to_be_visible()


def test_demo_student_signs_in_by_keyboard_alone(page, demo):
    page.goto(demo + "/student/")
    expect(page.get_by_label("Class code")).to_be_focused()  # autofocus: a child just types
    page.keyboard.type(DEMO_CLASS_CODE)
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Who are you?")).to_be_visible()
    page.get_by_role("link", name="Carla").focus()
    page.keyboard.press("Enter")
    page.locator("[data-picture-password][data-ready]").wait_for()
    for picture in ("dog", "apple", "ball"):
        page.get_by_role("button", name=picture, exact=True).focus()
        page.keyboard.press("Enter")
    expect(page.get_by_text("Pictures chosen: 3")).to_be_visible()
    page.get_by_role("button", name="Sign in").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Hello, Carla!")).to_be_visible()


def test_wrong_pictures_show_a_message_and_do_not_sign_in(page, demo):
    page.goto(f"{demo}/student/{DEMO_CLASS_CODE}/")
    page.get_by_role("link", name="Ana").click()
    page.locator("[data-picture-password][data-ready]").wait_for()
    for picture in ("dog", "dog", "dog"):
        page.get_by_role("button", name=picture, exact=True).click()
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_contain_text("Those pictures are not right")
    expect(page).to_have_url(re.compile(r"/student/"))


def test_student_pages_in_spanish(page, demo):
    page.goto(demo + "/")
    page.get_by_label("Language").select_option("es")
    page.get_by_role("button", name="Change").click()
    expect(page.get_by_role("heading", name="Soy estudiante")).to_be_visible()


def test_the_first_pages_load_without_a_failed_request(page, demo):
    failed = []
    page.on("response", lambda r: failed.append((r.status, r.url)) if r.status >= 400 else None)
    for path in ("/", "/accounts/login/", "/student/"):
        page.goto(demo + path)
        page.wait_for_load_state("networkidle")
    assert failed == []
    # Browsers ask for an icon on their own (a request pages do not see): without one named
    # here, every first visit logged a 404 for /favicon.ico.
    icon = page.locator('link[rel="icon"]').get_attribute("href")
    assert page.request.get(demo + icon).headers["content-type"] == "image/svg+xml"


def test_a_login_card_signs_the_child_in_and_its_token_leaves_the_address(page, demo):
    """The card's QR code opens /card/#<token>: the page posts the token (a browser never sends
    what follows "#", so no access log holds it), and the child is at home."""
    from accounts.models import User
    from classroom.roster.cards import card_token

    ben = User.objects.get(display_name="Ben")
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{demo}/card/#{card_token(ben)}")
    expect(page.get_by_role("heading", name="Hello, Ben!")).to_be_visible()
    assert not any(card_token(ben) in url for url in requested)
    page.go_back()  # the token left the history too
    assert card_token(ben) not in page.url
