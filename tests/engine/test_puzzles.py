"""Solo puzzles, a capability a game declares (engine.core.Puzzles, docs/adding-a-game.md): every
game either declares none or declares puzzles the engine can set up and play to stars within
its scale. Homework (classroom/homework) offers the puzzles of exactly these games."""

import random

import pytest

import engine
from engine.simulate import bot_chooser, play

pytestmark = pytest.mark.timeout(300)

GAMES = tuple(game.slug for game in engine.list_games())


def check_puzzles(game):
    puzzles = game.puzzles
    assert isinstance(puzzles, engine.Puzzles), game.slug
    assert puzzles.sizes and puzzles.max_stars >= 1
    assert len(set(puzzles.sizes.values())) == len(puzzles.sizes)
    for size, variant in puzzles.sizes.items():
        assert isinstance(size, int) and not isinstance(size, bool)
        spec = game.variants[variant]  # a real variant of the game...
        assert spec.min_players == spec.max_players == 1  # ...played alone
        assert puzzles.variant(size) == variant and puzzles.size_of(variant) == size
        for difficulty in (1, 5):
            deal = puzzles.generate(size, difficulty, 11)
            assert deal == puzzles.generate(size, difficulty, 11)  # reproducible
            assert isinstance(deal.seed, int) and 0 <= deal.seed < 2**31
            assert 1 <= deal.difficulty <= 5
            state = game.new(variant=variant, players=1, seed=deal.seed, options={})
            for level in ("random", "strong"):
                done = play(game, state, [bot_chooser(level)], random.Random(deal.seed))
                stars = done.outcome.scores[0]
                assert 0 <= stars <= puzzles.max_stars, (game.slug, variant, stars)
    assert puzzles.size_of("no such variant") is None


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_declares_puzzles_it_can_play_or_none(slug):
    game = engine.get_game(slug)
    if game.puzzles is not None:
        check_puzzles(game)
    assert (game in engine.puzzle_games()) == (game.puzzles is not None)


def test_of_the_products_games_mias_solo_square_has_puzzles():
    assert [game.slug for game in engine.puzzle_games()] == ["mia"]
    assert dict(engine.get_game("mia").puzzles.sizes) == {3: "solo3", 4: "solo4", 5: "solo5"}
    assert engine.get_game("mia").puzzles.max_stars == 3  # docs/rules/mia_solo.md


def test_a_game_added_with_puzzles_is_listed_after_the_products(count_alone):
    check_puzzles(count_alone)
    assert [game.slug for game in engine.puzzle_games()] == ["mia", "count_alone"]


def test_the_tests_own_game_without_puzzles_declares_none(count_to_ten):
    assert count_to_ten.puzzles is None
    assert count_to_ten not in engine.puzzle_games()


@pytest.mark.parametrize(
    ("answers", "gives_up", "stars"),
    [([1, 2, 3, 4, 5, 6], False, 2), ([1, 3, 3, 4, 5, 6], False, 1), ([1, 2], True, 0)],
)
def test_the_added_games_stars_count_its_slips_and_giving_up(count_alone, answers, gives_up, stars):
    """Count alone counts as Count to ten does; its stars are its own."""
    state = count_alone.new(variant="alone6", players=1, seed=3, options={})
    for now_ms, answer in enumerate(answers, start=1):
        step = count_alone.apply(state, 0, {"type": "add", "step": 1, "answer": answer}, now_ms)
        (attempt,) = step.events
        assert attempt["expected"] == state.data["count"] + 1
        state = step.state
    if gives_up:
        state = count_alone.apply(state, 0, {"type": "resign"}, 10).state
    assert count_alone.outcome(state).scores == [stars]
    assert count_alone.active(state) == frozenset()
