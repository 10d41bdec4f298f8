"""The rules of the five games, as pure Python (no Django, no clocks, no global randomness).

    import engine
    game = engine.get_game("mia")
    state = game.new(variant="express", players=3, seed=42, options={})
    step = game.apply(state, seat, move, now_ms)

See ../docs/engine.md for the protocol and docs/rules/ for each game's rules.
"""

from __future__ import annotations

import importlib

from engine import bots
from engine.core import (
    EngineError,
    Game,
    IllegalMove,
    Option,
    Outcome,
    SetupError,
    State,
    Step,
    Variant,
)

# slug -> module; modules are imported on first use so that importing one game stays cheap.
GAME_MODULES = {
    "mia": "engine.mia",
    "sum": "engine.sum",
    "add_up": "engine.add_up",
    "mathable_junior": "engine.mathable_junior",
    "add_or_multiply": "engine.add_or_multiply",
}

_loaded: dict[str, Game] = {}


def get_game(slug: str) -> Game:
    game = _loaded.get(slug)
    if game is None:
        module_name = GAME_MODULES.get(slug)
        if module_name is None:
            raise SetupError("unknown_game", f"no game {slug!r}")
        game = importlib.import_module(module_name).GAME
        _loaded[slug] = game
    return game


def list_games() -> list[Game]:
    return [get_game(slug) for slug in GAME_MODULES]


__all__ = [
    "EngineError",
    "Game",
    "IllegalMove",
    "Option",
    "Outcome",
    "SetupError",
    "State",
    "Step",
    "Variant",
    "bots",
    "get_game",
    "list_games",
]
