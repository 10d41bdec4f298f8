import contextlib
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import copy_database, embedded_environment

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Flags for a sandboxed CI machine with no network but loopback (see the env notes in README).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def browser():
    # Module scope: Playwright's sync API keeps an event loop running in this thread while it is
    # open, which would break the async tests that run after the browser tests.
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.fail(
            "Chromium is missing: run `make test` (it installs the Debian package chromium)"
        )
    # Playwright's sync API runs an event loop in this thread; Django's ORM calls made by the
    # test itself (data set-up) are still synchronous and safe.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


# --- the site in a real Daphne -------------------------------------------------------------------
# pytest-django's live_server speaks WSGI only (no websockets), so the tests of the play pages
# run the site in a Daphne process, embedded (in-memory channel layer, Celery tasks run eagerly)
# on a SQLite file of its own, which the tests read to check what the pages did.


@dataclass
class Site:
    url: str
    database: Path  # the SQLite file the site serves
    folder: Path
    log: Path
    made: dict = field(default_factory=dict)  # what the set-up script printed, as JSON

    def rows(self, sql: str, *args) -> list[tuple]:
        with sqlite3.connect(self.database) as db:
            return db.execute(sql, args).fetchall()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, log: Path, timeout: float = 60.0):
    """Daphne imports the application (Django set up) before it listens: once the port answers,
    the site does."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        if process.poll() is not None:
            pytest.fail(f"Daphne exited:\n{log.read_text(errors='replace')[-3000:]}")
        if time.monotonic() > deadline:
            pytest.fail(f"Daphne did not listen within {timeout} s")
        time.sleep(0.1)


def _site_environment(folder: Path, database: Path) -> dict[str, str]:
    env = embedded_environment(database)
    env.update(MEDIA_ROOT=str(folder / "media"), GAMES_BOT_DELAY_SCALE="0.05")
    return env


@pytest.fixture(scope="session")
def daphne_site(tmp_path_factory, migrated_database):
    """Starts the site: ``with daphne_site("name", setup=CODE) as site:`` in a module's fixture.
    The database starts migrated and empty, then ``setup`` (Python run with Django set up, e.g.
    the project's factories) fills it; if it prints, its last line is JSON and becomes
    ``site.made``. ``extra_env`` adds to the environment
    (``DJANGO_SETTINGS_MODULE="tests.settings"``). ``tls=(certificate, key)`` (PEM files) serves
    it over HTTPS instead, at https://127.0.0.1:<port>."""

    @contextlib.contextmanager
    def start(
        name: str,
        setup: str | None = None,
        extra_env: dict | None = None,
        tls: tuple[Path, Path] | None = None,
    ):
        folder = tmp_path_factory.mktemp(name)
        database = folder / "site.sqlite3"
        env = _site_environment(folder, database)
        env.update(extra_env or {})
        python = sys.executable
        copy_database(migrated_database, database)
        made = {}
        if setup is not None:
            script = "import django\ndjango.setup()\n" + setup
            made_by = subprocess.run(
                [python, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
            )
            if made_by.returncode:
                pytest.fail(f"the site's set-up failed:\n{made_by.stderr[-3000:]}")
            printed = made_by.stdout.strip()
            if printed:
                made = json.loads(printed.splitlines()[-1])
        port = free_port()
        log = folder / "daphne.log"
        listen = ["-b", "127.0.0.1", "-p", str(port)]
        if tls is not None:  # Twisted's TLS endpoint, which Daphne takes as it is
            certificate, key = tls
            endpoint = f"ssl:{port}:interface=127.0.0.1:privateKey={key}:certKey={certificate}"
            listen = ["-e", endpoint]
        with log.open("wb") as output:
            process = subprocess.Popen(
                [python, "-m", "config.server", *listen, "config.asgi:application"],
                cwd=ROOT,
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            wait_for_port(port, process, log)
            scheme = "https" if tls is not None else "http"
            yield Site(f"{scheme}://127.0.0.1:{port}", database, folder, log, made)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            print(log.read_text(errors="replace")[-3000:])  # shown when a test failed

    return start


# --- signing in ----------------------------------------------------------------------------------


def add_session_cookie(context, url: str, cookie: str) -> None:
    """Signs the browser context in with a session cookie (``tests.factories.session_cookie_for``
    makes one), as if the user had signed in on the site at ``url``."""
    from tools.signed_in import cookie_parts

    name, value = cookie_parts(cookie)
    context.add_cookies([{"name": name, "value": value, "url": url}])


def signed_in_page(browser, site, cookie, path, *, viewport, locale="en", **context_options):
    """A page of a new browser context signed in with ``cookie`` (None: a visitor), opened at
    ``path`` of the site; close it with ``page.context.close()``."""
    context = browser.new_context(viewport=viewport, locale=locale, **context_options)
    if cookie:
        add_session_cookie(context, site.url, cookie)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(site.url + path)
    return page


def student_signs_in_with_pin(page, url: str, code: str, name: str, pin: str) -> None:
    """The student's way in: the class code, their name, their PIN; they land on their home."""
    page.goto(url + "/student/")
    page.get_by_label("Class code").fill(code)
    page.get_by_role("button", name="Next").click()
    page.get_by_role("link", name=name).click()
    page.get_by_label("Your PIN").fill(pin)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name=f"Hello, {name}!")).to_be_visible()
