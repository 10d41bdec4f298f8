"""An opt-in timeline of each move through a server process (docs/capacity.md, "Where a move's
time goes"; ``python -m tools.loadtest --trace`` turns it on and reads it).

With ``GAMES_MOVE_TRACE=1`` in the environment at start-up, a player's move on the event loop is
stamped (``time.perf_counter_ns``, the system's monotonic clock, which every process on the host
shares) at each boundary it crosses:

    received    the socket's ``receive`` (games/consumers.py)
    checked     flood limit, wire and shape checked
    turn_asked  the match's turn asked for (games/services/runner.py, ``_turn_of``)
    turn        the turn held
    known       decided on the match as this process last wrote it (no read: one round trip)
    connection  a connection drawn from the pool (games/async_db.py)
    read        round trip 1 answered: BEGIN and the locking read (after ``known`` if the
                row had changed, or the move was refused on what the process knew)
    decided     the decision taken (the engine, the records)
    committed   the last round trip answered: the writes and COMMIT
    returned    the connection back in the pool, the runner resumed
    queued      the news queued (games/delivery.py, ``_enqueue``)
    hub         the news's task running, after the match's earlier news
    sent:mover / sent:other   each socket's state handed to Daphne (``MatchConsumer.send``)
    relayed     the news sent on to the other processes (a Redis round trip; none for a hub alone
                with the match, games/delivery.py)

and written, one JSON line per move, to ``GAMES_MOVE_TRACE_FILE`` (``{pid}`` in it becomes the
process's id; by default ``move-trace-<pid>.jsonl`` in the temporary directory). Off, the cost is
one check of the module-level ``ON`` at each boundary. Nothing of it ever reaches a client.

The stamps travel with the move in a context variable: the news's task is made inside the move's
own task, so it carries the move's record to the sockets. Moves written on a thread (SQLite) are
not traced.
"""

from __future__ import annotations

import contextvars
import json
import os
import tempfile
import time

ON = os.environ.get("GAMES_MOVE_TRACE", "").strip().lower() in {"1", "true", "yes", "on"}
FILE = os.environ.get("GAMES_MOVE_TRACE_FILE") or os.path.join(
    tempfile.gettempdir(), "move-trace-{pid}.jsonl"
)

now = time.perf_counter_ns

_current: contextvars.ContextVar[_Record | None] = contextvars.ContextVar(
    "games_move_trace", default=None
)
_out = None


class _Record:
    __slots__ = ("done", "match_id", "stamps")

    def __init__(self, match_id: int, received_ns: int):
        self.match_id = match_id
        self.stamps: list[tuple[str, int]] = [("received", received_ns)]
        self.done = False


def begin(match_id: int, received_ns: int) -> contextvars.Token:
    """A move's record, from its socket's ``receive`` at ``received_ns``; ``end`` with the token
    once the consumer is done with the move (its news carries the record on)."""
    return _current.set(_Record(match_id, received_ns))


def end(token: contextvars.Token) -> None:
    _current.reset(token)


def stamp(name: str) -> None:
    record = _current.get()
    if record is not None and not record.done:
        record.stamps.append((name, now()))


def finish() -> None:
    """The move's news is out: its record is written (once)."""
    record = _current.get()
    if record is None or record.done:
        return
    record.done = True
    global _out
    if _out is None:
        _out = open(FILE.replace("{pid}", str(os.getpid())), "a", buffering=1)  # noqa: SIM115
    line = {"pid": os.getpid(), "match": record.match_id, "stamps": record.stamps}
    _out.write(json.dumps(line, separators=(",", ":")) + "\n")
