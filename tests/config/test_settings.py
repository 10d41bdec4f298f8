"""Settings from the environment: embedded by default, services by URL, production by DJANGO_ENV."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "DJANGO_ENV": "production",
    "SECRET_KEY": "k8#Qv2!mZr7@pL4$wX9^tB1&nC6*hJ3(eF5)yU0-sD8+aG2=oI7~",
    "ALLOWED_HOSTS": "classroom.example.org",
}
# Variables of the test run itself that must not reach the probed process.
IGNORED_ENV = {
    "DATABASE_URL",
    "REDIS_URL",
    "CHANNEL_LAYER_REDIS_URLS",
    "DJANGO_ENV",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
}
PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'engine': s.DATABASES['default']['ENGINE'], "
    "'options': s.DATABASES['default'].get('OPTIONS', {}), "
    "'conn_max_age': s.DATABASES['default'].get('CONN_MAX_AGE'), "
    "'layer': s.CHANNEL_LAYERS['default']['BACKEND'], 'eager': s.CELERY_TASK_ALWAYS_EAGER, "
    "'broker': s.CELERY_BROKER_URL, 'debug': s.DEBUG}))"
)


def run_django(code_or_args, extra_env, *, manage=False):
    env = {k: v for k, v in os.environ.items() if k not in IGNORED_ENV}
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings", **extra_env})
    args = (
        [sys.executable, "manage.py", *code_or_args]
        if manage
        else [sys.executable, "-c", code_or_args]
    )
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def probe(extra_env):
    done = run_django(PROBE, extra_env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_no_environment_runs_embedded():
    got = probe({})
    assert got["engine"] == "config.sqlite"  # Django's, its connections kept (config/sqlite)
    assert got["layer"] == "channels.layers.InMemoryChannelLayer"
    assert got["eager"] is True
    assert got["debug"] is True


def test_database_and_redis_urls_switch_to_services():
    got = probe(
        {"DATABASE_URL": "postgres://u@db.example:5432/classroom", "REDIS_URL": "redis://r:6379/1"}
    )
    assert got["engine"] == "django.db.backends.postgresql"
    # Under ASGI: no persistent per-thread connections, psycopg's pool instead.
    assert got["conn_max_age"] == 0
    assert got["options"]["pool"]["max_size"] >= 1
    # channels_redis's layer as it comes.
    assert got["layer"] == "channels_redis.core.RedisChannelLayer"
    assert got["eager"] is False
    assert got["broker"] == "redis://r:6379/1"


def test_production_refuses_to_start_without_secret_key():
    env = {**PRODUCTION_ENV}
    del env["SECRET_KEY"]
    done = run_django(PROBE, env)
    assert done.returncode != 0
    assert "SECRET_KEY" in done.stderr


def test_production_refuses_to_start_without_allowed_hosts():
    env = {**PRODUCTION_ENV}
    del env["ALLOWED_HOSTS"]
    done = run_django(PROBE, env)
    assert done.returncode != 0
    assert "ALLOWED_HOSTS" in done.stderr


def test_production_turns_debug_off():
    assert probe(PRODUCTION_ENV)["debug"] is False


def test_check_deploy_is_clean_in_production():
    done = run_django(["check", "--deploy", "--fail-level", "WARNING"], PRODUCTION_ENV, manage=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_the_channel_layer_spreads_over_the_redis_servers_it_is_given():
    hosts = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([h['address'] for h in s.CHANNEL_LAYERS['default']['CONFIG']['hosts']]))"
    )
    one = run_django(hosts, {"REDIS_URL": "redis://r:6379/1"})
    assert json.loads(one.stdout.strip().splitlines()[-1]) == ["redis://r:6379/1"], one.stderr
    shards = "redis://r1:6379/0,redis://r2:6379/0"
    two = run_django(hosts, {"REDIS_URL": "redis://r:6379/1", "CHANNEL_LAYER_REDIS_URLS": shards})
    assert json.loads(two.stdout.strip().splitlines()[-1]) == shards.split(","), two.stderr


def test_the_embedded_sqlite_is_configured_for_a_server(tmp_path):
    """As SQLite's documentation advises for concurrent writers: write-ahead logging (readers do
    not wait for the writer), a busy timeout, and write transactions that take the write lock at
    BEGIN (a deferred one that had read first failed with "database is locked" at once, whatever
    the timeout, which closed sockets with 1011 past 100 moves/s)."""
    code = (
        "import json, django; django.setup(); from django.db import connection as c; "
        "cursor = c.cursor(); "
        "journal = cursor.execute('PRAGMA journal_mode').fetchone()[0]; "
        "busy = cursor.execute('PRAGMA busy_timeout').fetchone()[0]; "
        "print(json.dumps({'journal': journal, 'busy_ms': busy, "
        "'mode': c.transaction_mode}))"
    )
    done = run_django(code, {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"})
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got == {"journal": "wal", "busy_ms": 20_000, "mode": "IMMEDIATE"}


# DEBUG off alone (no DJANGO_ENV) is the secure configuration.
DEBUG_OFF_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": PRODUCTION_ENV["SECRET_KEY"],
    "ALLOWED_HOSTS": "example.org",
}
SECURITY_PROBE = (
    "import json, django; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({name: getattr(s, name, None) for name in ("
    "'DEBUG', 'SECURE_SSL_REDIRECT', 'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE', "
    "'SECURE_HSTS_SECONDS', 'SECURE_PROXY_SSL_HEADER')}))"
)
# What a request over plain HTTP gets: the health probes answer, every other page redirects.
REDIRECT_PROBE = (
    "import json, django; django.setup(); from django.test import Client; c = Client(); "
    "print(json.dumps({p: [r.status_code, r.get('Location', '')] "
    "for p, r in ((p, c.get(p)) for p in ('/livez', '/', '/student/'))}))"
)


def test_check_deploy_is_clean_with_debug_off_alone():
    done = run_django(["check", "--deploy", "--fail-level", "WARNING"], DEBUG_OFF_ENV, manage=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues (0 silenced)" in done.stdout


def test_debug_off_alone_turns_on_secure_cookies_hsts_and_the_https_redirect():
    done = run_django(SECURITY_PROBE, DEBUG_OFF_ENV)
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["DEBUG"] is False
    assert got["SECURE_SSL_REDIRECT"] and got["SESSION_COOKIE_SECURE"] and got["CSRF_COOKIE_SECURE"]
    assert got["SECURE_HSTS_SECONDS"] >= 365 * 24 * 3600


def test_debug_off_alone_requires_a_secret_key():
    env = {**DEBUG_OFF_ENV}
    del env["SECRET_KEY"]
    done = run_django(PROBE, env)
    assert done.returncode != 0 and "SECRET_KEY" in done.stderr


def test_the_health_probes_are_exempt_from_the_https_redirect():
    done = run_django(REDIRECT_PROBE, {**DEBUG_OFF_ENV, "ALLOWED_HOSTS": "testserver"})
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["/livez"][0] == 200
    assert got["/"] == [301, "https://testserver/"]
    assert got["/student/"] == [301, "https://testserver/student/"]


def test_plain_http_is_served_only_on_loopback_and_only_when_asked():
    loopback = {
        **DEBUG_OFF_ENV,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "PLAIN_HTTP_ON_LOOPBACK": "1",
    }
    done = run_django(SECURITY_PROBE, loopback)
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert not got["SECURE_SSL_REDIRECT"] and not got["SESSION_COOKIE_SECURE"]
    assert not got["SECURE_HSTS_SECONDS"]
    refused = run_django(PROBE, {**loopback, "ALLOWED_HOSTS": "example.org"})
    assert refused.returncode != 0 and "PLAIN_HTTP_ON_LOOPBACK" in refused.stderr
