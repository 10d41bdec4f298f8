import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts import digits
from classroom.homework import titles as homework_titles

# No 0/O, 1/I/L, 5/S or 2/Z: a child copying the code from the board cannot mix them up.
CLASS_CODE_ALPHABET = "ABCDEFGHJKMNPQRTUVWXY346789"
CLASS_CODE_LENGTH = 6


def new_class_code() -> str:
    return "".join(secrets.choice(CLASS_CODE_ALPHABET) for _ in range(CLASS_CODE_LENGTH))


def normalise_class_code(text: str) -> str:
    """What a child types, as stored: upper case, no spaces or dashes, Western digits (an Arabic
    keyboard types ٣ for 3)."""
    return "".join(ch for ch in digits.western(text or "").upper() if ch.isalnum())


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


class LoginCard(models.Model):
    """What a student's printed login card shows: their picture password or PIN, sealed with a key
    derived from SECRET_KEY (the account keeps only a hash, so a card could not be reprinted
    otherwise). ``secret_tag`` fingerprints the account's hash when the copy was made: a secret
    set by any other path leaves a stale copy, which is then never printed."""

    student = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="login_card",
    )
    sealed_secret = models.TextField()
    secret_tag = models.CharField(max_length=32)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"login card of {self.student_id}"


# --- class sessions ------------------------------------------------------------------------------


class TeamMode(models.TextChoices):
    NONE = "none", _("Each child for themselves")
    TABLES = "tables", _("Each table is a team")
    CLASS = "class", _("The whole class together against the bots")


class ProjectorNames(models.TextChoices):
    """How the projector names the children of a session (the teacher's choice for the room)."""

    FULL = "full", _("Full names")
    FIRST = "first", _("First names only")
    INITIALS = "initials", _("Initials only")


# The projector's leaderboard: its first places only (0: everyone with points).
PROJECTOR_TOP_CHOICES = (5, 10, 0)


class ClassSession(models.Model):
    """A lesson with a game: the teacher opens a lobby, students gather, the teacher starts and
    the class plays at tables (each table a games.Match), then the teacher ends it."""

    class Status(models.TextChoices):
        LOBBY = "lobby", _("Lobby open")
        PLAYING = "playing", _("Playing")
        ENDED = "ended", _("Ended")

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="sessions")
    game = models.CharField(_("game"), max_length=32)
    variant = models.CharField(_("variant"), max_length=32)
    options = models.JSONField(default=dict, blank=True)
    table_size = models.PositiveSmallIntegerField(_("players per table"))
    bot_level = models.CharField(_("bots' level"), max_length=12, default="easy")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY)
    # A locked lobby lets nobody new in (the students already in stay): the teacher's way to start
    # with the class as it is, or to keep out a student who should be elsewhere.
    lobby_locked = models.BooleanField(default=False)
    # The teacher's "Seat children who need a calm table together": when dealing, children with a
    # calm table or no clock (accounts.Accommodations) get tables of their own.
    calm_together = models.BooleanField(default=False)
    # The teacher's "Seat children of similar level together": when dealing, the children are
    # ordered by their level at the session's game (classroom.progress.levels.levels_in_game)
    # and neighbours in that order share a table.
    seat_by_level = models.BooleanField(default=False)
    # How the class scores (docs/rules/teams.md): each child for themselves, each table as a team
    # against the other tables, or the whole class together against the bots.
    team_mode = models.CharField(
        _("teams"), max_length=8, choices=TeamMode.choices, default=TeamMode.NONE
    )
    # Every table's clock stands still while this is set (games.services.match_pause).
    paused_at = models.DateTimeField(null=True, blank=True)
    # The round the teacher started after this one ("Play another round"): the screens still on
    # this session (the projector, a second monitor) follow it there by themselves.
    next_round = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="previous_round"
    )
    # How the projector names every child (a child's own stricter choice, accounts.Accommodations,
    # wins) and how many places its leaderboard shows (docs/live-play.md, "The projector").
    projector_names = models.CharField(
        _("names on the projector"),
        max_length=10,
        choices=ProjectorNames.choices,
        default=ProjectorNames.FIRST,
    )
    projector_top = models.PositiveSmallIntegerField(
        _("places on the projector's leaderboard"), default=10
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("class session")

    def __str__(self) -> str:
        return f"{self.classroom} {self.game}/{self.variant} ({self.status})"


class SessionPresence(models.Model):
    """A student in the session's lobby (and later at a table)."""

    session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="presences")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="session_presences"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "student"], name="presence_unique")
        ]

    def __str__(self) -> str:
        return f"{self.student} in {self.session}"


class SessionTable(models.Model):
    """A table of a session: its seating (``places``, before and after the start) and, once the
    teacher starts, its match."""

    session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField(
        "games.Match",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="session_table",
    )

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="table_unique_number")
        ]

    def __str__(self) -> str:
        return f"table {self.number} of {self.session}"


class SessionPlace(models.Model):
    """A student's seat at a session table (empty seats become bots when the session starts)."""

    table = models.ForeignKey(SessionTable, on_delete=models.CASCADE, related_name="places")
    seat = models.PositiveSmallIntegerField()
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="session_places"
    )

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="place_unique_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.student} at seat {self.seat} of {self.table}"


# --- homework ------------------------------------------------------------------------------------


class Assignment(models.Model):
    """Homework: a set of solo puzzles (the ¡Mía! square, by size and difficulty) or games against
    bots, due by a date."""

    class Kind(models.TextChoices):
        PUZZLES = "puzzles", _("Solo puzzles")
        BOT_GAMES = "bot_games", _("Games against bots")
        # Each child their own items, toward their own facts (PersonalPlan).
        PERSONAL = "personal", _("Personal practice")

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="assignments")
    # The title the teacher typed, kept as typed; empty when the platform named the homework:
    # then its kind and parameters, worded in the reader's language when read (``title``).
    typed_title = models.CharField(_("title"), max_length=120, blank=True)
    title_kind = models.CharField(max_length=20, blank=True)  # classroom.homework.titles.KINDS
    title_params = models.JSONField(default=dict, blank=True)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    game = models.CharField(_("game"), max_length=32)
    variant = models.CharField(_("variant"), max_length=32)
    options = models.JSONField(default=dict, blank=True)
    difficulty = models.PositiveSmallIntegerField(_("difficulty"), null=True, blank=True)
    players = models.PositiveSmallIntegerField(_("players"), default=1)  # bot games: seats
    bot_level = models.CharField(_("bots' level"), max_length=12, blank=True)
    # The items every student gets, fixed when the teacher assigns: puzzle seeds (the same deals
    # for the whole class) or one entry per game.
    items = models.JSONField(default=list)
    due_at = models.DateTimeField(_("due"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["due_at", "id"]

    def __str__(self) -> str:
        return self.title

    @property
    def title(self) -> str:
        """The title in the reader's language: the teacher's words as typed, or the platform's
        worded now (classroom.homework.titles)."""
        if self.title_kind:
            return homework_titles.worded(self.title_kind, self.title_params)
        return self.typed_title

    @title.setter
    def title(self, typed: str) -> None:
        """A title the teacher typed (the platform's are given by ``titles.give_title``)."""
        self.typed_title = typed
        self.title_kind = homework_titles.TYPED
        self.title_params = {}


class AssignmentWork(models.Model):
    """A student's match for one item of an assignment; it resumes where the student stopped."""

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="works")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assignment_works"
    )
    item = models.PositiveSmallIntegerField()
    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, related_name="assignment_work"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["assignment", "student", "item"], name="work_unique_item"
            )
        ]

    def __str__(self) -> str:
        return f"{self.student}: {self.assignment} item {self.item}"


class PersonalPlan(models.Model):
    """One child's own part of a personal-practice assignment, fixed when the teacher assigns it:
    the facts in focus (as the working set showed them then, with their kind and reason) and the
    items (game, variant, seed; a puzzle's size) the child plays toward them
    (classroom.practice.services)."""

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="plans")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="personal_plans"
    )
    # [{"operation", "first", "second", "kind", "why"}]: "why" as working_set.reason_text reads
    # it (plans set before it hold "reason", the words in the language of the day)
    facts = models.JSONField(default=list)
    # [{"game", "variant", "seed", "size"}]: size is a puzzle's (None for a game against bots)
    items = models.JSONField(default=list)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["assignment", "student"], name="plan_unique_student")
        ]

    def __str__(self) -> str:
        return f"{self.student}: {self.assignment}"


class NextSessionFocus(models.Model):
    """Facts a teacher chose for a child to practise at their table in the class's next session:
    the session that opens its tables next deals toward them and marks them used."""

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="+")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    facts = models.JSONField(default=list)  # [[operation, a, b]]
    created_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField(null=True, blank=True)
    used_in = models.ForeignKey(
        ClassSession, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        indexes = [models.Index(fields=["classroom", "used_at"], name="next_focus_pending")]

    def __str__(self) -> str:
        return f"{self.student}: {self.facts}"


# --- progress reports ----------------------------------------------------------------------------


class ProgressReport(models.Model):
    """A class's report for a period, compiled by Celery into a CSV and a PDF; or (``kind``
    class_tables) every child's answers and figures to the period's last day, written by the same
    task into a zip of CSV tables (classroom.roster.class_tables)."""

    class Kind(models.TextChoices):
        REPORT = "report", _("Progress report")
        CLASS_TABLES = "class_tables", _("Every child's answers and figures (CSV tables, zip)")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Being compiled")
        DONE = "done", _("Ready")
        FAILED = "failed", _("Failed")

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="reports")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.REPORT)
    period_start = models.DateField(_("from"))
    period_end = models.DateField(_("to"))  # inclusive
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    weekly = models.BooleanField(default=False)  # compiled by Celery beat
    # The language the files are written in: the requesting teacher's at the time.
    language = models.CharField(max_length=8, default=settings.LANGUAGE_CODE)
    csv_file = models.FileField(upload_to="reports/", blank=True)
    pdf_file = models.FileField(upload_to="reports/", blank=True)
    zip_file = models.FileField(upload_to="reports/", blank=True)  # class_tables
    error = models.TextField(blank=True)
    tries = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    # When it was last handed to the workers (requested, retried, or sent again by the sweep).
    queued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # What its last run was compiled under besides the answers (the school's zone, the rules of
    # the figures, the class as it names it: ``selectors.report_settings``); empty until a run
    # claims it, or once the figures it read were counted again.
    compiled_for = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["classroom", "period_start", "period_end"],
                condition=models.Q(weekly=True),
                name="report_one_weekly_per_period",
            )
        ]

    def __str__(self) -> str:
        return f"{self.classroom} {self.period_start}..{self.period_end} ({self.status})"

    @property
    def pending(self) -> bool:
        return self.status in {self.Status.QUEUED, self.Status.RUNNING}

    def stored_files(self) -> list:
        """Its files in storage (none until a run finishes it)."""
        return [field for field in (self.csv_file, self.pdf_file, self.zip_file) if field]

    @property
    def status_label(self) -> str:
        """What the teacher reads: a report whose first run did not finish says it is being
        tried again, rather than an eternal "Queued"."""
        if self.pending and self.tries >= 1 and self.status == self.Status.QUEUED:
            return _("Delayed: trying again (try %(try)s)") % {"try": self.tries + 1}
        if self.pending and self.tries >= 2:
            return _("Being compiled (try %(try)s)") % {"try": self.tries}
        return str(self.get_status_display())


# The analytics rollups live with the code that keeps them (classroom/progress/models.py).
from classroom.progress.models import (  # noqa: E402, F401
    AnswerTimesDay,
    AnswerTimesWeek,
    FactMissDay,
    FactMissWeek,
    SkillDay,
    SkillWeek,
)


class SessionSkillFigures(models.Model):
    """A student's answers of one skill in one class session, kept as they are written (in the
    move's transaction: classroom.sessions.figures), so the live monitor reads one row per student
    and skill however long the session has run, instead of every answer on every change."""

    session = models.ForeignKey(
        ClassSession, on_delete=models.CASCADE, related_name="skill_figures"
    )
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    skill = models.CharField(max_length=32)
    attempts = models.PositiveIntegerField(default=0, db_default=0)
    correct = models.PositiveIntegerField(default=0, db_default=0)
    # Wrong answers since the last right one: the monitor's "wrong in a row" flag.
    wrong_in_a_row = models.PositiveIntegerField(default=0, db_default=0)
    elapsed_ms_sum = models.BigIntegerField(default=0, db_default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["session", "student", "skill"], name="session_figures_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.student_id} {self.skill}: {self.correct}/{self.attempts}"


class SessionAnswerTimes(models.Model):
    """The answer-time histogram of a ``SessionSkillFigures`` row, a row per bucket that has
    answers (classroom/progress/models.py, ``AnswerTimes``): medians within the rollups' bound."""

    session = models.ForeignKey(ClassSession, on_delete=models.CASCADE, related_name="+")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    skill = models.CharField(max_length=32)
    bucket = models.PositiveSmallIntegerField()
    answers = models.PositiveIntegerField(default=0, db_default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["session", "student", "skill", "bucket"], name="session_times_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.student_id} {self.skill} t{self.bucket}: {self.answers}"


# --- who looked at children's data ---------------------------------------------------------------


class DataAccess(models.Model):
    """One look at, or download of, a child's or a class's data by a teacher: who, when, what
    (which page or download, of which class and child). A school shows it when asked who saw a
    child's data (docs/privacy.md); it goes with the child, and after ``RETAIN_ACCESS_LOG_DAYS``."""

    class Kind(models.TextChoices):
        PROGRESS_PAGE = "progress_page", _("Progress page")
        ANSWERS_CSV = "answers_csv", _("Answers (CSV)")
        REPORT_CSV = "report_csv", _("Progress report (CSV)")
        REPORT_PDF = "report_pdf", _("Progress report (PDF)")
        LOGIN_CARDS = "login_cards", _("Login cards (PDF)")
        STUDENT_EXPORT = "student_export", _("Student's data (JSON)")
        CLASS_EXPORT = "class_export", _("Class's data (JSON)")
        CLASS_TABLES = "class_tables", _("Class's answers and figures (CSV zip)")
        # Pages that show every child's figures at once: one row covers the whole class.
        CLASS_PROGRESS = "class_progress", _("Class progress page")
        CLASS_ACTIVITY = "class_activity", _("Class's games and time")
        HOMEWORK_RESULTS = "homework_results", _("Homework results")
        LIVE_MONITOR = "live_monitor", _("Live monitor")

    at = models.DateTimeField(db_index=True)
    # The name stays when the viewer's account is gone: the record is the school's.
    viewer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="data_accesses_made",
    )
    viewer_name = models.CharField(max_length=150)
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="data_accesses")
    # None: the whole class (its report, its export, all its cards).
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="data_accesses_about",
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    page = models.CharField(max_length=300)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["classroom", "-at"], name="data_access_class_time")]

    def __str__(self) -> str:
        return f"{self.viewer_name} {self.kind} {self.classroom_id}/{self.student_id} {self.at}"


# OneRoster's identifiers of what an import made live with the import (classroom/oneroster/).
from classroom.oneroster.models import OneRosterLink  # noqa: E402, F401
