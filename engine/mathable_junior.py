"""Mathable Junior, the cross-number game (rulebook seeds/003, RULINGS 4; docs/rules/...md).

Two variants share one geometry. ``front``: a 10x10 board with '+', '-' and '2X' squares, hidden
racks of 5, a tile scores its value x the equations it completes. ``back``: the numbered grid, 3
face-up tiles each placed on a square printed with its own number, 1 point per tile that completes
an equation.

The Game here sets up, plays the moves and shows the table. The boards, the tiles and the
arithmetic of a square (which equations a tile completes) are ``engine.mathable_junior_board``;
the hints and the bots are ``engine.mathable_junior_bots``.
"""

from __future__ import annotations

from bisect import insort
from collections import Counter

from engine import mathable_junior_bots
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
from engine.mathable_junior_board import (
    ALL_TILES,
    BACK_GRID,
    BACK_HAND,
    BACK_NUMBERS,
    BOTH_OPERATIONS,
    FRONT_CENTRE,
    FRONT_DRAW_SQUARE,
    FRONT_LABELS,
    FRONT_LAYOUT,
    FRONT_MULTIPLIER,
    FRONT_OPERATIONS,
    FULL_RACK_BONUS,
    HIGHEST_TILE,
    LINES,
    LOWEST_TILE,
    RACK_SIZE,
    SIZE,
    SQUARE_COUNT,
    SQUARES_BY_NUMBER,
    back_scoring_square,
    board_rows,
    closest_equation,
    completed_equations,
    draw_from_pot,
    equation_json,
    place_move,
    square_of,
    sub_multisets,
)

# --- stable IllegalMove codes (docs/rules/mathable_junior.md lists them) ------------------------
TILE_NOT_IN_RACK = "tile_not_in_rack"
SQUARE_OCCUPIED = "square_occupied"
WRONG_NUMBER = "wrong_number"
EXCHANGE_AFTER_PLACE = "exchange_after_place"
POT_TOO_SMALL = "pot_too_small"
NO_EXTRA_DRAW = "no_extra_draw"
POT_EMPTY = "pot_empty"

# Project decision (neither rulebook nor rulings): a child may retry a wrong drop, but at most this
# many times a turn, so every turn (and random play) ends; mirrors SUM's "3 wrong equations a turn".
WRONG_DROPS_PER_TURN = 3


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
            rack = [draw_from_pot(pot, rng) for _ in range(hand)]
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
                place_move(value, square)
                for value in values
                for square in SQUARES_BY_NUMBER[value]
                if not board[square]
            ]
        empty = [square for square in range(SQUARE_COUNT) if not board[square]]
        moves = [place_move(value, square) for value in values for square in empty]
        pot_count = len(data["pot"])
        if data["placed"] == 0 and pot_count:
            moves.extend(
                {"type": "exchange", "tiles": tiles} for tiles in sub_multisets(rack, pot_count)
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
        row, col, square = square_of(move)
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
                "square": FRONT_LABELS[square],
                "equations": [equation_json(a, b, op, tile) for a, b, op in found],
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
        fresh = [draw_from_pot(pot, rng) for _ in tiles]
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
        insort(data["racks"][seat], draw_from_pot(data["pot"], rng))
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
            drawn = [draw_from_pot(pot, rng) for _ in range(min(RACK_SIZE, len(pot)))]
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
            missed = back_scoring_square(board, tile)
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
                "equations": [equation_json(a, b, op, tile) for a, b, op in found],
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
        drawn = [draw_from_pot(pot, rng) for _ in range(min(BACK_HAND, len(pot)))]
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
            "board": board_rows(data["board"]),
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
    # -- help and bots -----------------------------------------------------------------------------

    def hint(self, state, seat):
        data = state.data
        if data["end"] or seat != data["turn"]:
            return None
        return mathable_junior_bots.hint(state, seat)

    def bot_move(self, state, seat, level, rng):
        data = state.data
        if data["end"] or seat != data["turn"]:
            return None
        if level == "random":
            moves = self.legal_moves(state, seat)
            return rng.choice(moves) if moves else None
        return mathable_junior_bots.bot_move(state, seat, level)

    def bot_alternatives(self, state, seat, level, rng):
        data = state.data
        if data["end"] or seat != data["turn"]:
            return []
        return mathable_junior_bots.alternatives(state, seat, level)


def _wrong_answer(seat: int, closest, tile: int, elapsed: int, row: int, col: int) -> dict:
    """The attempt of a tile laid next to a line of two whose sum or difference it is not: a
    wrong answer to the line it comes closest to."""
    return _placement_attempt(seat, closest, tile, elapsed, row, col)


GAME = MathableJunior()
