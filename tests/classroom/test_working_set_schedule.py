"""The working set's schedule (issue 47): which facts a child's few places go to, and when a
fact comes back. Pure functions of the child's answers: no database."""

import datetime

from classroom.practice.working_set import (
    INTERVALS,
    LEARNING_MAX,
    FactAnswer,
    dealable_facts,
    working_set,
    working_set_for_games,
)

DAY = datetime.date(2026, 3, 2)


def days(n: int) -> datetime.timedelta:
    return datetime.timedelta(days=n)


def facts(items):
    return [(item.operation, item.first, item.second) for item in items]


def right(fact, day, ms=1500):
    return FactAnswer(*fact, True, ms, day)


def wrong(fact, day):
    return FactAnswer(*fact, False, 2500, day)


def test_a_mastered_fact_comes_back_after_the_longest_interval():
    """Once its latest answers make a fact Mastered (five right, quick, on two days or more), a
    review before 30 days would change nothing on the grids: it comes back after the longest
    interval, not the next box's (reviews took half of all answers, most on mastered facts)."""
    fact = ("add", 6, 7)
    answers = [right(fact, DAY), right(fact, DAY + days(1))]
    answers += [right(fact, DAY + days(4)) for _ in range(3)]
    longest = DAY + days(4) + days(INTERVALS[-1])
    assert fact not in facts(working_set(answers, DAY + days(4) + days(INTERVALS[2])).items)
    assert fact not in facts(working_set(answers, longest - days(1)).items)
    [review] = working_set(answers, longest).reviews
    assert review.reason.startswith("mastered, due for its monthly review: last right and quick")
    # Not yet mastered (two answers only): the next box's interval, as before.
    short = answers[:2] + answers[2:3]
    assert facts(working_set(short, DAY + days(4) + days(INTERVALS[2])).reviews) == [fact]


def test_a_slip_takes_a_mastered_fact_back_to_learning():
    fact = ("mul", 7, 8)
    answers = [right(fact, DAY), right(fact, DAY + days(1))]
    answers += [right(fact, DAY + days(4)) for _ in range(3)]
    answers.append(wrong(fact, DAY + days(40)))
    found = working_set(answers, DAY + days(41))
    assert facts(found.learning) == [fact]


AOM = dealable_facts([("add_or_multiply", "to_ten")])
SUM = dealable_facts([("sum", "standard")])


def test_facts_being_learned_are_taken_hardest_to_deal_first_then_in_family_order():
    """Taken by when they were last met, a fact the deals had missed fell behind those they had
    dealt, and facts only one game can deal starved. Each game's learning places go first to the
    facts the other games cannot deal, then in family order, however long ago the slip."""
    old_slip = wrong(("add", 0, 3), DAY - days(20))  # plus zero: only Add or Multiply? deals it
    yesterday = [
        wrong(fact, DAY - days(1))
        for fact in [
            ("add", 8, 7),  # bridging ten: Add or Multiply? alone
            ("add", 6, 4),  # making ten (10 is no SUM centre card)
            ("add", 9, 9),  # a double past 9
            ("add", 2, 5),  # plus two: both games
            ("add", 2, 2),  # a double: both games
            ("add", 1, 3),  # plus one: both games
        ]
    ]
    found = working_set_for_games([old_slip, *yesterday], DAY, [AOM, SUM])
    assert facts(found.learning) == [
        # Add or Multiply?'s places: the facts only it deals, in family order.
        ("add", 0, 3),
        ("add", 9, 9),
        ("add", 6, 4),
        # SUM's: the facts it deals, in family order.
        ("add", 1, 3),
        ("add", 2, 2),
        ("add", 2, 5),
    ]
    assert len(found.learning) == 2 * LEARNING_MAX


def test_a_fact_being_learned_whose_turnaround_is_right_and_quick_comes_back_as_a_review():
    """A fact and its turnaround are one combination to a child (Baroody & Gannon 1984; Rickard,
    Healy & Bourne 1994): 4 + 3 right and quick is no longer a fact to learn in 3 + 4. It is
    reviewed in its own order, since the grids read each order's own answers."""
    fact, turned = ("add", 3, 4), ("add", 4, 3)
    answers = [wrong(fact, DAY), right(turned, DAY + days(1))]
    found = working_set(answers, DAY + days(2))
    assert fact not in facts(found.learning)
    assert fact in facts(found.reviews)
    review = found.reviews[facts(found.reviews).index(fact)]
    assert review.reason.startswith("due for review: right and quick as 4 + 3 on ")
    # A slow or wrong turnaround is no such evidence; nor is one on the same day as a slip.
    for other in (FactAnswer(*turned, True, 6000, DAY + days(1)), wrong(turned, DAY + days(1))):
        assert fact in facts(working_set([answers[0], other], DAY + days(2)).learning)
    same_day = [wrong(fact, DAY + days(1)), right(turned, DAY + days(1))]
    assert fact in facts(working_set(same_day, DAY + days(2)).learning)


def test_the_new_reasons_are_in_spanish():
    from django.utils import translation

    fact, turned = ("add", 3, 4), ("add", 4, 3)
    mastered = [right(fact, DAY), right(fact, DAY + days(1))]
    mastered += [right(fact, DAY + days(4)) for _ in range(3)]
    with translation.override("es"):
        [monthly] = working_set(mastered, DAY + days(34)).reviews
        assert monthly.reason.startswith("dominada, toca su repaso mensual: bien y rápido")
        placed = working_set([wrong(fact, DAY), right(turned, DAY + days(1))], DAY + days(2))
        review = placed.reviews[facts(placed.reviews).index(fact)]
        assert review.reason.startswith("toca repasar: bien y rápido como 4 + 3 el ")
