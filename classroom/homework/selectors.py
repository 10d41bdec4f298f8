"""Reads of homework. Every page's queries are a fixed handful, whatever the size of the class:
rows are fetched per kind (roster, works, attempt totals) and joined here in Python."""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

import engine
from classroom.homework.texts import describe_assignment
from classroom.models import Assignment, AssignmentWork, Classroom, PersonalPlan
from classroom.progress.mastery import skill_mastery_by_student
from classroom.progress.numbers import judged_percent
from classroom.selectors import classroom_roster
from games.models import Attempt, Match, MoveRecord

OVER = (Match.Status.FINISHED, Match.Status.ABANDONED)
# Time at play: a pause longer than this between two moves of a match counts as this long (a
# child who left the game open over lunch did not play through it).
IDLE_GAP_MS = 60_000


class ItemState:
    DONE = "done"
    STARTED = "started"
    NOT_STARTED = "not_started"


def teacher_assignment(*, teacher, assignment_id) -> Assignment | None:
    return (
        Assignment.objects.select_related("classroom")
        .filter(pk=assignment_id, classroom__teacher=teacher)
        .first()
    )


def _set_for(student) -> Q:
    """Assignments set for the student: the whole class's, and personal practice that has a plan
    for them (another child's plan is not theirs to see)."""
    return ~Q(kind=Assignment.Kind.PERSONAL) | Q(
        Exists(PersonalPlan.objects.filter(assignment=OuterRef("pk"), student=student))
    )


def student_assignment(*, student, assignment_id) -> Assignment | None:
    """The assignment, if it was set for a class the student is in (and for them)."""
    return (
        Assignment.objects.select_related("classroom")
        .filter(_set_for(student), pk=assignment_id, classroom__enrollments__student=student)
        .first()
    )


def is_overdue(assignment: Assignment, *, finished: bool, now=None) -> bool:
    return not finished and assignment.due_at < (now or timezone.now())


def minutes_asked(assignment: Assignment) -> int | None:
    """Personal practice sized in minutes of play: how many (None: sized in items)."""
    return (
        assignment.options.get("minutes") if assignment.kind == Assignment.Kind.PERSONAL else None
    )


def played_ms(*, assignment_ids, student_ids=None) -> dict[tuple[int, int], int]:
    """Each (assignment, student)'s time at play in the assignment's matches: the time between
    consecutive moves of each match, a pause counted as at most ``IDLE_GAP_MS`` (one query)."""
    works = MoveRecord.objects.filter(match__assignment_work__assignment_id__in=assignment_ids)
    if student_ids is not None:
        works = works.filter(match__assignment_work__student_id__in=student_ids)
    played: dict[tuple[int, int], int] = defaultdict(int)
    last: dict[int, object] = {}
    for assignment_id, student_id, match_id, received_at in works.values_list(
        "match__assignment_work__assignment_id",
        "match__assignment_work__student_id",
        "match_id",
        "received_at",
    ).order_by("match_id", "version"):
        if match_id in last:
            gap = (received_at - last[match_id]).total_seconds() * 1000
            played[assignment_id, student_id] += int(min(max(gap, 0), IDLE_GAP_MS))
        last[match_id] = received_at
    return played


def is_finished(*, done: int, total: int, minutes: int | None, played: int) -> bool:
    """Every item done, or, sized in minutes of play, that long played."""
    return done >= total or (minutes is not None and played >= minutes * 60_000)


# --- the teacher's list --------------------------------------------------------------------------


@dataclass
class AssignmentSummary:
    assignment: Assignment
    students: int
    finished: int  # students who finished every item
    started: int  # students who began but have items left

    @property
    def not_started(self) -> int:
        return self.students - self.finished - self.started

    @property
    def past_due(self) -> bool:
        return self.assignment.due_at < timezone.now()

    @property
    def description(self) -> str:
        return describe_assignment(self.assignment)


def classroom_assignments(*, classroom: Classroom) -> list[AssignmentSummary]:
    """The class's assignments, soonest due first, with how many students finished each."""
    assignments = list(classroom.assignments.all())
    students = classroom_roster(classroom=classroom).count()
    planned: dict[int, int] = {}
    if any(a.kind == Assignment.Kind.PERSONAL for a in assignments):
        planned = dict(
            PersonalPlan.objects.filter(
                assignment__classroom=classroom,
                student__in=classroom_roster(classroom=classroom).values("student"),
            )
            .values("assignment_id")
            .annotate(n=Count("id"))
            .values_list("assignment_id", "n")
            .order_by()
        )
    per_student = (
        # Only the class's students: work left behind by one who moved class is not counted.
        AssignmentWork.objects.filter(
            assignment__classroom=classroom,
            student__in=classroom_roster(classroom=classroom).values("student"),
        )
        .values("assignment_id", "student_id")
        .annotate(over=Count("id", filter=Q(match__status__in=OVER)))
    )
    finished: dict[int, int] = defaultdict(int)
    started: dict[int, int] = defaultdict(int)
    sizes = {a.pk: len(a.items) for a in assignments}
    minutes = {a.pk: m for a in assignments if (m := minutes_asked(a))}
    played = played_ms(assignment_ids=list(minutes)) if minutes else {}
    for row in per_student:
        if is_finished(
            done=row["over"],
            total=sizes.get(row["assignment_id"], 0),
            minutes=minutes.get(row["assignment_id"]),
            played=played.get((row["assignment_id"], row["student_id"]), 0),
        ):
            finished[row["assignment_id"]] += 1
        else:
            started[row["assignment_id"]] += 1
    return [
        AssignmentSummary(
            assignment=a,
            students=planned.get(a.pk, 0) if a.kind == Assignment.Kind.PERSONAL else students,
            finished=finished[a.pk],
            started=started[a.pk],
        )
        for a in assignments
    ]


# --- the teacher's report of one assignment ------------------------------------------------------


@dataclass
class ItemResult:
    item: int
    state: str = ItemState.NOT_STARTED
    match_id: int | None = None
    stopped: bool = False  # over without a result (the match was stopped)
    stars: int | None = None  # puzzles
    max_stars: int = 0  # puzzles: the most a puzzle of the game gives (engine.Puzzles)
    score: int | None = None  # games against bots: the student's score
    won: bool | None = None
    attempts: int = 0
    right: int = 0
    title: str = ""  # personal practice: the item's game (each child's own)

    @property
    def accuracy(self) -> int | None:
        return judged_percent(self.right, self.attempts)

    @property
    def star_marks(self) -> str:
        stars = self.stars or 0
        return "★" * stars + "☆" * (self.max_stars - stars)


@dataclass
class StudentResult:
    student: object
    items: list[ItemResult]
    attempts: int = 0
    right: int = 0
    minutes: int | None = None  # personal practice sized in minutes of play
    played_ms: int = 0

    @property
    def minutes_played(self) -> int:
        return self.played_ms // 60_000

    @property
    def done(self) -> int:
        return sum(item.state == ItemState.DONE for item in self.items)

    @property
    def started(self) -> bool:
        return any(item.state != ItemState.NOT_STARTED for item in self.items)

    @property
    def finished(self) -> bool:
        return is_finished(
            done=self.done, total=len(self.items), minutes=self.minutes, played=self.played_ms
        )

    @property
    def accuracy(self) -> int | None:
        return judged_percent(self.right, self.attempts)

    @property
    def stars(self) -> int:
        return sum(item.stars or 0 for item in self.items)

    @property
    def score(self) -> float:
        """How much of the homework the student did, 0 to 100 (one decimal): the items done, or
        the minutes played of practice sized in minutes. A school system's gradebook takes this
        (OneRoster's results, a learning platform's scores)."""
        if self.minutes:
            share = min(self.played_ms / (self.minutes * 60_000), 1)
        elif self.items:
            share = self.done / len(self.items)
        else:
            share = 0
        return round(100 * share, 1)


@dataclass
class AssignmentReport:
    assignment: Assignment
    students: list[StudentResult] = field(default_factory=list)

    @property
    def finished(self) -> int:
        return sum(s.finished for s in self.students)

    @property
    def started(self) -> int:
        return sum(s.started and not s.finished for s in self.students)

    @property
    def not_started(self) -> int:
        return sum(not s.started for s in self.students)

    @property
    def description(self) -> str:
        return describe_assignment(self.assignment)

    @property
    def accuracy(self) -> int | None:
        attempts = sum(s.attempts for s in self.students)
        right = sum(s.right for s in self.students)
        return judged_percent(right, attempts)


def _fill(result: ItemResult, status: str, outcome: dict | None, puzzles: bool) -> None:
    if status == Match.Status.PLAYING:
        result.state = ItemState.STARTED
        return
    result.state = ItemState.DONE
    if status == Match.Status.ABANDONED or not outcome:
        result.stopped = True
        return
    # The student always sits at seat 0 of a homework match.
    if puzzles:
        result.stars = outcome["scores"][0]
    else:
        result.score = outcome["scores"][0]
        result.won = 0 in outcome["winners"]


def max_stars(assignment: Assignment) -> int:
    """The stars a puzzle of the assignment gives at best (0 for games against bots, or a game
    that no longer offers puzzles)."""
    if assignment.kind != Assignment.Kind.PUZZLES or not engine.is_game(assignment.game):
        return 0
    puzzles = engine.get_game(assignment.game).puzzles
    return puzzles.max_stars if puzzles is not None else 0


def _items(assignment: Assignment, plan: list | None = None) -> list[ItemResult]:
    """The assignment's items; with ``plan`` (a child's PersonalPlan.items), that child's own."""
    if plan is not None:
        return [_planned_item(i, entry) for i, entry in enumerate(plan)]
    most = max_stars(assignment)
    return [ItemResult(item=i, max_stars=most) for i in range(len(assignment.items))]


def _planned_item(i: int, entry: dict) -> ItemResult:
    from classroom.practice.plans import item_title

    puzzles = engine.get_game(entry["game"]).puzzles if entry.get("size") else None
    return ItemResult(
        item=i, max_stars=puzzles.max_stars if puzzles else 0, title=item_title(entry)
    )


def _plans(assignment: Assignment) -> dict[int, list] | None:
    """Personal practice: each child's items (one query); None for the class's homework."""
    if assignment.kind != Assignment.Kind.PERSONAL:
        return None
    return dict(
        PersonalPlan.objects.filter(assignment=assignment).values_list("student_id", "items")
    )


def assignment_report(*, assignment: Assignment) -> AssignmentReport:
    """Per student and item: done, started or not started; stars or scores; and accuracy from
    the attempts made in that assignment's matches. Three queries for any class size, four for
    practice sized in minutes (the time played)."""
    puzzles = assignment.kind == Assignment.Kind.PUZZLES
    # With their accommodations: the teacher reads the work knowing what each child was given.
    roster = [
        e.student
        for e in classroom_roster(classroom=assignment.classroom, with_accommodations=True)
    ]
    plans = _plans(assignment)
    if plans is not None:
        roster = [student for student in roster if student.pk in plans]
    works = AssignmentWork.objects.filter(assignment=assignment).values_list(
        "student_id", "item", "match_id", "match__status", "match__outcome"
    )
    totals = {
        row["match_id"]: (row["attempts"], row["right"])
        for row in Attempt.objects.filter(
            match__assignment_work__assignment=assignment, user__isnull=False
        )
        .values("match_id")
        .annotate(attempts=Count("id"), right=Count("id", filter=Q(correct=True)))
        .order_by()
    }
    minutes = minutes_asked(assignment)
    played = played_ms(assignment_ids=[assignment.pk]) if minutes else {}
    results = {
        student.pk: StudentResult(
            student=student,
            items=_items(assignment, plans[student.pk] if plans is not None else None),
            minutes=minutes,
            played_ms=played.get((assignment.pk, student.pk), 0),
        )
        for student in roster
    }
    for student_id, item, match_id, status, outcome in works:
        student = results.get(student_id)
        if student is None or item >= len(student.items):
            continue
        result = student.items[item]
        result.match_id = match_id
        _fill(result, status, outcome, puzzles or result.max_stars > 0)
        result.attempts, result.right = totals.get(match_id, (0, 0))
        student.attempts += result.attempts
        student.right += result.right
    return AssignmentReport(assignment=assignment, students=list(results.values()))


# Mastery looks back a school term: a fact is known from every game played, not only this homework.
MASTERY_LOOK_BACK_DAYS = 120


def mastery_levels(*, assignment: Assignment, student_ids, now=None) -> dict[int, float]:
    """Each student's mean mastery level (0 not started .. 4 mastered, as
    ``classroom.progress.mastery`` reads a skill) at the skills they answered in ``assignment``'s
    matches, from their latest answers on those skills in any game in the last
    ``MASTERY_LOOK_BACK_DAYS``, rounded to one decimal. A student who answered nothing in the
    homework has no entry. Three queries."""
    skills: dict[int, set[str]] = defaultdict(set)
    for user_id, skill in (
        Attempt.objects.filter(
            match__assignment_work__assignment=assignment, user_id__in=list(student_ids)
        )
        .values_list("user_id", "skill")
        .distinct()
    ):
        skills[user_id].add(skill)
    if not skills:
        return {}
    end = now or timezone.now()
    start = end - datetime.timedelta(days=MASTERY_LOOK_BACK_DAYS)
    masteries = skill_mastery_by_student(student_ids=list(skills), start=start, end=end)
    levels = {}
    for user_id, answered in skills.items():
        read = [masteries.get(user_id, {}).get(skill) for skill in answered]
        levels[user_id] = round(sum(int(m.level) for m in read if m is not None) / len(answered), 1)
    return levels


# --- the student's side --------------------------------------------------------------------------


@dataclass
class StudentAssignment:
    assignment: Assignment
    done: int
    playing: int
    played_ms: int = 0
    now: datetime.datetime | None = None  # when overdue is judged (None: now)

    @property
    def total(self) -> int:
        return len(self.assignment.items)

    @property
    def minutes(self) -> int | None:
        return minutes_asked(self.assignment)

    @property
    def minutes_played(self) -> int:
        return min(self.played_ms // 60_000, self.minutes or 0)

    @property
    def finished(self) -> bool:
        return is_finished(
            done=self.done, total=self.total, minutes=self.minutes, played=self.played_ms
        )

    @property
    def overdue(self) -> bool:
        return is_overdue(self.assignment, finished=self.finished, now=self.now)

    @property
    def started(self) -> bool:
        return self.done + self.playing > 0

    @property
    def description(self) -> str:
        return describe_assignment(self.assignment, child=True)


def student_assignments(*, student, now=None) -> list[StudentAssignment]:
    """Every assignment of the student's classes, soonest due first, with their progress (one
    query, and one more for the time played when some are sized in minutes)."""
    mine = Q(works__student=student)
    rows = (
        Assignment.objects.filter(_set_for(student), classroom__enrollments__student=student)
        .select_related("classroom")
        .annotate(
            done=Count("works", filter=mine & Q(works__match__status__in=OVER), distinct=True),
            playing=Count(
                "works", filter=mine & Q(works__match__status=Match.Status.PLAYING), distinct=True
            ),
        )
        .order_by("due_at", "id")
    )
    now = now or timezone.now()
    rows = list(rows)
    timed = [a.pk for a in rows if minutes_asked(a)]
    played = played_ms(assignment_ids=timed, student_ids=[student.pk]) if timed else {}
    return [
        StudentAssignment(
            assignment=assignment,
            done=assignment.done,
            playing=assignment.playing,
            played_ms=played.get((assignment.pk, student.pk), 0),
            now=now,
        )
        for assignment in rows
    ]


def student_items(*, assignment: Assignment, student) -> list[ItemResult]:
    """The student's own items of one assignment (one query)."""
    puzzles = assignment.kind == Assignment.Kind.PUZZLES
    plan = None
    if assignment.kind == Assignment.Kind.PERSONAL:
        plan = PersonalPlan.objects.filter(assignment=assignment, student=student).first()
        plan = plan.items if plan is not None else []
    items = _items(assignment, plan)
    for item, match_id, status, outcome in AssignmentWork.objects.filter(
        assignment=assignment, student=student
    ).values_list("item", "match_id", "match__status", "match__outcome"):
        if item < len(items):
            items[item].match_id = match_id
            _fill(items[item], status, outcome, puzzles or items[item].max_stars > 0)
    return items


def student_assignment_progress(
    *, assignment: Assignment, student, items: list[ItemResult]
) -> StudentAssignment:
    """The student's progress in one assignment, from their ``items`` (``student_items``)."""
    minutes = minutes_asked(assignment)
    played = played_ms(assignment_ids=[assignment.pk], student_ids=[student.pk]) if minutes else {}
    return StudentAssignment(
        assignment=assignment,
        done=sum(item.state == ItemState.DONE for item in items),
        playing=sum(item.state == ItemState.STARTED for item in items),
        played_ms=played.get((assignment.pk, student.pk), 0),
    )


FINISHED_SHOWN = 5  # the home page keeps the latest few finished ones, for the pride of it


def student_home_context(*, student) -> dict:
    """What the student's home page shows of homework: the open assignments (overdue ones
    included) and the latest finished ones."""
    entries = student_assignments(student=student)
    finished = [entry for entry in entries if entry.finished]
    return {
        "homework_open": [entry for entry in entries if not entry.finished],
        "homework_finished": finished[::-1][:FINISHED_SHOWN],
    }
