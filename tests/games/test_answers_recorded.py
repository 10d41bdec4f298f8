"""Every answer recorded, fairly (issue 22), through the services a socket's move goes through:
a right ¡Mía! claim that loses the race is the child's answer (right, not scored), heard once
per child and card; a Mathable Junior tile put where no line lies is no answer at all."""

import pytest

import engine
from engine import IllegalMove
from engine.mathable_junior_board import LINES
from games.models import Attempt, MoveRecord
from games.services import submit_move
from tests.factories import make_class, make_match, make_student

pytestmark = pytest.mark.django_db

T0 = 1_700_000_000_000
MIA = engine.get_game("mia")
MATHABLE = engine.get_game("mathable_junior")


@pytest.fixture
def pair():
    classroom = make_class()
    return make_student(classroom, "Ana"), make_student(classroom, "Ben", secret="1111")


def plain_right_claim(state, seat):
    """A right claim of the seat without a Wild (its numbers read off the seat's own view)."""
    claim = MIA.hint(state, seat)
    if claim is None or "wild" in claim:
        return None
    return claim


def seed_where_both_can_claim() -> int:
    return next(
        seed
        for seed in range(500)
        if all(plain_right_claim(MIA.new("express", 2, seed, now_ms=T0), s) for s in (0, 1))
    )


def test_a_right_claim_that_loses_the_race_is_recorded_right_and_not_scored(pair):
    ana, ben = pair
    match = make_match(players=[ana, ben], seed=seed_where_both_can_claim(), at_ms=T0)
    state = MIA.load(match.state)
    ana_claim, ben_claim = plain_right_claim(state, 0), plain_right_claim(state, 1)
    view = MIA.view(state, 1)
    values = {card["id"]: card["value"] for card in view["hand"]}
    option = view["top"]["options"][ben_claim["option"]]

    submit_move(match_id=match.pk, user=ana, move=ana_claim, at_ms=T0 + 1300)
    submit_move(match_id=match.pk, user=ben, move=ben_claim, at_ms=T0 + 3400)

    match.refresh_from_db()
    assert MIA.view(MIA.load(match.state), None)["scores"] == [1, 0]
    late = Attempt.objects.get(user=ben)
    a, b = (values[card] for card in ben_claim["cards"])
    made = a + b if option["op"] == "+" else abs(a - b)
    assert made == option["target"]  # the claim was right for that card
    assert (late.correct, late.answer, late.expected, late.elapsed_ms) == (
        True,
        option["target"],
        made,
        3400,
    )
    assert late.detail == {"scored": False}
    assert Attempt.objects.get(user=ana).detail == {}

    # Heard once: the same card claimed again is refused and records nothing.
    other = {**ben_claim, "option": 1 - ben_claim["option"]}
    with pytest.raises(IllegalMove) as error:
        submit_move(match_id=match.pk, user=ben, move=other, at_ms=T0 + 3500)
    assert error.value.code == "stale_round"
    assert Attempt.objects.filter(user=ben).count() == 1


def test_a_late_claim_after_the_cards_time_is_refused_and_not_recorded(pair):
    ana, ben = pair
    match = make_match(players=[ana, ben], seed=seed_where_both_can_claim(), at_ms=T0)
    state = MIA.load(match.state)
    submit_move(match_id=match.pk, user=ana, move=plain_right_claim(state, 0), at_ms=T0 + 1000)
    too_late = plain_right_claim(state, 1)
    with pytest.raises(IllegalMove) as error:
        submit_move(match_id=match.pk, user=ben, move=too_late, at_ms=T0 + 20_001)
    assert error.value.code == "stale_round"
    assert not Attempt.objects.filter(user=ben).exists()


def test_a_mathable_tile_put_where_no_line_lies_is_not_an_attempt(pair):
    ana, ben = pair
    match = make_match(
        game="mathable_junior",
        variant="front",
        players=[ana, ben],
        options={"first_player": "seat0"},
        at_ms=T0,
    )
    state = MATHABLE.load(match.state)
    board = state.data["board"]
    free = next(
        square
        for square in range(100)
        if not board[square] and not any(board[near] and board[far] for near, far in LINES[square])
    )
    tile = state.data["racks"][0][0]
    move = {"type": "place", "tile": tile, "row": free // 10, "col": free % 10}
    submit_move(match_id=match.pk, user=ana, move=move, at_ms=T0 + 2000)
    record = MoveRecord.objects.get(match=match)
    assert [e["type"] for e in record.events] == ["wrong_drop"]
    assert not Attempt.objects.exists()
