"""The address a request came from, behind ``PROXY_COUNT`` proxies of our own (nginx).

Each proxy of ours appends the address it was reached from to ``X-Forwarded-For``, so the client's
address is the ``PROXY_COUNT``-th from the right; anything left of it was written by the client
and is not believed. Without proxies, ``REMOTE_ADDR``. django-axes reads it through
``AXES_CLIENT_IP_CALLABLE``, and so do the sign-in budgets (accounts/throttle.py): axes' own
reading needs django-ipware, which the project does not install, and without it every child of
every school behind nginx would have nginx's address."""

from __future__ import annotations

from django.conf import settings


def client_address(request) -> str | None:
    proxies = settings.PROXY_COUNT
    if proxies:
        forwarded = [
            part.strip()
            for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
            if part.strip()
        ]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR")
