"""LTI Dynamic Registration 1.0 as this tool speaks it (docs/lti.md, "Registering by one URL"):
the platform opens this tool's registration address with two query parameters,
``openid_configuration`` (where its configuration is) and ``registration_token`` (a bearer token
for it and for its registration endpoint). The tool fetches and checks the configuration, posts its
own (an OpenID Connect client registration with the LTI tool configuration) to the platform's
registration endpoint, and keeps the client id and deployment id the platform answers.

What this module does: the two calls to the platform, each waiting at most
``LTI_REGISTRATION_TIMEOUT_SECONDS``, and their checks. Nothing here writes: the registration is
saved by ``services.dynamic_registration_save``.

The tool's configuration is built with django-lti-dynamic-registration's types. Its views are not
used: they wait on the platform without a deadline, take any configuration whose URL merely starts
with the issuer, save a registration under a temporary client id before the platform has answered,
drop the deployment id the platform returns, and answer an inline script (against this site's
CSP). Its ``LtiMessage.to_dict`` fails (it iterates a dict as pairs): messages are its
``CanvasLtiMessage``, whose ``to_dict`` works and which, without the Canvas options, is the
standard message.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
from django.conf import settings
from lti_dynamic_registration.types import (
    CanvasLtiMessage,
    LmsLtiRegistration,
    LmsLtiToolConfiguration,
)

TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration"
PLATFORM_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-platform-configuration"
CANVAS_ACCOUNT_NAME = "https://canvas.instructure.com/lti/account_name"
# What the tool asks of the platform: grades back (Assignment and Grade Services) and the class
# list (Names and Role Provisioning).
SCOPES = [
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
    "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
    "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
]
# Who the person is and their name; never their e-mail (the tool keeps none), nor picture.
CLAIMS = ["iss", "sub", "name", "given_name", "family_name"]
# Where Canvas shows the links: the course's menu (a launch: the class, or the child's home) and
# the pickers of a module item and an assignment (deep linking). Other platforms ignore them.
RESOURCE_LINK_PLACEMENTS = ["https://canvas.instructure.com/lti/course_navigation"]
DEEP_LINKING_PLACEMENTS = ["ContentArea", "https://canvas.instructure.com/lti/assignment_selection"]
# How long a registration link made on /lti/registrations/ stays good, unused.
LINK_DAYS = 7
URL_LENGTH = 200  # django-lti's URL fields
ID_LENGTH = 255


class RegistrationRefused(Exception):
    """A registration this tool will not make. ``reason`` is for the log; ``detail`` (the
    platform's own words, when it refused) may be shown to the admin."""

    def __init__(self, kind: str, reason: str, *, status: int = 502, detail: str = ""):
        super().__init__(reason)
        self.kind = kind
        self.reason = reason
        self.status = status
        self.detail = detail


@dataclass(frozen=True)
class PlatformConfiguration:
    """What the platform's OpenID configuration says of it, checked."""

    url: str
    issuer: str
    authorization_endpoint: str
    token_endpoint: str
    jwks_uri: str
    registration_endpoint: str
    product: str  # "moodle", "canvas"...: the platform's product_family_code, if it says
    account_name: str  # Canvas: the account the tool is being installed in

    @property
    def label(self) -> str:
        """A name for the registration when its link has none: "Test University (canvas)",
        "moodle.school.org (moodle)"."""
        name = self.account_name or urlsplit(self.issuer).netloc
        return f"{name} ({self.product})" if self.product else name


@dataclass(frozen=True)
class PlatformAnswer:
    client_id: str
    deployment_id: str  # "" when the platform made no deployment


def platform_configuration(*, url: str, token: str) -> PlatformConfiguration:
    """The platform's configuration from ``url``, fetched with the registration token. Refused if
    the URL is not a web address this tool may call, the platform does not answer in time or not
    with a configuration, or the configuration's issuer is not the site it was fetched from (the
    specification's check: else any site could pose as a platform)."""
    if not _callable_url(url):
        raise RegistrationRefused(
            "bad_configuration_url", f"openid_configuration is not a URL: {url[:200]!r}", status=400
        )
    data = _json_of(_call("GET", url, token=token), what="configuration")
    fields = {
        name: data.get(name)
        for name in (
            "issuer",
            "authorization_endpoint",
            "token_endpoint",
            "jwks_uri",
            "registration_endpoint",
        )
    }
    wrong = sorted(
        name
        for name, value in fields.items()
        if not isinstance(value, str) or len(value) > URL_LENGTH or not _callable_url(value)
    )
    if wrong:
        raise RegistrationRefused(
            "bad_configuration", f"configuration from {url}: no usable {', '.join(wrong)}"
        )
    issuer = fields["issuer"]
    if _origin(issuer) != _origin(url) or urlsplit(issuer).query or urlsplit(issuer).fragment:
        raise RegistrationRefused(
            "issuer_mismatch", f"issuer {issuer} is not the site of {url}", status=400
        )
    platform = data.get(PLATFORM_CONFIGURATION)
    platform = platform if isinstance(platform, dict) else {}
    return PlatformConfiguration(
        url=url,
        product=str(platform.get("product_family_code") or "")[:80],
        account_name=str(platform.get(CANVAS_ACCOUNT_NAME) or "")[:120],
        **fields,
    )


def tool_configuration(*, urls: dict[str, str], domain: str, name: str, description: str) -> dict:
    """This tool as a platform registers it: its launch, login and key set URLs (``urls``, as
    ``selectors.tool_urls`` gives them, plus ``logo``), the messages it takes (a resource link
    launch and deep linking, both at the launch URL), the claims and the scopes it asks for."""
    messages = [
        CanvasLtiMessage(
            type="LtiResourceLinkRequest",
            target_link_uri=urls["launch"],
            label=name,
            placements=RESOURCE_LINK_PLACEMENTS,
        ),
        CanvasLtiMessage(
            type="LtiDeepLinkingRequest",
            target_link_uri=urls["launch"],
            label=name,
            placements=DEEP_LINKING_PLACEMENTS,
        ),
    ]
    registration = LmsLtiRegistration(
        client_name=name,
        jwks_uri=urls["jwks"],
        initiate_login_uri=urls["login"],
        target_link_uri=urls["launch"],
        scopes=SCOPES,
        lti_tool_configuration=LmsLtiToolConfiguration(
            domain=domain,
            target_link_uri=urls["launch"],
            claims=CLAIMS,
            messages=messages,
            description=description,
        ),
    )
    return {**registration.to_dict(), "logo_uri": urls["logo"]}


def platform_register(*, platform: PlatformConfiguration, token: str, tool: dict) -> PlatformAnswer:
    """Posts the tool's configuration to the platform's registration endpoint with the token;
    the platform's answer: the client id it gave the tool, and the deployment id it made (in the
    answer's LTI tool configuration). Refused if the platform refuses, does not answer in time,
    or answers without a client id."""
    response = _call("POST", platform.registration_endpoint, token=token, json=tool)
    data = _json_of(response, what="registration answer")
    client_id = data.get("client_id")
    if isinstance(client_id, int) and not isinstance(client_id, bool):
        client_id = str(client_id)
    if not isinstance(client_id, str) or not client_id.strip() or len(client_id) > ID_LENGTH:
        raise RegistrationRefused("bad_answer", f"answer with no usable client_id: {client_id!r}")
    configuration = data.get(TOOL_CONFIGURATION)
    deployment_id = configuration.get("deployment_id") if isinstance(configuration, dict) else None
    if isinstance(deployment_id, int) and not isinstance(deployment_id, bool):
        deployment_id = str(deployment_id)
    if not isinstance(deployment_id, str) or len(deployment_id) > ID_LENGTH:
        deployment_id = ""
    return PlatformAnswer(client_id=client_id.strip(), deployment_id=deployment_id.strip())


# --- calls ---------------------------------------------------------------------------------------


def _call(method: str, url: str, *, token: str, json: dict | None = None) -> requests.Response:
    """One call to the platform, with its bearer token and a deadline; redirects are not followed
    (the configuration must come from the URL checked, and a POST is not repeated elsewhere)."""
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    timeout = settings.LTI_REGISTRATION_TIMEOUT_SECONDS
    try:
        response = requests.request(
            method, url, headers=headers, json=json, timeout=timeout, allow_redirects=False
        )
    except requests.Timeout as error:
        raise RegistrationRefused(
            "unreachable", f"{method} {url}: no answer within {timeout} s"
        ) from error
    except requests.RequestException as error:
        raise RegistrationRefused("unreachable", f"{method} {url}: {error}") from error
    if not 200 <= response.status_code < 300:
        detail = response.text.strip()[:200]
        if method == "POST":
            raise RegistrationRefused(
                "platform_refused",
                f"{method} {url}: HTTP {response.status_code}: {detail}",
                detail=detail,
            )
        raise RegistrationRefused(
            "unreachable", f"{method} {url}: HTTP {response.status_code}: {detail}"
        )
    return response


def _json_of(response: requests.Response, *, what: str) -> dict:
    try:
        data = response.json()
    except ValueError as error:
        raise RegistrationRefused(
            "bad_answer" if what != "configuration" else "bad_configuration",
            f"{what} from {response.url} is not JSON",
        ) from error
    if not isinstance(data, dict):
        raise RegistrationRefused(
            "bad_answer" if what != "configuration" else "bad_configuration",
            f"{what} from {response.url} is not a JSON object",
        )
    return data


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port or {"https": 443, "http": 80}.get(scheme)
    except ValueError:
        port = None
    return scheme, (parts.hostname or "").lower(), port


def _callable_url(url: str) -> bool:
    """An https URL; or plain http to this machine (a platform under development or test): the
    registration token is a bearer credential, not to be sent in clear over a network."""
    if not isinstance(url, str):
        return False
    try:
        parts = urlsplit(url)
        _port = parts.port  # a malformed port raises
    except ValueError:
        return False
    if not parts.hostname or parts.username or parts.password:
        return False
    if parts.scheme == "https":
        return True
    return parts.scheme == "http" and _loopback(parts.hostname)


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
