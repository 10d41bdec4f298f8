"""The learning platform's pages, as a browser meets them, on 127.0.0.1 (over HTTP, or over HTTPS
at https://localhost:<port> with a given certificate). What they post is signed by the independent
platform (lti1p3platform, tests/lti/platform.py):

- ``/course/<sub>``: the course as that person sees it, the tool in a frame; with
  ``?link=<name>&open=window``, the tool's link opens in the window itself instead (a platform's
  "open in a new window" links). ``link`` is ``select`` for the teacher's "Select content" (Deep
  Linking), or a link the platform saved (``links``).
- ``/frame?src=URL``: any page in a frame (the platform's origin, or a stranger's).
- ``/auth``: the authorization endpoint the tool's login sends the browser to; it answers with
  the signed launch (with ``claims`` added, the person's language on the platform if ``locales``
  has it, and the saved link's custom parameters), posted at once by its own script.
- ``/deep-link-return``: where the tool's LtiDeepLinkingResponse comes back; the platform checks
  it (``deep_linking_platform.response_checked``) and saves each content item as a link,
  ``link-1``, ``link-2``...
"""

from __future__ import annotations

import html
import json
import ssl
import threading
import traceback
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

from .deep_linking_platform import content_items, deep_linking_request, response_checked
from .platform import WAIT_SECONDS, Course, Person, Platform

TOOL_TITLE = "Arithmetic games"
LAUNCH_PRESENTATION = "https://purl.imsglobal.org/spec/lti/claim/launch_presentation"
SELECT = "select"


class PlatformSite:
    def __init__(
        self,
        *,
        people: dict[str, Person],
        course: Course,
        certificate: tuple[Path, Path] | None = None,
    ):
        self.platform: Platform | None = None  # set once the tool's URLs are known
        self.people = people
        self.course = course
        self.claims: dict = {}  # added to every resource-link launch (AGS's endpoint, say)
        self.locales: dict[str, str] = {}  # a person's language on the platform, by their sub
        self.links: dict[str, dict] = {}  # the links saved in the course: their custom parameters
        self.content_items: list[dict] = []  # as the tool's deep-linking responses brought them
        self.errors: list[str] = []  # what the platform's pages failed on
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                self.answer_with(site.page_for)

            def do_POST(self):
                self.answer_with(site.posted_to)

            def answer_with(self, page_for):
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                form = dict(parse_qsl(self.rfile.read(length).decode())) if length else {}
                try:
                    status, body = page_for(parts.path, dict(parse_qsl(parts.query)), form)
                except Exception:  # the test reads it in ``errors``
                    site.errors.append(traceback.format_exc())
                    status, body = 500, "<!doctype html><title>Error</title><h1>Error</h1>"
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        host = "127.0.0.1"
        if certificate is not None:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*certificate)
            self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
            host = "localhost"
        self.httpd.timeout = WAIT_SECONDS
        scheme = "https" if certificate is not None else "http"
        self.url = f"{scheme}://{host}:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def course_url(self, person: Person, link: str = "", *, window: bool = False) -> str:
        query = {"link": link} if link else {}
        if window:
            query["open"] = "window"
        return f"{self.url}/course/{person.sub}" + (f"?{urlencode(query)}" if query else "")

    # --- the pages ---------------------------------------------------------------------------

    def page_for(self, path: str, query: dict, _form: dict) -> tuple[int, str]:
        if path.startswith("/course/"):
            person = self.people[path.removeprefix("/course/")]
            login = self.platform.login_url(person, hint=query.get("link") or "resource-link-1")
            if query.get("open") == "window":
                return 200, self.course_page(login, framed=False)
            return 200, self.course_page(login)
        if path == "/frame":
            return 200, self.course_page(query["src"])
        if path == "/auth":
            return 200, self.launch_form(query)
        return 404, "<!doctype html><title>Not found</title>"

    def posted_to(self, path: str, _query: dict, form: dict) -> tuple[int, str]:
        if path != "/deep-link-return":
            return 404, "<!doctype html><title>Not found</title>"
        claims = response_checked(self.platform, form["JWT"], self.tool_key_set())
        added = content_items(claims)
        for item in added:
            self.content_items.append(item)
            self.links[f"link-{len(self.content_items)}"] = item.get("custom") or {}
        titles = "".join(f"<li>{html.escape(item.get('title', ''))}</li>" for item in added)
        return 200, (
            f"<!doctype html><html lang='en'><title>{html.escape(self.course.title)}</title>"
            f"<h1>Added to {html.escape(self.course.title)}</h1><ul>{titles}</ul></html>"
        )

    def course_page(self, src: str, *, framed: bool = True) -> str:
        title = html.escape(self.course.title)
        tool = (
            f"<iframe title='{TOOL_TITLE}' src='{html.escape(src)}' width='900' height='600'>"
            "</iframe>"
            if framed
            else f"<p><a href='{html.escape(src)}'>{TOOL_TITLE}</a></p>"
        )
        return (
            f"<!doctype html><html lang='en'><title>{title}</title><h1>Course {title}</h1>"
            f"{tool}</html>"
        )

    def launch_form(self, auth_params: dict) -> str:
        """The platform's answer to the tool's login: its signed launch, posted at once."""
        person = self.people[auth_params["login_hint"]]
        hint = auth_params.get("lti_message_hint", "")
        if hint == SELECT:
            form = deep_linking_request(
                self.platform,
                auth_params,
                person,
                self.course,
                return_url=self.url + "/deep-link-return",
            )
        else:
            message = self.platform.launch_message(auth_params, person, self.course)
            if self.claims:
                message.set_extra_claims(self.claims)
            if person.sub in self.locales:
                message.set_extra_claims(
                    {LAUNCH_PRESENTATION: {"locale": self.locales[person.sub]}}
                )
            if hint in self.links:
                message.set_custom_parameters_claim(self.links[hint])
            form = message.lti_launch()
        fields = "".join(
            f"<input type='hidden' name='{name}' value='{html.escape(form[name])}'>"
            for name in ("id_token", "state")
        )
        return (
            "<!doctype html><html lang='en'><title>Launching</title>"
            f"<form method='post' action='{html.escape(form['launch_url'])}'>{fields}</form>"
            "<script>document.forms[0].submit()</script></html>"
        )

    def tool_key_set(self) -> dict:
        """The tool's key set, fetched from it as a platform does, to check what it signed."""
        parts = urlsplit(self.platform.tool_launch_url)
        url = f"{parts.scheme}://{parts.netloc}/lti/.well-known/jwks.json"
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # its test certificate
        with urllib.request.urlopen(url, timeout=WAIT_SECONDS, context=context) as answer:
            return json.loads(answer.read())

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=WAIT_SECONDS)
        assert not self.thread.is_alive()
