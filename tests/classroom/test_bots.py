"""Bots' names and levels read the same on every page and form (issue 15: the easiest level had
three names on three forms, and two bots at one table were both "Robot: easy")."""

import re

import pytest
from django.urls import reverse

from classroom.bots import BOT_NAMES, bot_name
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
    assert session_levels == homework_levels == ["Beginner", "Easy", "Strong"]
    seat_options = _level_options(table_form.decode(), "seat_0")
    assert [o for o in seat_options if o.startswith("Bot: ")] == [
        f"Bot: {level}" for level in session_levels
    ]
