"""Checks shared by every game's property tests."""

from __future__ import annotations

import json
import random

from engine.core import Game, State
from engine.simulate import Playthrough, play, random_legal

SECRET_KEYS = {"rng", "seed", "deck", "pot", "number_deck", "operation_deck", "draw_pile"}


def assert_json_round_trip(game: Game, state: State) -> None:
    dumped = json.loads(json.dumps(game.dump(state)))
    again = game.load(dumped)
    assert again == state
    assert game.dump(again) == game.dump(state)


def assert_no_secret_keys(view) -> None:
    """No key of a view names the deck, the pot, the seed or the generator."""
    if isinstance(view, dict):
        for key, value in view.items():
            assert key not in SECRET_KEYS, f"view leaks {key!r}"
            assert_no_secret_keys(value)
    elif isinstance(view, list):
        for item in view:
            assert_no_secret_keys(item)


def play_and_check(game: Game, variant: str, players: int, seed: int, options=None) -> Playthrough:
    """Random play through legal_moves that checks the contract at every step."""
    state = game.new(variant=variant, players=players, seed=seed, options=options or {})
    done = play(game, state, [random_legal] * players, random.Random(seed), keep_states=True)
    previous = None
    for st in done.states:
        if previous is not None:
            assert st.version == previous.version + 1
        previous = st
        json.dumps(game.view(st, None))
        for seat in range(players):
            view = game.view(st, seat)
            json.dumps(view)
            assert_no_secret_keys(view)
    assert done.outcome is not None
    assert_json_round_trip(game, done.state)
    return done


def replay(game: Game, variant: str, players: int, seed: int, done: Playthrough, options=None):
    """The same seed and the same moves (and ticks) give the same game."""
    state = game.new(variant=variant, players=players, seed=seed, options=options or {})
    moves = list(done.moves)
    ticks = list(done.ticks)
    # Re-apply in the original order: moves and ticks interleave by time and position.
    order = sorted(
        [(m[2], 0, i) for i, m in enumerate(moves)] + [(t, 1, i) for i, t in enumerate(ticks)]
    )
    for _, kind, i in order:
        if kind == 0:
            seat, move, now = moves[i]
            state = game.apply(state, seat, move, now).state
        else:
            state = game.tick(state, ticks[i]).state
    assert game.dump(state) == game.dump(done.state)
