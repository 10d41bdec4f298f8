"""¡Mía!'s calm table (option ``calm``; docs/rules/mia.md, platform ruling "A calm table"): no
race and no flip timer; each seat answers the face-up card in its own time; every right answer
scores; the card closes when every seat has answered or passed; nobody sees another's answer
before it closes; bots answer after their thinking time and never close the card for a child."""

from __future__ import annotations

import copy
import random
from itertools import chain

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import mia
from engine.core import IllegalMove
from engine.simulate import bot_chooser, play, random_legal
from tests.engine.helpers import assert_json_round_trip, play_and_check, replay
from tests.engine.test_mia import (
    ET,
    GAME,
    NUMBER_COUNT,
    OPERATION_COUNT,
    PASS,
    PLUS4_MINUS3,
    PLUS5_MINUS4,
    TABLE_MODES,
    X2_PLUS14_MINUS6,
    arrange,
    claim,
    fresh,
    kinds,
    n,
    number_ids_in,
    of_type,
)

CALM = {"calm": True}
# Seat 0: 2 + 3 = 5 (option 0) and 7 - 3 = 4 (option 1); seat 1: 1 + 4 = 5, wrong 1 + 5 = 6;
# seat 2 holds only ones (1 + 1 = 2: no answer to +5 / -4).
HANDS3 = [
    [n(2), n(3), n(7), n(8), n(9)],
    [n(1), n(4), n(5), n(5, 1), n(6)],
    [n(1, 1), n(1, 2), n(1, 3), n(1, 4), n(1, 5)],
]


def calm_position(players=3, variant="express", hands=None, now=1000, **kw):
    state = fresh(variant, players, calm=True, **{k: kw.pop(k) for k in ("target",) if k in kw})
    state = arrange(state, hands=hands or HANDS3[:players], now=now, **kw)
    state.data["flip_at"] = None  # a calm table has no flip timer
    return state


def assert_calm_conserved(state):
    """Every card in exactly one place: answers held face down count as the seat's."""
    data = state.data
    held = [c for a in data["answers"] if a is not None for c in a["cards"]]
    numbers = [
        *chain(*data["hands"]),
        *held,
        *(c for batches in data["aside"] for b in batches for c in b["cards"]),
        *data["numbers"],
        *data["number_discard"],
    ]
    assert sorted(numbers) == list(range(NUMBER_COUNT))
    operations = [
        *data["operations"],
        *data["pile"],
        *data["mirrors"],
        *data["operation_discard"],
        *chain(*data["won"]),
    ]
    assert sorted(operations) == list(range(OPERATION_COUNT))


# --- the option ----------------------------------------------------------------------------------


def test_platform_ruling_calm_is_an_option_of_the_table_modes_off_by_default():
    for name in ("express", "party", "canada47"):
        option = GAME.variants[name].options["calm"]
        assert (option.kind, option.default) == ("bool", False)
    for name in ("solo5", "solo4", "solo3"):
        assert "calm" not in GAME.variants[name].options
    assert GAME.new("party", 3, 1, options=CALM).options["calm"] is True


# --- the rules -----------------------------------------------------------------------------------


def test_platform_ruling_calm_table_has_no_flip_timer_and_no_race():
    state = fresh("express", 3, calm=True)
    assert GAME.deadline(state) is None
    view = GAME.view(state, 0)
    assert (view["deadline"], view["flip_at"], view["calm"]) == (None, None, True)
    state = calm_position()
    step = GAME.apply(state, 0, claim([n(2), n(3)], 0, round=1), 3000)
    # Seat 0 was right and first: the card stays, the others answer it in their own time.
    assert kinds(step.events) == ["attempt", "answered"]
    assert step.state.data["pile"] == [PLUS5_MINUS4]
    assert GAME.active(step.state) == frozenset({1, 2})
    assert step.state.data["scores"] == [0, 0, 0]
    # However long they take: nothing is ever due.
    assert GAME.deadline(step.state) is None
    assert GAME.tick(step.state, 10**9).state is step.state
    with pytest.raises(IllegalMove) as error:
        GAME.apply(step.state, 0, claim([n(7), n(8)], 1, round=1), 3100)
    assert error.value.code == "not_active"  # one answer a card


def test_platform_ruling_calm_every_right_answer_scores_when_every_seat_has_answered():
    state = calm_position(next_numbers=(n(6, 1), n(6, 2), n(9, 1), n(9, 2)))
    state = GAME.apply(state, 1, claim([n(1), n(4)], 0, round=1), 2500).state
    state = GAME.apply(state, 0, claim([n(7), n(3)], 1, round=1), 4000).state
    step = GAME.apply(state, 2, PASS, 30_000)  # the last seat closes the card
    data = step.state.data
    closed = of_type(step.events, "card_closed")[0]
    assert closed["right"] == [0, 1]
    assert closed["points"] == [1, 1, 0]
    assert closed["scores"] == [1, 1, 0]
    assert [s["seat"] for s in closed["solutions"]] == [0, 1]
    assert closed["solutions"][0] == {
        "seat": 0,
        "option": 1,
        "values": [7, 3],
        "op": "-",
        "target": 4,
        "result": 4,
    }
    assert data["scores"] == [1, 1, 0]
    # The right answers' cards are discarded, and each right seat draws 2, the revealer first.
    assert {n(7), n(3), n(1), n(4)} <= set(data["number_discard"])
    assert data["hands"][0] == sorted([n(2), n(8), n(9), n(6, 1), n(6, 2)])
    assert data["hands"][1] == sorted([n(5), n(5, 1), n(6), n(9, 1), n(9, 2)])
    assert data["hands"][2] == HANDS3[2]
    # The card is shared out as points, not taken; the next card is revealed by the next seat.
    assert data["pile"] != [PLUS5_MINUS4] and data["round"] == 2
    assert PLUS5_MINUS4 in data["operation_discard"]
    assert data["revealer"] == 1
    assert GAME.view(step.state, 2)["won_counts"] == [1, 1, 0]
    assert GAME.active(step.state) == frozenset({0, 1, 2})
    assert_calm_conserved(step.state)


def test_platform_ruling_calm_answers_are_timed_from_the_flip():
    state = calm_position(now=1000)
    step = GAME.apply(state, 2, claim([n(1, 1), n(1, 2)], 0, round=1), 9_500)
    attempt = step.events[0]
    assert (attempt["seat"], attempt["correct"], attempt["elapsed_ms"]) == (2, False, 8500)
    assert attempt["calm"] is True
    step = GAME.apply(step.state, 1, claim([n(1), n(4)], 0, round=1), 61_000)
    assert (step.events[0]["correct"], step.events[0]["elapsed_ms"]) == (True, 60_000)


def test_platform_ruling_calm_wrong_answer_is_out_for_the_card_and_sets_cards_aside_at_close():
    state = calm_position(players=2)
    step = GAME.apply(state, 1, claim([n(1), n(5)], 0, round=1), 2000)  # 1 + 5 = 6, not 5
    assert step.events[0]["correct"] is False
    assert 1 not in GAME.active(step.state)
    assert step.state.data["aside"] == [[], []]  # not yet: nobody may see it before the close
    step = GAME.apply(step.state, 0, claim([n(2), n(3)], 0, round=1), 5000)
    data = step.state.data
    assert data["aside"][1] == [{"cards": sorted([n(1), n(5)]), "back": 2}]
    assert data["scores"] == [1, 0]
    assert of_type(step.events, "card_closed")[0]["right"] == [0]
    # As in the race (RULINGS 1): the cards come back when the next round ends.
    back = GAME.apply(step.state, 0, PASS, 6000).state
    back = GAME.apply(back, 1, PASS, 6000)
    assert of_type(back.events, "cards_returned")[0]["seat"] == 1


def test_platform_ruling_calm_when_nobody_is_right_a_new_card_goes_on_the_pile():
    state = calm_position(players=2, pile=(X2_PLUS14_MINUS6, PLUS4_MINUS3))
    state = GAME.apply(state, 0, PASS, 2000).state
    step = GAME.apply(state, 1, claim([n(1), n(6)], 0, round=1), 3000)  # 7, not 4
    assert kinds(step.events)[:4] == ["attempt", "answered", "card_closed", "nobody_solved"]
    data = step.state.data
    assert len(data["pile"]) == 3 and data["revealer"] == 0
    assert of_type(step.events, "card_closed")[0]["right"] == []


def test_platform_ruling_calm_pile_and_canada47_targets():
    # The whole pile (an x2 card under the top) scores for every right answer.
    hands = [[n(1), n(3), n(8), n(9), n(6)], [n(1, 1), n(3, 1), n(2), n(2, 1), n(2, 2)]]
    state = calm_position(players=2, hands=hands, pile=(X2_PLUS14_MINUS6, PLUS4_MINUS3))
    state = GAME.apply(state, 0, claim([n(1), n(3)], 0, round=1), 2000).state
    step = GAME.apply(state, 1, claim([n(1, 1), n(3, 1)], 0, round=1), 2000)
    assert step.state.data["scores"] == [3, 3]
    # Canada 47: each right answer scores the target of its own option; reaching it at the
    # close ends the game, ties share.
    hands = [[n(2), n(3), n(7), n(8), n(9)], [n(1), n(4), n(5), n(5, 1), n(6)]]
    state = calm_position(players=2, variant="canada47", hands=hands, scores=[44, 40])
    state = GAME.apply(state, 0, claim([n(7), n(3)], 1, round=1), 2000).state  # 7 - 3 = 4
    assert GAME.outcome(state) is None  # 48 >= 47, but the card is still open for seat 1
    step = GAME.apply(state, 1, claim([n(1), n(4)], 0, round=1), 9000)  # 1 + 4 = 5
    assert step.state.data["scores"] == [48, 45]
    assert GAME.outcome(step.state).winners == [0]
    assert step.state.data["over"] == "target_reached"


def test_platform_ruling_calm_extra_time_trades_the_card_and_opens_no_window():
    hands = [[ET[0], n(1), n(1, 1), n(2), n(9)], [n(1, 2), n(4), n(5), n(5, 1), n(6)]]
    state = calm_position(players=2, hands=hands, next_numbers=(n(3),))
    step = GAME.apply(state, 0, {"type": "extra_time", "card": ET[0], "round": 1}, 2000)
    assert kinds(step.events) == ["extra_time", "drew"]
    assert step.events[0]["until"] is None
    assert step.state.data["window"] is None
    assert GAME.active(step.state) == frozenset({0, 1})  # nobody is shut out
    assert GAME.deadline(step.state) is None
    assert n(3) in step.state.data["hands"][0]
    done = GAME.apply(step.state, 0, claim([n(2), n(3)], 0, round=1), 4000)
    assert done.events[0]["elapsed_ms"] == 3000  # still from the flip


def test_platform_ruling_calm_express_ends_when_the_card_closes_never_before():
    hands = [[ET[0], n(1), n(1, 1), n(2), n(9)], [n(1, 2), n(4), n(5), n(5, 1), n(6)]]
    state = calm_position(players=2, hands=hands, stack=[n(3)])
    step = GAME.apply(state, 0, {"type": "extra_time", "card": ET[0], "round": 1}, 2000)
    assert step.state.data["numbers"] == []
    assert GAME.outcome(step.state) is None  # seat 1 is still answering
    state = GAME.apply(step.state, 1, claim([n(1, 2), n(4)], 0, round=1), 5000).state
    step = GAME.apply(state, 0, claim([n(2), n(3)], 0, round=1), 8000)
    assert step.state.data["over"] == "number_deck_empty"
    assert GAME.outcome(step.state).scores == [1, 1]


def test_platform_ruling_calm_has_no_late_claims_a_move_for_an_old_card_is_stale():
    state = calm_position(players=2)
    state = GAME.apply(state, 0, claim([n(2), n(3)], 0, round=1), 2000).state
    state = GAME.apply(state, 1, claim([n(1), n(4)], 0, round=1), 2000).state
    with pytest.raises(IllegalMove) as error:
        GAME.apply(state, 1, claim([n(5), n(6)], 1, round=1), 2100)
    assert error.value.code == "stale_round"


# --- what a seat may see -------------------------------------------------------------------------


def public_parts(state, seat, events):
    return GAME.view(state, seat), GAME.event_view(events, seat)


def test_platform_ruling_calm_nobody_sees_another_answer_before_the_card_closes():
    """Hidden twins: seat 1 answers right, answers wrong or passes. Seat 0, seat 2 and the table
    (a spectator) see the same view, and seats 0 and 2 receive the same events, in all three
    cases (the teacher, seat None in ``event_view``, receives every attempt)."""
    state = calm_position()
    twins = [
        GAME.apply(state, 1, claim([n(1), n(4)], 0, round=1), 2000),
        GAME.apply(state, 1, claim([n(1), n(5)], 0, round=1), 2000),
        GAME.apply(state, 1, {"type": "pass", "round": 1}, 2000),
    ]
    for seat in (0, 2, None):
        seen = [public_parts(step.state, seat, step.events) for step in twins]
        if seat is None:
            seen = [(view, [e for e in events if e["type"] != "attempt"]) for view, events in seen]
        assert seen[0] == seen[1] == seen[2], seat
        view, events = seen[0]
        assert events == [{"type": "answered", "seat": 1, "round": 1}]
        assert view["answered"] == [1] and view["passed"] == [] and view["hand_counts"][1] == 5
        assert not set(number_ids_in(view)) & set(HANDS3[1])
    # Seat 1 itself sees its own answer (and its attempt; the teacher too).
    own = GAME.view(twins[0].state, 1)
    assert own["answer"]["correct"] is True and own["hand_counts"][1] == 3
    assert GAME.view(twins[2].state, 1)["answer"] == {"passed": True}
    assert kinds(GAME.event_view(twins[1].events, 1)) == ["attempt", "answered"]
    assert kinds(GAME.event_view(twins[1].events, None)) == ["attempt", "answered"]
    # And when the card closes everybody learns who got it right.
    state = GAME.apply(twins[0].state, 0, PASS, 3000).state
    step = GAME.apply(state, 2, PASS, 4000)
    for seat in (0, 2, None):
        closed = of_type(GAME.event_view(step.events, seat), "card_closed")[0]
        assert closed["right"] == [1]


def test_platform_ruling_calm_cards_held_face_down_are_not_shown_to_the_others():
    state = GAME.apply(calm_position(), 0, claim([n(2), n(3)], 0, round=1), 2000).state
    twin = GAME.load(copy.deepcopy(GAME.dump(state)))
    twin.data["answers"][0]["cards"] = [n(7), n(8)]  # other cards held
    twin.data["hands"][0] = sorted([n(2), n(3), n(9)])
    for seat in (1, 2, None):
        assert GAME.view(state, seat) == GAME.view(twin, seat)


# --- bots ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["random", "easy", "strong"])
def test_platform_ruling_calm_bots_answer_and_never_close_the_card_for_a_child(level):
    rng = random.Random(7)
    for seed in range(20):
        state = GAME.new("party", 3, seed, options={**CALM, "first_player": "seat0"})
        # Seat 0 is the child, who takes their time; the bots at seats 1 and 2 answer.
        for bot in (1, 2):
            while bot in GAME.active(state):
                move = GAME.bot_move(state, bot, level, rng)
                assert move is not None  # a bot never waits where no timer moves the table on
                state = GAME.apply(state, bot, move, 5000).state
        assert GAME.active(state) == frozenset({0})
        assert state.data["round"] == 1
        step = GAME.apply(state, 0, PASS, 60_000)
        assert of_type(step.events, "card_closed")


# --- properties ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "players"), TABLE_MODES[::2])
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_property_calm_random_play_ends_conserves_cards_hides_answers_and_replays(
    variant, players, seed
):
    done = play_and_check(GAME, variant, players, seed, options=CALM)
    assert done.outcome is not None and not done.ticks
    for before in done.states:
        assert_calm_conserved(before)
        assert GAME.deadline(before) is None
    # Events: while a card is open, the others hear only that a seat answered.
    for index, (seat, move, now) in enumerate(done.steps):
        step = GAME.apply(done.states[index], seat, move, now)
        if move["type"] == "extra_time" or "card_closed" in kinds(step.events):
            continue
        for other in range(players):
            if other != seat:
                assert GAME.event_view(step.events, other) == [
                    {"type": "answered", "seat": seat, "round": done.states[index].data["round"]}
                ]
    assert_json_round_trip(GAME, done.state)
    replay(GAME, variant, players, seed, done, options=CALM)


@pytest.mark.parametrize(("variant", "players"), [("express", 3), ("party", 4), ("canada47", 2)])
def test_property_calm_bots_of_every_level_finish_and_the_same_seed_replays(variant, players):
    levels = ["random", "easy", "strong", "easy"][:players]
    for seed in range(4):
        state = GAME.new(variant, players, seed, options=CALM)
        choosers = [bot_chooser(level) for level in levels]
        done = play(GAME, state, choosers, random.Random(seed), keep_states=True)
        assert done.outcome is not None
        again = play(
            GAME, GAME.new(variant, players, seed, options=CALM), choosers, random.Random(seed)
        )
        assert GAME.dump(again.state) == GAME.dump(done.state)
        right = sum(1 for e in done.events if e["type"] == "attempt" and e["correct"])
        scored = sum(len(e["right"]) for e in done.events if e["type"] == "card_closed")
        assert right == scored > 0  # every right answer scored
        replay(GAME, variant, players, seed, done, options=CALM)


def test_random_play_at_a_calm_table_reaches_every_move_and_the_calm_events():
    moves, events = set(), set()
    for seed in range(6):
        state = fresh("party", 2, seed=seed, calm=True)
        done = play(GAME, state, [random_legal] * 2, random.Random(seed))
        assert done.outcome is not None
        moves |= {m["type"] for _, m, _ in done.moves}
        events |= {e["type"] for e in done.events}
    assert moves == set(mia.TABLE_MOVES)
    assert {"answered", "card_closed", "nobody_solved"} <= events
    assert not events & {"claim_won", "wrong_claim", "passed", "timed_out", "late_claim"}
