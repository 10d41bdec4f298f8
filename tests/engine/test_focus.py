"""Focused deals (``Game.focus``): a deal biased toward a child's facts stays a legal, seeded deal
of the rulebook, and the focus facts are its natural moves (docs/adding-a-game.md)."""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest

import engine
from engine import mia_puzzles, mia_solo, mia_solver
from engine.core import FACT_OPERATIONS, SetupError, attempt_fact, same_fact
from engine.simulate import bot_chooser, play, random_legal
from tests.engine.helpers import assert_json_round_trip, assert_no_secret_keys

# Per focus game: a table, the facts a child practises there, and how many of the first answers
# of a game the share is taken over (the opening moves the deal steers).
TABLES = {
    "mia": ("express", 3, (("add", 3, 4), ("sub", 9, 4), ("add", 5, 6)), 4),
    "sum": ("standard", 3, (("add", 2, 5), ("sub", 8, 3), ("mul", 2, 3)), 2),
    "add_up": ("standard", 3, (("sub", 9, 2), ("sub", 7, 3)), 3),
    "mathable_junior": ("front", 3, (("add", 3, 4), ("sub", 4, 2)), 2),
}
SEEDS = range(50)
PAIRS_TO_TEN = [(a, b) for a in range(11) for b in range(11)]


def _all_cards(game, state) -> dict[str, Counter]:
    """Every card (tile) of the deal, wherever it lies, per deck: a focused deal holds the same."""
    data = state.data
    if game.slug == "mia" and state.variant in mia_solo.VARIANTS:
        # The square is a selection of the 1-point cards (RULINGS 1 Solo): a focus steers which.
        grid = data["grid"]
        return {
            "numbers": Counter(data["hand"] + data["deck"]),
            "square": len(set(grid)) == len(grid) == data["size"] ** 2
            and set(grid) <= set(mia_solo.solo_operation_ids()),
        }
    if game.slug == "mia":
        hands = [card for hand in data["hands"] for card in hand]
        return {
            "numbers": Counter(hands + data["numbers"] + data["number_discard"]),
            "operations": Counter(
                data["operations"] + data["pile"] + data["mirrors"] + data["operation_discard"]
            ),
        }
    if game.slug == "sum":
        hands = [card for hand in data["hands"] for card in hand]
        return {"cards": Counter([*hands, *data["numbers"], *data["operations"], data["centre"]])}
    if game.slug == "add_up":
        hands = [card for hand in data["hands"] for card in hand]
        rows = [card for card, _value in data["top"] + data["bottom"]]
        return {"cards": Counter(hands + data["deck"] + rows)}
    racks = [tile for rack in data["racks"] for tile in rack]
    return {"tiles": Counter(racks + data["pot"] + [t for t in data["board"] if t])}


def _first_attempts(game, state, count: int, seed: int) -> list[tuple]:
    """The facts of the first ``count`` attempts of a table of easy bots (right, plain play):
    the natural moves of the deal."""

    def facts_of(playthrough) -> list:
        return [attempt_fact(e) for e in playthrough.events if e.get("type") == "attempt"]

    played = play(
        game,
        state,
        [bot_chooser("easy")] * state.players,
        random.Random(seed),
        until=lambda playthrough: len(facts_of(playthrough)) >= count,
    )
    return facts_of(played)[:count]


def _share(facts: list, focus) -> float:
    return sum(f is not None and any(same_fact(f, w) for w in focus) for f in facts) / len(facts)


def _clearly_above(focused: float, unfocused: float, n_focused: int, n_unfocused: int) -> bool:
    """The focused share is above the unfocused one by more than three standard errors of their
    difference (each share's own binomial spread), and at least twice it."""
    spread = math.sqrt(
        focused * (1 - focused) / n_focused + unfocused * (1 - unfocused) / n_unfocused
    )
    return focused - unfocused > 3 * max(spread, 1 / n_focused) and focused >= 2 * unfocused


def test_focus_games_are_the_games_that_declare_a_focus():
    slugs = [game.slug for game in engine.focus_games() if not game.focus.by_bots]
    assert slugs == list(TABLES)
    # Add or Multiply?'s deal is fixed: its bots carry the focus (test_add_or_multiply_focus).
    assert [game.slug for game in engine.focus_games() if game.focus.by_bots] == ["add_or_multiply"]
    for game in engine.focus_games():
        assert game.focus.operations <= {"add", "sub", "mul"}
        assert set(game.focus.variants) <= set(game.variants)


def test_a_game_that_cannot_be_biased_refuses_a_focus():
    game = engine.get_game("add_or_multiply")
    mathable = engine.get_game("mathable_junior")
    with pytest.raises(SetupError) as refused:
        mathable.new("back", 2, 1, focus=[("add", 1, 2)])
    assert refused.value.code == "no_focus"
    # No focus at all is every game's ordinary deal.
    assert game.new("standard", 3, 1, focus=[]) == game.new("standard", 3, 1)


@pytest.mark.parametrize(
    "focus",
    [[("mul", 3, 4)], [("div", 8, 2)], [("add", 3)], [("add", 3, "4")], "add", 7],
)
def test_a_focus_that_is_not_a_list_of_facts_the_game_can_steer_is_refused(focus):
    with pytest.raises(SetupError) as refused:
        engine.get_game("mia").new("express", 2, 1, focus=focus)
    assert refused.value.code == "bad_focus"


@pytest.mark.parametrize("slug", TABLES)
def test_no_focus_and_facts_the_deck_cannot_show_deal_exactly_as_before(slug):
    game = engine.get_game(slug)
    variant, players, _focus, _count = TABLES[slug]
    unshowable = [("add", 60, 70)] if slug != "add_up" else [("sub", 2, 9)]
    for seed in range(10):
        plain = game.new(variant, players, seed)
        assert game.new(variant, players, seed, focus=None) == plain
        assert game.new(variant, players, seed, focus=[]) == plain
        assert game.new(variant, players, seed, focus=unshowable) == plain


@pytest.mark.parametrize("slug", TABLES)
def test_a_focused_deal_is_seeded(slug):
    game = engine.get_game(slug)
    variant, players, focus, _count = TABLES[slug]
    deals = [game.new(variant, players, seed, focus=focus) for seed in range(20)]
    again = [game.new(variant, players, seed, focus=list(focus)) for seed in range(20)]
    assert deals == again
    dumps = {json.dumps(game.dump(state)["data"], sort_keys=True) for state in deals}
    assert len(dumps) >= 18  # another seed, usually another deal
    other_focus = game.new(variant, players, 0, focus=focus[1:] + focus[:1])
    assert other_focus.data != deals[0].data or len(focus) == 1


def _focused_tables():
    for slug, (variant, players, focus, _count) in TABLES.items():
        yield slug, variant, players, focus
    yield "mia", "party", 6, TABLES["mia"][2]
    yield "mia", "canada47", 2, (("sub", 8, 1),)
    yield "mia", "solo5", 1, TABLES["mia"][2]
    yield "mia", "solo3", 1, (("add", 4, 4),)
    yield "sum", "standard", 6, (("mul", 3, 3),)
    yield "add_up", "no_jokers", 2, TABLES["add_up"][2]
    yield "mathable_junior", "front", 4, (("add", 1, 2), ("sub", 3, 1), ("add", 2, 4))


@pytest.mark.parametrize("slug,variant,players,focus", list(_focused_tables()))
def test_a_focused_deal_is_a_legal_deal_of_the_same_cards_played_to_the_end(
    slug, variant, players, focus
):
    game = engine.get_game(slug)
    for seed in range(8):
        focused = game.new(variant, players, seed, focus=focus)
        plain = game.new(variant, players, seed)
        assert _all_cards(game, focused) == _all_cards(game, plain)
        assert focused.rng != plain.rng or focused.data != plain.data
        done = play(game, focused, [random_legal] * players, random.Random(seed))
        assert done.outcome is not None
        assert_json_round_trip(game, done.state)
        for seat in range(players):
            assert_no_secret_keys(game.view(focused, seat))


@pytest.mark.parametrize(
    "slug,variant,players", [table[:3] for table in _focused_tables()], ids=str
)
def test_a_deal_focused_on_a_childs_whole_set_is_a_seeded_legal_deal_of_the_same_cards(
    slug, variant, players
):
    """A child's working set for several games, merged, steers each deal with every fact the
    game can show: up to 33 facts for three games (11 each), not a handful. The engine kept the
    first 12 of a focus and dropped the rest."""
    game = engine.get_game(slug)
    every_fact = [(operation, a, b) for operation in FACT_OPERATIONS for a, b in PAIRS_TO_TEN]
    shown = sorted(game.focus.dealable(variant, every_fact))
    focus = random.Random(1).sample(shown, min(len(shown), 33))
    assert len(game.focus.facts(variant, focus)) == len(focus)
    for seed in range(4):
        focused = game.new(variant, players, seed, focus=focus)
        assert game.new(variant, players, seed, focus=focus).data == focused.data
        assert _all_cards(game, focused) == _all_cards(game, game.new(variant, players, seed))
        done = play(game, focused, [random_legal] * players, random.Random(seed))
        assert done.outcome is not None
        assert_json_round_trip(game, done.state)


@pytest.mark.parametrize("slug", TABLES)
def test_the_focus_facts_are_the_natural_moves(slug):
    game = engine.get_game(slug)
    variant, players, focus, count = TABLES[slug]
    focused: list = []
    unfocused: list = []
    for seed in SEEDS:
        state = game.new(variant, players, seed, focus=focus)
        focused += _first_attempts(game, state, count, seed)
        unfocused += _first_attempts(game, game.new(variant, players, seed), count, seed)
    assert len(focused) >= len(SEEDS) and len(unfocused) >= len(SEEDS)
    share, plain_share = _share(focused, focus), _share(unfocused, focus)
    assert _clearly_above(share, plain_share, len(focused), len(unfocused)), (share, plain_share)


def test_a_focused_mia_deal_holds_the_pairs_and_reveals_their_card():
    game = engine.get_game("mia")
    focus = (("add", 3, 4), ("sub", 9, 4))
    from engine.mia_cards import NUMBER_VALUE, OPERATION_OPTIONS

    for seed in range(20):
        state = game.new("express", 3, seed, focus=focus)
        assert ("+", 7) in OPERATION_OPTIONS[state.data["pile"][-1]]
        for hand in state.data["hands"]:
            values = Counter(NUMBER_VALUE[card] for card in hand)
            assert values[3] and values[4] and values[9]


@pytest.mark.parametrize("size", [3, 5])
def test_a_focused_puzzle_is_seeded_clearable_and_claims_the_focus_facts(size):
    game = engine.get_game("mia")
    focus = (("add", 3, 4), ("sub", 9, 4), ("add", 5, 6), ("sub", 8, 3))
    shares, plain_shares, claims, plain_claims = [], [], 0, 0
    for seed in range(12):
        puzzle = game.puzzles.generate(size, 3, seed, focus=focus)
        assert puzzle == game.puzzles.generate(size, 3, seed, focus=list(focus))
        assert puzzle.focus == focus
        state = game.new(puzzle.variant, 1, puzzle.seed, focus=puzzle.focus)
        for move in puzzle.solution:
            state = game.apply(state, 0, move, 0).state
        assert game.outcome(state).scores[0] >= 1  # cleared
        facts = mia_puzzles.solution_facts(
            game.new(puzzle.variant, 1, puzzle.seed, focus=puzzle.focus), puzzle.solution
        )
        shares.append(mia_puzzles.focus_share(facts, focus) * len(facts))
        claims += len(facts)
        plain = game.new(puzzle.variant, 1, seed)
        line = mia_solver.search(plain, node_limit=50_000).moves or []
        plain_facts = mia_puzzles.solution_facts(plain, line)
        plain_shares.append(mia_puzzles.focus_share(plain_facts, focus) * len(plain_facts))
        plain_claims += len(plain_facts)
    share, plain_share = sum(shares) / claims, sum(plain_shares) / max(1, plain_claims)
    assert _clearly_above(share, plain_share, claims, max(1, plain_claims)), (share, plain_share)


def test_a_puzzle_without_focus_is_the_puzzle_it_always_was():
    game = engine.get_game("mia")
    assert game.puzzles.generate(3, 2, 7, focus=None) == game.puzzles.generate(3, 2, 7)
    assert game.puzzles.generate(3, 2, 7, focus=()) == game.puzzles.generate(3, 2, 7)


def test_a_variant_says_which_facts_it_can_deal_toward():
    table = [(op, a, b) for op in ("add", "mul") for a in range(11) for b in range(11)]
    square = engine.get_game("mia").focus
    dealt = square.dealable("solo3", table)
    # ¡Mía!'s cards hold no 0 and its operations are sums and differences: no product, no + 0;
    # the solo square's 1-point cards ask for sums up to 13.
    assert ("add", 3, 4) in dealt and ("add", 9, 4) in dealt
    assert ("add", 0, 5) not in dealt and ("mul", 2, 3) not in dealt
    assert ("add", 9, 8) not in dealt
    sums = engine.get_game("sum").focus.dealable("standard", table)
    # SUM's centre card is 1-9: the products up to 9 of two cards 1-9.
    assert {f for f in sums if f[0] == "mul"} == {
        ("mul", a, b) for a in range(1, 10) for b in range(1, 10) if a * b <= 9
    }
    # A variant whose deal is not focused can deal toward nothing.
    assert engine.get_game("mathable_junior").focus.dealable("back", table) == frozenset()
    # What it says is what a focused deal keeps: the facts it can deal, and no other.
    for fact in table:
        kept = square.facts("solo3", [fact]) if fact[0] == "add" else ()
        assert (fact in dealt) == (kept == (fact,))


@pytest.mark.parametrize("seed", range(12))
def test_a_sum_deal_focused_on_times_tables_holds_no_other_operation(seed):
    """Every hand's operation cards are the focus facts' operations, and so are the operation
    deck's next cards (until a right equation shuffles the used ones back in): a times-table
    set dealt a hand with a - or a ÷ card, and half of the practice bench's SUM answers were
    differences and quotients, no table fact."""
    from engine.sum_cards import FACE, HAND_NUMBERS, KIND, OPERATION

    game = engine.get_game("sum")
    focus = (("mul", 2, 3), ("mul", 3, 3), ("mul", 2, 4))
    state = game.new("standard", 2, seed, focus=focus)
    for hand in state.data["hands"]:
        assert len(hand) == HAND_NUMBERS + 3
        assert {FACE[card] for card in hand if KIND[card] == OPERATION} == {"x"}
    next_draws = [FACE[card] for card in state.data["operations"][-8:]]
    assert set(next_draws) == {"x"}
    # A set of sums and products: both, and nothing else.
    mixed = game.new("standard", 2, seed, focus=(("mul", 2, 3), ("add", 4, 5)))
    signs = {FACE[c] for hand in mixed.data["hands"] for c in hand if KIND[c] == OPERATION}
    assert signs <= {"x", "+"}
