"""What kind of slip a wrong answer is, so a teacher sees patterns and not just a score.

Pure arithmetic on an attempt's operands, operator, answer and expected value; the kinds are
stable strings (the teaching layer translates them).
"""

from __future__ import annotations

from collections.abc import Sequence

OFF_BY_ONE = "off_by_one"
OFF_BY_TEN = "off_by_ten"
WRONG_OPERATION = "wrong_operation"  # added instead of subtracting, multiplied instead of adding...
REVERSED_DIGITS = "reversed_digits"
OTHER = "other"

KINDS = (OFF_BY_ONE, OFF_BY_TEN, WRONG_OPERATION, REVERSED_DIGITS, OTHER)


def _results(operands: Sequence[int]) -> dict[str, int]:
    a, b = operands[0], operands[1]
    return {"+": a + b, "-": abs(a - b), "x": a * b}


def classify(
    operands: Sequence[int], operator: str, answer: int | None, expected: int | None
) -> str:
    """The kind of a wrong attempt; "" for a right one or one that cannot be judged."""
    if answer is None or expected is None or answer == expected:
        return ""
    if len(operands) == 2 and operator in {"+", "-", "x"}:
        others = {op: value for op, value in _results(operands).items() if op != operator}
        if answer in others.values():
            return WRONG_OPERATION
    difference = abs(answer - expected)
    if difference == 1:
        return OFF_BY_ONE
    if difference == 10:
        return OFF_BY_TEN
    if 10 <= expected <= 99 and answer == int(str(expected)[::-1]):
        return REVERSED_DIGITS
    return OTHER
