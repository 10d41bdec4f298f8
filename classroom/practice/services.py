"""Writes of personal practice (issue 25): homework whose items each child gets from their own
facts, and the facts a teacher keeps for a child's table at the next class session.

Which facts: the child's working set when the teacher assigns (``class_working_sets``, one read
for the class), or the facts the teacher chose on a progress page. Which items: the games the
teacher allows, each child's items shared among them in proportion to the facts each can still
teach that child (of the teacher's facts, those it can deal); all alike when none can, and the
child then plays plainly."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from classroom import bots
from classroom.homework import titles
from classroom.models import Assignment, Classroom, NextSessionFocus, PersonalPlan
from classroom.practice.selectors import class_fact_states, class_working_sets
from classroom.practice.working_set import (
    CHOSEN,
    NUMBERS,
    REVIEW,
    WorkingSet,
    dealable_facts,
    kind_on,
    turnaround,
)
from classroom.selectors import classroom_roster
from games import catalog

Fact = tuple[str, int, int]

PLAYERS = 2  # a personal game: the child and one bot, so that most of the deal's facts are theirs
PUZZLE_DIFFICULTY = 2  # focused puzzles are mostly gentle whatever is asked (engine.mia_puzzles)
SEED_BITS = 31
MAX_ITEMS = 10
# Practice sized in minutes of play: each child gets MAX_ITEMS items and is done at the minutes.
MIN_MINUTES, MAX_MINUTES = 5, 60


@dataclass(frozen=True)
class Choice:
    """Something a teacher can allow in personal practice: a focus game against bots (``players``
    seats: the child and the rest bots), or a game's focused solo puzzles (``size``)."""

    key: str
    game: str
    variant: str
    size: int | None = None
    players: int = PLAYERS

    @property
    def label(self) -> str:
        if self.size is not None:
            return _("%(game)s: solo puzzles") % {"game": catalog.game_title(self.game)}
        # The variant too ("Add or Multiply? · Numbers to 10"): its cards say which facts it asks.
        title = catalog.game_and_variant_title(self.game, self.variant, child=True)
        if self.players > 2:
            return _("%(game)s against %(count)s bots") % {"game": title, "count": self.players - 1}
        return _("%(game)s against a bot") % {"game": title}

    def operations(self) -> frozenset[str]:
        return engine.get_game(self.game).focus.operations

    def cut(self, facts: Iterable[Fact]) -> tuple[Fact, ...]:
        """The facts this choice can deal toward (the game's operations, then what its variant
        can show)."""
        focus = engine.get_game(self.game).focus
        return focus.facts(self.variant, [f for f in facts if f[0] in focus.operations])


def choices() -> list[Choice]:
    """What personal practice offers: the games whose deal, or whose bots, can be focused on
    table facts (add, mul); a game that cannot be focused on them is not offered (ADD-UP deals
    differences only). A game is played by the child and one bot, or as few bots as the variant
    needs: Add or Multiply? is for exactly three, the child and two bots, and its bots carry the
    focus (``Focus.by_bots``), which needs exactly one child at the table, as here."""
    found = []
    for game in engine.focus_games():
        focus = game.focus
        if not focus.operations & set(NUMBERS):
            continue
        for name in focus.variants:
            spec = game.variants[name]
            players = max(PLAYERS, spec.min_players)
            if players <= spec.max_players:
                found.append(Choice(game.slug, game.slug, name, players=players))
                break
        if game.puzzles is not None:
            for size, variant in game.puzzles.sizes.items():
                if variant in focus.variants:
                    found.append(Choice(f"{game.slug}:puzzles", game.slug, variant, size))
                    break
    return found


def choice(key: str) -> Choice | None:
    return next((c for c in choices() if c.key == key), None)


def facts_of(plan_facts: Sequence[dict]) -> list[Fact]:
    return [(f["operation"], f["first"], f["second"]) for f in plan_facts]


def _fact_entry(fact: Fact, kind: str, why: dict) -> dict:
    operation, first, second = fact
    return {"operation": operation, "first": first, "second": second, "kind": kind, "why": why}


def plan_items(
    allowed: Sequence[Choice], weights: Sequence[int], count: int, draw: random.Random
) -> list[dict]:
    """``count`` items of the ``allowed`` choices, each choice getting a share of them in
    proportion to its weight (the facts it can teach the child), interleaved (a smooth weighted
    round, its starting credits drawn from ``draw``, so that children start on different games).
    A choice of weight 0 gets none, unless all are 0: then all are played alike."""
    if not any(weights):
        weights = [1] * len(allowed)
    total = sum(weights)
    credit = [draw.random() * weight for weight in weights]
    items = []
    for _item in range(count):
        credit = [have + weight for have, weight in zip(credit, weights, strict=True)]
        best = max(range(len(allowed)), key=lambda i: (credit[i], -i))
        credit[best] -= total
        c = allowed[best]
        items.append(
            {
                "game": c.game,
                "variant": c.variant,
                "seed": draw.getrandbits(SEED_BITS),
                "size": c.size,
                "players": 1 if c.size is not None else c.players,
            }
        )
    return items


def dealables_of(allowed: Sequence[Choice]) -> list[frozenset[Fact]]:
    """Per allowed choice, the facts its deal can steer toward: each game's working set is
    drawn among its own (``working_set_for_games``); a fact it cannot make would take one of
    the set's few places and never be dealt (docs/progress.md)."""
    return [dealable_facts([(c.game, c.variant)]) for c in allowed]


def set_plan(
    allowed: Sequence[Choice], practice_set: WorkingSet, count: int, draw: random.Random
) -> PersonalPlan:
    """A child's plan toward their working set (unsaved): its facts with their kind and reason,
    and ``count`` items of the ``allowed`` choices given to the games with the most facts left
    to teach them (``plan_items``)."""
    return PersonalPlan(
        facts=[
            _fact_entry((i.operation, i.first, i.second), i.kind, i.why) for i in practice_set.items
        ],
        items=plan_items(allowed, practice_set.to_learn, count, draw),
    )


def _chosen_facts(student_ids: list[int], facts: Sequence[Fact], as_of) -> dict[int, list[dict]]:
    """The teacher's facts for each child, each with its kind in the child's boxes today."""
    states = class_fact_states(student_ids=student_ids, as_of=as_of)
    out = {}
    for student_id in student_ids:
        mine = states.get(student_id, {})
        entries = []
        for fact in facts:
            kind = kind_on(mine.get(tuple(fact)), as_of)
            entries.append(_fact_entry(tuple(fact), kind, {"code": CHOSEN}))
        out[student_id] = entries
    return out


class PersonalError(ValueError):
    """A personal assignment that cannot be made (no game, no student, a bad count)."""


class PersonalLocked(Exception):
    """A child has begun the practice: what each child plays cannot change under them."""


@transaction.atomic
def personal_assignment_create(
    *,
    classroom: Classroom,
    title: str | titles.PlatformTitle,
    allowed: Sequence[str],
    count: int,
    due_at,
    bot_level: str = bots.ADAPTIVE,
    student_ids: Sequence[int] | None = None,
    facts: Sequence[Fact] | None = None,
    seed: int | None = None,
    as_of=None,
    minutes: int | None = None,
) -> Assignment:
    """Personal practice for the class's students (``student_ids``: some of them; None: all):
    each child's plan holds their focus facts and ``count`` items of the ``allowed`` choices.
    ``facts``: the same facts for every child (the teacher's); None: each child's working set,
    computed for the whole class in one read. ``minutes``: sized in minutes of play instead
    (``count`` is then ignored): each child gets ``MAX_ITEMS`` items and is done once they have
    played that long (``classroom.homework.selectors.played_ms``), a slower child after fewer."""
    chosen, count = _checked_choices(allowed, count, minutes, bot_level)
    roster = list(classroom_roster(classroom=classroom).values_list("student_id", flat=True))
    ids = roster if student_ids is None else [pk for pk in roster if pk in set(student_ids)]
    if not ids:
        raise PersonalError("no_student")
    assignment = Assignment(classroom=classroom, kind=Assignment.Kind.PERSONAL, due_at=due_at)
    _set_choices(assignment, chosen, count, minutes, bot_level, facts)
    if isinstance(title, str):
        title = title.strip()[: Assignment._meta.get_field("typed_title").max_length]
    titles.give_title(assignment, title)
    assignment.save()
    PersonalPlan.objects.bulk_create(_plans(assignment, ids, chosen, facts, seed, as_of))
    return assignment


@transaction.atomic
def personal_assignment_update(
    *,
    assignment: Assignment,
    title: str | titles.PlatformTitle,
    due_at,
    allowed: Sequence[str],
    count: int,
    bot_level: str,
    minutes: int | None = None,
    seed: int | None = None,
    as_of=None,
) -> Assignment:
    """The title and due date change at any time. The games allowed, how many items or minutes
    and the bots' level change until a child has begun (``PersonalLocked`` after: their matches
    were dealt from their items); then each child's items are dealt again, toward the same facts
    (the teacher's), or toward each child's working set as it is now."""
    assignment = Assignment.objects.select_for_update().get(pk=assignment.pk)
    chosen, count = _checked_choices(allowed, count, minutes, bot_level)
    asked = ([c.key for c in chosen], count, minutes or None, bot_level)
    now = (
        assignment.options.get("allowed", []),
        len(assignment.items),
        assignment.options.get("minutes") or None,
        assignment.bot_level,
    )
    if asked != now:
        if assignment.works.exists():
            raise PersonalLocked
        ids = list(assignment.plans.order_by("student_id").values_list("student_id", flat=True))
        facts = teachers_facts(assignment)
        assignment.plans.all().delete()
        _set_choices(assignment, chosen, count, minutes, bot_level, facts)
        PersonalPlan.objects.bulk_create(_plans(assignment, ids, chosen, facts, seed, as_of))
    titles.retitle(assignment, title)
    assignment.due_at = due_at
    assignment.save()
    return assignment


def teachers_facts(assignment: Assignment) -> list[Fact] | None:
    """The facts the teacher chose for every child of this practice, None when each child's were
    their working set's. Kept in its options; practice set before they were kept there is the
    teacher's when every fact of every plan was chosen by the teacher."""
    if "facts" in assignment.options:
        return [tuple(fact) for fact in assignment.options["facts"]]
    plans = list(assignment.plans.all())
    chosen = all(fact.get("why", {}).get("code") == CHOSEN for plan in plans for fact in plan.facts)
    return facts_of(plans[0].facts) if plans and chosen else None


def _checked_choices(
    allowed: Sequence[str], count: int, minutes: int | None, bot_level: str
) -> tuple[list[Choice], int]:
    """The allowed choices and the number of items, or ``PersonalError``."""
    chosen = [c for key in allowed if (c := choice(key)) is not None]
    if not chosen:
        raise PersonalError("no_game")
    if minutes is not None:
        if not MIN_MINUTES <= minutes <= MAX_MINUTES:
            raise PersonalError("bad_minutes")
        count = MAX_ITEMS
    if not 1 <= count <= MAX_ITEMS:
        raise PersonalError("bad_count")
    if bot_level not in (*engine.bots.LEVELS, bots.ADAPTIVE):
        raise PersonalError("bad_bot_level")
    return chosen, count


def _set_choices(assignment, chosen, count, minutes, bot_level, facts) -> None:
    assignment.game = chosen[0].game
    assignment.variant = ""
    assignment.options = {
        "allowed": [c.key for c in chosen],
        **({"minutes": minutes} if minutes else {}),
        **({"facts": [list(fact) for fact in facts]} if facts is not None else {}),
    }
    assignment.players = PLAYERS
    assignment.bot_level = bot_level
    # One entry per item: every child has as many, their own (PersonalPlan.items).
    assignment.items = [{"item": i} for i in range(count)]


def _plans(assignment, ids, chosen, facts, seed, as_of) -> list[PersonalPlan]:
    """Each child's plan: their facts (the teacher's, or their working set's) and their items."""
    as_of = as_of or timezone.localdate()
    seed = secrets.randbits(SEED_BITS) if seed is None else seed
    count = len(assignment.items)
    if facts is None:
        sets = class_working_sets(student_ids=ids, as_of=as_of, dealables=dealables_of(chosen))
        plans = [set_plan(chosen, sets[pk], count, random.Random(f"{seed}:{pk}")) for pk in ids]
    else:
        by_student = _chosen_facts(ids, [tuple(f) for f in facts], as_of)
        # The teacher's facts: to the games that can deal the most of them.
        plans = [
            PersonalPlan(
                facts=by_student[pk],
                items=plan_items(
                    chosen,
                    [len(c.cut(facts_of(by_student[pk]))) for c in chosen],
                    count,
                    random.Random(f"{seed}:{pk}"),
                ),
            )
            for pk in ids
        ]
    for pk, plan in zip(ids, plans, strict=True):
        plan.assignment, plan.student_id = assignment, pk
    return plans


def allowed_choices(assignment: Assignment) -> list[Choice]:
    return [c for key in assignment.options.get("allowed", []) if (c := choice(key))]


def item_focus(
    c: Choice, plan_facts: Sequence[dict], answered: Mapping[Fact, int]
) -> tuple[Fact, ...]:
    """The facts an item of ``c`` is dealt toward, given how many times the child answered each
    fact today (``answered``, in any game): the plan's facts the game can deal that have had no
    answer today, nor their turnaround, those being learned and new first, then the reviews.
    Once each has had one, the facts still being learned (and new ones, and any the teacher
    chose), those answered fewest times today first: a review is asked once on its due day, since
    a second right answer the same day moves no box. With none of those either, the plan's facts
    again."""
    shown = engine.get_game(c.game).focus.dealable(c.variant, facts_of(plan_facts))
    entries = [
        (fact, entry.get("kind"))
        for fact, entry in zip(facts_of(plan_facts), plan_facts, strict=True)
        if fact in shown
    ]

    def today(fact: Fact) -> int:
        # Its turnaround answered is the combination answered: no deal can choose the order a
        # child says a pair in, and a second answer minutes later is massed practice.
        other = turnaround(fact)
        return answered.get(fact, 0) + (answered.get(other, 0) if other else 0)

    # Unanswered today: those being learned and new first, reviews after (the longest overdue
    # first), so that a focus the engine cuts at its limit keeps the facts still to learn.
    fresh = [fact for fact, kind in entries if not today(fact) and kind != REVIEW]
    fresh += [fact for fact, kind in entries if not today(fact) and kind == REVIEW]
    if fresh:
        return c.cut(fresh)
    again = sorted((fact for fact, kind in entries if kind != REVIEW), key=today)
    return c.cut(again or [fact for fact, _kind in entries])


def plan_match_args(
    plan: PersonalPlan, item: int, answered: Mapping[Fact, int] | None = None
) -> dict:
    """What ``games.services.match_create`` needs for one item of a child's plan: its game,
    variant and seed, and the child's facts the game can deal that they have not answered
    today (``item_focus``; ``answered``: how many times they answered each fact today). A puzzle
    item is the puzzle maker's (its focus may be empty when its square cannot show the facts)."""
    entry = plan.items[item]
    c = Choice("", entry["game"], entry["variant"], entry.get("size"))
    focus = item_focus(c, plan.facts, answered or {})
    seed = entry["seed"]
    if c.size is not None:
        deal = engine.get_game(c.game).puzzles.generate(
            c.size, PUZZLE_DIFFICULTY, seed, focus=list(focus)
        )
        seed, focus = deal.seed, tuple(deal.focus)
    return {"game": c.game, "variant": c.variant, "seed": seed, "focus": list(focus)}


# --- the next class session ----------------------------------------------------------------------


def next_session_focus_set(
    *, classroom: Classroom, student_ids: Sequence[int], facts: Sequence[Fact]
) -> int:
    """Keeps ``facts`` for each of the class's ``student_ids`` until the class's next session
    opens its tables (it replaces what was kept and not yet used). The number of children."""
    roster = set(classroom_roster(classroom=classroom).values_list("student_id", flat=True))
    ids = [pk for pk in dict.fromkeys(student_ids) if pk in roster]
    with transaction.atomic():
        NextSessionFocus.objects.filter(
            classroom=classroom, student_id__in=ids, used_at__isnull=True
        ).delete()
        NextSessionFocus.objects.bulk_create(
            NextSessionFocus(classroom=classroom, student_id=pk, facts=[list(f) for f in facts])
            for pk in ids
        )
    return len(ids)


def pending_focus(*, classroom_id: int, student_ids: Iterable[int]) -> dict[int, list[Fact]]:
    """Each child's facts kept for the next session (one read)."""
    out: dict[int, list[Fact]] = {}
    for student_id, facts in NextSessionFocus.objects.filter(
        classroom_id=classroom_id, student_id__in=list(student_ids), used_at__isnull=True
    ).values_list("student_id", "facts"):
        out.setdefault(student_id, []).extend(tuple(f) for f in facts)
    return out


def table_focus(game: str, variant: str, facts: Iterable[Fact]) -> tuple[Fact, ...] | None:
    """The facts a table of ``game`` ``variant`` can be dealt toward; None when the game or
    variant cannot be focused at all (the table deals plainly). A game whose bots carry the
    focus (Add or Multiply?, ``Focus.by_bots``) is focused only where one child plays with bots,
    which is personal practice: a lesson's tables are for children playing one another, so its
    tables deal plainly and the facts wait for a session that can deal them."""
    focus = engine.get_game(game).focus
    if focus is None or variant not in focus.variants or focus.by_bots:
        return None
    return focus.facts(variant, [f for f in facts if f[0] in focus.operations])


def pending_focus_used(*, classroom_id: int, student_ids: Iterable[int], session) -> None:
    NextSessionFocus.objects.filter(
        classroom_id=classroom_id, student_id__in=list(student_ids), used_at__isnull=True
    ).update(used_at=timezone.now(), used_in=session)
