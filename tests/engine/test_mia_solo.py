"""¡Mía! solo square (solo5, solo4, solo3): rulebook seeds/000 "5x5 (Solo mode)", RULINGS 1 "Solo
NxN", and the decisions of docs/rules/mia_solo.md. Each test is named after the rule it checks."""

from __future__ import annotations

import itertools
import random
import time
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine import mia, mia_puzzles, mia_solo, mia_solver
from engine.core import IllegalMove, SetupError
from engine.mia_cards import number_cards, operation_cards
from engine.simulate import arena, bot_chooser, play, random_legal
from tests.engine.helpers import (
    assert_json_round_trip,
    assert_no_secret_keys,
    play_and_check,
    replay,
)

GAME = engine.get_game("mia")
SOLO = ("solo5", "solo4", "solo3")
SIZE = {"solo5": 5, "solo4": 4, "solo3": 3}

# Operation cards the precise positions use (ids in data/mia_decks.json); checked below.
PLUS5_MINUS4 = 0
PLUS4_MINUS3 = 1
PLUS8_PLUS9 = 30
PLUS6_PLUS7 = 31
MINUS1_MINUS2 = 34
MINUS3_MINUS4 = 35
X = None  # an empty cell, for readable grids


def test_the_cards_the_positions_use_are_what_the_tests_say():
    def options(card_id):
        return [(o["op"], o["target"]) for o in operation_cards()[card_id]["options"]]

    assert options(PLUS5_MINUS4) == [("+", 5), ("-", 4)]
    assert options(PLUS4_MINUS3) == [("+", 4), ("-", 3)]
    assert options(PLUS8_PLUS9) == [("+", 8), ("+", 9)]
    assert options(PLUS6_PLUS7) == [("+", 6), ("+", 7)]
    assert options(MINUS1_MINUS2) == [("-", 1), ("-", 2)]
    assert options(MINUS3_MINUS4) == [("-", 3), ("-", 4)]


# --- building precise positions ------------------------------------------------------------------


def ids_of_values(values, taken):
    """Distinct ordinary number card ids with these values, avoiding ``taken`` (updated)."""
    ids = []
    for value in values:
        card = next(
            i
            for i, c in enumerate(number_cards())
            if c["kind"] == "number" and c["value"] == value and i not in taken
        )
        taken.add(card)
        ids.append(card)
    return ids


def position(grid, hand, deck, *, now_ms=0, swaps=0):
    """A solo state with this square (rows of operation card ids or X), a hand and a deck given as
    number values (next card first). The other number cards are put in the discard so that the
    cards stay conserved."""
    size = len(grid)
    variant = {5: "solo5", 4: "solo4", 3: "solo3"}[size]
    state = GAME.new(variant=variant, players=1, seed=0, now_ms=now_ms)
    taken: set[int] = set()
    data = state.data
    data["hand"] = ids_of_values(hand, taken)
    data["deck"] = ids_of_values(deck, taken)
    data["discard"] = [c for c in mia_solo.solo_number_ids() if c not in taken]
    data["grid"] = [card for row in grid for card in row]
    data["solved"] = []
    data["swaps"] = swaps
    return state


def values_of(ids):
    return [number_cards()[c]["value"] for c in ids]


def solve_move(state, row, col, hand_values, option):
    """The solve move that uses the hand cards of these values."""
    hand = list(state.data["hand"])
    cards = []
    for value in hand_values:
        card = next(c for c in hand if number_cards()[c]["value"] == value)
        hand.remove(card)
        cards.append(card)
    return {"type": "solve", "row": row, "col": col, "cards": cards, "option": option}


def swap_move(state, hand_values):
    move = solve_move(state, 0, 0, hand_values, 0)
    return {"type": "swap", "cards": move["cards"]}


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


FULL_3X3 = [
    [PLUS5_MINUS4, PLUS4_MINUS3, PLUS8_PLUS9],
    [PLUS6_PLUS7, MINUS1_MINUS2, MINUS3_MINUS4],
    [PLUS5_MINUS4 + 2, PLUS4_MINUS3 + 2, PLUS8_PLUS9 + 1],
]


# --- setup ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", SOLO)
def test_ruling_solo_deals_n_by_n_one_point_operation_cards_and_a_hand_of_5(variant):
    state = GAME.new(variant=variant, players=1, seed=7)
    size = SIZE[variant]
    grid = state.data["grid"]
    assert len(grid) == size * size
    assert len(set(grid)) == size * size
    for card_id in grid:
        card = operation_cards()[card_id]
        assert card["kind"] == "operation" and card["points"] == 1
    assert len(state.data["hand"]) == 5
    assert len(state.data["deck"]) == 63 - 5
    view = GAME.view(state, 0)
    assert view["size"] == size
    assert [[cell["id"] for cell in row] for row in view["square"]] == [
        grid[r * size : (r + 1) * size] for r in range(size)
    ]


@pytest.mark.parametrize("variant", SOLO)
def test_rulebook_solo_removes_all_special_cards(variant):
    """Rulebook: "remove all special cards from both decks ... without including any extra value
    cards (x2 and x3)"; RULINGS 1: "remove all special cards"."""
    for seed in range(20):
        data = GAME.new(variant=variant, players=1, seed=seed).data
        number_kinds = {number_cards()[c]["kind"] for c in data["hand"] + data["deck"]}
        assert number_kinds == {"number"}
        assert sorted(data["hand"] + data["deck"]) == [
            i for i, c in enumerate(number_cards()) if c["kind"] == "number"
        ]
        assert all(operation_cards()[c]["points"] == 1 for c in data["grid"])
    assert len(mia_solo.solo_operation_ids()) == 36
    assert len(mia_solo.solo_number_ids()) == 63


def test_ruling_randomness_from_the_seed_same_seed_same_deal():
    first = GAME.new(variant="solo5", players=1, seed=99)
    again = GAME.new(variant="solo5", players=1, seed=99)
    other = GAME.new(variant="solo5", players=1, seed=100)
    assert GAME.dump(first) == GAME.dump(again)
    assert first.data["grid"] != other.data["grid"] or first.data["deck"] != other.data["deck"]


@pytest.mark.parametrize("variant", SOLO)
def test_solo_takes_exactly_one_player(variant):
    for players in (0, 2, 3):
        with pytest.raises(SetupError) as error:
            GAME.new(variant=variant, players=players, seed=1)
        assert error.value.code == "bad_players"


def test_solo_setup_errors_have_clear_codes():
    with pytest.raises(SetupError) as error:
        GAME.new(variant="solo6", players=1, seed=1)
    assert error.value.code == "unknown_variant"
    with pytest.raises(SetupError) as error:
        GAME.new(variant="solo5", players=1, seed=1, options={"first_player": "seat0"})
    assert error.value.code == "unknown_option"
    with pytest.raises(SetupError) as error:
        GAME.new(variant="solo5", players=1, seed="1")
    assert error.value.code == "bad_seed"
    with pytest.raises(SetupError) as error:
        GAME.new(variant="solo5", players=True, seed=1)
    assert error.value.code == "bad_players"


def test_solo_variants_are_listed_with_one_player_and_no_options():
    for name in SOLO:
        variant = GAME.variants[name]
        assert (variant.min_players, variant.max_players) == (1, 1)
        assert dict(variant.options) == {}
    assert mia.SOLO_MOVES == ("solve", "swap")


# --- which cards are open ------------------------------------------------------------------------


def open_of(grid):
    state = position(grid, [1, 2, 3, 4, 5], [6, 7])
    return sorted(tuple(cell) for cell in GAME.view(state, 0)["open"])


@pytest.mark.parametrize("variant", SOLO)
def test_ruling_at_the_start_only_the_four_corners_are_open(variant):
    size = SIZE[variant]
    state = GAME.new(variant=variant, players=1, seed=3)
    corners = [(0, 0), (0, size - 1), (size - 1, 0), (size - 1, size - 1)]
    assert sorted(tuple(cell) for cell in GAME.view(state, 0)["open"]) == corners
    solved_cells = {
        (m["row"], m["col"]) for m in GAME.legal_moves(state, 0) if m["type"] == "solve"
    }
    assert sorted(solved_cells) == corners


def test_ruling_card_flanked_left_and_right_is_blocked():
    grid = [[1, 2, 3], [X, X, X], [X, X, X]]
    assert open_of(grid) == [(0, 0), (0, 2)]


def test_ruling_card_flanked_top_and_bottom_is_blocked():
    grid = [[1, X, X], [2, X, X], [3, X, X]]
    assert open_of(grid) == [(0, 0), (2, 0)]


def test_ruling_corner_card_is_blocked_when_the_diagonal_between_its_neighbours_is_empty():
    """Removing (0,0) would leave (0,1) and (1,0) joined only by a corner."""
    grid = [[1, 2, X], [3, X, X], [X, X, X]]
    assert open_of(grid) == [(0, 1), (1, 0)]


def test_ruling_corner_card_is_open_when_the_diagonal_between_its_neighbours_is_occupied():
    grid = [[1, 2, X], [3, 4, X], [X, X, X]]
    assert open_of(grid) == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_ruling_a_card_with_one_neighbour_or_none_is_open():
    grid = [[1, 2, 3], [X, 4, X], [X, X, 5]]
    # (0,1) is flanked; (1,1) has one neighbour (up); (2,2) has none.
    assert open_of(grid) == [(0, 0), (0, 2), (1, 1), (2, 2)]


def test_ruling_edge_card_of_a_full_side_is_blocked():
    """Rulebook: "you can only solve outermost operations, never those whose two sides are
    adjacent to other cards"."""
    grid = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
    assert open_of(grid) == [(0, 0), (0, 3), (3, 0), (3, 3)]


def reachable_masks(size):
    full = (1 << (size * size)) - 1
    seen, stack = {full}, [full]
    while stack:
        mask = stack.pop()
        for cell in mia_solo.open_cells(size, mask):
            smaller = mask & ~(1 << cell)
            if smaller not in seen:
                seen.add(smaller)
                stack.append(smaller)
    return seen


@pytest.mark.parametrize("size", [3, 4])
def test_ruling_no_two_cards_are_ever_joined_only_by_a_corner(size):
    """Every square the opening rule lets a player reach keeps each pair of diagonal neighbours
    joined through a shared side cell, and always has an open card while a card is left (so the
    geometry alone never blocks a game)."""
    masks = reachable_masks(size)
    assert len(masks) == {3: 168, 4: 2686}[size]

    def has(mask, r, c):
        return 0 <= r < size and 0 <= c < size and mask >> (r * size + c) & 1

    for mask in masks:
        if mask:
            assert mia_solo.open_cells(size, mask)
        for r in range(size - 1):
            for c in range(size):
                for dc in (-1, 1):
                    if has(mask, r, c) and has(mask, r + 1, c + dc):
                        assert has(mask, r + 1, c) or has(mask, r, c + dc), (mask, r, c, dc)


# --- solving -------------------------------------------------------------------------------------


def test_ruling_right_solve_removes_the_card_discards_the_two_cards_and_draws_two():
    state = position(FULL_3X3, hand=[2, 3, 7, 8, 9], deck=[4, 6, 1])
    hand_before = list(state.data["hand"])
    deck_before = list(state.data["deck"])
    discard_before = list(state.data["discard"])
    move = solve_move(state, 0, 0, [2, 3], 0)  # 2 + 3 = 5
    step = GAME.apply(state, 0, move, 0)
    data = step.state.data
    assert data["grid"][0] is None
    assert data["solved"] == [PLUS5_MINUS4]
    assert data["discard"] == [*discard_before, *move["cards"]]
    kept = [c for c in hand_before if c not in move["cards"]]
    assert data["hand"] == kept + deck_before[:2]
    assert data["deck"] == deck_before[2:]
    assert values_of(data["hand"]) == [7, 8, 9, 4, 6]
    solved = of_type(step.events, "solved")
    assert len(solved) == 1
    assert (solved[0]["row"], solved[0]["col"], solved[0]["cleared"], solved[0]["left"]) == (
        0,
        0,
        1,
        8,
    )
    assert of_type(step.events, "drew") == [
        {"type": "drew", "seat": 0, "count": 2, "deck_count": 1}
    ]


def test_ruling_right_solve_by_difference_uses_the_absolute_difference():
    """RULINGS 1: right when ... |a-b| equals a '-' target; the card order does not matter."""
    for hand_order in ([5, 9], [9, 5]):
        state = position(FULL_3X3, hand=[9, 5, 1, 1, 1], deck=[2, 2])
        step = GAME.apply(state, 0, solve_move(state, 0, 0, hand_order, 1), 0)  # |5-9| = 4
        assert step.state.data["grid"][0] is None
        attempt = of_type(step.events, "attempt")[0]
        assert attempt["operands"] == [9, 5]
        assert (attempt["operator"], attempt["answer"], attempt["expected"]) == ("-", 4, 4)
        assert attempt["correct"] is True


def test_ruling_right_solve_emits_an_attempt_with_elapsed_time_since_the_decision_began():
    state = position(FULL_3X3, hand=[2, 3, 7, 8, 9], deck=[4, 6, 1, 1], now_ms=1_000)
    step = GAME.apply(state, 0, solve_move(state, 0, 0, [2, 3], 0), 4_500)
    attempt = of_type(step.events, "attempt")[0]
    assert attempt == {
        "type": "attempt",
        "seat": 0,
        "operands": [2, 3],
        "operator": "+",
        "answer": 5,
        "target": 5,
        "expected": 5,
        "correct": True,
        "elapsed_ms": 3_500,
        "skill": "add.within10",
        "row": 0,
        "col": 0,
        "card": PLUS5_MINUS4,
        "option": 0,
    }
    # The next decision starts when this move was made.
    step = GAME.apply(step.state, 0, solve_move(step.state, 0, 2, [8, 9], 0), 6_000)
    assert of_type(step.events, "attempt")[0]["elapsed_ms"] == 1_500


def test_decision_wrong_solve_is_recorded_and_leaves_square_hand_and_deck_as_they_were():
    state = position(FULL_3X3, hand=[2, 7, 1, 1, 1], deck=[4, 6], now_ms=0)
    before = GAME.dump(state)
    step = GAME.apply(state, 0, solve_move(state, 0, 0, [2, 7], 0), 2_000)  # 2 + 7 is not 5
    data = step.state.data
    assert data["grid"] == state.data["grid"]
    assert data["hand"] == state.data["hand"]
    assert data["deck"] == state.data["deck"]
    assert data["mistakes"] == 1
    assert data["swaps"] == 0
    assert GAME.outcome(step.state) is None
    attempt = of_type(step.events, "attempt")[0]
    assert (attempt["answer"], attempt["expected"], attempt["correct"]) == (5, 9, False)
    assert attempt["elapsed_ms"] == 2_000
    wrong = of_type(step.events, "wrong_solve")[0]
    assert wrong["why"] == "2 + 7 = 9, not 5"
    assert (wrong["target"], wrong["result"], wrong["mistakes"]) == (5, 9, 1)
    assert GAME.dump(state) == before  # apply is pure
    assert GAME.view(step.state, 0)["mistakes"] == 1


def test_decision_wrong_difference_explains_the_true_difference():
    state = position(FULL_3X3, hand=[3, 8, 1, 1, 1], deck=[4, 6])
    step = GAME.apply(state, 0, solve_move(state, 0, 0, [3, 8], 1), 0)  # |3-8| = 5, not 4
    assert of_type(step.events, "wrong_solve")[0]["why"] == "8 - 3 = 5, not 4"
    attempt = of_type(step.events, "attempt")[0]
    assert (attempt["operands"], attempt["skill"]) == ([8, 3], "sub.within10")


def test_decision_right_pair_with_the_wrong_option_is_a_wrong_solve():
    """The claim names the option: 9 and 5 make the difference 4 but not the sum 5."""
    state = position(FULL_3X3, hand=[9, 5, 1, 1, 1], deck=[2, 2])
    step = GAME.apply(state, 0, solve_move(state, 0, 0, [9, 5], 0), 0)
    assert step.state.data["grid"][0] == PLUS5_MINUS4
    assert of_type(step.events, "attempt")[0]["correct"] is False


def test_ruling_solving_a_card_opens_its_neighbours():
    state = position(FULL_3X3, hand=[2, 3, 7, 8, 9], deck=[4, 6])
    step = GAME.apply(state, 0, solve_move(state, 0, 0, [2, 3], 0), 0)
    # (0,1) now has right and down neighbours with (1,2) occupied; (1,0) likewise.
    assert of_type(step.events, "cards_opened") == [
        {"type": "cards_opened", "cells": [[0, 1], [1, 0]]}
    ]
    assert sorted(map(tuple, GAME.view(step.state, 0)["open"])) == [
        (0, 1),
        (0, 2),
        (1, 0),
        (2, 0),
        (2, 2),
    ]


# --- swapping ------------------------------------------------------------------------------------


def test_ruling_swap_two_cards_for_two_from_the_deck_is_counted():
    state = position(FULL_3X3, hand=[1, 1, 1, 1, 2], deck=[9, 8, 7])
    move = swap_move(state, [1, 2])
    step = GAME.apply(state, 0, move, 0)
    data = step.state.data
    assert data["swaps"] == 1
    assert values_of(data["hand"]) == [1, 1, 1, 9, 8]
    assert data["deck"] == state.data["deck"][2:]
    assert data["discard"][-2:] == move["cards"]
    assert data["grid"] == state.data["grid"]
    swapped = of_type(step.events, "swapped")[0]
    assert (swapped["swaps"], swapped["deck_count"]) == (1, 1)
    assert [n["id"] for n in swapped["numbers"]] == move["cards"]
    assert not of_type(step.events, "attempt")  # a swap is no arithmetic claim
    assert GAME.view(step.state, 0)["swaps"] == 1


def test_decision_swap_is_allowed_even_when_a_solve_is_right():
    state = position(FULL_3X3, hand=[2, 3, 1, 1, 1], deck=[9, 8])
    assert {"type": "swap", "cards": state.data["hand"][:2]} in GAME.legal_moves(state, 0)
    step = GAME.apply(state, 0, swap_move(state, [2, 3]), 0)
    assert step.state.data["swaps"] == 1


def test_ruling_swap_needs_two_cards_in_the_deck():
    state = position(FULL_3X3, hand=[2, 3, 1, 1, 1], deck=[9])
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "swap"]
    assert GAME.view(state, 0)["can_swap"] is False
    before = GAME.dump(state)
    with pytest.raises(IllegalMove) as error:
        GAME.apply(state, 0, swap_move(state, [1, 1]), 0)
    assert error.value.code == "deck_short"
    assert GAME.dump(state) == before


# --- the end -------------------------------------------------------------------------------------

LAST_CARD = [[PLUS5_MINUS4, X, X], [X, X, X], [X, X, X]]


def test_ruling_won_when_the_square_is_empty():
    state = position(LAST_CARD, hand=[2, 3, 1, 1, 1], deck=[9, 8])
    step = GAME.apply(state, 0, solve_move(state, 0, 0, [2, 3], 0), 0)
    assert step.state.data["result"] == "won"
    assert GAME.outcome(step.state).scores == [3]
    assert GAME.outcome(step.state).winners == [0]
    assert step.state.data["deck"] == state.data["deck"]  # nothing left to refill for
    assert of_type(step.events, "game_end") == [
        {
            "type": "game_end",
            "result": "won",
            "reason": "square_empty",
            "stars": 3,
            "swaps": 0,
            "mistakes": 0,
            "cleared": 1,
            "cards_total": 9,
        }
    ]
    assert GAME.active(step.state) == frozenset()
    assert GAME.legal_moves(step.state, 0) == []
    assert GAME.view(step.state, None)["outcome"] == {"scores": [3], "winners": [0], "places": [1]}


@pytest.mark.parametrize(("swaps", "stars"), [(0, 3), (1, 2), (2, 2), (3, 1), (9, 1)])
def test_ruling_stars_from_swaps_used(swaps, stars):
    assert mia_solo.stars_for(swaps) == stars
    state = position(LAST_CARD, hand=[2, 3, 1, 1, 1], deck=[9, 8], swaps=swaps)
    done = GAME.apply(state, 0, solve_move(state, 0, 0, [2, 3], 0), 0).state
    assert GAME.outcome(done).scores == [stars]
    assert GAME.view(done, 0)["stars"] == stars


def test_ruling_lost_when_the_deck_cannot_refill_after_a_solve():
    grid = [[PLUS5_MINUS4, X, PLUS8_PLUS9], [X, X, X], [X, X, X]]
    state = position(grid, hand=[2, 3, 1, 1, 1], deck=[1])
    step = GAME.apply(state, 0, solve_move(state, 0, 0, [2, 3], 0), 0)
    # Hand 1 1 1 1 cannot make 8 or 9 and the deck is empty: no swap, no solve.
    assert step.state.data["result"] == "lost"
    assert GAME.outcome(step.state).scores == [0]
    assert GAME.outcome(step.state).winners == []
    end = of_type(step.events, "game_end")[0]
    assert (end["result"], end["reason"], end["stars"], end["cleared"]) == (
        "lost",
        "deck_cannot_refill",
        0,
        1,
    )
    assert of_type(step.events, "drew")[0]["count"] == 1


def test_ruling_lost_when_a_swap_empties_the_deck_and_nothing_can_be_solved():
    grid = [[PLUS8_PLUS9, X, X], [X, X, X], [X, X, X]]
    state = position(grid, hand=[1, 1, 1, 2, 2], deck=[1, 1])
    step = GAME.apply(state, 0, swap_move(state, [2, 2]), 0)
    assert step.state.data["result"] == "lost"
    assert GAME.outcome(step.state).winners == []


def test_ruling_lost_when_one_card_is_left_in_the_deck_and_nothing_can_be_solved():
    """One card cannot make a swap of two: the deck cannot refill."""
    grid = [[PLUS8_PLUS9, X, X], [X, X, X], [X, X, X]]
    state = position(grid, hand=[1, 1, 1, 2, 2], deck=[1, 1, 3])
    step = GAME.apply(state, 0, swap_move(state, [2, 2]), 0)
    assert len(step.state.data["deck"]) == 1
    assert step.state.data["result"] == "lost"


def test_decision_not_lost_while_a_swap_remains():
    grid = [[PLUS8_PLUS9, X, X], [X, X, X], [X, X, X]]
    state = position(grid, hand=[1, 1, 1, 2, 2], deck=[1, 1, 1, 1])
    step = GAME.apply(state, 0, swap_move(state, [2, 2]), 0)
    assert step.state.data["result"] is None  # still stuck, but two cards are left to swap in
    assert GAME.legal_moves(step.state, 0)


def test_decision_the_hand_is_played_out_after_the_deck_runs_dry():
    grid = [[PLUS5_MINUS4, PLUS6_PLUS7, X], [X, X, X], [X, X, X]]
    state = position(grid, hand=[2, 3, 1, 5, 9], deck=[])
    step = GAME.apply(state, 0, solve_move(state, 0, 0, [2, 3], 0), 0)
    assert step.state.data["result"] is None  # 1 + 5 still makes 6
    assert of_type(step.events, "drew")[0]["count"] == 0
    assert len(step.state.data["hand"]) == 3
    step = GAME.apply(step.state, 0, solve_move(step.state, 0, 1, [1, 5], 0), 0)
    assert step.state.data["result"] == "won"


# --- structural errors ---------------------------------------------------------------------------


def rejected(state, move, code, seat=0):
    before = GAME.dump(state)
    with pytest.raises(IllegalMove) as error:
        GAME.apply(state, seat, move, 0)
    assert error.value.code == code, error.value.message
    assert GAME.dump(state) == before


def test_illegal_solve_of_a_blocked_card():
    state = GAME.new(variant="solo5", players=1, seed=5)
    rejected(
        state,
        {"type": "solve", "row": 0, "col": 1, "cards": state.data["hand"][:2], "option": 0},
        "blocked_card",
    )
    rejected(
        state,
        {"type": "solve", "row": 2, "col": 2, "cards": state.data["hand"][:2], "option": 0},
        "blocked_card",
    )


def test_illegal_solve_of_an_empty_cell():
    state = position(LAST_CARD, hand=[2, 3, 1, 1, 1], deck=[9, 8])
    rejected(
        state,
        {"type": "solve", "row": 1, "col": 1, "cards": state.data["hand"][:2], "option": 0},
        "empty_cell",
    )


def test_illegal_cards_not_in_hand_or_twice_the_same():
    state = GAME.new(variant="solo4", players=1, seed=5)
    hand, deck = state.data["hand"], state.data["deck"]
    for kind, extra in (("solve", {"row": 0, "col": 0, "option": 0}), ("swap", {})):
        rejected(state, {"type": kind, "cards": [hand[0], deck[0]], **extra}, "not_in_hand")
        rejected(state, {"type": kind, "cards": [hand[0], 66], **extra}, "not_in_hand")
        rejected(state, {"type": kind, "cards": [hand[1], hand[1]], **extra}, "same_card")


@pytest.mark.parametrize(
    "move",
    [
        {"type": "solve", "row": 0, "col": 0, "cards": "12", "option": 0},
        {"type": "solve", "row": 0, "col": 0, "cards": [1], "option": 0},
        {"type": "solve", "row": 0, "col": 0, "cards": [1, 2, 3], "option": 0},
        {"type": "solve", "row": 0, "col": 0, "cards": [True, 2], "option": 0},
        {"type": "solve", "row": 0, "col": 0, "cards": [1.0, 2], "option": 0},
        {"type": "solve", "row": 5, "col": 0, "cards": [1, 2], "option": 0},
        {"type": "solve", "row": 0, "col": -1, "cards": [1, 2], "option": 0},
        {"type": "solve", "row": 0, "col": 0, "cards": [1, 2], "option": 2},
        {"type": "solve", "row": 0, "col": 0, "cards": [1, 2], "option": False},
        {"type": "solve", "col": 0, "cards": [1, 2], "option": 0},
        {"type": "swap"},
        {"type": "swap", "cards": None},
        {"cards": [1, 2]},
        [],
    ],
)
def test_illegal_malformed_moves(move):
    rejected(GAME.new(variant="solo5", players=1, seed=5), move, "malformed")


def test_illegal_unknown_move_types_and_table_moves():
    state = GAME.new(variant="solo5", players=1, seed=5)
    # Only the type: another type's keys are refused as unknown fields first (engine.core.plays).
    for kind in ("claim", "pass", "extra_time", "fly"):
        rejected(state, {"type": kind}, "unknown_move")


def test_illegal_bad_seat_and_game_over():
    state = position(LAST_CARD, hand=[2, 3, 1, 1, 1], deck=[9, 8])
    move = solve_move(state, 0, 0, [2, 3], 0)
    rejected(state, move, "bad_seat", seat=1)
    done = GAME.apply(state, 0, move, 0).state
    rejected(done, move, "game_over")


def test_the_solo_square_refuses_table_moves():
    """mia.Mia declares the moves of both kinds of variant; the solo square refuses the table's."""
    state = GAME.new(variant="solo3", players=1, seed=5)
    with pytest.raises(IllegalMove) as error:
        GAME.apply(state, 0, {"type": "claim"}, 0)
    assert error.value.code == "unknown_move"


# --- views ---------------------------------------------------------------------------------------


def test_view_shows_the_hand_only_to_its_player_and_the_deck_only_as_a_count():
    state = GAME.new(variant="solo5", players=1, seed=11)
    mine = GAME.view(state, 0)
    spectator = GAME.view(state, None)
    assert [card["id"] for card in mine["hand"]] == state.data["hand"]
    assert [card["value"] for card in mine["hand"]] == values_of(state.data["hand"])
    assert "hand" not in spectator
    assert spectator["hand_count"] == mine["hand_count"] == 5
    assert spectator["deck_count"] == mine["deck_count"] == 58
    for view in (mine, spectator):
        assert_no_secret_keys(view)
        assert view["active"] == [0]
        assert view["deadline"] is None
        assert view["discard"] == []
    assert GAME.deadline(state) is None


def test_view_of_another_seat_is_refused():
    with pytest.raises(IllegalMove) as error:
        GAME.view(GAME.new(variant="solo5", players=1, seed=1), 1)
    assert error.value.code == "bad_seat"


def test_tick_changes_nothing_as_no_timer_runs():
    state = GAME.new(variant="solo3", players=1, seed=1)
    step = GAME.tick(state, 10**9)
    assert step.state is state and step.events == []


# --- random play properties ----------------------------------------------------------------------


def assert_cards_conserved(state, dealt):
    data = state.data
    numbers = data["hand"] + data["deck"] + data["discard"]
    assert sorted(numbers) == list(mia_solo.solo_number_ids())
    on_square = [c for c in data["grid"] if c is not None]
    assert sorted(on_square + data["solved"]) == sorted(dealt)
    assert len(data["hand"]) <= 5


def number_ids_in(view_part):
    return {card["id"] for card in view_part}


def assert_no_leak(state):
    data = state.data
    mine = GAME.view(state, 0)
    spectator = GAME.view(state, None)
    secret_deck = set(data["deck"])
    assert number_ids_in(mine["hand"]) == set(data["hand"])
    assert not number_ids_in(mine["discard"]) & (secret_deck | set(data["hand"]))
    assert "hand" not in spectator
    assert not number_ids_in(spectator["discard"]) & (secret_deck | set(data["hand"]))
    # Nothing but the discard and (for the player) the hand may name a number card.
    for view in (mine, spectator):
        text = repr({k: v for k, v in view.items() if k not in ("hand", "discard", "square")})
        assert "'value'" not in text


@given(seed=st.integers(0, 2**31), variant=st.sampled_from(SOLO))
def test_property_random_play_ends_conserves_cards_and_never_leaks(seed, variant):
    done = play_and_check(GAME, variant, 1, seed)
    dealt = list(done.states[0].data["grid"])
    for state in done.states:
        assert_cards_conserved(state, dealt)
        assert_no_leak(state)
    assert done.outcome.winners in ([0], [])
    assert done.state.data["result"] in ("won", "lost")
    # Events name only the cards the move itself put on the table: a draw never shows.
    for (_, move, _), before, after in zip(done.moves, done.states, done.states[1:], strict=False):
        step = GAME.apply(before, 0, move, 0)
        named = {n["id"] for e in step.events for n in e.get("numbers", [])}
        assert named <= set(move["cards"])
        assert GAME.dump(step.state)["data"]["grid"] == after.data["grid"]
    replay(GAME, variant, 1, seed, done)


@given(seed=st.integers(0, 2**31), variant=st.sampled_from(SOLO), data=st.data())
def test_property_illegal_moves_raise_and_leave_the_state_untouched(seed, variant, data):
    done = play(
        GAME,
        GAME.new(variant=variant, players=1, seed=seed),
        [random_legal],
        random.Random(seed),
        keep_states=True,
    )
    state = data.draw(st.sampled_from(done.states[:-1]))
    size = state.data["size"]
    hand, deck, grid = state.data["hand"], state.data["deck"], state.data["grid"]
    open_cells = {r * size + c for r, c in GAME.view(state, 0)["open"]}
    blocked = [c for c, card in enumerate(grid) if card is not None and c not in open_cells]
    empty = [c for c, card in enumerate(grid) if card is None]
    outsider = deck[0] if deck else state.data["discard"][0]
    some_open = next(iter(open_cells))
    pair = hand[:2]
    cases = [
        (
            {
                "type": "solve",
                "row": some_open // size,
                "col": some_open % size,
                "cards": [hand[0], outsider],
                "option": 0,
            },
            "not_in_hand",
        ),
        (
            {
                "type": "solve",
                "row": some_open // size,
                "col": some_open % size,
                "cards": [hand[0], hand[0]],
                "option": 1,
            },
            "same_card",
        ),
        ({"type": "solve", "row": size, "col": 0, "cards": pair, "option": 0}, "malformed"),
        ({"type": "swap", "cards": [outsider, hand[0]]}, "not_in_hand"),
        ({"type": "dance"}, "unknown_move"),
    ]
    if len(hand) >= 2:
        if blocked:
            cell = data.draw(st.sampled_from(blocked))
            cases.append(
                (
                    {
                        "type": "solve",
                        "row": cell // size,
                        "col": cell % size,
                        "cards": pair,
                        "option": 0,
                    },
                    "blocked_card",
                )
            )
        if empty:
            cell = data.draw(st.sampled_from(empty))
            cases.append(
                (
                    {
                        "type": "solve",
                        "row": cell // size,
                        "col": cell % size,
                        "cards": pair,
                        "option": 0,
                    },
                    "empty_cell",
                )
            )
        if len(deck) < 2:
            cases.append(({"type": "swap", "cards": pair}, "deck_short"))
    for move, code in cases:
        rejected(state, move, code)
    assert_json_round_trip(GAME, state)


# --- solver, hints and puzzles -------------------------------------------------------------------


def oracle_fewest_swaps(state, most=3):
    """An independent search written from the ruling's text (sets of cells, no bit tricks, no
    shared code): the fewest swaps that clear the square, or None when ``most`` are not enough."""
    size = state.data["size"]
    cards = {(i // size, i % size): c for i, c in enumerate(state.data["grid"]) if c is not None}
    deck = tuple(values_of(state.data["deck"]))

    def right(a, b, card):
        return any(
            (a + b if o["op"] == "+" else abs(a - b)) == o["target"]
            for o in operation_cards()[card]["options"]
        )

    def is_open(cells, r, c):
        left, right_, up, down = (
            (r, c - 1) in cells,
            (r, c + 1) in cells,
            (r - 1, c) in cells,
            (r + 1, c) in cells,
        )
        if (left and right_) or (up and down):
            return False
        if (left or right_) and (up or down):
            return (r + (1 if down else -1), c + (1 if right_ else -1)) in cells
        return True

    @cache
    def clears(cells, hand, drawn, swaps_left):
        if not cells:
            return True
        nxt = deck[drawn : drawn + 2]
        for i in range(len(hand)):
            for j in range(i + 1, len(hand)):
                rest = hand[:i] + hand[i + 1 : j] + hand[j + 1 :]
                new_hand = tuple(sorted(rest + nxt))
                for r, c in cells:
                    if (
                        is_open(cells, r, c)
                        and right(hand[i], hand[j], cards[(r, c)])
                        and clears(
                            cells - {(r, c)}, new_hand, min(len(deck), drawn + 2), swaps_left
                        )
                    ):
                        return True
                if (
                    swaps_left
                    and len(deck) - drawn >= 2
                    and clears(cells, new_hand, drawn + 2, swaps_left - 1)
                ):
                    return True
        return False

    hand = tuple(sorted(values_of(state.data["hand"])))
    for swaps in range(most + 1):
        if clears(frozenset(cards), hand, 0, swaps):
            return swaps
    return None


def play_line(state, moves):
    for move in moves:
        assert move in GAME.legal_moves(state, 0) or move["type"] == "solve"
        step = GAME.apply(state, 0, move, 0)
        if move["type"] == "solve":
            assert of_type(step.events, "attempt")[0]["correct"] is True
        state = step.state
    return state


def test_solver_finds_the_fewest_swaps_checked_against_an_independent_search():
    needing_swaps = 0
    for seed in range(260):
        state = GAME.new(variant="solo3", players=1, seed=seed)
        found = mia_solver.search(state, node_limit=None)
        assert found.exact
        expected = oracle_fewest_swaps(state)
        assert found.swaps == expected, seed
        if expected is not None:
            done = play_line(state, found.moves)
            assert done.data["result"] == "won"
            assert done.data["swaps"] == expected
            needing_swaps += expected > 0
    assert needing_swaps >= 2  # the comparison covered deals that need swaps


@given(seed=st.integers(0, 2**31), variant=st.sampled_from(SOLO))
def test_property_solver_line_clears_the_square(seed, variant):
    state = GAME.new(variant=variant, players=1, seed=seed)
    found = mia_solver.search(state)
    assert found.moves is not None  # every deal tried so far can be cleared
    done = play_line(state, found.moves)
    assert done.data["result"] == "won"
    assert done.data["swaps"] == found.swaps == sum(m["type"] == "swap" for m in found.moves)
    assert mia_solver.solve(state) == found.moves


def test_solver_from_the_middle_of_a_game_and_after_the_end():
    state = GAME.new(variant="solo4", players=1, seed=21)
    line = mia_solver.solve(state)
    halfway = play_line(state, line[:6])
    rest = mia_solver.solve(halfway)
    assert play_line(halfway, rest).data["result"] == "won"
    assert mia_solver.solve(play_line(state, line)) == []
    lost = position([[PLUS8_PLUS9, X, X], [X, X, X], [X, X, X]], hand=[1, 1, 1, 2, 2], deck=[1, 1])
    lost = GAME.apply(lost, 0, swap_move(lost, [2, 2]), 0).state
    assert mia_solver.solve(lost) is None


def test_solver_proves_a_hopeless_position_has_no_line():
    grid = [[PLUS8_PLUS9, PLUS6_PLUS7, X], [X, X, X], [X, X, X]]
    state = position(grid, hand=[1, 1, 1, 1, 2], deck=[2, 2, 1, 2])
    found = mia_solver.search(state)
    assert found.moves is None and found.exact
    assert oracle_fewest_swaps(state) is None


def test_solver_never_swaps_with_a_single_card_left_in_the_deck():
    """Swapping the last card (a 7) in would make 1 + 7 = 8, but a swap needs two cards."""
    grid = [[PLUS8_PLUS9, X, X], [X, X, X], [X, X, X]]
    state = position(grid, hand=[1, 1, 1, 2, 2], deck=[7])
    found = mia_solver.search(state)
    assert found.moves is None and found.exact
    assert oracle_fewest_swaps(state) is None


def test_hint_is_a_right_move_on_a_winning_line():
    for variant in SOLO:
        state = GAME.new(variant=variant, players=1, seed=8)
        fewest = mia_solver.search(state).swaps
        while GAME.outcome(state) is None:
            move = GAME.hint(state, 0)
            assert move in GAME.legal_moves(state, 0)
            state = play_line(state, [move])
        assert state.data["result"] == "won"
        assert state.data["swaps"] == fewest
        assert GAME.hint(state, 0) is None


def test_hint_when_stuck_is_a_swap_and_when_no_line_exists_still_a_right_solve():
    grid = [[PLUS8_PLUS9, X, X], [X, X, X], [X, X, X]]
    stuck = position(grid, hand=[1, 1, 1, 2, 2], deck=[4, 5, 1])
    assert GAME.hint(stuck, 0)["type"] == "swap"
    hopeless = position(
        [[PLUS5_MINUS4, PLUS8_PLUS9, X], [X, X, X], [X, X, X]], hand=[2, 3, 1, 1, 1], deck=[]
    )
    move = GAME.hint(hopeless, 0)
    assert move["type"] == "solve" and (move["row"], move["col"]) == (0, 0)


def test_hint_is_fast_enough_for_a_live_page():
    state = GAME.new(variant="solo5", players=1, seed=4)
    done = play(GAME, state, [random_legal], random.Random(4), keep_states=True)
    started = time.perf_counter()
    for st_ in done.states[:-1]:
        GAME.hint(st_, 0)
    per_hint = (time.perf_counter() - started) / (len(done.states) - 1)
    assert per_hint < 0.25


@pytest.mark.parametrize("size", [5, 4, 3])
def test_generate_puzzles_gives_rated_clearable_deals_reproducibly(size):
    puzzles = mia_puzzles.generate_puzzles(GAME, size, 3, seed=2024)
    assert len(puzzles) == 3
    assert puzzles == mia_puzzles.generate_puzzles(GAME, size, 3, seed=2024)
    assert puzzles != mia_puzzles.generate_puzzles(GAME, size, 3, seed=2025)
    for puzzle in puzzles:
        assert puzzle.variant == f"solo{size}"
        assert 1 <= puzzle.difficulty <= 5
        assert 0 <= puzzle.plain_win_rate <= 1
        state = GAME.new(variant=puzzle.variant, players=1, seed=puzzle.seed)
        done = play_line(state, list(puzzle.solution))
        assert done.data["result"] == "won"
        assert done.data["swaps"] == puzzle.swaps
        assert mia_solver.search(state).swaps == puzzle.swaps
    assert mia_puzzles.generate_puzzles(GAME, size, 0, seed=1) == []


def test_generate_puzzle_of_a_wished_difficulty():
    for difficulty in (1, 3, 5):
        puzzle = mia_puzzles.generate_puzzle(GAME, 3, difficulty, seed=7)
        assert puzzle.difficulty == difficulty
        again = mia_puzzles.rate_deal(GAME, "solo3", puzzle.seed)
        assert again == puzzle


def test_puzzle_difficulty_follows_how_often_plain_play_needs_swaps():
    puzzles = mia_puzzles.generate_puzzles(GAME, 4, 40, seed=3)
    by_level = {}
    for puzzle in puzzles:
        by_level.setdefault(puzzle.difficulty, []).append(puzzle.plain_swaps)
    levels = sorted(by_level)
    assert len(levels) >= 3
    for lower, higher in itertools.pairwise(levels):
        assert max(by_level[lower]) <= min(by_level[higher])


def test_puzzle_generation_refuses_bad_arguments():
    for call, code in (
        (lambda: mia_puzzles.generate_puzzles(GAME, 6, 1, seed=1), "unknown_variant"),
        (lambda: mia_puzzles.generate_puzzles(GAME, 5, -1, seed=1), "bad_count"),
        (lambda: mia_puzzles.generate_puzzle(GAME, 5, 0, seed=1), "bad_difficulty"),
        (lambda: mia_puzzles.generate_puzzle(GAME, 5, 6, seed=1), "bad_difficulty"),
    ):
        with pytest.raises(SetupError) as error:
            call()
        assert error.value.code == code


# --- bots ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["random", "easy", "strong"])
def test_bots_return_legal_moves(level):
    for variant in SOLO:
        state = GAME.new(variant=variant, players=1, seed=31)
        rng = random.Random(31)
        while GAME.outcome(state) is None:
            before = GAME.dump(state)
            move = engine.bots.choose(GAME, state, 0, level, rng)
            assert GAME.dump(state) == before  # a bot never changes the state
            assert move in GAME.legal_moves(state, 0)
            state = GAME.apply(state, 0, move, 0).state
        assert engine.bots.choose(GAME, state, 0, level, rng) is None


def test_easy_bot_plays_the_first_right_solve_else_swaps_the_first_two_cards():
    state = position(FULL_3X3, hand=[9, 9, 2, 3, 1], deck=[4, 4])
    assert GAME.bot_move(state, 0, "easy", random.Random(0)) == solve_move(state, 0, 0, [2, 3], 0)
    stuck = position([[PLUS8_PLUS9, X, X], [X, X, X], [X, X, X]], hand=[1, 1, 1, 2, 2], deck=[4, 5])
    assert GAME.bot_move(stuck, 0, "easy", random.Random(0)) == {
        "type": "swap",
        "cards": stuck.data["hand"][:2],
    }


def test_strong_bot_beats_random_and_easy():
    """Arena share of cleared squares over 40 seeded deals, and mean stars over 20: the solver
    (strong) clears every deal with the most stars, the plain easy bot clears them with more
    swaps, random play mostly loses."""
    for variant in ("solo5", "solo4"):
        share = {level: arena(GAME, variant, [level], 40)[level] for level in engine.bots.LEVELS}
        stars = {}
        for level in engine.bots.LEVELS:
            ends = [
                play(
                    GAME,
                    GAME.new(variant=variant, players=1, seed=seed),
                    [bot_chooser(level)],
                    random.Random(seed),
                ).outcome
                for seed in range(20)
            ]
            stars[level] = sum(end.scores[0] for end in ends) / len(ends)
        assert share["strong"] == 1.0
        assert share["strong"] >= share["random"] + 0.5
        assert stars["strong"] > stars["easy"] > stars["random"]
