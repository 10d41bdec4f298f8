"""A child's sign-in with a picture password or PIN, under the guess budgets (accounts/throttle.py,
docs/security.md), and the class-code step's budget of wrong codes.

``group`` is the class the child signs in through (accounts knows no classes): an outsider's
guesses at one class from an address none of its children signs in from share one budget."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from axes.helpers import get_client_ip_address
from axes.models import AccessFailureLog
from django.conf import settings

from accounts import throttle
from accounts.devices import device_of
from accounts.throttle import CacheDown, budget


@dataclass(frozen=True)
class Outcome:
    student: object | None = None  # signed in
    wait_seconds: int = 0  # refused for now, nothing spent


def student_sign_in(request, *, student, secret, group: str) -> Outcome:
    address = throttle.address_of(request)
    device = device_of(request)
    device_subject = (
        (budget("device"), f"{device.id}:{student.pk}")
        if device is not None and device.knows(student.pk)
        else None
    )
    child_here = (budget("child_at_address"), f"{student.pk}:{address}")
    try:
        trusted = device_subject is not None and (
            throttle.failures(*device_subject) < device_subject[0].free
        )
        if trusted:
            subjects = []
        elif throttle.is_known(group, address):
            # The class's own network: only a classmate here can make this child wait, nobody
            # guessing from elsewhere (however many addresses they have), whose tries at the
            # child count apart.
            subjects = [child_here, (budget("child"), f"{student.pk}:usual-network")]
        else:
            subjects = [
                child_here,
                (budget("child"), str(student.pk)),
                (budget("class_from_new_address"), f"{group}:{address}"),
            ]
        wait = throttle.waits(subjects)
    except CacheDown:
        return _without_the_cache(
            request, student=student, secret=secret, trusted=device_subject is not None
        )
    if wait:
        return Outcome(wait_seconds=wait)
    if student.check_student_secret(secret):
        try:
            throttle.forget([child_here] + ([device_subject] if device_subject else []))
            throttle.mark_known(group, address)
        except CacheDown:
            pass
        return Outcome(student=student)
    record_failed_sign_in(request, student.username)
    with contextlib.suppress(CacheDown):
        throttle.fail(subjects + ([device_subject] if device_subject else []))
    return Outcome()


def _without_the_cache(request, *, student, secret, trusted: bool) -> Outcome:
    """Redis down: sign-in stays open, a school is not locked out by an outage; an untrusted
    device's tries at a child that failed often lately (the sign-in log, in the database) wait."""
    if not trusted and (
        throttle.recent_failures_in_the_log(student.username) >= settings.SIGN_IN_OUTAGE_FAILURES
    ):
        return Outcome(wait_seconds=settings.SIGN_IN_OUTAGE_WINDOW_SECONDS)
    if student.check_student_secret(secret):
        return Outcome(student=student)
    record_failed_sign_in(request, student.username)
    return Outcome()


def record_failed_sign_in(request, username: str) -> None:
    """The sign-in log (django-axes' AccessFailureLog, kept ``RETAIN_SIGN_IN_LOGS_DAYS``): who was
    tried, when, from which address and browser; never the secret."""
    AccessFailureLog.objects.create(
        username=username,
        ip_address=get_client_ip_address(request),
        user_agent=request.META.get("HTTP_USER_AGENT", "")[:255],
        http_accept=request.META.get("HTTP_ACCEPT", "")[:1025],
        path_info=request.path[:255],
    )


def _wrong_code_subject(request):
    device = device_of(request)
    if device is not None and device.children:
        return budget("wrong_codes_from_device"), device.id
    return budget("wrong_codes_from_address"), throttle.address_of(request)


def class_code_wait(request, classroom_id: int | None) -> int:
    """Seconds before this browser may try a class code (0: now), given the class the code opens
    (None: no class). A class's own code on that class's usual network never waits, whatever
    anybody there has typed: a child with the code from the board gets in. Any other code waits
    alike, right or wrong, so that the wait tells nothing of which codes exist. No claim: a
    child's code and the names page it opens come one after the other."""
    try:
        if classroom_id is not None and throttle.is_known(
            str(classroom_id), throttle.address_of(request)
        ):
            return 0
        return throttle.waits([_wrong_code_subject(request)], claim=False)
    except CacheDown:
        return 0


def class_code_was_wrong(request) -> None:
    with contextlib.suppress(CacheDown):
        throttle.fail([_wrong_code_subject(request)])
