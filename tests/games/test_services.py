"""games.services: creating matches, the one writer, wake-ups for timers and bots."""

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection, transaction
from django.utils import timezone

import engine
from engine import IllegalMove, SetupError
from games import async_db, services
from games.models import Attempt, Match, MoveRecord
from games.services import MatchError, SeatSpec, match_create, match_wake, sql, submit_move
from games.tasks import wake_overdue_matches
from tests.factories import make_class, make_match, make_student, make_teacher

pytestmark = pytest.mark.django_db

T0 = 1_700_000_000_000  # an epoch ms in 2023: engine time in these tests, long past


@pytest.fixture
def table():
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    return classroom, ana, ben


def a_move(rules, state, seat):
    return rules.hint(state, seat) or rules.legal_moves(state, seat)[0]


def state_of(match):
    match.refresh_from_db()
    rules = engine.get_game(match.game)
    return rules, rules.load(match.state)


def test_create_validates_through_the_engine(table):
    _, ana, ben = table
    with pytest.raises(SetupError) as error:
        make_match(variant="no_such_variant", players=[ana, ben])
    assert error.value.code == "unknown_variant"
    with pytest.raises(SetupError) as error:
        make_match(players=[ana, ben], options={"pass_timeout_seconds": "soon"})
    assert error.value.code == "bad_option"
    with pytest.raises(SetupError) as error:  # Add or Multiply? is for exactly three
        make_match(game="add_or_multiply", variant="standard", players=[ana, ben])
    assert error.value.code == "bad_players"
    assert Match.objects.count() == 0


def test_create_validates_the_seats(table):
    _, ana, _ben = table
    with pytest.raises(MatchError) as error:
        make_match(players=[ana, ana])
    assert error.value.code == "duplicate_player"
    with pytest.raises(MatchError) as error:
        make_match(players=[ana], bots=["genius"])
    assert error.value.code == "bad_bot_level"
    with pytest.raises(MatchError) as error:
        match_create(
            game="mia",
            variant="express",
            seats=[SeatSpec(name="a", bot_level="easy"), SeatSpec(name="b", bot_level="easy")],
        )
    assert error.value.code == "no_player"
    assert Match.objects.count() == 0


def test_create_stores_state_seats_and_plans_nothing_for_idle_bots(table):
    _, ana, ben = table
    match = make_match(game="add_up", variant="standard", players=[ana, ben], bots=["easy"])
    assert match.status == "playing"
    assert list(match.seats.values_list("index", "user_id", "bot_level")) == [
        (0, ana.pk, ""),
        (1, ben.pk, ""),
        (2, None, "easy"),
    ]
    rules, state = state_of(match)
    assert state.version == match.version == 0
    assert match.seed and rules.dump(state) == match.state


def test_a_move_is_applied_recorded_and_broadcast_on_commit(
    table, django_capture_on_commit_callbacks
):
    _, ana, ben = table
    match = make_match(players=[ana, ben], seed=7, at_ms=T0)
    rules, state = state_of(match)
    claim = rules.hint(state, 0)
    layer = get_channel_layer()
    listener = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(f"match.{match.pk}", listener)

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        result = submit_move(
            match_id=match.pk, user=ana, move=claim, client_id="c-1", at_ms=T0 + 2300
        )

    assert len(callbacks) == 1
    assert result.version == 1 and not result.duplicate
    match.refresh_from_db()
    assert match.version == 1
    record = MoveRecord.objects.get(match=match)
    assert (record.version, record.actor, record.seat, record.client_id) == (1, "player", 0, "c-1")
    assert record.move == claim
    assert any(e["type"] == "claim_won" for e in record.events)
    attempt = Attempt.objects.get(match=match)
    assert attempt.user == ana and attempt.correct and attempt.elapsed_ms == 2300
    assert attempt.operation in {"add", "sub"} and attempt.skill.startswith(attempt.operation)
    news = async_to_sync(layer.receive)(listener)
    assert news["type"] == "match.changed" and news["version"] == 1
    assert news["client_id"] == "c-1" and news["actor_seat"] == 0
    assert news["state"] == match.state


def test_nothing_is_broadcast_when_the_transaction_rolls_back(
    table, django_capture_on_commit_callbacks
):
    _, ana, ben = table
    match = make_match(players=[ana, ben], seed=7, at_ms=T0)
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(IllegalMove),
    ):
        submit_move(match_id=match.pk, user=ana, move={"type": "fly"}, at_ms=T0)
    assert callbacks == []


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ({"type": "fly"}, "unknown_move"),
        ({"type": "claim", "cards": [1], "option": 0}, "malformed"),
        ({"type": "claim", "cards": [1, 2], "option": 0, "round": 99}, "stale_round"),
        ({"no": "type"}, "malformed"),
    ],
)
def test_a_bad_move_gets_its_code_and_changes_nothing(table, move, code):
    _, ana, ben = table
    match = make_match(players=[ana, ben], seed=7, at_ms=T0)
    before = Match.objects.get(pk=match.pk).state
    with pytest.raises(IllegalMove) as error:
        submit_move(match_id=match.pk, user=ana, move=move, client_id="x", at_ms=T0)
    assert error.value.code == code
    match.refresh_from_db()
    assert match.version == 0 and match.state == before
    assert not MoveRecord.objects.exists() and not Attempt.objects.exists()


def test_a_user_without_a_seat_cannot_act(table):
    classroom, ana, ben = table
    carla = make_student(classroom, "Carla", secret="2222")
    match = make_match(players=[ana, ben], seed=7, at_ms=T0)
    rules, state = state_of(match)
    with pytest.raises(MatchError) as error:
        submit_move(match_id=match.pk, user=carla, move=rules.hint(state, 0), at_ms=T0)
    assert error.value.code == "not_seated"
    with pytest.raises(MatchError) as error:
        submit_move(match_id=987654, user=ana, move={"type": "pass"}, at_ms=T0)
    assert error.value.code == "no_match"
    assert not MoveRecord.objects.exists()


def test_a_repeated_client_id_is_answered_not_applied_twice(table):
    _, ana, ben = table
    match = make_match(players=[ana, ben], seed=7, at_ms=T0)
    first = submit_move(match_id=match.pk, user=ana, move={"type": "pass"}, client_id="same")
    again = submit_move(match_id=match.pk, user=ana, move={"type": "pass"}, client_id="same")
    assert first.version == again.version == 1
    assert again.duplicate and not first.duplicate
    assert MoveRecord.objects.filter(match=match).count() == 1
    # the same id from another seat is that seat's own move
    other = submit_move(match_id=match.pk, user=ben, move={"type": "pass"}, client_id="same")
    assert not other.duplicate and MoveRecord.objects.filter(match=match).count() == 2


def test_client_id_must_be_a_short_string(table):
    _, ana, ben = table
    match = make_match(players=[ana, ben], seed=7, at_ms=T0)
    for bad in (5, "x" * 65, None):
        with pytest.raises(MatchError) as error:
            submit_move(match_id=match.pk, user=ana, move={"type": "pass"}, client_id=bad)
        assert error.value.code == "bad_client_id"


def test_the_pass_timeout_fires_once_however_often_the_match_is_woken(table):
    _, ana, ben = table
    match = make_match(players=[ana, ben], seed=7, at_ms=T0)
    assert match.wake_at_ms == T0 + 20_000  # the 20 s pass timeout of RULINGS 1
    assert match_wake(match_id=match.pk, at_ms=T0 + 19_999) == T0 + 20_000
    match.refresh_from_db()
    assert match.version == 0
    next_wake = match_wake(match_id=match.pk, at_ms=T0 + 20_000)
    match_wake(match_id=match.pk, at_ms=T0 + 20_000)  # a second process, a moment late
    match.refresh_from_db()
    assert match.version == 1
    timer = MoveRecord.objects.get(match=match)
    assert timer.actor == "timer" and timer.seat is None
    assert any(e["type"] == "nobody_solved" for e in timer.events)
    assert next_wake == match.wake_at_ms == T0 + 40_000


def test_bots_think_for_a_while_then_move_once(table, settings):
    settings.GAMES_BOT_DELAY_SCALE = 1.0
    _, ana, _ = table
    match = make_match(
        game="add_up",
        variant="standard",
        players=[ana],
        bots=["easy"],
        seed=3,
        options={"first_player": "seat0"},
    )
    rules, state = state_of(match)
    assert match.wake_at_ms is None  # nobody to wait for while Ana thinks
    # Play Ana's turns until it is the bot's.
    while 1 not in rules.active(state):
        submit_move(match_id=match.pk, user=ana, move=a_move(rules, state, 0))
        rules, state = state_of(match)
    match.refresh_from_db()
    due = match.bot_plan["1"]
    low, high = services.BOT_DELAY_SECONDS["easy"]
    assert due == match.wake_at_ms
    version = match.version
    assert match_wake(match_id=match.pk, at_ms=due - 1) == due
    match.refresh_from_db()
    assert match.version == version  # still thinking
    match_wake(match_id=match.pk, at_ms=due)
    match_wake(match_id=match.pk, at_ms=due)
    match.refresh_from_db()
    assert match.version == version + 1
    bot_move = MoveRecord.objects.get(match=match, version=version + 1)
    assert bot_move.actor == "bot" and bot_move.seat == 1
    assert Attempt.objects.filter(move=bot_move, user=None).count() == len(
        [e for e in bot_move.events if e["type"] == "attempt"]
    )
    handed_over = MoveRecord.objects.filter(match=match, actor="player").last()
    assert low * 1000 <= due - handed_over.now_ms <= high * 1000


def play_to_the_end(match, player):
    """The player (seat 0) and the bots play the match through the services until it ends."""
    for _ in range(2000):
        match.refresh_from_db()
        if not match.is_playing:
            return
        rules, state = state_of(match)
        if 0 in rules.active(state):
            submit_move(match_id=match.pk, user=player, move=a_move(rules, state, 0))
        else:
            match_wake(match_id=match.pk)


def test_a_table_with_a_bot_plays_to_the_end_with_every_change_recorded(table, settings):
    settings.GAMES_BOT_DELAY_SCALE = 0.0
    _, ana, _ = table
    match = make_match(game="add_up", variant="standard", players=[ana], bots=["strong"], seed=9)
    play_to_the_end(match, ana)
    match.refresh_from_db()
    assert match.status == "finished" and match.finished_at is not None
    assert match.outcome["winners"] and match.wake_at_ms is None and match.bot_plan == {}
    versions = list(match.moves.values_list("version", flat=True))
    assert versions == list(range(1, match.version + 1))  # every change recorded, none twice
    with pytest.raises(IllegalMove) as error:
        submit_move(match_id=match.pk, user=ana, move={"type": "pass"})
    assert error.value.code == "game_over"


def test_the_sweep_wakes_overdue_matches_only(table, settings):
    _, ana, ben = table
    overdue = make_match(players=[ana, ben], seed=7, at_ms=T0)
    teacher = make_teacher()
    fresh = make_match(players=[ana, ben], seed=8, teacher=teacher)
    assert wake_overdue_matches() == 1
    overdue.refresh_from_db()
    fresh.refresh_from_db()
    assert overdue.version >= 1 and fresh.version == 0


def test_abandon_stops_the_match(table):
    _, ana, ben = table
    match = make_match(players=[ana, ben], seed=7)
    services.match_abandon(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == "abandoned" and match.wake_at_ms is None
    with pytest.raises(IllegalMove) as error:
        submit_move(match_id=match.pk, user=ana, move={"type": "pass"})
    assert error.value.code == "game_over"


def test_the_hot_paths_lock_reads_the_match_as_the_orm_does(table):
    _, ana, ben = table
    rules = engine.get_game("add_up")
    # A seed whose first turn is a player's, not the bot's.
    seed = next(
        s
        for s in range(100)
        if min(rules.active(rules.new(variant="standard", players=3, seed=s, now_ms=T0))) < 2
    )
    match = make_match(
        game="add_up", variant="standard", players=[ana, ben], bots=["easy"], seed=seed, at_ms=T0
    )
    rules, state = state_of(match)
    seat = min(rules.active(state))
    mover = [ana, ben][seat]
    submit_move(match_id=match.pk, user=mover, move=a_move(rules, state, seat), client_id="first")
    Match.objects.filter(pk=match.pk).update(outcome={"scores": [1, 2]}, label="Table 9")
    expected = Match.objects.get(pk=match.pk)
    with transaction.atomic():
        locked, seats, replayed = locked_through_django(match.pk, client_id="first")
    for field in Match._meta.concrete_fields:
        assert getattr(locked, field.attname) == getattr(expected, field.attname), field.name
    assert locked._state.adding is False
    assert seats == {0: (ana.pk, "", ""), 1: (ben.pk, "", ""), 2: (None, "easy", "")}
    assert replayed == {seat}
    with transaction.atomic():
        assert locked_through_django(match.pk, client_id="other")[2] == set()
        assert locked_through_django(match.pk, client_id="")[2] == set()
    with pytest.raises(MatchError) as refused, transaction.atomic():
        locked_through_django(10**9, client_id="")
    assert refused.value.code == "no_match"


def locked_through_django(match_id, *, client_id):
    statement = sql._LockStatement.get(connection)
    with connection.cursor() as cursor:
        cursor.execute(*statement.statement(match_id, client_id))
        return statement.read(cursor.fetchall())


def test_moves_sent_without_a_client_id_are_never_taken_for_repeats(table):
    # The lock statement asks every write whether its client_id was applied; a write without one
    # asks about NULL, which no record has (a bot's and a timer's records have "").
    _, ana, ben = table
    match = make_match(players=[ana, ben], seed=7, at_ms=T0)
    first = submit_move(match_id=match.pk, user=ana, move={"type": "pass"})
    assert match_wake(match_id=match.pk, at_ms=T0 + 60_000) is not None  # a timer's record
    assert MoveRecord.objects.filter(match=match, client_id="").count() == 2
    with transaction.atomic():
        assert locked_through_django(match.pk, client_id="")[2] == set()
    second = submit_move(match_id=match.pk, user=ben, move={"type": "pass"})
    assert not first.duplicate and not second.duplicate
    assert MoveRecord.objects.filter(match=match).count() == 3


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("services")
def test_the_event_loops_lock_reads_the_match_as_the_orm_does(table):
    # On PostgreSQL a server's moves read the match through psycopg's own asynchronous connection
    # (games/async_db.py): its rows must convert exactly as the ORM's do (JSON, time zones).
    _, ana, ben = table
    match = make_match(
        game="add_up", variant="standard", players=[ana, ben], bots=["easy"], seed=3, at_ms=T0
    )
    Match.objects.filter(pk=match.pk).update(
        outcome={"scores": [1, 2], "note": "é"}, label="Table 9", finished_at=timezone.now()
    )
    expected = Match.objects.get(pk=match.pk)
    statement = sql._LockStatement.get(connection)

    async def read():
        try:
            async with async_db.connection() as db, db.transaction():
                lock = statement.statement(match.pk, "nobody-sent-this")
                rows = await db.send(sql.opening(lock), rows_of=-1)
                await db.send(sql.closing([]))
            return statement.read(rows)
        finally:
            await async_db.close_pool()

    locked, seats, replayed = async_to_sync(read)()
    for field in Match._meta.concrete_fields:
        assert getattr(locked, field.attname) == getattr(expected, field.attname), field.name
    assert seats == {0: (ana.pk, "", ""), 1: (ben.pk, "", ""), 2: (None, "easy", "")}
    assert replayed == set()


def test_every_attempt_is_saved_with_the_record_of_its_move(table, settings):
    settings.GAMES_BOT_DELAY_SCALE = 0.0
    _, ana, _ = table
    match = make_match(game="add_up", variant="standard", players=[ana], bots=["easy"], seed=4)
    play_to_the_end(match, ana)
    records = list(MoveRecord.objects.filter(match=match))
    told = sum(1 for r in records for e in r.events if e["type"] == "attempt")
    attempts = list(Attempt.objects.filter(match=match).select_related("move"))
    assert told > 5 and len(attempts) == told
    for attempt in attempts:
        assert attempt.move.match_id == match.pk and attempt.created_at == attempt.move.received_at
        event = next(e for e in attempt.move.events if e["type"] == "attempt")
        assert (attempt.seat, attempt.operands, attempt.answer) == (
            event["seat"],
            event["operands"],
            event["answer"],
        )
    match.refresh_from_db()
    assert match.updated_at >= records[-1].received_at


def submit_on_the_event_loop(**move):
    """``submit_move_async`` as a server runs it, on an event loop of its own (with its pool)."""

    async def submit():
        try:
            return await services.submit_move_async(**move)
        finally:
            await async_db.close_pool()

    return async_to_sync(submit)()


def a_refused_write_fails_the_move_and_changes_nothing(submit, table, monkeypatch):
    from django.db import IntegrityError

    _, ana, ben = table
    match = make_match(players=[ana, ben], seed=7, at_ms=T0)
    rules, state = state_of(match)
    save = services.writes._save

    def save_then_break_a_constraint(match, rules, state, statements):
        save(match, rules, state, statements)
        # version is a PositiveIntegerField: CHECK >= 0, checked by the server only.
        statements.append(("UPDATE games_match SET version = -1 WHERE id = %s", [match.pk]))

    monkeypatch.setattr(services.writes, "_save", save_then_break_a_constraint)
    with pytest.raises(IntegrityError):
        submit(match_id=match.pk, user=ana, move=rules.hint(state, 0), at_ms=T0 + 1000)

    match.refresh_from_db()
    assert match.version == 0
    assert not MoveRecord.objects.filter(match=match).exists()
    assert not Attempt.objects.filter(match=match).exists()
    monkeypatch.undo()
    # The connection that failed is usable again, and so is the match.
    assert submit(match_id=match.pk, user=ana, move=rules.hint(state, 0)).version == 1


@pytest.mark.django_db(transaction=True)
def test_a_write_the_database_refuses_fails_the_move_and_changes_nothing(table, monkeypatch):
    """On PostgreSQL the writes go out with the COMMIT: a refused one still fails the move."""
    a_refused_write_fails_the_move_and_changes_nothing(submit_move, table, monkeypatch)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("services")
def test_a_write_refused_on_the_event_loop_fails_the_move_and_changes_nothing(table, monkeypatch):
    a_refused_write_fails_the_move_and_changes_nothing(submit_on_the_event_loop, table, monkeypatch)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("services")
def test_a_move_on_the_event_loop_writes_what_a_move_on_a_thread_writes(settings):
    """The same moves, one match through ``submit_move`` and its twin through
    ``submit_move_async``: the same states, records, attempts and roll-ups, row for row."""
    from classroom.progress.models import SkillDay

    settings.GAMES_BOT_DELAY_SCALE = 0.0
    classroom = make_class()
    pairs = [(make_student(classroom, f"T{i}"), make_student(classroom, f"E{i}")) for i in range(2)]
    on_thread = make_match(game="add_up", variant="standard", players=[a for a, _ in pairs], seed=5)
    on_loop = make_match(game="add_up", variant="standard", players=[b for _, b in pairs], seed=5)
    rules = engine.get_game("add_up")
    for turn in range(12):
        _, state = state_of(on_thread)
        seat = min(rules.active(state))
        move = rules.legal_moves(state, seat)[turn % len(rules.legal_moves(state, seat))]
        at_ms = T0 + 1000 * (turn + 1)
        played = submit_move(
            match_id=on_thread.pk, user=pairs[seat][0], move=move, client_id=f"m{turn}", at_ms=at_ms
        )
        echoed = submit_on_the_event_loop(
            match_id=on_loop.pk, user=pairs[seat][1], move=move, client_id=f"m{turn}", at_ms=at_ms
        )
        assert (echoed.version, echoed.state) == (played.version, played.state)
        assert [c.events for c in echoed.changes] == [c.events for c in played.changes]

    def saved(match, user_index):
        match.refresh_from_db()
        records = list(
            MoveRecord.objects.filter(match=match)
            .order_by("version")
            .values_list("version", "actor", "seat", "move", "events", "client_id", "now_ms")
        )
        attempts = list(
            Attempt.objects.filter(match=match)
            .order_by("move__version", "id")
            .values_list("move__version", "seat", "skill", "operands", "answer", "correct")
        )
        rollups = sorted(
            SkillDay.objects.filter(student__in=[pair[user_index] for pair in pairs]).values_list(
                "skill", "attempts", "correct"
            )
        )
        return match.state, match.version, match.status, records, attempts, rollups

    assert saved(on_loop, 1) == saved(on_thread, 0)
    assert saved(on_loop, 1)[4], "the moves made attempts"
    assert saved(on_loop, 1)[5], "and the attempts were counted into the roll-ups"


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("services")
def test_a_repeated_client_id_on_the_event_loop_is_answered_and_applied_once(table):
    _, ana, ben = table
    match = make_match(players=[ana, ben], seed=7, at_ms=T0)
    rules, state = state_of(match)
    move = rules.hint(state, 0)
    first = submit_on_the_event_loop(match_id=match.pk, user=ana, move=move, client_id="once")
    again = submit_on_the_event_loop(match_id=match.pk, user=ana, move=move, client_id="once")
    assert not first.duplicate and again.duplicate
    assert again.version == first.version == 1
    assert MoveRecord.objects.filter(match=match).count() == 1
    with pytest.raises(MatchError) as refused:
        submit_on_the_event_loop(match_id=match.pk, user=make_student(make_class()), move=move)
    assert refused.value.code == "not_seated"


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("services")
@pytest.mark.parametrize("submit", [submit_move, submit_on_the_event_loop])
def test_a_moves_answers_count_on_the_players_day(submit):
    """The move's own query brings the player's time zone (no query may run on the event loop),
    and the roll-up counts the answer on that zone's day. At any hour, 14 h ahead of UTC or 11 h
    behind is another date than UTC's, so a day counted in UTC fails one of the two."""
    import zoneinfo

    from classroom.progress.models import SkillDay
    from classroom.services import teacher_time_zone_set

    played = []
    for zone in ("Pacific/Kiritimati", "Pacific/Pago_Pago"):
        teacher = make_teacher()
        teacher_time_zone_set(teacher=teacher, time_zone=zone)
        student = make_student(make_class(teacher), "Ana")
        match = make_match(players=[student], bots=["easy"], seed=7, at_ms=T0)
        rules, state = state_of(match)
        submit(match_id=match.pk, user=student, move=rules.hint(state, 0), at_ms=T0 + 1000)
        attempt = Attempt.objects.get(match=match, user=student)
        day = attempt.created_at.astimezone(zoneinfo.ZoneInfo(zone)).date()
        assert list(SkillDay.objects.filter(student=student).values_list("day", flat=True)) == [day]
        played.append(day)
    assert played[0] != played[1]


# --- pausing and added time ----------------------------------------------------------------------


def test_a_paused_match_freezes_its_timer_moves_and_bots_and_resumes_where_it_stood(
    table, monkeypatch
):
    """Issue 15: the teacher's pause freezes every table's timers on the server."""
    _, ana, ben = table
    match = make_match(players=[ana, ben], seed=7, at_ms=T0)
    assert match.wake_at_ms == T0 + 20_000  # the pass timeout: 20 s on the match's clock
    clock = {"now": T0 + 5_000}
    for module in (services, services.writes):  # its readers, and the writes
        monkeypatch.setattr(module, "now_ms", lambda: clock["now"])
    assert services.match_pause(match_id=match.pk) is True
    assert services.match_pause(match_id=match.pk) is False  # already paused
    rules, state = state_of(match)
    with pytest.raises(MatchError) as refused:
        submit_move(match_id=match.pk, user=ana, move=a_move(rules, state, 0))
    assert refused.value.code == "paused"
    # A minute later the timer would long have fired: paused, nothing is due.
    clock["now"] = T0 + 65_000
    assert match_wake(match_id=match.pk) is None
    assert wake_overdue_matches() == 0
    match.refresh_from_db()
    assert match.version == 0
    # Resumed after 60 s: the 15 s that were left are left again.
    assert services.match_resume(match_id=match.pk) is True
    match.refresh_from_db()
    assert match.paused_at_ms is None and match.clock_offset_ms == 60_000
    assert match.wake_at_ms == T0 + 80_000
    clock["now"] = T0 + 79_999
    assert match_wake(match_id=match.pk) == T0 + 80_000
    match.refresh_from_db()
    assert match.version == 0
    clock["now"] = T0 + 80_000
    match_wake(match_id=match.pk)
    match.refresh_from_db()
    assert match.version == 1  # the pass timeout fired, 20 s of play after the start
    timer = MoveRecord.objects.get(match=match)
    assert timer.now_ms == T0 + 20_000  # on the match's clock: the pause is nobody's time


def test_added_time_moves_the_deadline_and_a_move_sees_the_matchs_clock(table, monkeypatch):
    _, ana, ben = table
    match = make_match(players=[ana, ben], seed=7, at_ms=T0)
    clock = {"now": T0 + 10_000}
    for module in (services, services.writes):  # its readers, and the writes
        monkeypatch.setattr(module, "now_ms", lambda: clock["now"])
    with pytest.raises(MatchError):
        services.match_add_time(match_id=match.pk, seconds=0)
    assert services.match_add_time(match_id=match.pk, seconds=30) is True
    match.refresh_from_db()
    assert match.wake_at_ms == T0 + 50_000 and match.clock_offset_ms == 30_000
    clock["now"] = T0 + 45_000  # 25 s on the wall after the start is 15 s on the match's clock
    rules, state = state_of(match)
    submit_move(match_id=match.pk, user=ana, move=a_move(rules, state, 0))
    record = MoveRecord.objects.get(match=match)
    assert record.now_ms == T0 + 15_000


def test_a_focused_match_is_dealt_toward_its_facts_and_remembers_them(table):
    """Personal practice makes a match whose deal is steered toward the child's facts (the engine's
    focused deal, seeded as any other) and keeps the facts for the bots, which leave them to the
    child (issue 25, items 2 and 5)."""
    _, ana, _ben = table
    rules = engine.get_game("mia")
    focus = [("add", 7, 8), ("add", 6, 5)]
    match = match_create(
        game="mia",
        variant="express",
        seats=[SeatSpec(name="Ana", user=ana), SeatSpec(name="Pixel", bot_level="easy")],
        seed=42,
        at_ms=T0,
        focus=focus,
    )
    match.refresh_from_db()
    assert match.focus == [["add", 7, 8], ["add", 6, 5]]
    focused = rules.new(
        variant="express", players=2, seed=42, options=match.options, now_ms=T0, focus=focus
    )
    plain = rules.new(variant="express", players=2, seed=42, options=match.options, now_ms=T0)
    assert match.state == rules.dump(focused)
    assert match.state != rules.dump(plain)
    with pytest.raises(SetupError) as error:  # its back holds no focus
        match_create(
            game="mathable_junior",
            variant="back",
            seats=[SeatSpec(name="Ana", user=ana), SeatSpec(name="Pixel", bot_level="easy")],
            focus=focus,
        )
    assert error.value.code == "no_focus"
    plain_match = match_create(
        game="mia",
        variant="express",
        seats=[SeatSpec(name="Ana", user=ana), SeatSpec(name="Pixel", bot_level="easy")],
    )
    plain_match.refresh_from_db()
    assert plain_match.focus == []


def test_a_bot_at_a_focused_table_leaves_a_focus_fact_that_the_child_then_plays(table, settings):
    """Bots that teach (issue 25, item 5): the write path hands the match's focus to its bots, so
    a bot whose plain move would answer a focus fact does something else (Mathable Junior: another
    placement or the end of its turn; the square stays open), and the child answers the fact on
    her own turn. Seed 3 is a deal where the bot moves first and its plain move is 4 + 2."""
    from engine import mathable_junior_board, mathable_junior_bots

    settings.GAMES_BOT_DELAY_SCALE = 0.01
    _, ana, _ben = table
    focus = [("add", 3, 4), ("sub", 4, 2), ("add", 2, 4)]

    def focus_facts_of(events):
        facts = [engine.core.attempt_fact(e) for e in events if e["type"] == "attempt"]
        return [f for f in facts if f and any(engine.core.same_fact(f, w) for w in focus)]

    match = match_create(
        game="mathable_junior",
        variant="front",
        seats=[SeatSpec(name="Ana", user=ana), SeatSpec(name="Pixel", bot_level="easy")],
        seed=3,
        at_ms=T0,
        focus=focus,
    )
    rules, state = state_of(match)
    assert rules.active(state) == {1}
    plain = rules.bot_move(state, 1, "easy", None)
    left = rules.move_facts(state, 1, plain)
    assert focus_facts_of([{"type": "attempt", **_attempt(f)} for f in left])
    for _ in range(10):  # the bot's turn, through the services' wake-ups
        match.refresh_from_db()
        match_wake(match_id=match.pk, at_ms=match.wake_at_ms)
        rules, state = state_of(match)
        if 0 in rules.active(state):
            break
    bot_records = MoveRecord.objects.filter(match=match, actor="bot")
    assert bot_records.exists() and rules.active(state) == {0}
    assert not any(focus_facts_of(record.events) for record in bot_records)
    # The square the bot left is open, and Ana's rack answers it.
    data = state.data
    placements = mathable_junior_bots.front_right_placements(data["board"], data["racks"][0])
    moves = [mathable_junior_board.place_move(value, square) for _p, value, square in placements]
    hers = next(move for move in moves if rules.answers_any(state, 0, move, left))
    submit_move(match_id=match.pk, user=ana, move=hers)
    record = MoveRecord.objects.filter(match=match, actor="player").last()
    answered = [a for a in Attempt.objects.filter(move=record, user=ana) if a.correct]
    facts = [(a.operation, *a.operands) for a in answered]
    assert any(engine.core.same_fact(f, w) for f in facts for w in left), (facts, left)


@pytest.mark.parametrize("level", ["easy", "strong", "random"])
def test_add_or_multiply_bots_play_the_childs_focus_numbers_on_the_child(table, settings, level):
    """Add or Multiply? in focused practice (docs/rules/add_or_multiply.md, "Bots in focused
    practice"): its deal is the rulebook's, and the write path tells the two bots which seat is
    the child's, so each round they play the numbers of one of her facts on her, one each; she
    chooses to add or multiply them and types her score, an attempt on the fact."""
    settings.GAMES_BOT_DELAY_SCALE = 0.01
    _, ana, _ben = table
    focus = [["mul", 3, 4], ["add", 2, 5]]
    match = match_create(
        game="add_or_multiply",
        variant="standard",
        seats=[
            SeatSpec(name="Pixel", bot_level=level),
            SeatSpec(name="Ana", user=ana),
            SeatSpec(name="Bolt", bot_level=level),
        ],
        seed=11,
        at_ms=T0,
        focus=focus,
    )
    match.refresh_from_db()
    assert match.focus == focus
    rules, state = state_of(match)
    assert match.state == rules.dump(rules.new("standard", 3, 11, options=match.options, now_ms=T0))
    # Her facts in turn, from the place the match's seed gives.
    start = state.rng % len(focus)
    in_turn = focus[start:] + focus[:start]
    for round_, (operation, a, b) in enumerate(in_turn, start=1):
        for _ in range(10):  # the bots choose, through the services' wake-ups
            match_wake(match_id=match.pk, at_ms=match.wake_at_ms)
            rules, state = state_of(match)
            if rules.active(state) == {1}:
                break
        assert state.data["round"] == round_ and rules.active(state) == {1}
        op = "M" if operation == "mul" else "A"
        hers = next(m for m in rules.legal_moves(state, 1) if m["op"] == op)
        submit_move(match_id=match.pk, user=ana, move=hers)
        rules, state = state_of(match)
        assert sorted(state.data["history"][-1]["received"][1]) == [a, b]
        score = state.data["history"][-1]["scores"][1]
        submit_move(match_id=match.pk, user=ana, move={"type": "score", "value": score})
        match.refresh_from_db()
    answered = Attempt.objects.filter(match=match, user=ana).order_by("pk")
    facts = [(a.operation, sorted(a.operands), a.correct) for a in answered]
    assert facts == [(operation, sorted([a, b]), True) for operation, a, b in in_turn]
    bot_records = MoveRecord.objects.filter(match=match, actor="bot", move__type="choose")
    assert bot_records.count() == 4


def _attempt(fact):
    operation, a, b = fact
    return {"operands": [a, b], "operator": {"add": "+", "sub": "-", "mul": "x"}[operation]}


def test_a_bot_in_a_focused_mia_race_waits_for_the_child_then_claims(table, settings):
    """¡Mía!'s race (docs/rules/mia.md, "Bots in focused practice"): a bot whose claim would
    answer a focus fact waits through its wake-up, the child claims the card; at a table where
    the child passes instead, the bot then claims it. Seed 0 deals a card both can solve as
    3 + 4."""
    from engine import mia_table_view

    settings.GAMES_BOT_DELAY_SCALE = 0.01
    _, ana, _ben = table
    focus = [("add", 3, 4), ("sub", 9, 4), ("add", 5, 6)]

    def focused_match():
        match = match_create(
            game="mia",
            variant="express",
            seats=[SeatSpec(name="Ana", user=ana), SeatSpec(name="Pixel", bot_level="easy")],
            seed=0,
            at_ms=T0,
            focus=focus,
        )
        match.refresh_from_db()
        rules, state = state_of(match)
        assert rules.answers_any(state, 1, rules.bot_move(state, 1, "easy", None), focus)
        version = match.version
        due = match.bot_plan["1"]
        match_wake(match_id=match.pk, at_ms=due)  # the bot's turn to think: it waits
        match.refresh_from_db()
        assert match.version == version and match.bot_plan["1"] is None
        return match, rules, state, due

    match, rules, state, due = focused_match()
    hers = next(
        move
        for move, _wilds in mia_table_view._right_claims(state, 0)
        if rules.answers_any(state, 0, move, [("add", 3, 4)])
    )
    submit_move(match_id=match.pk, user=ana, move=hers, at_ms=due + 100)
    (attempt,) = Attempt.objects.filter(match=match)
    assert attempt.user == ana and attempt.correct
    assert engine.core.same_fact((attempt.operation, *attempt.operands), ("add", 3, 4))

    match, rules, state, due = focused_match()
    ana_pass = {"type": "pass", "round": state.data["round"]}
    submit_move(match_id=match.pk, user=ana, move=ana_pass, at_ms=due + 100)
    match.refresh_from_db()
    match_wake(match_id=match.pk, at_ms=match.bot_plan["1"])
    (attempt,) = Attempt.objects.filter(match=match)
    assert attempt.user is None and attempt.seat == 1 and attempt.correct
    assert engine.core.same_fact((attempt.operation, *attempt.operands), ("add", 3, 4))
