"""A claim whose cards make no whole number (SUM's 2 ÷ 5) reads so in the teacher's words, in
every language: the answers' CSV read "2 ÷ 5 makes None"."""

from django.utils import translation

from classroom.progress.wording import wording
from games.models import Attempt


def test_a_claim_with_no_whole_value_says_so():
    attempt = Attempt(
        game="sum",
        operator="÷",
        operation="div",
        skill="div.within10",
        operands=[2, 5],
        answer=9,
        expected=None,
        target=9,
        correct=False,
        seat=0,
    )
    with translation.override("en"):
        worded = wording(attempt)
    assert "None" not in worded.right
    assert worded.right.endswith("makes no whole number")
    with translation.override("es"):
        assert "None" not in wording(attempt).right
