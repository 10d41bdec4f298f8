"""How a child's picture password or PIN is stored: a keyed hash (docs/security.md).

A PIN has 10,000 values and a picture password 504: no amount of stretching makes a stolen hash
of either slow to crack, while stretching made every sign-in cost a quarter of a second of CPU
(PBKDF2 at 1,000,000 iterations), so a class signing in together queued for seconds. Instead
the hash is an HMAC-SHA256 under a key kept out of the database (``STUDENT_SECRET_KEY``, or one
derived from ``SECRET_KEY``): a stolen database alone lets nobody test a single guess, and a
check costs microseconds. Teachers' passwords keep Django's own hashers.

Stored form: ``hmac_sha256$<hex digest>$<identity>``. The identity is random for each secret set,
so two children with the same PIN store different hashes. A PBKDF2 (or any Django) hash from
before moves over at the next successful sign-in; its identity then carries the old hash's
fingerprint, so printed login cards (whose QR codes name the fingerprint) keep working.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from django.conf import settings
from django.contrib.auth.hashers import check_password
from django.utils.crypto import constant_time_compare

ALGORITHM = "hmac_sha256"
_KEY_DERIVATION_SALT = "accounts.student-secret-key"
# The login cards' fingerprint salt from before secrets had keyed hashes: the fingerprints of
# hashes stored then are printed on cards, so they are computed as they were.
_FINGERPRINT_SALT = "classroom.roster.login-card"
_INHERITED = "tag:"


def _keys() -> list[bytes]:
    """The current key first, then the fallbacks: a rotated key keeps secrets checkable until each
    child's next sign-in rewrites the hash under the new key (docs/security.md)."""
    if settings.STUDENT_SECRET_KEY:
        return [
            key.encode()
            for key in [settings.STUDENT_SECRET_KEY, *settings.STUDENT_SECRET_KEY_FALLBACKS]
        ]
    return [
        hashlib.sha256(f"{_KEY_DERIVATION_SALT}:{secret_key}".encode()).digest()
        for secret_key in [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
    ]


def _digest(key: bytes, identity: str, canonical_secret: str) -> str:
    return hmac.new(key, f"{identity}\0{canonical_secret}".encode(), hashlib.sha256).hexdigest()


def _identity_of(stored: str) -> str | None:
    algorithm, _sep, rest = stored.partition("$")
    if algorithm != ALGORITHM:
        return None
    _digest_part, _sep, identity = rest.partition("$")
    return identity


def make_secret_hash(canonical_secret: str, *, identity: str | None = None) -> str:
    identity = identity or secrets.token_hex(12)
    return f"{ALGORITHM}${_digest(_keys()[0], identity, canonical_secret)}${identity}"


def check_secret_hash(canonical_secret: str, stored: str) -> tuple[bool, str | None]:
    """Whether the secret matches ``stored``, and the hash to store instead when it does but
    ``stored`` is of an older kind (a Django hasher's, or under a previous key)."""
    identity = _identity_of(stored)
    if identity is None:
        if not check_password(canonical_secret, stored):
            return False, None
        inherited = _INHERITED + secret_fingerprint(stored)
        return True, make_secret_hash(canonical_secret, identity=inherited)
    digest = stored.split("$")[1]
    for index, key in enumerate(_keys()):
        if constant_time_compare(_digest(key, identity, canonical_secret), digest):
            return True, None if index == 0 else make_secret_hash(
                canonical_secret, identity=identity
            )
    return False, None


def secret_fingerprint(stored: str) -> str:
    """A fingerprint of the account's secret: it changes whenever the secret is set again (each
    hash has a fresh identity), not when the hash moves to a new kind or key, and it reveals
    nothing that helps guess the secret. Login cards carry it."""
    identity = _identity_of(stored)
    if identity is not None and identity.startswith(_INHERITED):
        return identity[len(_INHERITED) :]
    if identity is not None:
        stored = f"{ALGORITHM}:{identity}"  # not the digest, which changes with the key
    return hashlib.sha256(f"{_FINGERPRINT_SALT}:{stored}".encode()).hexdigest()[:16]
