"""What a launch from a learning platform leaves here (docs/lti.md, "What is stored and why").

The platform's registrations, deployments and this tool's keys are django-lti's models
(``lti_tool.LtiRegistration``, ``LtiDeployment``, ``Key``). django-lti's own launch records
(``LtiUser``, ``LtiContext``...) are not written: they keep a person's e-mail and names, which a
child's account here must not. These tables keep only the platform's opaque ids, each tied to the
account or class it signs into, and the name the platform last gave a person (to keep a name the
teacher changed here)."""

from urllib.parse import urlsplit

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
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
    # The name the platform gave last (a launch, or its class list): a child's name the teacher
    # changed here is kept at the next roster sync (classroom.roster.synced_names).
    imported_name = models.CharField(max_length=160, blank=True, default="")
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
    # The course's member list (Names and Role Provisioning), as the latest launch that carried the
    # claim named it; empty: the platform has not offered it (docs/lti.md, "The class list").
    memberships_url = models.URLField(max_length=1000, blank=True, default="")
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


# --- Assignment and Grade Services (docs/lti.md, "Grades back to the platform") -----------------


class LtiGradeService(models.Model):
    """A course's Assignment and Grade Services endpoint, as its latest launch named it (the
    claim ``https://purl.imsglobal.org/spec/lti-ags/claim/endpoint``), and the teacher's choice of
    what goes back. ``sending_until``: a run sending now holds the course until then (renewed as
    it sends), so that two runs never send the same score."""

    course = models.OneToOneField(LtiCourse, on_delete=models.CASCADE, related_name="grade_service")
    lineitems_url = models.URLField(max_length=1000, blank=True)
    scopes = models.JSONField(default=list)
    send_mastery = models.BooleanField(default=False)
    language = models.CharField(max_length=10, blank=True)  # the columns' titles are in it
    sending_until = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.course_id}: {self.lineitems_url}"


class LtiLineItem(models.Model):
    """A homework's column in the platform's gradebook (its line item's URL): one for its result
    and, if the teacher sends it, one for the mastery figure."""

    class Figure(models.TextChoices):
        RESULT = "result", _("result")
        MASTERY = "mastery", _("mastery")

    course = models.ForeignKey(LtiCourse, on_delete=models.CASCADE, related_name="line_items")
    assignment = models.ForeignKey(
        "classroom.Assignment", on_delete=models.CASCADE, related_name="lti_line_items"
    )
    figure = models.CharField(max_length=10, choices=Figure.choices)
    url = models.URLField(max_length=1000)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["course", "assignment", "figure"], name="lti_line_item_unique_figure"
            )
        ]

    def __str__(self) -> str:
        return self.url


class LtiGradeRun(models.Model):
    """One sending of a course's grades, asked for by its teacher or by the schedule: when, what it
    sent, or why it failed."""

    class Trigger(models.TextChoices):
        TEACHER = "teacher", _("the teacher")
        SCHEDULE = "schedule", _("the schedule")

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting")
        SENDING = "sending", _("sending")
        RETRYING = "retrying", _("will try again")
        DONE = "done", _("sent")
        FAILED = "failed", _("failed")
        SKIPPED = "skipped", _("skipped")

    course = models.ForeignKey(LtiCourse, on_delete=models.CASCADE, related_name="grade_runs")
    trigger = models.CharField(max_length=10, choices=Trigger.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    with_mastery = models.BooleanField(default=False)
    tries = models.PositiveSmallIntegerField(default=0)
    sent = models.PositiveIntegerField(default=0)  # scores the platform took
    unchanged = models.PositiveIntegerField(default=0)  # already there as they are
    left_out = models.PositiveIntegerField(default=0)  # children with no platform account
    error = models.TextField(blank=True)  # why the latest try failed, for the teacher
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.course_id} {self.status} {self.created_at:%Y-%m-%d %H:%M}"


class LtiScoreSent(models.Model):
    """What the platform last took for a child in a homework's column: the score and when. A run
    sends a score only when it differs from this, and writes it here once the platform took it."""

    line_item = models.ForeignKey(LtiLineItem, on_delete=models.CASCADE, related_name="scores")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lti_scores_sent"
    )
    score_given = models.FloatField()
    score_maximum = models.FloatField()
    activity_progress = models.CharField(max_length=20)
    grading_progress = models.CharField(max_length=20)
    sent_at = models.DateTimeField()  # the score's timestamp, as sent
    run = models.ForeignKey(
        LtiGradeRun, on_delete=models.SET_NULL, null=True, blank=True, related_name="scores"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["line_item", "student"], name="lti_score_once")
        ]

    def __str__(self) -> str:
        return f"{self.student_id}: {self.score_given}/{self.score_maximum}"


def origin_of(url: str) -> str | None:
    """The origin (``https://host[:port]``) of an http(s) URL, as CSP source expressions name
    it; None for anything else."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.username:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    default_port = 443 if parts.scheme == "https" else 80
    return f"{parts.scheme}://{host}" + (f":{port}" if port and port != default_port else "")


class LtiFrameOrigins(models.Model):
    """Where a platform shows this tool inside its own pages (docs/lti.md, "Inside a frame"): the
    origins that may frame the pages of a session its launch started (CSP ``frame-ancestors``).
    A platform's issuer is not always the address of its pages (Canvas signs as
    ``https://canvas.instructure.com`` from every school's own Canvas address), so the
    administrator enters them; a registration with no row here is framed by its issuer's origin."""

    registration = models.OneToOneField(
        "lti_tool.LtiRegistration", on_delete=models.CASCADE, related_name="frame_origins"
    )
    origins = models.JSONField(default=list)

    class Meta:
        verbose_name = _("frame origins of a platform")

    def __str__(self) -> str:
        return " ".join(self.origins)


# --- Names and Role Provisioning (docs/lti.md, "The class list from the platform") ---------------


class LtiRosterSync(models.Model):
    """One reading of a course's member list into its class, asked for by its teacher or by the
    schedule: when, and what it changed (the children added, renamed and dropped, by name, and
    what it reported without changing), or why it failed, having changed nothing."""

    class Trigger(models.TextChoices):
        TEACHER = "teacher", _("the teacher")
        SCHEDULE = "schedule", _("the schedule")

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting")
        RUNNING = "running", _("reading the class list")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    class Failure(models.TextChoices):
        NO_SERVICE = "no_service", _("the platform has not offered the course's class list")
        INACTIVE = "inactive", _("the platform's registration or deployment is switched off here")
        UNREACHABLE = "unreachable", _("the platform could not be reached")
        TOKEN_REFUSED = "token_refused", _("the platform refused this tool's access")
        REFUSED = "refused", _("the platform refused to give the class list")
        PLATFORM_ERROR = "platform_error", _("the platform answered with an error")
        UNREADABLE = "unreadable", _("the platform's answer could not be read")
        TOOL_ERROR = "tool_error", _("something went wrong on this site")

    course = models.ForeignKey(LtiCourse, on_delete=models.CASCADE, related_name="roster_syncs")
    trigger = models.CharField(max_length=10, choices=Trigger.choices)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    added = models.JSONField(default=list)  # names of the children put in the class
    renamed = models.JSONField(default=list)  # [name before, name after]
    dropped = models.JSONField(default=list)  # names of the children taken out of the class
    notes = models.JSONField(default=list)  # [kind, name, other name]: reported, not changed
    members = models.PositiveIntegerField(default=0)  # how many the platform listed
    failure = models.CharField(max_length=16, choices=Failure.choices, blank=True)
    error = models.TextField(blank=True)  # the failure's details, as the platform answered
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.course_id} {self.status} {self.created_at:%Y-%m-%d %H:%M}"

    @property
    def changed(self) -> bool:
        return bool(self.added or self.renamed or self.dropped)

    def note_texts(self) -> list[str]:
        """What the run reported without changing, in the reader's language."""
        texts = []
        for kind, name, other in self.notes:
            if kind == "extra_instructor":
                texts.append(
                    gettext(
                        "%(name)s also teaches the course on the platform. A class here has one "
                        "teacher, so they were not made its teacher."
                    )
                    % {"name": name}
                )
            elif kind == "kept_name":
                texts.append(
                    gettext(
                        "%(name)s keeps the name given here; the platform now calls them "
                        "%(platform)s."
                    )
                    % {"name": name, "platform": other}
                )
            elif kind == "not_a_student":
                texts.append(
                    gettext(
                        "%(name)s is a learner of the course, but their account here is not a "
                        "child's: it was left as it is."
                    )
                    % {"name": name}
                )
        return texts
