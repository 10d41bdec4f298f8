"""Add or Multiply? in focused practice (issue 25; docs/rules/add_or_multiply.md, "Bots in focused
practice"): the deal is fixed, so the two bots playing with one child carry the focus. The
rulebook lets them: "Each turn a player must play two of his number cards, one on each of his
opponents" (RULINGS 5: the two numbers played on a player come from the two others, who choose
freely)."""

from __future__ import annotations

import random

import pytest

import engine
from engine import bots
from engine.add_or_multiply import GAME, focus_gifts, givers
from engine.simulate import play

FOCUS = (("mul", 3, 4), ("add", 2, 5), ("mul", 6, 6))
SEEDS = range(40)


def _pairs(facts) -> set[tuple[int, int]]:
    return {tuple(sorted(fact[1:])) for fact in facts}


def _chooser(level, leave, people, checked):
    """A bot of ``level`` told ``leave`` and ``people``; every move it makes is checked legal."""

    def choose(game, state, seat, rng):
        move = bots.choose(game, state, seat, level, rng, leave=leave, people=people)
        if move is not None:
            assert move in game.legal_moves(state, seat), move
            checked.append(move)
        return move

    return choose


def _play_with_child(seed, child, level, leave, child_level="random"):
    """A game of one child (a bot of ``child_level`` playing plainly) and two bots of ``level``
    told the focus; the rounds' numbers received by the child and the bots' moves."""
    checked: list = []
    bot = _chooser(level, leave, {child}, checked)
    choosers = [_chooser(child_level, (), (), []) if seat == child else bot for seat in range(3)]
    done = play(GAME, GAME.new("standard", 3, seed, focus=leave), choosers, random.Random(seed))
    assert done.outcome is not None
    received = [tuple(sorted(entry["received"][child])) for entry in done.state.data["history"]]
    return received, checked, done


def test_the_focus_is_carried_by_the_bots_and_shows_what_two_cards_make():
    focus = GAME.focus
    assert focus is not None and focus.by_bots
    assert GAME in engine.focus_games()
    table = [(op, a, b) for op in ("add", "mul") for a in range(11) for b in range(11)]
    assert focus.dealable("standard", table) == {
        ("add", a, b) for a in range(7) for b in range(7)
    } | {("mul", a, b) for a in range(1, 7) for b in range(1, 7)}
    assert not focus.shows("standard", ("sub", 6, 2))  # no card asks for a difference
    # The deal is the rulebook's whatever the focus: the seed and the cards are untouched.
    for seed in range(5):
        assert GAME.new("standard", 3, seed, focus=FOCUS) == GAME.new("standard", 3, seed)


@pytest.mark.parametrize("level", ["easy", "strong", "random"])
def test_the_bots_play_the_childs_focus_pairs_on_the_child_markedly_more_often(level):
    wanted = _pairs(FOCUS)
    focused = plain = rounds = 0
    for seed in SEEDS:
        child = seed % 3
        with_focus, _moves, _done = _play_with_child(seed, child, level, FOCUS)
        without, _moves, _done = _play_with_child(seed, child, level, ())
        focused += sum(pair in wanted for pair in with_focus)
        plain += sum(pair in wanted for pair in without)
        rounds += len(with_focus)
    # Each bot holds one 3, 4, 5 and 6 and two 2s: enough for every round's pair to be a focus
    # fact while the bots' other numbers spare those cards (easy bots give away their smallest);
    # random ones spend some, so a little over half. Plain play gives one round in ten or fewer.
    assert focused >= 0.5 * rounds, (focused, rounds)
    assert focused >= 4 * max(plain, 1), (focused, plain)


def test_each_round_the_bots_play_one_fact_one_number_each_in_turn():
    child = 0
    received, _moves, done = _play_with_child(7, child, "easy", (("mul", 3, 4),))
    # One 3 and one 4 in each bot's hand: rounds 1 and 2 give 3 x 4 (each bot its other number
    # the second time), then their cards cannot make it and they play as their level would.
    assert received[:2] == [(3, 4), (3, 4)]
    first, _second = givers(child)
    gave = [entry["gave"] for entry in done.state.data["history"]]
    assert gave[0][first][str(child)] != gave[1][first][str(child)]
    assert all(pair != (3, 4) for pair in received[2:])
    # Several facts go in turn from the place the seed gives (seed 7: the first), one a round.
    received, _moves, _done = _play_with_child(7, child, "strong", (("mul", 3, 4), ("add", 2, 5)))
    assert received[:2] == [(3, 4), (2, 5)]


def test_a_pair_the_child_meets_as_a_focus_fact_whichever_way_they_choose_comes_first():
    """The child chooses to add or multiply in secret, at the same time as the bots give the
    numbers. When the focus holds both 4 + 5 and 4 x 5, giving 4 and 5 makes a focus fact of
    either choice; 2 + 3, first in turn, only of adding."""
    child = 0
    state = GAME.new("to_ten", 3, 5)
    focus = (("add", 2, 3), ("add", 4, 5), ("mul", 4, 5))
    gifts = focus_gifts(state, focus, {child})
    first, second = givers(child)
    assert (gifts[first], gifts[second]) == (4, 5)
    # A child who holds only multiply cards meets 4 x 5 (2 x 3 is no focus fact).
    state.data["operations"][child] = ["M"] * len(state.data["operations"][child])
    assert focus_gifts(state, focus, {child}) == {first: 4, second: 5}
    # Without such a pair, the facts still go in turn.
    assert focus_gifts(GAME.new("to_ten", 3, 5), focus[:2], {child}) == {first: 2, second: 3}


def test_a_fact_of_the_operation_the_child_holds_more_of_comes_first():
    """Of two facts that only one operation makes, the bots give first the one whose operation
    card the child holds more of (each as likely as its share of the child's cards, the strong
    bot's estimate): a child who has played a multiply card holds three adds and two multiplies.
    In turn (seed 5) 2 x 3 comes first; the old rule gave it, and the child then met a focus fact
    only if they multiplied."""
    child = 0
    first, second = givers(child)
    focus = (("mul", 2, 3), ("add", 4, 5))
    state = GAME.new("to_ten", 3, 5)
    assert focus_gifts(state, focus, {child}) == {first: 2, second: 3}  # even: in turn
    state.data["operations"][child] = ["A", "A", "A", "M", "M"]
    assert focus_gifts(state, focus, {child}) == {first: 4, second: 5}
    state.data["operations"][child] = ["A", "M", "M"]
    assert focus_gifts(state, focus, {child}) == {first: 2, second: 3}


def test_a_pair_the_child_has_met_this_game_comes_after_those_they_have_not():
    """The same pair twice in one game is massed practice, and it spends the cards another fact
    needs: a child who added in round 1 holds more multiplies, and ranked by that alone 7 x 8
    came again in round 2 (both bots then had played their 7 and 8, and 10 + 7 could not be
    given all game). Given 7 and 8 in round 1 (seed 3 starts the turn at 7 x 8), the child is
    given 10 and 7 in round 2."""
    child = 0
    focus = (("mul", 7, 8), ("add", 10, 7))
    state = GAME.new("to_ten", 3, 3, focus=focus)
    bot = _chooser("easy", focus, {child}, [])
    child_adds = _chooser("easy", (), (), [])

    def adds(game, state, seat, rng):  # the child plays an add card in round 1
        move = child_adds(game, state, seat, rng)
        return {**move, "op": "A"} if move and move["type"] == "choose" else move

    done = play(
        GAME,
        state,
        [adds, bot, bot],
        random.Random(3),
        until=lambda playthrough: playthrough.state.data["round"] == 2,
    )
    after = done.state
    assert after.data["history"][0]["received"][child] in ([7, 8], [8, 7])
    assert after.data["operations"][child].count("M") > after.data["operations"][child].count("A")
    gifts = focus_gifts(after, focus, {child})
    assert sorted(gifts.values()) == [7, 10]


def test_a_childs_games_between_them_go_through_a_focus_longer_than_five_rounds():
    """A game has five rounds. Personal practice gives a child a dozen facts or more (each game's
    set, merged); if every game started the turn at the first fact, its last facts were never
    played, a review among them stayed due for good and held its place (the practice bench found
    0 + 0 and 2 + 0 unseen for 60 days). Each game starts at its own place, from its seed, and
    the easy bots spare the numbers the focus needs most: they gave their 0 to each other in the
    first round, after which 0 + 0 could not be played. A pair with a 0 comes after the others
    while the child may multiply it (0 x n is no table fact): personal practice deals each item
    toward the facts not yet answered that day, so they come once the others are answered."""
    focus = tuple(("add", a, b) for a, b in ((2, 3), (4, 1), (5, 2), (6, 3), (7, 1), (8, 2)))
    focus += (("mul", 9, 3), ("mul", 7, 6), ("add", 0, 0), ("add", 2, 0), ("add", 1, 10))
    zeros = tuple(fact for fact in focus if 0 in fact[1:])
    child = 0
    for facts in (focus, zeros):
        met = set()
        for seed in range(20):
            bot = _chooser("easy", facts, {child}, [])
            choosers = [_chooser("easy", (), (), []), bot, bot]
            state = GAME.new("to_ten", 3, seed, focus=facts)
            done = play(GAME, state, choosers, random.Random(seed))
            history = done.state.data["history"]
            met |= {tuple(sorted(entry["received"][child])) for entry in history}
        wanted = _pairs(facts) - (_pairs(zeros) if facts == focus else set())
        assert met >= wanted, wanted - met


@pytest.mark.parametrize("level", ["easy", "strong", "random"])
def test_a_focused_bot_gives_the_other_bot_a_number_the_focus_does_not_need(level):
    """The number a bot plays on the other bot is one the child's facts need least: 0, 1 and 2
    are in 0 + 0, 1 + 0 and 2 + 0, so none is spent on a bot while a number no fact holds is
    left (the easy bot gave its smallest, the random one any, the strong one whichever its
    weighing of the scores chose)."""
    child = 0
    focus = (("add", 0, 0), ("add", 1, 0), ("add", 2, 0))
    state = GAME.new("to_ten", 3, 5)
    gifts = focus_gifts(state, focus, {child})
    for seed in range(20):
        for bot in (1, 2):
            move = bots.choose(
                GAME, state, bot, level, random.Random(seed), leave=focus, people={child}
            )
            assert move["give"][str(child)] == gifts[bot]
            other = 3 - bot
            assert move["give"][str(other)] not in (0, 1, 2), (level, seed, move)


def test_the_two_bots_make_the_same_plan_whichever_chooses_first():
    state = GAME.new("standard", 3, 3, focus=FOCUS)
    people = {2}
    gifts = focus_gifts(state, FOCUS, people)
    assert set(gifts) == {0, 1}
    first = bots.choose(GAME, state, 0, "strong", random.Random(1), leave=FOCUS, people=people)
    after = GAME.apply(state, 0, first, 10).state
    # A pending choice is secret: the second bot's plan does not read it, and is the same.
    assert focus_gifts(after, FOCUS, people) == gifts
    second = bots.choose(GAME, after, 1, "strong", random.Random(1), leave=FOCUS, people=people)
    before = bots.choose(GAME, state, 1, "strong", random.Random(1), leave=FOCUS, people=people)
    assert second == before
    assert (first["give"]["2"], second["give"]["2"]) == (gifts[0], gifts[1])


@pytest.mark.parametrize("level", ["easy", "strong", "random"])
def test_a_focused_game_replays_from_its_seed_and_focus(level):
    for seed in range(6):
        once = _play_with_child(seed, 1, level, FOCUS)[2]
        again = _play_with_child(seed, 1, level, FOCUS)[2]
        assert once.moves == again.moves and once.state == again.state


@pytest.mark.parametrize("level", ["easy", "strong", "random"])
def test_bots_play_exactly_as_before_without_focus_or_without_one_child(level):
    """No focus, no seat known to be a person's, or a table of children: the plain bot move."""
    for seed in range(8):
        anyone = _chooser("random", (), (), [])
        done = play(
            GAME, GAME.new("standard", 3, seed), [anyone] * 3, random.Random(seed), keep_states=True
        )
        for state in done.states:
            for seat in sorted(GAME.active(state)):
                plain = GAME.bot_move(state, seat, level, random.Random(seed))
                for leave, people in (((), {0}), (FOCUS, ()), (FOCUS, {0, 1}), (FOCUS, {0, 1, 2})):
                    told = bots.choose(
                        GAME, state, seat, level, random.Random(seed), leave=leave, people=people
                    )
                    assert told == plain, (leave, people)


def test_numbers_to_ten_holds_one_card_of_each_number_and_plays_five_rounds():
    """The platform's variant "numbers to 10" (docs/rules/add_or_multiply.md): one card of each
    number 0..10, the rest of the rulebook kept: five rounds, so one number card and one
    operation card of each player are never played; scores are listed up to 10 x 10."""
    state = GAME.new("to_ten", 3, 7)
    assert all(sorted(hand) == list(range(11)) for hand in state.data["numbers"])
    table = [(op, a, b) for op in ("add", "mul") for a in range(11) for b in range(11)]
    assert GAME.focus.dealable("to_ten", table) == {
        ("add", a, b) for a in range(11) for b in range(11)
    } | {("mul", a, b) for a in range(1, 11) for b in range(1, 11)}
    rng = random.Random(7)
    done = play(GAME, state, [_chooser("random", (), (), [])] * 3, rng)
    assert done.outcome is not None and len(done.state.data["history"]) == 5
    assert all(len(hand) == 1 for hand in done.state.data["numbers"])
    assert all(len(ops) == 1 for ops in done.state.data["operations"])
    scored = GAME.new("to_ten", 3, 7)
    for seat in range(3):
        move = {"type": "choose", "give": _give(seat, 10, 9), "op": "M"}
        scored = GAME.apply(scored, seat, move, 10).state
    moves = GAME.legal_moves(scored, 0)
    assert [move["value"] for move in moves] == list(range(101))


def _give(seat, left_value, right_value):
    left, right = (seat + 1) % 3, (seat + 2) % 3
    return {str(left): left_value, str(right): right_value}


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_numbers_to_ten_bots_ask_a_child_a_times_table_fact_past_six(level):
    """With numbers to 10 the bots can play 7 and 8 on the child: 7 x 8 is asked in round 1."""
    leave = (("mul", 7, 8), ("add", 10, 7))
    checked: list = []
    bot = _chooser(level, leave, {0}, checked)
    state = GAME.new("to_ten", 3, 3, focus=leave)
    done = play(GAME, state, [_chooser("random", (), (), []), bot, bot], random.Random(3))
    received = [tuple(sorted(entry["received"][0])) for entry in done.state.data["history"]]
    assert received[0] == (7, 8) and received[1] == (7, 10)
    # The standard cards cannot: the same focus leaves a standard table to plain play.
    assert GAME.focus.facts("standard", leave) == ()


def test_a_zero_the_child_may_multiply_waits_for_the_other_facts():
    """0 x n is no times-table fact (the times table starts at 1 x 1): a 0 + n fact given to a
    child who may multiply it was, in the practice bench, a fifth of Add or Multiply?'s answers
    spent on no table fact. It waits while the child holds as many multiplies as adds, and comes
    once they hold more adds."""
    child = 0
    first, second = givers(child)
    focus = (("add", 0, 5), ("add", 3, 4))
    for seed in range(6):  # wherever the turn starts, 3 + 4 comes first
        state = GAME.new("to_ten", 3, seed)
        assert focus_gifts(state, focus, {child}) == {first: 3, second: 4}
    state.data["operations"][child] = ["A", "A", "A", "M"]
    assert sorted(focus_gifts(state, focus[:1], {child}).values()) == [0, 5]


def test_with_no_focus_fact_left_to_give_the_bots_give_a_child_who_may_multiply_no_zero():
    child = 0
    first, second = givers(child)
    state = GAME.new("standard", 3, 1)
    for bot in (first, second):  # their 6s played: 6 + 6 cannot be made
        state.data["numbers"][bot] = [0, 0, 1, 2, 2, 3, 4, 5]
    gifts = focus_gifts(state, (("add", 6, 6),), {child})
    assert gifts is not None and 0 not in gifts.values()
    # A child holding adds only may have a 0: it asks 0 + n, a table fact.
    state.data["operations"][child] = ["A", "A"]
    assert focus_gifts(state, (("add", 6, 6),), {child}) is None
