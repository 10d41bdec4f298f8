"""The bots' part in a match: when each thinks, and which one is due."""

from __future__ import annotations

import random

from django.conf import settings

from games.models import Match
from games.services.sql import SeatRow

# Seconds a bot "thinks" before it acts, per level (a range, drawn afresh each time): slow enough
# that a child can play along, quick enough that nobody waits long. GAMES_BOT_DELAY_SCALE shrinks
# them (tests, demos).
BOT_DELAY_SECONDS = {"random": (2.0, 4.0), "easy": (2.5, 5.5), "strong": (1.5, 3.5)}


def _bots(seats: dict[int, SeatRow]) -> dict[int, str]:
    return {index: row.bot_level for index, row in seats.items() if row.bot_level}


def _bot_delay_ms(match: Match, level: str, version: int, seat: int) -> int:
    low, high = BOT_DELAY_SECONDS[level]
    scale = getattr(settings, "GAMES_BOT_DELAY_SCALE", 1.0)
    whim = random.Random(f"delay:{match.seed}:{version}:{seat}").uniform(low, high)
    # A table with a child given more time: the bots follow that child's pace.
    return int(whim * (match.pace_factor or 1.0) * scale * 1000)


def _plan(
    match: Match,
    rules,
    state,
    bots: dict[int, str],
    at_ms: int,
    acted: int | None,
    waiting: frozenset[int] = frozenset(),
) -> None:
    """Decide when each bot acts next and when the match must wake. A bot that is already
    thinking keeps its time (so a busy table cannot starve it); one that just moved thinks afresh.
    ``waiting`` bots chose to wait and nothing has changed since: they stay idle."""
    plan: dict[str, int | None] = {}
    if rules.outcome(state) is None:
        active = rules.active(state)
        for seat, level in bots.items():
            if seat not in active:
                continue
            current = match.bot_plan.get(str(seat))
            if seat in waiting:
                plan[str(seat)] = None
            elif seat == acted or current is None:
                plan[str(seat)] = at_ms + _bot_delay_ms(match, level, state.version, seat)
            else:
                plan[str(seat)] = current
    match.bot_plan = plan
    dues = [due for due in plan.values() if due is not None]
    deadline = rules.deadline(state) if rules.outcome(state) is None else None
    if deadline is not None:
        dues.append(deadline)
    # Dues are on the match's clock; the wake-up is on the wall clock, which the clocks read.
    match.wake_at_ms = min(dues) + match.clock_offset_ms if dues else None


def _due_bot(match: Match, rules, state, at_ms: int) -> int | None:
    active = rules.active(state)
    due = [
        (when, int(seat))
        for seat, when in match.bot_plan.items()
        if when is not None and when <= at_ms and int(seat) in active
    ]
    return min(due)[1] if due else None
