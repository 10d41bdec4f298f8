"""The simulated year of practice, four ways, under each model of a child (see the package
docstring)."""

from __future__ import annotations

import argparse
import datetime
import random
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace

from classroom.practice.working_set import FactAnswer, new_fact_order
from classroom.progress.mastery import (
    MIN_ANSWERS,
    RECENT_ANSWERS,
    TABLES,
    Level,
    Mastery,
    is_fluent,
)
from engine.core import same_fact
from tools import django_setup
from tools.practice_bench import ways
from tools.practice_bench.hlr import HlrLearner
from tools.practice_bench.learner import DAY_S, Learner
from tools.practice_bench.play import STYLES, Player

MODELS = {"act-r": Learner, "hlr": HlrLearner}
MODEL_NAMES = {
    "act-r": "ACT-R memory with Pavlik & Anderson's spacing (tools/practice_bench/learner.py)",
    "hlr": "Half-Life Regression, Settles & Meeder 2016 (tools/practice_bench/hlr.py)",
}
MASTERED_SHARE = 0.8
LOWER_LINES = (0.5, 0.7)
HOMEWORK_START_S = 16 * 3600  # practice after school
PRIOR_DAYS = 90  # the earlier weeks a child's starting knowledge was built over
PRIOR_SESSIONS = 6
FIRST_DAY = datetime.date(2026, 9, 7)  # a Monday


@dataclass(frozen=True)
class Config:
    children: int = 20
    answers_per_day: int = 40
    month_days: int = 20  # school days over which the focus share is read
    cap_days: int = 180  # a school year: a line not reached by then is not reached
    prior_max: int = 60  # prior exposures of the easiest fact for the ablest child
    seed: int = 1
    model: str = "act-r"
    progress: bool = False  # a line on stderr every 20 school days


SMALL = Config(children=3, answers_per_day=12, month_days=3, cap_days=4)


def day_seconds(day: datetime.date) -> float:
    return (day - FIRST_DAY).days * DAY_S


def table_facts() -> list[tuple[str, int, int]]:
    return [(t.operation, a, b) for t in TABLES for a in t.numbers for b in t.numbers]


TABLE_FACTS = frozenset(table_facts())


def mastered(answers: list[FactAnswer], as_of: datetime.date) -> bool:
    """The product's own line: the fact's level over its latest answers is Mastered."""
    if not answers:
        return False
    latest = answers[-RECENT_ANSWERS:]
    fluent_days = len({a.day for a in answers if is_fluent(a.correct, a.elapsed_ms)})
    mastery = Mastery.of(
        [(a.correct, a.elapsed_ms, a.times_recall) for a in latest],
        fluent_days=fluent_days,
        last_seen=answers[-1].day,
        as_of=as_of,
    )
    return mastery.level == Level.MASTERED


def shortfall(answers: list[FactAnswer], as_of: datetime.date) -> str | None:
    """The first of the product's conditions for Mastered that the fact misses, or None."""
    if mastered(answers, as_of):
        return None
    latest = answers[-RECENT_ANSWERS:]
    if len(latest) < MIN_ANSWERS:
        return f"fewer than {MIN_ANSWERS} answers"
    if sum(a.correct for a in latest) * 10 < 9 * len(latest):
        return "under 90 % right"
    if sum(is_fluent(a.correct, a.elapsed_ms) for a in latest) * 10 < 8 * len(latest):
        return "under 80 % fluent"
    return "fluent on too few days or due for review"


def make_class(config: Config, universe: list[tuple]) -> list[ways.Child]:
    """Children of varied starting knowledge: the ablest has met each fact up to ``prior_max``
    times over the last weeks, fewer the later the fact comes in the product's family order; each
    has their own memory (``config.model``), choices and style of play."""
    rng = random.Random(config.seed)
    order = {fact: i for op in ("add", "mul") for i, fact in enumerate(new_fact_order(op))}
    children = []
    for index in range(config.children):
        ability = 0.2 + 0.8 * index / max(1, config.children - 1)
        learner = MODELS[config.model](random.Random(f"{config.seed}-{index}"))
        for fact in universe:
            ease = 1 - order[fact] / len(new_fact_order(fact[0]))
            exposures = round(config.prior_max * ability * ease * rng.uniform(0.5, 1.5))
            sessions = min(exposures, PRIOR_SESSIONS)
            times = [
                -(PRIOR_DAYS - s * PRIOR_DAYS // max(1, sessions)) * DAY_S + HOMEWORK_START_S
                for s in range(sessions)
            ]
            learner.prime(fact, times, exposures)
        player = Player(
            learner, random.Random(f"{config.seed}-moves-{index}"), STYLES[index % len(STYLES)]
        )
        children.append(ways.Child(player))
    return children


@dataclass
class Result:
    way: str
    month_answers: int = 0
    focus_answers: int = 0
    answers: int = 0
    answers_to_line: int | None = None
    days_to_line: int | None = None
    mastered_by_day: list[float] = field(default_factory=list)
    answers_by_day: list[int] = field(default_factory=list)
    table_mastered_by_day: dict = field(default_factory=lambda: defaultdict(list))
    shortfalls: Counter = field(default_factory=Counter)
    # Where the answers went, over the whole run.
    kinds: Counter = field(default_factory=Counter)
    # Per game (its slug, "" for flash cards): its answers, and those on no table fact.
    by_game: Counter = field(default_factory=Counter)
    off_table_by_game: Counter = field(default_factory=Counter)
    seconds: float = 0.0

    @property
    def focus_share(self) -> float:
        return self.focus_answers / max(1, self.month_answers)

    def to(self, share: float, operation: str | None = None) -> str:
        """The answers until ``share`` of the (child, fact) pairs were mastered, ">N" if never."""
        shares = (
            self.mastered_by_day if operation is None else self.table_mastered_by_day[operation]
        )
        for answers, reached in zip(self.answers_by_day, shares, strict=True):
            if reached >= share:
                return str(answers)
        return f">{self.answers}"


def _record(child: ways.Child, by_fact: dict, answers, day, focus, result: Result, in_month):
    """Each answer goes back to the child's record as the product keeps it (table facts only)."""
    done_today: set = set()
    mastered_before = {f for f in focus if mastered(by_fact.get(f, []), day)}
    for answer in answers:
        fact = answer.fact
        result.by_game[answer.game] += 1
        if fact not in TABLE_FACTS:
            result.kinds["not a table fact"] += 1
            result.off_table_by_game[answer.game] += 1
        elif fact in done_today and fact in focus:
            result.kinds["a set fact again the same day"] += 1
        elif fact not in focus and any(same_fact(fact, f) for f in focus):
            result.kinds["the turnaround of a set fact"] += 1
        if fact in mastered_before:
            result.kinds["a set fact already mastered"] += 1
        done_today.add(fact)
        if in_month:
            result.focus_answers += fact in focus
        if fact in TABLE_FACTS:
            record = FactAnswer(*fact, answer.correct, answer.elapsed_ms, day, answer.times_recall)
            child.answers.append(record)
            by_fact[fact].append(record)


def pretest(children, by_fact, universe, day) -> None:
    """Every child answers each fact once the week before (what the working set starts from)."""
    for child, mine in zip(children, by_fact, strict=True):
        clock = day_seconds(day) + HOMEWORK_START_S
        for fact in universe:
            outcome = child.player.answer(fact, clock)
            record = FactAnswer(*fact, outcome.correct, outcome.elapsed_ms, day)
            child.answers.append(record)
            mine[fact].append(record)
            clock += outcome.elapsed_ms / 1000 + 5


def run_way(config: Config, way: str) -> Result:
    """One way of practising, a class of ``config.children``, day by day until 80 % of the
    (child, fact) pairs are mastered after the month, or the cap."""
    started = time.perf_counter()
    universe = table_facts()
    run = ways.Run(config.seed, config.answers_per_day, universe)
    result = Result(way)
    children = make_class(config, universe)
    by_fact = [defaultdict(list) for _ in children]
    pretest(children, by_fact, universe, FIRST_DAY - datetime.timedelta(days=3))
    table_sizes = Counter(fact[0] for fact in universe)
    for number, day in enumerate(ways.days(FIRST_DAY, config.cap_days)):
        in_month = number < config.month_days
        shared = ways.class_deals(run, number) if way == ways.CLASS_WIDE else None
        for index, child in enumerate(children):
            clock = day_seconds(day) + HOMEWORK_START_S
            if way == ways.CLASS_WIDE:
                answers = ways.class_day(run, child, shared, clock)
                focus = []
                if in_month:  # the set the child would have had, for the focus share
                    focus = ways.working_set_focus(run, child, day)
            else:
                answers, focus = {
                    ways.PERSONAL: ways.personal_day,
                    ways.DRILL: ways.drill_day,
                    ways.ROTATION: ways.rotation_day,
                }[way](run, child, index, number, day, clock)
            _record(child, by_fact[index], answers, day, focus, result, in_month)
            result.answers += len(answers)
            result.kinds["answers"] += len(answers)
            if in_month:
                result.month_answers += len(answers)
        by_table: Counter = Counter()
        for mine in by_fact:
            for fact in universe:
                by_table[fact[0]] += mastered(mine.get(fact, []), day)
        for operation, count in table_sizes.items():
            result.table_mastered_by_day[operation].append(
                by_table[operation] / (len(children) * count)
            )
        share = sum(by_table.values()) / (len(children) * len(universe))
        result.mastered_by_day.append(share)
        result.answers_by_day.append(result.answers)
        if config.progress and (number + 1) % 20 == 0:
            print(
                f"{config.model} seed {config.seed} {way}: day {number + 1}, {share:.2f} mastered"
                f" ({time.perf_counter() - started:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
        if result.answers_to_line is None and share >= MASTERED_SHARE:
            result.answers_to_line, result.days_to_line = result.answers, number + 1
        if number + 1 >= config.month_days and result.answers_to_line is not None:
            break
    last = ways.days(FIRST_DAY, len(result.mastered_by_day))[-1]
    for mine in by_fact:
        for fact in universe:
            reason = shortfall(mine.get(fact, []), last)
            if reason is not None:
                result.shortfalls[fact[0], reason] += 1
    result.seconds = time.perf_counter() - started
    return result


def _describe(config: Config, result: Result) -> list[str]:
    reached = (
        f"80 % on school day {result.days_to_line}, after {result.answers_to_line} answers"
        if result.days_to_line
        else f"80 % not reached in {len(result.mastered_by_day)} school days"
    )
    by_month = " ".join(f"{s:.2f}" for s in result.mastered_by_day[19::20])
    answers = max(1, result.kinds["answers"])
    where = ", ".join(
        f"{kind} {count / answers:.2f}"
        for kind, count in sorted(result.kinds.items())
        if kind != "answers"
    )
    # A game whose answers are mostly no table fact (a difference, a quotient) spends the day
    # on nothing the tables count: each way's mix of games is part of what it teaches.
    off = result.off_table_by_game
    games = ", ".join(
        f"{game or 'flash cards'} {count / answers:.2f} ({off[game] / count:.2f})"
        for game, count in result.by_game.most_common()
    )
    missed = ", ".join(
        f"{count} {operation} {reason}"
        for (operation, reason), count in sorted(result.shortfalls.items())
    )
    return [
        f"  {result.way}: {reached}; mastered by month {by_month or '-'} ({result.seconds:.0f} s)",
        f"    answers on: {where or '-'}",
        f"    answers by game (of them not a table fact): {games or '-'}",
        f"    (child, fact) pairs not mastered at the end: {missed or 'none'}",
    ]


def report(config: Config, results: dict[str, Result]) -> list[str]:
    personal, rotation = results[ways.PERSONAL], results[ways.ROTATION]
    drill, class_wide = results[ways.DRILL], results[ways.CLASS_WIDE]
    lines = [
        f"model {config.model} ({MODEL_NAMES[config.model]}), seed {config.seed}: a class of "
        f"{config.children}, {config.answers_per_day} answers a day each, up to "
        f"{config.cap_days} school days"
    ]
    for way in ways.WAYS:
        lines += _describe(config, results[way])
    for share in LOWER_LINES:
        lines.append(
            f"  answers to {share:.0%}: personal {personal.to(share)}, rotation "
            f"{rotation.to(share)}, drill {drill.to(share)}, class-wide {class_wide.to(share)}"
        )
    lines += [
        f"answers to 80 %: personal {personal.to(MASTERED_SHARE)}, rotation "
        f"{rotation.to(MASTERED_SHARE)}, drill {drill.to(MASTERED_SHARE)}, class-wide "
        f"{class_wide.to(MASTERED_SHARE)}",
        f"focus share: personal {personal.focus_share:.2f}, class-wide "
        f"{class_wide.focus_share:.2f}",
        f"answers to mastery: personal {personal.to(MASTERED_SHARE)}, class-wide "
        f"{class_wide.to(MASTERED_SHARE)}",
    ]
    return lines


def _one(job: tuple[Config, str]) -> tuple[Config, str, Result]:
    config, way = job
    return config, way, run_way(config, way)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.practice_bench", description=__doc__)
    parser.add_argument("--small", action="store_true", help="a tiny class for a quick check")
    parser.add_argument("--seeds", default="1", help="comma-separated seeds (default 1)")
    parser.add_argument(
        "--models", default=",".join(MODELS), help=f"comma-separated, of {', '.join(MODELS)}"
    )
    parser.add_argument("--ways", default=",".join(ways.WAYS), help="comma-separated ways")
    parser.add_argument("--children", type=int)
    parser.add_argument("--cap-days", type=int)
    parser.add_argument("--jobs", type=int, default=1, help="processes to run the ways in")
    parser.add_argument("--progress", action="store_true", help="report every 20 school days")
    args = parser.parse_args(argv)
    base = SMALL if args.small else Config()
    base = replace(base, progress=args.progress)
    if args.children:
        base = replace(base, children=args.children)
    if args.cap_days:
        base = replace(base, cap_days=args.cap_days)
    chosen = args.ways.split(",")
    configs = [
        replace(base, seed=int(seed), model=model)
        for model in args.models.split(",")
        for seed in args.seeds.split(",")
    ]
    # The longest first (the ways that run the whole year), so that the processes end together.
    longest = (ways.ROTATION, ways.CLASS_WIDE, ways.PERSONAL, ways.DRILL)
    jobs = [(c, way) for way in longest for c in configs if way in chosen]
    results: dict[Config, dict[str, Result]] = defaultdict(dict)

    def done(config: Config, way: str, result: Result) -> None:
        # Each model and seed is printed as soon as its ways are run.
        results[config][way] = result
        if len(results[config]) == sum(job[0] == config for job in jobs):
            mine = results[config]
            for other in ways.WAYS:
                mine.setdefault(other, Result(other))
            print("\n".join(report(config, mine)), flush=True)

    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs, initializer=django_setup) as pool:
            for future in as_completed([pool.submit(_one, job) for job in jobs]):
                done(*future.result())
    else:
        for job in jobs:
            done(*_one(job))
    return 0
