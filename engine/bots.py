"""Bots: ``choose(game, state, seat, level, rng, leave=())`` returns the move a bot makes now.

Levels: ``random`` (any legal move, wrong ones included), ``easy`` (plays right but plainly) and
``strong`` (plays well). ``rng`` is the caller's ``random.Random``: a bot's whims are not part of
the game's seeded randomness, so a match still replays from its seed and its recorded moves.

``leave``: facts (operation, a, b) a bot at a child's table leaves to the child where the rules
allow (focused practice, issue 25): ``Game.bot_move_leaving``, and each game's rules page,
"Bots in focused practice", says what its bots do instead.

``people``: the seats where people play. The engine does not know who sits where; a game whose
focus is carried by its bots (``Focus.by_bots``: Add or Multiply?, where the numbers a child is
asked about are the ones the other players choose) needs it to know whose facts to play, and
steers only when one seat is a person's. Other games ignore it.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core import Fact

LEVELS = ("random", "easy", "strong")


def choose(
    game,
    state,
    seat: int,
    level: str,
    rng,
    leave: Iterable[Fact] = (),
    people: Iterable[int] = (),
):
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose from {', '.join(LEVELS)}")
    leave = tuple(tuple(fact) for fact in leave or ())
    if not leave:
        return game.bot_move(state, seat, level, rng)
    return game.bot_move_leaving(state, seat, level, rng, leave, people=frozenset(people or ()))
