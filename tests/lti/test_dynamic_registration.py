"""LTI Dynamic Registration end to end: the site's administrator makes a one-time registration
link on /lti/registrations/; a learning platform (tests/lti/registration_platform.py, on
127.0.0.1) opens it with its configuration's URL and a token; the tool fetches and checks the
configuration over HTTP, posts its own to the platform's registration endpoint, and saves the
client id and deployment id the platform answered; the independent LTI platform (lti1p3platform)
then launches with them. Every refusal answers a page, one log line, and writes nothing."""

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from lti_tool.models import Key, LtiDeployment, LtiRegistration

from classroom.lti import services
from classroom.lti.models import LtiRegistrationLink
from classroom.models import Classroom

from .platform import Platform
from .registration_platform import RegistrationPlatform
from .test_launch import (  # noqa: F401 (key_set: a fixture)
    TEACHER,
    all_rows,
    assert_refused_writing_nothing,
    key_set,
    launch,
)

pytestmark = pytest.mark.django_db

User = get_user_model()
LINK = re.compile(r"http://testserver/lti/register/[^/<\s]+/")


@pytest.fixture
def registration_platform(key_set):  # noqa: F811
    services.keys_rotate(rotate=False)  # the tool's key, as `manage.py lti_keys` makes it
    platform = RegistrationPlatform(key_set_url=key_set.url)
    yield platform
    platform.close()


def make_link(admin_client, name: str = "District Moodle") -> str:
    """The administrator makes a registration link on /lti/registrations/ and copies it."""
    response = admin_client.post("/lti/registrations/links/", {"name": name})
    assert response.status_code == 302
    page = admin_client.get("/lti/registrations/").content.decode()
    links = LINK.findall(page)
    assert len(links) == 1, links
    return links[0]


def opened_by(platform: RegistrationPlatform, url: str) -> str:
    """The registration URL as the platform opens it, with its two parameters added."""
    return f"{url}?{platform.registration_query()}"


def test_a_platform_registers_by_a_link_and_then_launches(
    admin_client,
    registration_platform,
    key_set,  # noqa: F811
):
    url = opened_by(registration_platform, make_link(admin_client))
    # The platform admin's frame: not signed in here, and no cookie of this site (not even CSRF's).
    browser = Client(enforce_csrf_checks=True)

    page = browser.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert registration_platform.issuer in text and "District Moodle" in text
    assert "Register" in text
    # The platform's admin page may frame it (any HTTPS site, or one on this machine).
    assert "X-Frame-Options" not in page.headers
    assert "frame-ancestors https:" in page.headers["Content-Security-Policy"]
    assert LtiRegistration.objects.count() == 0  # asking writes nothing

    done = browser.post(url)
    assert done.status_code == 200, done.content
    text = done.content.decode()
    assert "client-from-registration" in text and "deployment-from-registration" in text
    assert "data-lti-close" in text and "js/classroom/lti-registration-close.js" in text
    assert "<script>" not in text  # no inline script: the CSP forbids it

    # What the tool posted: its URLs, both messages, a name but never the e-mail.
    (posted,) = registration_platform.received
    configuration = posted["https://purl.imsglobal.org/spec/lti-tool-configuration"]
    assert "email" not in configuration["claims"] and "name" in configuration["claims"]
    assert posted["logo_uri"] == "http://testserver/static/img/favicon.svg"

    registration = LtiRegistration.objects.get()
    assert (registration.issuer, registration.client_id) == (
        registration_platform.issuer,
        "client-from-registration",
    )
    assert registration.name == "District Moodle"
    assert registration.keyset_url == key_set.url
    assert registration.auth_url == "https://platform.test/auth"
    assert registration.token_url == "https://platform.test/token"
    assert list(
        registration.deployments.filter(is_active=True).values_list("deployment_id", flat=True)
    ) == ["deployment-from-registration"]
    link = LtiRegistrationLink.objects.get()
    assert link.used_at is not None and link.registration == registration

    # A launch from the platform with what it answered signs the teacher in.
    platform = Platform(
        issuer=registration_platform.issuer,
        client_id=registration_platform.client_id,
        deployment_id=registration_platform.deployment_id,
        key_set=key_set,
    )
    platform.publish_key()
    response = launch(Client(), platform, TEACHER)
    assert response.status_code == 302
    assert response["Location"] == f"/teacher/classes/{Classroom.objects.get().pk}/"

    # The link was spent: opened again, it registers nothing, and the platform is not called.
    calls = len(registration_platform.calls)
    again = Client().get(url)
    assert again.status_code == 403 and "has been used" in again.content.decode()
    assert len(registration_platform.calls) == calls
    assert LtiRegistration.objects.count() == 1


def test_the_site_administrator_signed_in_registers_from_the_bare_address(
    admin_client, admin_user, registration_platform
):
    url = f"/lti/register/?{registration_platform.registration_query()}"
    page = admin_client.get(url)
    assert page.status_code == 200
    # Signed in, the session is the credential: a post from elsewhere is refused.
    elsewhere = Client(enforce_csrf_checks=True)
    elsewhere.force_login(admin_user)
    assert elsewhere.post(url).status_code == 403
    # Signed in, it is not to be framed (a click in a frame would register another's platform).
    assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    assert admin_client.post(url).status_code == 200
    registration = LtiRegistration.objects.get()
    assert registration.name == f"{registration_platform.issuer[7:]} (loopback)"


def test_the_bare_address_asks_anyone_else_for_a_registration_link(
    db, registration_platform, caplog
):
    url = f"/lti/register/?{registration_platform.registration_query()}"
    for client in (Client(), teacher_client()):
        before = all_rows()
        response = client.get(url)
        assert response.status_code == 403
        text = response.content.decode()
        assert "registration link is needed" in text and "/lti/registrations/" in text
        assert "frame-ancestors https:" in response.headers["Content-Security-Policy"]
        assert client.post(url).status_code == 403
        assert all_rows() == before
    assert registration_platform.calls == []


def teacher_client() -> Client:
    client = Client()
    client.force_login(User.objects.create_user("t@school.test", password="x", role="teacher"))
    return client


def test_a_platform_that_names_no_deployment_is_registered_with_none(
    admin_client, registration_platform
):
    registration_platform.behaviour = "no_deployment"
    url = opened_by(registration_platform, make_link(admin_client))
    done = Client().post(url)
    assert done.status_code == 200
    assert "None given by the platform" in done.content.decode()
    assert LtiRegistration.objects.get().client_id == "client-from-registration"
    assert LtiDeployment.objects.count() == 0


def test_registering_the_same_client_again_adds_its_new_deployment(
    admin_client, registration_platform
):
    first = Client().post(opened_by(registration_platform, make_link(admin_client)))
    assert first.status_code == 200
    registration_platform.deployment_id = "deployment-second"
    again = Client().post(opened_by(registration_platform, make_link(admin_client, "Again")))
    assert again.status_code == 200
    registration = LtiRegistration.objects.get()
    assert registration.name == "Again"
    assert set(
        registration.deployments.filter(is_active=True).values_list("deployment_id", flat=True)
    ) == {"deployment-from-registration", "deployment-second"}


# --- refusals: a page, one log line, nothing written ---------------------------------------------


@pytest.mark.parametrize(
    ("behaviour", "methods", "status", "says", "logged"),
    [
        ("foreign_issuer", "get post", 400, "names another site as its issuer", "issuer_mismatch"),
        ("hang", "get post", 502, "did not answer in time", "no answer within"),
        ("not_json", "get post", 502, "lacks what a registration needs", "not JSON"),
        ("refuse", "post", 502, "refused the registration", "platform_refused"),
    ],
)
def test_a_registration_the_platform_spoils_is_refused_writing_nothing(
    admin_client, registration_platform, caplog, settings, behaviour, methods, status, says, logged
):
    settings.LTI_REGISTRATION_TIMEOUT_SECONDS = 0.5
    url = opened_by(registration_platform, make_link(admin_client))
    registration_platform.behaviour = behaviour
    for method in methods.split():
        line = assert_refused_writing_nothing(
            caplog, lambda m=method: getattr(Client(), m)(url), status=status, says=says
        )
        assert logged in line
        assert "registration-token-1" not in line  # the platform's token stays out of the log
        assert url.split("?")[0].split("/")[-2] not in line  # and so does the link
    assert LtiRegistrationLink.objects.get().used_at is None  # the link is still good
    if behaviour == "refuse":
        assert "tool not allowed" in Client().post(url).content.decode()  # the platform's words


@pytest.mark.parametrize(
    ("configuration_url", "status", "says"),
    [
        (None, 400, "Open this address from your learning platform"),
        ("ftp://127.0.0.1/config", 400, "will not fetch"),
        ("http://platform.example.org/config", 400, "will not fetch"),  # a token in clear
        ("http://127.0.0.1:1/config", 502, "did not answer"),  # nobody there
    ],
)
def test_a_bad_configuration_url_is_refused_writing_nothing(
    admin_client, registration_platform, caplog, configuration_url, status, says
):
    link = make_link(admin_client)
    query = "" if configuration_url is None else f"?openid_configuration={configuration_url}"
    assert_refused_writing_nothing(
        caplog, lambda: Client().post(f"{link}{query}"), status=status, says=says
    )
    assert registration_platform.calls == []


def test_an_unknown_expired_or_withdrawn_link_is_refused_writing_nothing(
    admin_client, registration_platform, caplog
):
    link = make_link(admin_client)
    forged = re.sub(r":[^:/]+/$", ":forged/", link)
    assert_refused_writing_nothing(
        caplog,
        lambda: Client().post(opened_by(registration_platform, forged)),
        status=403,
        says="has expired",
    )
    LtiRegistrationLink.objects.update(expires_at=timezone.now())
    assert_refused_writing_nothing(
        caplog,
        lambda: Client().post(opened_by(registration_platform, link)),
        status=403,
        says="has expired",
    )
    LtiRegistrationLink.objects.update(expires_at=timezone.now() + dt.timedelta(days=1))
    (pk,) = LtiRegistrationLink.objects.values_list("pk", flat=True)
    assert admin_client.post(f"/lti/registrations/links/{pk}/withdraw/").status_code == 302
    assert LtiRegistrationLink.objects.count() == 0
    assert_refused_writing_nothing(
        caplog,
        lambda: Client().post(opened_by(registration_platform, link)),
        status=403,
        says="was withdrawn",
    )
    assert registration_platform.calls == []


def test_a_tool_with_no_key_yet_registers_nothing(admin_client, registration_platform, caplog):
    Key.objects.all().delete()
    url = opened_by(registration_platform, make_link(admin_client))
    assert_refused_writing_nothing(
        caplog, lambda: Client().post(url), status=503, says="no signing key"
    )


def test_only_the_site_administrator_makes_and_withdraws_links(db):
    client = teacher_client()
    assert "/admin/login/" in client.post("/lti/registrations/links/", {"name": "x"})["Location"]
    assert LtiRegistrationLink.objects.count() == 0


def test_a_new_link_takes_away_the_links_expired_unused(admin_client):
    make_link(admin_client, "Old")
    LtiRegistrationLink.objects.update(expires_at=timezone.now())
    make_link(admin_client, "New")
    assert list(LtiRegistrationLink.objects.values_list("name", flat=True)) == ["New"]
