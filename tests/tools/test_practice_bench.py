"""The practice benchmark (tools/practice_bench): its models of a child keep the properties they
document, and a tiny class run through the real entry point prints each model's lines.
The figures themselves are the benchmark's to report (docs/capacity.md), not a test's."""

from __future__ import annotations

import datetime
import os
import random
import re
import subprocess
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import pytest

from classroom.practice import services as practice
from classroom.practice.working_set import working_set_for_games
from tools.practice_bench import bench, ways
from tools.practice_bench.hlr import HlrLearner
from tools.practice_bench.learner import (
    DAY_S,
    FactMemory,
    Learner,
    count_seconds,
    recall_probability,
    recall_seconds,
)

ROOT = Path(__file__).resolve().parents[2]
ANSWERS = 400


def _practised(times: int, *, every_s: float = 30, weight: float = 1.0) -> FactMemory:
    memory = FactMemory()
    for j in range(times):
        memory.practise(j * every_s, weight)
    return memory


def test_recall_improves_with_practice():
    activations = [_practised(n).activation(DAY_S) for n in (1, 3, 10, 30)]
    assert activations == sorted(activations) and activations[0] < activations[-1]
    chances = [recall_probability(m) for m in activations]
    assert chances == sorted(chances) and chances[-1] > chances[0]
    assert recall_seconds(activations[-1]) < recall_seconds(activations[0])


def test_recall_fades_with_time():
    memory = _practised(10)
    later = [memory.activation(t) for t in (600, DAY_S, 7 * DAY_S, 30 * DAY_S)]
    assert later == sorted(later, reverse=True) and later[0] > later[-1]


def test_spaced_practice_lasts_longer_than_massed():
    massed = _practised(6, every_s=10)
    spaced = _practised(6, every_s=DAY_S)
    month_later = 40 * DAY_S
    assert spaced.activation(month_later) > massed.activation(month_later)


def test_counting_is_slower_than_recall_and_slower_for_bigger_numbers():
    known = _practised(30, every_s=DAY_S).activation(31 * DAY_S)
    assert count_seconds("add", 4, 5) > recall_seconds(known)
    assert count_seconds("add", 8, 7) > count_seconds("add", 8, 2)
    assert count_seconds("mul", 7, 8) > count_seconds("add", 7, 8)


def test_counted_answers_build_recall_more_slowly_than_recalled_ones():
    counted = _practised(10, weight=0.5).activation(DAY_S)
    recalled = _practised(10).activation(DAY_S)
    assert counted < recalled


def test_a_learner_counts_an_unknown_fact_and_recalls_a_practised_one():
    learner = Learner(random.Random(3))
    fact = ("add", 8, 7)
    first = [learner.answer(fact, DAY_S * day + 10 * j) for day in range(2) for j in range(1)]
    assert not any(outcome.retrieved for outcome in first)
    for day in range(2, 40):
        for j in range(8):
            learner.answer(fact, DAY_S * day + 10 * j)
    late = [learner.answer(fact, DAY_S * 41 + 10 * j) for j in range(20)]
    assert sum(o.retrieved for o in late) > 10
    quick = [o.elapsed_ms for o in late if o.retrieved]
    assert max(quick) < min(o.elapsed_ms for o in first)


def test_an_hlr_learner_recalls_a_fact_practised_often_and_forgets_with_time():
    learner = HlrLearner(random.Random(5))
    fact = ("mul", 7, 8)
    assert not learner.answer(fact, 0).retrieved  # never met: the child counts
    for j in range(12):
        learner.answer(fact, 60 + 30 * j)
    history = learner.history(fact)
    soon, later = DAY_S, 60 * DAY_S
    assert history.recall_probability(soon, 1.0) > history.recall_probability(later, 1.0)
    assert history.recall_probability(soon, 1.2) > history.recall_probability(soon, 0.9)
    late = [learner.answer(fact, DAY_S + 10 * j) for j in range(10)]
    assert sum(o.retrieved for o in late) >= 7
    assert max(o.elapsed_ms for o in late if o.retrieved) < count_seconds("mul", 7, 8) * 1000


def test_the_bench_prints_each_models_three_lines():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run(
        [sys.executable, "-m", "tools.practice_bench", "--small", "--seeds", "1,2"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    heads = [line for line in lines if line.startswith("model ")]
    assert [line.split(" (")[0] for line in heads] == ["model act-r"] * 2 + ["model hlr"] * 2
    # Each way is described, in order, under each model and seed.
    ways = [line.split(":")[0].strip() for line in lines if re.match(r"  [a-z-]+: ", line)]
    assert ways[:4] == ["personal", "rotation", "drill", "class-wide"]
    # Each way says which games its answers came from, and how many of each game's were no
    # table fact (the drill's are flash cards, every one a table fact).
    by_game = [line for line in lines if line.startswith("    answers by game")]
    assert len(by_game) == 16
    assert all(re.search(r": (\w[\w ]* \d\.\d\d \(\d\.\d\d\)(, |$))+", line) for line in by_game)
    assert "flash cards 1.00 (0.00)" in by_game[2]
    answers = r">?\d+"
    eighty = [line for line in lines if line.startswith("answers to 80 %")]
    assert len(eighty) == 4
    for line in eighty:
        assert re.fullmatch(
            rf"answers to 80 %: personal {answers}, rotation {answers}, drill {answers}, "
            rf"class-wide {answers}",
            line,
        )
    assert all(
        re.fullmatch(r"focus share: personal \d\.\d\d, class-wide \d\.\d\d", line)
        for line in lines
        if line.startswith("focus share")
    )
    assert all(
        re.fullmatch(rf"answers to mastery: personal {answers}, class-wide {answers}", line)
        for line in lines
        if line.startswith("answers to mastery")
    )


@pytest.mark.timeout(300)
def test_the_rotation_is_dealt_as_personal_practice_is_and_deals_every_fact_in_turn():
    """The no-planner rotation is a fair baseline: it differs from personal practice only in which
    facts are asked. Its games get the same items (the product's plan over the facts each game
    can still teach the child, from the same draw), each day's facts are each game's next facts
    of the rotation, and they then go to the back, answered or not, so every table fact comes in
    turn: a fact the deals seldom make cannot hold its place at the front."""
    config = replace(bench.Config(), children=1)
    universe = bench.table_facts()
    run = ways.Run(config.seed, config.answers_per_day, universe)
    (child,) = bench.make_class(config, universe)
    by_fact = defaultdict(list)
    bench.pretest([child], [by_fact], universe, bench.FIRST_DAY - datetime.timedelta(days=3))
    result = bench.Result(ways.ROTATION)
    child.rotation = ways.shuffled(run, 0)
    assert sorted(child.rotation) == sorted(universe)
    had_a_turn: set = set()
    for number, day in enumerate(ways.days(bench.FIRST_DAY, 20)):
        # The two ways' plans for the day, from the draw both ways use for this child and day.
        personal, rotation = (
            practice.set_plan(
                run.choices, facts, practice.MAX_ITEMS, random.Random(f"{run.seed}:0:{number}")
            )
            for facts in (
                working_set_for_games(child.answers, day, run.dealables),
                ways.rotation_set(run, child, day),
            )
        )
        assert rotation.items == personal.items
        front = list(child.rotation)
        clock = bench.day_seconds(day) + bench.HOMEWORK_START_S
        answers, planned = ways.rotation_day(run, child, 0, number, day, clock)
        assert planned == practice.facts_of(rotation.facts)
        for dealable in run.dealables:
            assert set([f for f in front if f in dealable][: ways.ROTATION_FOCUS]) <= set(planned)
        answered = {answer.fact for answer in answers if answer.fact in ways.TABLE_FACTS}
        moved = len(set(planned) | answered)
        assert child.rotation[-moved:][: len(planned)] == planned
        had_a_turn |= set(planned) | answered
        bench._record(child, by_fact, answers, day, planned, result, True)
    # Every fact has had its turn: dealt toward, or answered (which sends it to the back too).
    assert had_a_turn == set(universe)
