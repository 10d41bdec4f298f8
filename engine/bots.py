"""Bots: ``choose(game, state, seat, level, rng)`` returns the move a bot makes now.

Levels: ``random`` (any legal move, wrong ones included), ``easy`` (plays right but plainly) and
``strong`` (plays well). ``rng`` is the caller's ``random.Random``: a bot's whims are not part of
the game's seeded randomness, so a match still replays from its seed and its recorded moves.
"""

from __future__ import annotations

LEVELS = ("random", "easy", "strong")


def choose(game, state, seat: int, level: str, rng):
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose from {', '.join(LEVELS)}")
    return game.bot_move(state, seat, level, rng)
