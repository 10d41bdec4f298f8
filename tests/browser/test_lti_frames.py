"""A launch inside a learning platform's frame, in a real Chromium (docs/lti.md, "Inside a frame").

The site runs over HTTPS at https://127.0.0.1:<port> (a certificate made here; the browser is told
to accept it). The platform is another site, https://localhost:<port>: its course page frames the
tool's login, and its authorization endpoint answers with the launch form, signed by the
independent platform (lti1p3platform, tests/lti/platform.py), which its own script posts. For the
browser the two are different sites, so the tool's cookies in the frame are third-party cookies.

Each person has a browser profile of their own, with Chromium's own setting for third-party
cookies: allowed (Chrome's default), or blocked (as Safari always does, and Chrome or Firefox when
set to): there the login's cookie check offers "Open in a new window", and the launch in that
window signs the person in."""

from __future__ import annotations

import datetime as dt
import ipaddress
import json
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from playwright.sync_api import expect

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.lti.platform import INSTRUCTOR, LEARNER, Course, KeySetServer, Person, Platform
from tests.lti.platform_site import PlatformSite

pytestmark = pytest.mark.browser

WAIT_SECONDS = 10
TEACHER = Person(sub="teacher-7", roles=[INSTRUCTOR], name="Ana Ruiz")
CHILD = Person(sub="child-42", roles=[LEARNER], name="Leo Díaz")
PEOPLE = {person.sub: person for person in (TEACHER, CHILD)}
COURSE = Course(id="course-3B", title="3B maths")
TOOL_FRAME = "iframe[title='Arithmetic games']"


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (the tool) and localhost (the platform)."""
    folder = tmp_path_factory.mktemp("tls")
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = dt.datetime.now(dt.UTC)
    made = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(hours=1))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    certificate_file, key_file = folder / "certificate.pem", folder / "key.pem"
    certificate_file.write_bytes(made.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return certificate_file, key_file


SETUP = """
from classroom.lti import services
services.keys_rotate(rotate=False)
services.registration_save(
    name="District platform",
    issuer={issuer!r},
    client_id={client_id!r},
    deployment_ids=[{deployment_id!r}],
    keyset_url={keyset_url!r},
    auth_url={auth_url!r},
    token_url={token_url!r},
    frame_origins=[{frame_origin!r}],
)
"""


@pytest.fixture(scope="module")
def lms(daphne_site, certificate):
    """The tool over HTTPS, and the platform's site, registered there with its pages' origin
    (its issuer is another address, as Canvas's is)."""
    key_set = KeySetServer()
    platform_site = PlatformSite(people=PEOPLE, course=COURSE, certificate=certificate)
    stranger = PlatformSite(people=PEOPLE, course=COURSE, certificate=certificate)  # unregistered
    platform = Platform(
        issuer="https://lms.test",
        client_id="client-1",
        deployment_id="deployment-1",
        key_set=key_set,
        auth_url=platform_site.url + "/auth",
    )
    platform.publish_key()
    setup = SETUP.format(
        issuer=platform.issuer,
        client_id=platform.client_id,
        deployment_id=platform.deployment_id,
        keyset_url=key_set.url,
        auth_url=platform.auth_url,
        token_url=platform.token_url,
        frame_origin=platform_site.url,
    )
    try:
        with daphne_site("lti-frames", setup=setup, tls=certificate) as site:
            platform.tool_login_url = site.url + "/lti/login/"
            platform.tool_launch_url = site.url + "/lti/launch/"
            platform_site.platform = platform
            yield site, platform_site, stranger
    finally:
        platform_site.close()
        stranger.close()
        key_set.close()


def profile(browser, folder: Path, *, third_party_cookies: bool):
    """A browser of a person's own, with Chromium's setting for third-party cookies (Settings >
    Privacy > Third-party cookies: 0 allows them, 1 blocks them)."""
    (folder / "Default").mkdir(parents=True)
    preferences = {"profile": {"cookie_controls_mode": 0 if third_party_cookies else 1}}
    (folder / "Default" / "Preferences").write_text(json.dumps(preferences))
    context = browser.browser_type.launch_persistent_context(
        str(folder),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        headless=True,
        ignore_https_errors=True,
        viewport={"width": 1024, "height": 768},
        locale="en",
    )
    context.set_default_timeout(WAIT_SECONDS * 1000)
    return context


def tool_frame(page, site):
    frames = [frame for frame in page.frames if frame.url.startswith(site.url)]
    assert len(frames) == 1, [frame.url for frame in page.frames]
    return frames[0]


def test_a_launch_inside_the_platforms_frame_signs_the_teacher_and_the_child_in(
    browser, lms, tmp_path
):
    site, platform_site, stranger = lms
    teacher = profile(browser, tmp_path / "teacher", third_party_cookies=True)
    try:
        page = teacher.pages[0] if teacher.pages else teacher.new_page()
        page.goto(platform_site.url + "/course/teacher-7")
        frame = page.frame_locator(TOOL_FRAME)
        # The course's class, in the frame: the teacher is signed in there.
        expect(frame.get_by_role("heading", name="3B maths", exact=True)).to_be_visible()
        class_page = tool_frame(page, site).url
        assert "/teacher/classes/" in class_page

        # The same page, framed by a site that is not the registered platform, is refused.
        with page.expect_console_message(
            lambda message: "frame-ancestors" in message.text, timeout=WAIT_SECONDS * 1000
        ) as refusal:
            page.goto(f"{stranger.url}/frame?src={class_page}")
        assert f"frame-ancestors {platform_site.url}" in refusal.value.text
        expect(page.frame_locator(TOOL_FRAME).get_by_role("heading")).to_have_count(0)
    finally:
        teacher.close()

    child = profile(browser, tmp_path / "child", third_party_cookies=True)
    try:
        page = child.pages[0] if child.pages else child.new_page()
        page.goto(platform_site.url + "/course/child-42")
        frame = page.frame_locator(TOOL_FRAME)
        expect(frame.get_by_role("heading", name="Hello, Leo Díaz!")).to_be_visible()
        # The session goes on in the frame, page after page.
        frame.get_by_role("link", name="My games").click()
        expect(frame.get_by_role("heading", name="Hello, Leo Díaz!")).to_be_visible()
        assert tool_frame(page, site).url == site.url + "/me/"
    finally:
        child.close()


def test_where_third_party_cookies_are_blocked_the_launch_opens_in_a_new_window_signed_in(
    browser, lms, tmp_path
):
    site, platform_site, _stranger = lms
    for person, signed_in in (
        (TEACHER, {"role": "heading", "name": "3B maths", "exact": True}),
        (CHILD, {"role": "heading", "name": "Hello, Leo Díaz!"}),
    ):
        context = profile(browser, tmp_path / person.sub, third_party_cookies=False)
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(f"{platform_site.url}/course/{person.sub}")
            frame = page.frame_locator(TOOL_FRAME)
            expect(
                frame.get_by_text("This browser does not let the games keep you signed in")
            ).to_be_visible()
            link = frame.get_by_role("link", name="Open in a new window")
            # By keyboard: the link takes the focus and Enter follows it.
            link.focus()
            with context.expect_page(timeout=WAIT_SECONDS * 1000) as opened:
                page.keyboard.press("Enter")
            window = opened.value
            expect(window.get_by_role(**signed_in)).to_be_visible()
            assert window.url.startswith(site.url + "/")
            expect(frame.get_by_text("The games opened in a new window.")).to_be_visible()
        finally:
            context.close()
