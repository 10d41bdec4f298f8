"""What an OneRoster import keeps of the district's files (imported by classroom.models, so it
belongs to the classroom app and its migrations).

Only the sourcedId of each class, teacher, child and enrolment it made, and the name the file
gave it: the sourcedId finds the same object at the next import (and keys the gradebook export);
the imported name tells a name the teacher changed here (kept) from one the file changed (taken).
No e-mail of a child, no birth date, no demographics: docs/oneroster.md, "What is stored"."""

from django.conf import settings
from django.db import models


class OneRosterLink(models.Model):
    class Kind(models.TextChoices):
        CLASS = "class"
        TEACHER = "teacher"
        STUDENT = "student"
        ENROLLMENT = "enrollment"

    kind = models.CharField(max_length=12, choices=Kind.choices)
    sourced_id = models.CharField(max_length=255)
    # A class: its classroom. A teacher or child: their account. An enrolment: both.
    classroom = models.ForeignKey(
        "classroom.Classroom",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="oneroster_links",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="oneroster_links",
    )
    imported_name = models.CharField(max_length=160, blank=True, default="")
    imported_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "sourced_id"], name="oneroster_link_unique")
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.sourced_id}"
