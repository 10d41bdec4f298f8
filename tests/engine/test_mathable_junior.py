"""Mathable Junior (rulebook seeds/003_34cd087df32c6baf.txt, RULINGS 4).

Each rule test builds a precise position with ``arrange`` and plays it through the public API.
Squares are (row, col) from the top left; the front layout is engine/data/mathable_junior.json.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import IllegalMove, SetupError, get_game
from engine.mathable_junior import WRONG_DROPS_PER_TURN, MathableJunior
from engine.mathable_junior_board import ALL_TILES, BACK_NUMBERS, FRONT_LAYOUT
from engine.simulate import arena, play
from tests.engine import helpers

GAME = get_game("mathable_junior")
FRONT, BACK = "front", "back"


# --- building positions --------------------------------------------------------------------------


def new(variant=FRONT, players=2, seed=1, now_ms=0, **options):
    options.setdefault("first_player", "seat0")
    return GAME.new(variant=variant, players=players, seed=seed, options=options, now_ms=now_ms)


def arrange(state, board=None, racks=None, pot=None, **fields):
    """Put a known position in ``state``: ``board`` maps (row, col) to a tile, ``racks`` lists
    each seat's tiles; the pot gets the rest of the 60 tiles (or exactly ``pot``)."""
    data = state.data
    if board is not None:
        data["board"] = [0] * 100
        for (row, col), value in board.items():
            data["board"][row * 10 + col] = value
    if racks is not None:
        data["racks"] = [sorted(rack) for rack in racks]
    if pot is None:
        rest = Counter(ALL_TILES)
        rest.subtract(v for v in data["board"] if v)
        for rack in data["racks"]:
            rest.subtract(rack)
        assert all(count >= 0 for count in rest.values()), "the position uses too many tiles"
        pot = sorted(rest.elements())
    data["pot"] = list(pot)
    data.update(fields)
    return state


def place(tile, row, col):
    return {"type": "place", "tile": tile, "row": row, "col": col}


def at(state, row, col):
    return state.data["board"][row * 10 + col]


def of_type(events, kind):
    return [event for event in events if event["type"] == kind]


def conserved(state) -> bool:
    """Every one of the 60 tiles is on the board, in a rack or in the pot, exactly once."""
    data = state.data
    tiles = [v for v in data["board"] if v] + [v for rack in data["racks"] for v in rack]
    return sorted(tiles + data["pot"]) == list(ALL_TILES)


# The rulebook's example: 4 above 3 above the 7, and 9, 2 to its left ("(4 + 3 = 7) + (9 - 2 = 7)").
EXAMPLE_BOARD = {(6, 5): 4, (7, 5): 3, (8, 3): 9, (8, 4): 2}


# --- tiles, boards, setup ------------------------------------------------------------------------


def test_ruling_sixty_tiles_1_to_10_five_times_11_to_20_once():
    counts = Counter(ALL_TILES)
    assert len(ALL_TILES) == 60
    assert all(counts[v] == 5 for v in range(1, 11))
    assert all(counts[v] == 1 for v in range(11, 21))


def test_ruling_back_grid_has_a_square_for_every_tile():
    # 8 squares of each of 1-10 and 2 of each of 11-20: room for the 5 (or 1) tiles of each value.
    counts = Counter(BACK_NUMBERS)
    assert all(counts[v] == 8 for v in range(1, 11))
    assert all(counts[v] == 2 for v in range(11, 21))


def test_ruling_front_setup_puts_1_2_3_4_on_the_centre_and_deals_racks_of_5():
    for players in (2, 3, 4):
        state = new(players=players, seed=players)
        assert [at(state, 4, 4), at(state, 4, 5), at(state, 5, 4), at(state, 5, 5)] == [1, 2, 3, 4]
        assert [FRONT_LAYOUT[4][4], FRONT_LAYOUT[4][5], FRONT_LAYOUT[5][4]] == ["1", "2", "3"]
        assert sum(1 for v in state.data["board"] if v) == 4
        assert [len(rack) for rack in state.data["racks"]] == [5] * players
        assert len(state.data["pot"]) == 60 - 4 - 5 * players
        assert conserved(state)


def test_ruling_back_setup_deals_3_face_up_tiles_on_an_empty_board():
    state = new(BACK, players=4, seed=3)
    assert not any(state.data["board"])
    assert [len(rack) for rack in state.data["racks"]] == [3] * 4
    assert len(state.data["pot"]) == 60 - 12
    assert conserved(state)
    view = GAME.view(state, 1)
    assert view["racks"] == state.data["racks"]  # "places them face up in front of him/her"


def test_ruling_first_player_drawn_from_the_seed_or_seat0():
    firsts = {GAME.new(FRONT, 4, seed).data["turn"] for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert GAME.new(FRONT, 4, 11).data["turn"] == GAME.new(FRONT, 4, 11).data["turn"]
    for seed in range(10):
        state = GAME.new(BACK, 3, seed, {"first_player": "seat0"})
        assert GAME.active(state) == frozenset({0})


def test_setup_rejects_bad_variant_players_and_options():
    with pytest.raises(SetupError) as err:
        GAME.new("middle", 2, 1)
    assert err.value.code == "unknown_variant"
    for players in (1, 5, "2", True):
        with pytest.raises(SetupError) as err:
            GAME.new(FRONT, players, 1)
        assert err.value.code == "bad_players"
    with pytest.raises(SetupError) as err:
        GAME.new(FRONT, 2, 1, {"priority": True})  # a back-side option only
    assert err.value.code == "unknown_option"
    with pytest.raises(SetupError) as err:
        GAME.new(BACK, 2, 1, {"priority": "yes"})
    assert err.value.code == "bad_option"
    with pytest.raises(SetupError) as err:
        GAME.new(BACK, 2, 1, {"first_player": "youngest"})
    assert err.value.code == "bad_option"
    assert GAME.new(BACK, 2, 1).options == {"first_player": "random", "priority": False}
    assert isinstance(GAME, MathableJunior) and GAME.slug == "mathable_junior"


# --- front: equations and scoring ----------------------------------------------------------------


def test_rulebook_example_7_below_4_3_and_right_of_9_2_scores_14():
    state = arrange(new(), board=EXAMPLE_BOARD, racks=[[7, 1, 1, 1, 1], [5]])
    step = GAME.apply(state, 0, place(7, 8, 5), 1000)
    placed = of_type(step.events, "tile_placed")[0]
    assert placed["points"] == 14
    assert placed["equations"] == [
        {"operands": [4, 3], "operator": "+", "result": 7},
        {"operands": [9, 2], "operator": "-", "result": 7},
    ]
    assert step.state.data["scores"] == [14, 0]
    assert at(step.state, 8, 5) == 7
    assert step.state.data["racks"][0] == [1, 1, 1, 1]


def test_rulebook_a_tile_scores_its_value():
    # "Score 4 points for a '4' tile placed": 4 under 1 and 3 (1 + 3), on a plain square.
    state = arrange(new(), board={(1, 1): 1, (2, 1): 3}, racks=[[4, 9], [5]])
    step = GAME.apply(state, 0, place(4, 3, 1), 0)
    assert of_type(step.events, "tile_placed")[0]["points"] == 4
    assert step.state.data["scores"][0] == 4


def test_rulebook_2x_square_doubles_6_scores_12():
    # (0, 0) is a 2X corner; 2 and 4 to its right: 4 + 2 = 6.
    assert FRONT_LAYOUT[0][0] == "2X"
    state = arrange(new(), board={(0, 1): 2, (0, 2): 4}, racks=[[6, 9], [5]])
    step = GAME.apply(state, 0, place(6, 0, 0), 0)
    assert of_type(step.events, "tile_placed")[0]["points"] == 12


@pytest.mark.parametrize(
    ("board", "tile", "operands", "operator"),
    [
        ({(1, 3): 8, (2, 3): 3}, 11, [8, 3], "+"),  # up: 8 above 3, the tile below
        ({(4, 3): 3, (5, 3): 8}, 5, [8, 3], "-"),  # down: |3 - 8|
        ({(3, 1): 6, (3, 2): 2}, 4, [6, 2], "-"),  # left
        ({(3, 4): 2, (3, 5): 6}, 8, [6, 2], "+"),  # right: read from the far tile: 6 + 2
    ],
)
def test_ruling_equation_with_two_tiles_in_line_on_one_side(board, tile, operands, operator):
    state = arrange(new(), board=board, racks=[[tile, 20], [5]])
    step = GAME.apply(state, 0, place(tile, 3, 3), 0)
    placed = of_type(step.events, "tile_placed")[0]
    assert placed["equations"] == [{"operands": operands, "operator": operator, "result": tile}]
    assert placed["points"] == tile


def test_ruling_never_diagonal():
    # 2 and 5 on the diagonal of (3, 3): 5 - 2 = 3 would be right, but diagonals never count.
    state = arrange(new(), board={(2, 2): 2, (1, 1): 5}, racks=[[3, 20], [5]])
    step = GAME.apply(state, 0, place(3, 3, 3), 0)
    assert of_type(step.events, "wrong_drop")[0]["reason"] == "no_line"
    assert at(step.state, 3, 3) == 0


def test_ruling_gap_never_uses_the_tiles_on_both_sides():
    # 4 _ 5: a 9 (or a 1) in the gap does not complete 4 + 5 ("cannot be placed between two tiles").
    state = arrange(new(), board={(3, 2): 4, (3, 4): 5}, racks=[[9, 1], [5]])
    step = GAME.apply(state, 0, place(9, 3, 3), 0)
    assert of_type(step.events, "wrong_drop")[0]["reason"] == "no_line"
    step = GAME.apply(state, 0, place(1, 3, 3), 0)
    assert of_type(step.events, "wrong_drop")[0]["reason"] == "no_line"


def test_ruling_operands_are_the_two_tiles_next_to_the_square():
    # 6 and 2 at distances 2 and 3 (a gap next to the square): no equation.
    state = arrange(new(), board={(3, 0): 6, (3, 1): 2}, racks=[[8, 4], [5]])
    step = GAME.apply(state, 0, place(8, 3, 3), 0)
    assert of_type(step.events, "wrong_drop")[0]["reason"] == "no_line"


def test_ruling_plus_square_counts_only_additions_and_earns_a_draw():
    # (4, 7) is '+'; 7 and 3 on its right: 10 is right there, 4 (= 7 - 3) is not.
    assert FRONT_LAYOUT[4][7] == "+"
    state = arrange(new(), board={(4, 9): 7, (4, 8): 3}, racks=[[4, 10], [5]])
    wrong = GAME.apply(state, 0, place(4, 4, 7), 0)
    assert of_type(wrong.events, "wrong_drop")[0]["reason"] == "wrong_operation"
    assert wrong.state.data["racks"][0] == [4, 10]
    right = GAME.apply(state, 0, place(10, 4, 7), 0)
    placed = of_type(right.events, "tile_placed")[0]
    assert placed["equations"] == [{"operands": [7, 3], "operator": "+", "result": 10}]
    assert placed["extra_draw"] is True
    assert right.state.data["draws"] == 1


def test_ruling_minus_square_counts_only_subtractions_and_earns_a_draw():
    # (4, 2) is '-'; 7 and 3 on its left: 4 is right there, 10 (= 7 + 3) is not.
    assert FRONT_LAYOUT[4][2] == "-"
    state = arrange(new(), board={(4, 0): 7, (4, 1): 3}, racks=[[4, 10], [5]])
    wrong = GAME.apply(state, 0, place(10, 4, 2), 0)
    assert of_type(wrong.events, "wrong_drop")[0]["reason"] == "wrong_operation"
    right = GAME.apply(state, 0, place(4, 4, 2), 0)
    assert of_type(right.events, "tile_placed")[0]["points"] == 4
    assert right.state.data["draws"] == 1


def test_ruling_sign_square_counts_only_its_operation_among_several_lines():
    # On '+' (4, 7): right line 7 + 3 = 10 counts, up line 13 - 3 = 10 does not.
    board = {(4, 9): 7, (4, 8): 3, (2, 7): 13, (3, 7): 3}
    state = arrange(new(), board=board, racks=[[10, 1], [5]])
    step = GAME.apply(state, 0, place(10, 4, 7), 0)
    assert of_type(step.events, "tile_placed")[0]["points"] == 10
    # The same lines around a plain square count twice (Bonus 2).
    plain = {(8, 9): 7, (8, 8): 3, (6, 7): 13, (7, 7): 3}
    assert FRONT_LAYOUT[8][7] == "."
    state = arrange(new(), board=plain, racks=[[10, 1], [5]])
    step = GAME.apply(state, 0, place(10, 8, 7), 0)
    assert of_type(step.events, "tile_placed")[0]["points"] == 20


def test_ruling_extra_draw_is_optional_and_hides_the_tile():
    state = arrange(new(), board={(4, 9): 7, (4, 8): 3}, racks=[[10, 1], [5]])
    state = GAME.apply(state, 0, place(10, 4, 7), 0).state
    assert {"type": "draw"} in GAME.legal_moves(state, 0)
    pot_before = len(state.data["pot"])
    step = GAME.apply(state, 0, {"type": "draw"}, 100)
    assert len(step.state.data["racks"][0]) == 2
    assert len(step.state.data["pot"]) == pot_before - 1
    assert of_type(step.events, "tile_drawn") == [
        {"type": "tile_drawn", "seat": 0, "pot_count": pot_before - 1}
    ]
    assert GAME.active(step.state) == frozenset({0})  # "and continue your turn"
    assert {"type": "draw"} not in GAME.legal_moves(step.state, 0)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(step.state, 0, {"type": "draw"}, 200)
    assert err.value.code == "no_extra_draw"
    # Declining it: the draw is lost at the end of the turn.
    ended = GAME.apply(state, 0, {"type": "end_turn"}, 100).state
    assert ended.data["draws"] == 0 and ended.data["turn"] == 1


def test_extra_draw_needs_a_tile_in_the_pot():
    state = arrange(new(), board={(4, 9): 7, (4, 8): 3}, racks=[[10, 1], [5]], pot=[], draws=0)
    state = GAME.apply(state, 0, place(10, 4, 7), 0).state
    assert state.data["draws"] == 1
    assert {"type": "draw"} not in GAME.legal_moves(state, 0)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, {"type": "draw"}, 1)
    assert err.value.code == "pot_empty"


# A row of plain squares where a full rack 2, 1, 3, 4, 7 goes down one tile after another:
# 5 3 [2] [1] [3] [4] [7]  (5-3=2, 3-2=1, 2+1=3, 1+3=4, 3+4=7).
CHAIN_BOARD = {(8, 0): 5, (8, 1): 3}
CHAIN = [(2, 8, 2), (1, 8, 3), (3, 8, 4), (4, 8, 5), (7, 8, 6)]


def test_ruling_bonus_25_for_placing_a_full_rack_of_5():
    state = arrange(new(), board=CHAIN_BOARD, racks=[[1, 2, 3, 4, 7], [5, 6]])
    events = []
    for tile, row, col in CHAIN:
        step = GAME.apply(state, 0, place(tile, row, col), 0)
        state = step.state
        events += step.events
    assert [e["points"] for e in of_type(events, "tile_placed")] == [2, 1, 3, 4, 7]
    assert of_type(events, "bonus") == [{"type": "bonus", "seat": 0, "points": 25, "score": 42}]
    assert state.data["scores"] == [42, 0]
    # An empty rack with no extra draw to take ends the turn.
    assert of_type(events, "turn_ended")[-1]["reason"] == "rack_empty"
    assert state.data["turn"] == 1


def test_ruling_no_bonus_when_the_turn_began_with_fewer_than_5():
    state = arrange(new(), board=CHAIN_BOARD, racks=[[1, 2, 3, 4, 7], [5, 6]], full_rack=False)
    events = []
    for tile, row, col in CHAIN:
        step = GAME.apply(state, 0, place(tile, row, col), 0)
        state = step.state
        events += step.events
    assert of_type(events, "bonus") == []
    assert state.data["scores"] == [17, 0]


def test_ruling_the_turn_may_end_after_any_placement():
    state = arrange(new(), board=EXAMPLE_BOARD, racks=[[7, 1, 1, 1, 1], [5, 6]])
    state = GAME.apply(state, 0, place(7, 8, 5), 0).state
    assert GAME.active(state) == frozenset({0})
    step = GAME.apply(state, 0, {"type": "end_turn"}, 10)
    assert of_type(step.events, "turn_ended") == [
        {"type": "turn_ended", "seat": 0, "reason": "end_turn", "passed": False}
    ]
    assert GAME.active(step.state) == frozenset({1})
    assert step.state.data["passes"] == 0


def test_ruling_exchange_instead_of_placing_is_the_turn():
    state = arrange(new(), racks=[[1, 5, 5, 9, 20], [5, 6]])
    pot_before = sorted(state.data["pot"])
    step = GAME.apply(state, 0, {"type": "exchange", "tiles": [5, 20]}, 0)
    data = step.state.data
    assert len(data["racks"][0]) == 5
    assert Counter([1, 5, 9]) <= Counter(data["racks"][0])  # the tiles kept stay
    assert 20 not in data["racks"][0]  # the new tiles are drawn before the old ones go back
    assert 20 in data["pot"] and len(data["pot"]) == len(pot_before)
    assert of_type(step.events, "tiles_exchanged") == [
        {"type": "tiles_exchanged", "seat": 0, "count": 2}
    ]
    assert data["turn"] == 1
    assert conserved(step.state)


def test_ruling_exchange_refused_after_placing_or_beyond_the_pot():
    state = arrange(new(), board=EXAMPLE_BOARD, racks=[[7, 1, 1, 1, 1], [5]])
    placed = GAME.apply(state, 0, place(7, 8, 5), 0).state
    assert not [m for m in GAME.legal_moves(placed, 0) if m["type"] == "exchange"]
    with pytest.raises(IllegalMove) as err:
        GAME.apply(placed, 0, {"type": "exchange", "tiles": [1]}, 0)
    assert err.value.code == "exchange_after_place"
    small = arrange(new(), racks=[[1, 2, 3], [5]], pot=[9])
    with pytest.raises(IllegalMove) as err:
        GAME.apply(small, 0, {"type": "exchange", "tiles": [1, 2]}, 0)
    assert err.value.code == "pot_too_small"
    assert all(len(m["tiles"]) == 1 for m in GAME.legal_moves(small, 0) if m["type"] == "exchange")
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, {"type": "exchange", "tiles": [1, 1, 1, 1, 1]}, 0)
    assert err.value.code == "tile_not_in_rack"


def test_ruling_empty_rack_refills_to_5_and_passes():
    state = arrange(new(players=3), racks=[[9], [], [2]])
    step = GAME.apply(state, 0, {"type": "end_turn"}, 50)
    data = step.state.data
    assert len(data["racks"][1]) == 5
    assert of_type(step.events, "rack_refilled") == [
        {"type": "rack_refilled", "seat": 1, "count": 5, "pot_count": len(data["pot"])}
    ]
    assert data["turn"] == 2  # seat 1 passed
    assert conserved(step.state)
    # Seat 1 begins its next turn with 5 tiles, so the +25 bonus is in reach then.
    step = GAME.apply(step.state, 2, {"type": "end_turn"}, 60)
    assert step.state.data["turn"] == 0
    step = GAME.apply(step.state, 0, {"type": "end_turn"}, 70)
    assert step.state.data["turn"] == 1 and step.state.data["full_rack"] is True


def test_ruling_game_ends_when_the_pot_is_empty_and_a_rack_is_empty():
    state = arrange(new(), board=EXAMPLE_BOARD, racks=[[7], [5, 6]], pot=[], full_rack=False)
    step = GAME.apply(state, 0, place(7, 8, 5), 0)
    assert of_type(step.events, "game_over") == [
        {"type": "game_over", "reason": "pot_and_rack_empty", "scores": [14, 0], "winners": [0]}
    ]
    assert GAME.outcome(step.state).winners == [0]
    assert GAME.active(step.state) == frozenset()
    assert GAME.legal_moves(step.state, 1) == []
    with pytest.raises(IllegalMove) as err:
        GAME.apply(step.state, 1, {"type": "end_turn"}, 1)
    assert err.value.code == "game_over"


def test_ruling_game_ends_when_a_draw_empties_the_pot_while_a_rack_is_empty():
    state = arrange(new(), board={(4, 9): 7, (4, 8): 3}, racks=[[10, 1], []], pot=[6])
    state = GAME.apply(state, 0, place(10, 4, 7), 0).state
    step = GAME.apply(state, 0, {"type": "draw"}, 0)
    assert of_type(step.events, "game_over")[0]["reason"] == "pot_and_rack_empty"


def test_decision_an_empty_rack_with_an_earned_draw_may_draw_on():
    # The last tile goes on a '+' square: the turn goes on, to draw or to end it.
    state = arrange(new(), board={(4, 9): 7, (4, 8): 3}, racks=[[10], [5]], full_rack=False)
    state = GAME.apply(state, 0, place(10, 4, 7), 0).state
    assert GAME.active(state) == frozenset({0})
    assert GAME.legal_moves(state, 0) == [{"type": "draw"}, {"type": "end_turn"}]
    state = GAME.apply(state, 0, {"type": "draw"}, 0).state
    assert len(state.data["racks"][0]) == 1 and GAME.active(state) == frozenset({0})


def test_ruling_game_ends_when_every_player_passes_in_a_row():
    state = arrange(new(players=3), racks=[[20], [19], [18]], scores=[3, 8, 8])
    for seat in (0, 1):
        state = GAME.apply(state, seat, {"type": "end_turn"}, 0).state
        assert GAME.outcome(state) is None
    step = GAME.apply(state, 2, {"type": "end_turn"}, 0)
    assert of_type(step.events, "game_over")[0]["reason"] == "all_passed"
    # Most points wins; ties share.
    assert GAME.outcome(step.state).winners == [1, 2]


def test_ruling_a_placement_breaks_the_run_of_passes():
    state = arrange(new(), board=EXAMPLE_BOARD, racks=[[7, 1], [19]])
    state = GAME.apply(state, 0, {"type": "end_turn"}, 0).state
    assert state.data["passes"] == 1
    state = GAME.apply(state, 1, {"type": "end_turn"}, 0).state
    assert GAME.outcome(state) is not None
    state = arrange(new(), board=EXAMPLE_BOARD, racks=[[7, 1], [19]], passes=1)
    state = GAME.apply(state, 0, place(7, 8, 5), 0).state
    state = GAME.apply(state, 0, {"type": "end_turn"}, 0).state
    assert state.data["passes"] == 0 and GAME.outcome(state) is None


def test_decision_an_exchange_is_not_a_pass():
    state = arrange(new(), racks=[[20], [19]], passes=1)
    step = GAME.apply(state, 0, {"type": "exchange", "tiles": [20]}, 0)
    assert of_type(step.events, "turn_ended")[0]["passed"] is False
    assert step.state.data["passes"] == 0 and GAME.outcome(step.state) is None


def test_decision_a_refill_breaks_the_run_of_passes():
    state = arrange(new(), racks=[[20], []], passes=0)
    state = GAME.apply(state, 0, {"type": "end_turn"}, 0).state  # seat 1 refills and passes
    assert state.data["passes"] == 0 and state.data["turn"] == 0
    assert GAME.outcome(state) is None


# --- wrong drops and attempts --------------------------------------------------------------------


def test_ruling_wrong_drop_returns_the_tile_and_is_recorded():
    state = arrange(new(now_ms=1000), board=EXAMPLE_BOARD, racks=[[8, 1], [5]])
    step = GAME.apply(state, 0, place(8, 8, 5), 3500)
    assert at(step.state, 8, 5) == 0
    assert step.state.data["racks"][0] == [1, 8]
    assert step.state.data["scores"] == [0, 0]
    attempt = of_type(step.events, "attempt")[0]
    # 8 is closest to 4 + 3 = 7 (the first line at gap 1; 9 - 2 = 7 is the same distance).
    assert attempt == {
        "type": "attempt",
        "seat": 0,
        "operands": [4, 3],
        "operator": "+",
        "answer": 8,
        "expected": 7,
        "correct": False,
        "elapsed_ms": 2500,
        "skill": "add.within10",
        "row": 8,
        "col": 5,
    }
    assert of_type(step.events, "wrong_drop")[0]["reason"] == "no_match"
    assert GAME.active(step.state) == frozenset({0})  # the child may try again


@pytest.mark.parametrize(
    ("tile", "operands", "operator", "expected"),
    [(10, [9, 2], "+", 11), (2, [4, 3], "-", 1), (6, [4, 3], "+", 7), (12, [9, 2], "+", 11)],
)
def test_decision_wrong_attempt_names_the_closest_equation(tile, operands, operator, expected):
    state = arrange(new(), board=EXAMPLE_BOARD, racks=[[tile, 1], [5]])
    attempt = of_type(GAME.apply(state, 0, place(tile, 8, 5), 0).events, "attempt")[0]
    assert (attempt["operands"], attempt["operator"], attempt["expected"]) == (
        operands,
        operator,
        expected,
    )


def test_decision_a_free_placement_is_a_wrong_drop_but_no_attempt():
    # No two tiles lie in line next to (0, 9): no sum or difference to answer.
    state = arrange(new(), board=EXAMPLE_BOARD, racks=[[8, 1], [5]])
    step = GAME.apply(state, 0, place(8, 0, 9), 0)
    assert of_type(step.events, "attempt") == []
    drop = of_type(step.events, "wrong_drop")[0]
    assert (drop["reason"], drop["wrong_drops"]) == ("no_line", 1)
    assert at(step.state, 0, 9) == 0 and 8 in step.state.data["racks"][0]


def test_the_docs_of_slips_call_a_free_placement_no_answer_as_the_engine_plays_it():
    """docs/slips.md says what the engine does and docs/progress.md says: a tile on a square no
    line touches is no answer, so no slip of any kind (it once said a wrong "mixed operations"
    answer)."""
    from pathlib import Path

    state = arrange(new(), board=EXAMPLE_BOARD, racks=[[8, 1], [5]])
    assert of_type(GAME.apply(state, 0, place(8, 0, 9), 0).events, "attempt") == []
    docs = Path(__file__).parents[2] / "docs"
    slips = " ".join((docs / "slips.md").read_text().split())
    assert "mixed operations" not in slips.lower()
    paragraph = next(p for p in slips.split("Mathable Junior tile")[1:] if "no line" in p[:60])
    assert "no answer at all" in paragraph[:300] and "no slip" in paragraph[:300]


def test_ruling_right_placement_is_a_correct_attempt_timed_from_the_decision_start():
    state = arrange(new(now_ms=500), board=EXAMPLE_BOARD, racks=[[7, 8], [5]])
    wrong = GAME.apply(state, 0, place(8, 8, 5), 2000).state
    step = GAME.apply(wrong, 0, place(7, 8, 5), 2600)
    attempts = of_type(step.events, "attempt")
    assert len(attempts) == 1  # one placement, one decision
    assert attempts[0]["operands"] == [4, 3] and attempts[0]["operator"] == "+"
    assert attempts[0]["answer"] == attempts[0]["expected"] == 7
    assert attempts[0]["correct"] is True
    assert attempts[0]["elapsed_ms"] == 600


def test_decision_three_wrong_drops_end_the_turn():
    state = arrange(new(), board=EXAMPLE_BOARD, racks=[[8, 7], [5]])
    for n in range(1, WRONG_DROPS_PER_TURN):
        state = GAME.apply(state, 0, place(8, 8, 5), n).state
        assert state.data["wrong"] == n and state.data["turn"] == 0
    step = GAME.apply(state, 0, place(8, 8, 5), 9)
    assert of_type(step.events, "turn_ended") == [
        {"type": "turn_ended", "seat": 0, "reason": "wrong_limit", "passed": True}
    ]
    assert step.state.data["turn"] == 1 and step.state.data["wrong"] == 0


# --- back side -----------------------------------------------------------------------------------


def back_square(number, skip=0):
    """The (row, col) of the ``skip``-th square printed ``number`` on the back grid."""
    squares = [divmod(sq, 10) for sq, n in enumerate(BACK_NUMBERS) if n == number]
    return squares[skip]


def test_ruling_back_tile_only_on_a_square_printed_with_its_number():
    state = arrange(new(BACK), board={}, racks=[[20, 4, 2], [1, 1, 1]])
    assert BACK_NUMBERS[0] == 20 and BACK_NUMBERS[1] == 4
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, place(4, 0, 0), 0)
    assert err.value.code == "wrong_number"
    step = GAME.apply(state, 0, place(20, 0, 0), 0)
    assert at(step.state, 0, 0) == 20
    assert of_type(step.events, "tile_placed")[0]["points"] == 0
    assert of_type(step.events, "attempt") == []  # nothing could score: no arithmetic decision


def test_ruling_back_one_point_for_a_tile_that_completes_an_equation():
    # Row 4 of the grid begins 3 1 2: with 3 and 1 placed, a 2 on (4, 2) completes 3 - 1 = 2.
    assert (BACK_NUMBERS[40], BACK_NUMBERS[41], BACK_NUMBERS[42]) == (3, 1, 2)
    state = arrange(new(BACK), board={(4, 0): 3, (4, 1): 1}, racks=[[2, 5, 6], [1, 1, 1]])
    step = GAME.apply(state, 0, place(2, 4, 2), 700)
    placed = of_type(step.events, "tile_placed")[0]
    assert placed["points"] == 1
    assert placed["equations"] == [{"operands": [3, 1], "operator": "-", "result": 2}]
    assert of_type(step.events, "attempt")[0]["correct"] is True
    assert step.state.data["scores"] == [1, 0]


def test_ruling_back_one_point_even_for_two_equations():
    # (4, 2) is printed 2: 3, 1 on its left (3 - 1) and 4, 2 below it (4 - 2).
    assert (BACK_NUMBERS[52], BACK_NUMBERS[62]) == (6, 2)
    board = {(4, 0): 3, (4, 1): 1, (5, 2): 4, (6, 2): 2}
    state = arrange(new(BACK), board=board, racks=[[2, 5, 6], [1, 1, 1]])
    step = GAME.apply(state, 0, place(2, 4, 2), 0)
    placed = of_type(step.events, "tile_placed")[0]
    assert len(placed["equations"]) == 2 and placed["points"] == 1


def test_ruling_back_missed_equation_is_a_wrong_attempt_scoring_nothing():
    board = {(4, 0): 3, (4, 1): 1}
    state = arrange(new(BACK), board=board, racks=[[2, 5, 6], [1, 1, 1]])
    other = back_square(2, 0)
    assert other != (4, 2)
    step = GAME.apply(state, 0, place(2, *other), 0)
    assert at(step.state, *other) == 2  # without the priority option the tile stays
    assert of_type(step.events, "tile_placed")[0]["points"] == 0
    # No line at the chosen square: a free placement, not an answer.
    assert of_type(step.events, "attempt") == []


def test_decision_back_missed_equation_next_to_a_line_is_a_wrong_attempt():
    board = {(4, 0): 3, (4, 1): 1}
    state = arrange(new(BACK), board=board, racks=[[2, 5, 6], [1, 1, 1]])
    (row, col) = back_square(2, 0)
    beside = {(row, col - 1): 9, (row, col - 2): 5} if col >= 2 else {}
    beside = beside or {(row, col + 1): 9, (row, col + 2): 5}
    state = arrange(new(BACK), board={**board, **beside}, racks=[[2, 5, 6], [1, 1, 1]])
    attempt = of_type(GAME.apply(state, 0, place(2, row, col), 0).events, "attempt")[0]
    assert attempt["correct"] is False
    assert (sorted(attempt["operands"]), attempt["answer"]) == ([5, 9], 2)


def test_ruling_back_draw_3_after_placing_all_3():
    state = arrange(new(BACK), board={}, racks=[[20, 4, 2], [1, 1, 1]])
    for n, tile in enumerate((20, 4, 2)):
        step = GAME.apply(state, 0, place(tile, *back_square(tile)), n)
        state = step.state
    assert len(state.data["racks"][0]) == 3
    drawn = of_type(step.events, "tiles_drawn")[0]
    assert drawn["tiles"] == state.data["racks"][0]  # face up: everyone sees them
    assert of_type(step.events, "turn_ended")[0]["reason"] == "all_placed"
    assert GAME.active(state) == frozenset({1})
    assert conserved(state)


def test_ruling_back_priority_option_makes_a_scoring_tile_score():
    board = {(4, 0): 3, (4, 1): 1}
    state = arrange(new(BACK, priority=True), board=board, racks=[[2, 5, 6], [1, 1, 1]])
    elsewhere = back_square(2, 0)
    for n in range(1, WRONG_DROPS_PER_TURN + 1):
        step = GAME.apply(state, 0, place(2, *elsewhere), n)
        state = step.state
        assert at(state, *elsewhere) == 0 and 2 in state.data["racks"][0]
        assert of_type(step.events, "wrong_drop")[0]["reason"] == "must_score"
        # No line lies next to that square: refused by the option, but not an answer.
        assert of_type(step.events, "attempt") == []
    # After three wrong drops the requirement is waived for the rest of the turn (decision).
    step = GAME.apply(state, 0, place(2, *elsewhere), 9)
    assert at(step.state, *elsewhere) == 2
    assert of_type(step.events, "wrong_drop") == []


def test_ruling_back_priority_allows_any_square_when_the_tile_cannot_score():
    state = arrange(new(BACK, priority=True), board={}, racks=[[20, 4, 2], [1, 1, 1]])
    step = GAME.apply(state, 0, place(4, *back_square(4, 3)), 0)
    assert at(step.state, *back_square(4, 3)) == 4 and step.events[0]["type"] == "tile_placed"


def test_ruling_back_game_ends_when_all_tiles_are_placed():
    state = arrange(new(BACK), board={}, racks=[[20], []], pot=[], scores=[0, 2])
    step = GAME.apply(state, 0, place(20, 0, 0), 0)
    assert of_type(step.events, "game_over") == [
        {"type": "game_over", "reason": "all_tiles_placed", "scores": [0, 2], "winners": [1]}
    ]


def test_back_player_without_tiles_is_skipped_once_the_pot_is_dry():
    state = arrange(new(BACK, players=3), board={}, racks=[[20], [], [1]], pot=[])
    step = GAME.apply(state, 0, place(20, 0, 0), 0)
    assert GAME.active(step.state) == frozenset({2})


def test_back_has_only_place_moves():
    state = new(BACK)
    for move in ({"type": "end_turn"}, {"type": "draw"}, {"type": "exchange", "tiles": [1]}):
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, 0, move, 0)
        assert err.value.code == "unknown_move"


# --- legal moves, hints, views -------------------------------------------------------------------


def test_front_legal_moves_list_every_tile_on_every_empty_square():
    state = arrange(new(), board=EXAMPLE_BOARD, racks=[[7, 7, 1], [5]])
    moves = GAME.legal_moves(state, 0)
    places = {(m["tile"], m["row"], m["col"]) for m in moves if m["type"] == "place"}
    occupied = {(6, 5), (7, 5), (8, 3), (8, 4)}
    empty = [(row, col) for row in range(10) for col in range(10) if (row, col) not in occupied]
    assert places == {(tile, row, col) for tile in (1, 7) for row, col in empty}
    assert len(places) == 2 * 96
    exchanges = sorted(m["tiles"] for m in moves if m["type"] == "exchange")
    assert exchanges == [[1], [1, 7], [1, 7, 7], [7], [7, 7]]
    assert moves[-1] == {"type": "end_turn"} and {"type": "draw"} not in moves
    assert GAME.legal_moves(state, 1) == []


def test_back_legal_moves_are_the_squares_printed_with_each_tile():
    taken = back_square(4, 0)
    state = arrange(new(BACK), board={taken: 4}, racks=[[20, 4, 4], [1, 1, 1]])
    moves = GAME.legal_moves(state, 0)
    expected = {(4, *divmod(sq, 10)) for sq, n in enumerate(BACK_NUMBERS) if n == 4}
    expected.discard((4, *taken))
    expected |= {(20, *divmod(sq, 10)) for sq, n in enumerate(BACK_NUMBERS) if n == 20}
    assert {(m["tile"], m["row"], m["col"]) for m in moves} == expected
    assert len(moves) == 7 + 2


def test_hint_gives_the_best_right_placement_or_none():
    state = arrange(new(), board=EXAMPLE_BOARD, racks=[[7, 20], [5]])
    assert GAME.hint(state, 0) == place(7, 8, 5)
    assert GAME.hint(state, 1) is None  # not seat 1's turn
    stuck = arrange(new(), board={(0, 0): 1}, racks=[[7, 20], [5]])
    assert GAME.hint(stuck, 0) is None
    back = arrange(new(BACK), board={(4, 0): 3, (4, 1): 1}, racks=[[2, 5, 6], [1, 1, 1]])
    assert GAME.hint(back, 0) == place(2, 4, 2)


def test_view_front_shows_own_rack_and_only_counts_of_others():
    state = arrange(new(), racks=[[1, 2, 3, 4, 5], [6, 7, 8]])
    view = GAME.view(state, 0)
    assert view["rack"] == [1, 2, 3, 4, 5]
    assert view["rack_counts"] == [5, 3]
    assert view["pot_count"] == len(state.data["pot"])
    assert view["squares"][4][7] == "+" and view["board"][0] == [None] * 10
    assert "racks" not in view
    spectator = GAME.view(state, None)
    assert spectator["rack"] is None and spectator["rack_counts"] == [5, 3]
    helpers.assert_no_secret_keys(view)


def assert_views_hide_secrets(state):
    """A seat's view stays the same when what it may not see changes: the other seats' hidden
    racks (front), the pot's contents and order, the generator."""
    data = state.data
    scramble = random.Random(state.version)
    for seat in [None, *range(state.players)]:
        other = state.clone()
        other.rng ^= 0x5DEECE66D
        hidden = [s for s in range(state.players) if s != seat] if state.variant == FRONT else []
        pool = [v for s in hidden for v in data["racks"][s]] + list(data["pot"])
        scramble.shuffle(pool)
        for s in hidden:
            size = len(data["racks"][s])
            other.data["racks"][s], pool = sorted(pool[:size]), pool[size:]
        other.data["pot"] = pool
        assert GAME.view(other, seat) == GAME.view(state, seat)


# --- illegal moves -------------------------------------------------------------------------------

MALFORMED_MOVES = [
    {"type": "place", "tile": "7", "row": 1, "col": 1},
    {"type": "place", "tile": 7, "row": 10, "col": 1},
    {"type": "place", "tile": 7, "row": 1},
    {"type": "place", "tile": 21, "row": 1, "col": 1},
    {"type": "place", "tile": True, "row": 1, "col": 1},
    {"type": "exchange", "tiles": 5},
    {"type": "exchange", "tiles": []},
    {"type": "exchange", "tiles": ["5"]},
    {"tile": 7},
    "place",
]


def test_structural_errors_have_stable_codes_and_leave_the_state_untouched():
    state = arrange(new(), board=EXAMPLE_BOARD, racks=[[7, 8], [5]])
    before = GAME.dump(state)
    for move in MALFORMED_MOVES:
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, 0, move, 0)
        assert err.value.code == "malformed", move
    cases = [
        (0, place(9, 8, 5), "tile_not_in_rack"),
        (0, place(7, 6, 5), "square_occupied"),
        (1, place(5, 0, 0), "not_active"),
        (2, place(5, 0, 0), "bad_seat"),
        (0, {"type": "undo"}, "unknown_move"),
        (0, {"type": "draw"}, "no_extra_draw"),
    ]
    for seat, move, code in cases:
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, seat, move, 0)
        assert err.value.code == code, move
    assert GAME.dump(state) == before


# --- bots ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", [FRONT, BACK])
def test_bots_of_every_level_play_legal_moves_and_leave_the_state_alone(variant):
    chooser_rng = random.Random(5)
    state = new(variant, players=3, seed=5)
    for _ in range(60):
        if GAME.outcome(state) is not None:
            break
        seat = next(iter(GAME.active(state)))
        before = GAME.dump(state)
        legal = GAME.legal_moves(state, seat)
        chosen = {}
        for level in ("random", "easy", "strong"):
            chosen[level] = GAME.bot_move(state, seat, level, chooser_rng)
            assert chosen[level] in legal, (level, chosen[level])
            assert GAME.bot_move(state, (seat + 1) % 3, level, chooser_rng) is None
        assert GAME.dump(state) == before
        state = GAME.apply(state, seat, chosen[("easy", "strong")[state.version % 2]], 0).state


def test_bot_easy_plays_right_and_strong_chases_the_bonus():
    # A 2 scores 4 on the 2X corner (0, 9) (5 - 3), but the chain on row 8 needs that 2 first:
    # the hint takes the best single placement, easy the first in reading order, strong plans the
    # whole rack for 2 + 1 + 3 + 4 + 7 + 25 = 42.
    board = {**CHAIN_BOARD, (0, 7): 5, (0, 8): 3}
    state = arrange(new(), board=board, racks=[[1, 2, 3, 4, 7], [5, 6]])
    assert GAME.hint(state, 0) == place(2, 0, 9)
    assert GAME.bot_move(state, 0, "easy", random.Random(0)) == place(2, 0, 6)
    assert GAME.bot_move(state, 0, "strong", random.Random(0)) == place(2, 8, 2)
    for _ in CHAIN:
        move = GAME.bot_move(state, 0, "strong", random.Random(0))
        state = GAME.apply(state, 0, move, 0).state
    assert state.data["scores"][0] == 42


def test_bot_strong_when_stuck_exchanges_only_if_it_can_help():
    state = arrange(new(), board={(0, 0): 1}, racks=[[7, 20], [5]])  # no line anywhere
    assert GAME.bot_move(state, 0, "strong", random.Random(0)) == {"type": "end_turn"}
    state = arrange(new(), racks=[[20, 19], [5]])  # the centre opens lines; 20 and 19 fit none
    assert GAME.bot_move(state, 0, "strong", random.Random(0)) == {
        "type": "exchange",
        "tiles": [19, 20],
    }


@pytest.mark.parametrize("variant", [FRONT, BACK])
def test_strong_bot_beats_random(variant):
    shares = arena(GAME, variant, ["strong", "random"], 40)
    assert shares["strong"] >= 0.85, shares


def test_strong_bot_beats_easy_on_the_front():
    shares = arena(GAME, FRONT, ["strong", "easy"], 20)
    assert shares["strong"] > shares["easy"], shares


# --- property tests over every variant and player count ------------------------------------------

VARIANT_OPTIONS = [(FRONT, {}), (BACK, {}), (BACK, {"priority": True})]


def check_playthrough(done, players):
    for state in done.states:
        assert conserved(state)
        assert_views_hide_secrets(state)
    secret_free = {"tile_drawn", "tiles_exchanged", "rack_refilled"}
    for event in done.events:
        if event["type"] in secret_free:
            assert set(event) <= {"type", "seat", "count", "pot_count"}
    assert done.outcome is not None and len(done.outcome.scores) == players


EVERY_SETUP = [(case, players) for case in VARIANT_OPTIONS for players in (2, 3, 4)]
SETUP_IDS = [
    f"{variant}{'-priority' if options else ''}-{n}p" for (variant, options), n in EVERY_SETUP
]


@pytest.mark.parametrize(("case", "players"), EVERY_SETUP, ids=SETUP_IDS)
@given(seed=st.integers(0, 2**31))
def test_property_random_play_ends_conserves_tiles_and_hides_secrets(seed, players, case):
    variant, options = case
    done = helpers.play_and_check(GAME, variant, players, seed, options)
    check_playthrough(done, players)
    helpers.replay(GAME, variant, players, seed, done, options)


def mixed_chooser(game, state, seat, rng):
    """Random play through legal_moves that follows the hint 80% of the time, so games get long
    and reach extra draws, bonuses and refills; otherwise it picks a kind of move, then a move of
    that kind, so the rare kinds (end_turn among hundreds of placements) come up too."""
    if rng.random() < 0.8:
        hinted = game.hint(state, seat)
        if hinted is not None:
            return hinted
    by_kind = {}
    for move in game.legal_moves(state, seat):
        by_kind.setdefault(move["type"], []).append(move)
    if not by_kind:
        return None
    return rng.choice(by_kind[rng.choice(sorted(by_kind))])


@pytest.mark.parametrize(("case", "players"), EVERY_SETUP, ids=SETUP_IDS)
@given(seed=st.integers(0, 2**31))
def test_property_guided_play_ends_conserves_tiles_and_hides_secrets(seed, players, case):
    variant, options = case
    state = GAME.new(variant, players, seed, options)
    done = play(GAME, state, [mixed_chooser] * players, random.Random(seed), keep_states=True)
    check_playthrough(done, players)
    helpers.assert_json_round_trip(GAME, done.state)
    helpers.replay(GAME, variant, players, seed, done, options)
    for earlier, later in zip(done.states, done.states[1:], strict=False):
        assert later.version == earlier.version + 1


@given(
    seed=st.integers(0, 2**31),
    players=st.integers(2, 4),
    case=st.sampled_from(VARIANT_OPTIONS),
    steps=st.integers(0, 40),
    move=st.sampled_from(
        [
            *MALFORMED_MOVES,
            {"type": "place", "tile": 20, "row": 4, "col": 4},
            {"type": "exchange", "tiles": [1, 1, 1, 1, 1, 1]},
            {"type": "draw"},
            {"type": "fly"},
        ]
    ),
)
def test_property_illegal_moves_raise_and_leave_the_state_untouched(
    seed, players, case, steps, move
):
    variant, options = case
    state = GAME.new(variant, players, seed, options)
    rng = random.Random(seed)
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        seat = next(iter(GAME.active(state)))
        state = GAME.apply(state, seat, mixed_chooser(GAME, state, seat, rng), 0).state
    before = GAME.dump(state)
    for seat in range(players):
        if move in GAME.legal_moves(state, seat):
            continue  # an earned draw is a real move
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, seat, move, 0)
        assert err.value.code.isidentifier() and err.value.code == err.value.code.lower()
        assert GAME.dump(state) == before


def test_guided_play_reaches_every_kind_of_move_and_event():
    moves, events = Counter(), Counter()
    for seed in range(4):
        for variant, options in VARIANT_OPTIONS:
            state = GAME.new(variant, 3, seed, options)
            done = play(GAME, state, [mixed_chooser] * 3, random.Random(seed))
            moves.update(m[1]["type"] for m in done.moves)
            events.update(e["type"] for e in done.events)
            events.update(f"wrong:{e['reason']}" for e in done.events if e["type"] == "wrong_drop")
            events.update(f"end:{e['reason']}" for e in done.events if e["type"] == "game_over")
    assert set(moves) == {"place", "exchange", "draw", "end_turn"}
    expected_events = {
        "attempt",
        "tile_placed",
        "wrong_drop",
        "bonus",
        "tile_drawn",
        "tiles_exchanged",
        "rack_refilled",
        "turn_ended",
        "turn_started",
        "tiles_drawn",
        "game_over",
        "wrong:no_line",
        "wrong:no_match",
        "wrong:must_score",
        "end:all_tiles_placed",
    }
    assert expected_events <= set(events), expected_events - set(events)
