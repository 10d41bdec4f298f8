"""A learning platform's side of LTI Dynamic Registration, served over HTTP on 127.0.0.1 as a
platform serves it: its OpenID configuration and its registration endpoint, which checks the
tool's configuration as Moodle and Canvas do (every field they require, the values the
specification fixes) before it answers a client id and a deployment id. The tool calls it over
the network, as in production; the browser is Django's test client."""

from __future__ import annotations

import html
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

from .platform import WAIT_SECONDS

TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration"
SCOPES = {
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
    "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
    "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
}


def registration_problems(body: dict, *, tool: str) -> list[str]:
    """What a platform would refuse in the tool's registration (Moodle's registration_helper and
    Canvas's Lti::IMS::Registration check these; the values are the specification's)."""
    problems = []
    if body.get("application_type") != "web":
        problems.append("application_type")
    if not {"client_credentials", "implicit"} <= set(body.get("grant_types") or []):
        problems.append("grant_types")
    if body.get("response_types") != ["id_token"]:
        problems.append("response_types")
    if body.get("token_endpoint_auth_method") != "private_key_jwt":
        problems.append("token_endpoint_auth_method")
    if body.get("redirect_uris") != [f"{tool}/lti/launch/"]:
        problems.append("redirect_uris")
    if body.get("initiate_login_uri") != f"{tool}/lti/login/":
        problems.append("initiate_login_uri")
    if body.get("jwks_uri") != f"{tool}/lti/.well-known/jwks.json":
        problems.append("jwks_uri")
    if not body.get("client_name"):
        problems.append("client_name")
    if set((body.get("scope") or "").split()) != SCOPES:
        problems.append("scope")
    configuration = body.get(TOOL_CONFIGURATION) or {}
    if configuration.get("domain") != urlsplit(tool).netloc:
        problems.append("domain")
    if configuration.get("target_link_uri") != f"{tool}/lti/launch/":
        problems.append("target_link_uri")
    claims = set(configuration.get("claims") or [])
    if not {"sub", "name"} <= claims or "email" in claims:
        problems.append("claims")
    messages = {m.get("type"): m for m in configuration.get("messages") or []}
    if set(messages) != {"LtiResourceLinkRequest", "LtiDeepLinkingRequest"}:
        problems.append("messages")
    elif any(m.get("target_link_uri") != f"{tool}/lti/launch/" for m in messages.values()):
        problems.append("messages.target_link_uri")
    return problems


class RegistrationPlatform:
    """The platform at http://127.0.0.1:<port>: its issuer is that origin; its configuration at
    /.well-known/openid-configuration; its registration endpoint at /register. ``behaviour``
    makes it misbehave: "refuse" (HTTP 400 to the registration), "hang" (answers nothing, until
    closed), "foreign_issuer" (its configuration names another issuer), "not_json",
    "no_deployment" (answers a client id only)."""

    def __init__(self, *, key_set_url: str, tool: str = "http://testserver"):
        self.token = "registration-token-1"
        self.client_id = "client-from-registration"
        self.deployment_id = "deployment-from-registration"
        self.auth_url = "https://platform.test/auth"
        self.token_url = "https://platform.test/token"
        self.key_set_url = key_set_url
        self.tool = tool
        self.behaviour = ""
        self.received: list[dict] = []  # the tool's registrations, as posted
        self.calls: list[str] = []
        self.closing = threading.Event()
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                platform.calls.append(f"GET {self.path}")
                if self.path.startswith("/admin/tools?"):
                    return self.admin_page()
                if self.path != "/.well-known/openid-configuration":
                    return self.answer(404, {"error": "not_found"})
                if self.headers.get("Authorization") != f"Bearer {platform.token}":
                    return self.answer(401, {"error": "invalid_token"})  # as Canvas
                if platform.behaviour == "hang":
                    platform.closing.wait(WAIT_SECONDS)
                    return None
                if platform.behaviour == "not_json":
                    return self.answer(200, b"<html>Moodle is being upgraded</html>")
                return self.answer(200, platform.configuration())

            def do_POST(self):
                platform.calls.append(f"POST {self.path}")
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                if self.path != "/register":
                    return self.answer(404, {"error": "not_found"})
                if self.headers.get("Authorization") != f"Bearer {platform.token}":
                    return self.answer(401, {"error": "invalid_token"})
                if not (self.headers.get("Content-Type") or "").startswith("application/json"):
                    return self.answer(400, {"error": "not JSON"})
                body = json.loads(raw)
                platform.received.append(body)
                problems = registration_problems(body, tool=platform.tool)
                if problems:
                    return self.answer(400, {"error": "invalid_client_metadata", "what": problems})
                if platform.behaviour == "refuse":
                    return self.answer(
                        400, {"error": "invalid_client_metadata", "reason": "tool not allowed"}
                    )
                answer = {**body, "client_id": platform.client_id}
                configuration = dict(body[TOOL_CONFIGURATION])
                if platform.behaviour != "no_deployment":
                    configuration["deployment_id"] = platform.deployment_id
                answer[TOOL_CONFIGURATION] = configuration
                return self.answer(200, answer)

            def admin_page(self):
                """The platform admin's page, as Moodle's and Canvas's: the tool's registration
                URL (``?register=``) in a frame, with the platform's two parameters added; the
                frame is closed when the tool posts the close message, which the page shows."""
                url = parse_qs(urlsplit(self.path).query)["register"][0]
                src = html.escape(f"{url}?{platform.registration_query()}")
                page = f"""<!doctype html><title>Platform: manage tools</title>
<p id="said">(nothing yet)</p><iframe src="{src}" width="800" height="600"></iframe>
<script>
window.addEventListener("message", (event) => {{
  document.getElementById("said").textContent = event.data && event.data.subject;
  if (event.data && event.data.subject === "org.imsglobal.lti.close") {{
    document.querySelector("iframe").remove();
  }}
}});
</script>"""
                raw = page.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def answer(self, status: int, body):
                raw = body if isinstance(body, bytes) else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.timeout = WAIT_SECONDS
        self.issuer = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.configuration_url = f"{self.issuer}/.well-known/openid-configuration"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def configuration(self) -> dict:
        """Its OpenID configuration, shaped as Moodle's and Canvas's are."""
        issuer = "http://127.0.0.1:1" if self.behaviour == "foreign_issuer" else self.issuer
        return {
            "issuer": issuer,
            "authorization_endpoint": self.auth_url,
            "token_endpoint": self.token_url,
            "jwks_uri": self.key_set_url,
            "registration_endpoint": f"{self.issuer}/register",
            "token_endpoint_auth_methods_supported": ["private_key_jwt"],
            "token_endpoint_auth_signing_alg_values_supported": ["RS256"],
            "scopes_supported": sorted(SCOPES),
            "response_types_supported": ["id_token"],
            "subject_types_supported": ["public", "pairwise"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "claims_supported": ["sub", "iss", "name", "given_name", "family_name", "email"],
            "https://purl.imsglobal.org/spec/lti-platform-configuration": {
                "product_family_code": "loopback",
                "version": "1.0",
                "messages_supported": [
                    {"type": "LtiResourceLinkRequest"},
                    {"type": "LtiDeepLinkingRequest"},
                ],
            },
        }

    def registration_query(self) -> str:
        """The query string the platform appends to the tool's registration URL."""
        return urlencode(
            {"openid_configuration": self.configuration_url, "registration_token": self.token}
        )

    def close(self):
        self.closing.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=WAIT_SECONDS)
        assert not self.thread.is_alive()
