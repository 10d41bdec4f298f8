"""What the layers above write in a move's own transaction (games never imports classroom).

A layer registers a function that, given a match and the Attempt rows a move is about to save,
returns its own statements (``(sql, params)``, running totals say). The move's transaction runs
them after its own rows, so they commit or roll back with the move. Such a function must not reach
the database itself: on a server the move's transaction may run on the event loop, on a connection
of its own (games/async_db.py); it only says what to write.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from games.async_db import Statement

if TYPE_CHECKING:
    from games.models import Attempt, Match

AttemptWrites = Callable[["Match", Sequence["Attempt"]], list[Statement]]

_attempt_writes: dict[str, AttemptWrites] = {}


def on_attempts_written(name: str, writes: AttemptWrites) -> None:
    """Registers ``writes`` under ``name`` (registering a name again replaces it)."""
    _attempt_writes[name] = writes


def forget_attempt_writes(name: str) -> None:
    """Unregisters ``name`` (tests)."""
    _attempt_writes.pop(name, None)


def attempt_writes(match: Match, attempts: Sequence[Attempt]) -> list[Statement]:
    """Every registered layer's statements for these attempts, in the order they registered."""
    return [
        statement for writes in _attempt_writes.values() for statement in writes(match, attempts)
    ]
