"""An attempt's skill range is read off the problem (operands, true result, target), never off
the child's answer (issue 14: 7 of 49 wrong answers had moved up a range)."""

import pytest

from engine.core import attempt_event
from engine.mia_cards import claim_attempt


@pytest.mark.parametrize(
    ("operands", "operator", "answer", "expected", "skill"),
    [
        ([3, 4], "+", 12, 7, "add.within10"),
        ([5, 4], "x", 21, 20, "mul.within20"),
        ([9, 8], "-", 100, 1, "sub.within10"),
        ([9, 8], "+", 17, 17, "add.within20"),
        ([], "mixed", 9, None, "mixed"),  # a Mathable tile that completes no line: no problem
    ],
)
def test_the_range_ignores_the_answer(operands, operator, answer, expected, skill):
    event = attempt_event(
        seat=0,
        operands=operands,
        operator=operator,
        answer=answer,
        expected=expected,
        correct=answer == expected,
        elapsed_ms=1000,
    )
    assert event["skill"] == skill
    assert "target" not in event


def test_a_target_is_part_of_the_problem():
    """¡Mía!: 5 + 9 claimed for a 1. The child's claim is the target; the problem holds the cards,
    what they truly make (14) and the target."""
    event = claim_attempt(seat=0, a=5, b=9, op="+", target=1, elapsed_ms=900)
    assert (event["answer"], event["target"], event["expected"]) == (1, 1, 14)
    assert event["skill"] == "add.within20"
    wrong = claim_attempt(seat=0, a=12, b=3, op="-", target=8, elapsed_ms=900)
    assert wrong["skill"] == "sub.within20" and not wrong["correct"]
