"""Live matches of any engine game (docs/architecture.md, "Contracts").

A Match row is the authority: it holds the engine state as JSON and its version. Only
``games.services`` writes it, under a row lock. MoveRecord is the append-only log a match replays
from (seed + moves); Attempt is one arithmetic decision, the raw material of every accuracy figure.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


def shown_label(label: str, values: dict) -> str:
    """A match's label in the reader's language (``Match.label``)."""
    return gettext(label) % values if values else label


class Match(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Stopped")

    game = models.CharField(max_length=32)
    variant = models.CharField(max_length=32)
    options = models.JSONField(default=dict)
    # The seed never leaves the server while the match is playing: it would reveal the deck.
    seed = models.BigIntegerField()
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PLAYING)
    outcome = models.JSONField(null=True, blank=True)
    # A short name shown to players and on the projector: a teacher's own words, or a message and
    # its values ("Table %(number)s", {"number": 2}) translated when read (``shown_label``), so a
    # Spanish teacher's table reads "Table 2" to a child who reads English.
    label = models.CharField(max_length=80, blank=True)
    label_values = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="matches_created",
    )
    # Bots' next moves, {"<seat>": epoch ms}; planned by the service after every change.
    bot_plan = models.JSONField(default=dict, blank=True)
    # The earliest epoch ms at which a timer fires or a bot moves; the clocks of every server
    # process (and the sweep after a restart) look here, so the schedule survives a restart.
    wake_at_ms = models.BigIntegerField(null=True, blank=True, db_index=True)
    # The match's own clock runs this many ms behind the wall clock: the time it spent paused and
    # the time a teacher added. The engine only ever sees the match's clock (wall - offset), so a
    # pause freezes every timer and bot, and its seconds count in nobody's answer time.
    clock_offset_ms = models.BigIntegerField(default=0)
    # While paused (the wall-clock ms it was paused at): no move, no timer, no bot.
    paused_at_ms = models.BigIntegerField(null=True, blank=True)
    # How much longer the bots think than their level's usual time: the largest time allowance
    # among the table's children (accounts.Accommodations), 2 for a calm or unclocked child, so
    # bots follow that child's pace. Set once, when the match is made (games.services).
    pace_factor = models.FloatField(default=1.0)
    # A solo game against bots (homework) waits for its player: while no socket of a seated player
    # is open, the match is paused (games.services.match_player_left), so neither a server's clock
    # nor the sweep plays on without the child; it resumes where it stood when they come back.
    waits_for_players = models.BooleanField(default=False)
    # The open sockets of seated players, counted only for a match that waits for its players.
    players_connected = models.PositiveIntegerField(default=0)
    # The facts ([operation, a, b]) its deal was steered toward (engine ``Game.focus``): a child's
    # personal practice. Bots read it to leave those facts to the child; empty for a plain deal.
    focus = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        return f"{self.game}/{self.variant} #{self.pk}"

    @property
    def shown_label(self) -> str:
        return shown_label(self.label, self.label_values)

    @property
    def is_playing(self) -> bool:
        return self.status == self.Status.PLAYING


class Seat(models.Model):
    """A place at the table: a user, or a bot with a level (never both)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="seats",
    )
    bot_level = models.CharField(max_length=12, blank=True)
    name = models.CharField(max_length=80)

    class Meta:
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["match", "user"],
                condition=models.Q(user__isnull=False),
                name="seat_one_per_user",
            ),
            models.CheckConstraint(
                condition=(models.Q(user__isnull=False) & models.Q(bot_level=""))
                | (models.Q(user__isnull=True) & ~models.Q(bot_level="")),
                name="seat_user_xor_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}:{self.index} {self.name}"

    @property
    def is_bot(self) -> bool:
        return self.user_id is None


class MoveRecord(models.Model):
    """One applied change of a match, in version order: a player's move, a bot's or a timer's."""

    class Actor(models.TextChoices):
        PLAYER = "player", _("Player")
        BOT = "bot", _("Bot")
        TIMER = "timer", _("Timer")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    version = models.PositiveIntegerField()  # the match's version after this change
    actor = models.CharField(max_length=8, choices=Actor.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # None for a timer
    move = models.JSONField(null=True, blank=True)
    events = models.JSONField(default=list)
    client_id = models.CharField(max_length=64, blank=True)
    received_at = models.DateTimeField()  # when the server received it
    now_ms = models.BigIntegerField()  # the engine time it was applied at

    class Meta:
        ordering = ["match", "version"]
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="move_unique_version"),
            models.UniqueConstraint(
                fields=["match", "seat", "client_id"],
                condition=~models.Q(client_id=""),
                name="move_unique_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} v{self.version} {self.actor}"


class Attempt(models.Model):
    """One arithmetic attempt event (docs/architecture.md, "Contracts"), linked to the student and
    match. Bots' attempts are kept too (``user`` empty) so a match's record is whole; analytics read
    only the rows with a user."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="attempts")
    move = models.ForeignKey(MoveRecord, on_delete=models.CASCADE, related_name="attempts")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="attempts",
    )
    seat = models.PositiveSmallIntegerField()
    game = models.CharField(max_length=32)
    operator = models.CharField(max_length=8)
    operation = models.CharField(max_length=8)  # "add", "sub", "mul", ... (the skill's first part)
    skill = models.CharField(max_length=32)  # e.g. "sub.within20"
    operands = models.JSONField()
    # The problem's numbers are the operands, the expected (true) result and, in ¡Mía! and SUM,
    # the target card the child aims at; the child's is the answer (typed, laid or claimed).
    answer = models.IntegerField(null=True, blank=True)
    expected = models.IntegerField(null=True, blank=True)
    target = models.IntegerField(null=True, blank=True)
    correct = models.BooleanField()
    elapsed_ms = models.PositiveIntegerField()
    # The kind of slip of a wrong answer (engine.mistakes), "" when right.
    mistake = models.CharField(max_length=20, blank=True)
    detail = models.JSONField(default=dict, blank=True)  # the game's extra keys
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["user", "created_at"], name="attempt_user_time"),
            # A student's latest answers on one skill, newest first, read straight off the index
            # (classroom.progress.struggling).
            models.Index(fields=["user", "skill", "-created_at"], name="attempt_user_skill_latest"),
        ]

    def __str__(self) -> str:
        return f"{self.operands} {self.operator} -> {self.answer} ({self.correct})"
