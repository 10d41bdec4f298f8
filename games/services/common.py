"""What every part of live play's services shares: its errors, its results, its clock."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

from django.db import OperationalError

log = logging.getLogger(__name__)

MAX_CLIENT_ID = 64
MAX_ADDED_SECONDS = 300


class MatchError(Exception):
    """A request live play refuses before the engine sees it; ``code`` is stable for clients."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class MoveWaitedTooLong(OperationalError):
    """A player's move that waited longer than ``GAMES_MOVE_WAIT_LIMIT_MS`` for its turn and a
    connection while other writes were done, refused before any database work. It is one of the
    outages a socket answers ``try_again`` (``realtime.sockets.OUTAGES``), so the page sends it
    again a second later: past saturation, moves are refused at once instead of queueing without
    bound, and the server's time goes to moves still fresh enough to be worth answering."""


@dataclass(frozen=True)
class SeatSpec:
    """Who sits at a seat: a user, or a bot of a level."""

    name: str
    user: Any = None
    bot_level: str = ""


@dataclass
class Change:
    """One new version of a match, as the broadcast carries it."""

    version: int
    state: dict
    events: list
    actor_seat: int | None
    client_id: str = ""
    finished: bool = False  # this version ended the game (set when the match is saved)


@dataclass
class MoveResult:
    match_id: int
    version: int
    state: dict
    duplicate: bool = False
    changes: list[Change] = field(default_factory=list)


def now_ms() -> int:
    return int(time.time() * 1000)
