"""The teacher's figures tell a calm ¡Mía! table's answers (the child's own pace: no race, no
clock) from the race's (docs/progress.md, "What each game records as an answer"; docs/rules/mia.md,
"A calm table"): Games and time, on the class's page and the child's, gives them a row of their
own. The answers are played through the services a socket's move goes through, and counted here
by the match they were given in."""

import re
from html import unescape

import pytest
from django.urls import reverse

import engine
from games.models import Attempt
from games.services import match_wake, submit_move
from tests.factories import make_class, make_match, make_student

pytestmark = pytest.mark.django_db

T0 = 1_700_000_000_000
MIA = engine.get_game("mia")


def state_of(match):
    match.refresh_from_db()
    return MIA.load(match.state)


def play_cards(match, child, cards, think_ms):
    """The child claims (right, from the hint) or passes on each of ``cards`` cards, ``think_ms``
    after its reveal; at a calm table the bots answer once their time is up."""
    for _card in range(cards):
        state = state_of(match)
        if MIA.outcome(state) is not None:
            return
        flipped, card = state.data["revealed_at"], state.data["round"]
        if match.options.get("calm"):
            match_wake(match_id=match.pk, at_ms=flipped + 6_000)
            state = state_of(match)
        move = MIA.hint(state, 0) or {"type": "pass", "round": card}
        submit_move(match_id=match.pk, user=child, move=move, at_ms=flipped + think_ms)
        if state_of(match).data["round"] == card:  # nobody solved it: the timer flips a card
            match_wake(match_id=match.pk, at_ms=state_of(match).data["flip_at"] or 0)


@pytest.fixture
def played():
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    calm = make_match(
        players=[ana],
        bots=["easy", "easy"],
        variant="party",
        seed=3,
        options={"calm": True, "first_player": "seat0"},
        at_ms=T0,
    )
    play_cards(calm, ana, 6, think_ms=9_000)
    race = make_match(players=[ana], bots=["easy"], variant="express", seed=7, at_ms=T0)
    play_cards(race, ana, 6, think_ms=1_500)
    counts = {
        name: (
            Attempt.objects.filter(match=match, user=ana).count(),
            Attempt.objects.filter(match=match, user=ana, correct=True).count(),
        )
        for name, match in (("calm", calm), ("race", race))
    }
    assert counts["calm"][0] >= 2 and counts["race"][0] >= 2
    return classroom, ana, counts


def by_game_rows(page):
    """The "By game" table's rows: the game's name, then its cells' texts."""
    table = page.split("By game", 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', table, re.S)
    return {
        unescape(name): [unescape(c) for c in re.findall(r"<td>(.*?)</td>", cells)]
        for name, cells in rows
    }


def accuracy(answers, right):
    return "too few answers" if answers < 5 else f"{(right * 200 + answers) // (2 * answers)}%"


def test_games_and_time_give_a_calm_tables_answers_a_row_of_their_own(client, played):
    classroom, ana, counts = played
    client.force_login(classroom.teacher)
    pages = {
        "class": client.get(
            reverse("classroom:progress_class_activity", args=[classroom.pk])
        ).content.decode(),
        "child": client.get(
            reverse("classroom:progress_student", args=[classroom.pk, ana.pk])
        ).content.decode(),
    }
    for name, page in pages.items():
        rows = by_game_rows(page)
        assert set(rows) == {"¡Mía!", "¡Mía! at a calm table"}, name
        for title, kind in (("¡Mía!", "race"), ("¡Mía! at a calm table", "calm")):
            answers, right = counts[kind]
            cells = rows[title]
            games, *rest = cells
            players = rest.pop(0) if name == "class" else None
            assert games == "1" and players in (None, "1"), (name, title, cells)
            assert rest[:2] == [str(answers), accuracy(answers, right)], (name, title, cells)
