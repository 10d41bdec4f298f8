import zoneinfo
from functools import cache

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _

from accounts import digits as digit_systems
from accounts.pictures import PICTURE_SEQUENCE_LENGTH, PICTURES, PIN_LENGTH
from accounts.secret_hashing import check_secret_hash, make_secret_hash, secret_fingerprint


class Role(models.TextChoices):
    TEACHER = "teacher", _("Teacher")
    STUDENT = "student", _("Student")


class SecretKind(models.TextChoices):
    NONE = "", _("Not set")
    PICTURE = "picture", _("Picture password")
    PIN = "pin", _("PIN")


def canonical_secret(kind: str, secret) -> str:
    """One spelling per secret, so "1234", [" 1234 "] and the same picture taps all hash alike.

    Raises ValidationError for a secret of the wrong shape."""
    if kind == SecretKind.PIN:
        pin = digit_systems.western(str(secret).strip())
        lo, hi = PIN_LENGTH
        if not (pin.isascii() and pin.isdigit() and lo <= len(pin) <= hi):
            raise ValidationError(_("A PIN is %(lo)s to %(hi)s digits.") % {"lo": lo, "hi": hi})
        return f"pin:{pin}"
    if kind == SecretKind.PICTURE:
        keys = secret.split("-") if isinstance(secret, str) else list(secret)
        lo, hi = PICTURE_SEQUENCE_LENGTH
        if not (lo <= len(keys) <= hi) or any(k not in PICTURES for k in keys):
            raise ValidationError(
                _("A picture password is %(lo)s to %(hi)s pictures from the grid.")
                % {"lo": lo, "hi": hi}
            )
        return "picture:" + "-".join(keys)
    raise ValidationError(_("Unknown kind of secret."))


@cache
def time_zone_names() -> tuple[str, ...]:
    """The IANA zones a user may choose, sorted (Europe/Madrid, America/Mexico_City...)."""
    return tuple(
        sorted(
            name
            for name in zoneinfo.available_timezones()
            if name == "UTC"
            or ("/" in name and not name.startswith(("Etc/", "SystemV/", "posix/", "right/")))
        )
    )


def validate_time_zone(name: str) -> None:
    if name and name not in time_zone_names():
        raise ValidationError(_("Choose a time zone from the list."))


def validate_language(code: str) -> None:
    if code and code not in dict(settings.LANGUAGES):
        raise ValidationError(_("Choose a language from the list."))


class TimeAllowance(models.TextChoices):
    """More time for one child in every game with a clock (WCAG 2.2.1 Timing Adjustable)."""

    STANDARD = "standard", _("Standard time")
    HALF_AGAIN = "x1.5", _("One and a half times the time")
    DOUBLE = "x2", _("Twice the time")
    NO_CLOCK = "none", _("No clock")


TIME_FACTORS = {
    TimeAllowance.STANDARD: 1.0,
    TimeAllowance.HALF_AGAIN: 1.5,
    TimeAllowance.DOUBLE: 2.0,
    TimeAllowance.NO_CLOCK: None,  # no timer at all: the table waits for the child
}


class PublicName(models.TextChoices):
    """How a child appears where the class can see (projector, podium, leaderboards)."""

    FULL = "full", _("Name")
    INITIALS = "initials", _("Initials only")
    HIDDEN = "hidden", _("Not shown")


class Accommodations(models.Model):
    """What a teacher sets, privately, for one child: applied in lessons and homework, invisible
    to other children, and marked on the teacher's figures. No row: nothing set."""

    student = models.OneToOneField(
        "accounts.User", on_delete=models.CASCADE, related_name="accommodations"
    )
    time = models.CharField(
        _("time"), max_length=8, choices=TimeAllowance.choices, default=TimeAllowance.STANDARD
    )
    calm_table = models.BooleanField(
        _("calm ¡Mía! table"),
        default=False,
        help_text=_("Answers each card in their own time, without the race."),
    )
    public_name = models.CharField(
        _("on the projector"), max_length=8, choices=PublicName.choices, default=PublicName.FULL
    )
    read_aloud = models.BooleanField(_("numbers read aloud"), default=False)
    dots = models.BooleanField(_("numbers also as dots and ten-frames"), default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("accommodations")
        verbose_name_plural = _("accommodations")

    def __str__(self) -> str:
        return f"accommodations of {self.student_id}"

    @property
    def time_factor(self) -> float | None:
        """How much longer every clock runs for this child; None: no clock."""
        return TIME_FACTORS[TimeAllowance(self.time)]

    @property
    def any(self) -> bool:
        return (
            self.time != TimeAllowance.STANDARD
            or self.calm_table
            or self.public_name != PublicName.FULL
            or self.read_aloud
            or self.dots
        )


def accommodations_of(user) -> Accommodations:
    """The child's accommodations, or the defaults (never saved) when none were set."""
    try:
        return user.accommodations
    except (Accommodations.DoesNotExist, AttributeError):
        return Accommodations(student=user if getattr(user, "pk", None) else None)


class User(AbstractUser):
    """Teachers sign in with e-mail and password. Students have no e-mail and no password of their
    own: a teacher gives each a picture password or a PIN, checked by ``check_student_secret``."""

    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.TEACHER)
    display_name = models.CharField(_("name"), max_length=80, blank=True)
    secret_kind = models.CharField(
        _("kind of secret"), max_length=16, choices=SecretKind.choices, blank=True, default=""
    )
    secret_hash = models.CharField(max_length=256, blank=True, default="")
    # The zone a school day is counted in: a teacher's own choice, and a student's teacher's
    # (classroom.services keeps them together). Empty: the site's TIME_ZONE.
    time_zone = models.CharField(
        _("time zone"), max_length=64, blank=True, default="", validators=[validate_time_zone]
    )
    # The language of this person's pages, sockets and files, their own choice (a child's may be
    # set by their teacher); empty: none chosen, the browser's (docs/translations.md).
    language = models.CharField(
        _("language"),
        max_length=8,
        blank=True,
        default="",
        # In the table too: a row inserted without it (SQL, an older release's code while the
        # database is upgraded) has one.
        db_default="",
        validators=[validate_language],
    )
    # A child's: the language their family reads their summary in, the family's choice, set by
    # the teacher; empty: the teacher's.
    family_language = models.CharField(
        _("family's language"),
        max_length=8,
        blank=True,
        default="",
        db_default="",
        validators=[validate_language],
    )
    # The digits the school's pages in Arabic show (accounts/digits.py): a teacher's own choice;
    # a student's pages follow their teacher's.
    digits = models.CharField(
        _("digits"),
        max_length=4,
        choices=digit_systems.CHOICES,
        default=digit_systems.WESTERN,
        # In the table too, as for the language.
        db_default=digit_systems.WESTERN,
    )

    objects = UserManager()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(role__in=[Role.TEACHER, Role.STUDENT]), name="user_role_valid"
            ),
        ]

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zone_named(self.time_zone)

    @property
    def is_teacher(self) -> bool:
        return self.role == Role.TEACHER

    @property
    def is_student(self) -> bool:
        return self.role == Role.STUDENT

    def __str__(self) -> str:
        return self.display_name or self.get_full_name() or self.username

    def set_student_secret(self, kind: str, secret) -> None:
        self.secret_kind = kind
        self.secret_hash = make_secret_hash(canonical_secret(kind, secret))

    def get_session_auth_hash(self) -> str:
        """Django ends every session whose stored hash no longer matches this one (on each
        request, and the sockets on each handshake). A student signs in with a secret, not a
        password: a new secret must end the sessions opened with the old one, as a new password
        does. The hash follows the secret's fingerprint, which a new secret changes and the hash's
        move to a new key (or kind) does not: a child signing in after a key rotation ends none
        of their other sessions."""
        if not self.is_student:
            return super().get_session_auth_hash()
        return self._student_session_hash(settings.SECRET_KEY)

    def get_session_auth_fallback_hash(self):
        """The hashes a session opened under a key of ``SECRET_KEY_FALLBACKS`` carries."""
        if not self.is_student:
            yield from super().get_session_auth_fallback_hash()
            return
        for key in [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]:
            if key != settings.SECRET_KEY:
                yield self._student_session_hash(key)
            # Sessions signed in while the hash followed the stored hash itself: moved to the
            # fingerprint's at their next request rather than ended.
            yield salted_hmac(
                "accounts.User.student_session", self.secret_hash, secret=key, algorithm="sha256"
            ).hexdigest()

    def _student_session_hash(self, key: str) -> str:
        return salted_hmac(
            "accounts.User.student_session_of_secret",
            secret_fingerprint(self.secret_hash),
            secret=key,
            algorithm="sha256",
        ).hexdigest()

    def check_student_secret(self, secret) -> bool:
        if not self.is_student or not self.secret_hash or not self.is_active:
            return False
        try:
            candidate = canonical_secret(self.secret_kind, secret)
        except ValidationError:
            return False
        matches, rehashed = check_secret_hash(candidate, self.secret_hash)
        if rehashed:
            # An older kind of hash moves to the keyed one at a successful check; conditional,
            # so that a secret reset meanwhile is not overwritten.
            type(self).objects.filter(pk=self.pk, secret_hash=self.secret_hash).update(
                secret_hash=rehashed
            )
            self.secret_hash = rehashed
        return matches


def zone_named(name: str) -> zoneinfo.ZoneInfo:
    """A user's ``time_zone``, the site's for an empty (or no longer known) name."""
    try:
        return zoneinfo.ZoneInfo(name or settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)
