"""A child's working set: the few table facts to practise now (docs/progress.md, "The working
set: what each child practises next", gives the reasons and sources).

Each fact (``(operation, a, b)`` as ``classroom.progress.mastery`` names it: 3 + 4 and 4 + 3 are
two facts) sits in a Leitner box, replayed day by day from the child's answers:

- a day with a wrong answer on the fact is a *slip*: the fact goes back to the first box and is
  *being learned* (it comes back the next day);
- a day whose answers are all right, one of them fluent (``mastery.is_fluent``: right within
  ``FLUENT_MS``), on or after the day the fact was due, moves it up one box; it then comes back
  after ``INTERVALS[box - 1]`` days: 1, 3, 7, 14, then every 30 days. Answering before it is due
  changes nothing (an early review does little for retention);
- a day of right but slow answers keeps the fact where it is, due again the next day.

The set holds at most ``LEARNING_MAX`` facts being learned (those the fewest of the games can deal
first, then in family order), at most ``REVIEWS_MAX`` reviews that are due (the longest overdue
first) and new facts, in family order, only into the learning places left free, at most
``NEW_MAX`` a day. A fact answered right and quick is placed in the first review box the day it
is met, not introduced as new; a fact being learned whose turnaround is right and quick moves
there too (``fact_states``).

Slow right answers in a game whose times hold more than recall (``engine.Game.times_recall``)
neither promote nor hold back a fact: ``mastery.counts_for_fluency`` says so, as on the grids.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from django.utils import formats
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

import engine
from accounts.bidi import ltr
from classroom.progress.mastery import (
    RECENT_ANSWERS,
    TABLES,
    Level,
    Mastery,
    counts_for_fluency,
    is_fluent,
)

# Days until a fact comes back after its first, second, ... fluent day (expanding intervals).
INTERVALS = (1, 3, 7, 14, 30)
LEARNING_MAX = 3
REVIEWS_MAX = 8
NEW_MAX = 2
# Slips counted in a learning fact's reason: the week ending on the day the set is read.
WEEK_DAYS = 7

SIGNS = {table.operation: table.sign for table in TABLES}
NUMBERS = {table.operation: table.numbers for table in TABLES}

LEARNING = "learning"
REVIEW = "review"
NEW = "new"
KNOWN = "known"  # in a box, its review not yet due: not in the set, but a teacher may choose it


class FactAnswer(NamedTuple):
    operation: str  # "add" or "mul", as Attempt.operation
    first: int
    second: int
    correct: bool
    elapsed_ms: int
    day: datetime.date
    times_recall: bool = True


# --- the order new facts come in -----------------------------------------------------------------


def _add_family(a: int, b: int) -> int:
    """Addition: the facts a rule or a known fact gives first, bridging ten last."""
    if 0 in (a, b):
        return 0
    if 1 in (a, b):
        return 1
    if a == b:
        return 2
    if 2 in (a, b):
        return 3
    if 10 in (a, b):
        return 4
    if a + b == 10:
        return 5
    if abs(a - b) == 1:
        return 6
    if a + b < 10:
        return 7
    return 8


ADD_FAMILIES = (
    pgettext_lazy("fact family", "plus zero"),
    pgettext_lazy("fact family", "plus one"),
    pgettext_lazy("fact family", "doubles"),
    pgettext_lazy("fact family", "plus two"),
    pgettext_lazy("fact family", "plus ten"),
    pgettext_lazy("fact family", "making ten"),
    pgettext_lazy("fact family", "near doubles"),
    pgettext_lazy("fact family", "sums up to ten"),
    pgettext_lazy("fact family", "bridging ten"),
)

# Multiplication: the skip-counts children know (twos, tens, fives) first, then the factors a
# known fact gives (x1, x3 from x2, x4 as double x2, x9 from x10), squares, and x6, x7, x8 last.
MUL_ORDER = (2, 10, 5, 1, 3, 4, 9, 6, 7, 8)
MUL_FAMILIES = {
    2: pgettext_lazy("fact family", "twos"),
    10: pgettext_lazy("fact family", "tens"),
    5: pgettext_lazy("fact family", "fives"),
    1: pgettext_lazy("fact family", "ones"),
    3: pgettext_lazy("fact family", "threes"),
    4: pgettext_lazy("fact family", "fours"),
    9: pgettext_lazy("fact family", "nines"),
    6: pgettext_lazy("fact family", "sixes"),
    7: pgettext_lazy("fact family", "sevens"),
    8: pgettext_lazy("fact family", "eights"),
}


def _mul_factor(a: int, b: int) -> int:
    """The factor whose family a product belongs to: the earlier of its two in ``MUL_ORDER``."""
    return min((a, b), key=MUL_ORDER.index)


def family(operation: str, a: int, b: int) -> str:
    if operation == "add":
        return str(ADD_FAMILIES[_add_family(a, b)])
    return str(MUL_FAMILIES[_mul_factor(a, b)])


def _order_key(operation: str, a: int, b: int) -> tuple:
    rank = _add_family(a, b) if operation == "add" else MUL_ORDER.index(_mul_factor(a, b))
    # Within a family: small numbers first, and a fact before its turnaround.
    return (rank, max(a, b), a + b, -a)


def new_fact_order(operation: str) -> list[tuple[str, int, int]]:
    numbers = NUMBERS[operation]
    facts = [(operation, a, b) for a in numbers for b in numbers]
    return sorted(facts, key=lambda fact: _order_key(*fact))


def table_facts() -> list[tuple[str, int, int]]:
    """Every table fact: the addition table's, then the times table's, row by row."""
    return [(t.operation, a, b) for t in TABLES for a in t.numbers for b in t.numbers]


def dealable_facts(games: Iterable[tuple[str, str]]) -> frozenset[tuple[str, int, int]]:
    """The table facts a focused deal of one of ``games`` ((game slug, variant) pairs) can steer
    toward (``engine.core.Focus.dealable``): the ``dealable`` to ask a working set for when
    those games will deal it. ¡Mía!'s cards hold no 0 and SUM's centre card is 1 to 9, so
    neither can deal 0 + 5 or 3 x 4: a set offering those would be left to chance."""
    facts = table_facts()
    found: set[tuple[str, int, int]] = set()
    for slug, variant in games:
        focus = engine.get_game(slug).focus
        if focus is not None:
            found |= focus.dealable(variant, facts)
    return frozenset(found)


# --- the boxes -----------------------------------------------------------------------------------


@dataclass
class FactState:
    box: int = 0  # 0: being learned; n: came back fluently on n due days
    due: datetime.date | None = None
    last_fluent: datetime.date | None = None
    slips_this_week: int = 0
    last_slip: datetime.date | None = None
    last_answered: datetime.date | None = None
    # Mastered (``mastery``'s rule over its latest answers) when it last moved up: it then comes
    # back after the longest interval, the grids' review line.
    mastered: bool = False
    # The day its turnaround (4 + 3 for 3 + 4) was right and quick while it was being learned,
    # which moved it to the first box; None once its own answers move it.
    turned: datetime.date | None = None


def _day_outcome(answers: list[FactAnswer]) -> str:
    if any(not answer.correct for answer in answers):
        return "slip"
    if any(is_fluent(answer.correct, answer.elapsed_ms) for answer in answers):
        return "fluent"
    if any(counts_for_fluency(a.correct, a.elapsed_ms, a.times_recall) for a in answers):
        return "slow"
    return "untimed"  # right, slow, in a game whose times say nothing of recall


def turnaround(fact: tuple) -> tuple | None:
    """The same two numbers the other way round (4 + 3 for 3 + 4), or None (a double)."""
    operation, a, b = fact
    return (operation, b, a) if a != b else None


def fact_states(answers: Iterable[FactAnswer], as_of: datetime.date) -> dict[tuple, FactState]:
    """Each answered fact's box after replaying ``answers`` (up to and including ``as_of``).

    A fact being learned whose turnaround is right and quick on a day the fact itself is not
    answered moves to the first box: the child recalls the combination (docs/progress.md, "A
    fact and its turnaround"). Its reviews are its own."""
    by_fact: dict[tuple, dict[datetime.date, list[FactAnswer]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for answer in answers:
        if answer.day <= as_of:
            by_fact[answer.operation, answer.first, answer.second][answer.day].append(answer)
    week_start = as_of - datetime.timedelta(days=WEEK_DAYS - 1)
    states = {}
    for fact, days in by_fact.items():
        turned = by_fact.get(turnaround(fact), {}) if turnaround(fact) else {}
        state = FactState()
        so_far: list[FactAnswer] = []
        for day in sorted({*days, *turned}):
            if day not in days:
                if so_far and state.box == 0 and _day_outcome(turned[day]) == "fluent":
                    state.box, state.turned, state.last_fluent = 1, day, day
                    state.due = day + datetime.timedelta(days=INTERVALS[0])
                continue
            state.turned = None
            state.last_answered = day
            so_far += days[day]
            outcome = _day_outcome(days[day])
            if outcome == "slip":
                state.box = 0
                state.due = day + datetime.timedelta(days=1)
                state.last_slip = day
                state.mastered = False
                if day >= week_start:
                    state.slips_this_week += sum(not a.correct for a in days[day])
            elif outcome == "fluent":
                state.last_fluent = day
                if state.box == 0 or state.due is None or day >= state.due:
                    state.mastered = _mastered(so_far, day)
                    # A mastered fact comes back after the longest interval: an earlier review
                    # would change nothing on the grids, where it is mastered until 30 days
                    # without an answer.
                    state.box = (
                        len(INTERVALS) if state.mastered else min(state.box + 1, len(INTERVALS))
                    )
                    state.due = day + datetime.timedelta(days=INTERVALS[state.box - 1])
            elif outcome == "slow" and (state.due is None or day >= state.due):
                state.due = day + datetime.timedelta(days=1)
        states[fact] = state
    return states


def _mastered(answers: list[FactAnswer], day: datetime.date) -> bool:
    """Whether ``answers`` (a fact's, oldest first, up to ``day``) make it Mastered by the grids'
    rule (``mastery.Mastery``): its latest answers, the days with a right and quick one."""
    latest = answers[-RECENT_ANSWERS:]
    fluent_days = len({a.day for a in answers if is_fluent(a.correct, a.elapsed_ms)})
    mastery = Mastery.of(
        [(a.correct, a.elapsed_ms, a.times_recall) for a in latest],
        fluent_days=fluent_days,
        last_seen=day,
        as_of=day,
    )
    return mastery.level == Level.MASTERED


def kind_on(state: FactState | None, as_of: datetime.date) -> str:
    """Where a fact stands on ``as_of`` from its box: NEW (never answered), LEARNING, REVIEW
    (due) or KNOWN (its review not yet due)."""
    if state is None:
        return NEW
    if state.box == 0:
        return LEARNING
    if state.due is not None and state.due <= as_of:
        return REVIEW
    return KNOWN


# --- the set -------------------------------------------------------------------------------------


# Why a fact is in a set, as data (``Item.why``, and stored in a personal plan): worded by
# ``reason_text`` when read, in the reader's language, not in that of the request that chose it.
SLIPS = "slips"  # {"count": wrong answers this week}
SLIPPED_ON = "slipped_on"  # {"day": ISO date of the last wrong answer}
NOT_FLUENT = "not_fluent"
DUE = "due"  # {"day": ISO date of the last right and quick answer}
MONTHLY = "monthly"  # mastered, due for its review after the longest interval: {"day": ...}
TURNED = "turned"  # placed by its turnaround, right and quick: {"day": ...}
NEXT_NEW = "next_new"
CHOSEN = "chosen"  # by the teacher ("practise these facts")


def _day(iso: str) -> str:
    return formats.date_format(datetime.date.fromisoformat(iso), "SHORT_DATE_FORMAT")


def reason_text(why: dict, operation: str, first: int, second: int) -> str:
    """Why the fact ``(operation, first, second)`` is in the set, in the active language."""
    code = why.get("code")
    if code == SLIPS:
        count = why["count"]
        return ngettext("wrong once this week", "wrong %(count)s times this week", count) % {
            "count": count
        }
    if code == SLIPPED_ON:
        return _("wrong on %(day)s, not yet right and quick since") % {"day": _day(why["day"])}
    if code == NOT_FLUENT:
        return _("answered, not yet right within 3 seconds")
    if code == DUE:
        return _("due for review: last right and quick on %(day)s") % {"day": _day(why["day"])}
    if code == TURNED:
        return _("due for review: right and quick as %(fact)s on %(day)s") % {
            "fact": ltr(f"{second} {SIGNS[operation]} {first}"),
            "day": _day(why["day"]),
        }
    if code == MONTHLY:
        return _("mastered, due for its monthly review: last right and quick on %(day)s") % {
            "day": _day(why["day"])
        }
    if code == NEXT_NEW:
        return _("next new fact (%(family)s)") % {"family": family(operation, first, second)}
    return _("chosen by the teacher")


@dataclass(frozen=True)
class Item:
    kind: str  # LEARNING, REVIEW or NEW
    operation: str
    first: int
    second: int
    why: dict  # {"code": SLIPS, ...}: see ``reason_text``

    @property
    def reason(self) -> str:
        return reason_text(self.why, self.operation, self.first, self.second)

    @property
    def fact(self) -> str:
        return ltr(f"{self.first} {SIGNS[self.operation]} {self.second}")

    @property
    def text(self) -> str:
        return _("%(fact)s: %(reason)s") % {"fact": self.fact, "reason": self.reason}


@dataclass(frozen=True)
class WorkingSet:
    learning: list[Item]
    reviews: list[Item]
    new: list[Item]
    # For a set for several games (``working_set_for_games``), per game: how many of the facts it
    # can deal the child has still to learn (never answered, being learned or due for review).
    to_learn: tuple[int, ...] = ()

    @property
    def items(self) -> list[Item]:
        return [*self.learning, *self.reviews, *self.new]

    def __bool__(self) -> bool:
        return bool(self.items)


def _learning_why(state: FactState) -> dict:
    if state.slips_this_week:
        return {"code": SLIPS, "count": state.slips_this_week}
    if state.last_slip is not None:
        return {"code": SLIPPED_ON, "day": state.last_slip.isoformat()}
    return {"code": NOT_FLUENT}


def _review_why(state: FactState) -> dict:
    code = TURNED if state.turned else MONTHLY if state.mastered else DUE
    return {"code": code, "day": state.last_fluent.isoformat()}


def working_set(
    answers: Iterable[FactAnswer],
    as_of: datetime.date,
    *,
    dealable: Collection[tuple[str, int, int]] | None = None,
) -> WorkingSet:
    """The child's working set on ``as_of`` from their table-fact answers (any order).

    ``dealable``: the facts ``(operation, a, b)`` the caller's games can deal (``None``: every
    table fact). When given, the set is drawn from those alone: a fact no game can deal is no
    use in a set the games are focused on, and would hold a place a dealable fact could have."""
    return _working_set(fact_states(answers, as_of), as_of, dealable)


def working_set_for_games(
    answers: Iterable[FactAnswer],
    as_of: datetime.date,
    dealables: Sequence[Collection[tuple[str, int, int]]],
) -> WorkingSet:
    """The working set for homework in several games, ``dealables`` the facts each can deal
    (``dealable_facts`` of one game): each game's set among its own facts, merged, a fact once.

    One set over everything the games deal would give its few places to facts that only some of
    them can ask: a ¡Mía! puzzle shows sums of 4 to 13, and beside Add or Multiply? to 10 (every
    table fact) it would be left, on average, one fact of seven it can show, the rest of its
    claims to chance. So each game's items are focused on the set among the facts it can ask; a
    fact is the same fact, in the same box, in every set that holds it. ``to_learn`` says, per
    game, how many of its facts the child has still to learn (personal practice gives a child's
    items to the games in that proportion)."""
    states = fact_states(answers, as_of)
    # How many of the games can deal each fact: a game's learning places go first to the facts
    # the others cannot deal.
    dealt_by: dict[tuple, int] = defaultdict(int)
    for dealable in dealables:
        for fact in dealable:
            dealt_by[tuple(fact)] += 1
    sets = [_working_set(states, as_of, dealable, dealt_by) for dealable in dealables]

    def merged(items: Iterable[Item]) -> list[Item]:
        first_of_each: dict[tuple, Item] = {}
        for item in items:
            first_of_each.setdefault((item.operation, item.first, item.second), item)
        return list(first_of_each.values())

    return WorkingSet(
        learning=merged(i for found in sets for i in found.learning),
        reviews=merged(i for found in sets for i in found.reviews),
        new=merged(i for found in sets for i in found.new),
        to_learn=tuple(
            sum(kind_on(states.get(tuple(fact)), as_of) != KNOWN for fact in dealable)
            for dealable in dealables
        ),
    )


def _working_set(
    states: dict[tuple, FactState],
    as_of: datetime.date,
    dealable: Collection[tuple[str, int, int]] | None,
    dealt_by: dict[tuple, int] | None = None,
) -> WorkingSet:
    answered_operations = {fact[0] for fact in states}
    if dealable is not None:
        dealable = frozenset(tuple(fact) for fact in dealable)
        states = {fact: state for fact, state in states.items() if fact in dealable}
    # The facts being learned now: those the fewest of the games can deal first (each game's
    # places go to the facts only it can ask), then in family order, as new facts come. Taken by
    # when they were last met, a fact the deals missed would fall behind those they dealt, and
    # the facts hardest to deal would never be taken.
    dealt_by = dealt_by or {}
    in_learning = sorted(
        (fact for fact, state in states.items() if state.box == 0),
        key=lambda fact: (dealt_by.get(fact, 1), _order_key(*fact), fact[0]),
    )[:LEARNING_MAX]
    due = sorted(
        (
            fact
            for fact, state in states.items()
            if state.box > 0 and state.due is not None and state.due <= as_of
        ),
        key=lambda fact: (states[fact].due, fact[0], _order_key(*fact)),
    )[:REVIEWS_MAX]
    # New facts in the tables the child plays (the first table with a dealable fact when there
    # is none yet: addition).
    tables = [
        table.operation
        for table in TABLES
        if dealable is None or any(fact[0] == table.operation for fact in dealable)
    ]
    operations = [operation for operation in tables if operation in answered_operations]
    candidates = sorted(
        (
            fact
            for operation in operations or tables[:1]
            for fact in new_fact_order(operation)
            if fact not in states and (dealable is None or fact in dealable)
        ),
        key=lambda fact: (_order_key(*fact), fact[0]),
    )
    new = candidates[: min(NEW_MAX, LEARNING_MAX - len(in_learning))]
    return WorkingSet(
        learning=[Item(LEARNING, *fact, _learning_why(states[fact])) for fact in in_learning],
        reviews=[Item(REVIEW, *fact, _review_why(states[fact])) for fact in due],
        new=[Item(NEW, *fact, {"code": NEXT_NEW}) for fact in new],
    )
