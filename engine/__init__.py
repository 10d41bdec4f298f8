"""The rules of the five games, as pure Python (no Django, no clocks, no global randomness).

    import engine
    game = engine.get_game("mia")
    state = game.new(variant="express", players=3, seed=42, options={})
    step = game.apply(state, seat, move, now_ms)

See docs/architecture.md for the protocol and docs/rules/ for each game's rules.
"""

from __future__ import annotations

import importlib

from engine import bots
from engine.core import (
    EngineError,
    Fact,
    Focus,
    Game,
    IllegalMove,
    Option,
    Outcome,
    PuzzleDeal,
    Puzzles,
    SetupError,
    State,
    Step,
    Variant,
)

# The product's games, in the order pages list them: the one list of them. A game's slug is its
# module's last name (engine.add_up plays "add_up"); tests register games of their own.
GAMES = (
    "engine.mia",
    "engine.sum",
    "engine.add_up",
    "engine.mathable_junior",
    "engine.add_or_multiply",
)

# slug -> module; modules are imported on first use so that importing one game stays cheap.
_modules: dict[str, str] = {}
_loaded: dict[str, Game] = {}


def register_game(module: str) -> str:
    """Makes the game of ``module`` (whose ``GAME`` is a Game with the module's last name as its
    slug) known to ``get_game`` and listed by ``list_games`` after the games registered before it.
    Returns the slug. Registering the same module again changes nothing."""
    slug = module.rpartition(".")[2]
    if _modules.get(slug, module) != module:
        raise SetupError("duplicate_game", f"{slug!r} is already {_modules[slug]}")
    _modules[slug] = module
    return slug


def unregister_game(slug: str) -> None:
    """Forgets a game registered with ``register_game`` (a test's game, once the test is over)."""
    _modules.pop(slug, None)
    _loaded.pop(slug, None)


def get_game(slug: str) -> Game:
    game = _loaded.get(slug)
    if game is None:
        module = _modules.get(slug)
        if module is None:
            raise SetupError("unknown_game", f"no game {slug!r}")
        game = importlib.import_module(module).GAME
        if game.slug != slug:
            raise SetupError("bad_game", f"{module}.GAME plays {game.slug!r}, not {slug!r}")
        _loaded[slug] = game
    return game


def is_game(slug: str) -> bool:
    return slug in _modules


def list_games() -> list[Game]:
    return [get_game(slug) for slug in list(_modules)]


def puzzle_games() -> list[Game]:
    """The games that declare solo puzzles (``Game.puzzles``), in the order pages list games."""
    return [game for game in list_games() if game.puzzles is not None]


def focus_games() -> list[Game]:
    """The games whose deal, or whose bots (``Focus.by_bots``), can be biased toward a child's
    facts (``Game.focus``), in the order pages list games: the ones offered for focused
    practice."""
    return [game for game in list_games() if game.focus is not None]


for _module in GAMES:
    register_game(_module)
del _module

__all__ = [
    "EngineError",
    "Fact",
    "Focus",
    "Game",
    "IllegalMove",
    "Option",
    "Outcome",
    "PuzzleDeal",
    "Puzzles",
    "SetupError",
    "State",
    "Step",
    "Variant",
    "bots",
    "focus_games",
    "get_game",
    "is_game",
    "list_games",
    "puzzle_games",
    "register_game",
    "unregister_game",
]
