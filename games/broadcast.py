"""News of a match for its sockets, through the channel layer (at most once; the state itself lives
in the database, so a socket that misses news asks for ``sync``).

The message carries the new engine state, not a view: every socket computes its own seat's view,
so nothing one seat may not see is ever put in another seat's message.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games import signals

log = logging.getLogger(__name__)


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


def _send(match_id: int, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(match_group(match_id), message)
    except Exception:
        # The move is committed; a socket that missed the news resyncs (DESIGN.md: at most once).
        log.exception("could not broadcast match %s", match_id)


def match_changed(match_id: int, changes, wake_at_ms: int | None) -> None:
    for change in changes:
        _send(
            match_id,
            {
                "type": "match.changed",
                "version": change.version,
                "state": change.state,
                "events": change.events,
                "actor_seat": change.actor_seat,
                "client_id": change.client_id,
                "wake_at_ms": wake_at_ms,
            },
        )
        # After the players' news: teaching displays must never delay a move.
        signals.match_changed.send(
            sender=None, match_id=match_id, version=change.version, events=change.events
        )


def match_stopped(match_id: int) -> None:
    _send(match_id, {"type": "match.stopped"})
