"""ADD UP: one test per rule and ruling (docs/rules/add_up.md), properties, bots."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine.add_up import (
    BAD_ROW,
    CARD_NOT_IN_HAND,
    JOKER_VALUE_OUT_OF_RANGE,
    MISSING_JOKER_VALUE,
    NOT_A_JOKER,
    card_kind,
    value_range,
)
from engine.core import IllegalMove, SetupError
from engine.simulate import arena, play, random_legal
from tests.engine.helpers import play_and_check, replay

GAME = engine.get_game("add_up")
OUT_OF_RANGE = JOKER_VALUE_OUT_OF_RANGE
VARIANTS = ("standard", "no_jokers")
DECK_SIZE = {"standard": 48, "no_jokers": 36}
CASES = [(variant, players) for variant in VARIANTS for players in range(2, 7)]

WHITE = list(range(36, 42))
YELLOW = list(range(42, 48))


def num(value: int, copy: int = 0) -> int:
    """The id of a number card: 1-9, copies 0-3."""
    assert 1 <= value <= 9 and 0 <= copy <= 3
    return (value - 1) * 4 + copy


def new(variant="standard", players=2, seed=1, now_ms=0, **options):
    return GAME.new(variant=variant, players=players, seed=seed, options=options, now_ms=now_ms)


def arrange(state, *, hands, top=(), bottom=(), deck=(), captured=None, turn=0, started=0):
    """Put ``state`` in a known position. ``top``/``bottom`` take ids (face value) or
    (id, declared value) pairs; ``deck`` lists the deck bottom first, so its last card is drawn
    first."""

    def row(cards):
        return [[c, c // 4 + 1] if isinstance(c, int) else [c[0], c[1]] for c in cards]

    data = state.data
    data["hands"] = [sorted(hand) for hand in hands]
    data["top"] = row(top)
    data["bottom"] = row(bottom)
    data["deck"] = list(deck)
    data["captured"] = [list(p) for p in captured] if captured else [[] for _ in hands]
    data["turn"] = turn
    data["turn_started_ms"] = started
    return state


def play_card(state, seat, card, row, value=None, now_ms=1000):
    move = {"type": "play", "card": card, "row": row}
    if value is not None:
        move["value"] = value
    return GAME.apply(state, seat, move, now_ms)


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


def all_cards(state) -> list[int]:
    data = state.data
    cards = list(data["deck"])
    for hand in data["hands"]:
        cards.extend(hand)
    cards.extend(c for c, _ in data["top"])
    cards.extend(c for c, _ in data["bottom"])
    for pile in data["captured"]:
        cards.extend(pile)
    return cards


def assert_conserved(state) -> None:
    """Every card of the variant is in exactly one place: deck, a hand, a row or a captured pile."""
    assert sorted(all_cards(state)) == list(range(DECK_SIZE[state.variant]))


def ids_in(obj) -> set[int]:
    """Every card id a view or event shows (under an "id" key)."""
    found = set()
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key == "id":
                found.add(value)
            else:
                found |= ids_in(value)
    elif isinstance(obj, list):
        for item in obj:
            found |= ids_in(item)
    return found


def table_ids(state) -> set[int]:
    return {c for c, _ in state.data["top"]} | {c for c, _ in state.data["bottom"]}


# --- setup: rulebook and RULINGS 3 -------------------------------------------------------------


def test_ruling_standard_deck_is_48_cards_with_jokers():
    state = new("standard", 2)
    assert_conserved(state)
    kinds = [card_kind(c) for c in range(48)]
    assert kinds.count("number") == 36
    assert kinds.count("white_joker") == 6
    assert kinds.count("yellow_joker") == 6
    # 1-9 four times each; the jokers' ranges per RULINGS 3
    assert sorted(value_range(c)[0] for c in range(36)) == sorted(list(range(1, 10)) * 4)
    assert {value_range(c) for c in WHITE} == {(0, 5)}
    assert {value_range(c) for c in YELLOW} == {(10, 99)}


def test_ruling_no_jokers_option_is_the_36_number_cards():
    for seed in range(20):
        state = new("no_jokers", 3, seed=seed)
        assert_conserved(state)
        assert max(all_cards(state)) == 35


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", range(2, 7))
def test_rulebook_deal_three_each_and_two_opening_cards(variant, players):
    state = new(variant, players, seed=7)
    data = state.data
    assert [len(h) for h in data["hands"]] == [3] * players
    # Rulebook: "place two 'opening' cards face up ... one above the other"
    assert len(data["top"]) == 1 and len(data["bottom"]) == 1
    assert len(data["deck"]) == DECK_SIZE[variant] - 3 * players - 2
    assert data["captured"] == [[]] * players


def test_ruling_opening_cards_are_never_jokers_at_setup():
    for seed in range(200):
        data = new("standard", 6, seed=seed).data
        for card, value in data["top"] + data["bottom"]:
            assert card_kind(card) == "number"
            assert value == card // 4 + 1


def test_ruling_starting_seat_drawn_from_seed():
    starts = {new(players=3, seed=seed).data["turn"] for seed in range(60)}
    assert starts == {0, 1, 2}
    assert new(players=3, seed=5).data["turn"] == new(players=3, seed=5).data["turn"]


def test_ruling_first_player_option_seat0():
    assert {new(players=4, seed=s, first_player="seat0").data["turn"] for s in range(30)} == {0}


# --- setup validation ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 7, 0, "2", True])
def test_setup_rejects_bad_player_count(players):
    with pytest.raises(SetupError) as err:
        GAME.new(variant="standard", players=players, seed=1)
    assert err.value.code == "bad_players"


def test_setup_rejects_unknown_variant():
    with pytest.raises(SetupError) as err:
        GAME.new(variant="express", players=2, seed=1)
    assert err.value.code == "unknown_variant"


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"capture_plays_again": "yes"}, "bad_option"),
        ({"capture_plays_again": 1}, "bad_option"),
        ({"first_player": "youngest"}, "bad_option"),
        ({"target": 47}, "unknown_option"),
    ],
)
def test_setup_rejects_bad_options(options, code):
    with pytest.raises(SetupError) as err:
        GAME.new(variant="standard", players=2, seed=1, options=options)
    assert err.value.code == code


def test_setup_option_defaults():
    state = new()
    assert state.options == {"capture_plays_again": True, "first_player": "random"}
    assert GAME.slug == "add_up"
    assert set(GAME.variants) == {"standard", "no_jokers"}
    for variant in GAME.variants.values():
        assert (variant.min_players, variant.max_players) == (2, 6)


# --- playing a card ------------------------------------------------------------------------------


def test_rulebook_play_a_card_on_the_top_or_bottom_row():
    state = arrange(new(), hands=[[num(1), num(6)], [num(9)]], top=[num(3)], bottom=[num(5)])
    step = play_card(state, 0, num(6), "top")
    assert step.state.data["top"] == [[num(3), 3], [num(6), 6]]
    assert step.state.data["bottom"] == [[num(5), 5]]
    step = play_card(state, 0, num(1), "bottom")
    assert step.state.data["bottom"] == [[num(5), 5], [num(1), 1]]
    assert step.state.data["hands"][0] == [num(6)]


def test_rulebook_unbalanced_rows_pass_the_turn_to_the_next_player():
    state = arrange(
        new(players=3), hands=[[num(1)], [num(9)], [num(8)]], top=[num(3)], bottom=[num(5)]
    )
    step = play_card(state, 0, num(1), "bottom")
    assert step.state.data["turn"] == 1
    assert step.state.data["captured"] == [[], [], []]
    assert of_type(step.events, "turn") == [{"type": "turn", "seat": 1, "again": False}]
    assert of_type(step.events, "card_played")[0]["balanced"] is False


def test_rulebook_play_order_wraps_to_seat_zero():
    state = arrange(new(players=3), hands=[[num(1)], [num(9)], [num(8)]], turn=2, top=[num(4)])
    assert play_card(state, 2, num(8), "top").state.data["turn"] == 0


def test_rulebook_equal_sums_capture_all_table_cards():
    state = arrange(
        new(),
        hands=[[num(2), num(9)], [num(8)]],
        top=[num(3), num(4)],
        bottom=[num(5)],
        deck=[num(1, 1), num(7, 1), num(6, 1), num(9, 1)],
    )
    step = play_card(state, 0, num(2), "bottom")
    data = step.state.data
    assert sorted(data["captured"][0]) == sorted([num(3), num(4), num(5), num(2)])
    assert data["captured"][1] == []
    capture = of_type(step.events, "capture")
    assert capture == [{"type": "capture", "seat": 0, "cards": 4, "captured": 4}]
    assert_conserved_subset(step.state, 10)


def assert_conserved_subset(state, expected_count):
    """For arranged positions: no card is lost or duplicated by a move."""
    cards = all_cards(state)
    assert len(cards) == len(set(cards)) == expected_count


def test_ruling_two_new_opening_cards_after_a_capture():
    state = arrange(
        new(),
        hands=[[num(2), num(9)], [num(8)]],
        top=[num(3), num(4)],
        bottom=[num(5)],
        deck=[num(1, 1), num(7, 1), num(6, 1), num(9, 1)],
    )
    step = play_card(state, 0, num(2), "bottom")
    data = step.state.data
    # The deck's top card opens the top row, the next the bottom row, then the player draws.
    assert data["top"] == [[num(9, 1), 9]]
    assert data["bottom"] == [[num(6, 1), 6]]
    # Back to 3 cards: the 9 kept plus the two cards left in the deck.
    assert data["hands"][0] == sorted([num(9), num(7, 1), num(1, 1)])
    assert data["deck"] == []
    openings = of_type(step.events, "opening_card")
    assert [(e["row"], e["card"]["id"]) for e in openings] == [
        ("top", num(9, 1)),
        ("bottom", num(6, 1)),
    ]


def test_ruling_opening_joker_goes_to_the_bottom_of_the_deck():
    deck = [num(1, 1), num(2, 1), num(3, 1), YELLOW[0], WHITE[0]]
    state = arrange(
        new(),
        hands=[[num(2), num(8, 1), num(9, 1)], [num(8)]],
        top=[num(7)],
        bottom=[num(5)],
        deck=deck,
    )
    step = play_card(state, 0, num(2), "bottom")
    data = step.state.data
    assert data["top"] == [[num(3, 1), 3]]
    assert data["bottom"] == [[num(2, 1), 2]]
    # Both jokers went under the deck; the player then drew the number card left on top.
    assert data["hands"][0] == [num(1, 1), num(8, 1), num(9, 1)]
    assert data["deck"] == [YELLOW[0], WHITE[0]]
    returned = of_type(step.events, "opening_joker_to_bottom")
    assert returned == [
        {"type": "opening_joker_to_bottom", "kind": "white_joker"},
        {"type": "opening_joker_to_bottom", "kind": "yellow_joker"},
    ]


def test_decision_no_opening_card_when_only_jokers_are_left():
    state = arrange(
        new(), hands=[[num(2)], [num(8)]], top=[num(7)], bottom=[num(5)], deck=[WHITE[1], YELLOW[1]]
    )
    step = play_card(state, 0, num(2), "bottom")
    data = step.state.data
    assert data["top"] == [] and data["bottom"] == []
    assert of_type(step.events, "opening_card") == []
    # The jokers stay in the deck for the players to draw.
    assert data["hands"][0] == [WHITE[1], YELLOW[1]]
    assert data["deck"] == []


def test_decision_a_single_card_left_opens_the_top_row_alone():
    state = arrange(
        new(), hands=[[num(2)], [num(8)]], top=[num(7)], bottom=[num(5)], deck=[num(4, 2)]
    )
    data = play_card(state, 0, num(2), "bottom").state.data
    assert data["top"] == [[num(4, 2), 4]]
    assert data["bottom"] == []
    assert data["hands"][0] == []


def test_rulebook_draw_back_to_three_at_once():
    state = arrange(
        new(),
        hands=[[num(1), num(6), num(8)], [num(9)]],
        top=[num(3)],
        bottom=[num(5)],
        deck=[num(2, 3), num(4, 3)],
    )
    step = play_card(state, 0, num(1), "top")
    data = step.state.data
    assert data["hands"][0] == sorted([num(6), num(8), num(4, 3)])
    assert data["deck"] == [num(2, 3)]
    # The draw is announced without naming the card (hidden information).
    drew = of_type(step.events, "drew")
    assert drew == [{"type": "drew", "seat": 0, "count": 1, "deck_count": 1}]
    assert num(4, 3) not in ids_in(step.events)


def test_ruling_capture_then_same_player_plays_again_by_default():
    state = arrange(
        new(),
        hands=[[num(2), num(9)], [num(8)]],
        top=[num(7)],
        bottom=[num(5)],
        deck=[num(1, 1), num(7, 1), num(6, 1)],
    )
    step = play_card(state, 0, num(2), "bottom")
    assert step.state.data["turn"] == 0
    assert GAME.active(step.state) == frozenset({0})
    assert of_type(step.events, "turn") == [{"type": "turn", "seat": 0, "again": True}]


def test_ruling_capture_play_passes_on_option():
    state = arrange(
        new(capture_plays_again=False),
        hands=[[num(2), num(9)], [num(8)]],
        top=[num(7)],
        bottom=[num(5)],
        deck=[num(1, 1), num(7, 1), num(6, 1)],
    )
    step = play_card(state, 0, num(2), "bottom")
    assert step.state.data["turn"] == 1
    assert of_type(step.events, "turn") == [{"type": "turn", "seat": 1, "again": False}]


def test_ruling_capture_with_last_card_passes_on_even_when_playing_again():
    state = arrange(new(players=3), hands=[[num(2)], [], [num(8)]], top=[num(7)], bottom=[num(5)])
    step = play_card(state, 0, num(2), "bottom")
    assert step.state.data["turn"] == 2


def test_ruling_white_joker_counts_0_to_5_declared_by_its_player():
    state = arrange(new(), hands=[[WHITE[0], num(9)], [num(8)]], top=[num(7)], bottom=[num(5)])
    step = play_card(state, 0, WHITE[0], "bottom", value=2)
    assert sorted(step.state.data["captured"][0]) == sorted([num(7), num(5), WHITE[0]])
    played = of_type(step.events, "card_played")[0]
    assert played["card"] == {"id": WHITE[0], "kind": "white_joker", "value": 2}
    for value in (0, 5):
        data = play_card(state, 0, WHITE[0], "top", value=value).state.data
        assert data["top"][-1] == [WHITE[0], value]
    for value in (-1, 6):
        with pytest.raises(IllegalMove) as err:
            play_card(state, 0, WHITE[0], "top", value=value)
        assert err.value.code == JOKER_VALUE_OUT_OF_RANGE


def test_ruling_yellow_joker_counts_10_to_99_declared_by_its_player():
    state = arrange(new(), hands=[[YELLOW[0], num(9)], [num(8)]], top=[num(8)], bottom=[num(5)])
    for value in (10, 99):
        data = play_card(state, 0, YELLOW[0], "bottom", value=value).state.data
        assert data["bottom"][-1] == [YELLOW[0], value]
    for value in (9, 100):
        with pytest.raises(IllegalMove) as err:
            play_card(state, 0, YELLOW[0], "bottom", value=value)
        assert err.value.code == JOKER_VALUE_OUT_OF_RANGE
    # A yellow joker balances a difference of 10 or more.
    state = arrange(
        new(), hands=[[YELLOW[0]], [num(8)]], top=[num(9), num(8)], bottom=[num(5)], deck=[]
    )
    step = play_card(state, 0, YELLOW[0], "bottom", value=12)
    assert len(step.state.data["captured"][0]) == 4


def test_decision_zero_on_equal_rows_captures():
    state = arrange(new(), hands=[[WHITE[2], num(1)], [num(8)]], top=[num(4)], bottom=[num(4, 1)])
    step = play_card(state, 0, WHITE[2], "top", value=0)
    assert sorted(step.state.data["captured"][0]) == sorted([num(4), num(4, 1), WHITE[2]])
    # Any other card on equal rows unbalances them.
    step = play_card(state, 0, num(1), "top")
    assert step.state.data["captured"][0] == []


# --- the end of the game -------------------------------------------------------------------------


def test_ruling_empty_deck_no_more_drawing_hands_played_out():
    state = arrange(
        new(players=3),
        hands=[[num(1), num(2)], [], [num(8)]],
        top=[num(9)],
        bottom=[num(3)],
    )
    step = play_card(state, 0, num(1), "top")
    data = step.state.data
    assert data["hands"][0] == [num(2)]
    assert of_type(step.events, "drew") == []
    # Seat 1 has nothing left to play: the turn goes to seat 2.
    assert data["turn"] == 2


def test_ruling_empty_deck_no_opening_cards_after_a_capture():
    state = arrange(new(), hands=[[num(2), num(6)], [num(8)]], top=[num(7)], bottom=[num(5)])
    step = play_card(state, 0, num(2), "bottom")
    data = step.state.data
    assert data["top"] == [] and data["bottom"] == []
    assert of_type(step.events, "opening_card") == []
    assert data["turn"] == 0  # plays again onto the empty table


def test_event_deck_empty_announced_once():
    state = arrange(
        new(), hands=[[num(1), num(6)], [num(9)]], top=[num(3)], bottom=[num(5)], deck=[num(7)]
    )
    step = play_card(state, 0, num(1), "top")
    assert of_type(step.events, "deck_empty") == [{"type": "deck_empty"}]
    step = play_card(step.state, 1, num(9), "top")
    assert of_type(step.events, "deck_empty") == []


def test_ruling_game_ends_when_all_hands_are_empty_and_table_scores_for_nobody():
    state = arrange(
        new(players=3),
        hands=[[num(1)], [], []],
        top=[num(9)],
        bottom=[num(3)],
        captured=[[num(5)], [num(6), num(6, 1)], [num(7)]],
    )
    assert GAME.outcome(state) is None
    step = play_card(state, 0, num(1), "top")
    outcome = GAME.outcome(step.state)
    assert outcome.scores == [1, 2, 1]
    assert outcome.winners == [1]
    assert GAME.active(step.state) == frozenset()
    assert GAME.legal_moves(step.state, 0) == []
    assert of_type(step.events, "game_over") == [
        {"type": "game_over", "scores": [1, 2, 1], "winners": [1], "table_left": 3}
    ]
    with pytest.raises(IllegalMove) as err:
        play_card(step.state, 0, num(1), "top")
    assert err.value.code == "game_over"


def test_ruling_most_captured_cards_wins_ties_share():
    state = arrange(
        new(),
        hands=[[num(2)], []],
        top=[num(7)],
        bottom=[num(5)],
        captured=[[num(1)], [num(6), num(6, 1), num(8), num(9)]],
    )
    # Seat 0 captures 3 cards with its last card: 4 each, both win.
    outcome = GAME.outcome(play_card(state, 0, num(2), "bottom").state)
    assert outcome.scores == [4, 4]
    assert outcome.winners == [0, 1]


# --- attempts (RULINGS 3) ------------------------------------------------------------------------


def attempt_position(now_ms=0, hand=None):
    """Top 3 + 4 = 7, bottom 5: the difference is 2; the hand holds a 2 and a 9 by default."""
    return arrange(
        new(now_ms=now_ms),
        hands=[list(hand or (num(2), num(9))), [num(8)]],
        top=[num(3), num(4)],
        bottom=[num(5)],
        deck=[num(1, 1), num(7, 1), num(6, 1), num(9, 1)],
        started=now_ms,
    )


def test_ruling_attempt_right_when_the_player_balances():
    step = play_card(attempt_position(now_ms=1000), 0, num(2), "bottom", now_ms=3500)
    assert of_type(step.events, "attempt") == [
        {
            "type": "attempt",
            "seat": 0,
            "operands": [7, 5],
            "operator": "-",
            "answer": 2,
            "expected": 2,
            "correct": True,
            "elapsed_ms": 2500,
            "skill": "sub.within10",
            "row": "bottom",
        }
    ]
    assert step.events[0]["type"] == "attempt"


def test_ruling_attempt_wrong_when_a_balancing_card_was_held_but_not_balanced():
    step = play_card(attempt_position(), 0, num(9), "bottom", now_ms=4000)
    (attempt,) = of_type(step.events, "attempt")
    assert (attempt["answer"], attempt["expected"], attempt["correct"]) == (9, 2, False)
    assert attempt["skill"] == "sub.within10"
    assert attempt["elapsed_ms"] == 4000


def test_decision_attempt_answer_is_negative_on_the_bigger_row():
    step = play_card(attempt_position(), 0, num(2), "top")
    (attempt,) = of_type(step.events, "attempt")
    assert (attempt["answer"], attempt["expected"], attempt["correct"]) == (-2, 2, False)
    assert attempt["row"] == "top"


def test_ruling_no_attempt_without_a_balancing_card():
    step = play_card(attempt_position(hand=(num(1), num(9))), 0, num(9), "bottom")
    assert of_type(step.events, "attempt") == []


def test_ruling_attempt_with_a_joker_that_could_balance():
    state = attempt_position(hand=(WHITE[0], num(9)))
    right = of_type(play_card(state, 0, WHITE[0], "bottom", value=2).events, "attempt")[0]
    assert (right["answer"], right["expected"], right["correct"]) == (2, 2, True)
    wrong = of_type(play_card(state, 0, WHITE[0], "bottom", value=3).events, "attempt")[0]
    assert (wrong["answer"], wrong["expected"], wrong["correct"]) == (3, 2, False)
    # Playing another card while holding the joker is a wrong attempt too.
    other = of_type(play_card(state, 0, num(9), "top").events, "attempt")[0]
    assert (other["answer"], other["correct"]) == (-9, False)


def test_ruling_attempt_with_a_yellow_joker_is_a_bigger_subtraction():
    state = arrange(
        new(), hands=[[YELLOW[3], num(1)], [num(8)]], top=[num(9), num(8)], bottom=[num(5)]
    )
    (attempt,) = of_type(play_card(state, 0, YELLOW[3], "bottom", value=12).events, "attempt")
    assert attempt["operands"] == [17, 5]
    assert (attempt["answer"], attempt["expected"], attempt["correct"]) == (12, 12, True)
    assert attempt["skill"] == "sub.within20"


def test_ruling_attempt_on_equal_rows_expects_zero():
    state = arrange(new(), hands=[[WHITE[2], num(1)], [num(8)]], top=[num(4)], bottom=[num(4, 1)])
    (right,) = of_type(play_card(state, 0, WHITE[2], "bottom", value=0).events, "attempt")
    assert (right["operands"], right["answer"], right["expected"], right["correct"]) == (
        [4, 4],
        0,
        0,
        True,
    )
    (wrong,) = of_type(play_card(state, 0, num(1), "bottom").events, "attempt")
    assert (wrong["answer"], wrong["correct"]) == (1, False)


def test_ruling_attempt_time_counts_from_when_the_turn_began():
    state = arrange(
        new(), hands=[[num(1)], [num(2)]], top=[num(6)], bottom=[num(3)], deck=[num(9, 3)]
    )
    first = play_card(state, 0, num(1), "bottom", now_ms=5000)  # difference now 2
    assert first.state.data["turn_started_ms"] == 5000
    (attempt,) = of_type(play_card(first.state, 1, num(2), "bottom", now_ms=7250).events, "attempt")
    assert attempt["elapsed_ms"] == 2250
    assert attempt["correct"] is True


# --- structural errors ---------------------------------------------------------------------------


def illegal_position():
    return arrange(
        new(),
        hands=[[num(2), WHITE[0], YELLOW[0]], [num(8)]],
        top=[num(7)],
        bottom=[num(5)],
        deck=[num(1, 1), num(1, 2)],
    )


@pytest.mark.parametrize(
    ("seat", "move", "code"),
    [
        (0, {"type": "play", "card": num(8), "row": "top"}, CARD_NOT_IN_HAND),
        (0, {"type": "play", "card": 99, "row": "top"}, CARD_NOT_IN_HAND),
        (0, {"type": "play", "card": num(2), "row": "middle"}, BAD_ROW),
        (0, {"type": "play", "card": num(2)}, BAD_ROW),
        (0, {"type": "play", "card": WHITE[0], "row": "top"}, MISSING_JOKER_VALUE),
        (0, {"type": "play", "card": WHITE[0], "row": "top", "value": 6}, JOKER_VALUE_OUT_OF_RANGE),
        (
            0,
            {"type": "play", "card": YELLOW[0], "row": "top", "value": 5},
            JOKER_VALUE_OUT_OF_RANGE,
        ),
        (0, {"type": "play", "card": num(2), "row": "top", "value": 3}, NOT_A_JOKER),
        (0, {"type": "play", "card": "2", "row": "top"}, "malformed"),
        (0, {"type": "play", "card": True, "row": "top"}, "malformed"),
        (0, {"type": "play", "card": WHITE[0], "row": "top", "value": "2"}, "malformed"),
        (0, {"type": "play", "card": WHITE[0], "row": "top", "value": 2.0}, "malformed"),
        (0, {"card": num(2), "row": "top"}, "malformed"),
        (0, ["play"], "malformed"),
        (0, {"type": "claim", "card": num(2), "row": "top"}, "unknown_move"),
        (1, {"type": "play", "card": num(8), "row": "top"}, "not_active"),
        (2, {"type": "play", "card": num(8), "row": "top"}, "bad_seat"),
        (-1, {"type": "play", "card": num(8), "row": "top"}, "bad_seat"),
    ],
)
def test_illegal_moves_raise_stable_codes_and_leave_the_state_untouched(seat, move, code):
    state = illegal_position()
    before = GAME.dump(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, seat, move, 1000)
    assert err.value.code == code
    assert GAME.dump(state) == before


def test_number_card_may_repeat_its_own_value():
    state = illegal_position()
    step = GAME.apply(state, 0, {"type": "play", "card": num(2), "row": "bottom", "value": 2}, 0)
    assert len(step.state.data["captured"][0]) == 3


def test_apply_is_pure_and_bumps_the_version():
    state = illegal_position()
    before = GAME.dump(state)
    step = play_card(state, 0, num(2), "bottom")
    assert GAME.dump(state) == before
    assert step.state.version == state.version + 1


# --- legal moves, views, hints -------------------------------------------------------------------


def test_legal_moves_list_every_card_row_and_joker_value():
    state = illegal_position()
    moves = GAME.legal_moves(state, 0)
    # number card: 2 rows; white joker: 6 values x 2 rows; yellow joker: 90 values x 2 rows
    assert len(moves) == 2 + 12 + 180
    assert {"type": "play", "card": num(2), "row": "top"} in moves
    assert {"type": "play", "card": WHITE[0], "row": "bottom", "value": 0} in moves
    assert {"type": "play", "card": YELLOW[0], "row": "top", "value": 99} in moves
    assert GAME.legal_moves(state, 1) == []
    for move in moves[:20] + moves[-5:]:
        GAME.apply(state, 0, move, 0)  # every listed move is accepted


def test_view_shows_own_hand_and_only_counts_of_others():
    state = arrange(
        new(players=3),
        hands=[[num(2), WHITE[0]], [num(8), YELLOW[1]], [num(9)]],
        top=[num(7), (YELLOW[0], 12)],
        bottom=[num(5)],
        deck=[num(1, 1), num(1, 2)],
        captured=[[num(3)], [], [num(4), num(4, 1)]],
        turn=1,
        started=400,
    )
    view = GAME.view(state, 0)
    assert view["hand"] == [
        {"id": num(2), "kind": "number", "value": 2, "min": 2, "max": 2},
        {"id": WHITE[0], "kind": "white_joker", "value": None, "min": 0, "max": 5},
    ]
    assert view["top"] == [
        {"id": num(7), "kind": "number", "value": 7},
        {"id": YELLOW[0], "kind": "yellow_joker", "value": 12},
    ]
    assert view["bottom"] == [{"id": num(5), "kind": "number", "value": 5}]
    assert (view["top_sum"], view["bottom_sum"]) == (19, 5)
    assert view["hand_counts"] == [2, 2, 1]
    assert view["captured_counts"] == [1, 0, 2]
    assert view["deck_count"] == 2
    assert view["turn"] == 1 and view["active"] == [1]
    assert view["turn_started_ms"] == 400
    shown = ids_in(view)
    assert shown == {num(2), WHITE[0], num(7), YELLOW[0], num(5)}
    for hidden in (num(8), YELLOW[1], num(9), num(1, 1), num(1, 2)):
        assert hidden not in shown
    spectator = GAME.view(state, None)
    assert spectator["hand"] is None
    assert ids_in(spectator) == {num(7), YELLOW[0], num(5)}
    assert "deck" not in view and "rng" not in view


def test_hint_gives_a_balancing_move_preferring_a_number_card():
    state = attempt_position(hand=(WHITE[0], num(2), num(9)))
    assert GAME.hint(state, 0) == {"type": "play", "card": num(2), "row": "bottom"}
    state = attempt_position(hand=(WHITE[0], num(9)))
    assert GAME.hint(state, 0) == {"type": "play", "card": WHITE[0], "row": "bottom", "value": 2}
    assert GAME.hint(attempt_position(hand=(num(1), num(9))), 0) is None
    assert GAME.hint(state, 1) is None


# --- bots ----------------------------------------------------------------------------------------


def test_bot_easy_balances_when_it_can():
    state = attempt_position(hand=(num(9), num(2)))
    assert GAME.bot_move(state, 0, "easy", random.Random(1)) == {
        "type": "play",
        "card": num(2),
        "row": "bottom",
    }


def test_bot_easy_otherwise_plays_its_smallest_card_on_the_smaller_row():
    state = attempt_position(hand=(num(9), num(4), YELLOW[0]))
    assert GAME.bot_move(state, 0, "easy", random.Random(1)) == {
        "type": "play",
        "card": num(4),
        "row": "bottom",
    }


def test_bot_strong_captures_with_a_number_card_before_a_joker():
    state = attempt_position(hand=(WHITE[0], num(2)))
    assert GAME.bot_move(state, 0, "strong", random.Random(1))["card"] == num(2)


def test_bot_strong_leaves_a_difference_few_unseen_cards_can_balance():
    # Top 6 + 6 + 1 = 13, bottom 6: difference 7. Every 6 has been seen (table, captured pile),
    # and no white joker counts as 6, so making the difference 6 leaves nothing to balance it.
    state = arrange(
        new(),
        hands=[[num(1), num(2), num(3)], [num(8)]],
        top=[num(6), num(6, 1), num(1, 1)],
        bottom=[num(6, 2)],
        deck=[num(9)],
        captured=[[], [num(6, 3)]],
    )
    assert GAME.bot_move(state, 0, "strong", random.Random(1)) == {
        "type": "play",
        "card": num(1),
        "row": "bottom",
    }
    # With 2, 5 and 9 in hand the easy bot plays its smallest card on the smaller row, leaving a
    # difference of 5 (three unseen 5s and six white jokers can balance it); the strong bot leaves
    # 9, which only the three unseen 9s balance.
    state.data["hands"][0] = [num(2), num(5), num(9, 1)]
    strong = GAME.bot_move(state, 0, "strong", random.Random(1))
    easy = GAME.bot_move(state, 0, "easy", random.Random(1))
    assert easy == {"type": "play", "card": num(2), "row": "bottom"}
    assert strong == {"type": "play", "card": num(2), "row": "top"}


@pytest.mark.parametrize("level", ["random", "easy", "strong"])
def test_bots_return_none_when_not_their_turn(level):
    assert GAME.bot_move(illegal_position(), 1, level, random.Random(0)) is None


@pytest.mark.parametrize("variant", VARIANTS)
def test_bot_strong_beats_random_in_the_arena(variant):
    shares = arena(GAME, variant, ["strong", "random"], 40)
    assert shares["strong"] >= 0.65
    assert shares["strong"] > shares["random"] + 0.3


def test_bot_strong_beats_easy_in_the_arena():
    shares = arena(GAME, "standard", ["strong", "easy"], 40)
    assert shares["strong"] > shares["easy"]


@given(seed=st.integers(0, 2**31), case=st.sampled_from(CASES))
def test_property_bots_choose_legal_moves_without_touching_the_state(seed, case):
    variant, players = case
    state = new(variant, players, seed=seed)
    rng = random.Random(seed)
    levels = ["random", "easy", "strong"]
    while GAME.outcome(state) is None:
        (seat,) = GAME.active(state)
        before = GAME.dump(state)
        legal = GAME.legal_moves(state, seat)
        for level in levels:
            assert GAME.bot_move(state, seat, level, rng) in legal
        hint = GAME.hint(state, seat)
        assert hint is None or hint in legal
        assert GAME.dump(state) == before
        move = GAME.bot_move(state, seat, rng.choice(levels), rng)
        state = GAME.apply(state, seat, move, 0).state


# --- properties over every variant and player count ----------------------------------------------


@pytest.mark.parametrize(("variant", "players"), CASES)
@given(seed=st.integers(0, 2**31), plays_again=st.booleans())
def test_property_random_play_ends_conserves_cards_and_never_leaks(
    variant, players, seed, plays_again
):
    options = {"capture_plays_again": plays_again}
    done = play_and_check(GAME, variant, players, seed, options)
    replay(GAME, variant, players, seed, done, options)
    state = GAME.new(variant=variant, players=players, seed=seed, options=options)
    assert_conserved(state)
    for seat, move, now in done.moves:
        step = GAME.apply(state, seat, move, now)
        state = step.state
        assert_conserved(state)
        data = state.data
        on_table = table_ids(state)
        hidden = set(data["deck"])
        for hand in data["hands"]:
            hidden |= set(hand)
        # Events go to every seat: no card still hidden (in the deck or a hand) is named.
        assert not ids_in(step.events) & hidden
        for viewer in range(players):
            shown = ids_in(GAME.view(state, viewer))
            assert shown <= on_table | set(data["hands"][viewer])
            for other in range(players):
                if other != viewer:
                    assert not shown & set(data["hands"][other])
        assert ids_in(GAME.view(state, None)) <= on_table
    assert GAME.dump(state) == GAME.dump(done.state)
    # At the end every card is either captured or left on the table.
    outcome = GAME.outcome(state)
    assert sum(outcome.scores) + len(table_ids(state)) == DECK_SIZE[variant]
    assert all(not hand for hand in state.data["hands"]) and state.data["deck"] == []


@given(seed=st.integers(0, 2**31), case=st.sampled_from(CASES), data=st.data())
def test_property_illegal_moves_leave_the_input_untouched(seed, case, data):
    variant, players = case
    done = play(
        GAME,
        new(variant, players, seed=seed),
        [random_legal] * players,
        random.Random(seed),
        keep_states=True,
    )
    state = data.draw(st.sampled_from(done.states[:-1]))
    (seat,) = GAME.active(state)
    other_seat = (seat + 1) % players
    held = state.data["hands"][seat]
    not_held = [c for c in range(DECK_SIZE[variant]) if c not in held]
    card = data.draw(st.sampled_from(held))
    too_big = NOT_A_JOKER if card_kind(card) == "number" else JOKER_VALUE_OUT_OF_RANGE
    candidates = [
        (
            {"type": "play", "card": data.draw(st.sampled_from(not_held)), "row": "top"},
            CARD_NOT_IN_HAND,
        ),
        ({"type": "play", "card": card, "row": "side"}, BAD_ROW),
        ({"type": "play", "card": card, "row": "top", "value": [1]}, "malformed"),
        ({"type": "play", "row": "top"}, "malformed"),
        ({"type": "play", "card": card, "row": "top", "value": 100}, too_big),
        ({"type": "pass"}, "unknown_move"),
    ]
    move, code = data.draw(st.sampled_from(candidates))
    acting = data.draw(st.sampled_from([seat, other_seat]))
    if acting != seat and move["type"] == "play":
        code = "not_active"  # the turn is checked before the move's contents
    before = GAME.dump(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, acting, move, 0)
    assert err.value.code == code
    assert GAME.dump(state) == before
