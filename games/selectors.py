"""Reads of live play."""

from __future__ import annotations

from dataclasses import dataclass

from games.models import Match, Seat


@dataclass(frozen=True)
class MatchAccess:
    """What a user may do at a match: play a seat, or watch (``seat`` None)."""

    match_id: int
    game: str
    seat: int | None
    state: dict
    version: int
    wake_at_ms: int | None
    status: str

    @property
    def spectator(self) -> bool:
        return self.seat is None


def match_access(*, match_id, user) -> MatchAccess | None:
    """The user's seat at the match, spectator access for its creator (the teacher, who may put it
    on a projector) and staff, or None: the user may neither play nor watch it."""
    if user is None or not user.is_authenticated:
        return None
    try:
        match = Match.objects.only(
            "id", "game", "state", "version", "wake_at_ms", "status", "created_by_id"
        ).get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError):
        return None
    seat = Seat.objects.filter(match=match, user=user).values_list("index", flat=True).first()
    if seat is None and not (match.created_by_id == user.pk or user.is_staff):
        return None
    return MatchAccess(
        match_id=match.pk,
        game=match.game,
        seat=seat,
        state=match.state,
        version=match.version,
        wake_at_ms=match.wake_at_ms if match.status == Match.Status.PLAYING else None,
        status=match.status,
    )


def match_seats(*, match_id) -> list[dict]:
    """The table: each seat's name and whether it is a bot (public to everyone at the match)."""
    return [
        {"seat": index, "name": name, "bot": bool(level)}
        for index, name, level in Seat.objects.filter(match_id=match_id).values_list(
            "index", "name", "bot_level"
        )
    ]


def user_matches(*, user, limit: int = 20) -> list[Match]:
    """A player's matches, newest first (their home page lists the ones still playing)."""
    return list(Match.objects.filter(seats__user=user).order_by("-created_at").distinct()[:limit])
