"""The working set (classroom.practice): what each child practises next, and why."""

import datetime
import random

import pytest
from django.urls import reverse
from django.utils import timezone

import engine.core
from classroom.practice import services as practice
from classroom.practice.selectors import class_working_sets, student_working_set
from classroom.practice.working_set import (
    INTERVALS,
    LEARNING_MAX,
    REVIEWS_MAX,
    FactAnswer,
    dealable_facts,
    new_fact_order,
    working_set,
    working_set_for_games,
)
from tests.factories import make_attempts, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 2)


def at(day: datetime.date, hour=10) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time(hour), timezone.get_current_timezone())


def days(n: int) -> datetime.timedelta:
    return datetime.timedelta(days=n)


def facts(items):
    return [(item.operation, item.first, item.second) for item in items]


@pytest.fixture
def ana():
    return make_student(make_class(make_teacher()), "Ana", kind="", secret=None)


def test_a_fact_slipped_twice_comes_back_the_next_day(ana):
    # 7 x 8 was known (right and quick on four due days), then missed twice on one day.
    make_attempts(
        ana,
        [
            (7, "x", 8, 56, 1500, at(DAY)),
            (7, "x", 8, 56, 1500, at(DAY + days(1))),
            (7, "x", 8, 56, 1500, at(DAY + days(4))),
            (7, "x", 8, 54, 2500, at(DAY + days(11))),
            (7, "x", 8, 48, 2500, at(DAY + days(11), 11)),
        ],
    )
    tomorrow = student_working_set(student_id=ana.pk, as_of=DAY + days(12))
    assert facts(tomorrow.learning) == [("mul", 7, 8)]
    assert tomorrow.learning[0].text == "7 × 8: wrong 2 times this week"
    # Learning facts leave room for new ones only: one learning fact, two new.
    assert len(tomorrow.new) == 2


def test_a_known_fact_comes_back_after_its_interval_not_before(ana):
    fluent_days = [DAY, DAY + days(1), DAY + days(4), DAY + days(11)]
    make_attempts(ana, [(6, "+", 7, 13, 2000, at(day)) for day in fluent_days])
    # Four fluent due days: the fourth box, back after INTERVALS[3] days.
    back = DAY + days(11) + days(INTERVALS[3])
    before = student_working_set(student_id=ana.pk, as_of=back - days(1))
    assert ("add", 6, 7) not in facts(before.items)
    on_the_day = student_working_set(student_id=ana.pk, as_of=back)
    assert facts(on_the_day.reviews) == [("add", 6, 7)]
    day = on_the_day.reviews[0].reason
    assert day.startswith("due for review: last right and quick on ")


def test_an_early_answer_does_not_move_a_fact_up():
    # Right and quick on day 0 (box 1, back on day 1) and again the same afternoon, then on
    # day 1: box 2, back three days later, not sooner.
    answers = [
        FactAnswer("add", 2, 3, True, 1000, DAY),
        FactAnswer("add", 2, 3, True, 1000, DAY),
        FactAnswer("add", 2, 3, True, 1000, DAY + days(1)),
    ]
    assert facts(working_set(answers, DAY + days(3)).reviews) == []
    assert facts(working_set(answers, DAY + days(4)).reviews) == [("add", 2, 3)]


def test_one_slip_this_week_reads_once():
    result = working_set([FactAnswer("add", 6, 7, False, 1000, DAY)], DAY + days(1))
    assert result.learning[0].text == "6 + 7: wrong once this week"


def test_slow_right_answers_keep_a_fact_being_learned():
    answers = [FactAnswer("add", 8, 5, True, 6000, DAY)]
    result = working_set(answers, DAY + days(1))
    assert facts(result.learning) == [("add", 8, 5)]
    assert result.learning[0].reason == "answered, not yet right within 3 seconds"


def test_new_facts_come_in_family_order():
    add = new_fact_order("add")
    position = {fact[1:]: n for n, fact in enumerate(add)}
    assert add[0] == ("add", 0, 0)
    # +0, +1 and doubles before any bridging of ten.
    assert max(position[0, 9], position[1, 8], position[7, 7]) < position[8, 5]
    mul = [fact[1:] for fact in new_fact_order("mul")]
    position = {fact: n for n, fact in enumerate(mul)}
    assert max(position[2, 9], position[5, 7], position[10, 8]) < min(
        position[7, 8], position[6, 7], position[8, 8]
    )
    # A child who knows the first facts gets the next ones, with their family named.
    known = [FactAnswer("mul", a, b, True, 1000, DAY) for _op, a, b in new_fact_order("mul")[:5]]
    result = working_set(known, DAY)
    assert facts(result.new) == new_fact_order("mul")[5:7]
    assert [item.reason for item in result.new] == ["next new fact (twos)"] * 2


def test_facts_answered_right_and_quick_are_placed_not_new():
    # A first check of 30 sums, all right within 3 seconds: as a placement quiz places them, they
    # are known facts due for review, and the new places go to facts not yet met.
    checked = new_fact_order("add")[:30]
    placed = [FactAnswer(*fact, True, 1500, DAY) for fact in checked]
    result = working_set(placed, DAY + days(1))
    assert result.learning == []
    assert facts(result.reviews) == checked[:REVIEWS_MAX]
    assert facts(result.new) == new_fact_order("add")[30:32]


def test_the_set_is_small():
    slips = [FactAnswer("add", a, 9, False, 1000, DAY) for a in range(2, 9)]
    result = working_set(slips, DAY + days(1))
    assert len(result.learning) == LEARNING_MAX
    assert result.new == []


HOMEWORK_GAMES = [("mia", "solo3"), ("sum", "standard")]


def test_the_dealable_facts_are_those_the_games_can_deal():
    dealable = dealable_facts(HOMEWORK_GAMES)
    # No ¡Mía! or SUM card is 0 or 10; SUM's centre card, a product's value, is 1 to 9.
    assert ("add", 3, 4) in dealable and ("mul", 3, 3) in dealable
    assert not {("add", 0, 5), ("add", 10, 2), ("mul", 3, 4), ("mul", 2, 10)} & dealable
    assert dealable_facts([("add_up", "standard")]) == frozenset()  # differences only


def test_a_set_for_games_holds_only_facts_they_can_deal():
    dealable = dealable_facts(HOMEWORK_GAMES)
    slips = [
        FactAnswer(op, a, b, False, 1000, DAY)
        for op, a, b in (("add", 0, 5), ("mul", 7, 8), ("add", 6, 7))
    ]
    known = [FactAnswer("add", 10, 3, True, 1000, DAY - days(1))]
    everything = working_set(slips + known, DAY + days(1))
    assert ("add", 0, 5) in facts(everything.learning)
    assert facts(everything.reviews) == [("add", 10, 3)]
    # The same answers: the games cannot deal 0 + 5, 7 x 8 or 10 + 3, so the set leaves them out
    # and its new facts are the first in family order that they can deal (no + 0 fact).
    for_games = working_set(slips + known, DAY + days(1), dealable=dealable)
    assert facts(for_games.learning) == [("add", 6, 7)]
    assert for_games.reviews == []
    assert everything.new == []  # three facts being learned: no place for a new one
    # Twos first, as ever, but 2 x 1 and 1 x 2, not 2 x 10 (a product SUM cannot deal).
    assert facts(for_games.new) == [("mul", 2, 1), ("mul", 1, 2)]
    expected = [f for f in new_fact_order("add") if f in dealable]
    assert expected[:2] == [("add", 1, 1), ("add", 2, 1)]
    # A child with no answers yet starts on the first dealable addition facts.
    assert facts(working_set([], DAY, dealable=dealable).new) == expected[:2]


def test_a_set_for_several_games_gives_each_game_the_childs_facts_it_can_deal():
    """A ¡Mía! puzzle shows only sums of 4 to 13 of cards 1 to 9. A set drawn over everything
    the allowed games deal (here with Add or Multiply? to 10, which deals every table fact) gave
    its learning places to 0 + 5, 1 + 10 and 10 + 3, none of which a puzzle can show: the
    puzzle's focus was empty and 6 + 7, which it can show, waited."""
    puzzle = dealable_facts([("mia", "solo3")])
    every_fact = dealable_facts([("add_or_multiply", "to_ten")])
    slips = [
        FactAnswer(op, a, b, False, 1000, DAY)
        for op, a, b in (("add", 1, 10), ("add", 0, 5), ("add", 10, 3)) * 2
    ]
    slips.append(FactAnswer("add", 6, 7, False, 1000, DAY - days(1)))
    answers = [
        *slips,
        FactAnswer("add", 3, 4, True, 1000, DAY - days(1)),  # due for review on DAY
        FactAnswer("add", 2, 5, True, 1000, DAY + days(1)),  # known: due again the day after
    ]
    union = working_set(answers, DAY + days(1), dealable=puzzle | every_fact)
    assert set(facts(union.learning)) == {("add", 1, 10), ("add", 0, 5), ("add", 10, 3)}
    assert not [f for f in facts(union.items) if f in puzzle and f != ("add", 3, 4)]

    merged = working_set_for_games(answers, DAY + days(1), [every_fact, puzzle])
    # The set of all facts first, then the puzzle's own: 6 + 7 being learned, and since only
    # one of its learning places is taken, its first two new facts.
    assert facts(merged.learning) == [*facts(union.learning), ("add", 6, 7)]
    assert facts(merged.reviews) == [("add", 3, 4)]
    puzzle_alone = working_set(answers, DAY + days(1), dealable=puzzle)
    assert facts(merged.new) == facts(puzzle_alone.new) and len(merged.new) == 2
    assert all(f in puzzle for f in facts(merged.new))
    # A fact is listed once, as each set has it with the same kind and reason.
    assert len(set(facts(merged.items))) == len(merged.items)
    # One game: the set as before.
    assert working_set_for_games(answers, DAY + days(1), [puzzle]).items == puzzle_alone.items
    # What each game has still to teach: every fact it deals but 2 + 5, known.
    assert merged.to_learn == (len(every_fact) - 1, len(puzzle) - 1)


def test_a_class_is_read_in_one_query(ana, django_assert_num_queries):
    classroom = ana.enrollments.get().classroom
    ben = make_student(classroom, "Ben", kind="", secret=None)
    make_attempts(ana, [(3, "+", 4, 8, 1000, at(DAY))])
    make_attempts(ben, [(2, "x", 3, 6, 1000, at(DAY))])
    with django_assert_num_queries(1):
        sets = class_working_sets(student_ids=[ana.pk, ben.pk], as_of=DAY + days(1))
    assert facts(sets[ana.pk].learning) == [("add", 3, 4)]
    assert facts(sets[ben.pk].reviews) == [("mul", 2, 3)]


def test_the_teacher_sees_each_item_with_its_reason(client, ana):
    today = timezone.localdate()
    make_attempts(
        ana,
        [
            (7, "x", 8, 54, 2500, at(today - days(1))),
            (7, "x", 8, 48, 2500, at(today - days(1), 11)),
            (6, "+", 7, 13, 2000, at(today - days(1))),
        ],
    )
    classroom = ana.enrollments.get().classroom
    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:progress_student", args=[classroom.pk, ana.pk]))
    html = page.content.decode()
    assert "Practising next" in html
    assert "7 × 8</th><td>wrong 2 times this week" in html
    assert "6 + 7</th><td>due for review: last right and quick on " in html
    assert "0 + 0</th><td>next new fact (plus zero)" in html


def test_reasons_are_in_spanish():
    from django.utils import translation

    slips = [FactAnswer("mul", 7, 8, False, 1000, DAY), FactAnswer("mul", 7, 8, False, 1000, DAY)]
    with translation.override("es"):
        result = working_set(slips, DAY + days(1))
        assert result.learning[0].text == "7 × 8: mal 2 veces esta semana"
        assert result.new[0].reason == "siguiente operación nueva (tabla del 2)"


def test_the_selectors_ask_for_a_set_among_the_dealable_facts(ana, django_assert_num_queries):
    make_attempts(ana, [(0, "+", 5, 4, 1000, at(DAY)), (3, "+", 4, 8, 1000, at(DAY))])
    dealable = dealable_facts(HOMEWORK_GAMES)
    with django_assert_num_queries(1):
        sets = class_working_sets(student_ids=[ana.pk], as_of=DAY + days(1), dealables=[dealable])
    assert facts(sets[ana.pk].learning) == [("add", 3, 4)]
    alone = student_working_set(student_id=ana.pk, as_of=DAY + days(1), dealable=dealable)
    assert alone.items == sets[ana.pk].items
    # Without it, the set is among every table fact, as before.
    anything = student_working_set(student_id=ana.pk, as_of=DAY + days(1))
    assert ("add", 0, 5) in facts(anything.learning)


def test_a_set_for_every_game_practice_offers_fits_in_one_focused_deal():
    """The engine steers a deal by at most ``MAX_FOCUS_FACTS`` facts and drops the rest (a guard
    on its cost). At 12, a set for three games lost its reviews and new facts, the last in it:
    each game's set holds at most its learning and review places, so the sets of every game
    personal practice offers must fit, and a child with a long, mixed history fills them."""
    offered = practice.choices()
    bound = (LEARNING_MAX + REVIEWS_MAX) * len(offered)
    assert bound <= engine.core.MAX_FOCUS_FACTS
    draw = random.Random(3)
    answers = [
        FactAnswer(
            draw.choice(("add", "mul")),
            draw.randint(1, 10),
            draw.randint(1, 10),
            draw.random() < 0.7,
            1500,
            DAY - days(draw.randint(1, 40)),
        )
        for _answer in range(600)
    ]
    dealables = [dealable_facts([(c.game, c.variant)]) for c in offered]
    merged = working_set_for_games(answers, DAY, dealables)
    assert len(offered) * LEARNING_MAX < len(merged.items) <= bound


def test_eight_reviews_a_day_the_longest_overdue_first():
    """Reviews fall due at seven to eleven a school day for a child of the practice bench's
    class: four places a set fell behind, and a review more than 30 days late lapses Mastered
    (the bench: with eight places 70 % of the pairs are mastered after 80,000 answers; with four
    never, docs/capacity.md)."""
    answers = [FactAnswer("add", 1, late, True, 1500, DAY - days(late)) for late in range(2, 11)]
    found = working_set(answers, DAY)
    assert facts(found.reviews) == [("add", 1, late) for late in range(10, 2, -1)]
