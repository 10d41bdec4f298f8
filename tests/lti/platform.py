"""An independent LTI 1.3 platform (the ``lti1p3platform`` package) driven by the tests, with real
RSA keys, its key set served over HTTP on 127.0.0.1 as a platform serves it: the tool fetches it
there, as in production. The browser between them is Django's test client."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

import jwt
from jwcrypto.jwk import JWK
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.oidc_login import OIDCLoginAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request

INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
WAIT_SECONDS = 5


def rsa_key_pair() -> tuple[str, str]:
    key = JWK.generate(kty="RSA", size=2048)
    return (
        key.export_to_pem(private_key=True, password=None).decode(),
        key.export_to_pem().decode(),
    )


class KeySetServer:
    """Serves ``keys`` (a JWKS) at http://127.0.0.1:<port>/jwks on a thread of its own."""

    def __init__(self):
        self.keys: dict = {"keys": []}
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                server.requests += 1
                body = json.dumps(server.keys).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.timeout = WAIT_SECONDS
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/jwks"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=WAIT_SECONDS)
        assert not self.thread.is_alive()


class PlatformConfig(LTI1P3PlatformConfAbstract):
    def init_platform_config(self, registration: Registration) -> None:
        self._fixed = registration

    def get_registration_by_params(self, **kwargs):
        return self._fixed


class GetRequest(Request):
    """The tool's redirect to the authorization endpoint, as the platform receives it."""

    def build_metadata(self, params: dict):
        return {
            "method": "GET",
            "form_data": {},
            "get_data": params,
            "headers": {},
            "content_type": None,
            "path": "/auth",
            "json": None,
        }


class Login(OIDCLoginAbstract):
    def set_lti_message_hint(self, **kwargs):
        self._lti_message_hint = kwargs["hint"]

    def get_redirect(self, url: str) -> str:
        return url


class Launch(LTIAdvantageMessageLaunchAbstract):
    def render_launch_form(self, launch_data, **kwargs):
        return launch_data  # what the auto-submitting form would post


@dataclass
class Person:
    sub: str
    roles: list[str]
    name: str = ""
    email: str = ""


@dataclass
class Course:
    id: str
    title: str = "Year 3 maths"


@dataclass
class Platform:
    """One platform registration as the platform keeps it (issuer, client id, deployment, its
    own keys), and the tool's URLs it was given."""

    issuer: str
    client_id: str
    deployment_id: str
    key_set: KeySetServer
    private_key: str = ""
    public_key: str = ""
    auth_url: str = "https://platform.test/auth"
    token_url: str = "https://platform.test/token"
    tool_login_url: str = "http://testserver/lti/login/"
    tool_launch_url: str = "http://testserver/lti/launch/"
    id_token_seconds: int = 300
    custom: dict = field(default_factory=dict)

    def __post_init__(self):
        if not self.private_key:
            self.private_key, self.public_key = rsa_key_pair()

    def publish_key(self):
        self.key_set.keys["keys"].append(Registration.get_jwk(self.public_key))

    @property
    def kid(self) -> str:
        return Registration.get_jwk(self.public_key)["kid"]

    def registration(self) -> Registration:
        return (
            Registration()
            .set_iss(self.issuer)
            .set_client_id(self.client_id)
            .set_deployment_id(self.deployment_id)
            .set_oidc_login_url(self.tool_login_url)
            .set_launch_url(self.tool_launch_url)
            .set_platform_private_key(self.private_key)
            .set_platform_public_key(self.public_key)
        )

    def config(self) -> PlatformConfig:
        return PlatformConfig(registration=self.registration())

    # --- the steps of a launch ---------------------------------------------------------------

    def login_url(self, person: Person, hint: str = "resource-link-1") -> str:
        login = Login(request=None, platform_config=self.config())
        login.set_lti_message_hint(hint=hint)
        return login.initiate_login(person.sub)

    def launch_message(self, auth_params: dict, person: Person, course: Course) -> Launch:
        launch = Launch(GetRequest(auth_params), self.config())
        launch.set_id_token_expiration(self.id_token_seconds)
        launch.set_user_data(
            person.sub,
            person.roles,
            full_name=person.name or None,
            email_address=person.email or None,
        )
        launch.set_launch_context_claim(course.id, context_title=course.title)
        launch.set_resource_link_claim("resource-link-1", title="Arithmetic games")
        if self.custom:
            launch.set_custom_parameters_claim(self.custom)
        return launch

    def id_token(self, auth_params: dict, person: Person, course: Course) -> dict:
        """What the platform posts to the tool's redirect URI: id_token, state, launch_url."""
        return self.launch_message(auth_params, person, course).lti_launch()

    def signed(
        self,
        claims: dict,
        *,
        key: str | None = None,
        kid: str | None = None,
        algorithm: str = "RS256",
    ) -> str:
        """``claims`` signed as this platform would (or with another key, or none)."""
        headers = {"kid": kid or self.kid}
        if algorithm == "none":
            return jwt.encode(claims, None, algorithm="none", headers=headers)
        return jwt.encode(claims, key or self.private_key, algorithm=algorithm, headers=headers)


def auth_params_of(redirect_location: str) -> dict:
    return dict(parse_qsl(urlsplit(redirect_location).query))


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")
