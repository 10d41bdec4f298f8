"""The end of a game, as a child and a teacher see it (issue 15): a ranked podium with shared
places, no control left to play, where to go next, a celebration only where motion is welcome, and
sound on for players, off on the teacher's screen."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

pytestmark = pytest.mark.browser

# ADD UP at four seats, played to its end by easy bots from seed 21: the last two seats share the
# win on 11 and 11, then 8 and 5, so the podium reads 1st, 1st, 3rd, 4th. Ben is shown to others
# by his initials.
SETUP = """
import json
from classroom.roster.services import student_accommodations_set
from tests.factories import (
    finish_match_by_bots, make_class, make_match, make_student, make_teacher, session_cookie_for,
)

teacher = make_teacher(name="Ms Rivera")
classroom = make_class(teacher)
students = [make_student(classroom, name, secret=secret)
            for name, secret in (("Ana", "1111"), ("Ben Soto", "2222"), ("Carla", "3333"))]
# Ben's teacher set him to initials: his table-mates and the teacher's big screen read "B. S.".
student_accommodations_set(student=students[1], public_name="initials")
match = make_match(game="add_up", variant="no_jokers", players=students, bots=["easy"],
                   teacher=teacher, seed=21)
outcome = finish_match_by_bots(match, seed=21)
print(json.dumps({
    "students": [session_cookie_for(s) for s in students],
    "teacher": session_cookie_for(teacher),
    "match": match.pk,
    "outcome": outcome.as_dict(),
}))
"""

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("game_end", setup=SETUP) as site:
        yield site


def open_page(browser, server, cookie, path, *, reduced_motion="no-preference", viewport=PHONE):
    page = signed_in_page(
        browser, server, cookie, path, viewport=viewport, reduced_motion=reduced_motion
    )
    expect(page.locator("#play-result")).to_be_visible()
    return page


def podium(page) -> list[dict]:
    return page.evaluate(
        """() => [...document.querySelectorAll('.podium-row')].map((row) => ({
            place: Number(row.dataset.place), seat: Number(row.dataset.seat),
            rank: row.querySelector('.podium-rank').textContent,
            text: row.textContent}))"""
    )


def test_the_podium_ranks_by_place_with_ties_shared_and_nothing_is_left_to_play(browser, server):
    outcome = server.made["outcome"]
    places = outcome["places"]
    assert sorted(places) == [1, 1, 3, 4], "the set-up must end in a shared first place"
    carla = open_page(browser, server, server.made["students"][2], f"/play/{server.made['match']}/")
    try:
        rows = podium(carla)
        # In place order, each seat at its stored place; the shared first place shows twice and
        # the next one is third.
        assert [row["place"] for row in rows] == sorted(places)
        assert [row["rank"] for row in rows] == ["1st", "1st", "3rd", "4th"]
        for row in rows:
            assert places[row["seat"]] == row["place"]
            points = outcome["scores"][row["seat"]]
            assert row["text"].endswith(f"{points} point" + ("" if points == 1 else "s"))
        names = [row["text"].split(" ", 1)[1] for row in rows]
        assert names[0].startswith("Carla") and names[1].startswith("Bot 1")
        expect(carla.locator("#play-result .result-sentence")).to_have_text("You share the win!")
        # Nothing on the table can be played any more.
        board_controls = carla.locator("#play-board button, #play-board input")
        assert board_controls.count() > 0
        for index in range(board_controls.count()):
            expect(board_controls.nth(index)).to_be_disabled()
        # Where next: a link, and on a phone the result is reachable without hunting.
        link = carla.get_by_role("link", name="Back to your home page")
        expect(link).to_have_attribute("href", "/home/")
        # A winner's page celebrates, where motion is welcome.
        expect(carla.locator("#play-result")).to_have_class("play-result is-celebrating")
        running = carla.evaluate("() => document.getAnimations().length")
        assert running > 0
        # Sound is on for a player, and the win was played.
        sound = carla.locator("#play-sound")
        expect(sound).to_have_attribute("aria-pressed", "true")
        assert carla.evaluate("() => playShell.sounds.played") == ["win"]
        sound.click()
        expect(sound).to_have_attribute("aria-pressed", "false")
        expect(sound).to_have_text("Sound: off")
        assert carla.evaluate("() => localStorage.getItem('play-sound:play')") == "off"
    finally:
        carla.context.close()


def test_no_motion_for_who_asked_for_none_and_no_celebration_for_a_loser(browser, server):
    match_path = f"/play/{server.made['match']}/"
    carla = open_page(
        browser, server, server.made["students"][2], match_path, reduced_motion="reduce"
    )
    ben = open_page(browser, server, server.made["students"][1], match_path)
    try:
        expect(carla.locator("#play-result")).to_have_class("play-result is-celebrating")
        assert carla.evaluate("() => document.getAnimations().length") == 0
        expect(ben.locator("#play-result")).to_have_class("play-result")
        expect(ben.locator(".podium-row.is-me .podium-rank")).to_have_text("4th")
        assert ben.evaluate("() => playShell.sounds.played") == []
    finally:
        carla.context.close()
        ben.context.close()


def names_shown(page) -> str:
    """The podium's and the score table's words."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.podium-row, .score-table tbody tr')]
            .map((row) => row.textContent).join(' | ')"""
    )


def test_a_child_set_to_initials_is_initials_on_the_others_podium_and_score_table(browser, server):
    match_path = f"/play/{server.made['match']}/"
    carla = open_page(browser, server, server.made["students"][2], match_path)
    teacher = open_page(
        browser,
        server,
        server.made["teacher"],
        f"{match_path}watch/",
        viewport={"width": 1280, "height": 800},
    )
    ben = open_page(browser, server, server.made["students"][1], match_path)
    try:
        for page in (carla, teacher):
            expect(page.locator(".podium-row[data-seat='1'] .podium-name")).to_have_text("B. S.")
            shown = names_shown(page)
            assert "B. S." in shown and "Ben" not in shown and "Soto" not in shown, shown
        # His own screen keeps his name.
        expect(ben.locator(".podium-row.is-me .podium-name")).to_have_text("Ben Soto")
    finally:
        for page in (carla, teacher, ben):
            page.context.close()


def test_the_teachers_screen_starts_silent(browser, server):
    teacher = open_page(
        browser,
        server,
        server.made["teacher"],
        f"/play/{server.made['match']}/watch/",
        viewport={"width": 1280, "height": 800},
    )
    try:
        sound = teacher.locator("#play-sound")
        expect(sound).to_have_attribute("aria-pressed", "false")
        expect(sound).to_have_text("Sound: off")
        assert teacher.evaluate("() => playShell.sounds.played") == []
        assert [row["place"] for row in podium(teacher)] == [1, 1, 3, 4]
        config = json.loads(teacher.locator("#play-config").text_content())
        # The teacher's own table: the same players again, or back to the classes.
        assert [link["label"] for link in config["next"]] == [
            "Play again with the same players",
            "Back to your classes",
        ]
        assert config["next"][0]["url"].startswith("/teacher/matches/new/?variant=add_up")
    finally:
        teacher.context.close()


DESCRIBE = """async ([game, event]) => {
    const renderer = await import(`/static/js/play/games/${game}.js`);
    return renderer.describe(event, playShell.ctx);
}"""


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        (
            "en",
            [
                "Ana placed 4 at row 2, column 3 (–): 1 point.",
                "Ana placed every tile: 1 bonus point!",
                "Ana made 4+5-6 (two 3 cards used as a 6) = 3 and keeps 1 card.",
                "Equal rows! Ana takes 1 card.",
            ],
        ),
        (
            "es",
            [
                "Ana colocó 4 en fila 2, columna 3 (–): 1 punto.",
                "¡Ana colocó todas sus fichas: 1 punto extra!",
                "Ana formó 4+5-6 (dos cartas de 3 usadas como un 6) = 3 y se queda 1 carta.",
                "¡Filas iguales! Ana se lleva 1 carta.",
            ],
        ),
    ],
)
def test_the_logs_sentences_agree_in_number_and_say_pairs_as_the_rulebook(
    browser, server, locale, expected
):
    page = signed_in_page(
        browser,
        server,
        server.made["students"][0],
        f"/play/{server.made['match']}/",
        viewport=PHONE,
        locale=locale,
    )
    try:
        page.wait_for_function("() => globalThis.playShell !== undefined")
        events = [
            (
                "mathable_junior",
                {
                    "type": "tile_placed",
                    "seat": 0,
                    "tile": 4,
                    "row": 1,
                    "col": 2,
                    "equations": [],
                    "points": 1,
                },
            ),
            ("mathable_junior", {"type": "bonus", "seat": 0, "points": 1}),
            (
                "sum",
                {
                    "type": "equation_right",
                    "seat": 0,
                    "expression": "4+5-6",
                    "pairs": [3],
                    "value": 3,
                    "numbers_kept": 1,
                },
            ),
            ("add_up", {"type": "capture", "seat": 0, "cards": 1}),
        ]
        said = [page.evaluate(DESCRIBE, [game, event]) for game, event in events]
        assert said == expected
    finally:
        page.context.close()
