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
        ([7, 8], "x", 57, 56, "off_by_one"),
        ([28, 4], "+", 42, 32, "off_by_ten"),  # no carry dropped: 8 + 4 carried, a ten too many
        ([29, 2], "+", 13, 31, "reversed_digits"),
        ([7, 6], "x", 24, 42, "reversed_digits"),
        # Regrouping: a carry dropped (units only, or every column) or each column written whole,
        ([27, 15], "+", 32, 42, "regrouping"),
        ([28, 4], "+", 22, 32, "regrouping"),
        ([27, 15], "+", 312, 42, "regrouping"),
        ([7, 5], "+", 2, 12, "wrong_operation"),  # 7 - 5 is 2 too: the operation comes first
        ([9, 4], "+", 3, 13, "regrouping"),
        # ... the smaller digit taken from the larger, or a borrowed ten not paid back.
        ([43, 17], "-", 34, 26, "regrouping"),
        ([43, 17], "-", 36, 26, "regrouping"),
        ([43, 12], "-", 41, 31, "off_by_ten"),  # no borrowing needed: not a regrouping slip
        # A neighbouring times-table fact: 7 x 8 answered with 7 x 9 or 6 x 8.
        ([7, 8], "x", 63, 56, "table_neighbour"),
        ([7, 8], "x", 48, 56, "table_neighbour"),
        # A number misread: 12 read as 21.
        ([12, 5], "+", 26, 17, "operand_misread"),
        ([5, 31], "x", 65, 155, "operand_misread"),
        # Two-digit answers only: 10 for 1 is not "01" reversed, nor 30 for 3.
        ([7, 3], "+", 1, 10, "far_off"),
        ([9, 1], "+", 1, 10, "operand_intrusion"),
        ([1, 2], "+", 30, 3, "far_off"),
        ([8, 5], "+", 20, 13, "far_off"),
        # Another fact of the same times table (7 x 6 for 7 x 8), after the neighbours.
        ([7, 8], "x", 42, 56, "table_related"),
        ([6, 9], "x", 24, 54, "table_related"),
        # A close miss of two (Siegler & Shrager 1984), not a neighbour's answer.
        ([8, 5], "+", 15, 13, "off_by_two"),
        ([8, 5], "+", 11, 13, "off_by_two"),
        # A number of the problem given back, more than two away.
        ([9, 4], "-", 9, 5, "operand_intrusion"),
        ([3, 8], "+", 3, 11, "operand_intrusion"),
        # More than half the answer away (and at least 3): no calculation shows.
        ([6, 8], "+", 3, 14, "far_off"),
        ([6, 8], "+", 30, 14, "far_off"),
        # Other: three or more away, within half the answer, and nothing above explains it.
        ([8, 5], "+", 17, 13, "other"),
        ([8, 9], "+", 11, 17, "other"),
        # ADD UP: a card laid on the bigger row is a negative answer, not ten away from the gap.
        ([12, 7], "-", -5, 5, "other"),
        ([8, 5], "+", None, 13, ""),
        ([], "mixed", 9, None, ""),
        ([1, 2, 3], "mixed", 7, 6, "off_by_one"),
    ],
)
def test_a_wrong_answer_is_named_by_its_slip(operands, operator, answer, expected, kind):
    assert classify(operands, operator, answer, expected) == kind


def test_every_kind_has_an_example_above_and_a_line_in_the_docs():
    from pathlib import Path

    from engine.mistakes import KINDS

    examples = Path(__file__).read_text()
    doc = (Path(__file__).parents[2] / "docs" / "slips.md").read_text()
    for kind in KINDS:
        assert f'"{kind}")' in examples, kind
        assert f"`{kind}`" in doc, kind
