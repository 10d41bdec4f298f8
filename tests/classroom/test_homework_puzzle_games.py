"""Homework offers the solo puzzles of every game that declares them (engine.core.Puzzles), not
¡Mía!'s alone: with the test-only Count alone registered (tests/engine/count_alone.py), a teacher
sets its puzzles through the form, a student plays them, and the report counts its stars on its
own scale."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.homework import selectors, services
from classroom.homework.services import PuzzleSpec
from classroom.models import Assignment
from games.models import Match
from games.services import submit_move
from tests.factories import make_assignment, make_class, make_student, make_teacher

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(120)]


@pytest.fixture
def classroom():
    return make_class(make_teacher(name="Ms Rivera"), name="Class 3B")


@pytest.fixture
def ana(classroom):
    return make_student(classroom, "Ana", secret="1111")


def form_data(**overrides):
    due = timezone.localtime(timezone.now() + timedelta(days=7))
    data = {
        "title": "Counting for Monday",
        "kind": "puzzles",
        "due_at": due.strftime("%Y-%m-%dT%H:%M"),
        "count": "2",
        "puzzle_game": "count_alone",
        "size": "9",
        "difficulty": "4",
    }
    data.update(overrides)
    return data


def count_on(match_id, student, *, slip=False):
    """Count to the goal by ones, the first number said wrong when ``slip``."""
    while (match := Match.objects.get(pk=match_id)).is_playing:
        count = match.state["data"]["count"]
        submit_move(
            match_id=match_id,
            user=student,
            move={"type": "add", "step": 1, "answer": count + 1 + slip},
        )
        slip = False
    return Match.objects.get(pk=match_id)


def test_the_form_offers_every_game_with_puzzles_and_sets_the_chosen_ones(
    client, classroom, count_alone
):
    client.force_login(classroom.teacher)
    url = reverse("classroom:homework_create", args=[classroom.pk])
    page = client.get(url).content.decode()
    game_select = re.search(r'<select name="puzzle_game".*?</select>', page, re.S).group(0)
    assert re.findall(r'<option value="([^"]+)"', game_select) == ["mia", "count_alone"]
    size_select = re.search(r'<select name="size".*?</select>', page, re.S).group(0)
    assert "Count alone to nine" in size_select and "Solo square 3×3" in size_select
    assert "<legend>Solo puzzles</legend>" in page  # the game field names the game

    # A size the chosen game does not offer is refused, with nothing set.
    refused = client.post(url, form_data(size="3"))
    assert refused.status_code == 200 and not Assignment.objects.exists()
    assert "sizes 6, 9" in refused.content.decode()

    response = client.post(url, form_data())
    assignment = Assignment.objects.get()
    assert response["Location"] == reverse("classroom:homework_detail", args=[assignment.pk])
    assert (assignment.game, assignment.variant, assignment.difficulty) == (
        "count_alone",
        "alone9",
        4,
    )
    assert len({item["seed"] for item in assignment.items}) == 2
    assert services.spec_of(assignment) == PuzzleSpec(9, 4, 2, game="count_alone")
    # Its edit form reads the game and size back.
    edit = client.get(reverse("classroom:homework_edit", args=[assignment.pk]))
    assert edit.context["form"]["puzzle_game"].value() == "count_alone"
    assert edit.context["form"]["size"].value() == 9


def test_a_student_plays_its_puzzles_and_the_report_counts_its_stars(
    client, classroom, ana, count_alone
):
    spec = PuzzleSpec(size=6, difficulty=1, count=2, game="count_alone")
    assignment = make_assignment(classroom, title="Counting", spec=spec, seed=40)
    first = services.work_start(assignment=assignment, student=ana, item=0).match
    assert (first.game, first.variant, first.seed) == (
        "count_alone",
        "alone6",
        assignment.items[0]["seed"],
    )
    assert count_on(first.pk, ana, slip=True).outcome["scores"] == [1]
    second = services.work_start(assignment=assignment, student=ana, item=1).match
    assert count_on(second.pk, ana).outcome["scores"] == [2]

    (row,) = selectors.assignment_report(assignment=assignment).students
    assert [item.stars for item in row.items] == [1, 2]
    # Its scale is the game's own: two stars at most, not ¡Mía!'s three.
    assert [item.star_marks for item in row.items] == ["★☆", "★★"]
    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:homework_detail", args=[assignment.pk])).content.decode()
    assert "★☆" in page and "★★" in page and "☆☆☆" not in page
    client.force_login(ana)
    page = client.get(reverse("classroom:homework_student", args=[assignment.pk])).content.decode()
    assert "★★" in page and "Done, 2 stars" in page


def test_with_one_game_of_puzzles_the_form_does_not_ask_which(client, classroom):
    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:homework_create", args=[classroom.pk])).content.decode()
    assert re.search(r'<input type="hidden" name="puzzle_game" value="mia"', page)
    assert '<select name="puzzle_game"' not in page
    assert "<legend>Solo puzzles of ¡Mía!</legend>" in page  # the legend names it instead
    # A post without the game (as before the field existed) sets ¡Mía!'s squares.
    data = form_data(size="3", difficulty="1", count="1")
    del data["puzzle_game"]
    client.post(reverse("classroom:homework_create", args=[classroom.pk]), data)
    assert Assignment.objects.get().variant == "solo3"
