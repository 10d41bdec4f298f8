"""An opt-in timeline of each move through a server process (docs/capacity.md, "Where a move's
time goes"; ``python -m tools.loadtest --trace`` turns it on and reads it).

With ``GAMES_MOVE_TRACE=1`` in the environment at start-up, a player's move on the event loop is
timed in spans, one at each boundary it crosses, each with its start and end
(``time.monotonic_ns``: CLOCK_MONOTONIC, which every process on the host shares and the load
test's ``perf_counter`` reads on Linux):

    checks      the socket's ``receive`` to the move handed on: flood limit, wire checks
                (games/consumers.py, ``move``)
    turn        waiting for the match's turn (games/services/runner.py, ``_Turn``)
    known       the move decided on the match as this process last wrote it (``_write_on_known``)
    connection  waiting for a connection from the pool (games/async_db.py)
    read        round trip 1: BEGIN and the locking read (none for a move decided on what the
                process knew, unless the row had changed or the move was refused on it)
    decide      the decision (the engine, the records)
    commit      the last round trip: the writes and COMMIT
    news        the news's task (games/delivery.py): each socket's send, then the relay to the
                other processes (a Redis round trip)
    send:mover / send:other   each socket's state handed to Daphne (``MatchConsumer``)

and written, one JSON line per move (``{"pid", "match", "spans": [[name, start_ns, end_ns]...]}``),
to ``GAMES_MOVE_TRACE_FILE`` (``{pid}`` in it becomes the process's id; by default
``move-trace-<pid>.jsonl`` in the temporary directory) once its ``news`` span ends. Nothing of it
ever reaches a client.

Off, ``span`` and ``move`` return one shared null context and ``spanned`` returns the function it
is given, chosen here at import: the hot path pays a call and an empty ``with`` at each ``span``
(under a microsecond; about ten a move, where a move costs its server some 3 ms of CPU), nothing
else. The spans travel with the move in a context variable: the news's
task is made inside the move's own task, so it carries the move's record to the sockets. Moves
written on a thread (SQLite) are not written out.

Why not OpenTelemetry: its API without an SDK still makes a span object and attaches and
detaches a context at every span, so tracing off would cost more than a null context; on, it
needs the SDK and an exporter (three packages) to write what the load test reads here, one
process's moves as JSON lines on the clock the load test's client shares. This module is one
timeline for one tool, small enough to own.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import inspect
import json
import os
import tempfile
import time

ON = os.environ.get("GAMES_MOVE_TRACE", "").strip().lower() in {"1", "true", "yes", "on"}
FILE = os.environ.get("GAMES_MOVE_TRACE_FILE") or os.path.join(
    tempfile.gettempdir(), "move-trace-{pid}.jsonl"
)

now = time.monotonic_ns

_current: contextvars.ContextVar[_Record | None] = contextvars.ContextVar(
    "games_move_trace", default=None
)
_out = None
_OFF = contextlib.nullcontext()


class _Record:
    __slots__ = ("done", "match_id", "spans")

    def __init__(self, match_id: int):
        self.match_id = match_id
        self.spans: list[tuple[str, int, int]] = []
        self.done = False


class Span:
    """A stretch of the move in this context, from ``with`` to its end (ended by an exception
    too: the time was spent). ``last``: the move's last span, whose end writes its record."""

    __slots__ = ("last", "name", "record", "start")

    def __init__(self, name: str, last: bool = False):
        self.name = name
        self.last = last

    def __enter__(self) -> Span:
        self.record = _current.get()
        self.start = now()
        return self

    def __exit__(self, *exc) -> None:
        end = now()
        record = self.record
        if record is None or record.done:
            return
        record.spans.append((self.name, self.start, end))
        if self.last:
            _write(record)


@contextlib.contextmanager
def recorded_move(match_id: int, received_ns: int):
    """A move's record, from its socket's ``receive`` at ``received_ns`` (``time.monotonic_ns``)
    until the consumer is done with it; its news carries the record on."""
    record = _Record(match_id)
    record.spans.append(("checks", received_ns, now()))
    token = _current.set(record)
    try:
        yield record
    finally:
        _current.reset(token)


def recorded_span(name: str, last: bool = False):
    """``func`` run as a ``Span`` of that name: a decorator, for a coroutine function or not."""

    def decorate(func):
        if inspect.iscoroutinefunction(func):

            @functools.wraps(func)
            async def timed(*args, **kwargs):
                with Span(name, last):
                    return await func(*args, **kwargs)

        else:

            @functools.wraps(func)
            def timed(*args, **kwargs):
                with Span(name, last):
                    return func(*args, **kwargs)

        return timed

    return decorate


def _off_span(name: str, last: bool = False) -> contextlib.nullcontext:
    return _OFF


def _off_move(match_id: int, received_ns: int) -> contextlib.nullcontext:
    return _OFF


def _off_spanned(name: str, last: bool = False):
    return _unchanged


def _unchanged(func):
    return func


# What the hot path calls, chosen once: ``with trace.span("decide"):``,
# ``with trace.move(match_id, received_ns):``, ``@trace.spanned("news", last=True)``.
span = Span if ON else _off_span
move = recorded_move if ON else _off_move
spanned = recorded_span if ON else _off_spanned


def _write(record: _Record) -> None:
    """The move's news is out: its record is written (once)."""
    record.done = True
    global _out
    if _out is None:
        _out = open(FILE.replace("{pid}", str(os.getpid())), "a", buffering=1)  # noqa: SIM115
    line = {"pid": os.getpid(), "match": record.match_id, "spans": record.spans}
    _out.write(json.dumps(line, separators=(",", ":")) + "\n")
