"""New matches, at the pace their children need (accommodations)."""

from __future__ import annotations

import math
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

import engine
from accounts.models import Accommodations, accommodations_of
from engine.bots import LEVELS as BOT_LEVELS
from games.models import Match, Seat
from games.services.bots import _plan
from games.services.common import (
    MatchError,
    SeatSpec,
    now_ms,
)


@dataclass(frozen=True)
class NewMatch:
    """One match to create: ``match_create_many`` makes many in a few statements."""

    game: str
    variant: str
    seats: Sequence[SeatSpec]
    options: dict | None = None
    created_by: Any = None
    label: str = ""
    seed: int | None = None
    # With values, ``label`` is a message translated when read (games.models.shown_label).
    label_values: dict | None = None
    # A solo game against bots: it stands still while its player is away (Match.waits_for_players).
    waits_for_players: bool = False
    # Facts (operation, a, b) to steer the deal toward (engine ``Game.focus``); empty: a plain deal.
    focus: Sequence[Sequence] = ()


def match_create(
    *,
    game: str,
    variant: str,
    seats: Sequence[SeatSpec],
    options: dict | None = None,
    created_by=None,
    label: str = "",
    seed: int | None = None,
    at_ms: int | None = None,
    waits_for_players: bool = False,
    focus: Sequence[Sequence] = (),
    label_values: dict | None = None,
) -> Match:
    """A new playing match. The engine validates the game, variant, options and player count
    (``engine.SetupError``); seats are validated here (``MatchError``). ``waits_for_players``: the
    match stands still while no seated player's socket is open (``match_player_left``).
    ``focus``: facts the deal is steered toward (``engine.SetupError`` "no_focus" for a game or
    variant that cannot, "bad_focus" for a malformed fact)."""
    new = NewMatch(
        game,
        variant,
        seats,
        options,
        created_by,
        label,
        seed,
        label_values=label_values,
        waits_for_players=waits_for_players,
        focus=focus,
    )
    return match_create_many([new], at_ms=at_ms)[0]


def match_create_many(news: Sequence[NewMatch], *, at_ms: int | None = None) -> list[Match]:
    """New playing matches (a class's tables at the start), in two INSERTs whatever their
    number: at a school assembly's 300 tables, a match at a time would be most of "Start"'s
    second."""
    at_ms = now_ms() if at_ms is None else at_ms
    matches, seat_lists = [], []
    accommodations = _accommodations(news)
    for new in news:
        matches.append(_new_match(new, at_ms, accommodations))
        seat_lists.append(new.seats)
    with transaction.atomic():
        Match.objects.bulk_create(matches)
        Seat.objects.bulk_create(
            Seat(
                match=match,
                index=i,
                user=spec.user,
                bot_level=spec.bot_level,
                name=spec.name[:80],
            )
            for match, seats in zip(matches, seat_lists, strict=True)
            for i, spec in enumerate(seats)
        )
    return matches


def _new_match(new: NewMatch, at_ms: int, accommodations: dict[int, Accommodations]) -> Match:
    rules = engine.get_game(new.game)
    seats = new.seats
    users = [spec.user.pk for spec in seats if spec.user is not None]
    if len(users) != len(set(users)):
        raise MatchError("duplicate_player", "a player can take only one seat")
    for spec in seats:
        if (spec.user is None) == (not spec.bot_level):
            raise MatchError("bad_seat", "a seat is a player or a bot, not both or neither")
        if spec.bot_level and spec.bot_level not in BOT_LEVELS:
            raise MatchError("bad_bot_level", f"bots play at {', '.join(BOT_LEVELS)}")
    if not any(spec.user is not None for spec in seats):
        raise MatchError("no_player", "a match needs at least one player")
    seed = secrets.randbits(62) if new.seed is None else new.seed
    pace = table_pace(accommodations[spec.user.pk] for spec in seats if spec.user is not None)
    options = accommodated_options(rules, new.variant, new.options, pace)
    state = rules.new(
        variant=new.variant,
        players=len(seats),
        seed=seed,
        options=options,
        now_ms=at_ms,
        focus=new.focus or None,
    )
    # The facts as the engine took them (cut to those the variant can deal), for the bots.
    focus = rules.focus.facts(new.variant, new.focus) if new.focus else ()
    bot_seats = {i: spec.bot_level for i, spec in enumerate(seats) if spec.bot_level}
    match = Match(
        game=new.game,
        variant=new.variant,
        options=dict(state.options),
        seed=seed,
        state=rules.dump(state),
        version=state.version,
        created_by=new.created_by,
        label=new.label[:80],
        label_values=new.label_values or {},
        pace_factor=pace.bots,
        waits_for_players=new.waits_for_players,
        focus=[list(fact) for fact in focus],
    )
    _plan(match, rules, state, bot_seats, at_ms, acted=None)
    return match


# --- a table's pace: the accommodations of its children ------------------------------------------

CALM_OPTION = "calm"  # a variant's option for a table without the race (¡Mía!'s calm table)
UNHURRIED = 2.0  # a calm or unclocked child's pace: bots think twice their usual time


@dataclass(frozen=True)
class TablePace:
    """What the children at one table need (docs/accessibility.md, "Accommodations per child").
    ``clock``: how much longer every timer runs, the largest allowance among them (None: one has
    no clock); ``bots``: how much longer bots think; ``calm``: a child needs a calm table."""

    clock: float | None = 1.0
    bots: float = 1.0
    calm: bool = False


def table_pace(accommodations) -> TablePace:
    """One table's pace from its children's accommodations: the slowest child sets it."""
    clock: float | None = 1.0
    bots, calm = 1.0, False
    for child in accommodations:
        factor = child.time_factor
        if factor is None or child.calm_table:
            calm = True
            bots = max(bots, UNHURRIED)
        if factor is None:
            clock = None
        else:
            bots = max(bots, factor)
            if clock is not None:
                clock = max(clock, factor)
    return TablePace(clock=clock, bots=bots, calm=calm)


def accommodated_options(rules, variant: str, options: dict | None, pace: TablePace) -> dict | None:
    """The teacher's options for a table at ``pace``: every timer option (``Option.timer``) runs
    ``pace.clock`` times the teacher's value, capped at the option's maximum; with a child who has
    no clock, ``calm`` is set where the variant has a calm table, and the timers run as long as
    the game allows where it has none. A calm child gets ``calm`` where the variant declares it.
    Options the engine would refuse are left for it to refuse."""
    declared = rules.variants.get(variant)
    if declared is None or pace == TablePace():
        return options
    try:
        chosen = declared.resolve_options(options)
    except engine.SetupError:
        return options
    accommodated = dict(options or {})
    calm = pace.calm and CALM_OPTION in declared.options
    if calm:
        accommodated[CALM_OPTION] = True
    for name, option in declared.options.items():
        if not option.timer:
            continue
        if pace.clock is None and not calm:
            seconds = option.maximum if option.maximum is not None else chosen[name] * 2
        else:
            factor = pace.clock if pace.clock is not None else UNHURRIED
            seconds = math.ceil(chosen[name] * factor)  # never less than the allowance
        if option.maximum is not None:
            seconds = min(seconds, option.maximum)
        accommodated[name] = max(seconds, chosen[name])
    return accommodated


def _accommodations(news: Sequence[NewMatch]) -> dict[int, Accommodations]:
    """Every seated child's accommodations (the defaults where none are set), in one query."""
    users = {spec.user.pk: spec.user for new in news for spec in new.seats if spec.user is not None}
    found = {
        row.student_id: row for row in Accommodations.objects.filter(student_id__in=list(users))
    }
    return {pk: found.get(pk) or accommodations_of(None) for pk in users}
