"""The project's nginx configuration (docker/nginx.conf) run by Debian's nginx on loopback, in
front of server processes started here: the upstreams' ``server webN:8000`` lines become the given
addresses and ``listen 80`` a free port, everything else is the file as deployed. The services pass
of the tests and the load test route through it as production does.

    with LoopbackNginx(["127.0.0.1:8001", "127.0.0.1:8002"]) as nginx:
        nginx.url  # http://127.0.0.1:<port>
        nginx.routes()  # [(uri, upstream addresses, status), ...] of the requests done so far
        with ReadinessWatch(nginx):  # a process whose /readyz fails is taken out, then back
            ...
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from tools.processes import stop as stop_processes

SITE = Path(__file__).resolve().parent.parent / "docker" / "nginx.conf"
NGINX = os.environ.get("NGINX", "/usr/sbin/nginx")
_DEPLOYED_SERVER = re.compile(r"^(\s*)server web\d+:8000( [^;]*)?;\s*$")
_UPSTREAM_START = re.compile(r"^\s*upstream \S+ \{\s*$")

MAIN = """\
daemon off;
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 8192; }}
http {{
    log_format routed '$request_uri $upstream_addr $status';
    access_log {prefix}/access.log routed;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {prefix}/site.conf;
}}
"""


def available() -> bool:
    return shutil.which(NGINX) is not None


def site_for(
    upstreams: list[str], port: int, text: str | None = None, down: set[str] = frozenset()
) -> str:
    """docker/nginx.conf with its upstreams' servers replaced by ``upstreams`` (each keeps the
    parameters of the first server line it replaces; those in ``down`` are marked so) and
    listening on 127.0.0.1:``port``."""
    lines = (SITE.read_text() if text is None else text).splitlines()
    out: list[str] = []
    in_upstream = replaced = False
    for line in lines:
        if _UPSTREAM_START.match(line):
            in_upstream, replaced = True, False
        elif in_upstream and line.strip() == "}":
            in_upstream = False
        found = _DEPLOYED_SERVER.match(line)
        if found and in_upstream:
            if not replaced:
                indent, params = found.group(1), found.group(2) or ""
                out += [
                    f"{indent}server {address}{params}{' down' if address in down else ''};"
                    for address in upstreams
                ]
                replaced = True
            continue
        out.append(line.replace("listen 80;", f"listen 127.0.0.1:{port};"))
    return "\n".join(out) + "\n"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class LoopbackNginx:
    def __init__(self, upstreams: list[str], *, port: int | None = None):
        self.upstreams = list(upstreams)
        self.port = port or _free_port()
        self.process: subprocess.Popen | None = None
        self.down: set[str] = set()
        self._folder = tempfile.TemporaryDirectory(prefix="nginx-")
        self.prefix = Path(self._folder.name)
        # nginx's workers run as nobody when it is started by root: they must reach the prefix.
        self.prefix.chmod(0o755)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 10.0) -> LoopbackNginx:
        (self.prefix / "site.conf").write_text(site_for(self.upstreams, self.port))
        (self.prefix / "nginx.conf").write_text(MAIN.format(prefix=self.prefix))
        command = [NGINX, "-p", str(self.prefix), "-e", str(self.prefix / "error.log")]
        checked = subprocess.run(
            [*command, "-t", "-c", str(self.prefix / "nginx.conf")],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if checked.returncode:
            raise RuntimeError(f"nginx refused the configuration:\n{checked.stderr}")
        self.process = subprocess.Popen(
            [*command, "-c", str(self.prefix / "nginx.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx stopped at start:\n{self.error_log()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"nginx did not listen within {timeout} s:\n{self.error_log()}")

    def set_down(self, down: set[str]) -> None:
        """Take ``down`` out of the upstreams (and put the others back): nginx reloads, new
        requests and sockets avoid them, open sockets stay where they are."""
        self.down = set(down)
        site = site_for(self.upstreams, self.port, down=self.down)
        (self.prefix / "site.conf").write_text(site)
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGHUP)

    def stop(self, timeout: float = 10.0) -> None:
        if self.process is not None:
            # SIGTERM: nginx's fast shutdown, which closes the open sockets.
            stop_processes(self.process, timeout)

    def routes(self) -> list[tuple[str, list[str], str]]:
        """Each finished request (a socket's when it closed): its URI, the upstream addresses
        tried in turn, and its status."""
        found = []
        log = self.prefix / "access.log"
        for line in log.read_text().splitlines() if log.exists() else []:
            uri, rest = line.split(" ", 1)
            addresses, status = rest.rsplit(" ", 1)
            found.append((uri, [a.strip() for a in addresses.split(",")], status))
        return found

    def error_log(self) -> str:
        log = self.prefix / "error.log"
        return log.read_text()[-3000:] if log.exists() else ""

    def __enter__(self) -> LoopbackNginx:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
        self._folder.cleanup()


class ReadinessWatch:
    """Polls each upstream's ``/readyz`` every ``interval`` seconds and keeps those that are not
    ready (an answer other than 200, or none within ``timeout``) out of nginx's upstreams: what an
    orchestrator's readiness probe does in a cluster."""

    def __init__(self, nginx: LoopbackNginx, *, interval: float = 1.0, timeout: float = 3.0):
        self.nginx = nginx
        self.interval = interval
        self.timeout = timeout
        self.rounds = 0
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="readiness-watch", daemon=True)

    def ready(self, address: str) -> bool:
        try:
            with urllib.request.urlopen(f"http://{address}/readyz", timeout=self.timeout) as got:
                return got.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def look(self) -> set[str]:
        """One round: who is not ready now; nginx is told when that changed."""
        not_ready = {address for address in self.nginx.upstreams if not self.ready(address)}
        if not_ready != self.nginx.down:
            self.nginx.set_down(not_ready)
        self.rounds += 1
        return not_ready

    def _run(self) -> None:
        while not self._stopped.is_set():
            self.look()
            self._stopped.wait(self.interval)

    def __enter__(self) -> ReadinessWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stopped.set()
        self._thread.join(self.timeout + self.interval + 1)
