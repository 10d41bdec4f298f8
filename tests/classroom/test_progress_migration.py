"""Stored attempts are read again when the analytics change (games 0003, classroom 0007): the
range from the problem, the slip by its new kind, and the rollups rebuilt to match."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Sum

BEFORE = [
    ("games", "0002_attempt_mistake"),
    ("classroom", "0006_report_queued_at"),
    ("accounts", "0003_user_time_zone"),  # not these migrations' business: as it is now
]
AFTER = [
    ("games", "0003_attempt_target_problem_range"),
    ("classroom", "0007_progress_slip_kinds_finer_times"),
]
WHEN = datetime.datetime(2026, 3, 3, 10, tzinfo=datetime.UTC)


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture(autouse=True)
def _latest_schema_afterwards():
    # The test leaves the database at AFTER; later migrations (any added since) must be applied
    # again, or the next tests on this worker meet tables without their newest columns.
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    _migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_stored_attempts_get_the_problems_range_their_slip_and_fresh_rollups():
    apps = _migrate(BEFORE)
    User = apps.get_model("accounts", "User")
    Match = apps.get_model("games", "Match")
    MoveRecord = apps.get_model("games", "MoveRecord")
    Attempt = apps.get_model("games", "Attempt")
    ana = User.objects.create(username="ana-migration", display_name="Ana")
    stored = []
    for game, operands, operator, answer, expected, skill, mistake in [
        # Add or Multiply?: 3 + 4 typed as 12 was counted within 20.
        ("add_or_multiply", [3, 4], "+", 12, 7, "add.within20", "other"),
        # ¡Mía!: cards making 10 claimed for a 1 were "digits swapped".
        ("mia", [7, 3], "+", 1, 10, "add.within10", "reversed_digits"),
        ("add_or_multiply", [27, 15], "+", 32, 42, "add.within100", "off_by_ten"),
    ]:
        match = Match.objects.create(game=game, variant="standard", seed=1, state={})
        move = MoveRecord.objects.create(
            match=match, version=1, actor="player", seat=0, received_at=WHEN, now_ms=0
        )
        stored.append(
            Attempt.objects.create(
                match=match, move=move, user=ana, seat=0, game=game, operator=operator,
                operation=skill.split(".")[0], skill=skill, operands=operands, answer=answer,
                expected=expected, correct=False, elapsed_ms=2100, mistake=mistake,
                created_at=WHEN,
            )
        )  # fmt: skip
    SkillDay = apps.get_model("classroom", "SkillDay")
    SkillDay.objects.create(
        student=ana, day=WHEN.date(), week=WHEN.date(), skill="add.within20", operation="add",
        attempts=1, other_mistake=1,
    )  # fmt: skip

    apps = _migrate(AFTER)
    Attempt = apps.get_model("games", "Attempt")
    rows = {a.pk: a for a in Attempt.objects.all()}
    assert [(rows[a.pk].skill, rows[a.pk].mistake, rows[a.pk].target) for a in stored] == [
        ("add.within10", "wrong_operation", None),  # 3 x 4 is 12
        # Named with today's kinds (far off); the rollups of 0007, which have no column for it,
        # count it among the other slips (classroom 0018 counts it again).
        ("add.within10", "far_off", 1),
        ("add.within100", "regrouping", None),
    ]
    SkillDay = apps.get_model("classroom", "SkillDay")
    assert sorted(
        SkillDay.objects.values_list(
            "skill", "attempts", "wrong_operation", "other_mistake", "regrouping"
        )
    ) == [("add.within10", 2, 1, 1, 0), ("add.within100", 1, 0, 0, 1)]


@pytest.mark.django_db(transaction=True)
def test_other_slips_are_named_again_with_the_added_kinds_and_counted_in_their_columns():
    """games 0009 and classroom 0018: a wrong answer stored as "other" gets one of the added kinds
    (docs/slips.md), and the rollups count it in that kind's column."""
    apps = _migrate(
        [("classroom", "0017_projector_names"), ("games", "0008_match_waits_for_players")]
    )
    User = apps.get_model("accounts", "User")
    Match = apps.get_model("games", "Match")
    MoveRecord = apps.get_model("games", "MoveRecord")
    Attempt = apps.get_model("games", "Attempt")
    ana = User.objects.create(username="ana-slips", display_name="Ana")
    stored = []
    for operands, operator, answer, expected in [
        ([6, 8], "+", 3, 14),  # far off
        ([8, 5], "+", 15, 13),  # off by two
        ([9, 4], "-", 9, 5),  # a number of the problem
        ([7, 8], "x", 42, 56),  # 7 x 6
        ([8, 5], "+", 17, 13),  # still other
    ]:
        match = Match.objects.create(game="add_or_multiply", variant="standard", seed=1, state={})
        move = MoveRecord.objects.create(
            match=match, version=1, actor="player", seat=0, received_at=WHEN, now_ms=0
        )
        skill = {"+": "add.within20", "-": "sub.within10", "x": "mul.within100"}[operator]
        stored.append(
            Attempt.objects.create(
                match=match, move=move, user=ana, seat=0, game="add_or_multiply",
                operator=operator, operation=skill.split(".")[0], skill=skill, operands=operands,
                answer=answer, expected=expected, correct=False, elapsed_ms=2100,
                mistake="other", created_at=WHEN,
            )
        )  # fmt: skip
    apps = _migrate(
        [
            ("classroom", "0018_progress_more_slip_kinds"),
            ("games", "0009_attempt_more_slip_kinds"),
        ]
    )
    Attempt = apps.get_model("games", "Attempt")
    assert [Attempt.objects.get(pk=a.pk).mistake for a in stored] == [
        "far_off",
        "off_by_two",
        "operand_intrusion",
        "table_related",
        "other",
    ]
    SkillDay = apps.get_model("classroom", "SkillDay")
    totals = SkillDay.objects.aggregate(
        *(Sum(c) for c in ("far_off", "off_by_two", "operand_intrusion", "table_related"))
    )
    assert list(totals.values()) == [1, 1, 1, 1]
    assert SkillDay.objects.aggregate(n=Sum("other_mistake"))["n"] == 1


@pytest.mark.django_db(transaction=True)
def test_answer_time_columns_become_rows_and_come_back_undone():
    """classroom 0019: the counts of the 112 bucket columns of the day, week and session figures
    become a row each (only the buckets with answers), and the columns come back from the rows
    when it is undone."""
    from classroom.models import SessionSkillFigures
    from tests.factories import make_class, make_session, make_student

    classroom = make_class()
    ana = make_student(classroom, "Ana")
    session = make_session(classroom)
    day = WHEN.date()
    week = day - datetime.timedelta(days=day.weekday())
    common = {"student_id": ana.pk, "skill": "add.within10", "operation": "add", "week": week}
    apps = _migrate([("classroom", "0018_progress_more_slip_kinds")])
    apps.get_model("classroom", "SkillDay").objects.create(
        **common, day=day, attempts=4, t00=1, t23=2, t111=1
    )
    apps.get_model("classroom", "SkillWeek").objects.create(**common, attempts=5, t23=4, t40=1)
    apps.get_model("classroom", "SessionSkillFigures").objects.create(
        session_id=session.pk, student_id=ana.pk, skill="add.within10", attempts=2, t05=2
    )

    apps = _migrate([("classroom", "0019_progress_answer_times_as_rows")])
    rows = {
        name: sorted(apps.get_model("classroom", name).objects.values_list("bucket", "answers"))
        for name in ("AnswerTimesDay", "AnswerTimesWeek", "SessionAnswerTimes")
    }
    assert rows == {
        "AnswerTimesDay": [(0, 1), (23, 2), (111, 1)],
        "AnswerTimesWeek": [(23, 4), (40, 1)],
        "SessionAnswerTimes": [(5, 2)],
    }
    day_rows = apps.get_model("classroom", "AnswerTimesDay").objects.values_list(
        "student_id", "day", "week", "skill", "operation"
    )
    assert set(day_rows) == {(ana.pk, day, week, "add.within10", "add")}
    assert SessionSkillFigures.objects.get().attempts == 2

    apps = _migrate([("classroom", "0018_progress_more_slip_kinds")])
    buckets = [f"t{n:02d}" for n in range(112)]
    for name, expected in [
        ("SkillDay", {"t00": 1, "t23": 2, "t111": 1}),
        ("SkillWeek", {"t23": 4, "t40": 1}),
        ("SessionSkillFigures", {"t05": 2}),
    ]:
        [counts] = apps.get_model("classroom", name).objects.values_list(*buckets)
        assert {b: n for b, n in zip(buckets, counts, strict=True) if n} == expected, name
