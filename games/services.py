"""The writes of live play, along one path. A player's move (``submit_move``), the timers and bots
(``match_wake``) and the teacher's pause, resume, added time and stop are each one ``_MatchWrite``:
one short transaction that locks the match row with its seats (one statement,
``_LockStatement``), decides from what it read, writes what it decided (the state with its
MoveRecord and Attempts, and the teaching layer's roll-ups: ``games.hooks``) and sends its news
after the commit. The same decisions run on Django's connection (``_write``) or, on a server with
PostgreSQL, on the event loop's own (``_write_on_loop``). Races (two claims on one ¡Mía! card from
any number of processes) are decided by the lock: the first to hold it wins, the others are
checked against the state it left.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import secrets
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, connections, transaction
from django.utils import timezone

import engine
from accounts.models import Accommodations, accommodations_of
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
    # A solo game against bots: it stands still while its player is away (Match.waits_for_players).
    waits_for_players: bool = False


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
    waits_for_players: bool = False,
) -> Match:
    """A new playing match. The engine validates the game, variant, options and player count
    (``engine.SetupError``); seats are validated here (``MatchError``). ``waits_for_players``: the
    match stands still while no seated player's socket is open (``match_player_left``)."""
    new = NewMatch(
        game, variant, seats, options, created_by, label, seed, waits_for_players=waits_for_players
    )
    return match_create_many([new], at_ms=at_ms)[0]


def match_create_many(news: Sequence[NewMatch], *, at_ms: int | None = None) -> list[Match]:
    """New playing matches (a class's tables at the start), in two INSERTs whatever their
    number: at a school assembly's 300 tables, a match at a time was most of "Start"'s second."""
    at_ms = now_ms() if at_ms is None else at_ms
    matches, seat_lists = [], []
    accommodations = _accommodations(news)
    for new in news:
        matches.append(_new_match(new, at_ms, accommodations))
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


def _new_match(new: NewMatch, at_ms: int, accommodations: dict[int, Accommodations]) -> Match:
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
    pace = table_pace(accommodations[spec.user.pk] for spec in seats if spec.user is not None)
    options = accommodated_options(rules, new.variant, new.options, pace)
    state = rules.new(
        variant=new.variant, players=len(seats), seed=seed, options=options, now_ms=at_ms
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
        pace_factor=pace.bots,
        waits_for_players=new.waits_for_players,
    )
    _plan(match, rules, state, bot_seats, at_ms, acted=None)
    return match


# --- a table's pace: the accommodations of its children ------------------------------------------

CALM_OPTION = "calm"  # a variant's option for a table without the race (¡Mía!'s calm table)
UNHURRIED = 2.0  # a calm or unclocked child's pace: bots think twice their usual time


@dataclass(frozen=True)
class TablePace:
    """What the children at one table need (docs/accessibility.md, "Accommodations per child").
    ``clock``: how much longer every timer runs, the largest allowance among them (None: one has
    no clock); ``bots``: how much longer bots think; ``calm``: a child needs a calm table."""

    clock: float | None = 1.0
    bots: float = 1.0
    calm: bool = False


def table_pace(accommodations) -> TablePace:
    """One table's pace from its children's accommodations: the slowest child sets it."""
    clock: float | None = 1.0
    bots, calm = 1.0, False
    for child in accommodations:
        factor = child.time_factor
        if factor is None or child.calm_table:
            calm = True
            bots = max(bots, UNHURRIED)
        if factor is None:
            clock = None
        else:
            bots = max(bots, factor)
            if clock is not None:
                clock = max(clock, factor)
    return TablePace(clock=clock, bots=bots, calm=calm)


def accommodated_options(rules, variant: str, options: dict | None, pace: TablePace) -> dict | None:
    """The teacher's options for a table at ``pace``: every timer option (``Option.timer``) runs
    ``pace.clock`` times the teacher's value, capped at the option's maximum; with a child who has
    no clock, ``calm`` is set where the variant has a calm table, and the timers run as long as
    the game allows where it has none. A calm child gets ``calm`` where the variant declares it.
    Options the engine would refuse are left for it to refuse."""
    declared = rules.variants.get(variant)
    if declared is None or pace == TablePace():
        return options
    try:
        chosen = declared.resolve_options(options)
    except engine.SetupError:
        return options
    accommodated = dict(options or {})
    calm = pace.calm and CALM_OPTION in declared.options
    if calm:
        accommodated[CALM_OPTION] = True
    for name, option in declared.options.items():
        if not option.timer:
            continue
        if pace.clock is None and not calm:
            seconds = option.maximum if option.maximum is not None else chosen[name] * 2
        else:
            factor = pace.clock if pace.clock is not None else UNHURRIED
            seconds = math.ceil(chosen[name] * factor)  # never less than the allowance
        if option.maximum is not None:
            seconds = min(seconds, option.maximum)
        accommodated[name] = max(seconds, chosen[name])
    return accommodated


def _accommodations(news: Sequence[NewMatch]) -> dict[int, Accommodations]:
    """Every seated child's accommodations (the defaults where none are set), in one query."""
    users = {spec.user.pk: spec.user for new in news for spec in new.seats if spec.user is not None}
    found = {
        row.student_id: row for row in Accommodations.objects.filter(student_id__in=list(users))
    }
    return {pk: found.get(pk) or accommodations_of(None) for pk in users}


# --- the one write path -------------------------------------------------------------------------


def submit_move(
    *, match_id: int, user, move: Any, client_id: str = "", at_ms: int | None = None
) -> MoveResult:
    """Apply ``user``'s move to the match. Raises ``MatchError`` or ``engine.IllegalMove`` (the
    match is then unchanged). A ``client_id`` already applied for this seat is answered with the
    current state and not applied again."""
    return _write(_PlayerMove(match_id, user=user, move=move, client_id=client_id, at_ms=at_ms))


async def submit_move_async(
    *, match_id: int, user, move: Any, client_id: str = "", at_ms: int | None = None
) -> MoveResult:
    """``submit_move`` as a server's socket makes it (``_write_on_loop``)."""
    write = _PlayerMove(match_id, user=user, move=move, client_id=client_id, at_ms=at_ms)
    return await _write_on_loop(write)


def match_wake(*, match_id: int, at_ms: int | None = None, max_changes: int = 8) -> int | None:
    """Fire what is due: the engine's timers, then the bots whose thinking time is up. Any process
    may call it at any time, as often as it likes: under the lock it acts only on what is due in
    the state it finds, so a late or repeated wake-up changes nothing. Returns the next wake-up
    (epoch ms) or None."""
    return _write(_Wake(match_id, at_ms=at_ms, max_changes=max_changes))


async def match_wake_async(*, match_id: int) -> int | None:
    """``match_wake`` as a server's clock makes it (``_write_on_loop``)."""
    return await _write_on_loop(_Wake(match_id, at_ms=None, max_changes=8))


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
        broadcast.match_stopped(match.pk, match.version, match.state)

    _write(_TeacherControl(match_id, stop, tell))


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

    return _write(_TeacherControl(match_id, pause, _tell_the_clock))


def match_resume(*, match_id: int) -> bool:
    """Let the match's clock run again where it stopped: every deadline and bot moves later by
    the time it was paused."""

    def resume(match: Match) -> bool:
        if not match.is_playing or match.paused_at_ms is None:
            return False
        _hold_the_clock(match, now_ms() - match.paused_at_ms)
        match.paused_at_ms = None
        return True

    return _write(_TeacherControl(match_id, resume, _tell_the_clock))


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

    return _write(_TeacherControl(match_id, add_time, _tell_the_clock))


# --- a match that waits for its players ----------------------------------------------------------


def match_player_arrived(*, match_id: int) -> bool:
    """A seated player's socket opened on a match that waits for its players: counted, and if the
    match stood still for want of them, its clock runs on from where it stood (every deadline and
    bot that much later). Returns whether it resumed."""
    return _write(_Presence(match_id, +1))


def match_player_left(*, match_id: int) -> bool:
    """A seated player's socket closed: when it was the last, a match that waits for its players
    stands still (paused, as a teacher's pause: no timer, no bot, not even the sweep's) until one
    comes back. Returns whether it paused."""
    return _write(_Presence(match_id, -1))


async def match_player_arrived_async(*, match_id: int) -> bool:
    return await _write_on_loop(_Presence(match_id, +1))


async def match_player_left_async(*, match_id: int) -> bool:
    return await _write_on_loop(_Presence(match_id, -1))


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


class _MatchWrite:
    """One write of a match, apart from how it reaches the database: the lock statement
    (``_LockStatement``: the match row locked, with its seats), the decision taken from its rows
    (the result, and the statements that save it), and the news told once it has committed.
    ``_write`` runs it on Django's connection and ``_write_on_loop`` on a server's event loop;
    both take every decision here."""

    client_id = ""

    def __init__(self, match_id):
        self.match_id = _match_id(match_id)
        self._lock = _LockStatement.get(connection, with_client_id=bool(self.client_id))
        self.changes: list[Change] = []
        self.wake_at_ms: int | None = None

    def lock(self) -> Statement:
        return self._lock.sql, self._lock.params(self.match_id, self.client_id)

    def decide(self, rows) -> tuple[Any, list[Statement]]:
        raise NotImplementedError

    def tell(self, *, on_loop: bool) -> None:
        """The news of what was committed, to the match's sockets and the teaching layer."""
        if not self.changes:
            return
        tell = broadcast.match_changed_from_loop if on_loop else broadcast.match_changed
        tell(self.match_id, self.changes, self.wake_at_ms)


def _write(write: _MatchWrite):
    """``write`` in one transaction on Django's connection (a savepoint inside the caller's),
    its news on commit: the embedded set-up's server (SQLite), Celery, the teaching layer."""
    with transaction.atomic(), _pipelined():
        with connection.cursor() as cursor:
            cursor.execute(*write.lock())
            result, statements = write.decide(cursor.fetchall())
            for sql, params in statements:
                cursor.execute(sql, params)
        transaction.on_commit(lambda: write.tell(on_loop=False))
    return result


_write_on_thread = database_sync_to_async(_write)

# One write of a match at a time per process, so that its news leaves in commit order.
_match_turns: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()


def _turn_of(match_id: int) -> asyncio.Lock:
    turn = _match_turns.get(match_id)
    if turn is None:
        turn = _match_turns[match_id] = asyncio.Lock()
    return turn


async def _write_on_loop(write: _MatchWrite):
    """``write`` from a server's event loop. On PostgreSQL the transaction runs on the loop's own
    connections in two round trips (``games.async_db``): on a thread each round trip had to win
    the GIL back from the loop (docs/capacity.md). SQLite has no such driver: there it runs
    ``_write`` on the thread Channels shares for database work."""
    async with _turn_of(write.match_id):
        if not async_db.enabled():
            return await _write_on_thread(write)
        result = await async_db.locked_write(write.lock(), write.decide)
        write.tell(on_loop=True)
        return result


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
        self.changes = [change]
        self.wake_at_ms = match.wake_at_ms
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
        match, seats, _replayed = self._lock.read(rows, client_id="")
        if match.paused_at_ms is not None:
            return None, []  # nothing is due while paused; the resume schedules the next wake
        if not match.is_playing or match.wake_at_ms is None or match.wake_at_ms > self.wall_ms:
            return (match.wake_at_ms if match.is_playing else None), []
        at_ms = self.wall_ms - match.clock_offset_ms  # the match's own clock, as the engine's
        rules = engine.get_game(match.game)
        bots = _bots(seats)
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
        match, _seats, _replayed = self._lock.read(rows, client_id="")
        if not self.change(match):
            return False, []
        match.updated_at = timezone.now()
        self.changed = match
        return True, [_Writes.get(connection).update(match)]

    def tell(self, *, on_loop: bool) -> None:
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
        match, _seats, _replayed = self._lock.read(rows, client_id="")
        if not match.waits_for_players:
            return False, []
        count = max(0, match.players_connected + self.delta)
        quote = connection.ops.quote_name
        statements: list[Statement] = [
            (
                f"UPDATE {quote(Match._meta.db_table)} SET {quote('players_connected')} = %s"
                f" WHERE {quote('id')} = %s",
                [count, match.pk],
            )
        ]
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

    def tell(self, *, on_loop: bool) -> None:
        if self.changed is not None:
            _tell_the_clock(self.changed)


# --- the parts -----------------------------------------------------------------------------------


def _match_id(match_id) -> int:
    try:
        return int(match_id)
    except (ValueError, TypeError):
        raise MatchError("no_match", "there is no such match") from None


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
    # A table with a child given more time: the bots follow that child's pace.
    return int(whim * (match.pace_factor or 1.0) * scale * 1000)


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
        "clock_offset_ms",
        "paused_at_ms",
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
