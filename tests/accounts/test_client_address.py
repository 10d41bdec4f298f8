"""The address a sign-in comes from, behind the project's nginx (PROXY_COUNT=1, docker/): what the
failed-sign-in log records and what the budgets count per school (accounts/addresses.py)."""

import pytest
from axes.models import AccessFailureLog
from django.test import Client

from tests.accounts.test_throttling import secret_url, signed_in, student_post, wrong
from tests.factories import make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db
NGINX = "172.18.0.5"  # REMOTE_ADDR: every request reaches the server from the proxy


def logged_addresses(student):
    return list(
        AccessFailureLog.objects.filter(username=student.username).values_list(
            "ip_address", flat=True
        )
    )


def test_behind_nginx_a_failed_sign_in_is_logged_with_the_schools_address(settings):
    settings.PROXY_COUNT = 1
    classroom = make_class(make_teacher())
    child = make_student(classroom, "Ana", secret="4321")
    Client().post(
        secret_url(classroom, child),
        {"secret": wrong("4321")},
        REMOTE_ADDR=NGINX,
        HTTP_X_FORWARDED_FOR="198.51.100.4",
    )
    assert logged_addresses(child) == ["198.51.100.4"]


def test_an_address_the_client_wrote_itself_is_not_believed(settings):
    # nginx appends the address it was reached from; anything left of it came from the client.
    settings.PROXY_COUNT = 1
    classroom = make_class(make_teacher())
    child = make_student(classroom, "Ben", secret="4321")
    Client().post(
        secret_url(classroom, child),
        {"secret": wrong("4321")},
        REMOTE_ADDR=NGINX,
        HTTP_X_FORWARDED_FOR="10.9.9.9, 198.51.100.4",
    )
    assert logged_addresses(child) == ["198.51.100.4"]


def test_without_a_proxy_the_forwarded_header_is_ignored(settings):
    settings.PROXY_COUNT = 0
    classroom = make_class(make_teacher())
    child = make_student(classroom, "Carla", secret="4321")
    Client().post(
        secret_url(classroom, child),
        {"secret": wrong("4321")},
        REMOTE_ADDR="192.0.2.8",
        HTTP_X_FORWARDED_FOR="198.51.100.4",
    )
    assert logged_addresses(child) == ["192.0.2.8"]


def test_one_schools_failures_do_not_slow_another_school_behind_the_same_proxy(settings):
    # Every child reaches the server from nginx: read from REMOTE_ADDR, one school's typos at a
    # child would have made that child wait at every other school too.
    settings.PROXY_COUNT = 1
    classroom = make_class(make_teacher())
    child = make_student(classroom, "Dan", secret="4321")
    typist = Client()
    for _ in range(30):
        student_post(typist, classroom, child, wrong("4321"), ip=NGINX)
    home = Client()
    home.defaults["HTTP_X_FORWARDED_FOR"] = "203.0.113.50"
    assert signed_in(student_post(home, classroom, child, "4321", ip=NGINX))
