"""Drive whole games without a server: random play for property tests, bot arenas, benchmarks.

Real-time games have several active seats at once; the driver lets one of the seats that want to
act move next (chosen by ``rng``), and when nobody wants to act it jumps the clock to the game's
deadline and ticks, exactly as the live server's timers do.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine import bots
from engine.core import Game, Outcome, State

Chooser = Callable[[Game, State, int, random.Random], "dict | None"]


class Stalled(RuntimeError):
    """Nobody can act and no timer runs: the game could never end (a rules bug)."""


@dataclass
class Playthrough:
    state: State
    outcome: Outcome | None
    moves: list[tuple[int, dict, int]] = field(default_factory=list)  # (seat, move, now_ms)
    ticks: list[int] = field(default_factory=list)  # now_ms of each tick that changed the state
    events: list[dict] = field(default_factory=list)
    states: list[State] = field(default_factory=list)  # every state, when keep_states
    # Every step in order: (seat, move, now_ms) for a move, (None, None, now_ms) for a tick; with
    # keep_states, step i was applied to states[i].
    steps: list[tuple[int | None, dict | None, int]] = field(default_factory=list)


def random_legal(game: Game, state: State, seat: int, rng: random.Random):
    moves = game.legal_moves(state, seat)
    return rng.choice(moves) if moves else None


def bot_chooser(level: str) -> Chooser:
    def choose(game, state, seat, rng):
        return bots.choose(game, state, seat, level, rng)

    return choose


def play(
    game: Game,
    state: State,
    choosers: Sequence[Chooser],
    rng: random.Random,
    *,
    max_steps: int = 20_000,
    think_ms: tuple[int, int] = (300, 2500),
    keep_states: bool = False,
    until: Callable[[Playthrough], bool] | None = None,
) -> Playthrough:
    """Play ``state`` to the end, or until ``until(playthrough)`` holds after a step;
    ``choosers[seat]`` picks that seat's moves."""
    now = 0
    result = Playthrough(state=state, outcome=game.outcome(state))
    if keep_states:
        result.states.append(state)
    for _ in range(max_steps):
        if result.outcome is not None:
            return result
        wanting = []
        for seat in sorted(game.active(state)):
            move = choosers[seat](game, state, seat, rng)
            if move is not None:
                wanting.append((seat, move))
        due = game.deadline(state)
        now += rng.randint(*think_ms)
        if wanting and (due is None or now < due):
            seat, move = rng.choice(wanting)
            step = game.apply(state, seat, move, now)
            result.moves.append((seat, move, now))
            result.steps.append((seat, move, now))
        else:
            if due is None:
                raise Stalled(f"{game.slug}: nobody can act and no timer runs at v{state.version}")
            now = max(now, due)
            step = game.tick(state, now)
            result.ticks.append(now)
            result.steps.append((None, None, now))
        state = step.state
        result.events.extend(step.events)
        if keep_states:
            result.states.append(state)
        result.state = state
        result.outcome = game.outcome(state)
        if until is not None and until(result):
            return result
    raise Stalled(f"{game.slug}: no end after {max_steps} steps")


def play_random(
    game: Game, variant: str, players: int, seed: int, options=None, **kw
) -> Playthrough:
    state = game.new(variant=variant, players=players, seed=seed, options=options or {})
    return play(game, state, [random_legal] * players, random.Random(seed), **kw)


def arena(
    game: Game,
    variant: str,
    levels: Sequence[str],
    games: int,
    *,
    options=None,
    seed0: int = 0,
) -> dict[str, float]:
    """Play ``games`` seeded games with one bot level per seat, rotating the seats so no level keeps
    the first move; returns each level's share of wins (a shared win counts for each winner)."""
    wins = dict.fromkeys(levels, 0.0)
    n = len(levels)
    for g in range(games):
        seating = [levels[(i + g) % n] for i in range(n)]
        state = game.new(variant=variant, players=n, seed=seed0 + g, options=options or {})
        done = play(
            game, state, [bot_chooser(level) for level in seating], random.Random(seed0 + g)
        )
        for seat in done.outcome.winners:
            wins[seating[seat]] += 1 / len(done.outcome.winners)
    return {level: wins[level] / games for level in levels}
