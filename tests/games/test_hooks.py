"""The layers above write in a move's own transaction through games.hooks: what a registered
function returns runs with the move, and fails with it."""

import pytest
from django.db import DatabaseError

import engine
from games import hooks
from games.models import Match, MoveRecord
from games.services import submit_move
from tests.factories import make_class, make_match, make_student, make_teacher

pytestmark = pytest.mark.django_db


@pytest.fixture
def a_claim():
    ana = make_student(make_class(make_teacher()), "Ana")
    match = make_match(players=[ana], bots=["easy"])
    mia = engine.get_game("mia")
    # Any claim is an answer (right or wrong): the first on offer, whatever the deal.
    move = next(m for m in mia.legal_moves(mia.load(match.state), 0) if m["type"] == "claim")
    return match, ana, move


@pytest.fixture
def registered():
    names = []

    def register(name, writes):
        hooks.on_attempts_written(name, writes)
        names.append(name)

    yield register
    for name in names:
        hooks.forget_attempt_writes(name)


def test_a_layers_writes_commit_with_the_move(a_claim, registered):
    match, ana, move = a_claim
    seen = []

    def label_the_match(match, attempts):
        seen.append([attempt.user_id for attempt in attempts])
        return [("UPDATE games_match SET label = %s WHERE id = %s", ["claimed", match.pk])]

    registered("tests.label", label_the_match)
    submit_move(match_id=match.pk, user=ana, move=move)
    assert seen == [[ana.pk]]
    assert Match.objects.get(pk=match.pk).label == "claimed"


def test_a_layers_failing_write_fails_the_move_and_changes_nothing(a_claim, registered):
    match, ana, move = a_claim
    broken = [("INSERT INTO no_such_table VALUES (1)", [])]
    registered("tests.broken", lambda match, attempts: broken)
    with pytest.raises(DatabaseError):
        submit_move(match_id=match.pk, user=ana, move=move)
    assert Match.objects.get(pk=match.pk).version == match.version
    assert not MoveRecord.objects.filter(match=match).exists()
