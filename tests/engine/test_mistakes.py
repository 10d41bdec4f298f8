"""engine.mistakes: the kinds of wrong answers a teacher sees in the error patterns."""

import pytest

from engine.mistakes import classify


@pytest.mark.parametrize(
    ("operands", "operator", "answer", "expected", "kind"),
    [
        ([8, 4], "-", 4, 4, ""),
        ([8, 4], "-", 12, 4, "wrong_operation"),  # added instead of subtracted
        ([8, 4], "+", 4, 12, "wrong_operation"),  # subtracted instead of added
        ([3, 4], "+", 12, 7, "wrong_operation"),  # multiplied instead of added
        ([3, 4], "x", 7, 12, "wrong_operation"),  # added instead of multiplied
        ([8, 5], "+", 14, 13, "off_by_one"),
        ([8, 5], "+", 12, 13, "off_by_one"),
        ([28, 4], "+", 22, 32, "off_by_ten"),
        ([29, 2], "+", 13, 31, "reversed_digits"),
        ([8, 5], "+", 20, 13, "other"),
        ([8, 5], "+", None, 13, ""),
        ([1, 2, 3], "mixed", 7, 6, "off_by_one"),
    ],
)
def test_a_wrong_answer_is_named_by_its_slip(operands, operator, answer, expected, kind):
    assert classify(operands, operator, answer, expected) == kind
