import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# No 0/O, 1/I/L, 5/S or 2/Z: a child copying the code from the board cannot mix them up.
CLASS_CODE_ALPHABET = "ABCDEFGHJKMNPQRTUVWXY346789"
CLASS_CODE_LENGTH = 6


def new_class_code() -> str:
    return "".join(secrets.choice(CLASS_CODE_ALPHABET) for _ in range(CLASS_CODE_LENGTH))


def normalise_class_code(text: str) -> str:
    """What a child types, as stored: upper case, no spaces or dashes."""
    return "".join(ch for ch in (text or "").upper() if ch.isalnum())


class Classroom(models.Model):
    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="classrooms",
        limit_choices_to={"role": "teacher"},
        verbose_name=_("teacher"),
    )
    name = models.CharField(_("name"), max_length=80)
    code = models.CharField(_("class code"), max_length=CLASS_CODE_LENGTH, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("class")
        verbose_name_plural = _("classes")

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class Enrollment(models.Model):
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="enrollments")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="enrollments"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["classroom", "student"], name="enrollment_unique")
        ]

    def __str__(self) -> str:
        return f"{self.student} in {self.classroom}"
