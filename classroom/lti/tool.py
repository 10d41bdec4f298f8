"""pylti1p3 as this tool uses it: where it finds registrations and deployments, how it fetches a
platform's keys, and what it requires of a launch's token. Nothing here writes to the database:
a launch is checked whole before anything is written (``services.launch_accept``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import requests
from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.utils import translation
from lti_tool.models import LtiDeployment, LtiRegistration
from lti_tool.utils import DjangoToolConfig
from pylti1p3.contrib.django import DjangoCacheDataStorage, DjangoMessageLaunch, DjangoOIDCLogin
from pylti1p3.deployment import Deployment
from pylti1p3.exception import LtiException, OIDCException
from pylti1p3.service_connector import ServiceConnector

logger = logging.getLogger("classroom.lti")

# What a platform's token must carry, beyond pylti1p3's own checks: a token with no expiry would be
# good for ever, and one with no issue time cannot be judged.
REQUIRED_CLAIMS = ["exp", "iat", "nonce", "iss", "aud", "sub"]


class Refused(Exception):
    """A launch or login this tool will not accept; ``reason`` is for the log, never the page."""

    def __init__(self, reason: str, *, status: int = 400, kind: str = "invalid"):
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.kind = kind


class KeySetSession(requests.Session):
    """Fetches a platform's key set with a deadline: pylti1p3 waits without one, and a platform
    that never answers would hold a server thread for ever."""

    def request(self, *args, **kwargs):
        kwargs.setdefault("timeout", settings.LTI_KEY_SET_TIMEOUT_SECONDS)
        return super().request(*args, **kwargs)


class ServiceSession(requests.Session):
    """Calls a platform's services (its access token, gradebook columns, scores) with a deadline,
    for the same reason: a platform that never answers would hold a worker for ever."""

    def request(self, *args, **kwargs):
        kwargs.setdefault("timeout", settings.LTI_SERVICE_TIMEOUT_SECONDS)
        return super().request(*args, **kwargs)


def service_connector(registration: LtiRegistration) -> ServiceConnector:
    """pylti1p3's client of a platform's services: it asks the registration's access-token URL
    for a token with a client assertion signed by this tool's newest key (django-lti's ``Key``,
    published in the key set), then calls the service with it."""
    return ServiceConnector(registration.to_registration(), requests_session=ServiceSession())


class ToolConfig(DjangoToolConfig):
    """Registrations by (issuer, client id): Canvas signs for many client ids under one issuer.
    A deployment is known only if an admin entered it and it is active; django-lti's own
    configuration creates an unknown one during the check, so that a refused launch had written."""

    def find_registration_by_params(self, iss, client_id, *args, **kwargs):
        if client_id is None:
            # A login that names no client id: only an issuer with one registration is certain.
            candidates = list(LtiRegistration.objects.active().filter(issuer=iss)[:2])
            if len(candidates) != 1:
                return None
            self.registration = candidates[0]
            return self.registration.to_registration()
        return super().find_registration_by_params(iss, client_id, *args, **kwargs)

    def find_deployment(self, iss, deployment_id):
        return None  # every lookup names the client id (check_iss_has_many_clients)

    def find_deployment_by_params(self, iss, deployment_id, client_id, *args, **kwargs):
        self.deployment = (
            LtiDeployment.objects.active()
            .filter(
                registration__issuer=iss,
                registration__client_id=client_id,
                registration__is_active=True,
                deployment_id=deployment_id,
            )
            .select_related("registration")
            .first()
        )
        if self.deployment is None:
            return None
        return Deployment().set_deployment_id(self.deployment.deployment_id)


def oidc_login_response(request, *, target_link_uri: str):
    """The redirect to the platform's authorization endpoint, with a fresh state (cookie) and
    nonce (cache)."""
    login = DjangoOIDCLogin(request, ToolConfig(), launch_data_storage=DjangoCacheDataStorage())
    try:
        return login.redirect(target_link_uri)
    except (OIDCException, LtiException) as error:
        raise Refused(f"login: {error}", kind="unknown_platform") from error
    except ObjectDoesNotExist as error:  # no key of this tool's yet (manage.py lti_keys)
        raise Refused(f"login: {error}", status=503, kind="not_set_up") from error


def login_registration(request) -> LtiRegistration:
    """The registration a login request names (its issuer, and client id if it gives one), as
    pylti1p3 finds it; Refused if there is none active."""
    config = ToolConfig()
    try:
        DjangoOIDCLogin(request, config).validate_oidc_login()
    except (OIDCException, LtiException) as error:
        raise Refused(f"login: {error}", kind="unknown_platform") from error
    return config.registration


@dataclass(frozen=True)
class CheckedLaunch:
    claims: dict
    registration: LtiRegistration
    deployment: LtiDeployment


def launch_checked(request) -> CheckedLaunch:
    """The launch's claims once pylti1p3 has checked its state, nonce (issued here), issuer and
    client id, signature (with the platform's key set, fetched over HTTP), expiry and deployment.
    Raises Refused otherwise. The nonce is not yet spent: ``services.launch_accept`` spends it."""
    config = ToolConfig()
    launch = DjangoMessageLaunch(
        request,
        config,
        launch_data_storage=DjangoCacheDataStorage(),
        requests_session=KeySetSession(),
    )
    # pylti1p3 checks the audience itself (the client id must be the registration's) and PyJWT
    # leaves aud alone; every other claim is PyJWT's to check, the required ones present.
    launch.set_jwt_verify_options({"verify_aud": False, "require": REQUIRED_CLAIMS})
    try:
        launch.validate()
        claims = dict(launch.get_launch_data())
    except LtiException as error:
        raise Refused(f"launch: {error}", kind=_kind_of(str(error))) from error
    except ObjectDoesNotExist as error:
        raise Refused(f"launch: {error}", status=503, kind="not_set_up") from error
    if config.deployment is None or config.registration is None:
        raise Refused("launch: no deployment", kind="unknown_platform")
    return CheckedLaunch(
        claims=claims, registration=config.registration, deployment=config.deployment
    )


def _kind_of(message: str) -> str:
    """Which page explains the refusal: pylti1p3 says why only in its message."""
    lowered = message.lower()
    if "expired" in lowered:
        return "expired"
    if "registration" in lowered or "deployment" in lowered or "client id" in lowered:
        return "unknown_platform"
    if "state" in lowered or "nonce" in lowered:
        return "stale"
    return "invalid"


LAUNCH_PRESENTATION = "https://purl.imsglobal.org/spec/lti/claim/launch_presentation"


def launch_language(claims: dict) -> str:
    """The site's language for the person's language on the platform (the launch presentation's
    ``locale``: Moodle's "es_mx", Canvas's "es-ES"), or "" when it names none the site speaks."""
    locale = str((claims.get(LAUNCH_PRESENTATION) or {}).get("locale") or "")
    try:
        return translation.get_supported_language_variant(locale.replace("_", "-").lower())
    except LookupError:
        return ""
