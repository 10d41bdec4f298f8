"""The Content-Security-Policy (config/settings.py, django-csp) on every kind of page, in a real
Chromium: the header is there, and no page breaks it (no inline script or style, no socket or
image from elsewhere) while it loads, draws its charts and opens its websocket."""

from __future__ import annotations

import pytest

from tests.browser.conftest import add_session_cookie, signed_in_page

pytestmark = pytest.mark.browser

SETUP = """
import datetime, json
from django.utils import timezone
from classroom.sessions.services import session_join, session_start
from games.models import Match
from tests.factories import (
    make_attempts, make_class, make_match, make_session, make_student, make_teacher,
    session_cookie_for,
)

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher, name="Class 4A")
ana, ben = make_student(classroom, "Ana"), make_student(classroom, "Ben", secret="1111")
now = timezone.now()
for student in (ana, ben):
    make_attempts(student, [
        (a, op, b, a + b if op == "+" else a * b + (d % 3 == 0), 1500 + 100 * d,
         now - datetime.timedelta(days=d))
        for d in range(20) for a, op, b in ((3, "+", 4), (6, "x", 7))
    ])
session = make_session(classroom, game="add_up", variant="no_jokers", table_size=2)
for student in (ana, ben):
    session_join(session=session, student=student)
session_start(session=session)
match = Match.objects.filter(session_table__session=session).first()
solo = make_match(game="mia", variant="solo3", players=[ana], seed=4)
print(json.dumps({
    "teacher": session_cookie_for(teacher),
    "student": session_cookie_for(ana),
    "class": classroom.pk,
    "ana": ana.pk,
    "session": session.pk,
    "match": match.pk,
    "solo": solo.pk,
    "code": classroom.code,
}))
"""

# Collects what the page reports before any of its own scripts runs.
LISTEN = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(
    `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
});
"""


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("csp", setup=SETUP) as site:
        yield site


def pages(made):
    base = f"/teacher/classes/{made['class']}"
    visitor = [
        "/",
        "/student/",
        f"/student/{made['code']}/",
        "/accounts/login/",
        "/card/",
    ]
    teacher = [
        "/teacher/",
        f"{base}/",
        f"{base}/students/{made['ana']}/",
        f"{base}/progress/",
        f"{base}/progress/facts/",
        f"{base}/progress/{made['ana']}/",
        f"/teacher/sessions/{made['session']}/",
        f"/teacher/sessions/{made['session']}/projector/",
        "/teacher/matches/new/",
    ]
    student = ["/me/", f"/play/{made['match']}/", f"/play/{made['solo']}/"]
    return (
        [(None, p) for p in visitor]
        + [("teacher", p) for p in teacher]
        + [("student", p) for p in student]
    )


def test_every_kind_of_page_has_a_policy_that_nothing_on_it_breaks(browser, server):
    # One tab per person, each of their pages opened in it in turn: a new tab for each page cost
    # Chromium a renderer of its own and a cold first load. LISTEN runs in every new document, so
    # each navigation starts an empty list of its own; the console is the tab's, emptied before
    # each navigation so that what it holds is this page's.
    contexts, tabs = {}, {}
    try:
        for who, path in pages(server.made):
            if who not in tabs:
                context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en")
                contexts[who] = context
                if who:
                    add_session_cookie(context, server.url, server.made[who])
                context.add_init_script(LISTEN)
                tab = context.new_page()
                tab.set_default_timeout(10_000)
                console = []
                tab.on(
                    "console",
                    lambda message, console=console: (
                        console.append(message.text)
                        if "Content Security Policy" in message.text
                        else None
                    ),
                )
                tabs[who] = tab, console
            page, console = tabs[who]
            console.clear()
            response = page.goto(server.url + path)
            assert response.status == 200, (path, response.status)
            policy = response.headers.get("content-security-policy", "")
            assert "script-src 'self'" in policy and "connect-src 'self'" in policy, path
            page.wait_for_load_state("load")
            # Long enough for the page's modules to run and its socket to open.
            page.wait_for_timeout(700)
            violations = page.evaluate("window.__cspViolations")
            assert (violations, console) == ([], []), path
    finally:
        for context in contexts.values():
            context.close()


def test_a_blocked_inline_script_is_reported(browser, server):
    """The listener hears a violation when there is one (so silence above means none)."""
    page = signed_in_page(browser, server, None, "/", viewport={"width": 800, "height": 600})
    try:
        page.evaluate(LISTEN)
        page.evaluate(
            "() => { const s = document.createElement('script');"
            " s.textContent = 'window.ran = 1'; document.body.append(s); }"
        )
        page.wait_for_function("window.__cspViolations.length > 0", timeout=5_000)
        assert page.evaluate("window.ran") is None
    finally:
        page.context.close()
