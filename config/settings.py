"""Settings, read from the environment (django-environ).

With no environment at all the site runs embedded: a SQLite file, the in-memory channel layer and
Celery tasks run eagerly in-process, DEBUG on. ``DATABASE_URL`` switches to PostgreSQL,
``REDIS_URL`` to the channels-redis layer and the Celery broker. ``DEBUG=false`` (which
``DJANGO_ENV=production`` implies) requires ``SECRET_KEY`` and ``ALLOWED_HOSTS`` and turns on secure
cookies, HSTS and the HTTPS redirect: that configuration passes ``check --deploy``.
"""

import re
from pathlib import Path

import environ
from celery.schedules import crontab
from csp.constants import NONE, SELF
from redis.asyncio.retry import Retry as AsyncRedisRetry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.retry import Retry as RedisRetry

from config import languages, local_network

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
# An operator's .env is read when there is one; without it the environment alone configures.
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DJANGO_ENV = env.str("DJANGO_ENV", default="development")
if DJANGO_ENV not in {"development", "production"}:
    raise environ.ImproperlyConfigured("DJANGO_ENV must be 'development' or 'production'")
PRODUCTION = DJANGO_ENV == "production"

DEBUG = env.bool("DEBUG", default=not PRODUCTION)
if not DEBUG:
    SECRET_KEY = env.str("SECRET_KEY")  # no default: refuse to start without one
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")
else:
    SECRET_KEY = env.str("SECRET_KEY", default="dev-only-insecure-key-never-use-in-production")
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
# `make run LAN=1`: the class's tablets reach this machine on the school's network
# (config/local_network.py). Its addresses are allowed hosts, and the projector and login cards
# name LOCAL_NETWORK_ADDRESS (found on the default route unless set).
SERVE_LOCAL_NETWORK = env.bool("SERVE_LOCAL_NETWORK", default=False)
LOCAL_NETWORK_ADDRESS = None
if SERVE_LOCAL_NETWORK:
    LOCAL_NETWORK_ADDRESS = env.str("LOCAL_NETWORK_ADDRESS", default="") or (
        local_network.default_route_address()
    )
    ALLOWED_HOSTS = [
        *ALLOWED_HOSTS,
        *sorted(local_network.machine_addresses() | {LOCAL_NETWORK_ADDRESS or "127.0.0.1"}),
    ]
# Rotating the key (docs/security.md): the old one, comma-separated with any older, stays here
# while what it signed (sessions, device cookies, login cards) and the children's hashes move over.
SECRET_KEY_FALLBACKS = env.list("SECRET_KEY_FALLBACKS", default=[])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "csp",
    "channels",
    "axes",
    "django_celery_beat",
    "accounts",
    "games",
    "classroom",
    # LTI 1.3 (docs/lti.md): django-lti's registrations and keys, and the launches' links here
    "lti_tool",
    "classroom.lti",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Inside a learning platform's frame (docs/lti.md): SameSite=None cookies for sessions a
    # launch started, no X-Frame-Options where frame-ancestors names the platform. Before the
    # middleware whose cookies and headers it reads.
    "classroom.lti.frames.LtiFrameMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.user_time_zone_middleware",
    # A view that finds the database down answers "try again in a minute" (HTTP 503).
    "accounts.middleware.DatabaseOutageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # django-csp's, with frame-ancestors naming the platform of a session a launch started.
    "classroom.lti.frames.ContentSecurityPolicyMiddleware",
    # Last, as django-axes asks: it turns a lockout into its response.
    "axes.middleware.AxesMiddleware",
]

# The health probes (config/health.py): they read no session and no user, so they touch nothing
# they do not report on whatever cookies come (accounts/middleware.py), and load balancers probe
# them over plain HTTP (SECURE_REDIRECT_EXEMPT).
HEALTH_PROBE_PATHS = ("/livez", "/readyz", "/healthz")

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# --- database ------------------------------------------------------------------------------------
DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Under ASGI every request may run on another thread, so persistent per-thread connections
    # pile up; psycopg's pool hands connections back after each use instead (CONN_MAX_AGE=0).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})
    # A PostgreSQL that accepts connections and answers nothing holds a new connection no longer
    # than this (libpq counts whole seconds, at least 2). Waits for queries: DATABASE_WAIT_S.
    DATABASES["default"]["OPTIONS"].setdefault("connect_timeout", 3)
    if env.bool("DATABASE_POOL", default=True):
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": env.int("DATABASE_POOL_MIN", default=1),
            "max_size": env.int("DATABASE_POOL_MAX", default=10),
            # How long a request waits for a connection. A PostgreSQL that refuses connections
            # makes every request wait all of it (the pool keeps trying in the background), then
            # answer "try again in a minute" (accounts/middleware.py): as long as a socket waits
            # (DATABASE_WAIT_S), not the 10 s a page waited before its error.
            "timeout": env.int("DATABASE_POOL_TIMEOUT", default=3),
        }
else:
    # SQLite as its documentation advises for a server: write-ahead logging (readers never wait
    # for the writer, nor it for them), a busy timeout (writers queue instead of failing with
    # "database is locked") and write transactions that take the write lock at BEGIN: a deferred
    # one that had read first could not wait for it and failed at once, whatever the timeout.
    # synchronous=NORMAL is WAL's advised setting: a power cut may lose the last commits, never
    # the database.
    # Django's SQLite backend, its connections kept open for the next thread (config/sqlite).
    DATABASES["default"]["ENGINE"] = "config.sqlite"
    # Tests run on SQLite's in-memory database, as Django's own engine gives them by default; said
    # here because pytest-django's per-worker names (xdist) know that default by the engine's
    # name only, and made this one's test database a file named after the path.
    DATABASES["default"]["TEST"] = {"NAME": ":memory:"}
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
# How long a socket waits for the database before it is answered try_again, or 4503 at its
# handshake (realtime/database_waits.py).
DATABASE_WAIT_S = env.float("DATABASE_WAIT_S", default=3.0)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- channels, celery, cache ---------------------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
# Retries of a Redis command whose connection was closed: 50, 100, 200 ms, then the error.
REDIS_RETRY_BACKOFF = ExponentialBackoff(cap=0.5, base=0.05)
# The channel layer may spread over several Redis servers (channels_redis shards channels and groups
# over its hosts by consistent hashing: docs/scaling.md); by default it is REDIS_URL's alone.
CHANNEL_LAYER_REDIS_URLS = env.list(
    "CHANNEL_LAYER_REDIS_URLS", default=[REDIS_URL] if REDIS_URL else []
)
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # channels_redis's layer as it comes (realtime/layers.py watches it for lost groups).
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # redis-py refuses a command beyond max_connections (100 by default) instead of
                # waiting, and a class reconnecting at once joins hundreds of groups together.
                # redis-py 8 gives up reading after 5 s by default, exactly when channels_redis's
                # blocking read (BZPOPMIN, 5 s) answers "nothing": whichever came first, an idle
                # process's consumers died with TimeoutError. Reads now wait longer than that.
                # A connection Redis closed (a restart) fails the one command that draws it from
                # the pool: redis-py retries on a new connection instead, with a short backoff,
                # rather than failing a handshake minutes after the restart.
                "hosts": [
                    {
                        "address": url,
                        "max_connections": 1000,
                        "socket_timeout": 15,
                        "retry": AsyncRedisRetry(REDIS_RETRY_BACKOFF, 3, (RedisConnectionError,)),
                    }
                    for url in CHANNEL_LAYER_REDIS_URLS
                ],
                "capacity": 1500,
                "expiry": 10,
                # Servers that must not hear each other's news on one Redis (the load test's own
                # Daphne processes, parallel test runs) take different prefixes.
                "prefix": env.str("CHANNEL_LAYER_PREFIX", default="asgi"),
            },
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # As the channel layer's: a connection from before a restart is replaced, not failed.
            # A Redis that is down or stalled answers sign-in's budgets within a second: sign-in
            # then goes on without them (accounts/throttle.py) instead of hanging.
            "OPTIONS": {
                "retry": RedisRetry(REDIS_RETRY_BACKOFF, 3, (RedisConnectionError,)),
                "socket_connect_timeout": 1,
                "socket_timeout": 1,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    # Embedded: tasks run in-process, and their errors surface where they were sent.
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
    # The sign-in budgets and the class's known addresses live here (accounts/throttle.py): at
    # the default 300 entries a guesser's own tries culled them, and with them its count.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": env.int("EMBEDDED_CACHE_ENTRIES", default=200_000)},
        }
    }
CELERY_TASK_ACKS_LATE = True  # a task whose worker dies is delivered again (tasks are idempotent)
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A task taken by a worker that dies unacknowledged goes back to the queue after this long. It
# must exceed the longest task including a retry's countdown (reports take seconds, retries wait
# at most a minute); the beat's sweep sends stuck reports again sooner (classroom/progress).
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 15 * 60}
# A report queued or being compiled this long without a result is sent to the workers again.
PROGRESS_REPORT_STUCK_AFTER_SECONDS = env.int("PROGRESS_REPORT_STUCK_AFTER_SECONDS", default=120)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_BEAT_SCHEDULE = {
    "wake-overdue-matches": {"task": "games.tasks.wake_overdue_matches", "schedule": 5.0},
    "sweep-stuck-reports": {"task": "classroom.progress.tasks.sweep_stuck_reports", "schedule": 60},
    # Nightly: what is kept about children past its period (classroom/retention.py).
    "apply-retention": {
        "task": "classroom.tasks.apply_retention",
        "schedule": crontab(minute=30, hour=2),
    },
    # Every hour: each linked class's homework results back to its learning platform, the
    # changed ones only (classroom/lti/grades.py).
    "lti-send-grades": {
        "task": "classroom.lti.tasks.send_grades_of_every_course",
        "schedule": crontab(minute=20),
    },
    # Nightly: each linked class's roster from its learning platform's class list
    # (classroom/lti/roster.py).
    "lti-sync-rosters": {
        "task": "classroom.lti.tasks.sync_every_roster",
        "schedule": crontab(minute=10, hour=3),
    },
    # /readyz reports a worker silent for three rounds (config/health.py).
    "worker-heartbeat": {"task": "config.worker_heartbeat", "schedule": 30.0},
    # Monday early morning: last week's progress report of every class with activity.
    "weekly-progress-reports": {
        "task": "classroom.progress.tasks.compile_weekly_reports",
        # Every hour of Sunday and Monday (UTC): each school's Sunday midnight, from UTC+14 to
        # UTC-12, falls in one of them (services.weekly_reports_request).
        "schedule": crontab(minute=5, hour="*", day_of_week="sun,mon"),
    },
}

# --- live play -----------------------------------------------------------------------------------
# Bots' thinking time is multiplied by this (0.1 for quick demos and browser tests).
GAMES_BOT_DELAY_SCALE = env.float("GAMES_BOT_DELAY_SCALE", default=1.0)
# Connections per server process for players' moves, which run on its event loop on PostgreSQL
# (games/async_db.py); they come on top of Django's own pool (DATABASE_POOL_MAX). 0: moves run on
# the thread Channels shares for database work, as SQLite (one writer at a time) needs.
GAMES_MOVE_CONNECTIONS = env.int(
    "GAMES_MOVE_CONNECTIONS",
    default=8 if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" else 0,
)

# A player's move that has waited longer than this for its match's turn and a connection, while
# other moves were written, is answered try_again (the page sends it again a second later) instead
# of being played late: past saturation the queue is bounded by time (games/services/writes.py).
GAMES_MOVE_WAIT_LIMIT_MS = env.int("GAMES_MOVE_WAIT_LIMIT_MS", default=500)
# Each server process reads its matches' current versions this often and hands the version to
# the sockets of a match whose news it has not had (games/delivery.py); 0 turns it off.
GAMES_HEARTBEAT_SECONDS = env.float("GAMES_HEARTBEAT_SECONDS", default=1.0)

# --- auth ----------------------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    # First, as django-axes asks: it refuses locked-out credentials before any other backend.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "accounts.backends.StudentSecretBackend",
]
# The key of children's secret hashes (accounts/secret_hashing.py), kept out of the database. Unset:
# derived from SECRET_KEY (and SECRET_KEY_FALLBACKS while a rotated key is phased out).
STUDENT_SECRET_KEY = env.str("STUDENT_SECRET_KEY", default="")
STUDENT_SECRET_KEY_FALLBACKS = env.list("STUDENT_SECRET_KEY_FALLBACKS", default=[])
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "landing"

# Teachers: failed sign-ins lock an account at one address (django-axes), never a whole address
# (a school's classes sit behind it), nor an account everywhere (anyone could lock it on purpose).
# Children sign in under the budgets of accounts/throttle.py instead (docs/security.md).
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_MINUTES", default=10) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# ...nor lock a teacher out of a browser she signed in on before (accounts/teacher_sign_in.py).
AXES_WHITELIST_CALLABLE = "accounts.teacher_sign_in.on_a_trusted_device"
# A child's wrong PIN or pictures never stored in the sign-in log beside the right one.
AXES_SENSITIVE_PARAMETERS = ["secret"]
# Every failed sign-in is kept in the sign-in log (who, when, from where; classroom/retention.py).
AXES_ENABLE_ACCESS_FAILURE_LOG = True


def _budget(name: str, free: int, first_wait: int, longest_wait: int, forget_after: int):
    """A budget's figures, each overridable as SIGN_IN_<NAME>=free,first,longest,forget."""
    return tuple(
        env.list(
            f"SIGN_IN_{name.upper()}",
            cast=int,
            default=[free, first_wait, longest_wait, forget_after],
        )
    )


# Children's sign-in budgets (accounts/throttle.py): failures free, then a wait in seconds doubling
# from the first to the longest, forgotten so many seconds after the last failure.
SIGN_IN_BUDGETS = {
    name: _budget(name, *figures)
    for name, figures in {
        "child_at_address": (5, 2, 300, 3600),  # a classmate at one child
        "child": (20, 2, 900, 6 * 3600),  # many addresses at one child
        "class_from_new_address": (30, 2, 300, 3600),  # an outsider with the class code
        "device": (10, 0, 0, 24 * 3600),  # a device cookie's failures before it is trusted no more
        "wrong_codes_from_address": (100, 1, 30, 3600),
        "wrong_codes_from_device": (100, 1, 30, 3600),
    }.items()
}
# Redis down: an untrusted browser's tries at a child that failed this often in this window (the
# sign-in log, in the database) wait for the window.
SIGN_IN_OUTAGE_FAILURES = env.int("SIGN_IN_OUTAGE_FAILURES", default=10)
SIGN_IN_OUTAGE_WINDOW_SECONDS = env.int("SIGN_IN_OUTAGE_WINDOW_SECONDS", default=600)
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
# Proxies of our own in front of the servers (nginx: 1); the client's address is read from
# X-Forwarded-For behind them, REMOTE_ADDR without (accounts/addresses.py).
PROXY_COUNT = env.int("PROXY_COUNT", default=0)
AXES_CLIENT_IP_CALLABLE = "accounts.addresses.client_address"
AXES_VERBOSE = False

EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="classroom@localhost")
if env.str("EMAIL_URL", default=""):
    vars().update(env.email_url("EMAIL_URL"))

# --- i18n ----------------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
# Each named in itself in the switcher; their catalogues' plural forms: config/languages.py.
LANGUAGES = languages.LANGUAGES
LOCALE_PATHS = [BASE_DIR / "locale"]
# Where each game's names and words are found: ``<package>.<slug>`` (games/catalog.py); the tests
# add the test-only game's (tests/settings.py).
GAME_TITLES_PACKAGES = ["games.titles"]
# Dates in words in every language ("3 November 2026", "3 de noviembre de 2026"): config/formats.
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_TZ = True

# --- static files --------------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / "media")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- security ------------------------------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
# Whatever serves the site with DEBUG off (not only DJANGO_ENV=production) is secure, unless it is
# told, in so many words, that it serves plain HTTP on this machine alone: the load test's and the
# tests' Daphne processes on 127.0.0.1 (tools/loadtest), which no browser outside reaches.
PLAIN_HTTP_ON_LOOPBACK = env.bool("PLAIN_HTTP_ON_LOOPBACK", default=False)
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}
if PLAIN_HTTP_ON_LOOPBACK and not set(ALLOWED_HOSTS) <= LOOPBACK_HOSTS:
    raise environ.ImproperlyConfigured(
        "PLAIN_HTTP_ON_LOOPBACK serves plain HTTP: ALLOWED_HOSTS may only name this machine "
        f"({', '.join(sorted(LOOPBACK_HOSTS))})"
    )
SECURE_TRANSPORT = not DEBUG and not PLAIN_HTTP_ON_LOOPBACK
if SECURE_TRANSPORT:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    # The health probes are probed by load balancers over plain HTTP inside the network.
    SECURE_REDIRECT_EXEMPT = [rf"^{re.escape(path.lstrip('/'))}$" for path in HEALTH_PROBE_PATHS]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)

# What a page may load (django-csp): everything from the site itself, nothing inline (no page has
# an inline script, style or on* handler: data for scripts goes in json_script), no plugin, no
# framing. The sockets are same-origin, which 'self' covers for ws: and wss: (CSP Level 3).
# Images may be data: URLs (the play page's empty favicon). Media may be blob: URLs: a play page
# with numbers read aloud fetches its clips once and plays them from Blobs, so that reading goes on
# with the network cut (static/js/play/read-aloud.js). The pages of a session a learning
# platform's launch started may be framed by that platform (classroom/lti/frames.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "media-src": [SELF, "blob:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "refusals_without_traceback": {"()": "config.log_filters.RefusalsWithoutTraceback"},
        "database_outages_named": {"()": "config.log_filters.DatabaseOutagesNamed"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "axes": {"level": "WARNING"},
        # On the logger (not a handler): every handler, and the tests' capture, sees one line.
        "django.request": {"filters": ["refusals_without_traceback", "database_outages_named"]},
    },
}

# --- LTI 1.3 (docs/lti.md) ------------------------------------------------------------------------
# How long a launch waits for a platform's key set (pylti1p3 would wait for ever).
LTI_KEY_SET_TIMEOUT_SECONDS = env.float("LTI_KEY_SET_TIMEOUT_SECONDS", default=5.0)
# How long a dynamic registration waits for the platform's configuration, and for its answer.
LTI_REGISTRATION_TIMEOUT_SECONDS = env.float("LTI_REGISTRATION_TIMEOUT_SECONDS", default=10.0)
# How long a key stays in this tool's key set after `manage.py lti_keys --rotate` replaced it: what
# the tool signed with it lives at most 10 minutes (a deep-linking answer; a service token's
# assertion one), and platforms keep a fetched key set for hours; a day covers both.
LTI_OLD_KEY_KEPT_HOURS = env.float("LTI_OLD_KEY_KEPT_HOURS", default=24.0)
# How long a call to a platform's services (an access token, a gradebook column, a score) may wait.
LTI_SERVICE_TIMEOUT_SECONDS = env.float("LTI_SERVICE_TIMEOUT_SECONDS", default=10.0)

# --- children's data (docs/privacy.md) -----------------------------------------------------------
# A student's session lasts a school day on the shared classroom tablets.
STUDENT_SESSION_SECONDS = int(env.float("STUDENT_SESSION_HOURS", default=10) * 3600)
# How long what is kept about children is kept, in days (the beat's retention task applies it).
RETENTION_DAYS = {
    "sign_in_logs": env.int("RETAIN_SIGN_IN_LOGS_DAYS", default=30),
    "reports": env.int("RETAIN_REPORTS_DAYS", default=365),
    "attempts": env.int("RETAIN_ATTEMPTS_DAYS", default=2 * 365),
    # a match still "playing" that nobody has moved in (a table left open, homework never done)
    "unfinished_games": env.int("RETAIN_UNFINISHED_GAMES_DAYS", default=2 * 365),
    # a class session, from its end (or its start, or its opening, if it never ended)
    "class_sessions": env.int("RETAIN_CLASS_SESSIONS_DAYS", default=2 * 365),
    # who sat in a session's lobby, from when they were last seen there
    "lobby_presences": env.int("RETAIN_LOBBY_PRESENCES_DAYS", default=30),
    # who looked at or downloaded children's data (classroom.models.DataAccess): a school year
    "access_log": env.int("RETAIN_ACCESS_LOG_DAYS", default=365),
}
