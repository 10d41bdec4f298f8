"""The writes of live play. ``submit_move`` (with its twin for a server's event loop,
``submit_move_async``) and ``match_wake`` are the only code that changes a playing match: each is
one short transaction that locks the match row, asks the engine, saves the new state with its
MoveRecord and Attempts, and broadcasts after the commit. Races (two claims on
one ¡Mía! card from any number of processes) are decided by that lock: the first to hold it wins,
the others are checked against the state it left.
"""

from __future__ import annotations

import contextlib
import logging
import random
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, connections, transaction
from django.utils import timezone

import engine
from engine import IllegalMove
from engine.bots import LEVELS as BOT_LEVELS
from engine.mistakes import classify as classify_mistake
from games import async_db, broadcast, hooks
from games.async_db import Statement
from games.models import Attempt, Match, MoveRecord, Seat

log = logging.getLogger(__name__)

MAX_CLIENT_ID = 64
PAUSED = "paused"  # a move while the teacher has paused the game
MAX_ADDED_SECONDS = 300
# Seconds a bot "thinks" before it acts, per level (a range, drawn afresh each time): slow enough
# that a child can play along, quick enough that nobody waits long. GAMES_BOT_DELAY_SCALE shrinks
# them (tests, demos).
BOT_DELAY_SECONDS = {"random": (2.0, 4.0), "easy": (2.5, 5.5), "strong": (1.5, 3.5)}


class MatchError(Exception):
    """A request live play refuses before the engine sees it; ``code`` is stable for clients."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class SeatSpec:
    """Who sits at a seat: a user, or a bot of a level."""

    name: str
    user: Any = None
    bot_level: str = ""


@dataclass
class Change:
    """One new version of a match, as the broadcast carries it."""

    version: int
    state: dict
    events: list
    actor_seat: int | None
    client_id: str = ""
    finished: bool = False  # this version ended the game (set when the match is saved)


@dataclass
class MoveResult:
    match_id: int
    version: int
    state: dict
    duplicate: bool = False
    changes: list[Change] = field(default_factory=list)


def now_ms() -> int:
    return int(time.time() * 1000)


# --- creating ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NewMatch:
    """One match to create: ``match_create_many`` makes many in a few statements."""

    game: str
    variant: str
    seats: Sequence[SeatSpec]
    options: dict | None = None
    created_by: Any = None
    label: str = ""
    seed: int | None = None
    # With values, ``label`` is a message translated when read (games.models.shown_label).
    label_values: dict | None = None


def match_create(
    *,
    game: str,
    variant: str,
    seats: Sequence[SeatSpec],
    options: dict | None = None,
    created_by=None,
    label: str = "",
    seed: int | None = None,
    at_ms: int | None = None,
) -> Match:
    """A new playing match. The engine validates the game, variant, options and player count
    (``engine.SetupError``); seats are validated here (``MatchError``)."""
    new = NewMatch(game, variant, seats, options, created_by, label, seed)
    return match_create_many([new], at_ms=at_ms)[0]


def match_create_many(news: Sequence[NewMatch], *, at_ms: int | None = None) -> list[Match]:
    """New playing matches (a class's tables at the start), in two INSERTs whatever their
    number: at a school assembly's 300 tables, a match at a time was most of "Start"'s second."""
    at_ms = now_ms() if at_ms is None else at_ms
    matches, seat_lists = [], []
    for new in news:
        matches.append(_new_match(new, at_ms))
        seat_lists.append(new.seats)
    with transaction.atomic():
        Match.objects.bulk_create(matches)
        Seat.objects.bulk_create(
            Seat(
                match=match,
                index=i,
                user=spec.user,
                bot_level=spec.bot_level,
                name=spec.name[:80],
            )
            for match, seats in zip(matches, seat_lists, strict=True)
            for i, spec in enumerate(seats)
        )
    return matches


def _new_match(new: NewMatch, at_ms: int) -> Match:
    rules = engine.get_game(new.game)
    seats = new.seats
    users = [spec.user.pk for spec in seats if spec.user is not None]
    if len(users) != len(set(users)):
        raise MatchError("duplicate_player", "a player can take only one seat")
    for spec in seats:
        if (spec.user is None) == (not spec.bot_level):
            raise MatchError("bad_seat", "a seat is a player or a bot, not both or neither")
        if spec.bot_level and spec.bot_level not in BOT_LEVELS:
            raise MatchError("bad_bot_level", f"bots play at {', '.join(BOT_LEVELS)}")
    if not any(spec.user is not None for spec in seats):
        raise MatchError("no_player", "a match needs at least one player")
    seed = secrets.randbits(62) if new.seed is None else new.seed
    state = rules.new(
        variant=new.variant, players=len(seats), seed=seed, options=new.options, now_ms=at_ms
    )
    bot_seats = {i: spec.bot_level for i, spec in enumerate(seats) if spec.bot_level}
    match = Match(
        game=new.game,
        variant=new.variant,
        options=dict(state.options),
        seed=seed,
        state=rules.dump(state),
        version=state.version,
        created_by=new.created_by,
        label=new.label[:80],
        label_values=new.label_values or {},
    )
    _plan(match, rules, state, bot_seats, at_ms, acted=None)
    return match


# --- the one writer ------------------------------------------------------------------------------


def submit_move(
    *, match_id: int, user, move: Any, client_id: str = "", at_ms: int | None = None
) -> MoveResult:
    """Apply ``user``'s move to the match. Raises ``MatchError`` or ``engine.IllegalMove`` (the
    match is then unchanged). A ``client_id`` already applied for this seat is answered with the
    current state and not applied again."""
    write = _PlayerMove(match_id=match_id, user=user, move=move, client_id=client_id, at_ms=at_ms)
    with transaction.atomic(), _pipelined():
        with connection.cursor() as cursor:
            cursor.execute(*write.lock())
            result, statements = write.decide(cursor.fetchall())
            for sql, params in statements:
                cursor.execute(sql, params)
        if result.changes:
            transaction.on_commit(
                lambda: broadcast.match_changed(result.match_id, result.changes, write.wake_at_ms)
            )
    return result


async def submit_move_async(
    *, match_id: int, user, move: Any, client_id: str = "", at_ms: int | None = None
) -> MoveResult:
    """``submit_move`` on a server's event loop, on PostgreSQL (``games.async_db``): the same
    decisions and statements (``_PlayerMove``) in one transaction of two round trips, and the news
    handed to this process's sockets once it has committed."""
    write = _PlayerMove(match_id=match_id, user=user, move=move, client_id=client_id, at_ms=at_ms)
    result = await async_db.locked_write(write.lock(), write.decide)
    if result.changes:
        broadcast.match_changed_from_loop(result.match_id, result.changes, write.wake_at_ms)
    return result


class _PlayerMove:
    """What a player's move reads and writes, apart from how it reaches the database: the one
    writer's decisions for ``submit_move`` (Django's connection, on a thread) and
    ``submit_move_async`` (psycopg's, on the event loop)."""

    def __init__(self, *, match_id, user, move: Any, client_id: str, at_ms: int | None):
        if not isinstance(client_id, str) or len(client_id) > MAX_CLIENT_ID:
            raise MatchError("bad_client_id", f"client_id is a string of at most {MAX_CLIENT_ID}")
        self.match_id = _match_id(match_id)
        self.user = user
        self.move = move
        self.client_id = client_id
        self.at_ms = at_ms
        self.received_at = timezone.now()
        self.wake_at_ms: int | None = None
        self._lock = _LockStatement.get(connection, with_client_id=bool(client_id))

    def lock(self) -> tuple[str, list]:
        return self._lock.sql, self._lock.params(self.match_id, self.client_id)

    def decide(self, rows) -> tuple[MoveResult, list[Statement]]:
        """From the locked rows: the result, and the statements that save it."""
        match, seats, replayed = self._lock.read(rows, client_id=self.client_id)
        seat = next((i for i, row in seats.items() if row.user_id == self.user.pk), None)
        if seat is None:
            raise MatchError("not_seated", "you have no seat at this match")
        if seat in replayed:
            return MoveResult(match.pk, match.version, match.state, duplicate=True), []
        if not match.is_playing:
            raise IllegalMove(engine.core.GAME_OVER, "the game is over")
        if match.paused_at_ms is not None:
            raise MatchError(PAUSED, "the teacher paused the game")
        at_ms = (now_ms() if self.at_ms is None else self.at_ms) - match.clock_offset_ms
        rules = engine.get_game(match.game)
        step = rules.apply(rules.load(match.state), seat, self.move, at_ms)
        statements: list[Statement] = []
        change = _record(
            match,
            rules,
            step,
            seats,
            statements,
            actor=MoveRecord.Actor.PLAYER,
            seat=seat,
            move=self.move,
            client_id=self.client_id,
            received_at=self.received_at,
            at_ms=at_ms,
        )
        _plan(match, rules, step.state, _bots(seats), at_ms, acted=seat)
        _save(match, rules, step.state, statements)
        change.finished = match.status == Match.Status.FINISHED
        self.wake_at_ms = match.wake_at_ms
        return MoveResult(match.pk, match.version, match.state, changes=[change]), statements


def match_wake(*, match_id: int, at_ms: int | None = None, max_changes: int = 8) -> int | None:
    """Fire what is due: the engine's timers, then the bots whose thinking time is up. Any process
    may call it at any time, as often as it likes: under the lock it acts only on what is due in
    the state it finds, so a late or repeated wake-up changes nothing. Returns the next wake-up
    (epoch ms) or None."""
    wall_ms = now_ms() if at_ms is None else at_ms
    with transaction.atomic(), _pipelined():
        try:
            # The same one statement as a player's move: every bot move and timer comes here.
            match, seats = _locked_with_seats(match_id)
        except MatchError:
            return None
        if match.paused_at_ms is not None:
            return None  # nothing is due while paused; the resume schedules the next wake
        if not match.is_playing or match.wake_at_ms is None or match.wake_at_ms > wall_ms:
            return match.wake_at_ms if match.is_playing else None
        at_ms = wall_ms - match.clock_offset_ms  # the match's own clock, which the engine reads
        rules = engine.get_game(match.game)
        bots = _bots(seats)
        state = rules.load(match.state)
        changes: list[Change] = []
        waiting: set[int] = set()
        received_at = timezone.now()
        statements: list[Statement] = []
        while len(changes) < max_changes and rules.outcome(state) is None:
            due = rules.deadline(state)
            if due is not None and due <= at_ms:
                step = rules.tick(state, at_ms)
                if step.state.version == state.version:  # nothing was really due
                    break
                changes.append(
                    _record(
                        match,
                        rules,
                        step,
                        seats,
                        statements,
                        actor=MoveRecord.Actor.TIMER,
                        seat=None,
                        move=None,
                        client_id="",
                        received_at=received_at,
                        at_ms=at_ms,
                    )
                )
                state = step.state
                waiting.clear()
                _plan(match, rules, state, bots, at_ms, acted=None)
                continue
            bot_seat = _due_bot(match, rules, state, at_ms)
            if bot_seat is None:
                break
            thinker = random.Random(f"{match.seed}:{state.version}:{bot_seat}")
            move = engine.bots.choose(rules, state, bot_seat, bots[bot_seat], thinker)
            if move is None:  # it would rather wait: think again after the next change
                waiting.add(bot_seat)
                match.bot_plan[str(bot_seat)] = None
                continue
            try:
                step = rules.apply(state, bot_seat, move, at_ms)
            except IllegalMove:
                log.exception(
                    "bot at seat %s of match %s chose an illegal move", bot_seat, match.pk
                )
                waiting.add(bot_seat)
                match.bot_plan[str(bot_seat)] = None
                continue
            changes.append(
                _record(
                    match,
                    rules,
                    step,
                    seats,
                    statements,
                    actor=MoveRecord.Actor.BOT,
                    seat=bot_seat,
                    move=move,
                    client_id="",
                    received_at=received_at,
                    at_ms=at_ms,
                )
            )
            state = step.state
            waiting.clear()
            _plan(match, rules, state, bots, at_ms, acted=bot_seat)
        _plan(match, rules, state, bots, at_ms, acted=None, waiting=frozenset(waiting))
        _save(match, rules, state, statements)
        if changes:  # only the last change of a wake-up can have ended the game
            changes[-1].finished = match.status == Match.Status.FINISHED
        with connection.cursor() as cursor:
            for sql, params in statements:
                cursor.execute(sql, params)
        if changes:
            transaction.on_commit(
                lambda: broadcast.match_changed(match.pk, changes, match.wake_at_ms)
            )
    return match.wake_at_ms


def match_abandon(*, match_id: int) -> None:
    """Stop a match that is still playing (the teacher ends it); nothing more is applied."""
    with transaction.atomic():
        match = _locked(match_id)
        if not match.is_playing:
            return
        match.status = Match.Status.ABANDONED
        match.finished_at = timezone.now()
        match.wake_at_ms = None
        match.bot_plan = {}
        match.save(update_fields=["status", "finished_at", "wake_at_ms", "bot_plan", "updated_at"])
        transaction.on_commit(lambda: broadcast.match_stopped(match.pk, match.version, match.state))


def match_pause(*, match_id: int) -> bool:
    """Freeze the match: no move, timer or bot until ``match_resume``. Returns whether it was
    playing and not already paused."""
    with transaction.atomic():
        match = _locked(match_id)
        if not match.is_playing or match.paused_at_ms is not None:
            return False
        match.paused_at_ms = now_ms()
        match.save(update_fields=["paused_at_ms", "updated_at"])
        transaction.on_commit(lambda: _tell_the_clock(match))
    return True


def match_resume(*, match_id: int) -> bool:
    """Let the match's clock run again where it stopped: every deadline and bot moves later by
    the time it was paused."""
    with transaction.atomic():
        match = _locked(match_id)
        if not match.is_playing or match.paused_at_ms is None:
            return False
        _hold_the_clock(match, now_ms() - match.paused_at_ms)
        match.paused_at_ms = None
        match.save(update_fields=["clock_offset_ms", "paused_at_ms", "wake_at_ms", "updated_at"])
        transaction.on_commit(lambda: _tell_the_clock(match))
    return True


def match_add_time(*, match_id: int, seconds: int) -> bool:
    """Give the table ``seconds`` more: its clock goes back, so its running deadline (and its
    bots) come that much later. The answer being timed then counts those seconds less."""
    if not isinstance(seconds, int) or not 1 <= seconds <= MAX_ADDED_SECONDS:
        raise MatchError("bad_seconds", f"add 1 to {MAX_ADDED_SECONDS} seconds")
    with transaction.atomic():
        match = _locked(match_id)
        if not match.is_playing:
            return False
        _hold_the_clock(match, seconds * 1000)
        match.save(update_fields=["clock_offset_ms", "wake_at_ms", "updated_at"])
        transaction.on_commit(lambda: _tell_the_clock(match))
    return True


def _hold_the_clock(match: Match, held_ms: int) -> None:
    match.clock_offset_ms += held_ms
    if match.wake_at_ms is not None:
        match.wake_at_ms += held_ms


def _tell_the_clock(match: Match) -> None:
    broadcast.match_clock(
        match.pk,
        paused_at_ms=match.paused_at_ms,
        clock_offset_ms=match.clock_offset_ms,
        wake_at_ms=match.wake_at_ms,
    )


# --- the parts -----------------------------------------------------------------------------------


def _locked(match_id) -> Match:
    try:
        return Match.objects.select_for_update(of=("self",)).get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError):
        raise MatchError("no_match", "there is no such match") from None


def _match_id(match_id) -> int:
    try:
        return int(match_id)
    except (ValueError, TypeError):
        raise MatchError("no_match", "there is no such match") from None


def _locked_with_seats(match_id) -> tuple[Match, dict[int, SeatRow]]:
    """The match under its row lock and its seats (``_LockStatement``), through Django's
    connection."""
    statement = _LockStatement.get(connection, with_client_id=False)
    with connection.cursor() as cursor:
        cursor.execute(statement.sql, statement.params(_match_id(match_id), ""))
        rows = cursor.fetchall()
    match, seats, _replayed = statement.read(rows, client_id="")
    return match, seats


class SeatRow(NamedTuple):
    user_id: int | None
    bot_level: str
    time_zone: str  # the player's (accounts.User.time_zone), "" for a bot or the site's zone


class _LockStatement:
    """``SELECT <match>, <seat> [, <client_id seen>] FROM match JOIN seat ... FOR UPDATE OF match``
    for one database connection's dialect: the match under its row lock, its seats, and the seats
    that already sent the move's ``client_id``, in one query. Seats never change once the match is
    made, so reading them with the lock is as good as after it.

    It is written once per process: building it through the ORM took a quarter of a server
    process's Python time under load (docs/capacity.md). ``read`` applies the converters the ORM
    would apply to each match column (JSON, dates), so its match is what ``Match.objects.get``
    would return."""

    _cache: dict[tuple[str, bool], _LockStatement] = {}

    @classmethod
    def get(cls, conn, *, with_client_id: bool) -> _LockStatement:
        key = (conn.alias, with_client_id)
        statement = cls._cache.get(key)
        if statement is None:
            statement = cls._cache[key] = cls(conn, with_client_id=with_client_id)
        return statement

    def __init__(self, conn, *, with_client_id: bool):
        quote = conn.ops.quote_name
        match_table, seat_table = Match._meta.db_table, Seat._meta.db_table
        move_table = MoveRecord._meta.db_table
        self.alias = conn.alias
        self.fields = list(Match._meta.concrete_fields)
        self.attnames = [model_field.attname for model_field in self.fields]
        self.converters = []
        for model_field in self.fields:
            column = model_field.get_col(match_table)
            found = conn.ops.get_db_converters(column) + column.get_db_converters(conn)
            self.converters.append((column, found))
        self.seat_at = len(self.fields)

        def column_of(model, name, alias):
            return f"{alias}.{quote(model._meta.get_field(name).column)}"

        columns = [f"m.{quote(model_field.column)}" for model_field in self.fields]
        columns += [column_of(Seat, name, "s") for name in ("index", "user", "bot_level")]
        # The player's time zone, so the teaching layer counts an attempt on the school's day
        # without a query of its own (accounts.User.time_zone, classroom.progress.rollup).
        user_model = get_user_model()
        columns.append(column_of(user_model, "time_zone", "u"))
        if with_client_id:
            columns.append(
                f"EXISTS(SELECT 1 FROM {quote(move_table)} r"
                f" WHERE {column_of(MoveRecord, 'client_id', 'r')} = %s"
                f" AND {column_of(MoveRecord, 'match', 'r')} = {column_of(Seat, 'match', 's')}"
                f" AND {column_of(MoveRecord, 'seat', 'r')} = {column_of(Seat, 'index', 's')})"
            )
        lock = " FOR UPDATE OF m" if conn.features.has_select_for_update_of else ""
        self.sql = (
            f"SELECT {', '.join(columns)} FROM {quote(match_table)} m"
            f" INNER JOIN {quote(seat_table)} s"
            f" ON {column_of(Seat, 'match', 's')} = {column_of(Match, 'id', 'm')}"
            f" LEFT OUTER JOIN {quote(user_model._meta.db_table)} u"
            f" ON {column_of(user_model, 'id', 'u')} = {column_of(Seat, 'user', 's')}"
            f" WHERE {column_of(Match, 'id', 'm')} = %s"
            f" ORDER BY {column_of(Seat, 'index', 's')}{lock}"
        )

    @staticmethod
    def params(match_id: int, client_id: str) -> list:
        return [client_id, match_id] if client_id else [match_id]

    def read(self, rows, *, client_id: str) -> tuple[Match, dict[int, SeatRow], set[int]]:
        if not rows:
            raise MatchError("no_match", "there is no such match")
        match = self.match_from(rows[0])
        seat_at = self.seat_at
        seats = {
            row[seat_at]: SeatRow(row[seat_at + 1], row[seat_at + 2], row[seat_at + 3] or "")
            for row in rows
        }
        replayed = {row[seat_at] for row in rows if client_id and row[-1]}
        return match, seats, replayed

    def match_from(self, row) -> Match:
        conn = connections[self.alias]
        values = []
        for value, (column, converters) in zip(row[: self.seat_at], self.converters, strict=True):
            for convert in converters:
                value = convert(value, column, conn)
            values.append(value)
        return Match.from_db(self.alias, self.attnames, values)


def _bots(seats: dict[int, SeatRow]) -> dict[int, str]:
    return {index: row.bot_level for index, row in seats.items() if row.bot_level}


def _record(
    match: Match,
    rules,
    step,
    seats,
    statements: list[Statement],
    *,
    actor: str,
    seat: int | None,
    move,
    client_id: str,
    received_at,
    at_ms: int,
) -> Change:
    record = MoveRecord(
        match=match,
        version=step.state.version,
        actor=actor,
        seat=seat,
        move=move,
        events=step.events,
        client_id=client_id,
        received_at=received_at,
        now_ms=at_ms,
    )
    attempts = [
        _attempt(match, record, event, seats) for event in step.events if event["type"] == "attempt"
    ]
    statements += _Writes.get(connection).insert(record, attempts)
    if attempts:
        statements += hooks.attempt_writes(match, attempts)
    return Change(
        version=step.state.version,
        state=rules.dump(step.state),
        events=step.events,
        actor_seat=seat,
        client_id=client_id,
    )


_ATTEMPT_KEYS = {
    "type",
    "seat",
    "operands",
    "operator",
    "answer",
    "expected",
    "target",
    "correct",
    "elapsed_ms",
    "skill",
}


def _attempt(match: Match, record: MoveRecord, event: dict, seats) -> Attempt:
    seat = seats.get(event["seat"]) or SeatRow(None, "", "")
    user_id = seat.user_id
    attempt = Attempt(
        match=match,
        move=record,
        user_id=user_id,
        seat=event["seat"],
        game=match.game,
        operator=event["operator"],
        operation=event["skill"].split(".", 1)[0],
        skill=event["skill"],
        operands=event["operands"],
        answer=event["answer"],
        expected=event["expected"],
        target=event.get("target"),
        correct=event["correct"],
        elapsed_ms=min(event["elapsed_ms"], 2**31 - 1),
        mistake=""
        if event["correct"]
        else classify_mistake(
            event["operands"], event["operator"], event["answer"], event["expected"]
        ),
        detail={k: v for k, v in event.items() if k not in _ATTEMPT_KEYS},
        created_at=record.received_at,
    )
    attempt.student_time_zone = seat.time_zone  # not stored: read by the layers' attempt writes
    return attempt


def _bot_delay_ms(match: Match, level: str, version: int, seat: int) -> int:
    low, high = BOT_DELAY_SECONDS[level]
    scale = getattr(settings, "GAMES_BOT_DELAY_SCALE", 1.0)
    whim = random.Random(f"delay:{match.seed}:{version}:{seat}").uniform(low, high)
    return int(whim * scale * 1000)


def _plan(
    match: Match,
    rules,
    state,
    bots: dict[int, str],
    at_ms: int,
    acted: int | None,
    waiting: frozenset[int] = frozenset(),
) -> None:
    """Decide when each bot acts next and when the match must wake. A bot that is already
    thinking keeps its time (so a busy table cannot starve it); one that just moved thinks afresh.
    ``waiting`` bots chose to wait and nothing has changed since: they stay idle."""
    plan: dict[str, int | None] = {}
    if rules.outcome(state) is None:
        active = rules.active(state)
        for seat, level in bots.items():
            if seat not in active:
                continue
            current = match.bot_plan.get(str(seat))
            if seat in waiting:
                plan[str(seat)] = None
            elif seat == acted or current is None:
                plan[str(seat)] = at_ms + _bot_delay_ms(match, level, state.version, seat)
            else:
                plan[str(seat)] = current
    match.bot_plan = plan
    dues = [due for due in plan.values() if due is not None]
    deadline = rules.deadline(state) if rules.outcome(state) is None else None
    if deadline is not None:
        dues.append(deadline)
    # Dues are on the match's clock; the wake-up is on the wall clock, which the clocks read.
    match.wake_at_ms = min(dues) + match.clock_offset_ms if dues else None


def _due_bot(match: Match, rules, state, at_ms: int) -> int | None:
    active = rules.active(state)
    due = [
        (when, int(seat))
        for seat, when in match.bot_plan.items()
        if when is not None and when <= at_ms and int(seat) in active
    ]
    return min(due)[1] if due else None


def _save(match: Match, rules, state, statements: list[Statement]) -> None:
    match.state = rules.dump(state)
    match.version = state.version
    match.updated_at = timezone.now()
    outcome = rules.outcome(state)
    if outcome is not None:
        match.status = Match.Status.FINISHED
        match.outcome = outcome.as_dict()
        match.finished_at = match.updated_at
        match.wake_at_ms = None
        match.bot_plan = {}
    statements.append(_Writes.get(connection).update(match))


@contextlib.contextmanager
def _pipelined():
    """On PostgreSQL, the statements of a move whose results nobody reads (its writes and the
    roll-ups') go to the server together, in psycopg's pipeline mode: a move takes four round trips
    (BEGIN, the lock, the writes, the COMMIT) whatever it writes, where each statement took one.
    In a busy server process every round trip also waits for the GIL again (docs/capacity.md).

    It is entered inside the transaction, after Django's autocommit switch, and left before the
    COMMIT: psycopg syncs the pipeline to switch autocommit, and on-commit hooks (the broadcast,
    the teaching layer's look-ups) then run outside it. A failed write raises as the pipeline
    ends, inside the transaction, which rolls back."""
    if connection.vendor != "postgresql":
        yield
        return
    connection.ensure_connection()
    # Errors raised as the pipeline ends come from psycopg itself: Django's wrapper makes them
    # django.db errors (IntegrityError, ...), as they would be from a cursor.
    with connection.wrap_database_errors, connection.connection.pipeline():
        yield


class _Writes:
    """A move's writes as statements, their SQL written once per process: INSERT the MoveRecord,
    INSERT its Attempts (their record found by match and version, so nothing waits for the
    record's id), UPDATE the match. No statement returns a row or a count, so they can all go to
    the server at once (``_pipelined``, ``async_db.locked_write``); each value is prepared by its
    model field, as the ORM would (``get_db_prep_save``)."""

    _cache: dict[str, _Writes] = {}
    _MATCH_FIELDS = (
        "state",
        "version",
        "bot_plan",
        "wake_at_ms",
        "updated_at",
        "status",
        "outcome",
        "finished_at",
    )

    @classmethod
    def get(cls, conn) -> _Writes:
        writes = cls._cache.get(conn.alias)
        if writes is None:
            writes = cls._cache[conn.alias] = cls(conn)
        return writes

    def __init__(self, conn):
        quote = conn.ops.quote_name

        def column(model, name):
            return quote(model._meta.get_field(name).column)

        def insert(model, fields, extra=""):
            columns = ", ".join([quote(f.column) for f in fields] + ([extra] if extra else []))
            return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES "

        self.alias = conn.alias
        self.record_fields = [f for f in MoveRecord._meta.concrete_fields if not f.primary_key]
        self.record_sql = (
            insert(MoveRecord, self.record_fields) + f"({_placeholders(self.record_fields)})"
        )
        self.attempt_fields = [
            f for f in Attempt._meta.concrete_fields if not f.primary_key and f.name != "move"
        ]
        self.attempt_sql = insert(Attempt, self.attempt_fields, column(Attempt, "move"))
        record_of_the_move = (
            f"SELECT {column(MoveRecord, 'id')} FROM {quote(MoveRecord._meta.db_table)}"
            f" WHERE {column(MoveRecord, 'match')} = %s AND {column(MoveRecord, 'version')} = %s"
        )
        self.attempt_row = f"({_placeholders(self.attempt_fields)}, ({record_of_the_move}))"
        self.match_fields = [Match._meta.get_field(name) for name in self._MATCH_FIELDS]
        assignments = ", ".join(f"{quote(f.column)} = %s" for f in self.match_fields)
        self.match_sql = (
            f"UPDATE {quote(Match._meta.db_table)} SET {assignments}"
            f" WHERE {column(Match, 'id')} = %s"
        )

    def insert(self, record: MoveRecord, attempts: Sequence[Attempt]) -> list[Statement]:
        conn = connections[self.alias]
        statements = [(self.record_sql, self._values(self.record_fields, record, conn))]
        if attempts:
            params = []
            for attempt in attempts:
                params += self._values(self.attempt_fields, attempt, conn)
                params += [record.match_id, record.version]
            statements.append(
                (self.attempt_sql + ", ".join([self.attempt_row] * len(attempts)), params)
            )
        return statements

    def update(self, match: Match) -> Statement:
        conn = connections[self.alias]
        return self.match_sql, [*self._values(self.match_fields, match, conn), match.pk]

    @staticmethod
    def _values(fields, instance, conn) -> list:
        return [f.get_db_prep_save(getattr(instance, f.attname), conn) for f in fields]


def _placeholders(fields) -> str:
    return ", ".join(["%s"] * len(fields))
