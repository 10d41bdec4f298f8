"""Mathable Junior, the cross-number game (rulebook seeds/003, RULINGS 4; docs/rules/...md).

Two variants share one geometry. ``front``: a 10x10 board with '+', '-' and '2X' squares, hidden
racks of 5, a tile scores its value x the equations it completes. ``back``: the numbered grid, 3
face-up tiles each placed on a square printed with its own number, 1 point per tile that completes
an equation.

Equation geometry (RULINGS 4): a tile on square S completes an equation with the two tiles lying
next to S in one straight line on one side (up, down, left or right): its value is a+b or |a-b|.
So each square has at most four "lines" (near, far); they are precomputed once at import.

The board is a flat row-major list of 100 ints, 0 for an empty square (tiles are 1-20), which keeps
the state small to clone. The pot is an unordered list; a draw takes a seeded-random element.
"""

from __future__ import annotations

from bisect import insort
from collections import Counter

from engine import data as engine_data
from engine.core import (
    MALFORMED,
    UNKNOWN_MOVE,
    Fact,
    Focus,
    Game,
    IllegalMove,
    Option,
    Variant,
    attempt_event,
    fact_value,
    first_player_option,
    outcome_from_scores,
    plays,
    require,
    require_int,
    same_fact,
    swap_in,
    variants,
)

# --- stable IllegalMove codes (docs/rules/mathable_junior.md lists them) ------------------------
TILE_NOT_IN_RACK = "tile_not_in_rack"
SQUARE_OCCUPIED = "square_occupied"
WRONG_NUMBER = "wrong_number"
EXCHANGE_AFTER_PLACE = "exchange_after_place"
POT_TOO_SMALL = "pot_too_small"
NO_EXTRA_DRAW = "no_extra_draw"
POT_EMPTY = "pot_empty"

# --- the boards and the tiles --------------------------------------------------------------------
_DATA = engine_data.load("mathable_junior")
SIZE = 10
SQUARE_COUNT = SIZE * SIZE
RACK_SIZE = 5  # RULINGS 4 (front): racks of 5
BACK_HAND = 3  # RULINGS 4 (back): each player holds 3 face-up tiles
FULL_RACK_BONUS = 25  # RULINGS 4: +25 when you began the turn with 5 tiles and placed them all
# Project decision (neither rulebook nor rulings): a child may retry a wrong drop, but at most this
# many times a turn, so every turn (and random play) ends; mirrors SUM's "3 wrong equations a turn".
WRONG_DROPS_PER_TURN = 3
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
_FRONT_LABELS = tuple(label for row in FRONT_LAYOUT for label in row)
# RULINGS 4: on a '+' or '-' square only equations of that operation count; elsewhere both do.
FRONT_OPERATIONS = tuple(
    (label != "-", label != "+") for label in _FRONT_LABELS
)  # (addition allowed, subtraction allowed)
FRONT_MULTIPLIER = tuple(2 if label == "2X" else 1 for label in _FRONT_LABELS)
FRONT_DRAW_SQUARE = tuple(label in ("+", "-") for label in _FRONT_LABELS)
# RULINGS 4: "centre squares printed 1 2 / 3 4; setup puts tiles 1, 2, 3, 4 from the pot on them".
FRONT_CENTRE = {square: int(label) for square, label in enumerate(_FRONT_LABELS) if label.isdigit()}

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


def _equation_json(first: int, second: int, operator: str, result: int) -> dict:
    return {"operands": [first, second], "operator": operator, "result": result}


def _draw_from_pot(pot: list[int], rng) -> int:
    """A seeded-random tile from the unordered pot (swap-with-last keeps it O(1))."""
    index = rng.below(len(pot))
    pot[index], pot[-1] = pot[-1], pot[index]
    return pot.pop()


def _rows(board: list[int]) -> list[list[int | None]]:
    return [
        [value or None for value in board[start : start + SIZE]]
        for start in range(0, SQUARE_COUNT, SIZE)
    ]


def _square(move) -> tuple[int, int, int]:
    row = require_int(move, "row", 0, SIZE - 1)
    col = require_int(move, "col", 0, SIZE - 1)
    return row, col, row * SIZE + col


def _place_move(tile: int, square: int) -> dict:
    row, col = divmod(square, SIZE)
    return {"type": "place", "tile": tile, "row": row, "col": col}


def _sub_multisets(rack: list[int], largest: int) -> list[list[int]]:
    """Every distinct non-empty sub-multiset of ``rack`` of at most ``largest`` tiles, sorted."""
    counts = sorted(Counter(rack).items())
    results: list[list[int]] = [[]]
    for value, copies in counts:
        results = [chosen + [value] * k for chosen in results for k in range(copies + 1)]
    return sorted(chosen for chosen in results if 0 < len(chosen) <= largest)


# --- the game ------------------------------------------------------------------------------------


def right_placement_attempt(seat, found, tile, elapsed, row, col):
    """One placement is one decision, so one attempt: the first equation it completes (lines in
    the order up, down, left, right); the placement event lists all of them."""
    first, second, operator = found[0]
    return _placement_attempt(seat, (first, second, operator, tile), tile, elapsed, row, col)


def _placement_attempt(seat, line, tile, elapsed, row, col):
    """A tile laid as the answer to ``line`` (its two tiles, operator and result)."""
    first, second, operator, result = line
    return attempt_event(
        seat=seat,
        operands=[first, second],
        operator=operator,
        answer=tile,
        expected=result,
        correct=tile == result,
        elapsed_ms=elapsed,
        row=row,
        col=col,
    )


# --- focused deals (docs/rules/mathable_junior.md, "Focused deals") -------------------------------


def _opening_facts() -> tuple[Fact, ...]:
    """The facts the front's opening board asks: a tile laid next to two of the centre tiles 1 2 /
    3 4 in a line completes their sum or difference, as its attempt names it."""
    facts: list[Fact] = []
    for square in range(SQUARE_COUNT):
        if square in FRONT_CENTRE:
            continue
        plus, minus = FRONT_OPERATIONS[square]
        for near, far in LINES[square]:
            if near in FRONT_CENTRE and far in FRONT_CENTRE:
                far_value, near_value = FRONT_CENTRE[far], FRONT_CENTRE[near]
                if plus:
                    facts.append(("add", far_value, near_value))
                if minus:
                    high, low = max(far_value, near_value), min(far_value, near_value)
                    facts.append(("sub", high, low))
    return tuple(dict.fromkeys(facts))


OPENING_FACTS = _opening_facts()
# Each rack holds the answers of this many focus facts (the rest of it is the pot's chance).
FOCUS_RACK_TILES = 2


def _shows(variant: str, fact: Fact) -> bool:
    return variant == "front" and any(same_fact(fact, opening) for opening in OPENING_FACTS)


def _steer(racks: list[list[int]], pot: list[int], rng, facts) -> None:
    """Each rack holds the tiles that answer focus facts on the opening board, exchanged with
    tiles of the pot: the racks and the pot stay the same tiles (RULINGS 4), only the selection
    each rack drew is steered."""
    first = rng.below(len(facts))
    for rack in racks:
        tiles = rack + pot
        keep: set[int] = set()
        for j in range(min(FOCUS_RACK_TILES, len(facts), len(rack))):
            value = fact_value(facts[(first + j) % len(facts)])
            swap_in(tiles, j, lambda tile, v=value: tile == v, rng, keep)
        rack[:] = sorted(tiles[: len(rack)])
        pot[:] = tiles[len(rack) :]


class MathableJunior(Game):
    slug = "mathable_junior"
    score_key = "scores"
    answer_form = "placed"
    arena_table = ("front", 2)
    title = "Mathable Junior"
    focus = Focus(
        operations=frozenset(("add", "sub")),
        variants=("front",),
        how="Each rack holds the tiles that answer focus facts on the opening board (the sums "
        "and differences of the centre tiles 1 2 / 3 4).",
        shows=_shows,
    )
    variants = variants(
        Variant(
            "front",
            "Front side: +, - and 2X squares",
            2,
            4,
            {"first_player": first_player_option()},
        ),
        Variant(
            "back",
            "Back side: the numbered grid",
            2,
            4,
            {
                "first_player": first_player_option(),
                "priority": Option(
                    "priority",
                    False,
                    "bool",
                    "A tile that can complete an equation must be placed where it does.",
                ),
            },
        ),
    )

    # -- setup -------------------------------------------------------------------------------------

    def _setup_focused(self, state, rng, now_ms, facts):
        self._setup(state, rng, now_ms, facts)

    def _setup(self, state, rng, now_ms, focus=()):
        pot = list(ALL_TILES)
        board = [0] * SQUARE_COUNT
        if state.variant == "front":
            # RULINGS 4: tiles 1, 2, 3, 4 from the pot go on the centre squares printed 1 2 / 3 4.
            for square, value in FRONT_CENTRE.items():
                pot.remove(value)
                board[square] = value
            hand = RACK_SIZE
        else:
            hand = BACK_HAND  # the back side starts from an empty board
        racks = []
        for _ in range(state.players):
            rack = [_draw_from_pot(pot, rng) for _ in range(hand)]
            rack.sort()
            racks.append(rack)
        if focus:
            _steer(racks, pot, rng, focus)
        # RULINGS, common: the starting seat is drawn from the match seed (option: seat 0).
        first = 0 if state.options["first_player"] == "seat0" else rng.below(state.players)
        state.data = {
            "board": board,
            "racks": racks,
            "pot": pot,
            "scores": [0] * state.players,
            "turn": first,
            "wrong": 0,  # wrong drops this turn
            "since": now_ms,  # when the current decision began (attempt elapsed_ms)
            "end": None,  # why the game ended, once it has
        }
        if state.variant == "front":
            state.data.update(
                {
                    "placed": 0,  # tiles placed this turn
                    "draws": 0,  # extra draws earned on '+'/'-' squares, not yet taken
                    "full_rack": True,  # began the turn with 5 tiles, bonus not yet given
                    "passes": 0,  # turns in a row ended with no tile placed (not exchanges)
                }
            )

    # -- whose move --------------------------------------------------------------------------------

    def active(self, state):
        data = state.data
        return frozenset() if data["end"] else frozenset((data["turn"],))

    def outcome(self, state):
        data = state.data
        return outcome_from_scores(data["scores"]) if data["end"] else None

    # -- legal moves -------------------------------------------------------------------------------

    def legal_moves(self, state, seat):
        data = state.data
        if data["end"] or seat != data["turn"]:
            return []
        board = data["board"]
        rack = data["racks"][seat]
        values = sorted(set(rack))
        if state.variant == "back":
            # Each tile on any empty square printed with its number; non-scoring ones included.
            return [
                _place_move(value, square)
                for value in values
                for square in SQUARES_BY_NUMBER[value]
                if not board[square]
            ]
        empty = [square for square in range(SQUARE_COUNT) if not board[square]]
        moves = [_place_move(value, square) for value in values for square in empty]
        pot_count = len(data["pot"])
        if data["placed"] == 0 and pot_count:
            moves.extend(
                {"type": "exchange", "tiles": tiles} for tiles in _sub_multisets(rack, pot_count)
            )
        if data["draws"] and pot_count:
            moves.append({"type": "draw"})
        moves.append({"type": "end_turn"})
        return moves

    # -- moves -------------------------------------------------------------------------------------

    def _apply(self, state, rng, seat, move, now_ms, events):
        # The moves table is the front side's; the back side has one move of its own.
        if state.variant == "back":
            if move["type"] != "place":
                raise IllegalMove(UNKNOWN_MOVE, "on the back side the only move is 'place'")
            self._back_place(state, rng, seat, move, now_ms, events)
        else:
            super()._apply(state, rng, seat, move, now_ms, events)

    @staticmethod
    def _parse_place(data, seat, move) -> tuple[int, int, int, int]:
        tile = require_int(move, "tile", LOWEST_TILE, HIGHEST_TILE)
        row, col, square = _square(move)
        require(tile in data["racks"][seat], TILE_NOT_IN_RACK, f"you hold no {tile} tile")
        require(not data["board"][square], SQUARE_OCCUPIED, f"square {row},{col} is taken")
        return tile, row, col, square

    # front side

    @plays("place", fields=("tile", "row", "col"))
    def _front_place(self, state, rng, seat, move, now_ms, events):
        data = state.data
        tile, row, col, square = self._parse_place(data, seat, move)
        board = data["board"]
        operations = FRONT_OPERATIONS[square]
        found = completed_equations(board, square, tile, operations)
        elapsed = now_ms - data["since"]
        data["since"] = now_ms
        if not found:
            self._front_wrong_drop(state, rng, seat, tile, row, col, elapsed, now_ms, events)
            return
        events.append(right_placement_attempt(seat, found, tile, elapsed, row, col))
        rack = data["racks"][seat]
        rack.remove(tile)
        board[square] = tile
        # RULINGS 4: score = value x equations completed x 2 on a 2X square.
        points = tile * len(found) * FRONT_MULTIPLIER[square]
        data["scores"][seat] += points
        data["placed"] += 1
        if FRONT_DRAW_SQUARE[square]:
            # RULINGS 4: on a '+' or '-' square "you may draw one extra tile".
            data["draws"] += 1
        events.append(
            {
                "type": "tile_placed",
                "seat": seat,
                "tile": tile,
                "row": row,
                "col": col,
                "square": _FRONT_LABELS[square],
                "equations": [_equation_json(a, b, op, tile) for a, b, op in found],
                "points": points,
                "score": data["scores"][seat],
                "extra_draw": FRONT_DRAW_SQUARE[square],
            }
        )
        if not rack and data["full_rack"]:
            # RULINGS 4: +25 when you began the turn with 5 tiles and placed them all (once a turn).
            data["full_rack"] = False
            data["scores"][seat] += FULL_RACK_BONUS
            events.append(
                {
                    "type": "bonus",
                    "seat": seat,
                    "points": FULL_RACK_BONUS,
                    "score": data["scores"][seat],
                }
            )
        if self._front_pot_and_rack_empty(data):
            self._finish(data, "pot_and_rack_empty", events)
        elif not rack and not (data["draws"] and data["pot"]):
            self._end_front_turn(state, rng, seat, "rack_empty", now_ms, events)

    def _front_wrong_drop(self, state, rng, seat, tile, row, col, elapsed, now_ms, events):
        """RULINGS 4: a tile completing no equation is a wrong attempt; it returns to the rack."""
        data = state.data
        board = data["board"]
        square = row * SIZE + col
        operations = FRONT_OPERATIONS[square]
        closest = closest_equation(board, square, tile, operations)
        if closest is None:
            # No two tiles lie in line next to the square: there is no sum or difference to get
            # right, so the drop is a free placement, not an answer (docs/rules/mathable_junior.md,
            # "Attempts"); it still goes back to the rack and counts towards the turn's limit.
            reason = "no_line"
            attempt = None
        else:
            reason = "no_match"
            if operations != BOTH_OPERATIONS and completed_equations(
                board, square, tile, BOTH_OPERATIONS
            ):
                reason = "wrong_operation"  # right with the other sign, but the square forbids it
            attempt = _wrong_answer(seat, closest, tile, elapsed, row, col)
        data["wrong"] += 1
        if attempt is not None:
            events.append(attempt)
        events.append(
            {
                "type": "wrong_drop",
                "seat": seat,
                "tile": tile,
                "row": row,
                "col": col,
                "reason": reason,
                "wrong_drops": data["wrong"],
                "wrong_drops_allowed": WRONG_DROPS_PER_TURN,
            }
        )
        if data["wrong"] >= WRONG_DROPS_PER_TURN:
            self._end_front_turn(state, rng, seat, "wrong_limit", now_ms, events)

    @plays("exchange", fields=("tiles",))
    def _front_exchange(self, state, rng, seat, move, now_ms, events):
        """RULINGS 4: "Instead of placing you may exchange any tiles with the pot (that is your
        turn)". The new tiles are drawn before the old ones go back, as at the table."""
        data = state.data
        tiles = move.get("tiles")
        if not isinstance(tiles, list) or not tiles:
            raise IllegalMove(MALFORMED, "'tiles' must be a non-empty list of tile values")
        for value in tiles:
            if isinstance(value, bool) or not isinstance(value, int):
                raise IllegalMove(MALFORMED, "'tiles' must hold whole numbers")
        require(data["placed"] == 0, EXCHANGE_AFTER_PLACE, "exchange instead of placing, not after")
        rack = data["racks"][seat]
        held = Counter(rack)
        wanted = Counter(tiles)
        require(
            all(held[value] >= copies for value, copies in wanted.items()),
            TILE_NOT_IN_RACK,
            "you can only exchange tiles you hold",
        )
        pot = data["pot"]
        require(len(tiles) <= len(pot), POT_TOO_SMALL, f"the pot holds only {len(pot)} tiles")
        fresh = [_draw_from_pot(pot, rng) for _ in tiles]
        for value in tiles:
            rack.remove(value)
            pot.append(value)
        for value in fresh:
            insort(rack, value)
        # The values stay secret: the tiles go back face down and the new ones are drawn hidden.
        events.append({"type": "tiles_exchanged", "seat": seat, "count": len(tiles)})
        self._end_front_turn(state, rng, seat, "exchange", now_ms, events)

    @plays("draw")
    def _front_draw(self, state, rng, seat, move, now_ms, events):
        data = state.data
        require(data["draws"] > 0, NO_EXTRA_DRAW, "an extra draw follows a '+' or '-' square")
        require(bool(data["pot"]), POT_EMPTY, "the pot is empty")
        data["draws"] -= 1
        insort(data["racks"][seat], _draw_from_pot(data["pot"], rng))
        data["since"] = now_ms
        events.append({"type": "tile_drawn", "seat": seat, "pot_count": len(data["pot"])})
        if self._front_pot_and_rack_empty(data):
            self._finish(data, "pot_and_rack_empty", events)

    @staticmethod
    def _front_pot_and_rack_empty(data) -> bool:
        # RULINGS 4: "Game ends when the pot is empty and a rack is empty".
        return not data["pot"] and any(not rack for rack in data["racks"])

    @plays("end_turn")
    def _front_end_turn(self, state, rng, seat, move, now_ms, events):
        self._end_front_turn(state, rng, seat, "end_turn", now_ms, events)

    def _end_front_turn(self, state, rng, seat, reason, now_ms, events):
        data = state.data
        # RULINGS 4: "or every player passes in a row". A pass is a turn ended with no tile placed
        # (at once or after three wrong drops). Project decision: an exchange is not a pass and,
        # like a placement, breaks the run: it is the rulebook's way out of a stuck rack, and the
        # rulebook ends the game on "no player can place" only once the pot is empty.
        passed = data["placed"] == 0 and reason != "exchange"
        data["passes"] = data["passes"] + 1 if passed else 0
        events.append({"type": "turn_ended", "seat": seat, "reason": reason, "passed": passed})
        if data["passes"] >= state.players:
            self._finish(data, "all_passed", events)
            return
        racks = data["racks"]
        pot = data["pot"]
        following = (seat + 1) % state.players
        while not racks[following]:
            if not pot:
                self._finish(data, "pot_and_rack_empty", events)
                return
            # RULINGS 4: "If your rack is empty when your turn comes, refill to 5 and pass."
            # Project decision: this forced pass ends a run of passes (new tiles on the table).
            drawn = [_draw_from_pot(pot, rng) for _ in range(min(RACK_SIZE, len(pot)))]
            racks[following] = sorted(drawn)
            data["passes"] = 0
            events.append(
                {
                    "type": "rack_refilled",
                    "seat": following,
                    "count": len(drawn),
                    "pot_count": len(pot),
                }
            )
            if self._front_pot_and_rack_empty(data):
                self._finish(data, "pot_and_rack_empty", events)
                return
            following = (following + 1) % state.players
        data["turn"] = following
        data["placed"] = 0
        data["wrong"] = 0
        data["draws"] = 0
        data["full_rack"] = len(racks[following]) == RACK_SIZE
        data["since"] = now_ms
        events.append({"type": "turn_started", "seat": following})

    # back side

    def _back_place(self, state, rng, seat, move, now_ms, events):
        data = state.data
        tile, row, col, square = self._parse_place(data, seat, move)
        # RULINGS 4 (back): "each on any empty square printed with its own number".
        require(
            BACK_NUMBERS[square] == tile,
            WRONG_NUMBER,
            f"square {row},{col} is printed {BACK_NUMBERS[square]}, not {tile}",
        )
        board = data["board"]
        elapsed = now_ms - data["since"]
        data["since"] = now_ms
        found = completed_equations(board, square, tile, BOTH_OPERATIONS)
        if found:
            events.append(right_placement_attempt(seat, found, tile, elapsed, row, col))
        else:
            missed = _back_scoring_square(board, tile)
            closest = closest_equation(board, square, tile, BOTH_OPERATIONS)
            if missed is not None and closest is not None:
                # The tile could have scored, and the child put it next to a line of two tiles
                # whose sum or difference it is not: a wrong answer to that line. A tile put where
                # no line lies is a free placement, not an answer (docs/rules/mathable_junior.md).
                events.append(_wrong_answer(seat, closest, tile, elapsed, row, col))
            if (
                missed is not None
                and state.options["priority"]
                and data["wrong"] < WRONG_DROPS_PER_TURN
            ):
                # RULINGS 4 option "priority": a tile that can score must score, so the drop
                # is a wrong attempt and the tile goes back. After 3 wrong drops in a turn the
                # requirement is waived (project decision, so a child is never stuck).
                data["wrong"] += 1
                events.append(
                    {
                        "type": "wrong_drop",
                        "seat": seat,
                        "tile": tile,
                        "row": row,
                        "col": col,
                        "reason": "must_score",
                        "wrong_drops": data["wrong"],
                        "wrong_drops_allowed": WRONG_DROPS_PER_TURN,
                    }
                )
                return
        rack = data["racks"][seat]
        rack.remove(tile)
        board[square] = tile
        # RULINGS 4 (back): 1 point for a tile that completes at least one equation.
        points = 1 if found else 0
        data["scores"][seat] += points
        events.append(
            {
                "type": "tile_placed",
                "seat": seat,
                "tile": tile,
                "row": row,
                "col": col,
                "equations": [_equation_json(a, b, op, tile) for a, b, op in found],
                "points": points,
                "score": data["scores"][seat],
            }
        )
        if not rack:
            self._end_back_turn(state, rng, seat, now_ms, events)

    def _end_back_turn(self, state, rng, seat, now_ms, events):
        data = state.data
        pot = data["pot"]
        racks = data["racks"]
        # RULINGS 4 (back): "Draw 3 after the turn" (face up, so the values are public).
        drawn = [_draw_from_pot(pot, rng) for _ in range(min(BACK_HAND, len(pot)))]
        racks[seat] = sorted(drawn)
        events.append({"type": "turn_ended", "seat": seat, "reason": "all_placed"})
        if drawn:
            events.append(
                {"type": "tiles_drawn", "seat": seat, "tiles": sorted(drawn), "pot_count": len(pot)}
            )
        # Once the pot is dry a player with no tiles has nothing left to do: skip them.
        for step in range(1, state.players + 1):
            following = (seat + step) % state.players
            if racks[following]:
                data["turn"] = following
                data["wrong"] = 0
                data["since"] = now_ms
                events.append({"type": "turn_started", "seat": following})
                return
        # RULINGS 4 (back): "The game ends when all tiles are placed".
        self._finish(data, "all_tiles_placed", events)

    @staticmethod
    def _finish(data, reason, events):
        data["end"] = reason
        outcome = outcome_from_scores(data["scores"])
        events.append(
            {
                "type": "game_over",
                "reason": reason,
                "scores": outcome.scores,
                "winners": outcome.winners,
            }
        )

    # -- seeing ------------------------------------------------------------------------------------

    def _view(self, state, seat):
        data = state.data
        racks = data["racks"]
        view = {
            "side": state.variant,
            "board": _rows(data["board"]),
            "rack": list(racks[seat]) if seat is not None else None,
            "pot_count": len(data["pot"]),
            "scores": list(data["scores"]),
            "turn": data["turn"],
            "wrong_drops_this_turn": data["wrong"],
            "wrong_drops_allowed": WRONG_DROPS_PER_TURN,
            "decision_started_ms": data["since"],
            "end_reason": data["end"],
        }
        if state.variant == "front":
            view.update(
                {
                    "squares": [list(row) for row in FRONT_LAYOUT],
                    "rack_counts": [len(rack) for rack in racks],
                    "placed_this_turn": data["placed"],
                    "extra_draws": data["draws"],
                    "bonus_in_reach": data["full_rack"],
                    "passes_in_a_row": data["passes"],
                }
            )
        else:
            view.update(
                {
                    "numbers": [list(row) for row in BACK_GRID],
                    "racks": [list(rack) for rack in racks],  # the back side's tiles lie face up
                }
            )
        return view

    # -- help and bots -----------------------------------------------------------------------------

    def hint(self, state, seat):
        data = state.data
        if data["end"] or seat != data["turn"]:
            return None
        if state.variant == "back":
            return _back_hint(data, seat)
        options = _front_right_placements(data["board"], data["racks"][seat])
        if not options:
            return None
        _, value, square = options[0]
        return _place_move(value, square)

    def bot_move(self, state, seat, level, rng):
        data = state.data
        if data["end"] or seat != data["turn"]:
            return None
        if level == "random":
            moves = self.legal_moves(state, seat)
            return rng.choice(moves) if moves else None
        if state.variant == "back":
            if level == "easy":
                return _back_hint(data, seat)
            return _back_strong(data, seat, state.options["priority"])
        rack = data["racks"][seat]
        if level == "easy":
            # Plays right but plainly: the first right placement in reading order.
            options = _front_right_placements(data["board"], rack, best_first=False)
            if options:
                _, value, square = options[0]
                return _place_move(value, square)
        else:
            planned = _front_plan(data["board"], rack, data["full_rack"])
            if planned is not None:
                return _place_move(*planned)
            if not rack:
                # The bonus is banked; drawing now would only delay the refill to 5.
                return {"type": "end_turn"}
        return _front_when_stuck(data, seat, rack)

    def bot_alternatives(self, state, seat, level, rng):
        """Bots in focused practice (docs/rules/mathable_junior.md): instead of a placement that
        answers a fact left to the child, another right placement (in the bot's own order), else
        what the bot does when stuck (an earned draw, an exchange, the end of its turn); the
        square stays open for the next seat."""
        data = state.data
        if data["end"] or seat != data["turn"] or state.variant != "front":
            return []
        rack = data["racks"][seat]
        options = _front_right_placements(data["board"], rack, best_first=level == "strong")
        moves = [_place_move(value, square) for _points, value, square in options]
        moves.append(_front_when_stuck(data, seat, rack))
        moves.append({"type": "end_turn"})
        return moves


# --- bots and hints (pure functions of the state data) -------------------------------------------


def _front_targets(board: list[int]) -> dict[int, dict[int, int]]:
    """Empty square -> {tile value: equations it would complete there} (front operations)."""
    targets = {}
    for square in range(SQUARE_COUNT):
        if not board[square]:
            found = square_targets(board, square, FRONT_OPERATIONS[square])
            if found:
                targets[square] = found
    return targets


def _front_right_placements(board, rack, best_first=True) -> list[tuple[int, int, int]]:
    """(points, value, square) of every right placement of a rack tile; best first, or in
    reading order (square, then value) for the plain bot."""
    values = set(rack)
    options = [
        (value * count * FRONT_MULTIPLIER[square], value, square)
        for square, targets in _front_targets(board).items()
        for value, count in targets.items()
        if value in values
    ]
    if best_first:
        options.sort(key=lambda option: (-option[0], option[2], option[1]))
    else:
        options.sort(key=lambda option: (option[2], option[1]))
    return options


_PLAN_NODES = 400  # search budget of the strong bot, per move
_PLAN_BRANCHES = 6  # best placements tried at each depth


def _front_plan(board, rack, bonus_in_reach) -> tuple[int, int] | None:
    """Strong bot: the first placement of the best sequence of right placements this turn,
    counting the +25 bonus when the sequence empties a rack that began the turn full. A bounded
    depth-first search; targets are updated only around the square just filled."""
    board = list(board)
    best_total = 0
    best_first = None
    nodes = 0

    def search(rack, targets, total, first):
        nonlocal best_total, best_first, nodes
        nodes += 1
        value_of_line = total + (FULL_RACK_BONUS if bonus_in_reach and not rack else 0)
        if first is not None and value_of_line > best_total:
            best_total, best_first = value_of_line, first
        if nodes >= _PLAN_NODES or not rack:
            return
        values = set(rack)
        options = sorted(
            (
                (value * count * FRONT_MULTIPLIER[square], value, square)
                for square, square_options in targets.items()
                for value, count in square_options.items()
                if value in values
            ),
            key=lambda option: (-option[0], option[2], option[1]),
        )
        for points, value, square in options[:_PLAN_BRANCHES]:
            board[square] = value
            changed = dict(targets)
            del changed[square]
            for other in DEPENDENTS[square]:
                if not board[other]:
                    found = square_targets(board, other, FRONT_OPERATIONS[other])
                    if found:
                        changed[other] = found
                    else:
                        changed.pop(other, None)
            remaining = list(rack)
            remaining.remove(value)
            search(remaining, changed, total + points, first or (value, square))
            board[square] = 0

    search(list(rack), _front_targets(board), 0, None)
    return best_first


def _front_when_stuck(data, seat, rack) -> dict:
    """No right placement: take an earned draw; else exchange (RULINGS 4, "instead of placing")
    the largest tiles the pot can cover, if a tile this seat has not seen could be placed now
    (else exchanging forever could not help, and passing lets a stuck game end); else pass."""
    pot_count = len(data["pot"])
    if data["draws"] and pot_count:
        return {"type": "draw"}
    if data["placed"] == 0 and pot_count and rack:
        board = data["board"]
        unseen = Counter(ALL_TILES)
        unseen.subtract(value for value in board if value)
        unseen.subtract(rack)
        wanted = {value for targets in _front_targets(board).values() for value in targets}
        if any(unseen[value] > 0 for value in wanted):
            return {"type": "exchange", "tiles": sorted(rack)[-pot_count:]}
    return {"type": "end_turn"}


def _back_scoring_square(board, tile) -> int | None:
    for square in SQUARES_BY_NUMBER[tile]:
        if not board[square] and completed_equations(board, square, tile, BOTH_OPERATIONS):
            return square
    return None


def _back_hint(data, seat) -> dict | None:
    """A scoring placement when a tile can score; otherwise any placement is right (there is no
    equation to get wrong), so the first one."""
    board = data["board"]
    rack = data["racks"][seat]
    for value in sorted(set(rack)):
        square = _back_scoring_square(board, value)
        if square is not None:
            return _place_move(value, square)
    for value in sorted(set(rack)):
        for square in SQUARES_BY_NUMBER[value]:
            if not board[square]:
                return _place_move(value, square)
    return None


_BACK_SCORING_TRIED = 4  # scoring squares tried per tile by the strong bot
_BACK_QUIET_TRIED = 2  # non-scoring squares tried per tile (the fewest occupied neighbours)


def _back_strong(data, seat, priority) -> dict | None:
    """The order and squares that score the most points this turn; among equal plans, the one that
    leaves the fewest of the opponents' face-up tiles a scoring square (the back side's tiles are
    public, so this is fair play)."""
    board = list(data["board"])
    opponents_tiles = sorted(
        {value for other, rack in enumerate(data["racks"]) if other != seat for value in rack}
    )
    best = ((-1, 0), None)

    def options(value):
        scoring, quiet = [], []
        for square in SQUARES_BY_NUMBER[value]:
            if board[square]:
                continue
            if completed_equations(board, square, value, BOTH_OPERATIONS):
                scoring.append(square)
            else:
                quiet.append(square)
        result = [(1, square) for square in scoring[:_BACK_SCORING_TRIED]]
        if not (priority and scoring):
            quiet.sort(key=lambda sq: (_occupied_neighbours(board, sq), sq))
            result.extend((0, square) for square in quiet[:_BACK_QUIET_TRIED])
        return result

    def search(rack, points, first):
        nonlocal best
        if not rack:
            gifts = sum(
                1 for value in opponents_tiles if _back_scoring_square(board, value) is not None
            )
            if (points, -gifts) > best[0]:
                best = ((points, -gifts), first)
            return
        for value in sorted(set(rack)):
            remaining = list(rack)
            remaining.remove(value)
            for gained, square in options(value):
                board[square] = value
                search(remaining, points + gained, first or (value, square))
                board[square] = 0

    search(list(data["racks"][seat]), 0, None)
    return _place_move(*best[1]) if best[1] is not None else None


def _occupied_neighbours(board, square) -> int:
    return sum(1 for neighbour in NEIGHBOURS[square] if board[neighbour])


GAME = MathableJunior()


def _wrong_answer(seat: int, closest, tile: int, elapsed: int, row: int, col: int) -> dict:
    """The attempt of a tile laid next to a line of two whose sum or difference it is not: a
    wrong answer to the line it comes closest to."""
    return _placement_attempt(seat, closest, tile, elapsed, row, col)
