"""Daphne processes serving this project on free ports, for the load test and the tests that need
several servers (two processes sharing PostgreSQL and Redis, a process killed, Redis restarted).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote, urlsplit

from django.conf import settings

from tools.processes import stop as stop_processes

DAPHNE = [sys.executable, "-m", "config.server", "-v", "0"]  # Daphne, as the site runs it
APPLICATION = "config.asgi:application"


def database_url() -> str:
    """This process's database as a DATABASE_URL, so that servers started from here (and from a
    test, whose database pytest-django renamed) use the very same one."""
    db = settings.DATABASES["default"]
    engine_name = db["ENGINE"]
    if engine_name == "django.db.backends.postgresql":
        auth = quote(db.get("USER") or "", safe="")
        if db.get("PASSWORD"):
            auth += ":" + quote(db["PASSWORD"], safe="")
        host = db.get("HOST") or "localhost"
        port = f":{db['PORT']}" if db.get("PORT") else ""
        return f"postgres://{auth}{'@' if auth else ''}{host}{port}/{quote(db['NAME'], safe='')}"
    if engine_name in {"django.db.backends.sqlite3", "config.sqlite"}:
        name = str(db["NAME"])
        if name == ":memory:" or name.startswith("file:") or "mode=memory" in name:
            raise ValueError("an in-memory SQLite database cannot be shared with a server process")
        return f"sqlite:///{Path(name).resolve()}"
    raise ValueError(f"no DATABASE_URL spelling for {engine_name}")


def shared_services() -> bool:
    """PostgreSQL and Redis: what several server processes need to share matches and news."""
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and bool(
        settings.REDIS_URL
    )


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


class DaphneFleet:
    """``count`` Daphne processes serving this project on free ports, sharing this process's
    database and Redis. Use as a context manager; ``urls`` are their ``ws://`` bases.
    ``application``: the ASGI application they serve (the project's; the load test's floor,
    tools.loadtest.floor, to compare with it). ``preexec``: called in each new process before it
    becomes Daphne (tools.classroom_box puts the process in its cgroup there, so that all its
    memory and CPU are counted in the box from the first import)."""

    def __init__(
        self,
        count: int,
        *,
        host: str = "127.0.0.1",
        env: dict | None = None,
        application: str = APPLICATION,
        preexec: Callable[[], None] | None = None,
    ):
        if count < 1:
            raise ValueError("start at least one Daphne process")
        if count > 1 and not shared_services():
            raise ValueError(
                "several Daphne processes share matches through PostgreSQL and news through Redis: "
                "set DATABASE_URL (postgres://...) and REDIS_URL (redis://...)"
            )
        self.count = count
        self.host = host
        self.application = application
        self.preexec = preexec
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings"),
            "DATABASE_URL": database_url(),
            "REDIS_URL": settings.REDIS_URL,
            # The fleet's news stays among its processes, whatever else shares the Redis.
            "CHANNEL_LAYER_PREFIX": f"asgi-fleet-{secrets.token_hex(4)}",
            # Measured as it would run in production: no per-query debug bookkeeping, no chatter.
            "DEBUG": "false",
            # ... on plain HTTP on loopback, with this process's key (it signs the sessions the
            # sockets come with) and hosts.
            "PLAIN_HTTP_ON_LOOPBACK": "true",
            "SECRET_KEY": settings.SECRET_KEY,
            "ALLOWED_HOSTS": ",".join(sorted({host, "127.0.0.1", "localhost"})),
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
            **(env or {}),
        }
        self.processes: list[subprocess.Popen] = []
        self.logs: list[Path] = []
        self.ports: list[int] = []
        self._logdir = tempfile.TemporaryDirectory(prefix="daphnes-")

    @property
    def urls(self) -> list[str]:
        return [f"ws://{self.host}:{port}" for port in self.ports]

    @property
    def pids(self) -> list[int]:
        return [process.pid for process in self.processes]

    def _spawn(self, port: int, log_path: Path) -> subprocess.Popen:
        with open(log_path, "ab") as log_file:
            return subprocess.Popen(
                [*DAPHNE, "-b", self.host, "-p", str(port), self.application],
                cwd=settings.BASE_DIR,
                env=self.env,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                preexec_fn=self.preexec,
            )

    def start(self, timeout: float = 60.0) -> list[str]:
        for n in range(self.count):
            port = free_port(self.host)
            log_path = Path(self._logdir.name) / f"daphne-{n + 1}.log"
            self.processes.append(self._spawn(port, log_path))
            self.logs.append(log_path)
            self.ports.append(port)
        return self._wait_listening(timeout)

    def restart_dead(self, timeout: float = 60.0) -> list[str]:
        """Starts again, on its own port, every process that has exited (a fault test killed
        it, as an orchestrator would bring it back)."""
        for n, process in enumerate(self.processes):
            if process.poll() is not None:
                self.processes[n] = self._spawn(self.ports[n], self.logs[n])
        return self._wait_listening(timeout)

    def _wait_listening(self, timeout: float) -> list[str]:
        deadline = time.monotonic() + timeout
        for process, port, log_path in zip(self.processes, self.ports, self.logs, strict=True):
            while not _port_open(self.host, port):
                if process.poll() is not None:
                    self.stop()
                    raise RuntimeError(
                        f"Daphne on port {port} exited ({process.returncode}):\n"
                        + log_path.read_text(errors="replace")[-3000:]
                    )
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"Daphne on port {port} did not listen within {timeout} s")
                time.sleep(0.1)
        return self.urls

    def stop(self) -> None:
        stop_processes(self.processes)

    def died(self) -> list[int]:
        """The numbers (from 1) of the processes that have exited."""
        return [n for n, process in enumerate(self.processes, 1) if process.poll() is not None]

    def log_tail(self, chars: int = 2000) -> str:
        return "\n".join(
            f"--- {path.name}\n{path.read_text(errors='replace')[-chars:]}"
            for path in self.logs
            if path.exists()
        )

    def __enter__(self) -> DaphneFleet:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
        self._logdir.cleanup()


def _port_open(host: str, port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
        return True
    return False


def origin_for(url: str) -> str:
    parts = urlsplit(url)
    scheme = "https" if parts.scheme == "wss" else "http"
    return f"{scheme}://{parts.netloc}"


def match_socket(base: str, match_id: int, cookie: str, *, open_timeout: float = 10, **options):
    """A signed-in student's socket on ``/ws/match/<id>/`` of the server at ``base``
    (``ws://host:port``), as a page opens it: ``await`` it, or use it with ``async with``."""
    import websockets  # a development dependency, like this module's callers

    return websockets.connect(
        f"{base}/ws/match/{match_id}/",
        origin=options.pop("origin", None) or origin_for(base),
        additional_headers={"Cookie": cookie},
        proxy=None,
        open_timeout=open_timeout,
        **options,
    )
