"""A teacher's sign-in under django-axes, with the device cookie the children have
(accounts/devices.py, docs/security.md): behind a school's one address axes' lock of an account at
an address is a lock of the account, which any pupil could set off. A browser the teacher signed
in on before is not locked out by anybody else's failures, until it fails ``device`` times itself.
"""

from __future__ import annotations

import contextlib

from django.contrib.auth import get_user_model

from accounts import throttle
from accounts.devices import device_of
from accounts.models import Role
from accounts.throttle import CacheDown, budget


def _device_subject(request, username: str | None):
    device = device_of(request)
    if device is None or not device.children or not username:
        return None
    teacher_id = (
        get_user_model()
        .objects.filter(username=username, role=Role.TEACHER)
        .values_list("pk", flat=True)
        .first()
    )
    if teacher_id is None or not device.knows(teacher_id):
        return None
    return budget("device"), f"{device.id}:{teacher_id}"


def on_a_trusted_device(request, credentials=None) -> bool:
    """``AXES_WHITELIST_CALLABLE``: whether this try at a teacher's account comes from a browser
    that teacher signed in on, still trusted; axes then neither refuses it nor counts it."""
    subject = _device_subject(request, (credentials or {}).get("username"))
    if subject is None:
        return False
    try:
        return throttle.failures(*subject) < subject[0].free
    except CacheDown:
        return True


def failed_on_a_trusted_device(request, username: str) -> None:
    """Counts a wrong password from a trusted browser against that browser's budget."""
    subject = _device_subject(request, username)
    if subject is not None:
        with contextlib.suppress(CacheDown):
            throttle.fail([subject])


def signed_in(request, teacher) -> None:
    subject = _device_subject(request, teacher.username)
    if subject is not None:
        with contextlib.suppress(CacheDown):
            throttle.forget([subject])
