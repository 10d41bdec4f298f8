"""The simulated learner of the practice benchmark: how a child's recall of one arithmetic fact
grows with practice, fades with time and gives way to counting (docs/capacity.md, "Personal
practice against class-wide homework", gives the model with its sources).

Kept apart from the product (tools/ is imported by nothing in it), so the product's working set
is never tuned to this model: the bench only feeds the model's answers back as ``FactAnswer``s.

Memory (ACT-R base-level learning with the spacing mechanism of Pavlik & Anderson 2005):
each right answer leaves a trace; the fact's activation at time t is

    m(t) = ln( sum_j w_j * age_j(t) ** -d_j ),   d_j = C * exp(m(t_j)) + ALPHA

so a trace laid down while the fact is still active (massed practice) decays faster than one laid
down after a gap (the spacing effect, Cepeda et al. 2006). Ages between sessions are scaled by
``H`` (Pavlik & Anderson 2008: time between sessions counts for less than time within one).

Strategy choice (Siegler & Shrager 1984): the child first tries to retrieve the answer; the
retrieval succeeds with probability 1 / (1 + exp((TAU - m) / S)) and then takes
``RECALL_FIXED_S + LATENCY_F * exp(-m)`` seconds (ACT-R's latency law; about 1-2 s for a known
fact); it gives a wrong answer with ``RECALL_SLIP``. When retrieval fails the child counts
(the min strategy, Groen & Parkman 1972): ``COUNT_FIXED_S`` plus ``COUNT_STEP_S[operation]`` per
step, the steps being the smaller addend (multiplier, subtrahend or difference), each step right
with ``COUNT_STEP_RIGHT``. A counted right answer leaves a weaker trace (``COUNTED_WEIGHT``:
counting strengthens the answer's association, Siegler & Shrager, but less than stating it from
memory), so recall improves more slowly while the child counts; a wrong answer leaves none.

A sum or product and its turnaround (3 + 4, 4 + 3) are one memory (``combination``): practice on
one order transfers fully to the other (Rickard, Healy & Bourne, "On the cognitive structure of
basic arithmetic skills: operation, order, and symbol transfer effects", *Journal of
Experimental Psychology: Learning, Memory, and Cognition* 20(5), 1994), and young children soon
disregard addend order (Baroody & Gannon, "The development of the commutativity principle and
economical addition strategies", *Cognition and Instruction* 1(3), 1984).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

# Pavlik & Anderson (2005), fitted to paired-associate practice and forgetting.
C = 0.217  # decay's growth with the activation at the time of practice
ALPHA = 0.177  # the decay's floor
TAU = -0.704  # retrieval threshold
S = 0.255  # activation noise: how sharply recall turns on around TAU
H = 0.025  # Pavlik & Anderson (2008): weight of time between sessions against time within one
LATENCY_F = 1.0  # seconds: retrieval latency scale (a known fact in 1-2 s)
RECALL_FIXED_S = 0.8  # reading the problem and giving the answer
RECALL_SLIP = 0.03  # a retrieved answer that is the wrong one (a neighbour in the table)

# Counting (Groen & Parkman 1972: about 0.4 s a count for young children; skip-counting a
# times-table step takes about twice that).
COUNT_FIXED_S = 1.5
COUNT_STEP_S = {"add": 0.4, "sub": 0.5, "mul": 0.9}
COUNT_STEP_RIGHT = 0.98
COUNTED_WEIGHT = 0.5

MIN_AGE_S = 1.0
DAY_S = 86_400


@dataclass
class Trace:
    time_s: float
    weight: float
    decay: float


@dataclass
class Outcome:
    correct: bool
    elapsed_ms: int
    retrieved: bool


def combination(fact: tuple[str, int, int]) -> tuple[str, int, int]:
    """The memory a fact is recalled from: one for a sum or product and its turnaround (3 + 4
    and 4 + 3), after Rickard, Healy & Bourne's identical-elements model (1994, below); a
    difference is its own."""
    operation, a, b = fact
    return (operation, min(a, b), max(a, b)) if operation in ("add", "mul") else fact


def steps(operation: str, a: int, b: int) -> int:
    """The counts the min strategy takes: the smaller addend or factor, or for a difference the
    smaller of counting down the subtrahend and counting up the difference."""
    if operation == "sub":
        return max(0, min(abs(b), abs(a - b)))
    return max(0, min(abs(a), abs(b)))


@dataclass
class FactMemory:
    traces: list[Trace] = field(default_factory=list)

    def activation(self, now_s: float) -> float:
        total = 0.0
        for trace in self.traces:
            age = now_s - trace.time_s
            if int(now_s // DAY_S) != int(trace.time_s // DAY_S):
                age *= H
            total += trace.weight * max(age, MIN_AGE_S) ** -trace.decay
        return math.log(total) if total > 0 else -math.inf

    def practise(self, now_s: float, weight: float = 1.0) -> None:
        m = self.activation(now_s)
        decay = C * math.exp(m) + ALPHA if m > -math.inf else ALPHA
        self.traces.append(Trace(now_s, weight, decay))


def recall_probability(activation: float) -> float:
    if activation == -math.inf:
        return 0.0
    return 1.0 / (1.0 + math.exp((TAU - activation) / S))


def recall_seconds(activation: float) -> float:
    return RECALL_FIXED_S + LATENCY_F * math.exp(-activation)


def count_seconds(operation: str, a: int, b: int) -> float:
    return COUNT_FIXED_S + COUNT_STEP_S.get(operation, COUNT_STEP_S["add"]) * steps(operation, a, b)


class Learner:
    """One simulated child: a memory per fact, answering facts at given times."""

    model = "act-r"

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.memory: dict[tuple[str, int, int], FactMemory] = {}

    def prime(self, fact: tuple[str, int, int], times_s: list[float], exposures: float) -> None:
        """Practice before the bench's first day: ``exposures`` in all, spread over ``times_s``."""
        for time_s in times_s:
            self.fact(fact).practise(time_s, exposures / len(times_s))

    def fact(self, fact: tuple[str, int, int]) -> FactMemory:
        key = combination(fact)
        if key not in self.memory:
            self.memory[key] = FactMemory()
        return self.memory[key]

    def answer(self, fact: tuple[str, int, int], now_s: float) -> Outcome:
        memory = self.fact(fact)
        m = memory.activation(now_s)
        if self.rng.random() < recall_probability(m):
            correct = self.rng.random() >= RECALL_SLIP
            seconds = recall_seconds(m)
            if correct:
                memory.practise(now_s, 1.0)
            return Outcome(correct, round(seconds * 1000), retrieved=True)
        operation, a, b = fact
        correct = self.rng.random() < COUNT_STEP_RIGHT ** steps(operation, a, b)
        seconds = count_seconds(operation, a, b)
        if correct:
            memory.practise(now_s, COUNTED_WEIGHT)
        return Outcome(correct, round(seconds * 1000), retrieved=False)
