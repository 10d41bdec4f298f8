"""SUM: a test per rule (rulebook seeds/001_9ff072ae66cb9f1b.txt, RULINGS 2), property tests over
every player count, and bot tests. docs/rules/sum.md maps each rule to the tests here."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import simulate
from engine.core import IllegalMove, SetupError
from engine.sum import GAME
from engine.sum_cards import FACE, KIND, NUMBER, NUMBER_IDS, OPERATION_IDS
from tests.engine import helpers

ALL_CARDS = list(range(len(FACE)))


# --- building precise positions ------------------------------------------------------------------


def ids_of(face, taken):
    """The lowest card id showing ``face`` that is not in ``taken`` (and mark it taken)."""
    for card in ALL_CARDS:
        if FACE[card] == face and card not in taken:
            taken.add(card)
            return card
    raise AssertionError(f"no card {face!r} left")


def position(
    players=2,
    hands=(),
    centre=7,
    turn=0,
    numbers_top=(),
    operations_top=(),
    numbers_empty=False,
    operations_empty=False,
    options=None,
    now_ms=0,
):
    """A state with the given hands (lists of faces) and centre; the other cards fill the decks
    (``*_top`` faces on top, last in the list). An emptied deck's cards go to the spent centre
    cards, so every card still has exactly one place."""
    state = GAME.new(
        "standard", players, seed=1, options={"first_player": "seat0", **(options or {})}
    )
    taken: set[int] = set()
    data = state.data
    data["hands"] = [[ids_of(face, taken) for face in hand] for hand in hands] + [
        [] for _ in range(players - len(hands))
    ]
    data["centre"] = ids_of(centre, taken)
    top_numbers = [ids_of(face, taken) for face in numbers_top]
    top_operations = [ids_of(face, taken) for face in operations_top]
    rest_numbers = [c for c in NUMBER_IDS if c not in taken]
    rest_operations = [c for c in OPERATION_IDS if c not in taken]
    data["spent"] = []
    if numbers_empty:
        data["spent"] += rest_numbers + top_numbers
        data["numbers"] = []
        data["ran_out"] = True
    else:
        data["numbers"] = rest_numbers + top_numbers
    if operations_empty:
        # Operation cards may not sit among spent centre cards: park them in the last hand.
        data["hands"][-1] += rest_operations + top_operations
        data["operations"] = []
    else:
        data["operations"] = rest_operations + top_operations
    data["piles"] = [[] for _ in range(players)]
    data["turn"] = turn
    data["since"] = now_ms
    assert_conserved(state)
    return state


def hand_faces(state, seat):
    return sorted(str(FACE[c]) for c in state.data["hands"][seat])


def cards_for(state, seat, faces):
    """Card ids in ``seat``'s hand spelling ``faces`` in order."""
    pool = list(state.data["hands"][seat])
    cards = []
    for face in faces:
        card = next(c for c in pool if FACE[c] == face)
        pool.remove(card)
        cards.append(card)
    return cards


def equation(state, seat, faces):
    return {"type": "equation", "cards": cards_for(state, seat, faces)}


def play(state, seat, move, now_ms=1000):
    return GAME.apply(state, seat, move, now_ms)


def types(events):
    return [e["type"] for e in events]


def the(events, kind):
    found = [e for e in events if e["type"] == kind]
    assert len(found) == 1, (kind, events)
    return found[0]


def assert_illegal(state, seat, move, code):
    before = GAME.dump(state)
    with pytest.raises(IllegalMove) as info:
        GAME.apply(state, seat, move, 1000)
    assert info.value.code == code, info.value
    assert GAME.dump(state) == before


def assert_conserved(state):
    """Every card in exactly one place; each place holds only the cards that belong there."""
    data = state.data
    places = [data["numbers"], data["operations"], data["spent"], *data["hands"], *data["piles"]]
    if data["centre"] is not None:
        places.append([data["centre"]])
    seen = Counter(card for place in places for card in place)
    assert sorted(seen) == ALL_CARDS
    assert set(seen.values()) == {1}
    assert all(KIND[c] == NUMBER for c in data["numbers"])
    assert all(KIND[c] != NUMBER for c in data["operations"])
    assert all(KIND[c] == NUMBER for c in data["spent"])
    assert all(KIND[c] == NUMBER for pile in data["piles"] for c in pile)
    assert data["centre"] is None or KIND[data["centre"]] == NUMBER


# --- setup: deck, deal, variants and options ------------------------------------------------------


def test_ruling_deck_is_119_numbers_and_76_operations_with_two_of_each_wild():
    faces = Counter(FACE)
    assert [faces[v] for v in range(1, 10)] == [14, 14, 13, 13, 13, 13, 13, 13, 13]
    assert [faces[op] for op in ("+", "-", "x", "÷")] == [17, 17, 17, 17]
    for wild in ("propagation", "neutralization", "radicalization", "rotation"):
        assert faces[wild] == 2
    assert len(NUMBER_IDS) == 119 and len(OPERATION_IDS) == 76


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_ruling_deal_4_numbers_3_operations_each_and_one_centre_number(players):
    state = GAME.new("standard", players, seed=players)
    data = state.data
    for hand in data["hands"]:
        assert sorted(KIND[c] != NUMBER for c in hand) == [False] * 4 + [True] * 3
    assert KIND[data["centre"]] == NUMBER
    assert len(data["numbers"]) == 119 - 4 * players - 1
    assert len(data["operations"]) == 76 - 3 * players
    assert data["piles"] == [[] for _ in range(players)]
    assert_conserved(state)


def test_ruling_first_player_drawn_from_seed_or_seat0_option():
    starts = {GAME.new("standard", 4, seed=s).data["turn"] for s in range(40)}
    assert starts == {0, 1, 2, 3}
    assert GAME.new("standard", 4, seed=9).data["turn"] == GAME.new("standard", 4, 9).data["turn"]
    seat0 = {GAME.new("standard", 4, s, {"first_player": "seat0"}).data["turn"] for s in range(20)}
    assert seat0 == {0}


@pytest.mark.parametrize(
    ("variant", "players", "options", "code"),
    [
        ("standard", 1, {}, "bad_players"),
        ("standard", 7, {}, "bad_players"),
        ("standard", "2", {}, "bad_players"),
        ("express", 2, {}, "unknown_variant"),
        ("standard", 2, {"wrong_limit": 0}, "bad_option"),
        ("standard", 2, {"wrong_limit": 11}, "bad_option"),
        ("standard", 2, {"wrong_limit": "3"}, "bad_option"),
        ("standard", 2, {"wrong_limit": True}, "bad_option"),
        ("standard", 2, {"first_player": "oldest"}, "bad_option"),
        ("standard", 2, {"hand_size": 7}, "unknown_option"),
    ],
)
def test_setup_refuses_bad_variant_players_and_options(variant, players, options, code):
    with pytest.raises(SetupError) as info:
        GAME.new(variant, players, seed=0, options=options)
    assert info.value.code == code


def test_setup_option_defaults_and_player_range():
    spec = GAME.variants["standard"]
    assert (spec.min_players, spec.max_players) == (2, 6)
    assert GAME.new("standard", 2, 0).options == {"wrong_limit": 3, "first_player": "random"}
    assert GAME.new("standard", 6, 0, {"wrong_limit": 1}).options["wrong_limit"] == 1


# --- equations ------------------------------------------------------------------------------------


def test_rulebook_right_equation_keeps_numbers_returns_operations_and_reveals_new_centre():
    state = position(hands=[[3, "+", 4, 9, "x"], [5, 5]], centre=7, numbers_top=[6])
    old_centre = state.data["centre"]
    move = equation(state, 0, [3, "+", 4])
    plus = move["cards"][1]
    step = play(state, 0, move, now_ms=4200)
    data = step.state.data
    # rulebook: "keep all the Number cards used in the equation in a pile away from their hand
    # and shuffle the Operation cards back into the deck"
    assert [FACE[c] for c in data["piles"][0]] == [3, 4]
    assert hand_faces(step.state, 0) == ["9", "x"]
    assert plus in data["operations"]
    assert len(data["operations"]) == len(state.data["operations"]) + 1
    # "Their turn ends and a new Numbers card is drawn and placed in the center"
    assert FACE[data["centre"]] == 6
    assert data["spent"] == [old_centre]
    assert data["turn"] == 1
    attempt = the(step.events, "attempt")
    assert attempt == {
        "type": "attempt",
        "seat": 0,
        "operands": [3, 4],
        "operator": "+",
        "answer": 7,
        "target": 7,
        "expected": 7,
        "correct": True,
        "elapsed_ms": 4200,
        "skill": "add.within10",
        "expression": "3+4",
    }
    assert types(step.events) == [
        "attempt",
        "equation_right",
        "centre_revealed",
        "turn_end",
        "turn_start",
    ]
    assert the(step.events, "equation_right")["pile_count"] == 2
    assert the(step.events, "centre_revealed")["value"] == 6
    assert_conserved(step.state)


def test_ruling_wrong_equation_is_recorded_cards_stay_and_player_tries_again():
    state = position(hands=[[3, "x", 4, "+"], [5]], centre=7)
    step = play(state, 0, equation(state, 0, [3, "x", 4]), now_ms=2500)
    data = step.state.data
    assert hand_faces(step.state, 0) == hand_faces(state, 0)
    assert data["turn"] == 0 and data["wrong"] == 1
    attempt = the(step.events, "attempt")
    assert (attempt["correct"], attempt["answer"], attempt["expected"]) == (False, 7, 12)
    assert attempt["operator"] == "x" and attempt["skill"] == "mul.within20"
    assert the(step.events, "equation_wrong") == {
        "type": "equation_wrong",
        "seat": 0,
        "expression": "3x4",
        "value": 12,
        "target": 7,
        "reason": "wrong_value",
        "wrong_left": 2,
    }
    again = play(step.state, 0, equation(step.state, 0, [3, "+", 4]), now_ms=4000)
    assert the(again.events, "attempt")["correct"] is True
    assert again.state.data["turn"] == 1


def test_ruling_at_most_three_wrong_equations_a_turn():
    state = position(hands=[[3, "x", 4, "+"], [5]], centre=7)
    for _ in range(3):
        state = play(state, 0, equation(state, 0, [3, "x", 4])).state
    assert state.data["wrong"] == 3
    assert not any(m["type"] == "equation" for m in GAME.legal_moves(state, 0))
    assert GAME.hint(state, 0) is None
    assert_illegal(state, 0, equation(state, 0, [3, "+", 4]), "wrong_limit_reached")
    # The limit is per turn: it starts again on the next turn.
    state.data["drawn"] = 2
    state = play(state, 0, {"type": "end_turn"}).state
    assert state.data["wrong"] == 0


def test_ruling_wrong_limit_option():
    state = position(hands=[[3, "x", 4, "+"], [5]], centre=7, options={"wrong_limit": 1})
    state = play(state, 0, equation(state, 0, [3, "x", 4])).state
    assert_illegal(state, 0, equation(state, 0, [3, "+", 4]), "wrong_limit_reached")
    assert GAME.view(state, 0)["wrong_left"] == 0


@pytest.mark.parametrize(
    "faces",
    [[7], [3, 3], [4, 4, 4, "+", 1], [3, 4, "+", 1], ["+", 3, 4], [3, "+"], [3, "+", "x", 4]],
    ids=["no_operation", "pair_alone", "three_side_by_side", "different_side_by_side",
         "operation_first", "operation_last", "two_operations"],
)  # fmt: skip
def test_ruling_not_an_expression_is_an_illegal_move(faces):
    hand = [7, 3, 3, 4, 4, 4, 1, "+", "x"]
    state = position(hands=[hand, [5]], centre=7)
    assert_illegal(state, 0, equation(state, 0, faces), "not_an_expression")


def test_ruling_empty_equation_is_not_an_expression():
    state = position(hands=[[3, "+", 4], [5]], centre=7)
    assert_illegal(state, 0, {"type": "equation", "cards": []}, "not_an_expression")


def test_rulebook_at_least_one_operation_card():
    # "The players must use at least one Operation card in an equation." A 7 alone equals 7.
    state = position(hands=[[7, 3, "+"], [5]], centre=7)
    assert_illegal(state, 0, equation(state, 0, [7]), "not_an_expression")


def test_rulebook_minus_card_in_front_of_a_number_makes_it_negative():
    state = position(hands=[["-", 2, "+", 9, "-", "-", 5, 2], [5]], centre=7)
    step = play(state, 0, equation(state, 0, ["-", 2, "+", 9]))
    attempt = the(step.events, "attempt")
    assert attempt["operands"] == [-2, 9] and attempt["expression"] == "-2+9"
    assert attempt["correct"] is True and attempt["operator"] == "+"
    # "5 - -2" = 7: the second '-' negates, the first subtracts.
    state2 = position(hands=[["-", "-", 5, 2, 1], [5]], centre=7)
    step2 = play(state2, 0, equation(state2, 0, [5, "-", "-", 2]))
    assert the(step2.events, "attempt")["expression"] == "5--2"
    assert the(step2.events, "attempt")["correct"] is True
    # A lone negated number is an expression (it holds an operation card), always wrong.
    step3 = play(state2, 0, equation(state2, 0, ["-", 5]))
    assert the(step3.events, "attempt")["expected"] == -5
    assert the(step3.events, "attempt")["operator"] == "-"


def test_rulebook_pair_of_equal_numbers_acts_as_one_number_worth_their_sum():
    # "Two number 2 cards can be used as a 4."
    state = position(hands=[[2, 2, "+", 3, 1], [5]], centre=7)
    step = play(state, 0, equation(state, 0, [2, 2, "+", 3]))
    attempt = the(step.events, "attempt")
    # Written as the card the pair stands for, the pair named beside it (no bracket card exists).
    assert attempt["operands"] == [4, 3] and attempt["expression"] == "4+3"
    assert attempt["pairs"] == [2]
    assert the(step.events, "equation_right")["pairs"] == [2]
    assert attempt["correct"] is True
    assert sorted(FACE[c] for c in step.state.data["piles"][0]) == [2, 2, 3]


def test_ruling_negated_pair_is_a_negative_number():
    state = position(hands=[["-", 2, 2, "+", 9, 2], [5]], centre=5)
    step = play(state, 0, equation(state, 0, [9, "+", "-", 2, 2]))
    assert the(step.events, "attempt")["operands"] == [9, -4]
    assert the(step.events, "attempt")["correct"] is True


def test_ruling_standard_precedence_multiplication_before_addition():
    state = position(hands=[[1, "+", 2, "x", 3, 9], [5]], centre=7)
    step = play(state, 0, equation(state, 0, [1, "+", 2, "x", 3]))
    attempt = the(step.events, "attempt")
    assert attempt["expected"] == 7 and attempt["correct"] is True  # not (1+2)x3 = 9
    assert attempt["operator"] == "mixed"


def test_ruling_precedence_left_to_right_for_equal_operations():
    state = position(hands=[[8, "÷", 2, "÷", 4, 9, "-", 3, "-", 1], [5]], centre=1)
    step = play(state, 0, equation(state, 0, [8, "÷", 2, "÷", 4]))
    assert the(step.events, "attempt")["expected"] == 1  # (8÷2)÷4, not 8÷(2÷4)
    state = position(hands=[[9, "-", 3, "-", 1, 2], [5]], centre=5)
    step = play(state, 0, equation(state, 0, [9, "-", 3, "-", 1]))
    assert the(step.events, "attempt")["expected"] == 5  # (9-3)-1, not 9-(3-1)
    assert the(step.events, "attempt")["correct"] is True


def test_ruling_every_division_exact():
    state = position(hands=[[7, "÷", 2, "x", 2, 1], [5]], centre=7)
    step = play(state, 0, equation(state, 0, [7, "÷", 2, "x", 2]))
    attempt = the(step.events, "attempt")
    # 7 ÷ 2 is not exact: the equation has no value, even though (7÷2)x2 would be 7.
    assert attempt["expected"] is None and attempt["correct"] is False
    assert attempt["answer"] == 7 and attempt["operator"] == "mixed"
    assert the(step.events, "equation_wrong")["reason"] == "division_not_exact"
    assert step.state.data["wrong"] == 1
    state = position(hands=[[6, "÷", 2, "x", 3, 1], [5]], centre=9)
    step = play(state, 0, equation(state, 0, [6, "÷", 2, "x", 3]))
    assert the(step.events, "attempt")["correct"] is True


def test_ruling_attempt_elapsed_time_runs_from_the_start_of_the_decision():
    state = position(hands=[[3, "x", 4, "+", 9], [5, "-", 1]], centre=7, now_ms=10_000)
    step = play(state, 0, equation(state, 0, [3, "x", 4]), now_ms=13_000)
    assert the(step.events, "attempt")["elapsed_ms"] == 3000
    # After a wrong equation the next decision starts then.
    step = play(step.state, 0, equation(step.state, 0, [3, "+", 4]), now_ms=14_500)
    assert the(step.events, "attempt")["elapsed_ms"] == 1500
    # The next player's decision starts when the turn passes.
    assert step.state.data["turn"] == 1 and step.state.data["since"] == 14_500
    step = play(step.state, 1, equation(step.state, 1, [5, "-", 1]), now_ms=20_000)
    assert the(step.events, "attempt")["elapsed_ms"] == 5500


def test_equation_structural_errors():
    state = position(hands=[[3, "+", 4, "propagation"], [5, "+", 2]], centre=7)
    three, plus, four, wild = cards_for(state, 0, [3, "+", 4, "propagation"])
    other = state.data["hands"][1][0]
    assert_illegal(state, 0, {"type": "equation", "cards": [three, plus, three]}, "duplicate_card")
    assert_illegal(
        state, 0, {"type": "equation", "cards": [three, plus, other]}, "card_not_in_hand"
    )
    assert_illegal(state, 0, {"type": "equation", "cards": [three, plus, 9999]}, "card_not_in_hand")
    assert_illegal(state, 0, {"type": "equation", "cards": [three, wild, four]}, "wild_in_equation")
    assert_illegal(state, 0, {"type": "equation", "cards": "3+4"}, "malformed")
    assert_illegal(state, 0, {"type": "equation", "cards": [three, True, four]}, "malformed")
    assert_illegal(state, 0, {"type": "equation"}, "malformed")
    assert_illegal(state, 1, equation(state, 1, [5, "+", 2]), "not_active")
    assert_illegal(state, 0, {"type": "claim"}, "unknown_move")
    assert_illegal(state, 0, {"cards": []}, "malformed")
    assert_illegal(state, 2, {"type": "end_turn"}, "bad_seat")


# --- winning --------------------------------------------------------------------------------------


def test_ruling_first_player_to_empty_their_hand_wins_at_once():
    state = position(players=3, hands=[[3, "+", 4], [5, 5], [2]], centre=7)
    state.data["piles"][1] = [state.data["numbers"].pop(0) for _ in range(3)]
    step = play(state, 0, equation(state, 0, [3, "+", 4]))
    assert types(step.events) == ["attempt", "equation_right", "game_end"]
    end = the(step.events, "game_end")
    assert end["reason"] == "hand_empty" and end["winners"] == [0]
    outcome = GAME.outcome(step.state)
    assert outcome.winners == [0] and outcome.scores == [2, 3, 0]  # the empty hand beats piles
    assert GAME.active(step.state) == frozenset()
    assert GAME.legal_moves(step.state, 0) == []
    assert_illegal(step.state, 1, {"type": "end_turn"}, "game_over")
    assert_conserved(step.state)


def test_ruling_new_centre_needed_with_empty_number_deck_largest_pile_wins():
    state = position(hands=[[3, "+", 4, 9], [5]], centre=7, numbers_empty=True)
    data = state.data
    data["piles"][1] = [data["spent"].pop() for _ in range(2)]
    step = play(state, 0, equation(state, 0, [3, "+", 4]))
    end = the(step.events, "game_end")
    assert end["reason"] == "number_deck_empty" and end["scores"] == [2, 2]
    assert end["winners"] == [0, 1]  # ties share
    assert GAME.outcome(step.state).winners == [0, 1]
    assert step.state.data["centre"] is None
    assert GAME.view(step.state, None)["centre"] is None
    assert_conserved(step.state)
    # With one more card in seat 1's pile, seat 1 wins alone.
    data["piles"][1].append(data["spent"].pop())
    step = play(state, 0, equation(state, 0, [3, "+", 4]))
    assert GAME.outcome(step.state).winners == [1]


def test_decision_stalemate_after_number_deck_ran_out_ends_after_a_full_round_without_equation():
    state = position(
        players=3, hands=[[9, 9], [8, 8], [7]], centre=1, numbers_empty=True, operations_empty=True
    )
    data = state.data
    data["piles"][2] = [data["spent"].pop()]
    for seat in (0, 1):
        step = play(state, seat, {"type": "end_turn"})
        state = step.state
        assert GAME.outcome(state) is None and state.data["dry_turns"] == seat + 1
    step = play(state, 2, {"type": "end_turn"})
    end = the(step.events, "game_end")
    assert end["reason"] == "stalemate" and end["winners"] == [2]
    assert_conserved(step.state)


def test_decision_stalemate_counter_restarts_after_a_right_equation():
    state = position(hands=[[3, "+", 4, 9], [8]], centre=7, numbers_top=[5])
    state.data["ran_out"] = True  # the deck ran out once and was refilled (Neutralization)
    state.data["dry_turns"] = 1
    step = play(state, 0, equation(state, 0, [3, "+", 4]))
    assert step.state.data["dry_turns"] == 0 and GAME.outcome(step.state) is None


def test_decision_no_stalemate_count_while_number_deck_never_ran_out():
    state = position(hands=[[9], [8]], centre=1)
    state.data["drawn"] = 2
    step = play(state, 0, {"type": "end_turn"})
    assert step.state.data["dry_turns"] == 0


# --- drawing and ending the turn ------------------------------------------------------------------


def test_ruling_draw_up_to_two_cards_one_at_a_time_from_either_deck():
    state = position(hands=[[9], [8]], centre=1, numbers_top=[6], operations_top=["÷"])
    step = play(state, 0, {"type": "draw", "from": "numbers"})
    assert hand_faces(step.state, 0) == ["6", "9"]
    assert the(step.events, "draw") == {
        "type": "draw",
        "seat": 0,
        "from": "numbers",
        "hand_count": 2,
        "draws_left": 1,
    }
    step = play(step.state, 0, {"type": "draw", "from": "operations"})
    assert hand_faces(step.state, 0) == ["6", "9", "÷"]
    assert len(step.state.data["numbers"]) == len(state.data["numbers"]) - 1
    assert len(step.state.data["operations"]) == len(state.data["operations"]) - 1
    assert_illegal(step.state, 0, {"type": "draw", "from": "numbers"}, "draw_limit_reached")
    assert not any(m["type"] == "draw" for m in GAME.legal_moves(step.state, 0))


def test_draw_event_never_names_the_card_drawn():
    state = position(hands=[[9], [8]], centre=1, operations_top=["rotation"])
    step = play(state, 0, {"type": "draw", "from": "operations"})
    text = json.dumps(step.events)
    assert "rotation" not in text and str(state.data["operations"][-1]) not in text


def test_draw_structural_errors():
    state = position(hands=[[9], [8]], centre=1, numbers_empty=True)
    assert_illegal(state, 0, {"type": "draw", "from": "numbers"}, "empty_deck")
    assert_illegal(state, 0, {"type": "draw", "from": "centre"}, "malformed")
    assert_illegal(state, 0, {"type": "draw"}, "malformed")
    assert {"type": "draw", "from": "numbers"} not in GAME.legal_moves(state, 0)
    assert {"type": "draw", "from": "operations"} in GAME.legal_moves(state, 0)


def test_ruling_player_ends_the_turn_only_after_drawing_two():
    state = position(players=3, hands=[[9], [8], [7]], centre=1)
    assert_illegal(state, 0, {"type": "end_turn"}, "must_draw")
    assert {"type": "end_turn"} not in GAME.legal_moves(state, 0)
    state = play(state, 0, {"type": "draw", "from": "numbers"}).state
    assert_illegal(state, 0, {"type": "end_turn"}, "must_draw")
    state = play(state, 0, {"type": "draw", "from": "operations"}).state
    assert {"type": "end_turn"} in GAME.legal_moves(state, 0)
    step = play(state, 0, {"type": "end_turn"}, now_ms=7000)
    data = step.state.data
    # RULINGS 2: "play passes left" -- the next seat.
    assert data["turn"] == 1 and data["drawn"] == 0 and data["wrong"] == 0
    assert data["since"] == 7000
    assert types(step.events) == ["turn_end", "turn_start"]
    assert the(step.events, "turn_start")["seat"] == 1


def test_ruling_turn_passes_from_last_seat_to_seat_zero():
    state = position(players=3, hands=[[9], [8], [7]], centre=1, turn=2)
    state.data["drawn"] = 2
    assert play(state, 2, {"type": "end_turn"}).state.data["turn"] == 0


def test_ruling_end_turn_without_drawing_when_both_decks_are_empty():
    state = position(hands=[[9], [8]], centre=1, numbers_empty=True, operations_empty=True)
    assert GAME.legal_moves(state, 0) == [{"type": "end_turn"}]
    assert play(state, 0, {"type": "end_turn"}).state.data["turn"] == 1


def test_ruling_one_empty_deck_still_requires_drawing_from_the_other():
    state = position(hands=[[9], [8]], centre=1, numbers_empty=True)
    assert_illegal(state, 0, {"type": "end_turn"}, "must_draw")


# --- wild cards -----------------------------------------------------------------------------------


def test_rulebook_wild_card_cannot_be_used_on_the_turn_it_is_drawn():
    state = position(hands=[[9, 1], [8, 2]], centre=1, operations_top=["propagation"])
    state = play(state, 0, {"type": "draw", "from": "operations"}).state
    wild = cards_for(state, 0, ["propagation"])[0]
    assert_illegal(state, 0, {"type": "wild", "card": wild}, "wild_drawn_this_turn")
    assert {"type": "wild", "card": wild} not in GAME.legal_moves(state, 0)
    view = GAME.view(state, 0)
    assert next(c for c in view["hand"] if c["id"] == wild)["drawn_this_turn"] is True
    # On the player's next turn it may be played.
    state = play(state, 0, {"type": "draw", "from": "numbers"}).state
    state = play(state, 0, {"type": "end_turn"}).state
    state = play(state, 1, {"type": "draw", "from": "numbers"}).state
    state = play(state, 1, {"type": "draw", "from": "numbers"}).state
    state = play(state, 1, {"type": "end_turn"}).state
    assert {"type": "wild", "card": wild} in GAME.legal_moves(state, 0)
    assert play(state, 0, {"type": "wild", "card": wild}).state.data["hands"][0].count(wild) == 0


def test_rulebook_wild_card_is_shuffled_back_into_the_operation_deck_once_used():
    state = position(hands=[["radicalization", 9], [8]], centre=1)
    wild = cards_for(state, 0, ["radicalization"])[0]
    step = play(state, 0, {"type": "wild", "card": wild})
    assert wild in step.state.data["operations"]
    assert wild not in step.state.data["hands"][0]
    assert_conserved(step.state)


def test_ruling_propagation_every_other_player_draws_one_number_card():
    state = position(players=3, hands=[["propagation", 9], [8], [7]], centre=1, numbers_top=[2, 3])
    wild = cards_for(state, 0, ["propagation"])[0]
    step = play(state, 0, {"type": "wild", "card": wild})
    assert hand_faces(step.state, 0) == ["9"]
    assert hand_faces(step.state, 1) == ["3", "8"]  # the player to the left draws first
    assert hand_faces(step.state, 2) == ["2", "7"]
    assert types(step.events) == ["wild_played", "propagation"]
    assert the(step.events, "propagation")["seats"] == [1, 2]
    assert step.state.data["turn"] == 0  # the turn goes on
    assert_conserved(step.state)


def test_decision_propagation_with_too_few_number_cards_gives_what_is_left_from_the_left():
    state = position(players=3, hands=[["propagation", 9], [8], [7]], centre=1, numbers_top=[2])
    data = state.data
    data["spent"] += data["numbers"][:-1]
    data["numbers"] = data["numbers"][-1:]
    wild = cards_for(state, 0, ["propagation"])[0]
    step = play(state, 0, {"type": "wild", "card": wild})
    assert the(step.events, "propagation")["seats"] == [1]
    assert hand_faces(step.state, 1) == ["2", "8"] and hand_faces(step.state, 2) == ["7"]
    assert step.state.data["ran_out"] is True
    assert_conserved(step.state)


def test_rulebook_last_wild_card_played_empties_the_hand_and_wins():
    state = position(hands=[["propagation"], [8]], centre=1)
    step = play(state, 0, {"type": "wild", "card": state.data["hands"][0][0]})
    assert the(step.events, "game_end")["reason"] == "hand_empty"
    assert GAME.outcome(step.state).winners == [0]


def test_ruling_neutralization_returns_another_card_of_the_hand_to_its_deck():
    state = position(hands=[["neutralization", 9, "x", 1], [8]], centre=1)
    wild, nine, times = cards_for(state, 0, ["neutralization", 9, "x"])
    step = play(state, 0, {"type": "wild", "card": wild, "target": nine})
    data = step.state.data
    assert hand_faces(step.state, 0) == ["1", "x"]
    assert nine in data["numbers"] and len(data["numbers"]) == len(state.data["numbers"]) + 1
    assert the(step.events, "neutralization") == {
        "type": "neutralization",
        "seat": 0,
        "to": "numbers",
    }
    assert_conserved(step.state)
    step = play(state, 0, {"type": "wild", "card": wild, "target": times})
    assert times in step.state.data["operations"]
    assert the(step.events, "neutralization")["to"] == "operations"
    assert json.dumps(step.events).count('"x"') == 0  # the returned card stays face down


def test_rulebook_neutralization_with_two_cards_empties_the_hand_and_wins():
    state = position(hands=[["neutralization", 9], [8]], centre=1)
    wild, nine = cards_for(state, 0, ["neutralization", 9])
    step = play(state, 0, {"type": "wild", "card": wild, "target": nine})
    assert GAME.outcome(step.state).winners == [0]
    assert the(step.events, "game_end")["reason"] == "hand_empty"


def test_rulebook_neutralization_and_rotation_need_another_card_in_hand():
    for wild in ("neutralization", "rotation"):
        state = position(hands=[[wild], [8]], centre=1)
        card = state.data["hands"][0][0]
        assert_illegal(
            state, 0, {"type": "wild", "card": card, "target": card}, "needs_another_card"
        )
        assert not any(m["type"] == "wild" for m in GAME.legal_moves(state, 0))


def test_neutralization_target_errors():
    state = position(hands=[["neutralization", 9], [8]], centre=1)
    wild, nine = cards_for(state, 0, ["neutralization", 9])
    other = state.data["hands"][1][0]
    assert_illegal(state, 0, {"type": "wild", "card": wild}, "malformed")
    assert_illegal(state, 0, {"type": "wild", "card": wild, "target": wild}, "bad_target")
    assert_illegal(state, 0, {"type": "wild", "card": wild, "target": other}, "bad_target")
    assert_illegal(state, 0, {"type": "wild", "card": nine}, "not_a_wild")
    assert_illegal(state, 0, {"type": "wild", "card": other}, "card_not_in_hand")
    assert_illegal(state, 0, {"type": "wild", "card": "neutralization"}, "malformed")
    moves = [m for m in GAME.legal_moves(state, 0) if m["type"] == "wild"]
    assert moves == [{"type": "wild", "card": wild, "target": nine}]


def test_ruling_radicalization_sends_centre_to_bottom_and_reveals_a_new_one():
    state = position(hands=[["radicalization", 9], [8]], centre=1, numbers_top=[5])
    old = state.data["centre"]
    wild = cards_for(state, 0, ["radicalization"])[0]
    step = play(state, 0, {"type": "wild", "card": wild})
    data = step.state.data
    assert data["numbers"][0] == old and FACE[data["centre"]] == 5
    assert len(data["numbers"]) == len(state.data["numbers"])
    assert types(step.events) == ["wild_played", "radicalization", "centre_revealed"]
    assert the(step.events, "radicalization")["old_centre"] == 1
    assert the(step.events, "centre_revealed")["value"] == 5
    assert_conserved(step.state)


def test_ruling_radicalization_with_empty_number_deck_brings_the_same_card_back():
    state = position(hands=[["radicalization", 9], [8]], centre=1, numbers_empty=True)
    old = state.data["centre"]
    step = play(state, 0, {"type": "wild", "card": state.data["hands"][0][0]})
    assert step.state.data["centre"] == old and step.state.data["numbers"] == []


def test_ruling_rotation_every_player_chooses_a_card_secretly_and_passes_it_left():
    state = position(players=3, hands=[["rotation", 9, 1], [8, "+"], [7, "x"]], centre=1)
    wild, nine = cards_for(state, 0, ["rotation", 9])
    step = play(state, 0, {"type": "wild", "card": wild})
    state = step.state
    assert types(step.events) == ["wild_played", "rotation_started"]
    assert GAME.active(state) == frozenset({0, 1, 2})
    assert GAME.legal_moves(state, 1) == [
        {"type": "rotate", "card": c} for c in sorted(state.data["hands"][1])
    ]
    assert_illegal(state, 0, {"type": "draw", "from": "numbers"}, "rotation_pending")
    assert_illegal(state, 0, {"type": "end_turn"}, "rotation_pending")
    plus = cards_for(state, 1, ["+"])[0]
    step = play(state, 1, {"type": "rotate", "card": plus})
    state = step.state
    assert step.events == [{"type": "rotation_chosen", "seat": 1}]  # which card: secret
    assert GAME.active(state) == frozenset({0, 2})
    assert_illegal(state, 1, {"type": "rotate", "card": plus}, "not_active")
    for seat in (0, 2, None):
        view = GAME.view(state, seat)
        assert view["rotation"]["chosen"] == [False, True, False]
        assert view["rotation"].get("my_choice") is None  # seat 1's choice stays secret
    assert "my_choice" not in GAME.view(state, None)["rotation"]
    assert GAME.view(state, 1)["rotation"]["my_choice"] == plus
    assert GAME.view(state, 0)["rotation"]["my_choice"] is None
    state = play(state, 0, {"type": "rotate", "card": nine}).state
    seven = cards_for(state, 2, [7])[0]
    step = play(state, 2, {"type": "rotate", "card": seven}, now_ms=9000)
    state = step.state
    assert hand_faces(state, 0) == ["1", "7"]  # from the player on the right (seat 2)
    assert hand_faces(state, 1) == ["8", "9"]
    assert hand_faces(state, 2) == ["+", "x"]
    assert types(step.events) == ["rotation_chosen", "rotation_done"]
    assert state.data["rotation"] is None and state.data["turn"] == 0
    assert GAME.active(state) == frozenset({0}) and state.data["since"] == 9000
    assert_conserved(state)


def test_rotate_without_rotation_and_rotate_errors():
    state = position(hands=[[9, 1], [8]], centre=1)
    assert_illegal(state, 0, {"type": "rotate", "card": state.data["hands"][0][0]}, "no_rotation")
    state = position(hands=[["rotation", 9], [8]], centre=1)
    state = play(state, 0, {"type": "wild", "card": state.data["hands"][0][0]}).state
    assert_illegal(
        state, 1, {"type": "rotate", "card": state.data["hands"][0][0]}, "card_not_in_hand"
    )
    assert_illegal(state, 1, {"type": "rotate"}, "malformed")


def test_rulebook_after_a_wild_card_the_player_must_still_draw_two():
    # "If a Wild Card has been used and the player still can't make the equation, then they must
    # still pick up 2 cards, if they have not yet done so, before their turn ends."
    state = position(hands=[["radicalization", 9], [8]], centre=1)
    state = play(state, 0, {"type": "wild", "card": state.data["hands"][0][0]}).state
    assert_illegal(state, 0, {"type": "end_turn"}, "must_draw")


# --- views ----------------------------------------------------------------------------------------


def test_view_shows_own_hand_counts_of_others_and_public_table_only():
    state = position(players=3, hands=[[3, "+", "rotation"], [5, 5], [2]], centre=7)
    view = GAME.view(state, 0)
    assert [c["id"] for c in view["hand"]] == sorted(state.data["hands"][0])
    assert {c["kind"] for c in view["hand"]} == {"number", "operation", "wild"}
    assert view["hand_counts"] == [3, 2, 1]
    assert view["centre"] == 7 and view["turn"] == 0
    assert view["number_deck_count"] == len(state.data["numbers"])
    assert view["operation_deck_count"] == len(state.data["operations"])
    assert view["draws_left"] == 2 and view["wrong_left"] == 3 and view["can_end_turn"] is False
    assert view["active"] == [0] and view["outcome"] is None
    spectator = GAME.view(state, None)
    assert "hand" not in spectator
    text = json.dumps(GAME.view(state, 1))
    for card in state.data["hands"][0] + state.data["hands"][2]:
        assert f'"id": {card},' not in text
    helpers.assert_no_secret_keys(view)
    helpers.assert_no_secret_keys(spectator)


def test_view_bad_seat():
    state = GAME.new("standard", 2, 0)
    with pytest.raises(IllegalMove):
        GAME.view(state, 2)


# --- legal moves and hints ------------------------------------------------------------------------


def test_legal_moves_list_every_non_equation_move_and_a_right_and_wrong_equation_sample():
    state = position(hands=[[3, "+", 4, "x", "radicalization", "neutralization"], [5]], centre=7)
    moves = GAME.legal_moves(state, 0)
    radical, neutral = cards_for(state, 0, ["radicalization", "neutralization"])
    others = sorted(c for c in state.data["hands"][0] if c != neutral)
    assert [m for m in moves if m["type"] != "equation"] == [
        {"type": "draw", "from": "numbers"},
        {"type": "draw", "from": "operations"},
        *sorted(
            [{"type": "wild", "card": radical}]
            + [{"type": "wild", "card": neutral, "target": c} for c in others],
            key=lambda m: m["card"],
        ),
    ]
    equations = [m for m in moves if m["type"] == "equation"]
    results = []
    for move in equations:
        step = GAME.apply(state, 0, move, 1000)
        results.append(the(step.events, "attempt")["correct"])
    assert sorted(results) == [False, True]
    assert GAME.legal_moves(state, 1) == []


def test_legal_moves_wrong_equation_found_when_every_short_sum_is_right():
    # 3+3 is right for every pair, but the pair (3+3)+3 is a well-formed wrong equation.
    state = position(hands=[[3, 3, 3, "+"], [5]], centre=6)
    equations = [m for m in GAME.legal_moves(state, 0) if m["type"] == "equation"]
    faces = [[FACE[c] for c in m["cards"]] for m in equations]
    assert faces == [[3, "+", 3], [3, 3, "+", 3]]


def test_hint_gives_a_right_equation_with_the_fewest_cards_or_none():
    state = position(hands=[[2, "+", 5, "x", 1, "-", 9, 3], [5]], centre=7)
    hint = GAME.hint(state, 0)
    step = GAME.apply(state, 0, hint, 1000)
    assert the(step.events, "attempt")["correct"] is True
    assert len(hint["cards"]) == 3
    assert GAME.hint(state, 1) is None
    hopeless = position(hands=[[9, 9, "÷"], [5]], centre=7)
    assert GAME.hint(hopeless, 0) is None
    assert all(
        the(GAME.apply(hopeless, 0, m, 0).events, "attempt")["correct"] is False
        for m in GAME.legal_moves(hopeless, 0)
        if m["type"] == "equation"
    )


def test_hint_finds_equations_needing_precedence_and_negation():
    state = position(hands=[[2, "x", 3, "-", 1, 9], [5]], centre=5)  # no 3-card way: 2x3-1
    hint = GAME.hint(state, 0)
    assert len(hint["cards"]) == 5
    assert the(GAME.apply(state, 0, hint, 0).events, "attempt")["correct"] is True
    state = position(hands=[["-", "-", 5, 2], [5]], centre=7)  # only 5--2 or 2--5
    hint = GAME.hint(state, 0)
    assert [FACE[c] for c in hint["cards"]] in ([5, "-", "-", 2], [2, "-", "-", 5])


# --- bots -----------------------------------------------------------------------------------------


def test_bot_easy_plays_the_fewest_cards_equation_and_strong_the_most():
    state = position(hands=[[3, "+", 4, "+", 2, "-", 2, "x", 1], [5]], centre=7)
    state.data["drawn"] = 2  # nothing left to draw first
    before = GAME.dump(state)
    easy = GAME.bot_move(state, 0, "easy", random.Random(0))
    strong = GAME.bot_move(state, 0, "strong", random.Random(0))
    assert GAME.dump(state) == before  # bots never touch the state
    assert len(easy["cards"]) == 3
    assert len(strong["cards"]) == 9  # e.g. 3+4+2-2x1: the whole hand
    step = GAME.apply(state, 0, strong, 1000)
    assert the(step.events, "attempt")["correct"] is True
    assert GAME.outcome(step.state).winners == [0]


def test_bot_strong_draws_before_an_equation_that_leaves_cards_in_hand():
    state = position(hands=[[3, "+", 4, 9], [5]], centre=7)
    assert GAME.bot_move(state, 0, "strong", random.Random(0))["type"] == "draw"
    assert GAME.bot_move(state, 0, "easy", random.Random(0))["type"] == "equation"


def test_bot_strong_plays_wilds_that_shed_cards():
    state = position(hands=[["neutralization", 9, 9], [5]], centre=1)
    move = GAME.bot_move(state, 0, "strong", random.Random(0))
    assert move["type"] == "wild" and FACE[move["target"]] == 9
    state = position(hands=[["propagation", 3, "+", 4], [5]], centre=7)
    assert FACE[GAME.bot_move(state, 0, "strong", random.Random(0))["card"]] == "propagation"


@given(seed=st.integers(0, 2**31), players=st.integers(2, 6))
def test_property_every_bot_level_returns_legal_moves(seed, players):
    rng = random.Random(seed)
    state = GAME.new("standard", players, seed)
    for _ in range(60):
        if GAME.outcome(state) is not None:
            break
        seat = rng.choice(sorted(GAME.active(state)))
        level = rng.choice(["random", "easy", "strong"])
        before = GAME.dump(state)
        move = GAME.bot_move(state, seat, level, rng)
        assert GAME.dump(state) == before
        state = GAME.apply(state, seat, move, 1000).state  # raises if the move were illegal
        assert_conserved(state)


def test_bot_strong_beats_random_in_the_arena():
    shares = simulate.arena(GAME, "standard", ["strong", "random"], 40)
    assert shares["strong"] >= 0.8 > shares["random"]
    shares = simulate.arena(GAME, "standard", ["strong", "random", "random"], 20, seed0=100)
    assert shares["strong"] >= 0.7


def test_bot_easy_beats_random_in_the_arena():
    shares = simulate.arena(GAME, "standard", ["easy", "random"], 20, seed0=200)
    assert shares["easy"] > shares["random"]


# --- properties over every player count -----------------------------------------------------------


def other_hand_ids_in_view(view):
    """Card ids a view shows as belonging to its seat (hand and own Rotation choice)."""
    ids = {card["id"] for card in view.get("hand", [])}
    rotation = view.get("rotation") or {}
    if rotation.get("my_choice") is not None:
        ids.add(rotation["my_choice"])
    return ids


@given(seed=st.integers(0, 2**31), players=st.integers(2, 6), limit=st.integers(1, 4))
def test_property_random_play_ends_conserves_cards_never_leaks_and_replays(seed, players, limit):
    options = {"wrong_limit": limit}
    done = helpers.play_and_check(GAME, "standard", players, seed, options)
    for state in done.states:
        assert_conserved(state)
        hands = state.data["hands"]
        for seat in range(players):
            view = GAME.view(state, seat)
            shown = other_hand_ids_in_view(view)
            assert shown <= set(hands[seat])
            assert len(view["hand"]) == len(hands[seat])
            assert view["hand_counts"] == [len(h) for h in hands]
        assert other_hand_ids_in_view(GAME.view(state, None)) == set()
    helpers.assert_json_round_trip(GAME, done.states[len(done.states) // 2])
    helpers.replay(GAME, "standard", players, seed, done, options)
    for event in done.events:
        json.dumps(event)
        if event["type"] == "attempt":
            assert event["correct"] == (event["expected"] == event["answer"])
            assert event["operator"] in ("+", "-", "x", "÷", "mixed")


@given(seed=st.integers(0, 2**31), players=st.integers(2, 6), steps=st.integers(0, 80))
def test_property_illegal_moves_raise_and_leave_the_state_untouched(seed, players, steps):
    rng = random.Random(seed)
    state = GAME.new("standard", players, seed)
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        seat = rng.choice(sorted(GAME.active(state)))
        state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)), 0).state
    if GAME.outcome(state) is not None:
        assert_illegal(state, 0, {"type": "end_turn"}, "game_over")
        return
    active = sorted(GAME.active(state))
    seat = active[0]
    idle = [s for s in range(players) if s not in active]
    foreign = next((c for s in range(players) if s != seat for c in state.data["hands"][s]), 9999)
    cases = [
        ({"type": "fly"}, "unknown_move"),
        ({"kind": "draw"}, "malformed"),
        ({"type": "equation", "cards": [foreign]}, None),
        ({"type": "wild", "card": foreign}, None),
        ({"type": "rotate", "card": foreign}, None),
        ({"type": "draw", "from": "pot"}, None),
        ({"type": "equation", "cards": None}, None),
    ]
    if idle:
        cases.append(({"type": "end_turn"}, "not_active"))
    for move, code in cases:
        before = GAME.dump(state)
        who = idle[0] if code == "not_active" else seat
        with pytest.raises(IllegalMove) as info:
            GAME.apply(state, who, move, 0)
        if code is not None:
            assert info.value.code == code
        assert GAME.dump(state) == before


def test_random_play_reaches_every_kind_of_move_and_wild():
    seen = set()
    for seed in range(6):
        done = simulate.play_random(GAME, "standard", 3, seed)
        for event in done.events:
            if event["type"] == "draw":
                seen.add(("draw", event["from"]))
            elif event["type"] == "attempt":
                seen.add(("equation", event["correct"]))
            elif event["type"] == "equation_wrong":
                seen.add(("wrong", event["reason"]))
            elif event["type"] == "wild_played":
                seen.add(("wild", event["wild"]))
            elif event["type"] in ("rotation_chosen", "turn_end", "game_end"):
                seen.add((event["type"], event.get("reason")))
    assert seen >= {
        ("draw", "numbers"),
        ("draw", "operations"),
        ("equation", True),
        ("equation", False),
        ("wrong", "wrong_value"),
        ("wild", "propagation"),
        ("wild", "neutralization"),
        ("wild", "radicalization"),
        ("wild", "rotation"),
        ("rotation_chosen", None),
        ("turn_end", "ended"),
        ("turn_end", "right_equation"),
    }
