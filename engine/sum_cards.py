"""SUM's cards and how a row of them reads as an equation (rulebook seeds/001_9ff072ae66cb9f1b.txt,
RULINGS 2; docs/rules/sum.md).

Cards are ids 0..194 (RULINGS 2: 119 number cards, 76 operation cards). The state keeps ids only;
the face of an id is a constant table below, so the state stays small and fast to clone.
``engine.sum`` plays the moves with them; ``engine.sum_search`` searches a hand for equations.
"""

from __future__ import annotations

# --- the cards (RULINGS 2) -----------------------------------------------------------------------

# RULINGS 2: "119 number cards (1 and 2 fourteen times, 3-9 thirteen times each)".
NUMBER_COPIES = {1: 14, 2: 14, **dict.fromkeys(range(3, 10), 13)}
# RULINGS 2: "+ - x ÷ seventeen each and two of each wild card".
OPERATIONS = ("+", "-", "x", "÷")
OPERATION_COPIES = 17
WILDS = ("propagation", "neutralization", "radicalization", "rotation")
WILD_COPIES = 2

NUMBER, OPERATION, WILD = "number", "operation", "wild"


def _build_faces() -> tuple[tuple, tuple]:
    faces: list[int | str] = []
    kinds: list[str] = []
    for value, copies in NUMBER_COPIES.items():
        faces += [value] * copies
        kinds += [NUMBER] * copies
    for op in OPERATIONS:
        faces += [op] * OPERATION_COPIES
        kinds += [OPERATION] * OPERATION_COPIES
    for wild in WILDS:
        faces += [wild] * WILD_COPIES
        kinds += [WILD] * WILD_COPIES
    return tuple(faces), tuple(kinds)


FACE, KIND = _build_faces()  # FACE[id]: 1..9, "+", "-", "x", "÷" or a wild's name
CARD_COUNT = len(FACE)
NUMBER_IDS = tuple(i for i in range(CARD_COUNT) if KIND[i] == NUMBER)
OPERATION_IDS = tuple(i for i in range(CARD_COUNT) if KIND[i] != NUMBER)  # wilds included
assert len(NUMBER_IDS) == 119 and len(OPERATION_IDS) == 76  # RULINGS 2

# The equation search works on counts, not ids: RANK[id] is the card's slot in a 13-long count
# vector (values 1..9 then + - x ÷); wilds have no slot because they never enter an equation.
SLOTS = 13
OP_SLOT = {op: 9 + i for i, op in enumerate(OPERATIONS)}
MINUS_SLOT = OP_SLOT["-"]
RANK = tuple(
    FACE[i] - 1 if KIND[i] == NUMBER else OP_SLOT[FACE[i]] if KIND[i] == OPERATION else -1
    for i in range(CARD_COUNT)
)
CARD_VIEW = tuple(
    {"id": i, "kind": NUMBER, "value": FACE[i]}
    if KIND[i] == NUMBER
    else {"id": i, "kind": OPERATION, "op": FACE[i]}
    if KIND[i] == OPERATION
    else {"id": i, "kind": WILD, "wild": FACE[i]}
    for i in range(CARD_COUNT)
)

HAND_NUMBERS = 4  # rulebook: "Everyone starts with 7 cards, 4 from the Numbers deck
HAND_OPERATIONS = 3  # and 3 from the Operations deck."
DRAWS_PER_TURN = 2  # rulebook: "They can draw up to 2 cards per turn"
SOURCES = {"numbers": "numbers", "operations": "operations"}  # move "from" -> state pile key


# --- expressions ---------------------------------------------------------------------------------


class NotAnExpression(ValueError):
    """The cards, in this order, do not read as an expression (a structural error)."""


def parse(faces: list) -> tuple[list[int], list[str], list[str], list[int]]:
    """Read card faces as ``operand (op operand)*``; returns operand values, binary operators,
    the operands' written forms and the faces used as pairs. A pair is written as the one number
    it stands for (seeds/001: "Two number 2 cards can be used as a 4"): brackets would read as a
    card the game does not have.

    RULINGS 2: "a '-' card in front of a number makes it negative, two equal number cards side by
    side may act as one number worth their sum"; "at least one operation card".
    """
    operands: list[int] = []
    written: list[str] = []
    operators: list[str] = []
    pairs: list[int] = []
    i, n = 0, len(faces)
    if n == 0:
        raise NotAnExpression("an equation needs cards")
    while True:
        negative = False
        if faces[i] == "-" and i + 1 < n and isinstance(faces[i + 1], int):
            negative = True  # a '-' in front of a number, not between two operands
            i += 1
        if not isinstance(faces[i], int):
            raise NotAnExpression("two operation cards in a row, or an operation card first")
        value = faces[i]
        text = str(value)
        i += 1
        if i < n and isinstance(faces[i], int):
            if faces[i] != value:
                raise NotAnExpression("two different number cards side by side")
            pairs.append(value)  # a pair acts as one number worth their sum
            value += value
            text = str(value)
            i += 1
            if i < n and isinstance(faces[i], int):
                raise NotAnExpression("three number cards side by side")
        operands.append(-value if negative else value)
        written.append(f"-{text}" if negative else text)
        if i == n:
            break
        operators.append(faces[i])
        i += 1
        if i == n:
            raise NotAnExpression("an equation cannot end with an operation card")
    if not operators and not written[0].startswith("-"):
        raise NotAnExpression("an equation uses at least one operation card")
    return operands, operators, written, pairs


def evaluate(operands: list[int], operators: list[str]) -> int | None:
    """Standard precedence (x ÷ before + -, left to right), no brackets; None when a division is
    not exact (RULINGS 2: "every division exact")."""
    total = 0
    term = operands[0]
    for op, value in zip(operators, operands[1:], strict=True):
        if op == "x":
            term *= value
        elif op == "÷":
            if term % value:  # divisors are never 0: cards are 1-9, pairs 2-18
                return None
            term //= value
        else:
            total += term
            term = value if op == "+" else -value
    return total + term


def expression_text(written: list[str], operators: list[str]) -> str:
    parts = [written[0]]
    for op, text in zip(operators, written[1:], strict=True):
        parts += [op, text]
    return "".join(parts)


def operator_label(operators: list[str]) -> str:
    """The attempt's operator: the one operation used, "mixed" for several; a lone negated number
    counts as "-"."""
    kinds = set(operators)
    if len(kinds) == 1:
        return operators[0]
    return "mixed" if kinds else "-"
