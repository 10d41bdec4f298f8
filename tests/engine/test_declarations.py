"""What each game declares for the layers above (engine.core.Game): whether every seat may act at
once, and where its view keeps each seat's score so far. The teaching layer reads these instead of
a list of game names of its own."""

import random

import pytest

import engine
from engine.simulate import bot_chooser, play

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


def every_game_with_the_tests_own():
    return [*GAMES, "count_to_ten"]


@pytest.fixture
def game_of(request):
    """The game of ``slug``, the test-only count_to_ten registered for the test alone."""

    def get(slug):
        if slug == "count_to_ten":
            return request.getfixturevalue("count_to_ten")
        return engine.get_game(slug)

    return get


@pytest.mark.parametrize("slug", every_game_with_the_tests_own())
def test_every_move_a_game_offers_carries_only_the_keys_it_declares(slug, game_of):
    """What legal_moves, hint and the bots make is what a child's page may send: each key of it
    is declared (engine.core.plays), or the server would refuse the game's own moves."""
    game = game_of(slug)
    assert set(game.move_types) == set(game.move_fields)
    offered = set()
    for name, spec in game.variants.items():
        state = game.new(variant=name, players=spec.min_players, seed=5)
        done = play(game, state, [bot_chooser("easy")] * spec.min_players, random.Random(5))
        offered.update(move["type"] for _, move, _ in done.moves)
        for state in (
            game.new(variant=name, players=spec.min_players, seed=seed) for seed in (1, 2)
        ):
            for seat in game.active(state):
                moves = [*game.legal_moves(state, seat), game.hint(state, seat)]
                for move in moves:
                    if move is not None:
                        game.check_shape(move)
                        assert set(move) - {"type"} <= game.move_fields[move["type"]], move
                        offered.add(move["type"])
    assert offered, slug


@pytest.mark.parametrize("slug", every_game_with_the_tests_own())
def test_a_move_with_a_key_its_game_never_declared_is_refused_and_changes_nothing(slug, game_of):
    game = game_of(slug)
    name, spec = next(iter(game.variants.items()))
    state = game.new(variant=name, players=spec.min_players, seed=5)
    seat = min(game.active(state))
    legal = game.legal_moves(state, seat)[0]
    before = game.dump(state)
    with pytest.raises(engine.IllegalMove) as refused:
        game.apply(state, seat, {**legal, "junk": "x" * 3000}, 1_000)
    assert refused.value.code == "unknown_field" and "junk" in refused.value.message
    assert game.dump(state) == before
    # The same move without the junk is played.
    assert game.apply(state, seat, legal, 1_000).state.version == state.version + 1


def test_times_that_hold_more_than_recall_are_declared():
    # ¡Mía!: waiting for a card worth claiming and searching the hand; ADD UP: both rows added
    # up before the difference is posed. The others time the one fact from when it was posed.
    assert {slug for slug in GAMES if not engine.get_game(slug).times_recall} == {"mia", "add_up"}
