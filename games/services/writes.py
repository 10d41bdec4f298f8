"""The writes of a playing match."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

import engine
from engine import IllegalMove
from engine.mistakes import classify as classify_mistake
from games import async_db, delivery, hooks, trace
from games.async_db import Statement
from games.models import Attempt, Match, MoveRecord
from games.services.bots import _bots, _due_bot, _plan
from games.services.common import (
    MAX_ADDED_SECONDS,
    MAX_CLIENT_ID,
    Change,
    MatchError,
    MoveResult,
    MoveWaitedTooLong,
    log,
    now_ms,
)
from games.services.sql import (
    CHANGED_SQLSTATE,
    SeatRow,
    _LockStatement,
    _Writes,
    at_once,
    closing,
    opening,
)

PAUSED = "paused"  # a move while the teacher has paused the game


# --- the one write path -------------------------------------------------------------------------


def submit_move(
    *, match_id: int, user, move: Any, client_id: str = "", at_ms: int | None = None
) -> MoveResult:
    """Apply ``user``'s move to the match. Raises ``MatchError`` or ``engine.IllegalMove`` (the
    match is then unchanged). A ``client_id`` already applied for this seat is answered with the
    current state and not applied again."""
    return write_match(
        _PlayerMove(match_id, user=user, move=move, client_id=client_id, at_ms=at_ms)
    )


async def submit_move_async(
    *,
    match_id: int,
    user,
    move: Any,
    client_id: str = "",
    at_ms: int | None = None,
    arrived_ns: int | None = None,
) -> MoveResult:
    """``submit_move`` as a server's socket makes it (``write_match_async``). ``arrived_ns``
    (``time.monotonic_ns()`` when the socket read it): the move is refused with
    ``MoveWaitedTooLong`` if it has waited longer than ``GAMES_MOVE_WAIT_LIMIT_MS`` by the time
    its turn and a connection are free, while other writes were done (``_MatchWrite.begin``)."""
    write = _PlayerMove(match_id, user=user, move=move, client_id=client_id, at_ms=at_ms)
    write.arrived_ns = arrived_ns
    return await write_match_async(write)


def match_wake(*, match_id: int, at_ms: int | None = None, max_changes: int = 8) -> int | None:
    """Fire what is due: the engine's timers, then the bots whose thinking time is up. Any process
    may call it at any time, as often as it likes: under the lock it acts only on what is due in
    the state it finds, so a late or repeated wake-up changes nothing. Returns the next wake-up
    (epoch ms) or None."""
    return write_match(_Wake(match_id, at_ms=at_ms, max_changes=max_changes))


async def match_wake_async(*, match_id: int) -> int | None:
    """``match_wake`` as a server's clock makes it (``write_match_async``)."""
    return await write_match_async(_Wake(match_id, at_ms=None, max_changes=8))


def match_abandon(*, match_id: int) -> None:
    """Stop a match that is still playing (the teacher ends it); nothing more is applied."""

    def stop(match: Match) -> bool:
        if not match.is_playing:
            return False
        match.status = Match.Status.ABANDONED
        match.finished_at = timezone.now()
        match.wake_at_ms = None
        match.bot_plan = {}
        return True

    def tell(match: Match) -> None:
        delivery.match_stopped(match.pk, match.version, match.state)

    write_match(_TeacherControl(match_id, stop, tell))


@transaction.atomic
def match_log_forget_seat(*, match_id: int, seat: int) -> None:
    """Takes a departed player's trace out of a stopped match's log (a child's data deleted:
    docs/privacy.md). The moves they played go with their answers, and their answer (attempt)
    events leave every other change's events; the others' moves and answers stay, so the game is
    still whole for them to look at. A move of theirs that another seat's answer was recorded
    against (none in the games so far) stays, emptied of what they did."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.is_playing:
        raise ValueError("stop the match first: a playing match's log is what it replays from")
    theirs = MoveRecord.objects.filter(match=match, actor=MoveRecord.Actor.PLAYER, seat=seat)
    holding_others = set(
        Attempt.objects.filter(move__in=theirs).exclude(seat=seat).values_list("move_id", flat=True)
    )
    theirs.exclude(pk__in=holding_others).delete()
    Attempt.objects.filter(match=match, seat=seat).delete()
    changed = []
    for record in MoveRecord.objects.filter(match=match):
        events = [
            event
            for event in record.events
            if not (event.get("type") == "attempt" and event.get("seat") == seat)
        ]
        if record.pk in holding_others:
            record.move, record.client_id = None, ""
        elif events == record.events:
            continue
        record.events = events
        changed.append(record)
    MoveRecord.objects.bulk_update(changed, ["events", "move", "client_id"], batch_size=500)


def match_pause(*, match_id: int) -> bool:
    """Freeze the match: no move, timer or bot until ``match_resume``. Returns whether it was
    playing and not already paused."""

    def pause(match: Match) -> bool:
        if not match.is_playing or match.paused_at_ms is not None:
            return False
        match.paused_at_ms = now_ms()
        return True

    return write_match(_TeacherControl(match_id, pause, _tell_the_clock))


def match_resume(*, match_id: int) -> bool:
    """Let the match's clock run again where it stopped: every deadline and bot moves later by
    the time it was paused."""

    def resume(match: Match) -> bool:
        if not match.is_playing or match.paused_at_ms is None:
            return False
        _hold_the_clock(match, now_ms() - match.paused_at_ms)
        match.paused_at_ms = None
        return True

    return write_match(_TeacherControl(match_id, resume, _tell_the_clock))


def match_add_time(*, match_id: int, seconds: int) -> bool:
    """Give the table ``seconds`` more: its clock goes back, so its running deadline (and its
    bots) come that much later. The answer being timed then counts those seconds less."""
    if not isinstance(seconds, int) or not 1 <= seconds <= MAX_ADDED_SECONDS:
        raise MatchError("bad_seconds", f"add 1 to {MAX_ADDED_SECONDS} seconds")

    def add_time(match: Match) -> bool:
        if not match.is_playing:
            return False
        _hold_the_clock(match, seconds * 1000)
        return True

    return write_match(_TeacherControl(match_id, add_time, _tell_the_clock))


# --- a match that waits for its players ----------------------------------------------------------


def match_player_arrived(*, match_id: int) -> bool:
    """A seated player's socket opened on a match that waits for its players: counted, and if the
    match stood still for want of them, its clock runs on from where it stood (every deadline and
    bot that much later). Returns whether it resumed."""
    return write_match(_Presence(match_id, +1))


def match_player_left(*, match_id: int) -> bool:
    """A seated player's socket closed: when it was the last, a match that waits for its players
    stands still (paused, as a teacher's pause: no timer, no bot, not even the sweep's) until one
    comes back. Returns whether it paused."""
    return write_match(_Presence(match_id, -1))


async def match_player_arrived_async(*, match_id: int) -> bool:
    return await write_match_async(_Presence(match_id, +1))


async def match_player_left_async(*, match_id: int) -> bool:
    return await write_match_async(_Presence(match_id, -1))


def _hold_the_clock(match: Match, held_ms: int) -> None:
    match.clock_offset_ms += held_ms
    if match.wake_at_ms is not None:
        match.wake_at_ms += held_ms


def _tell_the_clock(match: Match) -> None:
    delivery.match_clock(
        match.pk,
        paused_at_ms=match.paused_at_ms,
        clock_offset_ms=match.clock_offset_ms,
        wake_at_ms=match.wake_at_ms,
    )


class _MatchWrite:
    """One write of a match, apart from how it reaches the database: the lock statement
    (``_LockStatement``: the match row locked, with its seats), the decision taken from its rows
    (the result, and the statements that save it), and the news told once it has committed.
    ``write_match`` and ``write_match_async`` run it; every decision is taken here."""

    client_id = ""
    arrived_ns: int | None = None  # a player's move: when its socket read it
    # What this write leaves this process knowing of the match once it has committed: the match
    # as saved, its seats, and whether it saved the match's row (_KnownMatches). None: nothing
    # (the process then reads the match under its lock at its next write).
    after: tuple[Match, dict[int, SeatRow], bool] | None = None
    row_versions: tuple[str, str] | None = None  # PostgreSQL's xmin read, and this write's id

    def __init__(self, match_id):
        self.match_id = _match_id(match_id)
        self._lock = _LockStatement.get(connection)
        self.changes: list[Change] = []
        self.wake_at_ms: int | None = None

    def lock(self) -> Statement:
        return self._lock.statement(self.match_id, self.client_id)

    def read(self, rows) -> tuple[Match, dict[int, SeatRow], set[int]]:
        """The lock statement's rows: the match, its seats, the seats that sent ``client_id``."""
        self.row_versions = self._lock.row_versions(rows)
        return self._lock.read(rows)

    def decides_on_known(self) -> bool:
        """Whether this write may be decided on the match as this process last wrote it
        (``decide_on_known``) rather than read under its lock."""
        return False

    def decide_on_known(self, known: _KnownMatch) -> tuple[Any, list[Statement]]:
        raise NotImplementedError

    def begin(self) -> None:
        """Called once the write holds its turn and a connection, before any statement: a
        player's move that has waited longer than ``GAMES_MOVE_WAIT_LIMIT_MS`` by then while
        other writes of this process were done is refused (``MoveWaitedTooLong``). The bound is
        on waiting time, not on how many moves are in flight: a queue of moves that are each
        answered quickly is no trouble; moves that wait long behind others are the queue that
        grows without bound. A move that waited while no write was done (the database away, its
        connections being made again) is not queueing behind anyone: it is played once it can
        be, within the connection's own deadlines."""
        if self.arrived_ns is None:
            return
        now = time.monotonic_ns()
        waited_ms = (now - self.arrived_ns) / 1e6
        if waited_ms > settings.GAMES_MOVE_WAIT_LIMIT_MS and _writes_done.last_ns > self.arrived_ns:
            raise MoveWaitedTooLong(f"the move waited {waited_ms:.0f} ms behind other writes")

    def decide(self, rows) -> tuple[Any, list[Statement]]:
        raise NotImplementedError

    def tell(self) -> None:
        """The news of what was committed, to the match's sockets and the teaching layer, from
        wherever it committed (``games.delivery``)."""
        if self.changes:
            delivery.match_changed(self.match_id, self.changes, self.wake_at_ms)


# --- the runner ----------------------------------------------------------------------------------


def write_match(write: _MatchWrite):
    """``write`` in one transaction on Django's connection (a savepoint inside the caller's), its
    news on commit: Celery, the teaching layer, tests, and a server's writes where they cannot run
    on its event loop (``write_match_async``)."""
    _known_matches.forget(write.match_id)  # a write here leaves what the loop knew out of date
    write.begin()
    with transaction.atomic(), _pipelined():
        with connection.cursor() as cursor:
            cursor.execute(*write.lock())
            result, statements = write.decide(cursor.fetchall())
            for sql, params in statements:
                cursor.execute(sql, params)
        transaction.on_commit(write.tell)
    _writes_done.last_ns = time.monotonic_ns()
    return result


class _WritesDone:
    """When this process last finished a write of a match (``time.monotonic_ns()``): a move that
    waited past its bound is refused only if others were written meanwhile (``begin``)."""

    last_ns = 0


_writes_done = _WritesDone()


async def write_match_async(write: _MatchWrite):
    """``write`` from a server's event loop, in the match's turn. On PostgreSQL the transaction
    runs on the loop's own connections (``games.async_db``): on a thread each round trip had to
    win the GIL back from the loop (docs/capacity.md). A player's move on a match this process
    wrote last is decided on the match as that write left it and sent in one message that checks
    the row unchanged under its lock (``_KnownMatches``); any other write, or that one if the row
    has changed, reads the match under its lock and writes in a second message. SQLite has no
    such driver: there ``write_match`` runs on the thread Channels shares for database work."""
    if trace.ON:
        trace.stamp("turn_asked")
    async with _turn_of(write.match_id):
        if trace.ON:
            trace.stamp("turn")
        if not async_db.enabled():
            return await _write_match_on_thread(write)
        known = _known_matches.take(write.match_id)
        result, versions = None, None
        if known is not None and write.decides_on_known():
            result, versions = await _write_on_known(write, known)
        if versions is None:
            result = await async_db.transaction(
                opening(write.lock()), write.decide, closing, ready=write.begin
            )
            versions = write.row_versions
        _writes_done.last_ns = time.monotonic_ns()
        if trace.ON:
            trace.stamp("returned")
        write.tell()
        if versions is not None:
            _known_matches.keep(write, *versions)
        return result


async def _write_on_known(
    write: _MatchWrite, known: _KnownMatch
) -> tuple[Any, tuple[str, str] | None]:
    """``write`` decided on ``known`` and sent in one message: its result and the row versions
    to keep (``_KnownMatches.keep``) if it committed; (None, None) if it must read the match
    under its lock: the row changed since, the connection was lost, or the decision on what this
    process knew refused the write (the match may have moved on: read, the move may be allowed,
    or refused for the right reason)."""
    if trace.ON:
        trace.stamp("known")
    try:
        result, rows = await async_db.transaction_at_once(
            lambda: write.decide_on_known(known),
            lambda statements: at_once(write.match_id, known.row_version, statements),
            CHANGED_SQLSTATE,
            ready=write.begin,
        )
    except (async_db.NotDone, IntegrityError, IllegalMove, MatchError):
        return None, None
    (written_under,) = rows[0]
    return result, (known.row_version, written_under)


class _KnownMatch(NamedTuple):
    match: Match
    seats: dict[int, SeatRow]
    row_version: str  # the match row's xmin when this process last read or wrote it
    kept_at: float  # time.monotonic()


class _KnownMatches:
    """The match as this process last wrote it, for the playing matches it wrote last. Routed by
    match, a table's moves all come to one process, one at a time (``_turn_of``), so the match a
    move saved is almost always the match the next move would read: reading it again under the
    lock, a round trip before the one that writes, told the process what it already knew. A move
    decided on what the process knows is sent with a check, under the row lock, that the row is
    still the version it knew (``sql.at_once``). Written meanwhile by anyone (another process, a
    teacher's pause from a page, a sweep), the row has a new version: the check aborts the
    message, nothing of it is written, and the move is read and decided again. A process keeps
    at most ``SIZE`` matches, each for ``KEPT_S`` at most (a child's time zone, read with the
    seats, may change)."""

    SIZE = 4096
    KEPT_S = 300.0

    def __init__(self):
        self._matches: OrderedDict[int, _KnownMatch | _Unsettled] = OrderedDict()

    def take(self, match_id: int) -> _KnownMatch | None:
        known = self._matches.pop(match_id, None)
        if known is None or time.monotonic() - known.kept_at > self.KEPT_S:
            return None
        return known.settled() if isinstance(known, _Unsettled) else known

    def forget(self, match_id: int) -> None:
        self._matches.pop(match_id, None)

    def keep(self, write: _MatchWrite, read_version: str, written_under: str) -> None:
        """What ``write`` left known, once committed: its match and seats, at the row version
        it read or, if it saved the match, the one it wrote (its transaction's id). Called once
        the write's news is queued, the copy of its match is made when the event loop has run
        what was ready then: the news's task goes first, and the sockets do not wait for the
        copy. A move of the match that comes sooner makes the copy itself (``take``)."""
        if write.after is None or not write.after[0].is_playing:
            return
        saved = write.after[2]
        entry = _Unsettled(write, written_under if saved else read_version, time.monotonic())
        self._matches[write.match_id] = entry
        if len(self._matches) > self.SIZE:
            self._matches.popitem(last=False)
        asyncio.get_running_loop().call_soon(self._settle, write.match_id, entry)

    def _settle(self, match_id: int, entry: _Unsettled) -> None:
        if self._matches.get(match_id) is entry:
            self._matches[match_id] = entry.settled()


class _Unsettled(NamedTuple):
    """A committed write whose match is not yet copied as it would be read (``_KnownMatches``)."""

    write: _MatchWrite
    row_version: str
    kept_at: float

    def settled(self) -> _KnownMatch:
        match, seats, _ = self.write.after
        return _KnownMatch(self.write._lock.as_read(match), seats, self.row_version, self.kept_at)


_known_matches = _KnownMatches()

_write_match_on_thread = database_sync_to_async(write_match)

# One write of a match at a time per process, on top of the row lock: its news then leaves in
# commit order (the lock orders the commits, not the coroutines that tell of them afterwards),
# and a race at one table (every claim on a ¡Mía! card) waits here, holding one of the few
# move connections (GAMES_MOVE_CONNECTIONS) rather than one each, blocked on the row lock.
_match_turns: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()


def _turn_of(match_id: int) -> asyncio.Lock:
    turn = _match_turns.get(match_id)
    if turn is None:
        turn = _match_turns[match_id] = asyncio.Lock()
    return turn


@contextlib.contextmanager
def _pipelined():
    """On PostgreSQL, the statements of a write whose results nobody reads (its writes and the
    roll-ups') go to the server together, in psycopg's pipeline mode: a write on Django's
    connection takes four round trips (BEGIN, the lock, the writes, the COMMIT) whatever it
    writes, where each statement took one. In a busy server process every round trip also waits
    for the GIL again (docs/capacity.md).

    It is entered inside the transaction, after Django's autocommit switch, and left before the
    COMMIT: psycopg syncs the pipeline to switch autocommit, and on-commit hooks (the news, the
    teaching layer's look-ups) then run outside it. A failed write raises as the pipeline ends,
    inside the transaction, which rolls back."""
    if connection.vendor != "postgresql":
        yield
        return
    connection.ensure_connection()
    # Errors raised as the pipeline ends come from psycopg itself: Django's wrapper makes them
    # django.db errors (IntegrityError, ...), as they would be from a cursor.
    with connection.wrap_database_errors, connection.connection.pipeline():
        yield


# --- the kinds of write --------------------------------------------------------------------------


class _PlayerMove(_MatchWrite):
    def __init__(self, match_id, *, user, move: Any, client_id: str, at_ms: int | None):
        if not isinstance(client_id, str) or len(client_id) > MAX_CLIENT_ID:
            raise MatchError("bad_client_id", f"client_id is a string of at most {MAX_CLIENT_ID}")
        self.client_id = client_id
        super().__init__(match_id)
        self.user = user
        self.move = move
        self.at_ms = at_ms
        self.received_at = timezone.now()

    def decide(self, rows) -> tuple[MoveResult, list[Statement]]:
        return self._decide(*self.read(rows))

    def decides_on_known(self) -> bool:
        # A replay of a move this process committed is told from a new move by the client id's
        # unique index (its INSERT fails, and the move is read again under the lock, where the
        # replay check answers it). Without a client id nothing could tell: such a move, and one
        # whose one message may have committed before its connection was lost, must be read.
        return bool(self.client_id)

    def decide_on_known(self, known: _KnownMatch) -> tuple[MoveResult, list[Statement]]:
        return self._decide(known.match, known.seats, set())

    def _decide(self, match, seats, replayed) -> tuple[MoveResult, list[Statement]]:
        seat = next((i for i, row in seats.items() if row.user_id == self.user.pk), None)
        if seat is None:
            raise MatchError("not_seated", "you have no seat at this match")
        if seat in replayed:
            self.after = (match, seats, False)
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
        self.changes = [change]
        self.wake_at_ms = match.wake_at_ms
        self.after = (match, seats, True)
        return MoveResult(match.pk, match.version, match.state, changes=[change]), statements


class _Wake(_MatchWrite):
    """What is due when the match's clock or a server's sweep looks: its timers, then its bots."""

    def __init__(self, match_id, *, at_ms: int | None, max_changes: int):
        super().__init__(match_id)
        self.wall_ms = now_ms() if at_ms is None else at_ms
        self.max_changes = max_changes
        self.received_at = timezone.now()

    def decide(self, rows) -> tuple[int | None, list[Statement]]:
        if not rows:
            return None, []  # gone: nothing will be due
        match, seats, _replayed = self.read(rows)
        self.after = (match, seats, False)
        if match.paused_at_ms is not None:
            return None, []  # nothing is due while paused; the resume schedules the next wake
        if not match.is_playing or match.wake_at_ms is None or match.wake_at_ms > self.wall_ms:
            return (match.wake_at_ms if match.is_playing else None), []
        at_ms = self.wall_ms - match.clock_offset_ms  # the match's own clock, as the engine's
        rules = engine.get_game(match.game)
        bots = _bots(seats)
        people = frozenset(seats) - frozenset(bots)
        state = rules.load(match.state)
        changes: list[Change] = []
        waiting: set[int] = set()
        statements: list[Statement] = []

        def record(step, actor, seat, move) -> None:
            changes.append(
                _record(
                    match,
                    rules,
                    step,
                    seats,
                    statements,
                    actor=actor,
                    seat=seat,
                    move=move,
                    client_id="",
                    received_at=self.received_at,
                    at_ms=at_ms,
                )
            )

        while len(changes) < self.max_changes and rules.outcome(state) is None:
            due = rules.deadline(state)
            if due is not None and due <= at_ms:
                step = rules.tick(state, at_ms)
                if step.state.version == state.version:  # nothing was really due
                    break
                record(step, MoveRecord.Actor.TIMER, None, None)
                state = step.state
                waiting.clear()
                _plan(match, rules, state, bots, at_ms, acted=None)
                continue
            bot_seat = _due_bot(match, rules, state, at_ms)
            if bot_seat is None:
                break
            thinker = random.Random(f"{match.seed}:{state.version}:{bot_seat}")
            # A focused match's facts are the child's to answer: its bots leave them where the
            # rules allow (docs/rules/<slug>.md, "Bots in focused practice"), or, in a game whose
            # bots carry the focus (Add or Multiply?), play them on the one person's seat.
            leave = [tuple(fact) for fact in match.focus or ()]
            move = engine.bots.choose(
                rules, state, bot_seat, bots[bot_seat], thinker, leave=leave, people=people
            )
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
            record(step, MoveRecord.Actor.BOT, bot_seat, move)
            state = step.state
            waiting.clear()
            _plan(match, rules, state, bots, at_ms, acted=bot_seat)
        _plan(match, rules, state, bots, at_ms, acted=None, waiting=frozenset(waiting))
        _save(match, rules, state, statements)
        if changes:  # only the last change of a wake-up can have ended the game
            changes[-1].finished = match.status == Match.Status.FINISHED
        self.changes = changes
        self.wake_at_ms = match.wake_at_ms
        self.after = (match, seats, True)
        return match.wake_at_ms, statements


class _TeacherControl(_MatchWrite):
    """The teacher's hand on a match (pause, resume, added time, stop): ``change`` alters the
    locked match and says whether it did; ``tell`` sends its news once committed."""

    def __init__(self, match_id, change: Callable[[Match], bool], tell: Callable[[Match], None]):
        super().__init__(match_id)
        self.change = change
        self.told = tell
        self.changed: Match | None = None

    def decide(self, rows) -> tuple[bool, list[Statement]]:
        match, _seats, _replayed = self.read(rows)
        if not self.change(match):
            return False, []
        match.updated_at = timezone.now()
        self.changed = match
        return True, [_Writes.get(connection).update(match)]

    def tell(self) -> None:
        if self.changed is not None:
            self.told(self.changed)


class _Presence(_MatchWrite):
    """One seated player's socket more (+1) or less (-1) on a match that waits for its players,
    under the match's row lock, so a tab closing while another opens never leaves it paused with
    its child there (or running without them)."""

    def __init__(self, match_id, delta: int):
        super().__init__(match_id)
        self.delta = delta
        self.changed: Match | None = None

    def decide(self, rows) -> tuple[bool, list[Statement]]:
        match, _seats, _replayed = self.read(rows)
        if not match.waits_for_players:
            return False, []
        count = max(0, match.players_connected + self.delta)
        statements = [_Writes.get(connection).players_connected(match.pk, count)]
        changed = False
        if match.is_playing and count == 0 and match.paused_at_ms is None:
            match.paused_at_ms = now_ms()
            changed = True
        elif match.is_playing and count > 0 and match.paused_at_ms is not None:
            _hold_the_clock(match, now_ms() - match.paused_at_ms)
            match.paused_at_ms = None
            changed = True
        if changed:
            match.updated_at = timezone.now()
            self.changed = match
            statements.append(_Writes.get(connection).update(match))
        return changed, statements

    def tell(self) -> None:
        if self.changed is not None:
            _tell_the_clock(self.changed)


# --- the parts -----------------------------------------------------------------------------------


def _match_id(match_id) -> int:
    try:
        return int(match_id)
    except (ValueError, TypeError):
        raise MatchError("no_match", "there is no such match") from None


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
