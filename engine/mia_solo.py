"""¡Mía! solo square: solo5, solo4 and solo3 (rulebook seeds/000 "5x5 (Solo mode)", RULINGS 1
"Solo NxN"; docs/rules/mia_solo.md).

One player clears an N by N square of 1-point operation cards with a hand of 5 number cards. A card
may be solved only when it is open (an outermost card, never joined to the rest by a corner only);
solving it discards the two number cards and draws 2. When stuck the player swaps 2 cards for 2
from the deck, and the swaps used decide the stars.

This module holds the solo square's setup, geometry, end and view, which ``engine.mia.Mia`` uses
for the solo variants; the Game plays the solve and swap moves itself. The solver, which may read
the whole deal (the deck order is fixed by the seed) and which the hint and the bots use, is
``engine.mia_solver``; the puzzle maker, which rates and picks deals for homework, is
``engine.mia_puzzles``.

State ``data`` (JSON):
    size      N
    grid      N*N operation card ids, row by row; None where a card has been solved
    hand      the player's number card ids
    deck      the number card ids still to draw, next card first
    discard   number card ids used or swapped away, face up, oldest first
    solved    operation card ids solved, in order
    swaps     swaps used;  mistakes: wrong solves
    result    None while playing, then "won" or "lost"
    since_ms  when the current decision began (for the attempts' elapsed_ms)
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from engine import core, mia_cards
from engine.core import IllegalMove, Outcome, Variant, require
from engine.mia_cards import number_cards, number_face, operation_cards, result_of
from engine.mia_cards import operation_face as _operation_face

VARIANTS: dict[str, Variant] = core.variants(
    Variant("solo5", "¡Mía! solo square 5×5", 1, 1, {}),
    Variant("solo4", "¡Mía! solo square 4×4 (children)", 1, 1, {}),
    Variant("solo3", "¡Mía! solo square 3×3 (children)", 1, 1, {}),
)
SIZES = {"solo5": 5, "solo4": 4, "solo3": 3}

HAND_SIZE = 5  # RULINGS 1 Solo: "hand of 5"
DRAW_AFTER_SOLVE = 2  # RULINGS 1 Solo: "remove the card and the two number cards, draw 2"
SWAP_SIZE = 2  # RULINGS 1 Solo: "swap 2 cards of your choice for 2 from the deck"

# Stars from swaps used (RULINGS 1 Solo: "Stars from swaps used"); the scale is ours, see the doc.
THREE_STARS_MAX_SWAPS = 0
TWO_STARS_MAX_SWAPS = 2

# Structural error codes of the solo square (docs/rules/mia_solo.md).
NOT_IN_HAND = "not_in_hand"
SAME_CARD = "same_card"
EMPTY_CELL = "empty_cell"
BLOCKED_CARD = "blocked_card"
DECK_SHORT = "deck_short"

# --- the cards of the solo game ------------------------------------------------------------------


@cache
def solo_operation_ids() -> tuple[int, ...]:
    """RULINGS 1 Solo: "remove all special cards; deal N*N operation cards of 1 point" (the
    rulebook: "without including any extra value cards (x2 and x3)")."""
    return tuple(
        i
        for i, card in enumerate(operation_cards())
        if card["kind"] == "operation" and card["points"] == 1
    )


@cache
def solo_number_ids() -> tuple[int, ...]:
    """RULINGS 1 Solo: "remove all special cards": Wild and Extra time stay in the box."""
    return tuple(i for i, card in enumerate(number_cards()) if card["kind"] == "number")


@cache
def number_values() -> tuple[int | None, ...]:
    return tuple(card.get("value") for card in number_cards())


@cache
def _solving_pairs() -> tuple[dict[tuple[int, int], int], ...]:
    """For each operation card: {(a, b) with a <= b: the first option index that a, b solve}.
    The whole solo game only asks "does this pair solve this card", so it is computed once."""
    table = []
    for card in operation_cards():
        pairs: dict[tuple[int, int], int] = {}
        if card["kind"] == "operation":
            for a in range(1, 10):
                for b in range(a, 10):
                    for index, option in enumerate(card["options"]):
                        if result_of(a, b, option["op"]) == option["target"]:
                            pairs.setdefault((a, b), index)
        table.append(pairs)
    return tuple(table)


@cache
def _operation_face_cached(card_id: int) -> dict:
    return _operation_face(card_id)


def op_face(card_id: int) -> dict:
    # Views are rebuilt on every move; a shallow copy of a cached face keeps that cheap while no
    # caller can change the cached one by editing its view.
    return dict(_operation_face_cached(card_id))


# --- the square's geometry -----------------------------------------------------------------------


@cache
def _neighbours(size: int) -> tuple[tuple[int, int, int, int, int, int, int, int], ...]:
    """Per cell: left, right, up, down, then the diagonals up-left, up-right, down-left,
    down-right, as bit positions; -1 off the square."""

    def bit(r: int, c: int) -> int:
        return r * size + c if 0 <= r < size and 0 <= c < size else -1

    return tuple(
        (
            bit(r, c - 1),
            bit(r, c + 1),
            bit(r - 1, c),
            bit(r + 1, c),
            bit(r - 1, c - 1),
            bit(r - 1, c + 1),
            bit(r + 1, c - 1),
            bit(r + 1, c + 1),
        )
        for r in range(size)
        for c in range(size)
    )


@cache
def open_cells(size: int, mask: int) -> tuple[int, ...]:
    """The cells (r * size + c) whose card may be solved, for the occupied cells in ``mask``.

    RULINGS 1 Solo: "A card may be solved when it is not flanked on both left and right, not
    flanked on both top and bottom, and, if it has exactly one vertical and one horizontal
    neighbour, the diagonal cell between them is occupied (so no two cards are ever joined only by
    a corner; at the start only the 4 corners are open)". Cached: a 5x5 square has 47,106
    reachable masks, and the solver asks about the same ones again and again."""

    def has(bit: int) -> bool:
        return bit >= 0 and (mask >> bit) & 1 == 1

    cells = []
    for cell, (left, right, up, down, ul, ur, dl, dr) in enumerate(_neighbours(size)):
        if not (mask >> cell) & 1:
            continue
        has_left, has_right, has_up, has_down = has(left), has(right), has(up), has(down)
        if (has_left and has_right) or (has_up and has_down):
            continue  # flanked on both sides: "never those whose two sides are adjacent"
        if (has_left or has_right) and (has_up or has_down):
            # One horizontal and one vertical neighbour: removing this card would leave them
            # joined by a corner only, unless the cell between them (diagonal) holds a card.
            if has_up:
                diagonal = ul if has_left else ur
            else:
                diagonal = dl if has_left else dr
            if not has(diagonal):
                continue
        cells.append(cell)
    return tuple(cells)


def mask_of(grid: list) -> int:
    mask = 0
    for cell, card in enumerate(grid):
        if card is not None:
            mask |= 1 << cell
    return mask


# --- setup and the rules -------------------------------------------------------------------------


def setup(state, rng, now_ms: int, focus: tuple = ()) -> None:
    """RULINGS 1 Solo: deal N*N 1-point operation cards face up in an N by N square; hand of 5.
    Rulebook: "Select 25 operation cards at random ... Place them face up randomly forming a 5x5
    square ... Take 5 random number cards and form a deck with the remaining ones." """
    size = SIZES[state.variant]
    operations = list(solo_operation_ids())
    rng.shuffle(operations)
    numbers = list(solo_number_ids())
    rng.shuffle(numbers)
    if focus:
        _steer(operations, numbers, size, rng, focus)
    state.data = {
        "size": size,
        "grid": operations[: size * size],
        "hand": numbers[:HAND_SIZE],
        "deck": numbers[HAND_SIZE:],
        "discard": [],
        "solved": [],
        "swaps": 0,
        "mistakes": 0,
        "result": None,
        "since_ms": now_ms,
    }


def shows(fact) -> bool:
    """Whether a solo square can hold a card that a claim of ``fact`` solves."""
    return mia_cards.shows(fact, solo_operation_ids())


def _steer(operations: list[int], numbers: list[int], size: int, rng, facts) -> None:
    """Orders the shuffled cards so that the focus facts are the natural solves
    (docs/rules/mia_solo.md, "Focused puzzles"): the square's cards offer the facts' options, in
    turn, the hand holds the pairs of the first facts and the deck gives the next facts' pairs,
    two by two, while their cards last. The same cards as ever, only their order is steered
    (RULINGS 1 Solo); whether the square can be cleared is the puzzle maker's to check."""
    mia_cards.steer_operations(operations, facts, size * size, rng)
    pairs = [(2 * j, facts[j % len(facts)]) for j in range(mia_cards.FOCUS_HAND_PAIRS)]
    pairs += [
        (position, facts[(mia_cards.FOCUS_HAND_PAIRS + j) % len(facts)])
        for j, position in enumerate(range(HAND_SIZE + 1, len(numbers) - 1, 2))
    ]
    mia_cards.steer_numbers(numbers, pairs, rng, set())


def active(state) -> frozenset:
    return frozenset() if state.data["result"] is not None else frozenset((0,))


def two_hand_cards(move: dict, hand: list) -> tuple[int, int]:
    cards = move.get("cards")
    if (
        not isinstance(cards, list)
        or len(cards) != 2
        or any(isinstance(c, bool) or not isinstance(c, int) for c in cards)
    ):
        raise IllegalMove(core.MALFORMED, "'cards' must be a list of two card ids")
    first, second = cards
    require(first != second, SAME_CARD, "choose two different cards")
    require(first in hand and second in hand, NOT_IN_HAND, "you do not hold that card")
    return first, second


def draw_cards(data: dict, count: int) -> int:
    """Draw up to ``count`` cards from the top of the deck; returns how many came."""
    deck = data["deck"]
    drawn = deck[:count]
    del deck[:count]
    data["hand"].extend(drawn)
    return len(drawn)


def _right_solve_exists(data: dict) -> bool:
    size, grid = data["size"], data["grid"]
    values = number_values()
    hand_values = sorted(values[c] for c in data["hand"])
    pairs = set(combinations(hand_values, 2))
    solving = _solving_pairs()
    return any(
        not pairs.isdisjoint(solving[grid[cell]]) for cell in open_cells(size, mask_of(grid))
    )


def settle(data: dict, events: list) -> None:
    """Decide the end. RULINGS 1 Solo: "won when the square is empty"; "lost when the number deck
    cannot refill": our reading is when no right solve is left and the deck cannot give a swap
    (fewer than 2 cards), so a player plays the hand out after the deck runs dry."""
    if all(c is None for c in data["grid"]):
        data["result"] = "won"
        reason = "square_empty"
    elif len(data["deck"]) < SWAP_SIZE and not _right_solve_exists(data):
        data["result"] = "lost"
        reason = "deck_cannot_refill"
    else:
        return
    events.append(
        {
            "type": "game_end",
            "result": data["result"],
            "reason": reason,
            "stars": _stars(data),
            "swaps": data["swaps"],
            "mistakes": data["mistakes"],
            "cleared": len(data["solved"]),
            "cards_total": data["size"] ** 2,
        }
    )


def stars_for(swaps: int) -> int:
    """The stars of a cleared square: 3 with no swap, 2 with 1-2 swaps, 1 with more."""
    if swaps <= THREE_STARS_MAX_SWAPS:
        return 3
    if swaps <= TWO_STARS_MAX_SWAPS:
        return 2
    return 1


def _stars(data: dict) -> int:
    return stars_for(data["swaps"]) if data["result"] == "won" else 0


def outcome(state) -> Outcome | None:
    """None while playing; the score is the stars (1-3 won, 0 lost); winners [0] when the square
    was cleared, [] when the puzzle was lost."""
    data = state.data
    if data["result"] is None:
        return None
    return Outcome([_stars(data)], [0] if data["result"] == "won" else [])


# --- what a seat may see -------------------------------------------------------------------------


def view(state, seat) -> dict:
    """The square, the open cells and the counts are public; the hand only to its player (a
    spectator sees how many cards it holds); the deck only as a count."""
    data = state.data
    size, grid = data["size"], data["grid"]
    square = [
        [None if card is None else op_face(card) for card in grid[r * size : (r + 1) * size]]
        for r in range(size)
    ]
    playing = data["result"] is None
    shown = {
        "size": size,
        "square": square,
        "open": [[c // size, c % size] for c in open_cells(size, mask_of(grid))] if playing else [],
        "hand_count": len(data["hand"]),
        "deck_count": len(data["deck"]),
        "discard": [number_face(c) for c in data["discard"]],
        "cleared": len(data["solved"]),
        "cards_total": size * size,
        "swaps": data["swaps"],
        "mistakes": data["mistakes"],
        "can_swap": playing and len(data["deck"]) >= SWAP_SIZE,
        "result": data["result"],
        "stars": None if playing else _stars(data),
        "stars_if_cleared": stars_for(data["swaps"]),
        "since_ms": data["since_ms"],
    }
    if seat == 0:
        shown["hand"] = [number_face(c) for c in data["hand"]]
    return shown


# --- legal moves ---------------------------------------------------------------------------------


def legal_moves(state, seat) -> list[dict]:
    """Every solve of an open card with two hand cards and either option (wrong ones included),
    then every swap when the deck holds 2 cards."""
    data = state.data
    if data["result"] is not None or seat != 0:
        return []
    size, hand = data["size"], data["hand"]
    pairs = list(combinations(hand, 2))
    moves = [
        {"type": "solve", "row": cell // size, "col": cell % size, "cards": [x, y], "option": o}
        for cell in open_cells(size, mask_of(data["grid"]))
        for x, y in pairs
        for o in (0, 1)
    ]
    if len(data["deck"]) >= SWAP_SIZE:
        moves += [{"type": "swap", "cards": [x, y]} for x, y in pairs]
    return moves


def _right_solves(data: dict) -> list[dict]:
    size, grid, hand = data["size"], data["grid"], data["hand"]
    values = number_values()
    solving = _solving_pairs()
    moves = []
    for cell in open_cells(size, mask_of(grid)):
        pairs = solving[grid[cell]]
        for x, y in combinations(hand, 2):
            a, b = values[x], values[y]
            option = pairs.get((a, b) if a <= b else (b, a))
            if option is not None:
                moves.append(
                    {
                        "type": "solve",
                        "row": cell // size,
                        "col": cell % size,
                        "cards": [x, y],
                        "option": option,
                    }
                )
    return moves
