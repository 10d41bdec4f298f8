"""Guess budgets for children signing in, for a school behind one address (docs/security.md).

A whole school reaches the site from one address (NAT), and anyone with a class code can reach its
children's sign-in from anywhere. So no budget shuts: each one, once its free failures are spent,
makes its subject *wait* before the next try, a wait that doubles with every further failure and
is forgotten an hour (or a few) after the last one. A try refused for waiting spends nothing and
checks no secret. The subjects:

- one child at one address: what a classmate hammering a classmate gets;
- one child from anywhere: what many addresses (a botnet) get at one child;
- one class from an address none of its children has signed in from: an outsider with the code;
- wrong class codes from one address (and from one trusted device): typos from the board are not
  guesses of secrets and are counted apart, generously.

A browser that once signed a child in keeps a signed device cookie (accounts/devices.py, OWASP's
"device cookies"): its tries at that child skip the first three budgets, so nobody elsewhere can
make that child wait, until the device itself fails ``device`` times.

The counts live in the cache (Redis when ``REDIS_URL`` is set, shared by every server process).
With the cache unreachable sign-in stays open (an outage must not lock a school out) and falls
back to a per-child check in the database: the failures recorded in the sign-in log.
"""

from __future__ import annotations

import datetime
import ipaddress
import math
import time
from dataclasses import dataclass

import redis
from axes.helpers import get_client_ip_address
from django.conf import settings
from django.core.cache import cache
from django.shortcuts import render
from django.utils import timezone

KEY_PREFIX = "guesses"  # tests give each test a prefix of its own
CACHE_ERRORS = (redis.RedisError, OSError)
KNOWN_ADDRESS_SECONDS = 30 * 24 * 3600
# Typos of a class code: the count is forgotten a while after the first, not the last, so that a
# school's typos do not add up across the lessons of a morning.
COUNTED_FROM_THE_FIRST = {"wrong_codes_from_address", "wrong_codes_from_device"}
# A home or an office gets a whole IPv6 /64 (RFC 6177): each of its addresses is the same guesser.
IPV6_NETWORK_PREFIX = 64


@dataclass(frozen=True)
class Budget:
    name: str
    free: int  # failures before any wait
    first_wait: int  # seconds, after the last free failure; doubles with each further one
    longest_wait: int
    forget_after: int  # seconds after the last failure


def budget(name: str) -> Budget:
    return Budget(name, *settings.SIGN_IN_BUDGETS[name])


class CacheDown(Exception):
    """The cache (Redis) did not answer."""


def now() -> float:
    return time.time()  # a function, so that tests can move the clock


def address_of(request) -> str:
    """The address a budget counts: the client's, or its /64 network for IPv6."""
    address = get_client_ip_address(request) or "unknown"
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 4:
        return str(parsed)
    if parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(ipaddress.ip_network(f"{parsed}/{IPV6_NETWORK_PREFIX}", strict=False))


def _key(name: str, subject: str, part: str) -> str:
    return f"{KEY_PREFIX}:{name}:{subject}:{part}"


def waits(subjects: list[tuple[Budget, str]], *, claim: bool = True) -> int:
    """Seconds before a try at all of ``subjects`` may be made (0: now). Raises CacheDown.

    Once a subject has failed past its free tries, a try also ``claim``s it until its outcome
    (or ``first_wait`` seconds), so that guesses sent together when a wait ends are one guess."""
    keys = [_key(b.name, s, part) for b, s in subjects for part in ("until", "count")]
    try:
        stored = cache.get_many(keys)
        longest = 0.0
        for b, s in subjects:
            until = stored.get(_key(b.name, s, "until")) or 0
            longest = max(longest, until - now())
        if longest > 0:
            return math.ceil(longest)
        for b, s in subjects:
            if (
                claim
                and (stored.get(_key(b.name, s, "count")) or 0) >= b.free
                and not cache.add(_key(b.name, s, "claim"), 1, timeout=b.first_wait)
            ):
                return b.first_wait
    except CACHE_ERRORS as error:
        raise CacheDown from error
    return 0


def fail(subjects: list[tuple[Budget, str]]) -> None:
    """Counts one failure at each subject and sets its wait. Raises CacheDown."""
    try:
        for b, s in subjects:
            count_key = _key(b.name, s, "count")
            if cache.add(count_key, 1, timeout=b.forget_after):
                count = 1
            else:
                try:
                    count = cache.incr(count_key)
                except ValueError:  # forgotten in between
                    cache.add(count_key, 1, timeout=b.forget_after)
                    count = 1
                if b.name not in COUNTED_FROM_THE_FIRST:
                    cache.touch(count_key, b.forget_after)
            if count >= b.free:
                wait = min(b.longest_wait, b.first_wait * 2 ** (count - b.free))
                cache.set(_key(b.name, s, "until"), now() + wait, timeout=b.forget_after)
                cache.delete(_key(b.name, s, "claim"))
    except CACHE_ERRORS as error:
        raise CacheDown from error


def failures(b: Budget, subject: str) -> int:
    """Raises CacheDown."""
    try:
        return cache.get(_key(b.name, subject, "count")) or 0
    except CACHE_ERRORS as error:
        raise CacheDown from error


def forget(subjects: list[tuple[Budget, str]]) -> None:
    """A success: these subjects start afresh. Raises CacheDown."""
    try:
        cache.delete_many(
            [_key(b.name, s, part) for b, s in subjects for part in ("count", "until", "claim")]
        )
    except CACHE_ERRORS as error:
        raise CacheDown from error


def mark_known(group: str, address: str) -> None:
    """A child of ``group`` (a class) signed in from ``address``. Raises CacheDown."""
    try:
        cache.set(_key("known", f"{group}:{address}", "at"), 1, timeout=KNOWN_ADDRESS_SECONDS)
    except CACHE_ERRORS as error:
        raise CacheDown from error


def is_known(group: str, address: str) -> bool:
    """Raises CacheDown."""
    try:
        return bool(cache.get(_key("known", f"{group}:{address}", "at")))
    except CACHE_ERRORS as error:
        raise CacheDown from error


def recent_failures_in_the_log(username: str) -> int:
    """The per-child check while the cache is down: failures in the sign-in log (database)."""
    from axes.models import AccessFailureLog

    since = timezone.now() - datetime.timedelta(seconds=settings.SIGN_IN_OUTAGE_WINDOW_SECONDS)
    return AccessFailureLog.objects.filter(username=username, attempt_time__gte=since).count()


def too_many_tries(request, wait_seconds: int | None = None):
    """Refused for now: the page says how long to wait (HTTP 429, with Retry-After)."""
    response = render(
        request, "accounts/locked_out.html", {"wait_seconds": wait_seconds}, status=429
    )
    if wait_seconds:
        response["Retry-After"] = str(wait_seconds)
    return response
