"""Reads of the LTI setup."""

from django.urls import reverse
from lti_tool.models import LtiRegistration


def tool_urls(request) -> dict[str, str]:
    """What a platform's admin enters about this tool, absolute as the platform reaches it."""
    return {
        "login": request.build_absolute_uri(reverse("lti:login")),
        "launch": request.build_absolute_uri(reverse("lti:launch")),
        "jwks": request.build_absolute_uri(reverse("lti:jwks")),
    }


def registrations():
    return LtiRegistration.objects.prefetch_related("deployments").order_by("issuer", "client_id")
