"""The monitor's rows of a session's tables: who sits where (children, bots, removed players),
each match's status, scores and places, the seats free to act and how long they have waited, and
the table's state at a glance ("stuck" after ``STALL_SECONDS`` without a move).

An unfinished match's running figures come from its JSON state, read again only for the tables
that moved since the last look (``_tables_facts``): a look costs what moved, not the room."""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime

from django.db.models import OuterRef, Subquery
from django.urls import reverse
from django.utils.translation import gettext as _

import engine
from classroom.bots import bot_name
from classroom.models import ClassSession, SessionTable
from classroom.sessions.selectors.standings import place_label
from engine.core import Outcome
from engine.core import places as places_of
from games.models import Match, MoveRecord, Seat

# A table where nothing moved for this long is "stuck", and a child free to act for this long
# without acting "needs help" (the monitor's flags).
STALL_SECONDS = 60


def table_rows(
    session: ClassSession,
    tables: list[SessionTable],
    seated: dict[int, dict[int, tuple[int, str]]],
    bot_seats: dict[int, dict[int, str]],
    now: datetime,
) -> list[dict]:
    """The rows of the session's ``tables`` (with their matches), in their order: ``seated`` is
    table id -> seat -> (student id, name), ``bot_seats`` match id -> seat -> the bot's name."""
    matches = [table.match for table in tables if table.match_id]
    own_last_move = _own_last_moves(
        [m.pk for m in matches if engine.get_game(m.game).real_time and m.is_playing]
    )
    table_facts = _tables_facts([m for m in matches if not m.outcome])
    rows = []
    bots_before = 0  # before the start, the bots to come are numbered across the room too
    for table in tables:
        row = _table_row(
            session,
            table,
            seated.get(table.pk, {}),
            bot_seats.get(table.match_id),
            table_facts,
            own_last_move,
            now,
            bots_before,
        )
        bots_before += sum(1 for seat in row["seats"] if seat["bot"])
        rows.append(row)
    return rows


def _table_row(
    session,
    table: SessionTable,
    students,
    bot_seats,
    table_facts,
    own_last_move,
    now: datetime,
    bots_before: int = 0,
) -> dict:
    """One table: ``students`` its seated students (seat -> (id, name)), ``bot_seats`` its
    match's bots' seats and names (None before the start, when the bots to come are named after
    the ``bots_before`` of the tables before this one)."""
    match: Match | None = table.match
    active: frozenset[int] = frozenset()
    scores = winners = places = passing = None
    status = None
    if match is not None:
        status = match.status
        if match.outcome:
            scores, winners = match.outcome["scores"], match.outcome["winners"]
            # Matches finished before places were stored get them from the same rule.
            places = match.outcome.get("places") or places_of(Outcome(scores, winners))
        else:
            scores, active, passing = table_facts[match.pk]
    # A seat without a place is a bot's, unless the match has no bot there: its student was
    # deleted (with their place and seat), and the history must not make them a bot.
    seats = []
    bot_number = bots_before
    for index in range(session.table_size):
        place = students.get(index)
        removed = place is None and bot_seats is not None and index not in bot_seats
        if place is None and not removed:
            bot_number += 1
        waiting = None
        rank = places[index] if places and index < len(places) else None
        if place is not None and match is not None and index in active:
            waiting = _waiting_seconds(match, index, own_last_move, now)
        seats.append(
            {
                "seat": index,
                "place": f"{table.number}:{index}",
                "student_id": place[0] if place else None,
                "name": place[1]
                if place
                else _("Removed player")
                if removed
                else (bot_seats or {}).get(index) or bot_name(bot_number),
                "bot": place is None and not removed,
                "removed": removed,
                "score": scores[index] if scores and index < len(scores) else None,
                "winner": bool(winners and index in winners),
                "rank": rank,
                "rank_label": place_label(rank) if rank else "",
                "active": index in active,
                "waiting_seconds": waiting,
                "passes_in_a_row": passing[index] if passing and index < len(passing) else 0,
            }
        )
    if places:
        # A finished table reads as its podium: first place at the top, ties in seat order.
        seats.sort(key=lambda seat: (seat["rank"] or len(places) + 1, seat["seat"]))
    state, idle = _table_state(match, now)
    return {
        "number": table.number,
        "label": _("Table %(number)s") % {"number": table.number},
        "match_id": table.match_id,
        "status": status,
        "state": state,
        "idle_seconds": idle,
        "seats": seats,
        "watch_url": reverse("games:watch", args=[table.match_id]) if table.match_id else None,
    }


def _table_state(match: Match | None, now: datetime) -> tuple[str, int | None]:
    """How the table is doing at a glance, and for how long it has not moved: "waiting" (not
    started), "playing", "stuck" (playing, not paused, and nothing has moved there for longer
    than a child may stall, ``STALL_SECONDS``: a turn waits on someone, or nobody answers),
    "finished" or "stopped" (the teacher stopped it)."""
    if match is None:
        return "waiting", None
    if match.status == Match.Status.FINISHED:
        return "finished", None
    if match.status == Match.Status.ABANDONED:
        return "stopped", None
    idle = max(0, int((now - match.updated_at).total_seconds()))
    if match.paused_at_ms is None and idle > STALL_SECONDS:
        return "stuck", idle
    return "playing", idle


def _waiting_seconds(match: Match, seat: int, own_last_move, now: datetime) -> int:
    """How long the seat has been free to act without acting. In turn games (and the rounds of
    Add or Multiply?) the seat's chance came with the table's last change (the match's
    ``updated_at``); in real-time games (``Game.real_time``: others acting does not excuse a child
    who has not answered) it has been there since the child's own last move (or the start)."""
    if not engine.get_game(match.game).real_time:
        since = match.updated_at
    else:
        since = max(match.created_at, own_last_move.get((match.pk, seat)) or match.created_at)
    return max(0, int((now - since).total_seconds()))


def _own_last_moves(match_ids: list[int]) -> dict[tuple[int, int], datetime]:
    """(match, seat) -> when that seat last moved, for the seats of these matches: one index walk
    back from each match's newest move (the match's length bounds it, not the session's)."""
    if not match_ids:
        return {}
    latest = (
        MoveRecord.objects.filter(match_id=OuterRef("match_id"), seat=OuterRef("index"))
        .order_by("-version")
        .values("received_at")[:1]
    )
    return {
        (match_id, index): at
        # Unordered: a seat's default order would join its match's row (monitor._read_room).
        for match_id, index, at in Seat.objects.filter(match_id__in=match_ids, user__isnull=False)
        .order_by()
        .annotate(at=Subquery(latest))
        .values_list("match_id", "index", "at")
        if at is not None
    }


# match id -> (version, running scores, seats free to act, passes in a row): a table that has not
# moved since the last look is not read from its JSON state again, so a look costs what moved.
# Keyed by version, so never stale; bounded, so a long-lived process does not grow with it.
_TABLE_FACTS_LIMIT = 5_000
_table_facts_cache: OrderedDict[int, tuple[int, list | None, frozenset[int], list | None]] = (
    OrderedDict()
)
_table_facts_lock = threading.Lock()


def _tables_facts(
    matches: list[Match],
) -> dict[int, tuple[list | None, frozenset[int], list | None]]:
    """Each unfinished match's running scores, the seats that may act now (none unless it is
    playing) and each seat's passes in a row; the states of the tables that moved since the last
    look are read in one query."""
    facts: dict[int, tuple[list | None, frozenset[int], list | None]] = {}
    missing: dict[int, Match] = {}
    with _table_facts_lock:
        for match in matches:
            known = _table_facts_cache.get(match.pk)
            if known is not None and known[0] == match.version:
                _table_facts_cache.move_to_end(match.pk)
                facts[match.pk] = (known[1], known[2], known[3])
            else:
                missing[match.pk] = match
    if missing:
        rows = Match.objects.filter(pk__in=list(missing)).values_list("pk", "version", "state")
        for match_id, version, state_json in rows:
            rules = engine.get_game(missing[match_id].game)
            state = rules.load(state_json)
            scores = rules.running_scores(state)
            active = frozenset(rules.active(state))
            passing = rules.passes_in_a_row(state)
            facts[match_id] = (scores, active, passing)
            with _table_facts_lock:
                _table_facts_cache[match_id] = (version, scores, active, passing)
                if len(_table_facts_cache) > _TABLE_FACTS_LIMIT:
                    _table_facts_cache.popitem(last=False)
    playing = {match.pk for match in matches if match.is_playing}
    return {
        match_id: (scores, active if match_id in playing else frozenset(), passing)
        for match_id, (scores, active, passing) in facts.items()
    }


def forget_table_facts() -> None:
    """For tests: a test database that rolls back hands the same match ids out again."""
    with _table_facts_lock:
        _table_facts_cache.clear()
