"""Bots' names and levels read the same on every page and form (issue 15: the easiest level had
three names on three forms, and two bots at one table were both "Robot: easy")."""

import re

import pytest
from django.urls import reverse

from classroom.bots import BOT_NAMES, adaptive_level, bot_name
from tests.factories import make_class, make_teacher

pytestmark = pytest.mark.django_db


def test_a_tables_bots_have_distinct_names_even_past_the_list():
    names = [bot_name(n) for n in range(1, 2 * len(BOT_NAMES) + 2)]
    assert len(set(names)) == len(names)
    assert names[:3] == ["Pixel", "Bolt", "Sparky"]
    with pytest.raises(ValueError):
        bot_name(0)


def _level_options(html: str, select_name: str) -> list[str]:
    select = re.search(rf'<select name="{select_name}"[^>]*>(.*?)</select>', html, re.S)
    assert select, f"no select {select_name}"
    return re.findall(r"<option[^>]*>([^<]*)</option>", select.group(1))


def test_every_form_names_the_bots_levels_the_same(client):
    teacher = make_teacher()
    classroom = make_class(teacher)
    client.force_login(teacher)
    session_form = client.get(reverse("classroom:sessions_create", args=[classroom.pk])).content
    homework_form = client.get(reverse("classroom:homework_create", args=[classroom.pk])).content
    table_form = client.get(reverse("classroom:match_new"), {"variant": "mia:canada47"}).content
    session_levels = _level_options(session_form.decode(), "bot_level")
    homework_levels = _level_options(homework_form.decode(), "bot_level")
    levels = ["Beginner", "Easy", "Strong"]
    # A lesson can also play each table's bots at its children's level.
    assert session_levels == [*levels, "At each table&#x27;s level: its children&#x27;s figures"]
    # Homework offers the adaptive level first (its default), then the same three names.
    assert homework_levels == ["Adaptive: follows each child&#x27;s results", *levels]
    seat_options = _level_options(table_form.decode(), "seat_0")
    assert [o for o in seat_options if o.startswith("Bot: ")] == [
        f"Bot: {level}" for level in levels
    ]


@pytest.mark.parametrize(
    ("results", "level"),
    [
        ([], "random"),  # new to bots: beginners first
        ([("random", True)], "random"),  # one win is not yet a pattern
        ([("random", True), ("random", True)], "easy"),
        ([("easy", True), ("easy", False), ("easy", True)], "strong"),
        ([("strong", True)] * 3, "strong"),  # no level above the strongest
        ([("strong", False)] * 3, "easy"),
        ([("easy", False), ("easy", False)], "easy"),  # two losses: the same level once more
        ([("random", False)] * 3, "random"),
        ([("easy", False), ("strong", True), ("strong", True)], "easy"),  # the newest level counts
    ],
)
def test_the_adaptive_level_follows_the_latest_results(results, level):
    assert adaptive_level(results) == level


def test_adaptive_homework_meets_a_child_at_their_level():
    from django.utils import timezone

    from classroom.homework.services import BotGamesSpec, work_start
    from games.models import Match
    from tests.factories import make_assignment, make_student

    classroom = make_class(make_teacher())
    ana = make_student(classroom, "Ana")
    spec = BotGamesSpec("add_up", "no_jokers", 2, "adaptive", 4, {})
    assignment = make_assignment(classroom, spec=spec)

    def bots_of(work):
        return set(work.match.seats.exclude(bot_level="").values_list("bot_level", flat=True))

    def finish(work, ana_won):
        Match.objects.filter(pk=work.match_id).update(
            status=Match.Status.FINISHED,
            outcome={"scores": [9, 3] if ana_won else [3, 9], "winners": [0 if ana_won else 1]},
            finished_at=timezone.now(),
        )

    first = work_start(assignment=assignment, student=ana, item=0)
    assert bots_of(first) == {"random"}
    finish(first, ana_won=True)
    second = work_start(assignment=assignment, student=ana, item=1)
    assert bots_of(second) == {"random"}
    finish(second, ana_won=True)
    third = work_start(assignment=assignment, student=ana, item=2)
    assert bots_of(third) == {"easy"}  # two wins: one level up
