"""Add or Multiply? (rulebook seeds/004_4749c208fe37853f.txt, RULINGS 5;
docs/rules/add_or_multiply.md).

Seats in the example game: Brian 0, Susie 1, Ted 2.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.add_or_multiply import (
    GAME,
    LARGEST_SCORE_OF_VARIANT,
    STARTING_NUMBERS,
    STARTING_OPERATIONS,
)
from engine.core import IllegalMove, SetupError
from engine.simulate import arena
from tests.engine.helpers import assert_json_round_trip, play_and_check, replay

BRIAN, SUSIE, TED = 0, 1, 2
DOCUMENTED_CODES = {
    "malformed",
    "unknown_move",
    "not_active",
    "game_over",
    "bad_seat",
    "bad_recipients",
    "number_not_held",
    "operation_not_held",
    "wrong_phase",
    "students_score_off",
}


def new(seed=1, **options):
    return GAME.new(variant="standard", players=3, seed=seed, options=options)


def choose(seat, gives, op):
    """``gives`` maps the receiving seat to the number played on it."""
    return {"type": "choose", "give": {str(s): v for s, v in gives.items()}, "op": op}


def apply_all(state, moves, now_ms=1000):
    """Apply ``(seat, move)`` pairs in order; return the last state and all events."""
    events = []
    for seat, move in moves:
        step = GAME.apply(state, seat, move, now_ms)
        state = step.state
        events.extend(step.events)
    return state, events


def play_round(state, plays, now_ms=1000, typed=None):
    """``plays``: per seat (gives, op). With students_score on, every seat then types ``typed``
    (default: the right score)."""
    state, events = apply_all(
        state, [(seat, choose(seat, gives, op)) for seat, (gives, op) in enumerate(plays)], now_ms
    )
    if state.options["students_score"]:
        for seat in range(3):
            value = typed[seat] if typed else GAME.hint(state, seat)["value"]
            state, more = apply_all(state, [(seat, {"type": "score", "value": value})], now_ms)
            events.extend(more)
    return state, events


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


def raises(state, seat, move, code):
    before = GAME.dump(state)
    with pytest.raises(IllegalMove) as info:
        GAME.apply(state, seat, move, 5000)
    assert info.value.code == code
    assert GAME.dump(state) == before


# The rulebook's example game, move by move: per round, per seat (gives, operation).
EXAMPLE_ROUNDS = [
    # Round 1: "Brian plays 1 on Susie and 2 on Ted, and a Multiply operation card." ...
    [({SUSIE: 1, TED: 2}, "M"), ({BRIAN: 0, TED: 4}, "A"), ({BRIAN: 3, SUSIE: 4}, "A")],
    # Round 2
    [({SUSIE: 4, TED: 0}, "A"), ({BRIAN: 6, TED: 2}, "A"), ({BRIAN: 2, SUSIE: 0}, "M")],
    # Round 3
    [({SUSIE: 1, TED: 6}, "M"), ({BRIAN: 1, TED: 2}, "M"), ({BRIAN: 2, SUSIE: 1}, "M")],
    # Round 4
    [({SUSIE: 3, TED: 0}, "A"), ({BRIAN: 5, TED: 1}, "M"), ({BRIAN: 6, SUSIE: 1}, "A")],
    # Round 5
    [({SUSIE: 5, TED: 2}, "A"), ({BRIAN: 3, TED: 0}, "M"), ({BRIAN: 0, SUSIE: 5}, "M")],
]
# "Results": round scores and running totals, Brian, Susie, Ted.
EXAMPLE_SCORES = [[0, 5, 6], [8, 4, 0], [2, 1, 12], [11, 3, 1], [3, 25, 0]]
EXAMPLE_TOTALS = [[0, 5, 6], [8, 9, 6], [10, 10, 18], [21, 13, 19], [24, 38, 19]]
# "Remaining cards" after rounds 1-4, with RULINGS 5's corrections for Ted's operations.
EXAMPLE_REMAINING = [
    [
        ([0, 0, 1, 2, 3, 4, 5, 6], ["A", "A", "A", "M", "M"]),
        ([0, 1, 1, 2, 2, 3, 5, 6], ["A", "A", "M", "M", "M"]),
        ([0, 0, 1, 1, 2, 2, 5, 6], ["A", "A", "M", "M", "M"]),
    ],
    [
        ([0, 1, 2, 3, 5, 6], ["A", "A", "M", "M"]),
        ([0, 1, 1, 2, 3, 5], ["A", "M", "M", "M"]),
        ([0, 1, 1, 2, 5, 6], ["A", "A", "M", "M"]),
    ],
    [
        ([0, 2, 3, 5], ["A", "A", "M"]),
        ([0, 1, 3, 5], ["A", "M", "M"]),
        ([0, 1, 5, 6], ["A", "A", "M"]),  # the rulebook's "A,M,M" is a slip (RULINGS 5)
    ],
    [
        ([2, 5], ["A", "M"]),
        ([0, 3], ["A", "M"]),
        ([0, 5], ["A", "M"]),  # the rulebook's "M,M" is a slip (RULINGS 5)
    ],
]


def hands(state):
    return [
        (sorted(state.data["numbers"][s]), sorted(state.data["operations"][s])) for s in range(3)
    ]


# --- setup and validation -----------------------------------------------------------------------


def test_rulebook_each_player_holds_ten_numbers_and_six_operations():
    state = new()
    for seat in range(3):
        assert sorted(state.data["numbers"][seat]) == [0, 0, 1, 1, 2, 2, 3, 4, 5, 6]
        assert sorted(state.data["operations"][seat]) == ["A", "A", "A", "M", "M", "M"]
    assert state.data["round"] == 1
    assert state.data["totals"] == [0, 0, 0]
    assert GAME.active(state) == frozenset({0, 1, 2})


@pytest.mark.parametrize("players", [0, 1, 2, 4, 5])
def test_ruling_exactly_three_players(players):
    with pytest.raises(SetupError) as info:
        GAME.new(variant="standard", players=players, seed=1)
    assert info.value.code == "bad_players"


def test_setup_rejects_unknown_variant_and_bad_options():
    with pytest.raises(SetupError) as info:
        GAME.new(variant="express", players=3, seed=1)
    assert info.value.code == "unknown_variant"
    with pytest.raises(SetupError) as info:
        new(students_score="yes")
    assert info.value.code == "bad_option"
    with pytest.raises(SetupError) as info:
        new(first_player="seat0")
    assert info.value.code == "unknown_option"
    with pytest.raises(SetupError) as info:
        GAME.new(variant="standard", players=True, seed=1)
    assert info.value.code == "bad_players"


def test_ruling_students_score_defaults_on():
    assert new().options == {"students_score": True}
    assert GAME.describe()["variants"]["standard"]["options"][0]["default"] is True


# --- choosing ----------------------------------------------------------------------------------


def test_rulebook_one_number_on_each_opponent():
    state = new()
    raises(state, BRIAN, choose(BRIAN, {BRIAN: 1, SUSIE: 2}, "A"), "bad_recipients")
    raises(state, BRIAN, choose(BRIAN, {SUSIE: 1}, "A"), "bad_recipients")
    raises(state, BRIAN, choose(BRIAN, {SUSIE: 1, TED: 2, BRIAN: 3}, "A"), "bad_recipients")
    raises(state, BRIAN, {"type": "choose", "give": {1: 1, 2: 2}, "op": "A"}, "bad_recipients")
    raises(state, BRIAN, {"type": "choose", "give": [1, 2], "op": "A"}, "malformed")
    raises(state, BRIAN, {"type": "choose", "op": "A"}, "malformed")
    raises(state, BRIAN, choose(BRIAN, {SUSIE: "1", TED: 2}, "A"), "malformed")
    raises(state, BRIAN, choose(BRIAN, {SUSIE: True, TED: 2}, "A"), "malformed")


def test_rulebook_numbers_played_must_be_held():
    state = new()
    raises(state, BRIAN, choose(BRIAN, {SUSIE: 7, TED: 2}, "A"), "number_not_held")
    # Only one 6: it cannot be played on both opponents.
    raises(state, BRIAN, choose(BRIAN, {SUSIE: 6, TED: 6}, "A"), "number_not_held")
    # Two 0s: both may be played in the same round.
    step = GAME.apply(state, BRIAN, choose(BRIAN, {SUSIE: 0, TED: 0}, "A"), 10)
    assert step.state.data["choices"][BRIAN] == {"give": {"1": 0, "2": 0}, "op": "A"}
    # A card played in an earlier round is gone.
    state, _ = play_round(new(students_score=False), EXAMPLE_ROUNDS[0])
    raises(state, TED, choose(TED, {BRIAN: 3, SUSIE: 0}, "A"), "number_not_held")


def test_rulebook_operation_played_on_oneself_must_be_held():
    state = new()
    raises(state, BRIAN, choose(BRIAN, {SUSIE: 1, TED: 2}, "X"), "malformed")
    raises(state, BRIAN, choose(BRIAN, {SUSIE: 1, TED: 2}, None), "malformed")
    state.data["operations"][BRIAN] = ["A", "A", "A"]
    raises(state, BRIAN, choose(BRIAN, {SUSIE: 1, TED: 2}, "M"), "operation_not_held")


def test_ruling_choice_stays_secret_until_all_three_have_chosen():
    state = new()
    views_before = {seat: GAME.view(state, seat) for seat in (SUSIE, TED, None)}
    step = GAME.apply(state, BRIAN, choose(BRIAN, {SUSIE: 6, TED: 5}, "M"), 700)
    after = step.state
    # The only news: Brian has chosen.
    assert step.events == [
        {"type": "choice_made", "seat": BRIAN, "round": 1, "waiting_for": [SUSIE, TED]}
    ]
    for seat, before in views_before.items():
        view = GAME.view(after, seat)
        assert view["chosen"] == [True, False, False]
        assert view["my_choice"] is None
        # Nothing else changed: not the hands, not the table.
        for key in ("version", "active", "chosen"):
            view.pop(key)
            before.pop(key)
        assert view == before
    own = GAME.view(after, BRIAN)
    assert own["my_choice"] == {"give": {"1": 6, "2": 5}, "op": "M"}
    # Brian's cards leave his hand only at the reveal.
    assert own["cards_left"][BRIAN] == {
        "numbers": [0, 0, 1, 1, 2, 2, 3, 4, 5, 6],
        "operations": ["A", "A", "A", "M", "M", "M"],
    }
    step = GAME.apply(after, SUSIE, choose(SUSIE, {BRIAN: 0, TED: 4}, "A"), 800)
    assert step.events == [{"type": "choice_made", "seat": SUSIE, "round": 1, "waiting_for": [TED]}]
    assert GAME.view(step.state, TED)["my_choice"] is None


def test_ruling_a_choice_is_final():
    state, _ = apply_all(new(), [(BRIAN, choose(BRIAN, {SUSIE: 1, TED: 2}, "M"))])
    assert GAME.active(state) == frozenset({SUSIE, TED})
    assert GAME.legal_moves(state, BRIAN) == []
    raises(state, BRIAN, choose(BRIAN, {SUSIE: 3, TED: 4}, "A"), "not_active")


def test_ruling_choices_revealed_together():
    state = new(students_score=False)
    state, events = apply_all(
        state,
        [
            (BRIAN, choose(BRIAN, {SUSIE: 1, TED: 2}, "M")),
            (SUSIE, choose(SUSIE, {BRIAN: 0, TED: 4}, "A")),
        ],
    )
    assert of_type(events, "choices_revealed") == []
    step = GAME.apply(state, TED, choose(TED, {BRIAN: 3, SUSIE: 4}, "A"), 2000)
    (revealed,) = of_type(step.events, "choices_revealed")
    assert revealed == {
        "type": "choices_revealed",
        "round": 1,
        "plays": [
            {"seat": 0, "give": {"1": 1, "2": 2}, "op": "M", "received": [0, 3], "operator": "x"},
            {"seat": 1, "give": {"2": 4, "0": 0}, "op": "A", "received": [1, 4], "operator": "+"},
            {"seat": 2, "give": {"0": 3, "1": 4}, "op": "A", "received": [2, 4], "operator": "+"},
        ],
    }
    assert step.state.data["choices"] == [None, None, None]
    assert hands(step.state) == EXAMPLE_REMAINING[0]


def test_rulebook_round_score_is_the_two_numbers_combined_by_own_operation():
    state, events = play_round(
        new(students_score=False),
        [({SUSIE: 6, TED: 0}, "M"), ({BRIAN: 5, TED: 4}, "A"), ({BRIAN: 3, SUSIE: 2}, "M")],
    )
    # Brian multiplies Susie's 5 by Ted's 3; Susie adds Brian's 6 and Ted's 2; Ted multiplies
    # Brian's 0 by Susie's 4.
    (scored,) = of_type(events, "round_scored")
    assert scored == {
        "type": "round_scored",
        "round": 1,
        "scores": [15, 8, 0],
        "totals": [15, 8, 0],
    }
    assert state.data["round"] == 2
    assert of_type(events, "round_started") == [{"type": "round_started", "round": 2}]


# --- the rulebook's example game ---------------------------------------------------------------


def test_rulebook_example_game_replayed_move_by_move():
    state = new(students_score=True)
    for index, plays in enumerate(EXAMPLE_ROUNDS):
        state, events = play_round(state, plays, now_ms=1000 * (index + 1))
        (scored,) = of_type(events, "round_scored")
        assert scored["scores"] == EXAMPLE_SCORES[index]
        assert scored["totals"] == EXAMPLE_TOTALS[index]
        assert state.data["totals"] == EXAMPLE_TOTALS[index]
        attempts = of_type(events, "attempt")
        assert [a["expected"] for a in attempts] == EXAMPLE_SCORES[index]
        assert all(a["correct"] for a in attempts)
        if index < 4:
            assert hands(state) == EXAMPLE_REMAINING[index]
    outcome = GAME.outcome(state)
    assert outcome.scores == [24, 38, 19]
    assert outcome.winners == [SUSIE]
    # RULINGS 5: the sixth operation card is never played.
    assert [len(state.data["operations"][s]) for s in range(3)] == [1, 1, 1]
    assert [state.data["numbers"][s] for s in range(3)] == [[], [], []]


def test_ruling_example_slip_ted_operations_after_rounds_three_and_four():
    state = new(students_score=False)
    for plays in EXAMPLE_ROUNDS[:3]:
        state, _ = play_round(state, plays)
    assert sorted(state.data["operations"][TED]) == ["A", "A", "M"]
    state, _ = play_round(state, EXAMPLE_ROUNDS[3])
    assert sorted(state.data["operations"][TED]) == ["A", "M"]


def test_ruling_example_slip_had_susie_added_brian_would_win():
    state = new(students_score=False)
    for plays in EXAMPLE_ROUNDS[:4]:
        state, _ = play_round(state, plays)
    last = list(EXAMPLE_ROUNDS[4])
    last[SUSIE] = ({BRIAN: 3, TED: 0}, "A")
    state, events = play_round(state, last)
    # 5 + 5 = 10, so Susie has 13 + 10 = 23.
    assert of_type(events, "round_scored")[0]["scores"] == [3, 10, 0]
    assert GAME.outcome(state).scores == [24, 23, 19]
    assert GAME.outcome(state).winners == [BRIAN]
    assert of_type(events, "game_over") == [
        {"type": "game_over", "totals": [24, 23, 19], "winners": [BRIAN]}
    ]


# --- end of the game ---------------------------------------------------------------------------


def test_rulebook_game_ends_after_five_rounds():
    state = new(students_score=False)
    for index, plays in enumerate(EXAMPLE_ROUNDS):
        assert GAME.outcome(state) is None
        assert state.data["round"] == index + 1
        state, _ = play_round(state, plays)
    assert GAME.outcome(state) is not None
    assert state.data["phase"] == "over"
    assert GAME.active(state) == frozenset()
    assert all(GAME.legal_moves(state, s) == [] for s in range(3))
    assert all(GAME.bot_move(state, s, "strong", random.Random(1)) is None for s in range(3))
    assert GAME.hint(state, BRIAN) is None
    raises(state, BRIAN, choose(BRIAN, {SUSIE: 0, TED: 0}, "A"), "game_over")
    view = GAME.view(state, None)
    assert view["outcome"] == {
        "scores": [24, 38, 19],
        "winners": [SUSIE],
        "places": [2, 1, 3],
    }
    assert view["phase"] == "over"


def test_ruling_ties_share():
    state = new(students_score=False)
    for plays in EXAMPLE_ROUNDS[:4]:
        state, _ = play_round(state, plays)
    state.data["totals"] = [25, 3, 0]
    # Round 5 of the example: Brian 3 + 0 = 3, Susie 5 x 5 = 25, Ted 2 x 0 = 0.
    state, events = play_round(state, EXAMPLE_ROUNDS[4])
    assert GAME.outcome(state).scores == [28, 28, 0]
    assert GAME.outcome(state).winners == [BRIAN, SUSIE]
    assert of_type(events, "game_over")[0]["winners"] == [BRIAN, SUSIE]


# --- students type their round score (RULINGS 5 option) -----------------------------------------


def revealed_round_one(**options):
    state, _ = apply_all(
        new(**options),
        [(seat, choose(seat, gives, op)) for seat, (gives, op) in enumerate(EXAMPLE_ROUNDS[0])],
        now_ms=4000,
    )
    return state


def test_ruling_students_score_entry_is_an_attempt():
    state = revealed_round_one()
    assert state.data["phase"] == "score"
    step = GAME.apply(state, SUSIE, {"type": "score", "value": 5}, 6500)
    assert step.events == [
        {
            "type": "attempt",
            "seat": SUSIE,
            "operands": [1, 4],
            "operator": "+",
            "answer": 5,
            "expected": 5,
            "correct": True,
            "elapsed_ms": 2500,
            "skill": "add.within10",
            "round": 1,
        }
    ]
    step = GAME.apply(step.state, BRIAN, {"type": "score", "value": 3}, 9000)
    (attempt,) = step.events
    assert attempt["operands"] == [0, 3]
    assert attempt["operator"] == "x"
    assert attempt["answer"] == 3
    assert attempt["expected"] == 0
    assert attempt["correct"] is False
    assert attempt["elapsed_ms"] == 5000
    assert attempt["skill"] == "mul.within10"


def test_ruling_students_score_the_real_score_always_counts():
    state = revealed_round_one()
    state, events = apply_all(
        state,
        [
            (BRIAN, {"type": "score", "value": 30}),
            (SUSIE, {"type": "score", "value": 0}),
            (TED, {"type": "score", "value": 6}),
        ],
    )
    assert [a["correct"] for a in of_type(events, "attempt")] == [False, False, True]
    assert state.data["totals"] == [0, 5, 6]
    assert of_type(events, "round_scored")[0]["totals"] == [0, 5, 6]


def test_decision_round_waits_until_every_student_has_typed():
    state = revealed_round_one()
    assert GAME.active(state) == frozenset({0, 1, 2})
    state, events = apply_all(
        state, [(TED, {"type": "score", "value": 6}), (BRIAN, {"type": "score", "value": 0})]
    )
    assert of_type(events, "round_scored") == []
    assert state.data["round"] == 1
    assert state.data["totals"] == [0, 0, 0]
    assert GAME.active(state) == frozenset({SUSIE})
    raises(state, TED, {"type": "score", "value": 6}, "not_active")
    raises(state, SUSIE, choose(SUSIE, {BRIAN: 0, TED: 0}, "A"), "wrong_phase")
    state, events = apply_all(state, [(SUSIE, {"type": "score", "value": 5})])
    assert state.data["round"] == 2
    assert state.data["phase"] == "choose"
    assert GAME.active(state) == frozenset({0, 1, 2})


def test_decision_round_score_hidden_until_its_student_has_typed():
    state = revealed_round_one()
    view = GAME.view(state, TED)
    plays = view["rounds_played"][0]["plays"]
    assert [p["score"] for p in plays] == [None, None, None]
    assert [p["received"] for p in plays] == [[0, 3], [1, 4], [2, 4]]
    assert view["typed"] == [None, None, None]
    state, _ = apply_all(state, [(TED, {"type": "score", "value": 7})])
    for seat in (BRIAN, TED, None):
        view = GAME.view(state, seat)
        assert [p["score"] for p in view["rounds_played"][0]["plays"]] == [None, None, 6]
        assert view["typed"] == [None, None, 7]
        assert view["totals"] == [0, 0, 0]
    assert GAME.hint(state, BRIAN) == {"type": "score", "value": 0}


def test_decision_typed_value_is_a_whole_number_from_0_to_999():
    state = revealed_round_one()
    for bad in (-1, 1000, "5", 2.5, True, None):
        raises(state, BRIAN, {"type": "score", "value": bad}, "malformed")
    raises(state, BRIAN, {"type": "score"}, "malformed")
    step = GAME.apply(state, BRIAN, {"type": "score", "value": 999}, 5000)
    assert step.events[0]["correct"] is False


def test_ruling_students_score_can_be_switched_off():
    state = revealed_round_one(students_score=False)
    assert state.data["phase"] == "choose"
    assert state.data["round"] == 2
    assert state.data["totals"] == [0, 5, 6]
    raises(state, BRIAN, {"type": "score", "value": 0}, "students_score_off")
    assert all(m["type"] == "choose" for m in GAME.legal_moves(state, BRIAN))


def test_score_move_before_the_reveal_is_the_wrong_phase():
    raises(new(), BRIAN, {"type": "score", "value": 0}, "wrong_phase")


def test_shared_codes_for_structural_errors():
    state = new()
    raises(state, 3, choose(BRIAN, {SUSIE: 1, TED: 2}, "A"), "bad_seat")
    raises(state, -1, choose(BRIAN, {SUSIE: 1, TED: 2}, "A"), "bad_seat")
    raises(state, BRIAN, {"give": {}}, "malformed")
    raises(state, BRIAN, "choose", "malformed")
    raises(state, BRIAN, {"type": "claim"}, "unknown_move")


# --- legal moves, hints, views -----------------------------------------------------------------


def test_legal_moves_list_every_distinct_choice():
    state = new()
    moves = GAME.legal_moves(state, TED)
    # Values 0..6 on each opponent: 49 pairs less 3-3, 4-4, 5-5, 6-6 (single cards), two operations.
    assert len(moves) == 45 * 2
    assert {m["op"] for m in moves} == {"A", "M"}
    assert all(set(m["give"]) == {"0", "1"} for m in moves)
    for move in moves:
        GAME.apply(state, TED, move, 10)
    state.data["numbers"][TED] = [2, 5]
    state.data["operations"][TED] = ["M", "M"]
    assert GAME.legal_moves(state, TED) == [
        choose(TED, {BRIAN: 2, SUSIE: 5}, "M"),
        choose(TED, {BRIAN: 5, SUSIE: 2}, "M"),
    ]


def test_legal_score_moves_never_depend_on_the_answer():
    state = revealed_round_one()
    moves = [GAME.legal_moves(state, seat) for seat in range(3)]
    assert moves[0] == moves[1] == moves[2]
    assert [m["value"] for m in moves[0]] == list(range(LARGEST_SCORE_OF_VARIANT["standard"] + 1))


def test_hint_is_a_legal_choice_and_the_right_score():
    state = new()
    assert GAME.hint(state, SUSIE) in GAME.legal_moves(state, SUSIE)
    state = revealed_round_one()
    assert [GAME.hint(state, s) for s in range(3)] == [
        {"type": "score", "value": 0},
        {"type": "score", "value": 5},
        {"type": "score", "value": 6},
    ]


def test_view_shows_public_hands_totals_and_past_rounds():
    state = new(students_score=False)
    for plays in EXAMPLE_ROUNDS[:2]:
        state, _ = play_round(state, plays)
    view = GAME.view(state, None)
    assert view["round"] == 3
    assert view["rounds"] == 5
    assert view["totals"] == [8, 9, 6]
    assert view["my_choice"] is None
    assert [h["numbers"] for h in view["cards_left"]] == [r[0] for r in EXAMPLE_REMAINING[1]]
    assert view["rounds_played"][1]["plays"][TED] == {
        "seat": TED,
        "give": {"0": 2, "1": 0},
        "op": "M",
        "operator": "x",
        "received": [0, 2],
        "score": 0,
    }
    assert view["deadline"] is None
    assert GAME.deadline(state) is None
    assert GAME.tick(state, 10**9).state is state


# --- bots --------------------------------------------------------------------------------------


def test_bot_levels_return_legal_moves_and_leave_the_state_alone():
    rng = random.Random(3)
    state = new(seed=3)
    while GAME.outcome(state) is None:
        for seat in sorted(GAME.active(state)):
            for level in ("random", "easy", "strong"):
                before = GAME.dump(state)
                move = GAME.bot_move(state, seat, level, rng)
                assert move in GAME.legal_moves(state, seat)
                assert GAME.dump(state) == before
        seat = min(GAME.active(state))
        state = GAME.apply(state, seat, GAME.bot_move(state, seat, "strong", rng), 0).state


def test_bot_easy_plays_its_smallest_numbers_and_types_the_right_score():
    state = new()
    state.data["numbers"][SUSIE] = [6, 3, 2, 5]
    state.data["operations"][SUSIE] = ["A", "A", "M"]
    assert GAME.bot_move(state, SUSIE, "easy", random.Random(1)) == choose(
        SUSIE, {TED: 2, BRIAN: 3}, "A"
    )
    state = revealed_round_one()
    assert GAME.bot_move(state, TED, "easy", random.Random(1)) == {"type": "score", "value": 6}


def test_bot_strong_gives_zero_to_the_opponent_who_must_multiply():
    state = new()
    state.data["round"] = 5
    state.data["numbers"] = [[0, 6], [3, 4], [4, 5]]
    # Susie (left of Brian) holds only multiplies, Ted only adds.
    state.data["operations"] = [["A", "M"], ["M", "M"], ["A", "A"]]
    move = GAME.bot_move(state, BRIAN, "strong", random.Random(1))
    assert move["give"] == {"1": 0, "2": 6}


def test_bot_strong_multiplies_big_numbers_and_adds_small_ones():
    state = new()
    state.data["round"] = 5
    state.data["operations"] = [["A", "M"], ["A", "M"], ["A", "M"]]
    state.data["numbers"] = [[0, 1], [5, 6], [4, 5]]
    assert GAME.bot_move(state, BRIAN, "strong", random.Random(1))["op"] == "M"
    state.data["numbers"] = [[0, 1], [0, 1], [1, 2]]
    assert GAME.bot_move(state, BRIAN, "strong", random.Random(1))["op"] == "A"


def test_bot_strong_beats_random():
    shares = arena(GAME, "standard", ["strong", "random", "random"], 40)
    # Two random seats share their wins; per seat, strong must win clearly more.
    assert shares["strong"] > 1.4 * shares["random"] / 2
    assert shares["strong"] >= 0.4


def test_bot_random_reaches_every_kind_of_move():
    kinds = Counter()
    for seed in range(4):
        done = play_and_check(GAME, "standard", 3, seed)
        for _, move, _ in done.moves:
            if move["type"] == "choose":
                kinds[move["op"]] += 1
            else:
                kinds["score"] += 1
        attempts = [e for e in done.events if e["type"] == "attempt"]
        kinds.update("right" if a["correct"] else "wrong" for a in attempts)
    assert set(kinds) == {"A", "M", "score", "right", "wrong"}


# --- properties over every variant and option -------------------------------------------------


def assert_conserved(state):
    """Every card is in a hand, in a pending choice (still counted in the hand) or played."""
    data = state.data
    history = data["history"]
    for seat in range(3):
        played_numbers = [v for entry in history for v in entry["gave"][seat].values()]
        played_ops = [entry["ops"][seat] for entry in history]
        assert sorted(data["numbers"][seat] + played_numbers) == list(STARTING_NUMBERS)
        assert sorted(data["operations"][seat] + played_ops) == list(STARTING_OPERATIONS)
        choice = data["choices"][seat]
        if choice is not None:
            need = Counter(choice["give"].values())
            held = Counter(data["numbers"][seat])
            assert all(held[v] >= n for v, n in need.items())
            assert choice["op"] in data["operations"][seat]
    # The revealed rounds agree with the round counter, and each one's scores with its cards.
    phase, rounds_revealed = data["phase"], len(history)
    if phase == "choose":
        assert data["round"] == rounds_revealed + 1
    else:
        assert data["round"] == rounds_revealed
    assert phase != "over" or rounds_revealed == 5
    for entry in history:
        for seat in range(3):
            received = [entry["gave"][g][str(seat)] for g in range(3) if g != seat]
            assert entry["received"][seat] == received
            a, b = received
            assert entry["scores"][seat] == (a * b if entry["ops"][seat] == "M" else a + b)
    # The totals are the real scores of the finished rounds.
    finished = history[:-1] if phase == "score" else history
    assert data["totals"] == [sum(entry["scores"][s] for entry in finished) for s in range(3)]


def assert_choices_do_not_leak(state):
    """A seat's view is the same whatever the others have secretly chosen."""
    data = state.data
    if data["phase"] != "choose":
        return
    for viewer in (None, 0, 1, 2):
        altered = GAME.load(GAME.dump(state))
        for seat in range(3):
            if seat == viewer or data["choices"][seat] is None:
                continue
            options = [
                m
                for m in GAME.legal_moves(_unchosen(state, seat), seat)
                if _as_choice(m) != data["choices"][seat]
            ]
            if options:  # in round 5 a hand may allow one choice only
                altered.data["choices"][seat] = _as_choice(options[-1])
        assert GAME.view(altered, viewer) == GAME.view(state, viewer)


def _unchosen(state, seat):
    copy = GAME.load(GAME.dump(state))
    copy.data["choices"][seat] = None
    return copy


def _as_choice(move):
    return {"give": move["give"], "op": move["op"]}


SECRET_EVENT_KEYS = {"give", "op", "received", "plays"}


@given(seed=st.integers(0, 2**31), students_score=st.booleans())
def test_property_random_play_ends_conserves_cards_and_never_leaks(seed, students_score):
    options = {"students_score": students_score}
    done = play_and_check(GAME, "standard", 3, seed, options)
    assert len(done.state.data["history"]) == 5
    for state in done.states:
        assert_conserved(state)
        assert_choices_do_not_leak(state)
        assert_json_round_trip(GAME, state)
    # Events broadcast before a reveal never carry a choice.
    for event in done.events:
        if event["type"] == "choice_made":
            assert set(event) == {"type", "seat", "round", "waiting_for"}
        elif event["type"] != "choices_revealed":
            assert not SECRET_EVENT_KEYS & set(event)
    replay(GAME, "standard", 3, seed, done, options)


BAD_MOVES = [
    {"type": "choose", "give": {"0": 7, "1": 7, "2": 7}, "op": "A"},
    {"type": "choose", "give": {}, "op": "A"},
    {"type": "choose", "give": [0, 0], "op": "A"},
    {"type": "choose", "give": "0,0", "op": "M"},
    {"type": "score", "value": -1},
    {"type": "score", "value": 1000},
    {"type": "score", "value": "3"},
    {"type": "score", "value": True},
    {"type": "score"},
    {"type": "pass"},
    {"type": 3},
    {},
    None,
    [1, 2],
]


@given(
    seed=st.integers(0, 2**31),
    students_score=st.booleans(),
    steps=st.integers(0, 40),
    bad=st.sampled_from(BAD_MOVES),
    seat=st.integers(-1, 3),
)
def test_property_illegal_moves_raise_and_leave_the_state_untouched(
    seed, students_score, steps, bad, seat
):
    rng = random.Random(seed)
    state = new(seed=seed, students_score=students_score)
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        mover = rng.choice(sorted(GAME.active(state)))
        state = GAME.apply(state, mover, rng.choice(GAME.legal_moves(state, mover)), 0).state
    before = GAME.dump(state)
    with pytest.raises(IllegalMove) as info:
        GAME.apply(state, seat, bad, 100)
    assert info.value.code in DOCUMENTED_CODES
    assert GAME.dump(state) == before


def test_bot_strong_keeps_its_multiply_when_opponents_give_small_numbers_first():
    state = new(students_score=False)
    # Susie and Ted give Brian (and each other) their smallest numbers in rounds 1 and 2.
    state, _ = play_round(
        state, [({SUSIE: 0, TED: 0}, "M"), ({BRIAN: 0, TED: 0}, "A"), ({BRIAN: 0, SUSIE: 0}, "A")]
    )
    state, _ = play_round(
        state, [({SUSIE: 1, TED: 1}, "A"), ({BRIAN: 1, TED: 1}, "A"), ({BRIAN: 1, SUSIE: 1}, "A")]
    )
    # Their hands (2, 2, 3, 4, 5, 6) would make multiplying pay now; their habit says their
    # small numbers come first, so Brian adds now and keeps his two multiplies for later.
    assert GAME.bot_move(state, BRIAN, "strong", random.Random(1))["op"] == "A"
    # Without the habit (gifts from the middle of the hand) multiplying now is as good.
    fresh = new(students_score=False)
    fresh.data.update(
        round=3,
        numbers=[list(n) for n in state.data["numbers"]],
        operations=[list(o) for o in state.data["operations"]],
    )
    assert GAME.bot_move(fresh, BRIAN, "strong", random.Random(1))["op"] == "M"


def test_views_and_events_share_nothing_with_the_state():
    state = new()
    state, _ = apply_all(state, [(BRIAN, choose(BRIAN, {SUSIE: 1, TED: 2}, "M"))])
    GAME.view(state, BRIAN)["my_choice"]["give"]["1"] = 6
    assert state.data["choices"][BRIAN]["give"] == {"1": 1, "2": 2}
    step = GAME.apply(state, SUSIE, choose(SUSIE, {BRIAN: 0, TED: 4}, "A"), 1)
    step = GAME.apply(step.state, TED, choose(TED, {BRIAN: 3, SUSIE: 4}, "A"), 2)
    before = GAME.dump(step.state)
    (revealed,) = of_type(step.events, "choices_revealed")
    revealed["plays"][0]["give"]["1"] = 6
    revealed["plays"][0]["received"].append(9)
    view = GAME.view(step.state, None)
    view["rounds_played"][0]["plays"][0]["give"]["1"] = 6
    view["rounds_played"][0]["plays"][0]["received"].append(9)
    view["cards_left"][0]["numbers"].append(9)
    assert GAME.dump(step.state) == before


def test_an_attempts_range_is_the_problems_not_the_typed_answers():
    """1 + 4 typed as 12 is addition within 10: a wrong answer must not move a skill up a range."""
    state = new(students_score=True)
    _, events = play_round(state, EXAMPLE_ROUNDS[0], typed=[0, 12, 6])
    susie = next(e for e in of_type(events, "attempt") if e["seat"] == SUSIE)
    assert (susie["operands"], susie["answer"], susie["expected"]) == ([1, 4], 12, 5)
    assert susie["skill"] == "add.within10" and not susie["correct"]
