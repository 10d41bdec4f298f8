"""Guess budgets for signing in, beside django-axes' lock of one account at one address.

A whole class signs in from one school address (NAT), so no lock may fall on an address alone
after a few typos, and none on an account alone, which anyone could lock on purpose from home.
django-axes locks an account *at an address* (``AXES_LOCKOUT_PARAMETERS``); these budgets bound
what is left, over fixed hours: every failed sign-in from one address (generous: a class of 30
with several typos each stays far below it), every failed guess at one class's children
(classroom.views), and every wrong class code from one address. docs/security.md gives the
figures and what an attacker gains.
"""

from __future__ import annotations

import time

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.core.cache import cache
from django.shortcuts import render

WINDOW_SECONDS = 3600
KEY_PREFIX = "guesses"  # tests give each test a prefix of its own


def address_of(request) -> str:
    return get_client_ip_address(request) or "unknown"


def _key(budget: str, subject: str) -> str:
    return f"{KEY_PREFIX}:{budget}:{subject}:{int(time.time() // WINDOW_SECONDS)}"


def _limit(budget: str) -> int:
    return settings.SIGN_IN_GUESS_BUDGETS[budget]


def spent(budget: str, subject: str) -> bool:
    """Whether ``subject`` has used this hour's ``budget`` of failures."""
    return (cache.get(_key(budget, subject)) or 0) >= _limit(budget)


def spend(budget: str, subject: str) -> None:
    """Counts one failure (atomic in Redis; the window's key expires after the next hour)."""
    key = _key(budget, subject)
    if cache.add(key, 1, timeout=2 * WINDOW_SECONDS):
        return
    try:
        cache.incr(key)
    except ValueError:  # expired in between
        cache.add(key, 1, timeout=2 * WINDOW_SECONDS)


def too_many_tries(request):
    """The same page and status as django-axes' lockout."""
    return render(request, "accounts/locked_out.html", status=429)


def count_failed_sign_in(sender, credentials=None, request=None, **kwargs) -> None:
    """Receiver of ``user_login_failed`` (accounts.apps): every failed sign-in, teacher's or
    child's, spends its address's budget."""
    if request is not None:
        spend("address", address_of(request))
