"""Mathable Junior: the hints and the bots, pure functions of the state data
(docs/rules/mathable_junior.md, "Hints and bots"). ``engine.mathable_junior`` asks them for the
seat whose turn it is; the rules they play by are its own and ``engine.mathable_junior_board``'s.
"""

from __future__ import annotations

from collections import Counter

from engine.core import State
from engine.mathable_junior_board import (
    ALL_TILES,
    BOTH_OPERATIONS,
    DEPENDENTS,
    FRONT_MULTIPLIER,
    FRONT_OPERATIONS,
    FULL_RACK_BONUS,
    NEIGHBOURS,
    SQUARE_COUNT,
    SQUARES_BY_NUMBER,
    back_scoring_square,
    completed_equations,
    place_move,
    square_targets,
)

# --- what the Game asks (the seat is the one whose turn it is) -----------------------------------


def hint(state: State, seat: int) -> dict | None:
    data = state.data
    if state.variant == "back":
        return _back_hint(data, seat)
    options = front_right_placements(data["board"], data["racks"][seat])
    if not options:
        return None
    _, value, square = options[0]
    return place_move(value, square)


def bot_move(state: State, seat: int, level: str) -> dict | None:
    """The move of an ``easy`` or ``strong`` bot."""
    data = state.data
    if state.variant == "back":
        if level == "easy":
            return _back_hint(data, seat)
        return _back_strong(data, seat, state.options["priority"])
    rack = data["racks"][seat]
    if level == "easy":
        # Plays right but plainly: the first right placement in reading order.
        options = front_right_placements(data["board"], rack, best_first=False)
        if options:
            _, value, square = options[0]
            return place_move(value, square)
    else:
        planned = _front_plan(data["board"], rack, data["full_rack"])
        if planned is not None:
            return place_move(*planned)
        if not rack:
            # The bonus is banked; drawing now would only delay the refill to 5.
            return {"type": "end_turn"}
    return _front_when_stuck(data, seat, rack)


def alternatives(state: State, seat: int, level: str) -> list[dict]:
    """Bots in focused practice (docs/rules/mathable_junior.md): instead of a placement that
    answers a fact left to the child, another right placement (in the bot's own order), else
    what the bot does when stuck (an earned draw, an exchange, the end of its turn); the
    square stays open for the next seat."""
    data = state.data
    if state.variant != "front":
        return []
    rack = data["racks"][seat]
    options = front_right_placements(data["board"], rack, best_first=level == "strong")
    moves = [place_move(value, square) for _points, value, square in options]
    moves.append(_front_when_stuck(data, seat, rack))
    moves.append({"type": "end_turn"})
    return moves


# --- the front side ----------------------------------------------------------------------------


def _front_targets(board: list[int]) -> dict[int, dict[int, int]]:
    """Empty square -> {tile value: equations it would complete there} (front operations)."""
    targets = {}
    for square in range(SQUARE_COUNT):
        if not board[square]:
            found = square_targets(board, square, FRONT_OPERATIONS[square])
            if found:
                targets[square] = found
    return targets


def front_right_placements(board, rack, best_first=True) -> list[tuple[int, int, int]]:
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


# --- the back side -----------------------------------------------------------------------------


def _back_hint(data, seat) -> dict | None:
    """A scoring placement when a tile can score; otherwise any placement is right (there is no
    equation to get wrong), so the first one."""
    board = data["board"]
    rack = data["racks"][seat]
    for value in sorted(set(rack)):
        square = back_scoring_square(board, value)
        if square is not None:
            return place_move(value, square)
    for value in sorted(set(rack)):
        for square in SQUARES_BY_NUMBER[value]:
            if not board[square]:
                return place_move(value, square)
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
                1 for value in opponents_tiles if back_scoring_square(board, value) is not None
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
    return place_move(*best[1]) if best[1] is not None else None


def _occupied_neighbours(board, square) -> int:
    return sum(1 for neighbour in NEIGHBOURS[square] if board[neighbour])
