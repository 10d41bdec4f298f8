"""Sign-in for a school behind one address (accounts/throttle.py, docs/security.md).

Every budget slows its subject down (a wait that doubles) rather than shutting it; a browser that
once signed a child in (a device cookie) is not made to wait by anyone else's failures. Each
browser here is a test Client of its own: its cookies are that device's."""

import time

import pytest
from axes.models import AccessFailureLog
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from accounts import throttle
from classroom.models import CLASS_CODE_ALPHABET
from tests.factories import TEACHER_PASSWORD, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db
SCHOOL = "10.0.0.1"
HOME = "203.0.113.7"


def secret_url(classroom, student):
    return reverse(
        "classroom:student_login_secret", kwargs={"code": classroom.code, "student_id": student.pk}
    )


def sign_out(device):
    """Ends the session and keeps the device cookie, as signing out in a browser does."""
    device.cookies.pop(django_settings.SESSION_COOKIE_NAME, None)


def student_post(device, classroom, student, secret, ip=SCHOOL):
    sign_out(device)
    return device.post(secret_url(classroom, student), {"secret": secret}, REMOTE_ADDR=ip)


def signed_in(response) -> bool:
    return response.status_code == 302 and response["Location"] == reverse("classroom:student_home")


def teacher_post(device, email, password, ip=SCHOOL):
    sign_out(device)
    return device.post(
        reverse("accounts:login"), {"username": email, "password": password}, REMOTE_ADDR=ip
    )


def a_class_of(size, teacher=None, first_pin=1000):
    classroom = make_class(teacher or make_teacher())
    pins = [f"{first_pin + n}" for n in range(size)]
    return classroom, [
        (make_student(classroom, f"Child {n:02d}", secret=pin), pin) for n, pin in enumerate(pins)
    ]


def wrong(pin: str) -> str:
    return f"{(int(pin) + 1) % 10000:04d}"


def failures_logged(student) -> int:
    return AccessFailureLog.objects.filter(username=student.username).count()


@pytest.fixture
def clock(monkeypatch):
    """The throttle's clock, moved by hand (the cache's own expiry is far longer)."""
    moment = [1_000_000.0]
    monkeypatch.setattr(throttle, "now", lambda: moment[0])
    return moment


def test_one_pupil_hammering_a_classmate_300_times_stops_nobody_else(clock):
    classroom, children = a_class_of(30)
    teacher_email = classroom.teacher.email
    (ben, ben_pin), others = children[0], children[1:]
    bens_tablet = Client()
    assert signed_in(student_post(bens_tablet, classroom, ben, ben_pin))

    pupil = Client()
    answers = [student_post(pupil, classroom, ben, wrong(ben_pin)).status_code for _ in range(300)]
    assert answers[:5] == [200] * 5
    assert answers.count(429) >= 290  # waits after the free failures...
    # ...and a refused retry spends nothing: the wait did not grow, nothing more was logged.
    assert failures_logged(ben) == answers.count(200)
    refused = student_post(pupil, classroom, ben, wrong(ben_pin))
    assert refused.status_code == 429 and refused["Retry-After"] == "2"
    assert b"Try again in 2 seconds" in refused.content

    for child, pin in others:  # every classmate, each on a tablet of their own
        assert signed_in(student_post(Client(), classroom, child, pin))
    assert signed_in_teacher(teacher_post(Client(), teacher_email, TEACHER_PASSWORD))
    assert signed_in(student_post(bens_tablet, classroom, ben, ben_pin))
    # Ben on a borrowed tablet waits out the pupil's wait (seconds, never the hour).
    clock[0] += 2
    assert signed_in(student_post(Client(), classroom, ben, ben_pin))


# About 2,000 requests through the real views: 50 s alone on a quiet core, more on a busy one.
@pytest.mark.timeout(600)
def test_600_children_behind_one_address_with_typos_all_sign_in():
    """A school's morning: 20 classes of 30, every 10th child mistypes the class code from the
    board, 15% of PIN tries are typos (some children twice), all from the school's address."""
    teacher = make_teacher()
    classes = [a_class_of(30, teacher, first_pin=1000 + 30 * n) for n in range(20)]
    codes = {classroom.code for classroom, _children in classes}
    pin_tries = pin_typos = 0
    number = 0
    for classroom, children in classes:
        for child, pin in children:
            number += 1
            tablet = Client()
            if number % 10 == 0:
                typo = next(
                    classroom.code[:-1] + c
                    for c in CLASS_CODE_ALPHABET
                    if classroom.code[:-1] + c not in codes
                )
                answer = tablet.post(
                    reverse("classroom:student_login"), {"code": typo}, REMOTE_ADDR=SCHOOL
                )
                assert answer.status_code == 200, f"child {number}: the wrong code"
            answer = tablet.post(
                reverse("classroom:student_login"), {"code": classroom.code}, REMOTE_ADDR=SCHOOL
            )
            assert answer.status_code == 302, f"child {number}: the class code"
            assert tablet.get(answer["Location"], REMOTE_ADDR=SCHOOL).status_code == 200
            for _typo in range((number % 7 == 0) + (number % 20 == 0)):
                pin_tries += 1
                pin_typos += 1
                assert student_post(tablet, classroom, child, wrong(pin)).status_code == 200
            pin_tries += 1
            assert signed_in(student_post(tablet, classroom, child, pin)), f"child {number}"
    assert pin_typos / pin_tries >= 0.14


def test_an_outsider_failing_5_pins_at_each_of_30_children_does_not_stop_the_class_at_school():
    classroom, children = a_class_of(30)
    outsider = Client()
    answers = [
        student_post(outsider, classroom, child, wrong(pin), ip=HOME).status_code
        for child, pin in children
        for _ in range(5)
    ]
    assert 429 in answers  # the outsider's address, new to the class, waits after 30 failures
    # The class at school, on tablets that never signed them in, each with a typo first.
    for child, pin in children:
        tablet = Client()
        assert student_post(tablet, classroom, child, wrong(pin)).status_code == 200
        assert signed_in(student_post(tablet, classroom, child, pin))


def test_an_address_new_to_a_class_waits_after_30_failures_and_the_school_does_not(clock):
    classroom, children = a_class_of(8)
    assert signed_in(student_post(Client(), classroom, *children[7]))  # the school is known
    outsider = Client()
    for child, pin in children[:6]:
        for _ in range(5):
            assert student_post(outsider, classroom, child, wrong(pin), ip=HOME).status_code == 200
    assert student_post(outsider, classroom, *children[6], ip=HOME).status_code == 429
    school_tablet = Client()
    stranded, pin = children[6]
    assert student_post(school_tablet, classroom, stranded, wrong(pin)).status_code == 200
    assert signed_in(student_post(school_tablet, classroom, stranded, pin))


def test_the_wait_doubles_with_each_failure_and_is_only_seconds(clock):
    classroom, [(ben, pin)] = a_class_of(1)
    pupil = Client()
    for _ in range(4):
        assert student_post(pupil, classroom, ben, wrong(pin)).status_code == 200
    waits = []
    for _ in range(6):
        assert student_post(pupil, classroom, ben, wrong(pin)).status_code == 200
        refused = student_post(pupil, classroom, ben, wrong(pin))
        assert refused.status_code == 429
        waits.append(int(refused["Retry-After"]))
        clock[0] += waits[-1]
    assert waits == [2, 4, 8, 16, 32, 64]


def test_many_addresses_at_one_child_wait_but_the_childs_own_tablet_does_not(clock):
    classroom, [(ben, pin)] = a_class_of(1)
    bens_tablet = Client()
    assert signed_in(student_post(bens_tablet, classroom, ben, pin))
    botnet = [f"198.51.100.{n}" for n in range(21)]
    for address in botnet[:20]:
        assert student_post(Client(), classroom, ben, wrong(pin), ip=address).status_code == 200
    assert student_post(Client(), classroom, ben, pin, ip=botnet[20]).status_code == 429
    assert signed_in(student_post(bens_tablet, classroom, ben, pin, ip=HOME))


def test_a_trusted_tablet_that_fails_10_times_is_trusted_no_more(clock):
    classroom, [(ben, pin)] = a_class_of(1)
    tablet = Client()
    assert signed_in(student_post(tablet, classroom, ben, pin))
    answers = [student_post(tablet, classroom, ben, wrong(pin)).status_code for _ in range(20)]
    # 10 as a trusted tablet, then the 5 free failures of any browser at this address.
    assert answers == [200] * 15 + [429] * 5


def test_a_forged_device_cookie_trusts_nothing(clock):
    classroom, [(ben, pin)] = a_class_of(1)
    pupil = Client()
    pupil.cookies["signin_device"] = f"forged:{ben.pk}"
    for _ in range(5):
        assert student_post(pupil, classroom, ben, wrong(pin)).status_code == 200
    assert student_post(pupil, classroom, ben, wrong(pin)).status_code == 429


def test_failed_sign_ins_are_recorded_without_the_secret(client):
    classroom, [(ben, _pin)] = a_class_of(1)
    teacher = classroom.teacher
    assert student_post(client, classroom, ben, "9137", ip=HOME).status_code == 200
    assert teacher_post(client, teacher.email, "not-the-password-7", ip=HOME).status_code == 200
    logged = {row.username: row for row in AccessFailureLog.objects.all()}
    assert set(logged) == {ben.username, teacher.email}
    assert all(row.ip_address == HOME and row.attempt_time for row in logged.values())
    stored = " ".join(
        str(value) for row in AccessFailureLog.objects.values() for value in row.values()
    )
    assert "9137" not in stored and "not-the-password-7" not in stored


def test_a_teacher_is_locked_at_the_guessing_address_only(settings):
    settings.AXES_FAILURE_LIMIT = 3
    make_teacher(email="t@example.org")
    guesser = Client()
    for _ in range(3):
        teacher_post(guesser, "t@example.org", "nope", ip=HOME)
    assert teacher_post(guesser, "t@example.org", TEACHER_PASSWORD, ip=HOME).status_code == 429
    assert signed_in_teacher(teacher_post(Client(), "t@example.org", TEACHER_PASSWORD))


def test_a_pupil_at_school_does_not_lock_the_teacher_out_of_her_own_laptop():
    make_teacher(email="t@example.org")
    laptop = Client()
    assert signed_in_teacher(teacher_post(laptop, "t@example.org", TEACHER_PASSWORD))
    pupil = Client()
    answers = [teacher_post(pupil, "t@example.org", f"guess-{n}").status_code for n in range(30)]
    assert answers[:9] == [200] * 9 and set(answers[9:]) == {429}  # the pupil is stopped...
    # ...and the teacher, at the same school address, on the laptop she signed in on before, is
    # not: however often the pupil tries meanwhile.
    assert signed_in_teacher(teacher_post(laptop, "t@example.org", TEACHER_PASSWORD))
    teacher_post(pupil, "t@example.org", "one more guess")
    assert signed_in_teacher(teacher_post(laptop, "t@example.org", TEACHER_PASSWORD))


def test_a_teachers_trusted_laptop_that_fails_10_times_is_trusted_no_more(settings):
    settings.AXES_FAILURE_LIMIT = 3
    make_teacher(email="t@example.org")
    laptop = Client()
    assert signed_in_teacher(teacher_post(laptop, "t@example.org", TEACHER_PASSWORD))
    answers = [teacher_post(laptop, "t@example.org", f"guess-{n}").status_code for n in range(15)]
    # 10 as a trusted laptop, then any browser's at this address: locked at the 3rd.
    assert answers == [200] * 12 + [429] * 3


def signed_in_teacher(response) -> bool:
    return response.status_code == 302


def random_codes(count: int, but: set[str]) -> list[str]:
    codes = []
    for n in range(count):
        code = "".join(
            CLASS_CODE_ALPHABET[(7 * n + 3 * k * k) % len(CLASS_CODE_ALPHABET)] for k in range(6)
        )
        if code not in but:
            codes.append(code)
    return codes


def form_error(response) -> str:
    return " ".join(response.context["form"].errors.get("code", []))


def pupil_waits(browser, code_url, code) -> bool:
    answer = browser.post(code_url, {"code": code}, REMOTE_ADDR=SCHOOL)
    return "just now" in form_error(answer)


def test_a_pupil_spending_the_schools_wrong_codes_refuses_no_child_the_right_code(clock):
    classroom = make_class()
    ana = make_student(classroom, "Ana", secret="1357")
    assert signed_in(student_post(Client(), classroom, ana, "1357"))  # the class's own school
    other_school = make_class()  # nobody of it has signed in from here
    code_url = reverse("classroom:student_login")
    pupil = Client()
    answers = [
        pupil.post(code_url, {"code": code}, REMOTE_ADDR=SCHOOL).status_code
        for code in random_codes(300, {classroom.code, other_school.code})
    ]
    # The pupil is made to wait: past the free tries, every code is answered alike.
    assert answers.count(200) == len(answers)
    assert pupil_waits(pupil, code_url, CLASS_CODE_ALPHABET[-1] * 6)
    # ...and a classmate on a fresh browser, with the code from the board, is not: the names
    # page, the secret page and the sign-in all open.
    fresh = Client()
    answer = fresh.post(code_url, {"code": classroom.code}, REMOTE_ADDR=SCHOOL)
    assert answer.status_code == 302
    assert fresh.get(answer["Location"], REMOTE_ADDR=SCHOOL).status_code == 200
    assert fresh.get(secret_url(classroom, ana), REMOTE_ADDR=SCHOOL).status_code == 200
    assert signed_in(student_post(fresh, classroom, ana, "1357"))
    # A class nobody signs in to from here gets the wait a wrong code gets: the wait tells
    # nothing of which codes exist.
    guess = Client().post(code_url, {"code": other_school.code}, REMOTE_ADDR=SCHOOL)
    wrong_code = Client().post(code_url, {"code": "AAAAAA"}, REMOTE_ADDR=SCHOOL)
    assert guess.status_code == wrong_code.status_code == 200  # the form, not a wait page
    assert form_error(guess) == form_error(wrong_code)
    assert "No class opens with that code just now" in form_error(guess)
    names = reverse("classroom:student_login_roster", kwargs={"code": other_school.code})
    assert Client().get(names, REMOTE_ADDR=SCHOOL).status_code == 429


def told_no_class(response) -> bool:
    """The answer to a wrong code when the browser need not wait."""
    return form_error(response) == "No class has that code. Check it with your teacher."


def test_wrong_class_codes_are_forgotten_a_while_after_the_first_not_the_last(settings):
    """A window of two seconds here, an hour in the site (the cache's own clock)."""
    settings.SIGN_IN_BUDGETS = {
        **settings.SIGN_IN_BUDGETS,
        "wrong_codes_from_address": (10, 1, 30, 2),
    }
    classroom = make_class()
    code_url = reverse("classroom:student_login")
    typist = Client()
    for code in random_codes(8, {classroom.code}):
        assert told_no_class(typist.post(code_url, {"code": code}, REMOTE_ADDR=HOME))
    time.sleep(1.2)
    [code] = random_codes(1, {classroom.code})
    assert told_no_class(typist.post(code_url, {"code": code}, REMOTE_ADDR=HOME))
    time.sleep(1.2)  # over two seconds after the first typo, a second after the last
    for code in random_codes(9, {classroom.code}):
        assert told_no_class(typist.post(code_url, {"code": code}, REMOTE_ADDR=HOME))


def test_an_outsider_with_many_addresses_does_not_stop_the_class_at_school(clock):
    classroom, children = a_class_of(29)
    first, first_pin = children[0]
    assert signed_in(student_post(Client(), classroom, first, first_pin))  # the school is known
    outsider = [f"198.51.100.{n}" for n in range(27)]
    tries = 0
    for round_ in range(30):
        for n, (child, pin) in enumerate(children):
            address = outsider[(round_ * len(children) + n) % len(outsider)]
            student_post(Client(), classroom, child, wrong(pin), ip=address)
            tries += 1
        clock[0] += 6  # about 170 s in all
    assert tries == 870
    for child, pin in children:  # every child at school, each on a fresh browser
        tablet = Client()
        assert signed_in(student_post(tablet, classroom, child, pin)), child


def test_an_ipv6_home_network_counts_as_one_address(clock):
    classroom, children = a_class_of(8)
    assert signed_in(student_post(Client(), classroom, *children[7]))
    home_64 = "2001:db8:4:7::"
    answers = [
        student_post(Client(), classroom, child, wrong(pin), ip=f"{home_64}{n:x}").status_code
        for n, (child, pin) in enumerate(children[:7] * 5)
    ]
    # Every address of the /64 is one outsider: its 30 free tries at the class, then waits.
    assert answers[:30] == [200] * 30 and answers[30:] == [429] * 5


def test_a_secret_page_under_an_unknown_code_counts_as_a_wrong_code(settings):
    settings.SIGN_IN_BUDGETS = {
        **settings.SIGN_IN_BUDGETS,
        "wrong_codes_from_address": (2, 60, 60, 3600),
    }
    classroom, [(ben, _pin)] = a_class_of(1)
    guesser = Client()
    for code in ("AAAAAA", "BBBBBB"):
        url = reverse("classroom:student_login_secret", kwargs={"code": code, "student_id": ben.pk})
        assert guesser.get(url, REMOTE_ADDR=HOME).status_code == 404
    names = reverse("classroom:student_login_roster", kwargs={"code": classroom.code})
    assert guesser.get(names, REMOTE_ADDR=HOME).status_code == 429


def test_at_school_a_child_has_a_daily_budget_of_its_own_that_outsiders_cannot_spend(settings):
    settings.SIGN_IN_BUDGETS = {
        **settings.SIGN_IN_BUDGETS,
        "child_at_address": (100, 1, 1, 3600),  # out of the way: the daily budget is tested
        "child": (3, 60, 60, 3600),
    }
    classroom, [(ana, ana_pin), (ben, ben_pin)] = a_class_of(2)
    assert signed_in(student_post(Client(), classroom, ana, ana_pin))  # the school is known
    for _ in range(3):  # an outsider spends the daily budget of Ben from elsewhere...
        assert student_post(Client(), classroom, ben, wrong(ben_pin), ip=HOME).status_code == 200
    assert student_post(Client(), classroom, ben, ben_pin, ip=HOME).status_code == 429
    # ...which is not the one of the school: a classmate there gets its own 3, then waits.
    pupil = Client()
    answers = [student_post(pupil, classroom, ben, wrong(ben_pin)).status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
