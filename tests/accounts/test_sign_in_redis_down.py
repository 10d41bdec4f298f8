"""Redis stopped mid-morning: children and teachers still get clear answers, never an error page
(accounts/throttle.py: sign-in goes on without the budgets, the per-child check falls back to the
sign-in log in the database), and the budgets count again as soon as Redis is back. The test
runs a redis-server of its own on a free port (tests/games/test_redis_restart.py)."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts import throttle
from tests.accounts.test_throttling import SCHOOL, signed_in, student_post, wrong
from tests.factories import TEACHER_PASSWORD, make_class, make_student
from tests.games.test_redis_restart import OwnRedis

pytestmark = pytest.mark.django_db


@pytest.fixture
def own_redis(settings, tmp_path):
    server = OwnRedis(tmp_path)
    server.start()
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": server.url,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    yield server
    if server.process.poll() is None:
        server.kill()


def test_sign_in_answers_while_redis_is_down_and_counts_again_when_it_is_back(own_redis):
    classroom = make_class()
    ana = make_student(classroom, "Ana", secret="1357")
    ben = make_student(classroom, "Ben", secret="2468")
    code_url = reverse("classroom:student_login")

    own_redis.kill()
    tablet = Client()
    assert tablet.post(code_url, {"code": classroom.code}, REMOTE_ADDR=SCHOOL).status_code == 302
    assert tablet.post(code_url, {"code": "AAAAAA"}, REMOTE_ADDR=SCHOOL).status_code == 200
    assert student_post(tablet, classroom, ana, "0000").status_code == 200
    assert signed_in(student_post(tablet, classroom, ana, "1357"))
    teacher = Client()
    answer = teacher.post(
        reverse("accounts:login"),
        {"username": classroom.teacher.email, "password": TEACHER_PASSWORD},
        REMOTE_ADDR=SCHOOL,
    )
    assert answer.status_code == 302
    # A pupil hammering Ben meanwhile: the sign-in log (database) makes it wait, Ben's tablet not.
    bens_tablet = Client()
    own_redis.start()
    assert signed_in(student_post(bens_tablet, classroom, ben, "2468"))
    own_redis.kill()
    pupil = Client()
    answers = [student_post(pupil, classroom, ben, wrong("2468")).status_code for _ in range(12)]
    assert answers == [200] * 10 + [429] * 2
    assert signed_in(student_post(bens_tablet, classroom, ben, "2468"))

    # Back: the budgets count again at once (a new server, empty: its counts start afresh).
    own_redis.start()
    budget = throttle.budget("child_at_address")
    assert student_post(Client(), classroom, ana, "0000").status_code == 200
    assert throttle.failures(budget, f"{ana.pk}:{SCHOOL}") == 1
