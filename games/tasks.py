"""Celery tasks of live play; thin, they call the services."""

from celery import shared_task

from games import services
from games.models import Match

# Sockets wake their own matches on time; the sweep only catches the ones nobody is connected to
# (every socket gone, or the server restarted), so it can run seldom and look a little late.
SWEEP_GRACE_MS = 2000


@shared_task(ignore_result=True)
def wake_overdue_matches() -> int:
    overdue = Match.objects.filter(
        status=Match.Status.PLAYING,
        paused_at_ms__isnull=True,  # a paused match is due nothing until it resumes
        wake_at_ms__lte=services.now_ms() - SWEEP_GRACE_MS,
    )
    # A solo game (homework against bots) waits for its child: it is paused while they are away,
    # and one made but not yet opened is due nothing either (games.models.Match.waits_for_players).
    overdue = overdue.exclude(waits_for_players=True, players_connected=0).values_list(
        "id", flat=True
    )
    woken = 0
    for match_id in overdue[:500]:
        services.match_wake(match_id=match_id)
        woken += 1
    return woken
