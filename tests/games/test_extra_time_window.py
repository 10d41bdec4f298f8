"""¡Mía!'s Extra time window ends at its end, whenever the server's timer fires (docs/rules/mia.md,
"Timing from when the child could act"): through the one write path, as a socket's move and the
match's clock reach it (``submit_move``, ``match_wake``)."""

import pytest

import engine
from games.models import Attempt, MoveRecord
from games.services import match_wake, submit_move
from tests.factories import make_class, make_match, make_student

pytestmark = pytest.mark.django_db

T0 = 1_700_000_000_000  # engine time in these tests: epoch ms, long past
# Seed 7 deals seat 0 an Extra time card and seat 1 a right claim on the first card.
SEED = 7
OPENED, WINDOW_MS = 2_000, 5_000  # the default Extra time is 5 s (RULINGS 1)


@pytest.fixture
def window():
    """Ana (seat 0) plays Extra time 2 s after the reveal: Ben is shut out from 2 s to 7 s."""
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    match = make_match(players=[ana, ben], seed=SEED, at_ms=T0)
    rules = engine.get_game("mia")
    state = rules.load(match.state)
    extra_time = next(m for m in rules.legal_moves(state, 0) if m["type"] == "extra_time")
    bens_claim = rules.hint(state, 1)
    assert bens_claim is not None
    submit_move(match_id=match.pk, user=ana, move=extra_time, at_ms=T0 + OPENED)
    match.refresh_from_db()
    assert match.wake_at_ms == T0 + OPENED + WINDOW_MS  # the window's end
    return match, ben, bens_claim


def bens_answer(match, ben):
    return Attempt.objects.get(match=match, user=ben)


def test_a_claim_after_the_window_but_before_its_timer_fires_is_heard(window):
    match, ben, claim = window
    # The window ended at 7 s; the server's timer has not fired yet (a busy process).
    at = OPENED + WINDOW_MS + 1_000
    submit_move(match_id=match.pk, user=ben, move=claim, at_ms=T0 + at)
    answer = bens_answer(match, ben)
    assert answer.correct
    assert answer.elapsed_ms == at - WINDOW_MS  # 2 s before the window, 1 s after it
    record = MoveRecord.objects.get(match=match, seat=1)
    kinds = [event["type"] for event in record.events]
    assert kinds[0] == "extra_time_over" and "claim_won" in kinds
    match.refresh_from_db()
    assert match.state["data"]["window"] is None


def test_a_late_timer_shuts_nobody_out_past_the_windows_end(window):
    match, ben, claim = window
    # The timer fires 2 s late; Ben was free to claim from 7 s all the same.
    match_wake(match_id=match.pk, at_ms=T0 + OPENED + WINDOW_MS + 2_000)
    timer = MoveRecord.objects.get(match=match, actor=MoveRecord.Actor.TIMER)
    assert [event["type"] for event in timer.events] == ["extra_time_over"]
    at = OPENED + WINDOW_MS + 3_000
    submit_move(match_id=match.pk, user=ben, move=claim, at_ms=T0 + at)
    answer = bens_answer(match, ben)
    assert answer.correct
    assert answer.elapsed_ms == at - WINDOW_MS  # not 3 s: the timer's delay was his own time
