import contextlib
import fcntl
import inspect
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# "dev" keeps the suite quick; CI runs more examples. HYPOTHESIS_PROFILE picks one explicitly.
settings.register_profile(
    "dev", max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

SERVICES_REQUIRED = bool(os.environ.get("CI") or os.environ.get("REQUIRE_SERVICES"))
ROOT = Path(__file__).resolve().parents[1]
ENGINE_TESTS = ROOT / "tests" / "engine"
# Checks of the project's files alone (the docs, the style sheets and templates, the front end's
# modules, the product's imports) and of the settings, each probed in a process of its own whose
# environment drops the run's DATABASE_URL and REDIS_URL: no database or channel layer changes
# what they do, so the services pass would only run them again (about a minute of its time).
SAME_IN_EVERY_ENVIRONMENT = {
    ROOT / "tests" / path
    for path in (
        "site/test_docs.py",
        "site/test_direction_safe_styles.py",
        "site/test_front_end_modules.py",
        "site/test_import_cycles.py",
        "config/test_settings.py",
    )
}
# What the test run's own environment must not hand to a site or a command it starts on a SQLite
# file of its own: its service settings and an outer `make`'s variables (MAKEFLAGS would carry the
# outer command line's DATABASE_URL).
OUTER_VARIABLES = {
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_ENV",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "MAKEFLAGS",
    "MFLAGS",
    "MAKELEVEL",
}


def embedded_environment(database: Path) -> dict[str, str]:
    """The environment of a process that runs embedded on the SQLite file ``database``."""
    env = {k: v for k, v in os.environ.items() if k not in OUTER_VARIABLES}
    env.update(
        DATABASE_URL=f"sqlite:///{database}",
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",
    )
    return env


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory) -> Path:
    """An empty, migrated SQLite database, made once per test run: migrating costs about 6 s of
    CPU, and some thirty sites start in a run. The xdist workers share it (the first to ask makes
    it while the others wait on the lock); copy it with ``copy_database``, never write to it."""
    run_folder = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run_folder = run_folder.parent  # the folder of this run's workers' folders
    database = run_folder / "migrated.sqlite3"
    made = run_folder / "migrated.done"
    with (run_folder / "migrated.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not made.exists():
            database.unlink(missing_ok=True)  # a worker that failed half-way
            subprocess.run(
                [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
                cwd=ROOT,
                env=embedded_environment(database),
                check=True,
                timeout=600,
            )
            made.touch()
    return database


@pytest.fixture
def one_make_run_at_a_time(tmp_path_factory):
    """Held by a test that runs `make run` in this checkout: two at once would compile the
    translations over each other while a server reads them."""
    run_folder = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run_folder = run_folder.parent
    with (run_folder / "make-run.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def copy_database(source: Path, destination: Path) -> None:
    # SQLite's own backup, not a file copy: the source is in WAL mode.
    with (
        contextlib.closing(sqlite3.connect(source)) as original,
        contextlib.closing(sqlite3.connect(destination)) as copy,
    ):
        original.backup(copy)


@pytest.fixture(autouse=True)
def _fast_password_hashing(request):
    # PBKDF2 is slow on purpose; tests that create many accounts do not need it to be. (Engine
    # tests may run without the Django plugin, hence the check.)
    if request.config.pluginmanager.hasplugin("django"):
        request.getfixturevalue("settings").PASSWORD_HASHERS = [
            "django.contrib.auth.hashers.MD5PasswordHasher"
        ]


@pytest.fixture(autouse=True)
def _forget_process_caches(request):
    # Databases that roll back between tests hand the same ids out again; a cache keyed by id
    # must not carry one test's answer into the next.
    if request.config.pluginmanager.hasplugin("django"):
        from classroom.sessions.receivers import forget_sessions_of_matches
        from classroom.sessions.selectors.tables import forget_table_facts

        forget_sessions_of_matches()
        forget_table_facts()


@pytest.fixture(autouse=True)
def _default_language(request):
    # A request in Spanish leaves Spanish active in the test's thread (LocaleMiddleware activates
    # and never deactivates): the next test on this worker would read Spanish pages.
    yield
    if request.config.pluginmanager.hasplugin("django"):
        from django.utils import translation

        translation.deactivate()


@pytest.fixture(autouse=True)
def _default_time_zone(request):
    # The same for time zones: a page read as a teacher in Madrid leaves Madrid active in the
    # test's thread (accounts.middleware), and the next test's "today" was Madrid's from 23:00 UTC
    # while its pages counted in UTC (test_working_set failed so, an hour a day).
    yield
    if request.config.pluginmanager.hasplugin("django"):
        from django.utils import timezone

        timezone.deactivate()


@pytest.fixture(autouse=True)
def _own_guess_budgets(request, monkeypatch):
    # The sign-in budgets count in the cache, which outlives a test (and is shared by the test
    # processes on Redis): each test counts under keys of its own.
    if request.config.pluginmanager.hasplugin("django"):
        import uuid

        from accounts import throttle

        monkeypatch.setattr(throttle, "KEY_PREFIX", f"test-guesses-{uuid.uuid4().hex}")


@pytest.fixture(autouse=True)
def _event_loop_connections_closed(request):
    # On PostgreSQL a match socket's queries run on connections of the event loop's own pool
    # (games/async_db.py); an asynchronous test's event loop ends with the test, and so must
    # they. Only those tests: the browser tests' Playwright runs a loop of its own.
    if inspect.iscoroutinefunction(getattr(request, "function", None)) and (
        request.config.pluginmanager.hasplugin("django")
    ):
        request.getfixturevalue("_close_the_event_loops_connections")


@pytest.fixture
async def _close_the_event_loops_connections():
    yield
    from asgiref.sync import sync_to_async
    from django.db import connections

    from games import async_db

    await async_db.close_pool()
    # Django's test client leaves connections open on purpose (it disconnects the signal that
    # closes them after a request), and an async test's views and socket handshakes ran on
    # asgiref's thread for sync work: a connection left there held the test database open, and
    # dropping it at the end of the run failed ("being accessed by other users").
    await sync_to_async(connections.close_all, thread_sensitive=True)()


@pytest.fixture
def services():
    """Tests that need the real PostgreSQL and Redis. They run in the services pass of `make test`;
    in CI (or with REQUIRE_SERVICES) a missing service fails the test instead of skipping it."""
    from django.conf import settings as django_settings
    from django.db import connection

    problems = []
    if connection.vendor != "postgresql":
        problems.append("DATABASE_URL does not point at PostgreSQL")
    if not django_settings.REDIS_URL:
        problems.append("REDIS_URL is not set")
    else:
        import redis

        try:
            redis.Redis.from_url(django_settings.REDIS_URL, socket_timeout=2).ping()
        except redis.RedisError as exc:
            problems.append(f"Redis does not answer: {exc}")
    if problems:
        message = "; ".join(problems)
        if SERVICES_REQUIRED:
            pytest.fail(f"this test needs PostgreSQL and Redis: {message}")
        pytest.skip(f"needs PostgreSQL and Redis ({message}); run make test-services")
    return django_settings


def pytest_collection_modifyitems(config, items):
    # A test that asks for the `services` fixture is a services test: the embedded pass of
    # `make test` deselects it with -m "not services"; the services pass runs it.
    # A test that drives a site of its own (tests/browser/conftest.py `daphne_site`) reads and
    # writes only that site's SQLite file, whatever the environment: the services pass would run
    # it exactly as the embedded pass did, so it is an embedded test (-m "not embedded" there).
    # So are the engine's tests: the engine is pure Python and knows nothing of Django (the layer
    # contracts in pyproject.toml), so no database or channel layer can change what they do; and
    # the modules of SAME_IN_EVERY_ENVIRONMENT.
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if "services" in fixtures:
            item.add_marker(pytest.mark.services)
        if (
            "daphne_site" in fixtures
            or ENGINE_TESTS in item.path.parents
            or item.path in SAME_IN_EVERY_ENVIRONMENT
        ):
            item.add_marker(pytest.mark.embedded)


@pytest.fixture
def count_to_ten(settings):
    """A sixth game (tests/engine/count_to_ten.py), registered as docs/adding-a-game.md says and
    for this test alone, with its own files (renderer, stylesheet, names, Spanish:
    tests/settings.py): the product's pages list it only while the test runs."""
    import engine
    from tests.settings import TEST_GAME_FILES

    for name, value in TEST_GAME_FILES.items():
        setattr(settings, name, value)
    slug = engine.register_game("tests.engine.count_to_ten")
    try:
        yield engine.get_game(slug)
    finally:
        engine.unregister_game(slug)


@pytest.fixture
def count_alone():
    """A test-only game with solo puzzles (tests/engine/count_alone.py), registered for this test
    alone: homework offers its puzzles beside ¡Mía!'s only while the test runs."""
    import engine

    slug = engine.register_game("tests.engine.count_alone")
    try:
        yield engine.get_game(slug)
    finally:
        engine.unregister_game(slug)
