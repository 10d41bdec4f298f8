"""Personal plans set while their reasons were stored as words are read back into data (migration
0028), so a reason reads in the reader's language, whoever set the plan (docs/translations.md)."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone, translation

from classroom.practice.working_set import reason_text

BEFORE = [("classroom", "0027_homework_titles_as_data")]
AFTER = [("classroom", "0028_plan_reasons_as_data")]


@pytest.fixture
def _latest_schema_afterwards():
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def _fact(reason, first=3, second=4):
    return {
        "operation": "add",
        "first": first,
        "second": second,
        "kind": "learning",
        "reason": reason,
    }


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_latest_schema_afterwards")
def test_a_reason_stored_in_english_reads_in_spanish_after_the_migration():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    # The accounts app is at its latest schema throughout: its model of today makes the users.
    User = get_user_model()
    teacher = User.objects.create(username="rivera", role="teacher")
    child = User.objects.create(username="ana", role="student")
    classroom = old.get_model("classroom", "Classroom").objects.create(
        teacher_id=teacher.pk, name="3B", code="ABCDEF"
    )
    assignment = old.get_model("classroom", "Assignment").objects.create(
        classroom=classroom,
        typed_title="Our facts",
        kind="personal",
        game="mia",
        variant="",
        due_at=timezone.now(),
        items=[],
    )
    stored = [
        "wrong once this week",
        "mal 3 veces esta semana",
        "wrong on 3 Nov 2026, not yet right and quick since",
        "mal el 5 dic 2026, desde entonces aún no bien y rápido",
        "answered, not yet right within 3 seconds",
        "due for review: last right and quick on 14 Oct 2026",
        "next new fact (doubles)",
        "elegida por el maestro",
        "something this version cannot read",
    ]
    plan = old.get_model("classroom", "PersonalPlan").objects.create(
        assignment=assignment, student_id=child.pk, facts=[_fact(reason) for reason in stored]
    )

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps.get_model("classroom", "PersonalPlan")
    facts = new.objects.get(pk=plan.pk).facts
    assert [fact.get("why") for fact in facts] == [
        {"code": "slips", "count": 1},
        {"code": "slips", "count": 3},
        {"code": "slipped_on", "day": "2026-11-03"},
        {"code": "slipped_on", "day": "2026-12-05"},
        {"code": "not_fluent"},
        {"code": "due", "day": "2026-10-14"},
        {"code": "next_new"},
        {"code": "chosen"},
        None,
    ]
    assert all("reason" not in fact for fact in facts[:-1])
    assert facts[-1]["reason"] == "something this version cannot read"
    with translation.override("es"):
        assert reason_text(facts[0]["why"], "add", 3, 4) == "mal una vez esta semana"
        assert reason_text(facts[2]["why"], "add", 3, 4) == (
            "mal el 3 nov 2026, desde entonces aún no bien y rápido"
        )
    with translation.override("en"):
        assert reason_text(facts[3]["why"], "add", 3, 4) == (
            "wrong on 5 Dec 2026, not yet right and quick since"
        )
