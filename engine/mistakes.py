"""What kind of slip a wrong answer is, so a teacher sees patterns and not just a score.

Pure arithmetic on an attempt's operands, operator, answer and expected value; the kinds are
stable strings (the teaching layer translates them). docs/slips.md gives each kind's sources and
examples; a wrong answer gets the first kind, in the order of ``KINDS``, whose test it meets.
"""

from __future__ import annotations

from collections.abc import Sequence

WRONG_OPERATION = "wrong_operation"  # 8 - 4 = 12: added instead of taking away
REGROUPING = "regrouping"  # 27 + 15 = 32, 42 - 17 = 35: a carry or a borrow gone wrong
TABLE_NEIGHBOUR = "table_neighbour"  # 7 x 8 = 63: the answer of 7 x 9, a fact next door
TABLE_RELATED = "table_related"  # 7 x 8 = 42: another fact of the 7 (or 8) times table
OPERAND_MISREAD = "operand_misread"  # 12 + 5 = 26: 21 read for 12
REVERSED_DIGITS = "reversed_digits"  # 31 written 13 (two-digit answers only)
OFF_BY_ONE = "off_by_one"  # 8 + 5 = 14: a counting slip
OFF_BY_TWO = "off_by_two"  # 8 + 5 = 15: a close miss, counting on from the wrong number
OFF_BY_TEN = "off_by_ten"  # 28 + 4 = 22: a place-value slip
OPERAND_INTRUSION = "operand_intrusion"  # 9 - 4 = 9: a number of the problem given back
FAR_OFF = "far_off"  # 6 + 8 = 3: more than half the answer away, as a guess is
OTHER = "other"

KINDS = (
    WRONG_OPERATION,
    REGROUPING,
    TABLE_NEIGHBOUR,
    OPERAND_MISREAD,
    REVERSED_DIGITS,
    TABLE_RELATED,
    OFF_BY_ONE,
    OFF_BY_TWO,
    OFF_BY_TEN,
    OPERAND_INTRUSION,
    FAR_OFF,
    OTHER,
)
# A table-related answer is a product of one operand and one of these (1 x n is the operand
# itself: an intrusion, not a fact of the table).
_TABLE_MULTIPLIERS = range(2, 11)
_BASIC = {"+", "-", "x"}


def _result(a: int, b: int, operator: str) -> int:
    if operator == "+":
        return a + b
    if operator == "-":
        return abs(a - b)  # the games ask for the difference: larger minus smaller
    return a * b


def _digits(n: int) -> list[int]:
    """Units first."""
    return [int(d) for d in reversed(str(abs(n)))]


def _from_digits(digits: Sequence[int]) -> int:
    return int("".join(str(d) for d in reversed(digits)) or "0")


def _columns_without_regrouping(a: int, b: int, operator: str) -> set[int]:
    """The answers of the column-by-column slips: an addition that drops its carries (27 + 15 =
    32) or writes each column's sum whole (27 + 15 = 312); a subtraction that takes the smaller
    digit from the larger in every column (43 - 17 = 34, "smaller from larger") or borrows a ten
    without taking it from the next column (43 - 17 = 36). Only when the true answer needed a
    regrouping: otherwise these columns give the right answer."""
    if a < 0 or b < 0:
        return set()
    if operator == "-":
        a, b = max(a, b), min(a, b)
    width = max(len(str(a)), len(str(b)))
    top = _digits(a) + [0] * (width - len(str(a)))
    bottom = _digits(b) + [0] * (width - len(str(b)))
    answers = set()
    if operator == "+":
        if not any(x + y >= 10 for x, y in zip(top, bottom, strict=True)):
            return set()
        answers.add(_from_digits([(x + y) % 10 for x, y in zip(top, bottom, strict=True)]))
        columns = [x + y for x, y in zip(top, bottom, strict=True)]
        answers.add(int("".join(str(column) for column in reversed(columns))))
    elif operator == "-":
        if not any(x < y for x, y in zip(top, bottom, strict=True)):
            return set()
        answers.add(_from_digits([abs(x - y) for x, y in zip(top, bottom, strict=True)]))
        # Borrowed a ten for the column but did not take it from the next one.
        unpaid = [(x + 10 - y) if x < y else x - y for x, y in zip(top, bottom, strict=True)]
        answers.add(_from_digits(unpaid))
    answers.discard(_result(a, b, operator))
    return answers


def _reversed(n: int) -> int | None:
    """31 -> 13 for a two-digit number with two different digits; None otherwise (10 is not
    "01" reversed)."""
    if 10 <= n <= 99 and n % 10 != n // 10 and n % 10:
        return int(str(n)[::-1])
    return None


def classify(
    operands: Sequence[int], operator: str, answer: int | None, expected: int | None
) -> str:
    """The kind of a wrong attempt; "" for a right one or one that cannot be judged."""
    if answer is None or expected is None or answer == expected:
        return ""
    pair = (
        len(operands) == 2
        and operator in _BASIC
        and all(isinstance(n, int) and not isinstance(n, bool) for n in operands)
    )
    if pair:
        a, b = operands
        if answer in {_result(a, b, other) for other in _BASIC - {operator}}:
            return WRONG_OPERATION
        if answer in _columns_without_regrouping(a, b, operator):
            return REGROUPING
        if operator == "x" and answer in {
            _result(x, y, "x") for x, y in ((a - 1, b), (a + 1, b), (a, b - 1), (a, b + 1))
        }:
            return TABLE_NEIGHBOUR
        misread = {_result(r, b, operator) for r in [_reversed(a)] if r is not None}
        misread |= {_result(a, r, operator) for r in [_reversed(b)] if r is not None}
        if answer in misread:
            return OPERAND_MISREAD
    if answer >= 0 and _reversed(expected) == answer:
        return REVERSED_DIGITS
    if (
        pair
        and operator == "x"
        and answer in {n * m for n in operands if 1 < n <= 10 for m in _TABLE_MULTIPLIERS}
    ):
        return TABLE_RELATED
    if answer < 0 <= expected:
        # ADD UP's card laid on the bigger row: a sign, not a distance from the answer.
        return OTHER
    difference = abs(answer - expected)
    if difference == 1:
        return OFF_BY_ONE
    if difference == 2:
        return OFF_BY_TWO
    if difference == 10:
        return OFF_BY_TEN
    if pair and answer in operands:
        return OPERAND_INTRUSION
    if difference >= 3 and 2 * difference > max(expected, 1):
        return FAR_OFF
    return OTHER
