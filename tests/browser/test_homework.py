"""Homework in a real browser: a student signs in with her PIN, opens her homework from her home
page, solves a card of the solo square through the play page, leaves, comes back with "Continue"
and finds the same square where she stopped.

The site runs in a real Daphne process (``daphne_site``); the data is made by the project's
factories, and the test reads the match from the site's SQLite file to choose the solver's move.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import student_signs_in_with_pin
from tests.browser.solo_square import MIA, play_the_solvers_move, stored_match

pytestmark = pytest.mark.browser

PIN = "2468"

SETUP = f"""
import json
from classroom.homework.services import PuzzleSpec
from tests.factories import make_assignment, make_class, make_student, make_teacher

classroom = make_class(make_teacher(name="Ms Rivera"), name="Class 3B")
make_student(classroom, "Ana", secret="{PIN}")
assignment = make_assignment(
    classroom, title="Squares for Friday", spec=PuzzleSpec(size=3, difficulty=1, count=2), seed=5
)
print(json.dumps({{"code": classroom.code, "assignment": assignment.pk}}))
"""


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("homework", setup=SETUP) as site:
        yield site


def homework_card(page, server):
    return page.locator(f'.homework-card[data-assignment="{server.made["assignment"]}"]')


def test_student_plays_homework_leaves_and_resumes_where_she_stopped(page, server):
    student_signs_in_with_pin(page, server.url, server.made["code"], "Ana", PIN)
    expect(page).to_have_url(re.compile(r"/me/$"))
    card = homework_card(page, server)
    expect(card.get_by_role("heading", name="Squares for Friday")).to_be_visible()
    expect(card).to_contain_text("0 of 2 done")
    card.get_by_role("button", name="Play Squares for Friday").click()

    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    match_id = int(re.search(r"/play/(\d+)/", page.url).group(1))
    expect(page.locator("#play-status")).to_have_text("")  # the socket is connected
    expect(page.locator("#play-board .mia-square")).to_be_visible()
    expect(page.get_by_text("Solved: 0 of 9")).to_be_visible()
    move = play_the_solvers_move(page, server, match_id)
    assert move["type"] == "solve"  # a difficulty-1 deal opens with a right solve on offer
    solved = f'[data-key="cell-{move["row"]}-{move["col"]}"]'
    expect(page.get_by_text("Solved: 1 of 9")).to_be_visible()
    expect(page.locator(solved)).to_have_class(re.compile(r"\bis-empty\b"))

    # She leaves for her home page: the homework now says "Continue".
    page.get_by_role("link", name="My games").click()
    expect(page).to_have_url(re.compile(r"/me/$"))
    card = homework_card(page, server)
    expect(card).to_contain_text("0 of 2 done")
    card.get_by_role("button", name="Continue Squares for Friday").click()

    # The same match, where she stopped, and it plays on.
    expect(page).to_have_url(re.compile(rf"/play/{match_id}/$"))
    expect(page.locator("#play-status")).to_have_text("")
    expect(page.get_by_text("Solved: 1 of 9")).to_be_visible()
    expect(page.locator(solved)).to_have_class(re.compile(r"\bis-empty\b"))
    play_the_solvers_move(page, server, match_id)
    expect(page.get_by_text(re.compile(r"Solved: 2 of 9|Swaps: 1"))).to_be_visible()
    works = server.rows(
        "select item, match_id from classroom_assignmentwork where assignment_id = ?",
        server.made["assignment"],
    )
    assert works == [(0, match_id)]


def test_at_the_end_of_a_puzzle_the_next_one_is_a_button_away(page, server):
    """Runs after the test above: Ana finishes the first square; the result offers the next."""
    student_signs_in_with_pin(page, server.url, server.made["code"], "Ana", PIN)
    card = homework_card(page, server)
    card.get_by_role("button", name=re.compile(r"(Continue|Play) Squares for Friday")).click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    match_id = int(re.search(r"/play/(\d+)/", page.url).group(1))
    expect(page.locator("#play-status")).to_have_text("")
    for _move in range(60):  # a 3x3 square ends in well under 60 moves
        if MIA.outcome(stored_match(server, match_id)[1]) is not None:
            break
        play_the_solvers_move(page, server, match_id)
    result = page.locator("#play-result")
    expect(result.get_by_role("heading", name="Game over")).to_be_visible()
    next_puzzle = result.get_by_role("button", name="Next puzzle")
    expect(next_puzzle).to_be_enabled()
    expect(result.get_by_role("link", name="Back to your homework")).to_be_visible()
    next_puzzle.click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    assert int(re.search(r"/play/(\d+)/", page.url).group(1)) != match_id
    expect(page.get_by_text("Solved: 0 of 9")).to_be_visible()
    works = server.rows(
        "select item from classroom_assignmentwork where assignment_id = ? order by item",
        server.made["assignment"],
    )
    assert works == [(0,), (1,)]
