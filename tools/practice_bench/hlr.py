"""The bench's second model of a child: memory by Half-Life Regression.

Settles, B. & Meeder, B. (2016). "A trainable spaced repetition model for language learning".
*Proceedings of the 54th Annual Meeting of the Association for Computational Linguistics* (ACL),
1848-1858. https://doi.org/10.18653/v1/P16-1174

Written apart from ``learner`` (ACT-R after Pavlik & Anderson 2005) and unlike it: the chance of
recalling a fact falls exponentially with the time since it was last practised,

    p = 2 ** (-lag / h),        h = 2 ** (theta . x)   (days),

and its half-life ``h`` grows with the fact's history alone, the features ``x`` being those of the
paper's model: a bias, sqrt(1 + right answers) and sqrt(1 + wrong answers), ``h`` clipped to
15 minutes .. 274 days as in its code. So, unlike ACT-R, every right answer counts the same
whenever it was given: answers massed in one sitting build memory as much as answers spread
over days. The weights here are chosen, not fitted (the paper fits them to Duolingo's language
learners): a fact practised 5 times right has a half-life of about a day, 10 times about a week,
20 times a couple of months, within the range the paper reports. Each child has their own speed
(``speed`` scales the weight of right answers: how much a right answer lengthens the half-life)
and their own pace (how long they take to answer).

A recalled answer takes ``RECALL_FIXED_S + RECALL_LATENCY_S * (1 - p)`` seconds times the
child's pace and some noise (surer facts come quicker), and is the wrong one with
``RECALL_SLIP``; when recall fails the child counts, as in ``learner`` (Groen & Parkman 1972's
min strategy; ``learner.count_seconds``, ``learner.steps``). Every answer, recalled or
counted, right or wrong, updates the history as the paper's counts do. A sum or product and its
turnaround share one history (``learner.combination``: Rickard, Healy & Bourne 1994).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from tools.practice_bench.learner import (
    COUNT_STEP_RIGHT,
    DAY_S,
    Outcome,
    combination,
    count_seconds,
    steps,
)

THETA_BIAS = -6.6
THETA_RIGHT = 2.7
THETA_WRONG = -0.7
MIN_HALF_LIFE_DAYS = 15 / (24 * 60)  # the paper's code: 15 minutes
MAX_HALF_LIFE_DAYS = 274.0  # and 9 months
RECALL_FIXED_S = 0.8
RECALL_LATENCY_S = 2.5
RECALL_SLIP = 0.03
TIME_NOISE = 0.2  # the sigma of a lognormal factor on every answer's time
SPEEDS = (0.8, 1.25)  # a child's speed is drawn between these
PACES = (0.85, 1.2)  # and their pace


@dataclass
class History:
    right: int = 0
    wrong: int = 0
    last_s: float | None = None

    def half_life_days(self, speed: float) -> float:
        exponent = (
            THETA_BIAS
            + THETA_RIGHT * speed * math.sqrt(1 + self.right)
            + THETA_WRONG * math.sqrt(1 + self.wrong)
        )
        return min(MAX_HALF_LIFE_DAYS, max(MIN_HALF_LIFE_DAYS, 2.0**exponent))

    def recall_probability(self, now_s: float, speed: float) -> float:
        if self.last_s is None:
            return 0.0
        lag_days = max(0.0, now_s - self.last_s) / DAY_S
        return 2.0 ** (-lag_days / self.half_life_days(speed))


class HlrLearner:
    """One simulated child under Half-Life Regression: a history per fact."""

    model = "hlr"

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.speed = rng.uniform(*SPEEDS)
        self.pace = rng.uniform(*PACES)
        self.memory: dict[tuple[str, int, int], History] = {}

    def history(self, fact: tuple[str, int, int]) -> History:
        key = combination(fact)
        if key not in self.memory:
            self.memory[key] = History()
        return self.memory[key]

    def prime(self, fact: tuple[str, int, int], times_s: list[float], exposures: float) -> None:
        """Practice before the bench's first day: ``exposures`` right answers, the last at the
        last of ``times_s``."""
        if not times_s:
            return
        history = self.history(fact)
        history.right += round(exposures)
        history.last_s = max(times_s)

    def answer(self, fact: tuple[str, int, int], now_s: float) -> Outcome:
        history = self.history(fact)
        p = history.recall_probability(now_s, self.speed)
        noise = math.exp(self.rng.gauss(0.0, TIME_NOISE)) * self.pace
        if self.rng.random() < p:
            correct = self.rng.random() >= RECALL_SLIP
            seconds = (RECALL_FIXED_S + RECALL_LATENCY_S * (1 - p)) * noise
            retrieved = True
        else:
            operation, a, b = fact
            correct = self.rng.random() < COUNT_STEP_RIGHT ** steps(operation, a, b)
            seconds = count_seconds(operation, a, b) * noise
            retrieved = False
        if correct:
            history.right += 1
        else:
            history.wrong += 1
        history.last_s = now_s
        return Outcome(correct, round(seconds * 1000), retrieved=retrieved)
