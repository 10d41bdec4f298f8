"""A school's morning of sign-ins, played through the real views (docs/security.md).

    python -m tools.school_morning [--children 900] [--minutes 10] [--speed 20]

900 children (30 classes) arrive at the school's address over 10 minutes (``--speed`` compresses
the clock), each on a tablet of their own: every 10th mistypes the class code from the board first,
15% of PIN tries are typos. Meanwhile one pupil at school hammers one classmate's PIN, and an
outsider at another address guesses 5 PINs at each child of one class. Prints which legitimate
children were refused (a 429 at any step) and the time from a child's first request to seated
(p50/p95). Target: nobody refused, p95 under 2 s.

In process, through Django's test client, one request at a time, on a SQLite file of its own
(``DATABASE_URL`` chooses another database; the cache is the settings' own, Redis with
``REDIS_URL``). Times are the server's work per child, not a browser's over a network: a Daphne on
loopback would add the network and the server's queue, which this does not measure.
"""

from __future__ import annotations

import argparse
import heapq
import os
import random
import statistics
import tempfile
import time
import uuid
from dataclasses import dataclass, field

from tools import django_setup

SCHOOL, HOME = "10.0.0.1", "203.0.113.7"
CLASS_SIZE = 30


@dataclass
class Child:
    student: object
    classroom: object
    pin: str
    arrives: float
    refused: list[str] = field(default_factory=list)
    seated_after: float | None = None


def wrong(pin: str) -> str:
    return f"{(int(pin) + 1) % 10000:04d}"


def build_school(children: int, minutes: float, speed: float, rng: random.Random):
    from accounts.services import teacher_create
    from classroom.services import classroom_add_student, classroom_create

    teacher = teacher_create(
        email=f"morning-{uuid.uuid4().hex[:8]}@example.org",
        password="a-long-teacher-password-42",
        display_name="Morning",
    )
    span = minutes * 60 / speed
    school = []
    for number in range(children):
        if number % CLASS_SIZE == 0:
            classroom = classroom_create(teacher=teacher, name=f"Class {number // CLASS_SIZE}")
        pin = f"{rng.randrange(10000):04d}"
        student = classroom_add_student(
            classroom=classroom, display_name=f"Child {number}", secret_kind="pin", secret=pin
        )
        school.append(Child(student, classroom, pin, rng.uniform(0, span)))
    return teacher, school


def play(school, teacher, rng: random.Random, speed: float) -> dict:
    from django.test import Client
    from django.urls import reverse

    code_url = reverse("classroom:student_login")

    def secret_url(child):
        return reverse(
            "classroom:student_login_secret",
            kwargs={"code": child.classroom.code, "student_id": child.student.pk},
        )

    def sign_in(child):
        started = time.perf_counter()
        tablet = Client()
        if rng.random() < 0.1:
            typo = child.classroom.code[:-1] + ("A" if child.classroom.code[-1] != "A" else "B")
            answer = tablet.post(code_url, {"code": typo}, REMOTE_ADDR=SCHOOL)
            if answer.status_code == 429:
                child.refused.append("code")
        answer = tablet.post(code_url, {"code": child.classroom.code}, REMOTE_ADDR=SCHOOL)
        if answer.status_code != 302:
            child.refused.append(f"code {answer.status_code}")
            return
        if tablet.get(answer["Location"], REMOTE_ADDR=SCHOOL).status_code != 200:
            child.refused.append("names")
            return
        for _try in range(10):
            typed = wrong(child.pin) if rng.random() < 0.15 else child.pin
            answer = tablet.post(secret_url(child), {"secret": typed}, REMOTE_ADDR=SCHOOL)
            if answer.status_code == 429:
                # Told to wait (the hammered classmate on a tablet new to them): waits, as a
                # child would, a few seconds at most, then tries again.
                child.refused.append(f"pin: wait {answer['Retry-After']} s")
                time.sleep(min(5, int(answer["Retry-After"])))
                continue
            if answer.status_code == 302:
                child.seated_after = time.perf_counter() - started
                return

    hammered = school[1]
    outsider_class = [child for child in school if child.classroom == school[-1].classroom]
    span = max(child.arrives for child in school)
    events = [(child.arrives, "child", n) for n, child in enumerate(school)]
    events += [(t / 10, "hammer", 0) for t in range(int(span * 10))]  # 10 wrong PINs a second
    guesses = 5 * len(outsider_class)
    events += [(span * n / guesses, "outsider", n) for n in range(guesses)]
    heapq.heapify(events)
    pupil, outsider = Client(), Client()
    hammer_answers: dict[int, int] = {}
    outsider_answers: dict[int, int] = {}
    teacher_client = Client()
    start = time.perf_counter()
    while events:
        at, kind, n = heapq.heappop(events)
        if (lag := at - (time.perf_counter() - start)) > 0:
            time.sleep(lag)
        if kind == "child":
            sign_in(school[n])
        elif kind == "hammer":
            code = pupil.post(
                secret_url(hammered), {"secret": wrong(hammered.pin)}, REMOTE_ADDR=SCHOOL
            ).status_code
            hammer_answers[code] = hammer_answers.get(code, 0) + 1
        else:
            child = outsider_class[n // 5]
            code = outsider.post(
                secret_url(child), {"secret": wrong(child.pin)}, REMOTE_ADDR=HOME
            ).status_code
            outsider_answers[code] = outsider_answers.get(code, 0) + 1
    teacher_answer = teacher_client.post(
        reverse("accounts:login"),
        {"username": teacher.email, "password": "a-long-teacher-password-42"},
        REMOTE_ADDR=SCHOOL,
    ).status_code
    return {
        "hammer": hammer_answers,
        "outsider": outsider_answers,
        "teacher": teacher_answer,
        "elapsed": time.perf_counter() - start,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--children", type=int, default=900)
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--speed", type=float, default=20, help="the clock runs this much faster")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    folder = tempfile.mkdtemp(prefix="school-morning-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder}/morning.sqlite3")
    django_setup()
    from django.core.management import call_command

    from accounts import throttle

    call_command("migrate", verbosity=0)
    throttle.KEY_PREFIX = f"morning-{uuid.uuid4().hex}"  # a morning of its own in a shared cache
    rng = random.Random(args.seed)
    teacher, school = build_school(args.children, args.minutes, args.speed, rng)
    figures = play(school, teacher, rng, args.speed)
    refused = [child for child in school if child.seated_after is None]
    waited = [child for child in school if child.refused and child.seated_after is not None]
    seated = sorted(child.seated_after for child in school if child.seated_after is not None)
    print(
        f"{len(school)} children over {args.minutes:g} min (speed x{args.speed:g}, "
        f"played in {figures['elapsed']:.0f} s)"
    )
    print(f"legitimate children refused (never seated): {len(refused)}")
    for child in refused[:20]:
        print(f"  {child.student.display_name}: {', '.join(child.refused) or 'not seated'}")
    print(f"seated after being told to wait: {len(waited)}")
    for child in waited[:20]:
        print(f"  {child.student.display_name}: {', '.join(child.refused)}")
    if seated:
        p95 = seated[min(len(seated) - 1, int(0.95 * len(seated)))]
        print(
            f"first request to seated: p50 {statistics.median(seated) * 1000:.0f} ms, "
            f"p95 {p95 * 1000:.0f} ms, max {seated[-1] * 1000:.0f} ms"
        )
    print(f"the pupil hammering one classmate: answers {figures['hammer']}")
    print(f"the outsider at another address: answers {figures['outsider']}")
    print(f"the teacher at the school address afterwards: {figures['teacher']}")
    return 1 if refused or figures["teacher"] != 302 else 0


if __name__ == "__main__":
    raise SystemExit(main())
