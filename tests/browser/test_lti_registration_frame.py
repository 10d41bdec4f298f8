"""LTI Dynamic Registration in a real browser (headless Chromium), as Moodle and Canvas run it: the
platform's admin page (tests/lti/registration_platform.py, on 127.0.0.1, another site than this
one) opens the tool's registration link in a frame; the admin registers there, with no cookie of
this site, and the tool's page tells the platform, by the specification's message, to close it."""

import pytest
from django.urls import reverse
from lti_tool.models import LtiRegistration
from playwright.sync_api import expect

from accounts.models import User
from classroom.lti import selectors, services
from classroom.lti.models import LtiRegistrationLink
from tests.lti.platform import KeySetServer
from tests.lti.registration_platform import RegistrationPlatform

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def registration_platform(live_server):
    services.keys_rotate(rotate=False)
    key_set = KeySetServer()
    platform = RegistrationPlatform(key_set_url=key_set.url, tool=live_server.url)
    yield platform
    platform.close()
    key_set.close()


def test_the_platform_frames_the_link_registers_and_is_told_to_close(
    page, live_server, registration_platform
):
    operator = User.objects.create_superuser("operator", password="x")
    link = services.registration_link_create(created_by=operator, name="District Moodle")
    url = live_server.url + reverse(
        "lti:register_link", args=[selectors.registration_link_token(link)]
    )
    page.goto(f"{registration_platform.issuer}/admin/tools?register={url}")
    frame = page.frame_locator("iframe")
    expect(frame.get_by_role("heading", name="Register this tool")).to_be_visible()
    frame.get_by_role("button", name="Register").click()
    expect(frame.get_by_role("heading", name="Registered")).to_be_visible()
    expect(frame.get_by_text("deployment-from-registration")).to_be_visible()
    frame.locator("[data-lti-close][data-ready]").click()

    expect(page.locator("#said")).to_have_text("org.imsglobal.lti.close")
    expect(page.locator("iframe")).to_have_count(0)  # the platform closed its frame
    registration = LtiRegistration.objects.get()
    assert registration.client_id == "client-from-registration"
    assert LtiRegistrationLink.objects.get().registration == registration


def test_the_bare_address_in_the_frame_says_a_link_is_needed(
    page, live_server, registration_platform
):
    page.goto(
        f"{registration_platform.issuer}/admin/tools?register={live_server.url}/lti/register/"
    )
    frame = page.frame_locator("iframe")
    expect(frame.get_by_role("heading", name="A registration link is needed")).to_be_visible()
    assert LtiRegistration.objects.count() == 0
