"""A school's morning of sign-ins, through the real pages on Daphne.

    python -m tools.school_morning --children 900 --minutes 10 --daphnes 2

The whole school reaches the site from one address (its NAT; the servers read it from
``X-Forwarded-For``, as behind the project's nginx). Each child arrives at a random moment of the
window and signs in as a child does: the class-code page, the class code (a share mistype it from
the board first, one character off), their name, their PIN or pictures (a share of PIN tries are
typos, tried again until right), then "Join" on their class's open session. A child is *seated*
when the lobby page answers after the join; the time to seated runs from the first page.

Meanwhile, from the same address, one pupil hammers a classmate's PIN (wrong PINs as fast as the
server answers), another types random class codes as fast, and a third tries wrong passwords at
the teacher's e-mail; an outsider at another address who knows a class's code guesses PINs at
every child of it, round after round, and so do an outsider with many IPv4 addresses at the same
class and one spread over an IPv6 /64 at another. Their classmates sign in meanwhile, and the
teacher signs in on her own laptop after the pupil's wrong passwords. A legitimate child is
*refused* when any answer on their way is 429 or 503; they then wait what the answer asks
(``Retry-After``) and go on, so their time to seated includes the wait.

Some children come back to a browser that signed them in before ("yesterday", done in the set-up):
``--returning`` is their share (at least one a class: the school is each class's usual network),
and the hammered classmate always uses their own tablet, as the teacher her laptop. The data
is made in the database the environment names and deleted at the end (``--keep`` keeps it).

Targets (docs/security.md): no legitimate child refused, sign-in to seated p95 under 2 s.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import http.cookiejar
import random
import re
import secrets
import statistics
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field

import psutil
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.services import teacher_create
from classroom.models import CLASS_CODE_ALPHABET, Classroom
from classroom.roster.services import classroom_delete, student_add
from classroom.services import classroom_create
from classroom.sessions import services as sessions
from tools.loadtest.servers import DaphneFleet, origin_for, shared_services

SCHOOL_ADDRESS = "203.0.113.10"  # documentation addresses (RFC 5737): nobody's real one
OUTSIDER_ADDRESS = "198.51.100.23"
OUTSIDER_NETWORK = "198.51.100."  # the outsider with many addresses: .100 to .100+n
OUTSIDER_IPV6_NETWORK = "2001:db8:77:1::"  # one home's /64 (RFC 3849)
TEACHER_PASSWORD = "morning-teacher-password-2026"
REFUSED = frozenset({429, 503})
CODE_WAIT = "No class opens with that code just now"
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
LONGEST_WAIT_SECONDS = 120.0
HTTP_TIMEOUT_SECONDS = 60.0


@dataclass
class Answer:
    status: int
    body: str
    url: str
    retry_after: float


class Browser:
    """One browser: its own cookies (session, CSRF, the sign-in device cookie), behind one
    address."""

    def __init__(self, base: str, address: str):
        self.base = base
        self.address = address
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(self.jar)
        )
        self.csrf = ""

    def _open(self, path: str, data: dict | None = None) -> Answer:
        headers = {"X-Forwarded-For": self.address, "Accept-Language": "en"}
        body = None
        if data is not None:
            body = urllib.parse.urlencode({"csrfmiddlewaretoken": self.csrf, **data}).encode()
            headers["Referer"] = self.base + path
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with self.opener.open(request, timeout=HTTP_TIMEOUT_SECONDS) as response:
                answer = Answer(
                    response.status, response.read().decode(errors="replace"), response.url, 0.0
                )
        except urllib.error.HTTPError as error:
            answer = Answer(
                error.code,
                error.read().decode(errors="replace"),
                error.url,
                _seconds(error.headers.get("Retry-After")),
            )
        found = CSRF.search(answer.body)
        if found:
            self.csrf = found.group(1)
        return answer

    def get(self, path: str) -> Answer:
        return self._open(path)

    def post(self, path: str, data: dict) -> Answer:
        return self._open(path, data)

    def forget_session(self) -> None:
        """Signed out as a shared tablet is at the end of a day: the sign-in cookie goes, the
        device cookie stays."""
        for cookie in list(self.jar):
            if cookie.name == "sessionid":
                self.jar.clear(cookie.domain, cookie.path, cookie.name)


def _seconds(text: str | None) -> float:
    try:
        return min(LONGEST_WAIT_SECONDS, max(1.0, float(text or 5)))
    except ValueError:
        return 5.0


@dataclass
class Child:
    name: str
    student_id: int
    class_code: str
    session_id: int
    kind: str
    secret: str
    browser: Browser | None = None
    arrives_at: float = 0.0
    seconds_to_seated: float | None = None
    refusals: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    pin_tries: int = 0
    pin_typos: int = 0
    code_typos: int = 0


@dataclass
class School:
    teachers: list
    classrooms: list
    children: list[Child]
    teacher_email: str


def school_create(*, run: str, children: int, class_size: int) -> School:
    """Classes of ``class_size`` (half PINs, half pictures), each with a session open in its
    lobby; one teacher for every three classes."""
    teachers, classrooms, made = [], [], []
    for number in range((children + class_size - 1) // class_size):
        if number % 3 == 0:
            teachers.append(
                teacher_create(
                    email=f"morning-{run}-{len(teachers)}@example.com",
                    password=TEACHER_PASSWORD,
                    display_name=f"Teacher {len(teachers)}",
                )
            )
        classroom = classroom_create(teacher=teachers[-1], name=f"Morning {run} {number}")
        classrooms.append(classroom)
        session = sessions.session_open(
            classroom=classroom, game="add_up", variant="standard", table_size=3
        )
        for seat in range(min(class_size, children - len(made))):
            kind = "pin" if seat % 2 == 0 else "picture"
            student, secret = student_add(
                classroom=classroom, display_name=f"Child {number}-{seat}", generate=kind
            )
            made.append(
                Child(
                    student.display_name,
                    student.pk,
                    classroom.code,
                    session.pk,
                    kind,
                    secret.value,
                )
            )
    return School(teachers, classrooms, made, teachers[0].email)


def school_delete(school: School) -> None:
    for classroom in Classroom.objects.filter(pk__in=[c.pk for c in school.classrooms]):
        classroom_delete(classroom=classroom)
    get_user_model().objects.filter(pk__in=[t.pk for t in school.teachers]).delete()


def _wrong_pin(right: str, rng: random.Random) -> str:
    while True:
        pin = f"{rng.randrange(10 ** len(right)):0{len(right)}d}"
        if pin != right:
            return pin


def _near_miss(code: str, rng: random.Random) -> str:
    """The code with one character mistaken, as copied wrongly from the board."""
    at = rng.randrange(len(code))
    other = rng.choice([ch for ch in CLASS_CODE_ALPHABET if ch != code[at]])
    return code[:at] + other + code[at + 1 :]


class Morning:
    """The children's side: each child's way from the class-code page to the lobby."""

    def __init__(self, options, rng: random.Random):
        self.options = options
        self.rng = rng
        self.rng_lock = threading.Lock()

    def chance(self, share: float) -> bool:
        with self.rng_lock:
            return self.rng.random() < share

    def _until_answered(self, child: Child, step: str, send) -> Answer:
        """``send()`` again after each refusal, waiting what it asks."""
        while True:
            answer = send()
            if answer.status in REFUSED:
                child.refusals.append(f"{step}: {answer.status}")
                time.sleep(answer.retry_after)
                continue
            if answer.status >= 500:
                child.errors.append(f"{step}: {answer.status}")
            return answer

    def sign_in(self, child: Child, browser: Browser) -> bool:
        """The three steps of a child's sign-in; True once signed in."""
        code_page = reverse("classroom:student_login")
        self._until_answered(child, "code page", lambda: browser.get(code_page))
        if self.chance(self.options.code_typos):
            child.code_typos += 1
            with self.rng_lock:
                wrong = _near_miss(child.class_code, self.rng)
            self._until_answered(
                child, "wrong code", lambda: browser.post(code_page, {"code": wrong})
            )
        roster = self._until_answered(
            child, "class code", lambda: browser.post(code_page, {"code": child.class_code})
        )
        if reverse("classroom:student_login_roster", args=[child.class_code]) not in roster.url:
            child.errors.append(f"class code: landed on {roster.url}")
            return False
        secret_page = _secret_page(child)
        self._until_answered(child, "name", lambda: browser.get(secret_page))
        for _attempt in range(20):
            typo = child.kind == "pin" and self.chance(self.options.pin_typos)
            if child.kind == "pin":
                child.pin_tries += 1
                child.pin_typos += typo
            with self.rng_lock:
                secret = _wrong_pin(child.secret, self.rng) if typo else child.secret
            answer = self._until_answered(
                child, "secret", lambda s=secret: browser.post(secret_page, {"secret": s})
            )
            if not typo:
                if _still_on(answer, secret_page):
                    child.errors.append(f"right secret refused ({answer.status})")
                    return False
                return True
        return False

    def child_morning(self, child: Child, base: str) -> None:
        started = time.perf_counter()
        browser = child.browser or Browser(base, SCHOOL_ADDRESS)
        if not self.sign_in(child, browser):
            return
        join = reverse("classroom:sessions_join", args=[child.session_id])
        lobby = self._until_answered(child, "join", lambda: browser.post(join, {}))
        if lobby.status == 200 and f"/me/sessions/{child.session_id}/" in lobby.url:
            child.seconds_to_seated = time.perf_counter() - started
        else:
            child.errors.append(f"join: {lobby.status} at {lobby.url}")


def _secret_page(child: Child) -> str:
    return reverse("classroom:student_login_secret", args=[child.class_code, child.student_id])


def _still_on(answer: Answer, page: str) -> bool:
    return urllib.parse.urlsplit(answer.url).path == page


def returning_browser(child: Child, base: str) -> Browser:
    """Yesterday: this browser signed the child in, and keeps its device cookie."""
    browser = Browser(base, SCHOOL_ADDRESS)
    page = _secret_page(child)
    browser.get(page)
    answer = browser.post(page, {"secret": child.secret})
    if answer.status != 200 or _still_on(answer, page):
        raise RuntimeError(f"set-up: {child.name} could not sign in ({answer.status})")
    browser.forget_session()
    return browser


@dataclass
class Attacker:
    who: str
    tries: int = 0
    answered: int = 0
    refused: int = 0
    right: int = 0
    first_refusal_after: int | None = None
    waits: list[float] = field(default_factory=list)

    def count(self, answer: Answer, right_url_part: str) -> None:
        self.tries += 1
        # A class code tried while its address waits: the form again, whatever the code.
        if answer.status in REFUSED or CODE_WAIT in answer.body:
            self.refused += 1
            self.waits.append(answer.retry_after)
            if self.first_refusal_after is None:
                self.first_refusal_after = self.tries - 1
        else:
            self.answered += 1
            if urllib.parse.urlsplit(answer.url).path != right_url_part:
                self.right += 1


def hammer(base: str, victim: Child, tries: int, rng: random.Random, stop: threading.Event):
    """A pupil at school types wrong PINs at one classmate as fast as the answers come."""
    attacker = Attacker("pupil")
    browser = Browser(base, SCHOOL_ADDRESS)
    page = _secret_page(victim)
    browser.get(page)
    for _ in range(tries):
        if stop.is_set():
            break
        attacker.count(browser.post(page, {"secret": _wrong_pin(victim.secret, rng)}), page)
    return attacker


def outsider(
    base: str,
    targets: list[Child],
    guesses: int,
    rng: random.Random,
    stop,
    *,
    who: str = "outsider",
    addresses: tuple[str, ...] = (OUTSIDER_ADDRESS,),
):
    """Someone elsewhere who has one class's code guesses PINs at its children, round after round
    (5 at each child, as in the report that asked for this tool), until ``guesses`` are spent;
    with many ``addresses``, a fresh browser at each child from the next address in turn."""
    attacker = Attacker(who)
    pins = [child for child in targets if child.kind == "pin"]
    turn = 0
    while attacker.tries < guesses and not stop.is_set():
        for child in pins:
            browser = Browser(base, addresses[turn % len(addresses)])
            turn += 1
            page = _secret_page(child)
            browser.get(page)
            for _ in range(5):
                if attacker.tries >= guesses:
                    return attacker
                guess = f"{rng.randrange(10000):04d}"
                attacker.count(browser.post(page, {"secret": guess}), page)
    return attacker


def code_spender(base: str, tries: int, rng: random.Random, stop) -> Attacker:
    """A pupil at school types random class codes as fast as the answers come."""
    attacker = Attacker("pupil typing random class codes")
    browser = Browser(base, SCHOOL_ADDRESS)
    page = reverse("classroom:student_login")
    browser.get(page)
    for _ in range(tries):
        if stop.is_set():
            break
        code = "".join(rng.choice(CLASS_CODE_ALPHABET) for _ in range(6))
        attacker.count(browser.post(page, {"code": code}), page)
    return attacker


def teacher_guesser(base: str, email: str, tries: int) -> Attacker:
    """A pupil at school tries wrong passwords at the teacher's e-mail."""
    attacker = Attacker("pupil guessing the teacher's password")
    browser = Browser(base, SCHOOL_ADDRESS)
    page = reverse("accounts:login")
    browser.get(page)
    for n in range(tries):
        attacker.count(browser.post(page, {"username": email, "password": f"guess-{n}"}), page)
    return attacker


def teachers_laptop(base: str, email: str) -> Browser:
    """Yesterday: the teacher signed in on her laptop at school, which keeps its device cookie."""
    browser = Browser(base, SCHOOL_ADDRESS)
    status, url = teacher_signs_in(browser, email)
    if urllib.parse.urlsplit(url).path != reverse("classroom:teacher_home"):
        raise RuntimeError(f"set-up: the teacher could not sign in ({status})")
    browser.forget_session()
    return browser


def teacher_signs_in(browser: Browser, email: str) -> tuple[int, str]:
    page = reverse("accounts:login")
    browser.get(page)
    answer = browser.post(page, {"username": email, "password": TEACHER_PASSWORD})
    return answer.status, answer.url


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        with contextlib.suppress(psutil.Error):
            times = psutil.Process(pid).cpu_times()
            total += times.user + times.system
    return total


def report(
    school: School,
    *,
    victim: Child,
    hammered: Attacker,
    guessed: Attacker,
    spent: Attacker,
    many: Attacker,
    network: Attacker,
    teacher_guessed: Attacker,
    targets: dict[str, str],
    teacher,
    window,
    cpu,
    out,
):
    legit = school.children
    seated = [c for c in legit if c.seconds_to_seated is not None]
    refused = [c for c in legit if c.refusals]
    times = [c.seconds_to_seated for c in seated]
    pin_tries = sum(c.pin_tries for c in legit)
    pin_typos = sum(c.pin_typos for c in legit)
    print(
        f"children: {len(legit)} in {len(school.classrooms)} classes, over {window:.0f} s", file=out
    )
    print(
        f"typos: {pin_typos} of {pin_tries} PIN tries ({pin_typos / max(1, pin_tries):.1%}), "
        f"{sum(c.code_typos for c in legit)} class codes mistyped first",
        file=out,
    )
    print(f"seated: {len(seated)} of {len(legit)}", file=out)
    if times:
        print(
            f"sign-in to seated: p50 {statistics.median(times):.2f} s, "
            f"p95 {_percentile(times, 0.95):.2f} s, p99 {_percentile(times, 0.99):.2f} s, "
            f"max {max(times):.2f} s",
            file=out,
        )
    print(f"legitimate children refused: {len(refused)}", file=out)
    for child in refused[:20]:
        print(f"  {child.name}: {', '.join(child.refusals[:5])}", file=out)
    errors = [c for c in legit if c.errors]
    print(f"legitimate children with errors: {len(errors)}", file=out)
    for child in errors[:20]:
        print(f"  {child.name}: {', '.join(child.errors[:5])}", file=out)
    for attacker in (hammered, guessed, many, network):
        waits = (
            f", waits asked p50 {statistics.median(attacker.waits):.0f} s" if attacker.waits else ""
        )
        print(
            f"{attacker.who}: {attacker.tries} wrong-secret tries, {attacker.answered} tested, "
            f"{attacker.refused} refused (first after {attacker.first_refusal_after} tries)"
            f"{waits}, {attacker.right} right",
            file=out,
        )
        if attacker.who in targets:
            code = targets[attacker.who]
            print(
                f"  legitimate refusals in the class it guessed at: "
                f"{sum(1 for c in refused if c.class_code == code)}",
                file=out,
            )
    seated_victim = (
        f"seated in {victim.seconds_to_seated:.2f} s"
        if victim.seconds_to_seated is not None
        else "never seated"
    )
    print(
        f"hammered classmate (on their own tablet): {seated_victim}, "
        f"refused {len(victim.refusals)} times",
        file=out,
    )
    at_the_code = [c for c in refused if any(r.startswith("class code") for r in c.refusals)]
    print(
        f"{spent.who}: {spent.tries} tries, {spent.refused} refused "
        f"(first after {spent.first_refusal_after} tries)\n"
        f"  legitimate refusals at the class code: {len(at_the_code)}",
        file=out,
    )
    teacher_in = urllib.parse.urlsplit(teacher[1]).path == reverse("classroom:teacher_home")
    print(
        f"{teacher_guessed.who}: {teacher_guessed.tries} tries, {teacher_guessed.refused} refused "
        f"(first after {teacher_guessed.first_refusal_after} tries)\n"
        f"  teacher on her own laptop behind the school address: "
        f"{'signed in' if teacher_in else 'NOT signed in'} (HTTP {teacher[0]}); "
        f"legitimate refusals: {0 if teacher_in else 1}",
        file=out,
    )
    signed_in = len(seated) + sum(
        a.tries for a in (hammered, guessed, spent, many, network, teacher_guessed)
    )
    print(
        f"server CPU: {cpu:.1f} s for {signed_in} sign-in tries "
        f"({1000 * cpu / max(1, signed_in):.1f} ms each, pages and joins included)",
        file=out,
    )


def parse(argv):
    parser = argparse.ArgumentParser(
        prog="python -m tools.school_morning",
        description="A school's morning of sign-ins through Daphne (docs/security.md).",
    )
    parser.add_argument("--children", type=int, default=900)
    parser.add_argument("--class-size", type=int, default=30)
    parser.add_argument("--minutes", type=float, default=10.0, help="the arrival window")
    parser.add_argument("--daphnes", type=int, default=None, help="default: 2 on PostgreSQL+Redis")
    parser.add_argument("--pin-typos", type=float, default=0.15, help="share of PIN tries wrong")
    parser.add_argument("--code-typos", type=float, default=0.05, help="share mistyping the code")
    parser.add_argument("--returning", type=float, default=0.3, help="share on a known browser")
    parser.add_argument("--hammer-tries", type=int, default=300)
    parser.add_argument("--outsider-guesses", type=int, default=600)
    parser.add_argument("--outsider-addresses", type=int, default=27)
    parser.add_argument("--code-guesses", type=int, default=300)
    parser.add_argument("--teacher-guesses", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", action="store_true", help="keep the school in the database")
    return parser.parse_args(argv)


def main(argv=None, out=sys.stdout) -> int:
    options = parse(argv)
    daphnes = options.daphnes or (2 if shared_services() else 1)
    rng = random.Random(options.seed)
    run = secrets.token_hex(3)
    print(f"making a school of {options.children} children...", file=out, flush=True)
    school = school_create(run=run, children=options.children, class_size=options.class_size)
    env = {"PROXY_COUNT": "1", "PLAIN_HTTP_ON_LOOPBACK": "true"}
    try:
        with DaphneFleet(daphnes, env=env) as fleet:
            bases = [origin_for(url) for url in fleet.urls]
            base_of = {id(child): bases[n % len(bases)] for n, child in enumerate(school.children)}
            # The hammered classmate comes on their own tablet, while the hammering goes on.
            victim = next(c for c in school.children if c.kind == "pin")
            returning = [victim] + [
                c for c in school.children if c is not victim and rng.random() < options.returning
            ]
            for code in {c.class_code for c in school.children}:
                if not any(c.class_code == code for c in returning):
                    returning.append(next(c for c in school.children if c.class_code == code))
            with concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
                browsers = pool.map(lambda c: returning_browser(c, base_of[id(c)]), returning)
                for child, browser in zip(returning, browsers, strict=True):
                    child.browser = browser
            for child in school.children:
                child.arrives_at = rng.uniform(0, options.minutes * 60)
            victim.arrives_at = min(5.0, options.minutes * 60)
            laptop = teachers_laptop(bases[0], school.teacher_email)
            morning = Morning(options, rng)
            stop = threading.Event()
            cpu_before = _cpu_seconds(fleet.pids)
            started = time.perf_counter()
            with concurrent.futures.ThreadPoolExecutor(max_workers=6) as side:
                hammering = side.submit(
                    hammer, bases[0], victim, options.hammer_tries, random.Random(1), stop
                )
                last_class = school.children[-1].class_code
                first_class = school.children[0].class_code
                targets = [c for c in school.children if c.class_code == last_class]
                guessing = side.submit(
                    outsider, bases[-1], targets, options.outsider_guesses, random.Random(2), stop
                )
                many_addresses = tuple(
                    f"{OUTSIDER_NETWORK}{100 + n}" for n in range(options.outsider_addresses)
                )
                many_guessing = side.submit(
                    outsider,
                    bases[0],
                    targets,
                    options.outsider_guesses,
                    random.Random(3),
                    stop,
                    who=f"outsider from {len(many_addresses)} addresses",
                    addresses=many_addresses,
                )
                network_guessing = side.submit(
                    outsider,
                    bases[-1],
                    [c for c in school.children if c.class_code == first_class],
                    options.outsider_guesses,
                    random.Random(4),
                    stop,
                    who="outsider from one IPv6 /64",
                    addresses=tuple(f"{OUTSIDER_IPV6_NETWORK}{n + 1:x}" for n in range(200)),
                )
                spending = side.submit(
                    code_spender, bases[-1], options.code_guesses, random.Random(5), stop
                )
                teacher_guessing = side.submit(
                    teacher_guesser, bases[0], school.teacher_email, options.teacher_guesses
                )
                with concurrent.futures.ThreadPoolExecutor(max_workers=128) as pool:
                    waiting = []
                    for child in sorted(school.children, key=lambda c: c.arrives_at):
                        time.sleep(max(0.0, child.arrives_at - (time.perf_counter() - started)))
                        waiting.append(
                            pool.submit(morning.child_morning, child, base_of[id(child)])
                        )
                    for future in waiting:
                        future.result()
                teacher_guessed = teacher_guessing.result()
                teacher = teacher_signs_in(laptop, school.teacher_email)
                stop.set()
                hammered, guessed = hammering.result(), guessing.result()
                many, network = many_guessing.result(), network_guessing.result()
                spent = spending.result()
            window = time.perf_counter() - started
            cpu = _cpu_seconds(fleet.pids) - cpu_before
            report(
                school,
                victim=victim,
                hammered=hammered,
                guessed=guessed,
                spent=spent,
                many=many,
                network=network,
                teacher_guessed=teacher_guessed,
                targets={
                    guessed.who: last_class,
                    many.who: last_class,
                    network.who: first_class,
                },
                teacher=teacher,
                window=window,
                cpu=cpu,
                out=out,
            )
            if any(child.errors for child in school.children):
                print(f"the servers' logs end:\n{fleet.log_tail(3000)}", file=out)
            if fleet.died():
                print(f"Daphne processes died: {fleet.died()}\n{fleet.log_tail()}", file=out)
                return 1
    finally:
        if not options.keep:
            school_delete(school)
    legit_refused = sum(1 for c in school.children if c.refusals or c.errors)
    unseated = sum(1 for c in school.children if c.seconds_to_seated is None)
    teacher_in = urllib.parse.urlsplit(teacher[1]).path == reverse("classroom:teacher_home")
    return 0 if legit_refused == 0 and unseated == 0 and teacher_in else 2
