"""How long what is kept about children is kept (docs/privacy.md): the beat's daily task deletes
what has outlived ``settings.RETENTION_DAYS``.

- the sign-in log (django-axes: sign-ins and failed sign-ins, with addresses), and expired sessions;
- progress reports, with their files;
- games: a match finished (or stopped) longer ago than the attempts' period goes with its moves,
  seats and attempts, and the analytics rollups of days and weeks before it go too, so that no
  figure outlives the answers it was made of; so do the running figures of class sessions that
  ended before it;
- games left playing (a table nobody closed, homework never finished) whose last change is older
  than their own period, with their moves, seats and attempts;
- class sessions (with their tables, places and lobby presences) ended, or left open, longer ago
  than theirs; and who sat in a lobby, once they were last seen there longer ago than its period;
- the record of who looked at children's data.
"""

from __future__ import annotations

import datetime

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models.functions import Coalesce
from django.utils import timezone

from classroom.models import (
    AnswerTimesDay,
    AnswerTimesWeek,
    ClassSession,
    DataAccess,
    FactMissDay,
    FactMissWeek,
    ProgressReport,
    SessionAnswerTimes,
    SessionPresence,
    SessionSkillFigures,
    SkillDay,
    SkillWeek,
)
from games.models import Match


def retention_apply(*, now: datetime.datetime | None = None) -> dict[str, int]:
    """Deletes what is past its period; how many rows of each kind went."""
    now = now or timezone.now()
    days = settings.RETENTION_DAYS
    deleted: dict[str, int] = {}

    log_cutoff = now - datetime.timedelta(days=days["sign_in_logs"])
    deleted["sign_in_log"] = sum(
        model.objects.filter(attempt_time__lt=log_cutoff).delete()[0]
        for model in (AccessLog, AccessFailureLog, AccessAttempt)
    )
    deleted["sessions"] = Session.objects.filter(expire_date__lt=now).delete()[0]

    report_cutoff = now - datetime.timedelta(days=days["reports"])
    old_reports = ProgressReport.objects.filter(created_at__lt=report_cutoff)
    for report in old_reports:
        for field in report.stored_files():
            field.delete(save=False)
    deleted["reports"] = old_reports.delete()[0]

    game_cutoff = now - datetime.timedelta(days=days["attempts"])
    with transaction.atomic():
        deleted["matches"] = (
            Match.objects.exclude(status=Match.Status.PLAYING)
            .filter(finished_at__lt=game_cutoff)
            .delete()[0]
        )
        first_kept_day = timezone.localdate(game_cutoff)
        first_kept_week = first_kept_day - datetime.timedelta(days=first_kept_day.weekday())
        deleted["rollups"] = sum(
            model.objects.filter(day__lt=first_kept_day).delete()[0]
            for model in (SkillDay, AnswerTimesDay, FactMissDay)
        ) + sum(
            model.objects.filter(week__lt=first_kept_week).delete()[0]
            for model in (SkillWeek, AnswerTimesWeek, FactMissWeek)
        )
        deleted["session_figures"] = sum(
            model.objects.filter(session__ended_at__lt=game_cutoff).delete()[0]
            for model in (SessionSkillFigures, SessionAnswerTimes)
        )

    unfinished_cutoff = now - datetime.timedelta(days=days["unfinished_games"])
    deleted["unfinished_matches"] = (
        Match.objects.filter(status=Match.Status.PLAYING, updated_at__lt=unfinished_cutoff)
        .delete()[1]
        .get(Match._meta.label, 0)
    )
    session_cutoff = now - datetime.timedelta(days=days["class_sessions"])
    deleted["class_sessions"] = (
        ClassSession.objects.alias(last=Coalesce("ended_at", "started_at", "created_at"))
        .filter(last__lt=session_cutoff)
        .delete()[1]
        .get(ClassSession._meta.label, 0)
    )
    presence_cutoff = now - datetime.timedelta(days=days["lobby_presences"])
    deleted["lobby_presences"] = SessionPresence.objects.filter(
        last_seen_at__lt=presence_cutoff
    ).delete()[0]
    access_cutoff = now - datetime.timedelta(days=days["access_log"])
    deleted["access_log"] = DataAccess.objects.filter(at__lt=access_cutoff).delete()[0]
    return deleted
