"""`make run LAN=1` serves the class's tablets on the school's network (config/local_network.py):
the pages that tell children where to go name the address the tablets reach, even when the
teacher opened them on the serving machine itself as 127.0.0.1."""

from __future__ import annotations

import ipaddress
import os
import re
import signal
import subprocess
import uuid
from pathlib import Path

import pytest
from django.urls import reverse

from config.local_network import default_route_address, machine_addresses
from tests.classroom.test_roster_cards import pdf_text
from tests.config.test_make_run import free_port
from tests.factories import make_class, make_session, make_student

ROOT = Path(__file__).resolve().parents[2]
SCHOOL_NETWORK_ADDRESS = "10.20.30.40"


@pytest.fixture
def serving_the_school(settings):
    settings.SERVE_LOCAL_NETWORK = True
    settings.LOCAL_NETWORK_ADDRESS = SCHOOL_NETWORK_ADDRESS


@pytest.mark.django_db
def test_the_projector_opened_on_the_serving_machine_names_its_network_address(
    client, serving_the_school
):
    session = make_session(make_class())
    client.force_login(session.classroom.teacher)
    page = client.get(
        reverse("classroom:sessions_projector", args=[session.pk]), HTTP_HOST="127.0.0.1:8000"
    ).content.decode()
    code = session.classroom.code
    assert f"{SCHOOL_NETWORK_ADDRESS}:8000/student/" in page
    assert f'data-join-url="http://{SCHOOL_NETWORK_ADDRESS}:8000/student/{code}/"' in page
    assert "127.0.0.1" not in page


@pytest.mark.django_db
def test_the_projector_keeps_the_address_it_was_opened_at_otherwise(client, settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "classroom.example.org"]
    session = make_session(make_class())
    client.force_login(session.classroom.teacher)
    page = client.get(
        reverse("classroom:sessions_projector", args=[session.pk]),
        HTTP_HOST="classroom.example.org",
    ).content.decode()
    assert 'data-join-url="http://classroom.example.org/student/' in page


@pytest.mark.django_db
def test_the_login_cards_name_the_network_address(client, serving_the_school, tmp_path):
    classroom = make_class()
    make_student(classroom, "Ana")
    client.force_login(classroom.teacher)
    pdf = client.get(
        reverse("classroom:roster_cards", kwargs={"classroom_id": classroom.pk}),
        HTTP_HOST="localhost:8000",
    ).content
    text = pdf_text(pdf, tmp_path)
    assert f"{SCHOOL_NETWORK_ADDRESS}:8000/student/" in text
    assert "localhost" not in text


def test_the_found_address_is_one_of_this_machines_own_and_not_loopback():
    address = default_route_address()
    if address is not None:
        assert not ipaddress.ip_address(address).is_loopback
        assert address in machine_addresses()


def run(*command, check=True):
    return subprocess.run(command, check=check, capture_output=True, text=True, timeout=30)


@pytest.fixture
def tablet_network():
    """A tablet on the school's network: a network namespace of its own, joined to this machine
    by a veth pair (10.231.N.0/24, the test's own hosts)."""
    if os.geteuid() != 0 or run("ip", "netns", "list", check=False).returncode != 0:
        pytest.fail("this test makes a network namespace: it needs root and iproute2")
    name = f"tablet-{uuid.uuid4().hex[:6]}"
    n = int(name[-2:], 16)
    host_side, tablet_side = f"vh{name[-6:]}", f"vt{name[-6:]}"
    server, tablet = f"10.231.{n}.1", f"10.231.{n}.2"
    run("ip", "netns", "add", name)
    try:
        run("ip", "link", "add", host_side, "type", "veth", "peer", "name", tablet_side)
        run("ip", "link", "set", tablet_side, "netns", name)
        run("ip", "addr", "add", f"{server}/24", "dev", host_side)
        run("ip", "link", "set", host_side, "up")
        run("ip", "netns", "exec", name, "ip", "addr", "add", f"{tablet}/24", "dev", tablet_side)
        run("ip", "netns", "exec", name, "ip", "link", "set", tablet_side, "up")
        run("ip", "netns", "exec", name, "ip", "link", "set", "lo", "up")
        yield name, server
    finally:
        run("ip", "link", "del", host_side, check=False)
        run("ip", "netns", "del", name, check=False)


def from_the_tablet(namespace: str, url: str, *, cookie_jar: Path) -> tuple[int, str]:
    """``curl`` as the tablet: the status and the page."""
    answer = run(
        "ip", "netns", "exec", namespace, "curl", "-s", "-m", "10", "-b", str(cookie_jar),
        "-c", str(cookie_jar), "-w", "\n%{http_code}", url,
        check=False,
    )  # fmt: skip
    page, _sep, status = answer.stdout.rpartition("\n")
    return int(status or 0), page


# `make run` migrates and seeds the demo class before it listens (45 s and more: test_make_run).
@pytest.mark.embedded
@pytest.mark.timeout(420)
def test_make_run_lan_serves_a_tablet_on_the_schools_network(
    tmp_path, tablet_network, one_make_run_at_a_time
):
    namespace, server_address = tablet_network
    port = free_port()
    outer = {"DATABASE_URL", "REDIS_URL", "DJANGO_ENV", "MAKEFLAGS", "MFLAGS", "MAKELEVEL"}
    env = {k: v for k, v in os.environ.items() if k not in outer}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'run.sqlite3'}"
    # This machine is on several networks here (its own and the tablet's): the operator names
    # the school's, as the README says.
    env["LOCAL_NETWORK_ADDRESS"] = server_address
    server = subprocess.Popen(
        ["make", "run", "LAN=1", f"PORT={port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    output = ""
    try:
        cookies = tmp_path / "tablet-cookies"
        base = f"http://{server_address}:{port}"
        for _attempt in range(300):
            status, page = from_the_tablet(namespace, f"{base}/student/", cookie_jar=cookies)
            if status:
                break
            if server.poll() is not None:
                break
            subprocess.run(["sleep", "1"], check=True)
        assert status == 200, page[-2000:]
        assert 'name="code"' in page
        status, page = from_the_tablet(namespace, f"{base}/student/MATH34/", cookie_jar=cookies)
        assert status == 200 and "Ana" in page
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        output, _ = server.communicate(timeout=30)
        print(output)
    assert f"join at http://{server_address}:{port}/student/" in output
    assert not re.search(r"\.env.*(not found|doesn't exist)", output)
