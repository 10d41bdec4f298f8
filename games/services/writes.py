"""The writes of a playing match: the entry points (a player's move, the wake-up of its timers
and bots, the teacher's stop, pause, resume and added time, a player arriving or leaving) and the
kind of ``_MatchWrite`` each is, which decides from the match it reads and writes what it decided.
games.services.runner takes a write to the database."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

import engine
from engine import IllegalMove
from engine.mistakes import classify as classify_mistake
from games import delivery, hooks
from games.async_db import Statement
from games.models import Attempt, Match, MoveRecord
from games.services.bots import _bots, _due_bot, _plan
from games.services.common import (
    MAX_ADDED_SECONDS,
    MAX_CLIENT_ID,
    Change,
    MatchError,
    MoveResult,
    log,
    now_ms,
)
from games.services.runner import _KnownMatch, _MatchWrite, write_match, write_match_async
from games.services.sql import SeatRow, _Writes

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
        version=match.version,
        paused_at_ms=match.paused_at_ms,
        clock_offset_ms=match.clock_offset_ms,
        wake_at_ms=match.wake_at_ms,
    )


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
            raise engine.core.refusal(engine.core.GAME_OVER)
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
