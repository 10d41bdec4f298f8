"""Each seat's place at the end (the podium): winners first, then by score, ties shared."""

import pytest

from engine.core import Outcome, places


@pytest.mark.parametrize(
    ("scores", "winners", "expected"),
    [
        # The table: Ben won with 27, Ana 23, Carla 21.
        ([23, 21, 27], [2], [2, 3, 1]),
        # Two share the win: both first, the next is third.
        ([10, 10, 4, 7], [0, 1], [1, 1, 4, 3]),
        # Equal scores behind the winner share their place.
        ([9, 5, 5, 2], [0], [1, 2, 2, 4]),
        # A winner who is not the top scorer (SUM: the game ends when a pile is gone) stays first.
        ([3, 8, 5], [0], [1, 2, 3]),
        # Nobody won (a solo puzzle lost): places by score still.
        ([2], [], [1]),
    ],
)
def test_places(scores, winners, expected):
    assert places(Outcome(scores, winners)) == expected


def test_the_views_outcome_carries_the_places():
    outcome = Outcome([4, 9], [1])
    assert outcome.as_dict() == {"scores": [4, 9], "winners": [1], "places": [2, 1]}
