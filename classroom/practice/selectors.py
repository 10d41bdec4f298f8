"""Reads the answers a working set is made of: one query for a child, one for a class."""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from collections.abc import Collection, Sequence

from django.utils import timezone

import engine
from classroom.practice.working_set import (
    NUMBERS,
    FactAnswer,
    FactState,
    WorkingSet,
    fact_states,
    working_set,
    working_set_for_games,
)
from games.models import Attempt

Fact = tuple[str, int, int]

# The longest interval is 30 days: four months of answers hold every fact's recent boxes.
HISTORY_DAYS = 120


def _answers_by_student(student_ids: list[int], as_of: datetime.date) -> dict[int, list]:
    tz = timezone.get_current_timezone()
    end = datetime.datetime.combine(as_of + datetime.timedelta(days=1), datetime.time(), tz)
    start = end - datetime.timedelta(days=HISTORY_DAYS + 1)
    rows = Attempt.objects.filter(
        user_id__in=student_ids,
        operation__in=list(NUMBERS),
        created_at__gte=start,
        created_at__lt=end,
    ).values_list("user_id", "operation", "operands", "correct", "elapsed_ms", "game", "created_at")
    times_recall = {game.slug: game.times_recall for game in engine.list_games()}
    answers: dict[int, list[FactAnswer]] = defaultdict(list)
    for user_id, operation, operands, correct, elapsed_ms, game, created_at in rows:
        # A table fact is two numbers of the table's range (a SUM of three cards is not one).
        if len(operands) != 2 or not all(n in NUMBERS[operation] for n in operands):
            continue
        answers[user_id].append(
            FactAnswer(
                operation,
                operands[0],
                operands[1],
                correct,
                elapsed_ms,
                timezone.localdate(created_at),
                times_recall.get(game, True),
            )
        )
    return answers


def student_working_set(
    *,
    student_id: int,
    as_of: datetime.date | None = None,
    dealable: Collection[Fact] | None = None,
) -> WorkingSet:
    """The child's working set; ``dealable`` (``working_set.dealable_facts(games)``): only
    facts those games can deal (None: any table fact)."""
    as_of = as_of or timezone.localdate()
    answers = _answers_by_student([student_id], as_of).get(student_id, [])
    return working_set(answers, as_of, dealable=dealable)


def class_working_sets(
    *,
    student_ids: list[int],
    as_of: datetime.date | None = None,
    dealables: Sequence[Collection[Fact]] = (),
) -> dict[int, WorkingSet]:
    """Each child's working set, for the class in one read. ``dealables``: the facts each of the
    homework's games can deal (``working_set_for_games``); none: among every table fact."""
    if not student_ids:
        return {}
    as_of = as_of or timezone.localdate()
    answers = _answers_by_student(student_ids, as_of)
    if not dealables:
        return {pk: working_set(answers.get(pk, []), as_of) for pk in student_ids}
    return {pk: working_set_for_games(answers.get(pk, []), as_of, dealables) for pk in student_ids}


def class_fact_states(
    *, student_ids: list[int], as_of: datetime.date | None = None
) -> dict[int, dict[tuple, FactState]]:
    """Each child's boxes (``fact_states``) on ``as_of``, for the class in one read: what moved
    since a personal practice was set."""
    if not student_ids:
        return {}
    as_of = as_of or timezone.localdate()
    answers = _answers_by_student(student_ids, as_of)
    return {pk: fact_states(answers.get(pk, []), as_of) for pk in student_ids}


def answered_on(*, student_id: int, day: datetime.date) -> Counter:
    """How many times the child answered each table fact (``(operation, a, b)``) on ``day``, the
    school's day, in any game: what an item of personal practice opened that day leaves out
    (``services.item_focus``). One query."""
    tz = timezone.get_current_timezone()
    start = datetime.datetime.combine(day, datetime.time(), tz)
    end = datetime.datetime.combine(day + datetime.timedelta(days=1), datetime.time(), tz)
    rows = Attempt.objects.filter(
        user_id=student_id,
        operation__in=list(NUMBERS),
        created_at__gte=start,
        created_at__lt=end,
    ).values_list("operation", "operands")
    return Counter(
        (operation, operands[0], operands[1])
        for operation, operands in rows
        if len(operands) == 2 and all(n in NUMBERS[operation] for n in operands)
    )
