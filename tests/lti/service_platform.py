"""A learning platform's LTI Advantage services, served over HTTP on 127.0.0.1 as a platform serves
them: the OAuth2 token endpoint (client credentials with a signed JWT client assertion, IMS
Security Framework) and whatever service endpoints a test adds to ``routes``. The tool reaches them
with pylti1p3's ServiceConnector, over real sockets.

The tokens themselves are the independent platform's (``lti1p3platform``): it checks the client
assertion's signature against the tool's key set and signs the bearer token; this server checks
what lti1p3platform leaves out (the assertion's audience, issuer and subject, its expiry, a reused
``jti``) and refuses a bearer token that lacks a route's scope.

    services = ServicePlatform(platform)                  # platform: tests.lti.platform.Platform
    services.tool_jwks = client.get("/lti/.well-known/jwks.json").json()
    memberships = Memberships(services, "course-3B", members, page_size=2)
    launch.set_nrps(memberships.url)
    ...
    services.close()

    gradebook = Gradebook(services)                       # Assignment and Grade Services
    launch.set_ags(gradebook.lineitems_url)
    services.down = 2                                     # the next two requests answer 503

A service of another kind is a route: ``services.routes[("GET", "/path")] = handler``, a handler
taking a ``ServiceRequest`` and answering a ``Reply``; ``services.authorized(request, scope)``
answers the 401 when its bearer token does not grant ``scope``."""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlencode, urlsplit

import jwt
from lti1p3platform.exceptions import LtiException

from .platform import WAIT_SECONDS, Platform

JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
NRPS_MEDIA_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
ASSERTION_CLAIMS = ["iss", "sub", "aud", "iat", "exp", "jti"]


@dataclass
class ServiceRequest:
    """One request the tool sent, as the server received it."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]  # names in lower case
    body: bytes

    @property
    def form(self) -> dict[str, str]:
        return dict(parse_qsl(self.body.decode()))

    def json(self):
        return json.loads(self.body or b"null")

    @property
    def bearer(self) -> str:
        scheme, _space, token = self.headers.get("authorization", "").partition(" ")
        return token if scheme.lower() == "bearer" else ""


@dataclass
class Reply:
    status: int = 200
    body: object = None  # a dict or list (sent as JSON), str or bytes
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)

    def encoded(self) -> bytes:
        if self.body is None:
            return b""
        if isinstance(self.body, bytes):
            return self.body
        if isinstance(self.body, str):
            return self.body.encode()
        return json.dumps(self.body).encode()


Handler = Callable[[ServiceRequest], Reply]


def oauth_error(status: int, error: str, description: str) -> Reply:
    return Reply(status, {"error": error, "error_description": description})


class ServicePlatform:
    """The platform's service endpoints on a thread of their own; ``url(path)`` is where the tool
    finds one. ``token_url`` is the registration's access-token URL (and the assertion's
    audience). ``requests`` lists what the tool sent, in order."""

    def __init__(self, platform: Platform):
        self.platform = platform
        self.tool_jwks: dict = {"keys": []}  # the tool's key set, as the platform fetched it
        self.requests: list[ServiceRequest] = []
        self.tokens_issued = 0
        self.spent_jtis: set[str] = set()
        self.routes: dict[tuple[str, str], Handler] = {("POST", "/token"): self.token}
        self.down = 0  # the next requests answered 503 Service Unavailable: the platform is down
        self._lock = threading.Lock()
        self.closed = False
        server = self

        class RequestHandler(BaseHTTPRequestHandler):
            def do_GET(self):
                server._answer(self, "GET")

            def do_POST(self):
                server._answer(self, "POST")

            def do_PUT(self):
                server._answer(self, "PUT")

            def do_DELETE(self):
                server._answer(self, "DELETE")

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), RequestHandler)
        self.httpd.daemon_threads = True
        self.httpd.timeout = WAIT_SECONDS
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.token_url = self.url("/token")
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return self.base_url + path

    def close(self) -> None:
        """Stops serving: the platform is down from now on (a second call does nothing)."""
        if self.closed:
            return
        self.closed = True
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=WAIT_SECONDS)
        assert not self.thread.is_alive()

    def _answer(self, http: BaseHTTPRequestHandler, method: str) -> None:
        parts = urlsplit(http.path)
        length = int(http.headers.get("Content-Length") or 0)
        request = ServiceRequest(
            method=method,
            path=parts.path,
            query=dict(parse_qsl(parts.query)),
            headers={name.lower(): value for name, value in http.headers.items()},
            body=http.rfile.read(length) if length else b"",
        )
        with self._lock:
            self.requests.append(request)
        handler = self.routes.get((method, parts.path))
        with self._lock:
            down, self.down = self.down > 0, max(self.down - 1, 0)
        if down:
            reply = Reply(503, "Service Unavailable", content_type="text/plain")
        else:
            reply = handler(request) if handler else Reply(404, {"error": "not found"})
        body = reply.encoded()
        http.send_response(reply.status)
        if body:
            http.send_header("Content-Type", reply.content_type)
        for name, value in reply.headers.items():
            http.send_header(name, value)
        http.send_header("Content-Length", str(len(body)))
        http.end_headers()
        http.wfile.write(body)

    # --- OAuth2 client credentials --------------------------------------------------------------

    def _config(self):
        config = self.platform.config()
        config.get_registration().set_tool_key_set(self.tool_jwks)
        return config

    def token(self, request: ServiceRequest) -> Reply:
        """An access token for a signed client assertion, with the scopes asked for that the
        platform offers (RFC 6749 4.4, IMS Security Framework 4.1)."""
        form = request.form
        if form.get("grant_type") != "client_credentials":
            return oauth_error(400, "unsupported_grant_type", "client_credentials only")
        if form.get("client_assertion_type") != JWT_BEARER or not form.get("client_assertion"):
            return oauth_error(401, "invalid_client", "a JWT client assertion is required")
        if "scope" not in form:
            return oauth_error(400, "invalid_request", "no scope")
        refusal = self._assertion_refusal(form["client_assertion"])
        if refusal:
            return oauth_error(401, "invalid_client", refusal)
        try:
            answer = self._config().get_access_token(form)  # lti1p3platform's own checks
        except (LtiException, jwt.PyJWTError) as error:
            return oauth_error(401, "invalid_client", str(error))
        if not answer["scope"]:
            return oauth_error(400, "invalid_scope", "none of the scopes is offered")
        self.tokens_issued += 1
        return Reply(200, dict(answer))

    def _assertion_refusal(self, assertion: str) -> str:
        """What is wrong with the tool's client assertion, or "" if nothing is."""
        client_id = self.platform.client_id
        try:
            kid = jwt.get_unverified_header(assertion).get("kid")
            keys = [key for key in jwt.PyJWKSet.from_dict(self.tool_jwks).keys if key.key_id == kid]
        except jwt.PyJWTError as error:
            return f"the tool's key set: {error}"
        if not keys:
            return f"no key {kid!r} in the tool's key set"
        try:
            claims = jwt.decode(
                assertion,
                keys[0].key,
                algorithms=["RS256"],
                audience=self.token_url,
                issuer=client_id,
                options={"require": ASSERTION_CLAIMS},
            )
        except jwt.PyJWTError as error:
            return f"client assertion: {error}"
        if claims["sub"] != client_id:
            return "client assertion: sub is not the client id"
        with self._lock:
            if claims["jti"] in self.spent_jtis:
                return "client assertion: jti already used"
            self.spent_jtis.add(claims["jti"])
        return ""

    def authorized(self, request: ServiceRequest, scope: str) -> Reply | None:
        """None if the request's bearer token is this platform's and grants ``scope``; else the
        401 to answer."""
        token = request.bearer
        if not token:
            return oauth_error(401, "invalid_token", "no bearer token")
        try:
            granted = self._config().validate_token(token, allowed_scopes=[scope])
        except (LtiException, jwt.PyJWTError) as error:
            return oauth_error(401, "invalid_token", str(error))
        if not granted:
            return oauth_error(401, "insufficient_scope", f"the token does not grant {scope}")
        return None


def member(
    user_id: str,
    role: str = "Learner",
    *,
    name: str = "",
    status: str = "",
    email: str = "",
    given_name: str = "",
    family_name: str = "",
) -> dict:
    """One member of an NRPS membership container; ``role``: a short name or a full URI."""
    data: dict = {"user_id": user_id, "roles": [role]}
    if role and "#" not in role and "/" not in role:
        data["roles"] = [f"http://purl.imsglobal.org/vocab/lis/v2/membership#{role}"]
    for key, value in (
        ("name", name),
        ("status", status),
        ("email", email),
        ("given_name", given_name),
        ("family_name", family_name),
    ):
        if value:
            data[key] = value
    return data


class Memberships:
    """A course's membership container (NRPS 2.0, "Context membership service") at
    ``/courses/<n>/memberships``: ``members`` as the platform lists them now, ``page_size`` at a
    time, the next page named by a ``Link: <...>; rel="next"`` header. The page cursor is an
    opaque token with capitals in it, as platforms' are: a client must use the link as given."""

    _count = 0

    def __init__(
        self,
        services: ServicePlatform,
        context_id: str,
        members: list[dict],
        *,
        page_size: int | None = None,
        title: str = "Year 3 maths",
    ):
        Memberships._count += 1
        self.services = services
        self.context_id = context_id
        self.title = title
        self.members = members
        self.page_size = page_size
        self.path = f"/courses/{Memberships._count}/memberships"
        self.url = services.url(self.path)
        self.cursors: dict[str, int] = {}
        services.routes[("GET", self.path)] = self

    def __call__(self, request: ServiceRequest) -> Reply:
        refused = self.services.authorized(request, NRPS_SCOPE)
        if refused:
            return refused
        if NRPS_MEDIA_TYPE not in request.headers.get("accept", ""):
            return Reply(406, {"error": f"Accept {NRPS_MEDIA_TYPE}"})
        start = 0
        if "cursor" in request.query:
            if request.query["cursor"] not in self.cursors:
                return Reply(400, {"error": "unknown page cursor"})
            start = self.cursors[request.query["cursor"]]
        end = len(self.members) if self.page_size is None else start + self.page_size
        headers = {}
        if end < len(self.members):
            cursor = "Pg" + secrets.token_urlsafe(8) + "Q"
            self.cursors[cursor] = end
            headers["Link"] = f'<{self.url}?{urlencode({"cursor": cursor})}>; rel="next"'
        return Reply(
            200,
            {
                "id": self.url,
                "context": {"id": self.context_id, "label": self.context_id, "title": self.title},
                "members": self.members[start:end],
            },
            content_type=NRPS_MEDIA_TYPE,
            headers=headers,
        )


AGS_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/"
LINEITEM_MEDIA_TYPE = "application/vnd.ims.lis.v2.lineitem+json"
LINEITEMS_MEDIA_TYPE = "application/vnd.ims.lis.v2.lineitemcontainer+json"
SCORE_MEDIA_TYPE = "application/vnd.ims.lis.v1.score+json"
ACTIVITY_PROGRESS = {"Initialized", "Started", "InProgress", "Submitted", "Completed"}
GRADING_PROGRESS = {"FullyGraded", "Pending", "PendingManual", "Failed", "NotReady"}


class Gradebook:
    """A course's gradebook (Assignment and Grade Services 2.0): its line items container at
    ``/courses/<n>/lineitems`` (GET lists them, filtered by ``resource_id``, ``tag`` or
    ``resource_link_id``, ``page_size`` at a time with a ``Link: rel="next"``; POST makes one),
    each line item at ``.../lineitems/<k>``, and its scores service at ``.../lineitems/<k>/scores``
    (POST). A score is checked as the specification says (media type, the required members, a
    scoreGiven with its scoreMaximum, a timestamp no older than the last one taken for that user:
    409 otherwise) and kept in ``scores`` as received, with its line item's id."""

    _count = 0

    def __init__(self, services: ServicePlatform, *, page_size: int | None = None):
        Gradebook._count += 1
        self.services = services
        self.page_size = page_size
        self.path = f"/courses/{Gradebook._count}/lineitems"
        self.lineitems_url = services.url(self.path)
        self.line_items: list[dict] = []
        self.made = 0
        self.scores: list[tuple[str, dict]] = []
        self.lock = threading.Lock()
        services.routes[("GET", self.path)] = self.list
        services.routes[("POST", self.path)] = self.create

    def claim(self, *, lineitem: str | None = None) -> dict:
        """The launch's endpoint claim, every scope granted (``lti1p3platform.ags.LtiAgs``)."""
        return {
            "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": {
                "scope": [AGS_SCOPE + s for s in ("lineitem", "result.readonly", "score")],
                "lineitems": self.lineitems_url,
                **({"lineitem": lineitem} if lineitem else {}),
            }
        }

    def add(self, **line_item) -> dict:
        """A column made on the platform's side (by a teacher, or a deep link's line item)."""
        self.made += 1
        path = f"{self.path}/{self.made}"
        item = {"id": self.services.url(path), **line_item}
        self.line_items.append(item)
        self.services.routes[("GET", path)] = lambda request: self.one(request, item)
        self.services.routes[("POST", path + "/scores")] = lambda request: self.score(request, item)
        return item

    def remove(self, item: dict) -> None:
        """A column the teacher deleted on the platform: its address answers 404 from now on."""
        self.line_items.remove(item)
        path = urlsplit(item["id"]).path
        del self.services.routes[("GET", path)]
        del self.services.routes[("POST", path + "/scores")]

    def scores_of(self, item: dict) -> list[dict]:
        return [score for line_item, score in self.scores if line_item == item["id"]]

    def list(self, request: ServiceRequest) -> Reply:
        refused = self.services.authorized(request, AGS_SCOPE + "lineitem.readonly")
        refused = refused and self.services.authorized(request, AGS_SCOPE + "lineitem")
        if refused:
            return refused
        if LINEITEMS_MEDIA_TYPE not in request.headers.get("accept", ""):
            return Reply(406, {"error": f"Accept {LINEITEMS_MEDIA_TYPE}"})
        found = [
            item
            for item in self.line_items
            if all(
                item.get(member) == request.query[parameter]
                for parameter, member in (
                    ("resource_id", "resourceId"),
                    ("tag", "tag"),
                    ("resource_link_id", "resourceLinkId"),
                )
                if parameter in request.query
            )
        ]
        start = int(request.query.get("from", 0))
        end = len(found) if self.page_size is None else start + self.page_size
        headers = {}
        if end < len(found):
            query = {**request.query, "from": end}
            headers["Link"] = f'<{self.lineitems_url}?{urlencode(query)}>; rel="next"'
        return Reply(200, found[start:end], content_type=LINEITEMS_MEDIA_TYPE, headers=headers)

    def create(self, request: ServiceRequest) -> Reply:
        refused = self.services.authorized(request, AGS_SCOPE + "lineitem")
        if refused:
            return refused
        if request.headers.get("content-type", "").split(";")[0] != LINEITEM_MEDIA_TYPE:
            return Reply(415, {"error": f"Content-Type {LINEITEM_MEDIA_TYPE}"})
        data = request.json()
        if not isinstance(data, dict) or not data.get("label"):
            return Reply(400, {"error": "a line item needs a label"})
        if not isinstance(data.get("scoreMaximum"), int | float) or data["scoreMaximum"] <= 0:
            return Reply(400, {"error": "a line item needs a positive scoreMaximum"})
        data.pop("id", None)
        return Reply(201, self.add(**data), content_type=LINEITEM_MEDIA_TYPE)

    def one(self, request: ServiceRequest, item: dict) -> Reply:
        refused = self.services.authorized(request, AGS_SCOPE + "lineitem.readonly")
        refused = refused and self.services.authorized(request, AGS_SCOPE + "lineitem")
        return refused or Reply(200, item, content_type=LINEITEM_MEDIA_TYPE)

    def score(self, request: ServiceRequest, item: dict) -> Reply:
        refused = self.services.authorized(request, AGS_SCOPE + "score")
        if refused:
            return refused
        if request.headers.get("content-type", "").split(";")[0] != SCORE_MEDIA_TYPE:
            return Reply(415, {"error": f"Content-Type {SCORE_MEDIA_TYPE}"})
        score = request.json()
        missing = [
            member
            for member in ("userId", "activityProgress", "gradingProgress", "timestamp")
            if not isinstance(score, dict) or member not in score
        ]
        if missing:
            return Reply(400, {"error": f"a score needs {', '.join(missing)}"})
        if score["activityProgress"] not in ACTIVITY_PROGRESS:
            return Reply(400, {"error": "unknown activityProgress"})
        if score["gradingProgress"] not in GRADING_PROGRESS:
            return Reply(400, {"error": "unknown gradingProgress"})
        if "scoreGiven" in score and not (
            isinstance(score["scoreGiven"], int | float)
            and isinstance(score.get("scoreMaximum"), int | float)
            and score["scoreMaximum"] > 0
            and score["scoreGiven"] >= 0
        ):
            return Reply(400, {"error": "scoreGiven needs a positive scoreMaximum"})
        when = datetime.fromisoformat(score["timestamp"])
        if when.tzinfo is None:
            return Reply(400, {"error": "a timestamp needs its offset"})
        with self.lock:
            earlier = [
                datetime.fromisoformat(taken["timestamp"])
                for taken in self.scores_of(item)
                if taken["userId"] == score["userId"]
            ]
            if earlier and when < max(earlier):
                return Reply(409, {"error": "a score older than the last one taken"})
            self.scores.append((item["id"], score))
        return Reply(200, None)
