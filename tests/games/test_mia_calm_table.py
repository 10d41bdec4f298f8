"""A calm ¡Mía! table through the services a socket's move goes through (issue 22;
docs/rules/mia.md, "A calm table"): a child who answers each card slowly against bots is never
raced. The bots answer after their thinking time and the card waits for the child; every right
answer of the child's is recorded with its time from the card's flip; the other seats' logs show
nothing of the child's answer until the card closes."""

import pytest

import engine
from games.models import Attempt, Match
from games.selectors import match_log
from games.services import match_wake, submit_move
from tests.factories import make_class, make_match, make_student

pytestmark = pytest.mark.django_db

T0 = 1_700_000_000_000
MIA = engine.get_game("mia")
SLOW_MS = 9_000  # the child thinks 9 s on every card


@pytest.fixture
def classroom():
    return make_class()


@pytest.fixture
def ana(classroom):
    return make_student(classroom, "Ana")


def calm_match(players, bots, seed=3):
    return make_match(
        players=players,
        bots=bots,
        variant="party",
        seed=seed,
        options={"calm": True, "first_player": "seat0"},
        at_ms=T0,
    )


def state_of(match):
    match.refresh_from_db()
    return MIA.load(match.state)


def test_a_slow_child_at_a_calm_table_has_every_right_answer_recorded_with_its_time(ana):
    match = calm_match([ana], ["easy", "strong"])
    played = []  # (correct, elapsed_ms) of every claim the child made
    for _card in range(6):
        state = state_of(match)
        if MIA.outcome(state) is not None:
            break
        flipped, card = state.data["revealed_at"], state.data["round"]
        # The bots' thinking time (at most 5.5 s) is up long before the child answers: they
        # answer, and the card stays on the table for the child. Nothing else is due.
        assert match_wake(match_id=match.pk, at_ms=flipped + 6_000) is None
        state = state_of(match)
        assert state.data["round"] == card
        assert MIA.active(state) == frozenset({0})
        assert match.wake_at_ms is None
        move = MIA.hint(state, 0) or {"type": "pass", "round": card}
        submit_move(match_id=match.pk, user=ana, move=move, at_ms=flipped + SLOW_MS)
        if move["type"] == "claim":
            played.append((True, SLOW_MS))
        assert state_of(match).data["round"] != card or MIA.outcome(state_of(match))
    assert len(played) >= 2
    recorded = list(
        Attempt.objects.filter(user=ana).order_by("id").values_list("correct", "elapsed_ms")
    )
    assert recorded == played
    assert all(
        detail == {"calm": True}
        for detail in Attempt.objects.filter(match=match).values_list("detail", flat=True)
    )
    # Every right answer scored: the child's score is the points of the cards it solved.
    closed = [
        event
        for events in match.moves.values_list("events", flat=True)
        for event in events
        if event["type"] == "card_closed"
    ]
    assert sum(e["points"][0] for e in closed) == state_of(match).data["scores"][0] > 0
    assert sum(0 in e["right"] for e in closed) == len(played)


def test_a_calm_answer_is_hidden_from_the_other_children_until_the_card_closes(classroom, ana):
    ben = make_student(classroom, "Ben", secret="2222")
    match = calm_match([ana, ben], [])
    state = state_of(match)
    move = MIA.hint(state, 0) or {"type": "pass", "round": state.data["round"]}
    submit_move(match_id=match.pk, user=ana, move=move, at_ms=T0 + 4_000)

    bens = match_log(match_id=match.pk, game="mia", seat=1)["events"]
    assert bens == [{"type": "answered", "seat": 0, "round": state.data["round"]}]
    view = MIA.view(state_of(match), 1)
    assert view["answered"] == [0] and view["answer"] is None and view["passed"] == []
    assert view["hand_counts"][0] == 5 and view["scores"] == [0, 0]
    assert match.status == Match.Status.PLAYING

    submit_move(
        match_id=match.pk,
        user=ben,
        move={"type": "pass", "round": state.data["round"]},
        at_ms=T0 + 60_000,
    )
    bens = match_log(match_id=match.pk, game="mia", seat=1)["events"]
    closed = next(event for event in bens if event["type"] == "card_closed")
    assert closed["right"] == ([0] if move["type"] == "claim" else [])
