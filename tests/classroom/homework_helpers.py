"""Playing homework matches from tests, through games.services like a real student."""

import engine
from games.models import Match
from games.services import submit_move

MIA = engine.get_game("mia")


def solo_state(match_id):
    return MIA.load(Match.objects.get(pk=match_id).state)


def right_solve(match_id, student):
    """One right move of the solver's line (a solve, or a swap when stuck)."""
    move = MIA.hint(solo_state(match_id), 0)
    return submit_move(match_id=match_id, user=student, move=move)


def wrong_solve(match_id, student):
    """A solve the engine judges wrong (an attempt with correct false)."""
    state = solo_state(match_id)
    for move in MIA.legal_moves(state, 0):
        if move["type"] != "solve":
            continue
        events = MIA.apply(state, 0, move, 0).events
        if any(e["type"] == "attempt" and not e["correct"] for e in events):
            return submit_move(match_id=match_id, user=student, move=move)
    raise AssertionError("no wrong solve on offer")


def finish_puzzle(match_id, student):
    while Match.objects.get(pk=match_id).is_playing:
        right_solve(match_id, student)
    return Match.objects.get(pk=match_id)
