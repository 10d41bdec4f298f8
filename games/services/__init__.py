"""The writes of live play, along one path. A player's move (``submit_move``), the timers and bots
(``match_wake``) and the teacher's pause, resume, added time and stop are each one ``_MatchWrite``
(its kinds in ``games.services.writes``): one short transaction that locks the match row with its
seats (one statement, ``_LockStatement`` in ``games.services.sql``), decides from what it read,
writes what it decided (the state with its MoveRecord and Attempts, and the teaching layer's
roll-ups: ``games.hooks``) and sends its news after the commit (``games.delivery``). One runner
(``games.services.runner``) takes it to the database: ``write_match`` on Django's connection,
``write_match_async`` from a server's event loop (on PostgreSQL on the loop's own connections, else
on a thread). Races (two claims on one ¡Mía! card from any number of processes) are decided by the
lock: the first to hold it wins, the others are checked against the state it left.

Its parts: ``creation`` (new matches, at their children's pace), ``writes`` (what changes a playing
match), ``runner`` (how a write reaches the database), ``bots`` (when each bot acts), ``sql`` (the
statements a write sends). This package is their one public name: ``from games.services import
...``.
"""

from games.services.bots import BOT_DELAY_SECONDS
from games.services.common import (
    MAX_ADDED_SECONDS,
    MAX_CLIENT_ID,
    Change,
    MatchError,
    MoveResult,
    MoveWaitedTooLong,
    SeatSpec,
    now_ms,
)
from games.services.creation import (
    CALM_OPTION,
    UNHURRIED,
    NewMatch,
    TablePace,
    accommodated_options,
    match_create,
    match_create_many,
    table_pace,
)
from games.services.sql import SeatRow
from games.services.writes import (
    PAUSED,
    match_abandon,
    match_add_time,
    match_log_forget_seat,
    match_pause,
    match_player_arrived,
    match_player_arrived_async,
    match_player_left,
    match_player_left_async,
    match_resume,
    match_wake,
    match_wake_async,
    submit_move,
    submit_move_async,
)

__all__ = [
    "BOT_DELAY_SECONDS",
    "CALM_OPTION",
    "MAX_ADDED_SECONDS",
    "MAX_CLIENT_ID",
    "PAUSED",
    "UNHURRIED",
    "Change",
    "MatchError",
    "MoveResult",
    "MoveWaitedTooLong",
    "NewMatch",
    "SeatRow",
    "SeatSpec",
    "TablePace",
    "accommodated_options",
    "match_abandon",
    "match_add_time",
    "match_create",
    "match_create_many",
    "match_log_forget_seat",
    "match_pause",
    "match_player_arrived",
    "match_player_arrived_async",
    "match_player_left",
    "match_player_left_async",
    "match_resume",
    "match_wake",
    "match_wake_async",
    "now_ms",
    "submit_move",
    "submit_move_async",
    "table_pace",
]
