"""The independent platform's side of LTI Deep Linking 2.0 (https://www.imsglobal.org/spec/lti-dl/v2p0).

``lti1p3platform`` builds the LtiDeepLinkingRequest (its ``set_dl``: the deep_linking_settings
claim with the return URL and the platform's opaque ``data``) and checks the answer's signature
against the tool's key set, fetched from the tool's /lti/.well-known/jwks.json
(``validate_deeplinking_resp``). What it leaves unchecked, as the spec asks a platform to check
(the audience is the platform's issuer, the issuer the tool's client id, the expiry, the
deployment, a nonce, the data sent back), is checked here with PyJWT against the same keys."""

from __future__ import annotations

from html.parser import HTMLParser

import jwt

from .platform import Course, GetRequest, Launch, Person, Platform, PlatformConfig

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
DL = "https://purl.imsglobal.org/spec/lti-dl/claim/"
RETURN_URL = "https://platform.test/course/3/deep_link_return"
DATA = "platform-state-7f3a"  # opaque to the tool: it must come back as it went


def deep_linking_request(
    platform: Platform,
    auth_params: dict,
    person: Person,
    course: Course,
    *,
    return_url: str = RETURN_URL,
) -> dict:
    """What the platform posts to the tool's launch URL for "Select content": id_token, state,
    launch_url. The launch URL doubles as the Content Selection URL; the tool's answer goes to
    ``return_url``."""
    registration = platform.registration().set_deeplink_launch_url(platform.tool_launch_url)
    launch = Launch(GetRequest(auth_params), PlatformConfig(registration=registration))
    launch.set_id_token_expiration(platform.id_token_seconds)
    launch.set_user_data(person.sub, person.roles, full_name=person.name or None)
    launch.set_launch_context_claim(course.id, context_title=course.title)
    launch.set_dl(
        return_url,
        title="Arithmetic games",
        accept_types={"ltiResourceLink"},
        extra_data=DATA,
    )
    return launch.lti_launch()


def response_checked(platform: Platform, token: str, tool_key_set: dict) -> dict:
    """The tool's LtiDeepLinkingResponse as the platform accepts it, or an exception: the
    signature and message type by lti1p3platform, the rest by PyJWT (``jwt.PyJWTError``)."""
    registration = platform.registration().set_tool_key_set(tool_key_set)
    config = PlatformConfig(registration=registration)
    config.get_registration()  # the platform looks its registration up first
    config.set_accepted_deeplinking_types(["ltiResourceLink"])
    config.validate_deeplinking_resp({"JWT": token})
    kid = jwt.get_unverified_header(token)["kid"]
    key = next(jwt.PyJWK(k) for k in tool_key_set["keys"] if k["kid"] == kid)
    claims = jwt.decode(
        token,
        key,
        algorithms=["RS256"],
        audience=platform.issuer,
        issuer=platform.client_id,
        options={"require": ["exp", "iat", "nonce", "iss", "aud"]},
    )
    assert claims[CLAIM + "deployment_id"] == platform.deployment_id
    assert claims[CLAIM + "message_type"] == "LtiDeepLinkingResponse"
    assert claims[CLAIM + "version"] == "1.3.0"
    assert claims[DL + "data"] == DATA
    return claims


def content_items(claims: dict) -> list[dict]:
    return claims[DL + "content_items"]


class Forms(HTMLParser):
    """A page's forms as a browser would post them: action, and each named field's value (the
    checked radio, the selected option, a checked box), its submit buttons apart."""

    def __init__(self, html: str):
        super().__init__()
        self.forms: list[dict] = []
        self._select: str | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append(
                {"action": attrs.get("action"), "fields": {}, "buttons": [], "options": {}}
            )
        elif not self.forms:
            return
        form = self.forms[-1] if self.forms else None
        name = attrs.get("name")
        if tag == "input" and name:
            kind = attrs.get("type", "text")
            if kind == "submit":
                form["buttons"].append(name)
            elif kind in ("radio", "checkbox"):
                if "checked" in attrs:
                    form["fields"][name] = attrs.get("value", "on")
            else:
                form["fields"][name] = attrs.get("value", "")
        elif tag == "button":
            form["buttons"].append(name or "")
        elif tag == "select":
            self._select = name
            form["options"][name] = []
        elif tag == "option" and self._select:
            form["options"][self._select].append(attrs.get("value"))
            if "selected" in attrs or self._select not in form["fields"]:
                form["fields"][self._select] = attrs.get("value")

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def forms_of(html: str) -> list[dict]:
    return Forms(html).forms
