"""Reads of personal practice: what each child was given and, since, what they practised and
what moved. A fixed handful of queries for any class size (plans, answers, boxes)."""

from __future__ import annotations

import datetime
import statistics
from dataclasses import dataclass, field

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.bidi import ltr
from classroom.models import Assignment, PersonalPlan
from classroom.practice.selectors import class_fact_states
from classroom.practice.working_set import (
    KNOWN,
    LEARNING,
    NEW,
    NUMBERS,
    REVIEW,
    SIGNS,
    FactState,
    kind_on,
    reason_text,
)
from classroom.selectors import classroom_roster
from games import catalog
from games.models import Attempt


def kind_label(kind: str) -> str:
    return {
        LEARNING: _("being learned"),
        REVIEW: _("due for review"),
        NEW: _("new, not answered yet"),
        KNOWN: _("known, not yet due"),
    }.get(kind, kind)


def state_label(state: FactState | None, today: datetime.date) -> str:
    """A fact's place in the child's boxes today, in words."""
    kind = kind_on(state, today)
    if kind != KNOWN:
        return kind_label(kind)
    days = (state.due - today).days
    return ngettext("due for review in %(count)s day", "due for review in %(count)s days", days) % {
        "count": days
    }


def fact_text(operation: str, first: int, second: int) -> str:
    return ltr(f"{first} {SIGNS.get(operation, operation)} {second}")


@dataclass
class FactProgress:
    operation: str
    first: int
    second: int
    then: str
    reason: str
    now: str = ""
    answers: int = 0
    right: int = 0
    times_ms: list[int] = field(default_factory=list)

    @property
    def fact(self) -> str:
        return fact_text(self.operation, self.first, self.second)

    @property
    def moved(self) -> bool:
        return self.then != self.now

    @property
    def median_seconds(self) -> str | None:
        """The median time of the right answers, in seconds (one decimal), if there are any."""
        if not self.times_ms:
            return None
        return f"{statistics.median(self.times_ms) / 1000:.1f}"


@dataclass
class ChildPlan:
    student: object
    facts: list[FactProgress]
    items: list[str]  # each item's game, as the teacher reads it

    @property
    def answers(self) -> int:
        return sum(f.answers for f in self.facts)

    @property
    def practised(self) -> int:
        """How many of the child's facts in focus were answered since the practice was set."""
        return sum(f.answers > 0 for f in self.facts)

    @property
    def moved(self) -> int:
        """How many of them stand elsewhere now than when the practice was set."""
        return sum(f.moved for f in self.facts)


def item_title(entry: dict) -> str:
    title = catalog.game_title(entry["game"])
    if entry.get("size") is not None:
        return _("%(game)s puzzle") % {"game": title}
    return title


def personal_report(*, assignment: Assignment, today: datetime.date | None = None) -> list:
    """Per child of the assignment (name order): the facts in focus and why, the answers on them
    since the assignment was set (how many, how many right, median time of the right ones) and
    the fact's kind then and now. Three queries whatever the number of children."""
    today = today or timezone.localdate()
    plans = list(
        # Only the class's children: one who moved class is no longer the teacher's to read.
        PersonalPlan.objects.filter(
            assignment=assignment,
            student__in=classroom_roster(classroom=assignment.classroom).values("student"),
        )
        .select_related("student")
        .order_by("student__display_name", "student_id")
    )
    ids = [plan.student_id for plan in plans]
    states = class_fact_states(student_ids=ids, as_of=today)
    rows = {}
    for plan in plans:
        rows[plan.student_id] = {
            (f["operation"], f["first"], f["second"]): FactProgress(
                f["operation"],
                f["first"],
                f["second"],
                then=kind_label(f["kind"]),
                # A reason stored as words that an earlier release could not read back into data.
                reason=(
                    reason_text(f["why"], f["operation"], f["first"], f["second"])
                    if "why" in f
                    else f["reason"]
                ),
                now=state_label(
                    states.get(plan.student_id, {}).get((f["operation"], f["first"], f["second"])),
                    today,
                ),
            )
            for f in plan.facts
        }
    if ids:
        answers = Attempt.objects.filter(
            user_id__in=ids,
            operation__in=list(NUMBERS),
            created_at__gte=assignment.created_at,
        ).values_list("user_id", "operation", "operands", "correct", "elapsed_ms")
        for user_id, operation, operands, correct, elapsed_ms in answers:
            if len(operands) != 2:
                continue
            found = rows.get(user_id, {}).get((operation, operands[0], operands[1]))
            if found is None:
                continue
            found.answers += 1
            if correct:
                found.right += 1
                found.times_ms.append(elapsed_ms)
    return [
        ChildPlan(
            student=plan.student,
            facts=list(rows[plan.student_id].values()),
            items=[item_title(entry) for entry in plan.items],
        )
        for plan in plans
    ]


@dataclass
class FocusWaiting:
    """The children whose teacher kept facts for this session, and whether its game can deal
    toward them (a table that cannot deals plainly and the facts wait for another session)."""

    students: list
    dealable: bool


def session_focus_waiting(*, session) -> FocusWaiting | None:
    """For the lobby's notice: None when no child of the class has facts waiting (one query)."""
    from classroom.models import NextSessionFocus
    from classroom.practice.services import table_focus

    rows = list(
        NextSessionFocus.objects.filter(classroom_id=session.classroom_id, used_at__isnull=True)
        .select_related("student")
        .order_by("student__display_name", "student_id")
    )
    if not rows:
        return None
    students = list({row.student_id: row.student for row in rows}.values())
    facts = [tuple(fact) for row in rows for fact in row.facts]
    cut = table_focus(session.game, session.variant, facts)
    return FocusWaiting(students=students, dealable=bool(cut))
