"""Reads of live play."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext as _

import engine
from accounts.models import PublicName
from accounts.public_names import FULL, name_others_see, told_apart
from games import async_db
from games.models import Match, MoveRecord, Seat
from realtime.database_waits import bounded_database_sync_to_async


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
    clock_offset_ms: int = 0
    paused_at_ms: int | None = None
    waits_for_players: bool = False

    @property
    def spectator(self) -> bool:
        return self.seat is None


def match_access(*, match_id, user) -> MatchAccess | None:
    """The user's seat at the match, spectator access for its creator (the teacher, who may put it
    on a projector) and staff, or None: the user may neither play nor watch it."""
    query = _access_query(match_id, user)
    return None if query is None else _access_from(query.first(), user)


async def match_access_async(*, match_id, user) -> MatchAccess | None:
    """``match_access`` for a socket, on a server's event loop. On PostgreSQL its one query runs
    on the loop's own connections (games/async_db.py): on the thread Channels shares, sockets
    connecting in a burst (a class's games ending together) held the GIL that the loop's moves
    needed after each of their round trips (docs/capacity.md)."""
    if not async_db.enabled():
        return await bounded_database_sync_to_async(match_access)(match_id=match_id, user=user)
    query = _access_query(match_id, user)
    if query is None:
        return None
    rows = await async_db.fetch(*query.query.sql_with_params())
    if not rows:
        return None
    row = list(rows[0])
    row[_ACCESS_COLUMNS.index("state")] = _state_from_db(row[_ACCESS_COLUMNS.index("state")])
    return _access_from(tuple(row), user)


def match_versions(*, match_ids) -> dict[int, int]:
    return dict(Match.objects.filter(pk__in=list(match_ids)).values_list("pk", "version"))


async def match_versions_async(*, match_ids) -> dict[int, int]:
    """The current version of each match, in one query (the hub's heartbeat: games/delivery.py)."""
    match_ids = [int(match_id) for match_id in match_ids]
    if not match_ids:
        return {}
    if not async_db.enabled():
        return await bounded_database_sync_to_async(match_versions)(match_ids=match_ids)
    query = Match.objects.filter(pk__in=match_ids).values_list("pk", "version")
    return dict(await async_db.fetch(*query.query.sql_with_params()))


_ACCESS_COLUMNS = (
    "id",
    "game",
    "state",
    "version",
    "wake_at_ms",
    "status",
    "created_by_id",
    "clock_offset_ms",
    "paused_at_ms",
    "waits_for_players",
    "seat",
)


def _access_query(match_id, user):
    """The match and the user's seat at it, in one query (None: nobody to look for)."""
    if user is None or not user.is_authenticated:
        return None
    try:
        match_id = int(match_id)
    except (ValueError, TypeError):
        return None
    seat = Seat.objects.filter(match=OuterRef("pk"), user_id=user.pk).values("index")[:1]
    return (
        Match.objects.filter(pk=match_id)
        .annotate(seat=Subquery(seat))
        .values_list(*_ACCESS_COLUMNS)
    )


def _access_from(row, user) -> MatchAccess | None:
    if row is None:
        return None
    (
        match_id,
        game,
        state,
        version,
        wake_at_ms,
        status,
        created_by_id,
        clock_offset_ms,
        paused_at_ms,
        waits_for_players,
        seat,
    ) = row
    if seat is None and not (created_by_id == user.pk or user.is_staff):
        return None
    return MatchAccess(
        match_id=match_id,
        game=game,
        seat=seat,
        state=state,
        version=version,
        wake_at_ms=wake_at_ms if status == Match.Status.PLAYING else None,
        status=status,
        clock_offset_ms=clock_offset_ms,
        paused_at_ms=paused_at_ms,
        waits_for_players=bool(waits_for_players),
    )


def _state_from_db(value):
    # What the ORM does with the column (JSON arrives as text, as Django asks of psycopg).
    return Match._meta.get_field("state").from_db_value(value, None, connection)


def match_seats(*, match_id, seat: int | None, room: str = FULL) -> list[dict]:
    """The table as the page of the reader at ``seat`` shows it (None: a spectator, the teacher's
    Watch view on the class's screen among them): each seat's name and whether it is a bot. The
    reader's own seat has their name; every other child's is the name others see
    (accounts.public_names: the child's own setting, and ``room``, the choice for a screen the
    class shares), "Player N" for a child not shown."""
    full, shown, bots = {}, {}, set()
    for index, name, level, own in Seat.objects.filter(match_id=match_id).values_list(
        "index", "name", "bot_level", "user__accommodations__public_name"
    ):
        full[index] = name
        if level:
            bots.add(index)
        if level or index == seat:
            shown[index] = name
        else:
            shown[index] = name_others_see(name, own or PublicName.FULL, room)
    shown = told_apart(shown, full)
    return [
        {
            "seat": index,
            "name": _("Player %(number)s") % {"number": index + 1} if name is None else name,
            "bot": index in bots,
        }
        for index, name in sorted(shown.items())
    ]


LOG_MOVES = 40  # the play page's log shows the latest 40 sentences


def match_log(*, match_id: int, game: str, seat: int | None) -> dict:
    """The events of the match's latest changes that ``seat`` may receive (``Game.event_view``, as
    its socket would have sent them), oldest first, and the version of the latest: a page that
    is reloaded rebuilds its "What just happened" from them."""
    records = list(
        MoveRecord.objects.filter(match_id=match_id)
        .order_by("-version")
        .values_list("version", "events")[:LOG_MOVES]
    )
    rules = engine.get_game(game)
    events = []
    for _version, recorded in reversed(records):
        events.extend(rules.event_view(recorded or [], seat))
    return {"version": records[0][0] if records else -1, "events": events}


def user_matches(*, user, limit: int = 20) -> list[Match]:
    """A player's matches, newest first (their home page lists the ones still playing)."""
    return list(Match.objects.filter(seats__user=user).order_by("-created_at").distinct()[:limit])
