"""A wrong answer reads as it happened at the table (classroom/progress/wording.py), from the
attempt events the games write."""

import pytest
from django.utils import translation

from classroom.progress.wording import skill_label, wording
from engine.core import attempt_event
from engine.mia_cards import claim_attempt
from games.models import Attempt


def stored(game, event, **detail):
    """The Attempt row games.services saves for this event."""
    return Attempt(
        game=game,
        operator=event["operator"],
        operands=event["operands"],
        answer=event["answer"],
        expected=event["expected"],
        target=event.get("target"),
        correct=event["correct"],
        elapsed_ms=event["elapsed_ms"],
        detail=detail,
    )


def event(**fields):
    return attempt_event(seat=0, correct=False, elapsed_ms=1000, **fields)


@pytest.mark.parametrize(
    ("game", "attempt", "did", "right"),
    [
        (
            "mia",
            claim_attempt(seat=0, a=5, b=9, op="+", target=1, elapsed_ms=900),
            "Claimed 5 + 9 for the 1",
            "5 + 9 makes 14",
        ),
        (
            "mia",
            claim_attempt(seat=0, a=3, b=9, op="-", target=5, elapsed_ms=900),
            "Claimed 9 − 3 for the 5",
            "9 − 3 makes 6",
        ),
        (
            "sum",
            event(operands=[3, 12, 4], operator="mixed", answer=9, expected=11, target=9),
            "Claimed 3 + 12 − 4 for the 9",
            "3 + 12 − 4 makes 11",
        ),
        (
            "add_up",
            event(operands=[12, 7], operator="-", answer=4, expected=5),
            "Laid a 4 on the smaller row",
            "The rows made 12 and 7: a 5 on the smaller row",
        ),
        (
            "add_up",
            event(operands=[12, 7], operator="-", answer=-5, expected=5),
            "Laid a 5 on the bigger row",
            "The rows made 12 and 7: a 5 on the smaller row",
        ),
        (
            "mathable_junior",
            event(operands=[5, 4], operator="x", answer=21, expected=20),
            "Placed a 21 next to 5 and 4",
            "5 × 4 = 20",
        ),
        (
            "mathable_junior",
            event(operands=[], operator="mixed", answer=9, expected=None),
            "Placed a 9",
            "No sum, difference or product of its neighbours makes 9",
        ),
        (
            "add_or_multiply",
            event(operands=[1, 4], operator="+", answer=12, expected=5),
            "Typed 12 for 1 + 4",
            "1 + 4 = 5",
        ),
    ],
)
def test_each_games_attempt_reads_as_it_happened(game, attempt, did, right):
    detail = {"expression": "3+12-4"} if game == "sum" else {}
    worded = wording(stored(game, attempt, **detail))
    assert (worded.did, worded.right) == (did, right)
    assert "?" not in worded.did + worded.right


def test_in_spanish():
    attempt = stored("mia", claim_attempt(seat=0, a=5, b=9, op="+", target=1, elapsed_ms=900))
    with translation.override("es"):
        worded = wording(attempt)
    assert (worded.did, worded.right) == ("Dijo que 5 + 9 da el 1", "5 + 9 da 14")


def test_a_sum_pair_reads_as_the_card_it_stands_for():
    """seeds/001: "Two number 2 cards can be used as a 4": no brackets, which no card shows."""
    attempt = stored(
        "sum",
        event(operands=[4, 5, 6], operator="mixed", answer=2, target=2, expected=3),
        expression="4+5-6",
        pairs=[3],
    )
    worded = wording(attempt)
    assert worded.did == "Claimed 4 + 5 − 6 (two 3 cards used as a 6) for the 2"
    with translation.override("es"):
        assert "dos cartas de 3 usadas como un 6" in wording(attempt).did


def test_a_game_words_its_own_details_in_its_titles_module():
    """Each game owns its wording (issue 24): SUM's detail keys (``expression``, ``pairs``) are
    read in games/titles/sum.py, which the teaching layer asks for the problem as written; the
    teaching layer names no game's detail key."""
    from pathlib import Path

    from games.titles import sum as sum_titles

    attempt = stored(
        "sum",
        event(operands=[4, 5, 6], operator="mixed", answer=2, target=2, expected=3),
        expression="4+5-6",
        pairs=[3],
    )
    assert sum_titles.expression(attempt) == "4 + 5 − 6 (two 3 cards used as a 6)"
    source = Path("classroom/progress/wording.py").read_text()
    assert "detail.get(" not in source and '"pairs"' not in source


def test_a_skill_is_named_in_the_language_of_each_page_it_is_named_on():
    """One skill_label for the progress pages, the reports and the live monitor; it remembers its
    names per language, so the English page's name never reaches a Spanish one."""
    with translation.override("en"):
        assert skill_label("add.within10") == "Addition within 10"
    with translation.override("es"):
        assert skill_label("add.within10") == "Suma hasta 10"
    with translation.override("en"):
        assert skill_label("add.within10") == "Addition within 10"
        assert skill_label("mystery.band") == "mystery band"
