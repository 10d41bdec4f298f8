import inspect
import os

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
        from classroom.sessions.selectors import forget_table_facts

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
    from games import async_db

    await async_db.close_pool()


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
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if "services" in fixtures:
            item.add_marker(pytest.mark.services)
        if "daphne_site" in fixtures:
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
