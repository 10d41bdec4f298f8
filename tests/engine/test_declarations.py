"""What each game declares for the layers above (engine.core.Game): whether every seat may act at
once, and where its view keeps each seat's score so far. The teaching layer reads these instead of
a list of game names of its own."""

import pytest

import engine

GAMES = tuple(game.slug for game in engine.list_games())


@pytest.mark.parametrize("slug", GAMES)
def test_every_table_game_names_its_running_scores(slug):
    game = engine.get_game(slug)
    for name, spec in game.variants.items():
        if spec.max_players < 2:
            continue
        players = max(2, spec.min_players)
        state = game.new(variant=name, players=players, seed=3)
        scores = game.running_scores(state)
        assert isinstance(scores, list) and len(scores) == players, (slug, name, scores)
        assert scores == game.view(state, None)[game.score_key]


def test_only_mias_race_is_real_time():
    assert {slug for slug in GAMES if engine.get_game(slug).real_time} == {"mia"}


def test_a_solo_square_has_no_running_scores():
    game = engine.get_game("mia")
    assert game.running_scores(game.new(variant="solo3", players=1, seed=3)) is None


def test_times_that_hold_more_than_recall_are_declared():
    # ¡Mía!: waiting for a card worth claiming and searching the hand; ADD UP: both rows added
    # up before the difference is posed. The others time the one fact from when it was posed.
    assert {slug for slug in GAMES if not engine.get_game(slug).times_recall} == {"mia", "add_up"}
