"""Mathable Junior free placements stored as answers before issue 22 (classroom 0012): deleted,
and the figures made from them counted again, the other answers untouched."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from engine.core import attempt_event

BEFORE = [("classroom", "0011_session_table_labels")]
AFTER = [("classroom", "0012_mathable_free_placements_are_no_answers")]
WHEN = datetime.datetime(2026, 3, 3, 10, tzinfo=datetime.UTC)


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


@pytest.fixture(autouse=True)
def _latest_schema_afterwards():
    # Migrations added after 0012 must be applied again for the next tests on this worker.
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    _migrate(executor.loader.graph.leaf_nodes())


def _store(match, user, *, operands, operator, answer, expected, tile_square=(4, 4)):
    """An attempt as games.services stored it from the engine's event of the time."""
    from games.models import Attempt, MoveRecord

    event = attempt_event(
        seat=0,
        operands=operands,
        operator=operator,
        answer=answer,
        expected=expected,
        correct=answer is not None and answer == expected,
        elapsed_ms=2100,
        row=tile_square[0],
        col=tile_square[1],
    )
    move = MoveRecord.objects.create(
        match=match,
        version=MoveRecord.objects.filter(match=match).count() + 1,
        actor="player",
        seat=0,
        received_at=WHEN,
        now_ms=0,
        events=[event],
    )
    return Attempt.objects.create(
        match=match,
        move=move,
        user=user,
        seat=0,
        game=match.game,
        operator=operator,
        operation=event["skill"].split(".")[0],
        skill=event["skill"],
        operands=operands,
        answer=answer,
        expected=expected,
        correct=event["correct"],
        elapsed_ms=2100,
        created_at=WHEN,
    )


@pytest.mark.django_db(transaction=True)
def test_stored_free_placements_are_deleted_and_the_figures_counted_again():
    from classroom.models import SessionSkillFigures, SessionTable, SkillDay, SkillWeek
    from classroom.progress.services import rollups_recount
    from classroom.sessions.figures import figures_rebuild
    from games.models import Attempt, Match
    from tests.factories import make_class, make_session, make_student

    # The answers are stored at today's schema (the factories' models), then the schema goes back
    # to before 0012 and forward through it: 0012 meets them as it met the stored ones.
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    session = make_session(classroom, game="mathable_junior", variant="front")
    mathable = Match.objects.create(game="mathable_junior", variant="front", seed=1, state={})
    SessionTable.objects.create(session=session, number=99, match=mathable)
    # Ana, front side: a tile where no line lies (no operands), then a right one next to 3 and 4.
    _store(mathable, ana, operands=[], operator="mixed", answer=5, expected=None)
    kept = [_store(mathable, ana, operands=[3, 4], operator="+", answer=7, expected=7)]
    # Ben, back side: a 7 where no line lies, stored as the 3 + 4 it missed elsewhere, no answer.
    back = Match.objects.create(game="mathable_junior", variant="back", seed=2, state={})
    _store(back, ben, operands=[3, 4], operator="+", answer=None, expected=7)
    # A ¡Mía! answer of Ben's: not Mathable's, kept.
    mia = Match.objects.create(game="mia", variant="express", seed=3, state={})
    kept.append(_store(mia, ben, operands=[6, 2], operator="-", answer=4, expected=4))
    rollups_recount(student_ids=[ana.pk, ben.pk])
    figures_rebuild(session_id=session.pk)
    assert SkillDay.objects.filter(skill="mixed").exists()  # the free placement was counted

    _migrate(BEFORE)
    _migrate(AFTER)

    assert sorted(Attempt.objects.values_list("pk", flat=True)) == sorted(a.pk for a in kept)
    days = SkillDay.objects.values_list("student_id", "skill", "attempts", "correct")
    assert sorted(days) == sorted([(ana.pk, "add.within10", 1, 1), (ben.pk, "sub.within10", 1, 1)])
    assert sorted(SkillWeek.objects.values_list("student_id", "attempts", "correct")) == sorted(
        [(ana.pk, 1, 1), (ben.pk, 1, 1)]
    )
    figures = SessionSkillFigures.objects.filter(session=session)
    assert list(figures.values_list("student_id", "skill", "attempts", "correct")) == [
        (ana.pk, "add.within10", 1, 1)
    ]
    # The move records keep the match's history.
    assert Match.objects.get(pk=back.pk).moves.count() == 1
