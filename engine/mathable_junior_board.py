"""Mathable Junior's boards, tiles and the arithmetic of a square (rulebook seeds/003, RULINGS 4;
docs/rules/mathable_junior.md).

Equation geometry (RULINGS 4): a tile on square S completes an equation with the two tiles lying
next to S in one straight line on one side (up, down, left or right): its value is a+b or |a-b|.
So each square has at most four "lines" (near, far); they are precomputed once at import.

The board is a flat row-major list of 100 ints, 0 for an empty square (tiles are 1-20), which keeps
the state small to clone. The pot is an unordered list; a draw takes a seeded-random element.
``engine.mathable_junior`` plays the moves on them; ``engine.mathable_junior_bots`` plays by them.
"""

from __future__ import annotations

from collections import Counter

from engine import data as engine_data
from engine.core import require_int

# --- the boards and the tiles --------------------------------------------------------------------
_DATA = engine_data.load("mathable_junior")
SIZE = 10
SQUARE_COUNT = SIZE * SIZE
RACK_SIZE = 5  # RULINGS 4 (front): racks of 5
BACK_HAND = 3  # RULINGS 4 (back): each player holds 3 face-up tiles
FULL_RACK_BONUS = 25  # RULINGS 4: +25 when you began the turn with 5 tiles and placed them all
LOWEST_TILE, HIGHEST_TILE = 1, 20


def _tile_set(spec: dict[str, int]) -> tuple[int, ...]:
    """RULINGS 4: "60 tiles: 1-10 five times each, 11-20 once each" from the data file's spec."""
    tiles = []
    for span, copies in spec.items():
        low, high = (int(part) for part in span.split("-"))
        tiles.extend(value for value in range(low, high + 1) for _ in range(copies))
    return tuple(sorted(tiles))


ALL_TILES = _tile_set(_DATA["tiles"])


def _neighbour_lines(square: int) -> tuple[tuple[int, int], ...]:
    """(near, far) squares of each straight line of two squares next to ``square``: up, down,
    left, right. Never diagonal, and never one tile on each side (a gap X _ Y is not a line)."""
    row, col = divmod(square, SIZE)
    lines = []
    for d_row, d_col in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        far_row, far_col = row + 2 * d_row, col + 2 * d_col
        if 0 <= far_row < SIZE and 0 <= far_col < SIZE:
            lines.append(((row + d_row) * SIZE + col + d_col, far_row * SIZE + far_col))
    return tuple(lines)


LINES = tuple(_neighbour_lines(square) for square in range(SQUARE_COUNT))
# The squares whose lines go through a square: only their equations change when it is filled.
DEPENDENTS = tuple(
    tuple(other for other in range(SQUARE_COUNT) if any(square in line for line in LINES[other]))
    for square in range(SQUARE_COUNT)
)

NEIGHBOURS = tuple(
    tuple(
        (row + d_row) * SIZE + col + d_col
        for row, col in (divmod(square, SIZE),)
        for d_row, d_col in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if 0 <= row + d_row < SIZE and 0 <= col + d_col < SIZE
    )
    for square in range(SQUARE_COUNT)
)

FRONT_LAYOUT = tuple(tuple(row) for row in _DATA["front_layout"])
FRONT_LABELS = tuple(label for row in FRONT_LAYOUT for label in row)
# RULINGS 4: on a '+' or '-' square only equations of that operation count; elsewhere both do.
FRONT_OPERATIONS = tuple(
    (label != "-", label != "+") for label in FRONT_LABELS
)  # (addition allowed, subtraction allowed)
FRONT_MULTIPLIER = tuple(2 if label == "2X" else 1 for label in FRONT_LABELS)
FRONT_DRAW_SQUARE = tuple(label in ("+", "-") for label in FRONT_LABELS)
# RULINGS 4: "centre squares printed 1 2 / 3 4; setup puts tiles 1, 2, 3, 4 from the pot on them".
FRONT_CENTRE = {square: int(label) for square, label in enumerate(FRONT_LABELS) if label.isdigit()}

BACK_GRID = tuple(tuple(row) for row in _DATA["back_grid"])
BACK_NUMBERS = tuple(number for row in BACK_GRID for number in row)
SQUARES_BY_NUMBER = {
    value: tuple(sq for sq, number in enumerate(BACK_NUMBERS) if number == value)
    for value in range(LOWEST_TILE, HIGHEST_TILE + 1)
}
BOTH_OPERATIONS = (True, True)


# --- arithmetic on the board ---------------------------------------------------------------------


def completed_equations(
    board: list[int], square: int, value: int, operations: tuple[bool, bool]
) -> list[tuple[int, int, str]]:
    """The equations ``value`` completes on ``square``: (first, second, operator), read as
    "first op second = value". At most one per line, since a+b never equals |a-b| for tiles >= 1."""
    plus, minus = operations
    found = []
    for near, far in LINES[square]:
        near_value = board[near]
        far_value = board[far]
        if not near_value or not far_value:
            continue
        if plus and far_value + near_value == value:
            found.append((far_value, near_value, "+"))
        elif minus and abs(far_value - near_value) == value:
            found.append((max(far_value, near_value), min(far_value, near_value), "-"))
    return found


def square_targets(board: list[int], square: int, operations: tuple[bool, bool]) -> dict[int, int]:
    """Tile value -> number of equations it would complete on the empty ``square``."""
    plus, minus = operations
    targets: dict[int, int] = {}
    for near, far in LINES[square]:
        near_value = board[near]
        far_value = board[far]
        if not near_value or not far_value:
            continue
        if plus:
            total = far_value + near_value
            if total <= HIGHEST_TILE:
                targets[total] = targets.get(total, 0) + 1
        if minus:
            difference = abs(far_value - near_value)
            if difference:
                targets[difference] = targets.get(difference, 0) + 1
    return targets


def closest_equation(
    board: list[int], square: int, value: int, operations: tuple[bool, bool]
) -> tuple[int, int, str, int] | None:
    """For a wrong drop: of the equations the square's lines allow, the one whose result is
    closest to the tile placed (first line up, down, left, right, and '+' before '-' on a tie).
    (first, second, operator, result), or None when no line of two tiles touches the square."""
    plus, minus = operations
    best = None
    best_gap = None
    for near, far in LINES[square]:
        near_value = board[near]
        far_value = board[far]
        if not near_value or not far_value:
            continue
        candidates = []
        if plus:
            candidates.append((far_value, near_value, "+", far_value + near_value))
        if minus:
            high, low = max(far_value, near_value), min(far_value, near_value)
            candidates.append((high, low, "-", high - low))
        for candidate in candidates:
            gap = abs(candidate[3] - value)
            if best_gap is None or gap < best_gap:
                best, best_gap = candidate, gap
    return best


def equation_json(first: int, second: int, operator: str, result: int) -> dict:
    return {"operands": [first, second], "operator": operator, "result": result}


def draw_from_pot(pot: list[int], rng) -> int:
    """A seeded-random tile from the unordered pot (swap-with-last keeps it O(1))."""
    index = rng.below(len(pot))
    pot[index], pot[-1] = pot[-1], pot[index]
    return pot.pop()


def board_rows(board: list[int]) -> list[list[int | None]]:
    return [
        [value or None for value in board[start : start + SIZE]]
        for start in range(0, SQUARE_COUNT, SIZE)
    ]


def square_of(move) -> tuple[int, int, int]:
    row = require_int(move, "row", 0, SIZE - 1)
    col = require_int(move, "col", 0, SIZE - 1)
    return row, col, row * SIZE + col


def place_move(tile: int, square: int) -> dict:
    row, col = divmod(square, SIZE)
    return {"type": "place", "tile": tile, "row": row, "col": col}


def sub_multisets(rack: list[int], largest: int) -> list[list[int]]:
    """Every distinct non-empty sub-multiset of ``rack`` of at most ``largest`` tiles, sorted."""
    counts = sorted(Counter(rack).items())
    results: list[list[int]] = [[]]
    for value, copies in counts:
        results = [chosen + [value] * k for chosen in results for k in range(copies + 1)]
    return sorted(chosen for chosen in results if 0 < len(chosen) <= largest)


def back_scoring_square(board, tile) -> int | None:
    """The back side: the first empty square printed with ``tile`` where it would complete an
    equation, or None (the bots place by it; the rules ask it whether a drop could have scored)."""
    for square in SQUARES_BY_NUMBER[tile]:
        if not board[square] and completed_equations(board, square, tile, BOTH_OPERATIONS):
            return square
    return None
