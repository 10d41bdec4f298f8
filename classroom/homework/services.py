"""Writes of homework. An assignment fixes its items (deal seeds) when the teacher sets it, so the
whole class plays the same puzzles and games; a student's match for an item is made the first
time they open it and is theirs to resume from then on."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

import engine
from classroom import bots
from classroom.bots import bot_name
from classroom.homework import titles
from classroom.models import Assignment, AssignmentWork, Classroom, PersonalPlan
from classroom.practice import selectors as practice_selectors
from classroom.practice import services as practice
from games import services as games_services
from games.models import Match, Seat
from games.services import SeatSpec

MAX_ITEMS = 10
SEED_BITS = 31  # seeds stay plain JSON numbers everywhere (JavaScript included)
DIFFICULTIES = range(1, 6)  # engine.Puzzles: 1 gentle to 5 tricky


def puzzle_games() -> list[engine.Game]:
    """The games whose solo puzzles can be set as homework (those that declare ``puzzles``)."""
    return engine.puzzle_games()


def default_puzzle_game() -> str:
    """The first game with puzzles, as pages list games: what a puzzle spec plays unless it says."""
    games = puzzle_games()
    return games[0].slug if games else ""


def puzzles_of(game: str) -> engine.Puzzles | None:
    """The game's puzzles, or None for an unknown game or one without any."""
    return engine.get_game(game).puzzles if engine.is_game(game) else None


@dataclass(frozen=True)
class PuzzleSpec:
    size: int
    difficulty: int
    count: int
    game: str = field(default_factory=default_puzzle_game)


@dataclass(frozen=True)
class BotGamesSpec:
    game: str
    variant: str
    players: int  # seats, the student's included
    bot_level: str
    count: int
    options: dict


Spec = PuzzleSpec | BotGamesSpec


def spec_of(assignment: Assignment) -> Spec:
    """What the assignment asks for, as the form edits it."""
    if assignment.kind == Assignment.Kind.PUZZLES:
        puzzles = puzzles_of(assignment.game)
        size = puzzles.size_of(assignment.variant) if puzzles is not None else None
        return PuzzleSpec(
            size=size if size is not None else 0,
            difficulty=assignment.difficulty or 1,
            count=len(assignment.items),
            game=assignment.game,
        )
    return BotGamesSpec(
        game=assignment.game,
        variant=assignment.variant,
        players=assignment.players,
        bot_level=assignment.bot_level,
        count=len(assignment.items),
        options=dict(assignment.options),
    )


def spec_check(spec: Spec) -> None:
    """Raises ``engine.SetupError`` when the engine would refuse the spec (its game, variant,
    options and number of seats), so a bad assignment never reaches the students."""
    if not 1 <= spec.count <= MAX_ITEMS:
        raise engine.SetupError("bad_count", f"from 1 to {MAX_ITEMS} items")
    if isinstance(spec, PuzzleSpec):
        puzzles = puzzles_of(spec.game)
        if puzzles is None:
            raise engine.SetupError("no_puzzles", f"{spec.game!r} has no solo puzzles")
        if spec.size not in puzzles.sizes:
            sizes = ", ".join(str(size) for size in puzzles.sizes)
            raise engine.SetupError("unknown_variant", f"its puzzles come in sizes {sizes}")
        if spec.difficulty not in DIFFICULTIES:
            raise engine.SetupError("bad_difficulty", "difficulty is 1 to 5")
        return
    if spec.bot_level not in (*engine.bots.LEVELS, bots.ADAPTIVE):
        levels = ", ".join((*engine.bots.LEVELS, bots.ADAPTIVE))
        raise engine.SetupError("bad_bot_level", f"bots play at {levels}")
    if spec.players < 2:
        raise engine.SetupError("bad_players", "a game against bots needs at least one bot")
    engine.get_game(spec.game).new(
        variant=spec.variant, players=spec.players, seed=0, options=spec.options
    )


def _puzzle_items(spec: PuzzleSpec, seed: int) -> list[dict]:
    """``count`` different deals of the wished difficulty, drawn reproducibly from ``seed``."""
    items: list[dict] = []
    seen: set[int] = set()
    base = seed
    generate = engine.get_game(spec.game).puzzles.generate
    while len(items) < spec.count:
        puzzle = generate(spec.size, spec.difficulty, base)
        base += 1
        if puzzle.seed in seen:
            continue
        seen.add(puzzle.seed)
        items.append({"seed": puzzle.seed, "difficulty": puzzle.difficulty})
    return items


def _game_items(spec: BotGamesSpec, seed: int) -> list[dict]:
    draw = random.Random(seed)
    return [{"seed": draw.getrandbits(SEED_BITS)} for _ in range(spec.count)]


def items_for(spec: Spec, seed: int) -> list[dict]:
    """The items of a homework of ``spec`` drawn from the assignment's ``seed``: each item's deal
    seed (a puzzle's with its difficulty). Every child of the class plays the same deals."""
    if isinstance(spec, PuzzleSpec):
        return _puzzle_items(spec, seed)
    return _game_items(spec, seed)


def _apply_spec(assignment: Assignment, spec: Spec, seed: int | None) -> None:
    seed = secrets.randbits(SEED_BITS) if seed is None else seed
    if isinstance(spec, PuzzleSpec):
        assignment.kind = Assignment.Kind.PUZZLES
        assignment.game = spec.game
        assignment.variant = puzzles_of(spec.game).variant(spec.size)
        assignment.options = {}
        assignment.difficulty = spec.difficulty
        assignment.players = 1
        assignment.bot_level = ""
        assignment.items = items_for(spec, seed)
    else:
        assignment.kind = Assignment.Kind.BOT_GAMES
        assignment.game = spec.game
        assignment.variant = spec.variant
        assignment.options = dict(spec.options)
        assignment.difficulty = None
        assignment.players = spec.players
        assignment.bot_level = spec.bot_level
        assignment.items = items_for(spec, seed)


def assignment_create(
    *,
    classroom: Classroom,
    title: str | titles.PlatformTitle,
    spec: Spec,
    due_at,
    seed: int | None = None,
) -> Assignment:
    """A new assignment for the class, titled in the teacher's words or the platform's
    (``titles``). Raises ``engine.SetupError`` for a spec the engine refuses. ``seed`` fixes the
    deals (tests); by default they are drawn at random."""
    spec_check(spec)
    assignment = Assignment(classroom=classroom, due_at=due_at)
    titles.give_title(assignment, title)
    _apply_spec(assignment, spec, seed)
    assignment.save()
    return assignment


def assignment_started(*, assignment: Assignment) -> bool:
    return assignment.works.exists()


class AssignmentLocked(Exception):
    """The content of an assignment that students have begun cannot change under them."""


@transaction.atomic
def assignment_update(
    *, assignment: Assignment, title: str, due_at, spec: Spec, seed: int | None = None
) -> Assignment:
    """Title and due date change at any time; what is played (the spec) only until a student has
    begun, since their matches were dealt from the old items. An unchanged spec keeps its deals."""
    assignment = Assignment.objects.select_for_update().get(pk=assignment.pk)
    if spec != spec_of(assignment):
        if assignment_started(assignment=assignment):
            raise AssignmentLocked
        spec_check(spec)
        _apply_spec(assignment, spec, seed)
    titles.retitle(assignment, title)
    assignment.due_at = due_at
    assignment.save()
    return assignment


def assignment_delete(*, assignment: Assignment) -> None:
    """Delete the assignment. Its matches stay (their attempts are real practice and count in the
    accuracy analytics), but the ones still playing are stopped: nobody would find them again."""
    playing = list(
        Match.objects.filter(
            assignment_work__assignment=assignment, status=Match.Status.PLAYING
        ).values_list("id", flat=True)
    )
    for match_id in playing:
        games_services.match_abandon(match_id=match_id)
    assignment.delete()


# --- students ------------------------------------------------------------------------------------


def _seats(assignment: Assignment, student, game: str = "", players: int = 0) -> list[SeatSpec]:
    game = game or assignment.game
    players = players or assignment.players
    level = assignment.bot_level
    if level == bots.ADAPTIVE and players > 1:
        level = bots.adaptive_level(bot_results(student=student, game=game))
    seats = [SeatSpec(name=student.display_name or str(student), user=student)]
    seats += [SeatSpec(name=bot_name(n), bot_level=level) for n in range(1, players)]
    return seats


def bot_results(*, student, game: str) -> list[tuple[str, bool]]:
    """The student's latest finished games of ``game`` against bots, newest first: the bots'
    level and whether the student won."""
    seats = (
        Seat.objects.filter(user=student, match__game=game, match__status=Match.Status.FINISHED)
        .exclude(match__outcome__isnull=True)
        .order_by("-match__finished_at", "-match_id")
        .values_list("match_id", "index", "match__outcome")[: bots.ADAPTIVE_GAMES]
    )
    seats = list(seats)
    levels = dict(
        Seat.objects.filter(match_id__in=[match_id for match_id, _i, _o in seats])
        .exclude(bot_level="")
        .values_list("match_id", "bot_level")
    )
    return [
        (levels[match_id], index in (outcome or {}).get("winners", []))
        for match_id, index, outcome in seats
        if match_id in levels
    ]


def _existing_work(assignment: Assignment, student, item: int) -> AssignmentWork | None:
    return (
        AssignmentWork.objects.filter(assignment=assignment, student=student, item=item)
        .select_related("match")
        .first()
    )


def work_start(*, assignment: Assignment, student, item: int) -> AssignmentWork:
    """The student's work on one item, its match made on first use. Safe against a double tap or
    two tabs: the unique (assignment, student, item) constraint lets one insert win, and the loser
    rolls its match back and returns the winner's work."""
    existing = _existing_work(assignment, student, item)
    if existing is not None:
        return existing
    if assignment.kind == Assignment.Kind.PERSONAL:
        # The child's own item, dealt toward their facts (classroom.practice).
        plan = PersonalPlan.objects.get(assignment=assignment, student=student)
        # Toward their facts they have not answered yet today (a review once a day).
        answered = practice_selectors.answered_on(student_id=student.pk, day=timezone.localdate())
        made: dict[str, Any] = practice.plan_match_args(plan, item, answered)
        # The item's seats (1 for a puzzle; Add or Multiply? the child and two bots); items kept
        # before they carried it are the assignment's.
        entry = plan.items[item]
        players = entry.get("players") or (
            1 if entry.get("size") is not None else assignment.players
        )
        made["seats"] = _seats(assignment, student, made["game"], players)
        made["options"] = {}
    else:
        entry: dict[str, Any] = assignment.items[item]
        made = {
            "game": assignment.game,
            "variant": assignment.variant,
            "seats": _seats(assignment, student),
            "options": assignment.options,
            "seed": entry["seed"],
        }
    label, label_values = titles.match_label(assignment, item)
    try:
        with transaction.atomic():
            match = games_services.match_create(
                **made,
                # The teacher who set the homework: live play lets a match's creator watch it, and
                # the student is known by their seat and their AssignmentWork.
                created_by=assignment.classroom.teacher,
                label=label,
                label_values=label_values,
                # The child plays alone against bots: the game waits while they are away.
                waits_for_players=True,
            )
            return AssignmentWork.objects.create(
                assignment=assignment, student=student, item=item, match=match
            )
    except IntegrityError:
        return _existing_work(assignment, student, item)


def work_next(*, assignment: Assignment, student) -> AssignmentWork | None:
    """The item the student should play now: the first one still playing (they resume it), else
    the first one not begun; None when every item is over."""
    works = dict(
        AssignmentWork.objects.filter(assignment=assignment, student=student).values_list(
            "item", "match__status"
        )
    )
    for item in range(len(assignment.items)):
        if works.get(item) == Match.Status.PLAYING:
            return work_start(assignment=assignment, student=student, item=item)
    for item in range(len(assignment.items)):
        if item not in works:
            return work_start(assignment=assignment, student=student, item=item)
    return None
