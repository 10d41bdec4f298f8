"""Device cookies (OWASP's answer to lock-out abuse): a browser that signed a child in keeps a
signed cookie naming that child, and its later tries at that child skip the budgets anyone
elsewhere could spend (accounts/throttle.py, docs/security.md).

The cookie is signed with SECRET_KEY, so it cannot be forged or edited; it names a random device
id (whose own failures are counted) and the children this browser signed in, the most recent
last (a class's shared tablet holds many)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.conf import settings

COOKIE_NAME = "signin_device"
SALT = "accounts.devices"
MAX_AGE_SECONDS = 365 * 24 * 3600
MOST_CHILDREN = 60


@dataclass(frozen=True)
class Device:
    id: str
    children: tuple[int, ...]

    def knows(self, student_id: int) -> bool:
        return student_id in self.children


def device_of(request) -> Device | None:
    value = request.get_signed_cookie(COOKIE_NAME, default=None, salt=SALT, max_age=MAX_AGE_SECONDS)
    if not value:
        return None
    device_id, _sep, children = value.partition(":")
    try:
        known = tuple(int(child) for child in children.split(",") if child)
    except ValueError:
        return None
    return Device(device_id, known) if device_id else None


def remember(request, response, student_id: int) -> None:
    """After ``student_id`` signed in on this browser."""
    device = device_of(request) or Device(secrets.token_urlsafe(12), ())
    children = [child for child in device.children if child != student_id] + [student_id]
    response.set_signed_cookie(
        COOKIE_NAME,
        f"{device.id}:{','.join(str(child) for child in children[-MOST_CHILDREN:])}",
        salt=SALT,
        max_age=MAX_AGE_SECONDS,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
