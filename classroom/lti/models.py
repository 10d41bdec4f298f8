"""What a launch from a learning platform leaves here (docs/lti.md, "What is stored and why").

The platform's registrations, deployments and this tool's keys are django-lti's models
(``lti_tool.LtiRegistration``, ``LtiDeployment``, ``Key``). django-lti's own launch records
(``LtiUser``, ``LtiContext``...) are not written: they keep a person's e-mail and names, which a
child's account here must not. These tables keep only the platform's opaque ids, each tied to the
account or class it signs into."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class LtiPerson(models.Model):
    """A person of a platform (its ``sub``, stable for the platform's issuer) and the account a
    launch signs them into: a teacher's or a child's. Nothing else about them."""

    registration = models.ForeignKey(
        "lti_tool.LtiRegistration", on_delete=models.CASCADE, related_name="+"
    )
    sub = models.CharField(max_length=255)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lti_person"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["registration", "sub"], name="lti_person_unique_sub")
        ]

    def __str__(self) -> str:
        return f"{self.sub} -> {self.user_id}"


class LtiCourse(models.Model):
    """A platform's course (its context id, unique within the deployment) and the class it is
    here: made by the first teacher's launch, joined by its learners' launches."""

    deployment = models.ForeignKey(
        "lti_tool.LtiDeployment", on_delete=models.CASCADE, related_name="+"
    )
    context_id = models.CharField(max_length=255)
    classroom = models.OneToOneField(
        "classroom.Classroom", on_delete=models.CASCADE, related_name="lti_course"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["deployment", "context_id"], name="lti_course_unique_context"
            )
        ]

    def __str__(self) -> str:
        return f"{self.context_id} -> {self.classroom_id}"


class LtiUsedNonce(models.Model):
    """A launch's nonce, spent: pylti1p3 checks that a nonce was issued but never marks it used,
    so the same signed launch could be posted again, from any browser, until it expires. A row
    lives until its token's expiry (after that the token itself is refused; every login issues a
    fresh nonce), and is the launch's first write: a replay fails on the unique index."""

    issuer = models.CharField(max_length=255)
    nonce = models.CharField(max_length=255)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["issuer", "nonce"], name="lti_nonce_used_once")
        ]
        verbose_name = _("spent launch nonce")

    def __str__(self) -> str:
        return self.nonce


class LtiRegistrationLink(models.Model):
    """A one-time address with which a learning platform registers this tool by itself (LTI
    Dynamic Registration, docs/lti.md): made by the site's administrator, pasted by the platform's
    admin. The platform opens it in a frame of its own site, where this site's session cookie is
    not sent: the link, not a sign-in, is what lets the registration through. It is spent by the
    registration it made; unused, it expires (``dynamic_registration.LINK_DAYS``)."""

    name = models.CharField(max_length=255, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    registration = models.ForeignKey(
        "lti_tool.LtiRegistration",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("LTI registration link")

    def __str__(self) -> str:
        return self.name or str(self.pk)
