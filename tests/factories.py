"""Small builders for test data, going through the real services."""

import itertools

from accounts.services import teacher_create
from classroom.services import classroom_add_student, classroom_create

TEACHER_PASSWORD = "a-long-teacher-password-42"


_numbers = itertools.count(1)


def make_teacher(email=None, name="Teacher One"):
    email = email or f"teacher{next(_numbers)}@example.org"
    return teacher_create(email=email, password=TEACHER_PASSWORD, display_name=name)


def make_class(teacher=None, name="Class 4A"):
    return classroom_create(teacher=teacher or make_teacher(), name=name)


def make_student(classroom, name="Ana", kind="pin", secret="4321"):
    return classroom_add_student(
        classroom=classroom, display_name=name, secret_kind=kind, secret=secret
    )


def session_cookie_for(user) -> str:
    """The Cookie header of a signed-in session, for sockets, raw HTTP clients and browsers: the
    load test's own (tools.signed_in), so that both sign in as the site does."""
    from tools.signed_in import signed_in_cookie

    return signed_in_cookie(user)


def make_match(game="mia", variant="express", players=(), bots=(), teacher=None, **kwargs):
    """A playing match: ``players`` are users, then ``bots`` levels fill the next seats."""
    from games.services import SeatSpec, match_create

    seats = [SeatSpec(name=user.display_name or user.username, user=user) for user in players]
    seats += [SeatSpec(name=f"Bot {i + 1}", bot_level=level) for i, level in enumerate(bots)]
    return match_create(game=game, variant=variant, seats=seats, created_by=teacher, **kwargs)


def finish_match_by_bots(match, level="easy", seed=None):
    """Plays ``match`` to its end with bots of ``level`` in every seat (engine.simulate, from the
    match's own state) and stores the end as a finished match, as the services would."""
    import random

    from django.utils import timezone

    import engine
    from engine.simulate import bot_chooser, play

    rules = engine.get_game(match.game)
    state = rules.load(match.state)
    players = state.players
    end = play(rules, state, [bot_chooser(level)] * players, random.Random(seed or match.seed))
    match.state = rules.dump(end.state)
    match.version = end.state.version
    match.status = match.Status.FINISHED
    match.outcome = end.outcome.as_dict()
    match.finished_at = timezone.now()
    match.wake_at_ms = None
    match.bot_plan = {}
    match.save()
    return end.outcome


def make_assignment(classroom, title="Homework", spec=None, due_in_days=7, seed=1):
    """An assignment through the homework service: by default two 3x3 puzzles of difficulty 1,
    due in a week, dealt from a fixed seed."""
    from datetime import timedelta

    from django.utils import timezone

    from classroom.homework.services import PuzzleSpec, assignment_create

    return assignment_create(
        classroom=classroom,
        title=title,
        spec=spec or PuzzleSpec(size=3, difficulty=1, count=2),
        due_at=timezone.now() + timedelta(days=due_in_days),
        seed=seed,
    )


def make_session(classroom, game="mia", variant="canada47", table_size=3, **kwargs):
    """A class session in the lobby, through the sessions service."""
    from classroom.sessions.services import session_open

    return session_open(
        classroom=classroom, game=game, variant=variant, table_size=table_size, **kwargs
    )


def make_attempts(user, answers, at=None, game="mia"):
    """Saves attempts the way games.services does (Attempt rows, then the statements the
    layers' attempt writes add (games.hooks), inside the transaction) from tuples
    ``(a, operator, b, answer, elapsed_ms)`` or with a sixth item, the datetime (else ``at``, else
    now). ``user`` None makes them a bot's."""
    from django.db import connection, transaction
    from django.utils import timezone

    from engine.core import attempt_event
    from engine.mistakes import classify
    from games.hooks import attempt_writes
    from games.models import Attempt, Match, MoveRecord

    true_value = {"+": lambda a, b: a + b, "-": lambda a, b: abs(a - b), "x": lambda a, b: a * b}
    with transaction.atomic():
        match = Match.objects.create(
            game=game, variant="express", seed=1, state={}, status=Match.Status.FINISHED
        )
        by_time = {}
        for item in answers:
            a, operator, b, answer, elapsed_ms, *rest = item
            when = rest[0] if rest else (at or timezone.now())
            by_time.setdefault(when, []).append((a, operator, b, answer, elapsed_ms))
        for version, (when, items) in enumerate(sorted(by_time.items()), start=1):
            record = MoveRecord.objects.create(
                match=match, version=version, actor="player", seat=0, received_at=when, now_ms=0
            )
            attempts = []
            for a, operator, b, answer, elapsed_ms in items:
                expected = true_value[operator](a, b)
                event = attempt_event(
                    seat=0,
                    operands=[a, b],
                    operator=operator,
                    answer=answer,
                    expected=expected,
                    correct=answer == expected,
                    elapsed_ms=elapsed_ms,
                )
                attempts.append(
                    Attempt(
                        match=match,
                        move=record,
                        user=user,
                        seat=0,
                        game=game,
                        operator=operator,
                        operation=event["skill"].split(".")[0],
                        skill=event["skill"],
                        operands=[a, b],
                        answer=answer,
                        expected=expected,
                        correct=event["correct"],
                        elapsed_ms=elapsed_ms,
                        mistake=classify([a, b], operator, answer, expected),
                        created_at=when,
                    )
                )
            Attempt.objects.bulk_create(attempts)
            statements = attempt_writes(match, attempts)
            with connection.cursor() as cursor:
                for sql, params in statements:
                    cursor.execute(sql, params)
    return match


async def close_code_after_accept(ws) -> int:
    """A refused socket (realtime/sockets.py) is accepted, then closed with its code, and hears
    nothing before: the code, for a socket that ``connect`` reported connected."""
    output = await ws.receive_output(timeout=5)
    assert output["type"] == "websocket.close", output
    # Then it is gone, as a browser's socket is once closed: its consumer stops now, not when
    # the test's event loop cancels everything left, where a stock Redis layer's read can hang.
    await ws.disconnect()
    return output["code"]
