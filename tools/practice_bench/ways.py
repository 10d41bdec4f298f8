"""A simulated child's day of practice, four ways (the package docstring says what each is).

Every way gives the child the same number of answers a day; only what they are asked differs.
The personal way and the drill ask what the product's planner asks (classroom.practice); the
rotation asks every table fact in turn through the same games; class-wide homework is dealt as
the product deals a homework set for the whole class (classroom.homework).
"""

from __future__ import annotations

import datetime
import random
from collections import Counter
from dataclasses import dataclass, field

from classroom.homework import services as homework
from classroom.models import PersonalPlan
from classroom.practice import services as practice
from classroom.practice.working_set import (
    NEW,
    NEXT_NEW,
    Item,
    WorkingSet,
    working_set_for_games,
)
from classroom.progress.mastery import TABLES
from tools.practice_bench.play import Answer, Player, deal

PERSONAL, ROTATION, DRILL, CLASS_WIDE = "personal", "rotation", "drill", "class-wide"
WAYS = (PERSONAL, ROTATION, DRILL, CLASS_WIDE)
# Personal practice as a teacher sets it with these games allowed (their keys in
# ``classroom.practice.services.choices()``): ¡Mía! 3 x 3 solo puzzles, SUM against a bot and Add
# or Multiply? with numbers to 10 against two bots (the one game that asks every table fact).
PERSONAL_CHOICES = ("mia:puzzles", "sum", "add_or_multiply")
# The rotation's plan for a day holds, for each game, the next facts of the rotation it can deal,
# as many as a game's working set has places (3 being learned and 8 reviews).
ROTATION_FOCUS = 11
# Class-wide: the homework a teacher sets each day in the same games, dealt in turn: a puzzle,
# SUM, a puzzle, Add or Multiply?, ... until the day's answers are given.
CLASS_PUZZLES = homework.PuzzleSpec(size=3, difficulty=2, count=4, game="mia")
CLASS_GAMES = (
    homework.BotGamesSpec("sum", "standard", 2, "easy", 2, {}),
    homework.BotGamesSpec("add_or_multiply", "to_ten", 3, "easy", 2, {}),
)
SEED_BITS = homework.SEED_BITS
DRILL_GAP_S = 5  # between two flash cards
TABLE_FACTS = frozenset(
    (table.operation, a, b) for table in TABLES for a in table.numbers for b in table.numbers
)


@dataclass
class Deal:
    game: str
    variant: str
    players: int
    seed: int
    focus: tuple = ()


@dataclass
class Child:
    player: Player
    answers: list = field(default_factory=list)  # FactAnswer, the product's reading
    rotation: list = field(default_factory=list)  # the rotation's facts, next first


@dataclass
class Run:
    """What every child's day reads: the run's settings and the product's choices."""

    seed: int
    answers_per_day: int
    universe: list
    choices: list = field(default_factory=lambda: [practice.choice(k) for k in PERSONAL_CHOICES])

    def __post_init__(self):
        self.dealables = practice.dealables_of(self.choices)


def _played(child: Child, deals, clock_s: float, wanted: int, after=None) -> list[Answer]:
    """The child's answers to ``deals`` in turn until the day has ``wanted``; ``after(deal,
    answers)`` is told each deal's answers."""
    answers: list[Answer] = []
    for one in deals:
        if len(answers) >= wanted:
            break
        got, clock_s = deal(
            child.player,
            one.game,
            one.variant,
            one.players,
            one.seed,
            one.focus,
            clock_s,
            wanted - len(answers),
        )
        answers += got
        if after is not None:
            after(one, got)
    return answers


def working_set_focus(run: Run, child: Child, day) -> list[tuple]:
    """The facts of the child's working set for the allowed games on ``day``."""
    practice_set = working_set_for_games(child.answers, day, run.dealables)
    return [(i.operation, i.first, i.second) for i in practice_set.items]


def _table_facts(answers: list[Answer]) -> Counter:
    """How many times each table fact was answered, as the product counts a day's answers
    (``classroom.practice.selectors.answered_on``)."""
    return Counter(a.fact for a in answers if a.fact in TABLE_FACTS)


def _planned_day(run: Run, child: Child, plan: PersonalPlan, clock_s: float) -> list[Answer]:
    """The child's answers to the items of ``plan`` as the product makes each when the child
    opens it (``practice.plan_match_args``, told the child's answers so far today)."""
    today: Counter = Counter()

    def deals():
        for item, entry in enumerate(plan.items):
            made = practice.plan_match_args(plan, item, today)
            yield Deal(made["game"], made["variant"], entry["players"], made["seed"], made["focus"])

    def answered(_deal, answers):
        today.update(_table_facts(answers))

    return _played(child, deals(), clock_s, run.answers_per_day, answered)


def personal_day(run: Run, child: Child, index: int, number: int, day, clock_s: float):
    """The product's personal practice for the day: the child's working set for the allowed
    games, their plan (``practice.set_plan``) and each item's match as the product makes it when
    the child opens it. Returns the answers and the set's facts."""
    practice_set = working_set_for_games(child.answers, day, run.dealables)
    draw = random.Random(f"{run.seed}:{index}:{number}")
    plan = practice.set_plan(run.choices, practice_set, practice.MAX_ITEMS, draw)
    focus = [(i.operation, i.first, i.second) for i in practice_set.items]
    return _planned_day(run, child, plan, clock_s), focus


def drill_day(run: Run, child: Child, index: int, number: int, day, clock_s: float):
    """The personal way's plan as a flash-card drill: every answer on the fact the planner would
    deal toward next (``practice.item_focus`` of a game that deals every table fact), no game."""
    practice_set = working_set_for_games(child.answers, day, run.dealables)
    plan = practice.set_plan(run.choices, practice_set, 1, random.Random(0))
    focus = [(i.operation, i.first, i.second) for i in practice_set.items]
    every_fact = practice.choice("add_or_multiply")
    answers: list[Answer] = []
    today: Counter = Counter()
    while focus and len(answers) < run.answers_per_day:
        fact = practice.item_focus(every_fact, plan.facts, today)[0]
        outcome = child.player.answer(fact, clock_s)
        answers.append(Answer(fact, outcome.correct, outcome.elapsed_ms, True))
        today[fact] += 1
        clock_s += outcome.elapsed_ms / 1000 + DRILL_GAP_S
    return answers, focus


def shuffled(run: Run, index: int) -> list[tuple]:
    """The ``index``-th child's rotation before their first day: every table fact, shuffled."""
    rotation = list(run.universe)
    random.Random(f"{run.seed}:rotation:{index}").shuffle(rotation)
    return rotation


def rotation_set(run: Run, child: Child, day) -> WorkingSet:
    """The rotation's facts for the day in the shape of a working set: for each allowed game,
    the next ``ROTATION_FOCUS`` facts of the child's rotation it can deal, merged in the
    rotation's order, each a new fact (no boxes, no reviews, no order but the shuffle). The
    games share the items as they do in personal practice, by the facts each can still teach
    the child (the product's ``to_learn``): the two ways differ only in which facts are asked,
    not in how much of the day goes to games whose answers are mostly no table fact."""
    facts: dict[tuple, None] = {}
    for dealable in run.dealables:
        facts.update(dict.fromkeys([f for f in child.rotation if f in dealable][:ROTATION_FOCUS]))
    place = {fact: i for i, fact in enumerate(child.rotation)}
    return WorkingSet(
        learning=[],
        reviews=[],
        new=[Item(NEW, *fact, {"code": NEXT_NEW}) for fact in sorted(facts, key=place.get)],
        to_learn=working_set_for_games(child.answers, day, run.dealables).to_learn,
    )


def rotation_day(run: Run, child: Child, index: int, number: int, day, clock_s: float):
    """No planner: every table fact in a shuffled rotation (the child's own), the day's plan its
    next facts (``rotation_set``), made and dealt by the same product functions as personal
    practice's (``practice.set_plan``, ``practice.plan_match_args``); at the end of the day the
    plan's facts go to the back, then the other facts the child answered. Returns the answers and
    the plan's facts."""
    if not child.rotation:
        child.rotation = shuffled(run, index)
    practice_set = rotation_set(run, child, day)
    draw = random.Random(f"{run.seed}:{index}:{number}")
    plan = practice.set_plan(run.choices, practice_set, practice.MAX_ITEMS, draw)
    answers = _planned_day(run, child, plan, clock_s)
    # Each fact dealt toward today goes to the back, answered or not: a fact the deals seldom
    # make (0 + n, which Add or Multiply?'s bots give last while the child can multiply) would
    # otherwise keep its place at the front for weeks and hold a game's places from the facts
    # behind it. A fact answered outside the plan goes to the back too: it has just had its turn.
    planned = [(i.operation, i.first, i.second) for i in practice_set.items]
    answered = [a.fact for a in answers if a.fact in TABLE_FACTS]
    back = dict.fromkeys([*planned, *answered])
    child.rotation = [f for f in child.rotation if f not in back] + list(back)
    return answers, planned


def class_deals(run: Run, number: int) -> list[Deal]:
    """The day's class-wide homework as the product deals it: each assignment's items drawn from
    its own seed (``homework.items_for``, as ``secrets`` would draw it when the teacher sets it),
    the same deals for every child, in turn."""
    draw = random.Random(f"{run.seed}:class:{number}")
    puzzles = [
        Deal("mia", "solo3", 1, item["seed"])
        for item in homework.items_for(CLASS_PUZZLES, draw.getrandbits(SEED_BITS))
    ]
    games = [
        [
            Deal(spec.game, spec.variant, spec.players, item["seed"])
            for item in homework.items_for(spec, draw.getrandbits(SEED_BITS))
        ]
        for spec in CLASS_GAMES
    ]
    order = []
    for turn in range(CLASS_PUZZLES.count):
        order.append(puzzles[turn])
        game = games[turn % len(games)]
        order.append(game[(turn // len(games)) % len(game)])
    return order


def class_day(run: Run, child: Child, deals: list[Deal], clock_s: float) -> list[Answer]:
    return _played(child, deals, clock_s, run.answers_per_day)


def days(first: datetime.date, count: int) -> list[datetime.date]:
    found, day = [], first
    while len(found) < count:
        if day.weekday() < 5:
            found.append(day)
        day += datetime.timedelta(days=1)
    return found
