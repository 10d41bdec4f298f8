"""PostgreSQL refusing connections under a real Daphne process whose database is reached through a
proxy of the test's own (tests/pg_proxy.py), with the session cookies browsers really send:

- the health probes touch nothing they do not report on, whatever cookies come: ``/livez`` answers
  200 at once, ``/readyz`` says the database is down (503 with its body, never a 500);
- a page that needs the database answers 503 with a "try again in a minute" page in the
  visitor's language and ``Retry-After``, within seconds, and the log gets one line, never a
  traceback; a page that needs no database (the class code form) still answers 200;
- once PostgreSQL answers again, the same pages work.
"""

import http.client
import re
import time
from urllib.parse import urlsplit

import pytest
from django.urls import reverse

from tests.factories import make_class, make_student, session_cookie_for
from tests.games.test_postgres_outage import through
from tests.pg_proxy import PostgresProxy
from tools.loadtest.servers import DaphneFleet

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services, pytest.mark.slow]

CHECK_TIMEOUT_S = 3  # config/health.py
# A page waits for a database connection no longer than the pool's timeout (config/settings.py).
PAGE_ANSWERED_WITHIN_S = 5
ANY_SESSION = "sessionid=no-such-session-0123456789abcdef"


class Answer:
    def __init__(self, status: int, headers: dict, body: str, took: float):
        self.status, self.headers, self.body, self.took = status, headers, body, took

    def __repr__(self):
        return f"<{self.status} in {self.took:.2f} s: {self.body[:300]!r}>"


def ask(base: str, path: str, *, method="GET", headers=None, body=None, timeout=30) -> Answer:
    """One request, as a browser sends it, without following redirects."""
    address = urlsplit(base.replace("ws://", "http://"))
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=timeout)
    started = time.monotonic()
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        text = response.read().decode("utf-8", errors="replace")
        return Answer(
            response.status, dict(response.getheaders()), text, time.monotonic() - started
        )
    finally:
        connection.close()


def csrf_form(base: str, path: str) -> tuple[str, str]:
    """The CSRF cookie and the form's token of the page at ``path``."""
    page = ask(base, path)
    assert page.status == 200, page
    cookie = re.search(r"csrftoken=([^;]+)", page.headers.get("Set-Cookie", "")).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.body).group(1)
    return cookie, token


def assert_try_again_page(answer: Answer, *, spanish=False) -> None:
    assert answer.status == 503, answer
    assert answer.headers.get("Retry-After") == "60", answer.headers
    if spanish:
        assert "Vuelve a intentarlo en un minuto" in answer.body, answer
    else:
        assert "Try again in a minute" in answer.body, answer
    assert answer.took < PAGE_ANSWERED_WITHIN_S, answer


@pytest.mark.timeout(120)
def test_probes_with_a_session_cookie_touch_no_database_while_postgresql_refuses(services):
    teacher_cookie = session_cookie_for(make_class().teacher)
    with PostgresProxy() as proxy, DaphneFleet(1, env={"DATABASE_URL": through(proxy)}) as fleet:
        base = fleet.urls[0]
        assert ask(base, "/livez", headers={"Cookie": teacher_cookie}).status == 200
        proxy.refuse()
        try:
            for cookie in (ANY_SESSION, teacher_cookie, f"{ANY_SESSION}; csrftoken=x"):
                live = ask(base, "/livez", headers={"Cookie": cookie})
                assert live.status == 200 and live.body == '{"status": "ok"}', live
                assert live.took < 1, live
                for readiness in ("/readyz", "/healthz"):
                    ready = ask(base, readiness, headers={"Cookie": cookie})
                    assert ready.status == 503, ready
                    assert '"database": "down: ' in ready.body, ready
                    assert ready.took < CHECK_TIMEOUT_S + 1, ready
        except BaseException:
            print(fleet.log_tail())
            raise
        assert "Traceback" not in fleet.log_tail(50_000), fleet.log_tail(50_000)


@pytest.mark.timeout(150)
def test_pages_that_need_the_database_say_try_again_while_postgresql_refuses(services):
    classroom = make_class()
    teacher_cookie = session_cookie_for(classroom.teacher)
    student_cookie = session_cookie_for(make_student(classroom, "Ana"))
    teacher_home = reverse("classroom:teacher_home")
    code_page = reverse("classroom:student_login")
    with PostgresProxy() as proxy, DaphneFleet(1, env={"DATABASE_URL": through(proxy)}) as fleet:
        base = fleet.urls[0]
        try:
            assert ask(base, teacher_home, headers={"Cookie": teacher_cookie}).status == 200
            proxy.refuse()
            # Twice: the second finds the pool's connections gone too.
            for _ in range(2):
                # A teacher's page: the session and the user are read before the view.
                answer = ask(base, teacher_home, headers={"Cookie": teacher_cookie})
                assert_try_again_page(answer)
                answer = ask(
                    base,
                    teacher_home,
                    headers={"Cookie": teacher_cookie, "Accept-Language": "es"},
                )
                assert_try_again_page(answer, spanish=True)
            # A shared tablet with a child's session from earlier opens the class code page.
            assert_try_again_page(ask(base, code_page, headers={"Cookie": student_cookie}))
            # A fresh tablet: the code form needs no database; the code it sends does (the view).
            csrf_cookie, token = csrf_form(base, code_page)
            answer = ask(
                base,
                code_page,
                method="POST",
                headers={
                    "Cookie": f"csrftoken={csrf_cookie}",
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Referer": base.replace("ws://", "http://") + code_page,
                },
                body=f"csrfmiddlewaretoken={token}&code={classroom.code}",
            )
            assert_try_again_page(answer)
            log = fleet.log_tail(50_000)

            proxy.forward()
            # Back: the pool reconnects within its backoff.
            deadline = time.monotonic() + 15
            answer = ask(base, teacher_home, headers={"Cookie": teacher_cookie})
            while answer.status != 200 and time.monotonic() < deadline:
                time.sleep(0.5)
                answer = ask(base, teacher_home, headers={"Cookie": teacher_cookie})
            assert answer.status == 200, answer
        except BaseException:
            print(fleet.log_tail())
            raise
        assert "Traceback" not in fleet.log_tail(50_000), fleet.log_tail(50_000)
        # One line for each refused page (django.request's), saying why.
        refused = [line for line in log.splitlines() if "Service Unavailable: " in line]
        assert len(refused) == 6, log  # the teacher's home four times, the code page twice
        assert all("(the database is unavailable: OperationalError: " in line for line in refused)
