"""The floor: a bare Channels server of the real one's shape, with no database
(``python -m tools.loadtest --floor``, docs/capacity.md "Where a move's time goes").

One ``AsyncWebsocketConsumer`` at the real path, ``/ws/match/<id>/``, served by Daphne like the
real application (``tools.loadtest.servers.DaphneFleet(application=APPLICATION)``), with the same
settings and so the same channel layer (Redis, the fleet's prefix). It does what any server of
this game must do for a move, and nothing more:

- a socket is accepted whoever it is (the load test's cookies are ignored), joins its match's
  group (``match.<id>``, the real server's group name) and gets the match's state at once, as the
  real consumer sends it on connect;
- a move, whatever it says, bumps the match's version (kept in this process's memory: with the
  sockets routed by match, every socket of a match is on one process) and sends the news to the
  match's group through the channel layer; every socket of the group sends its state message.

A match starts at version 0, where ``games.services.match_create`` leaves a new match (the load
test checks its set-up against ``START_VERSION``). The state message has the real one's leading
keys, ``{"type":"state","version":n,...``, which is all the load test reads of it.
"""

from __future__ import annotations

import json
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django
from django.apps import apps

if not apps.ready:  # as Daphne imports it; the load test has set Django up already
    django.setup()

from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import ProtocolTypeRouter, URLRouter
from django.urls import path

from games.consumers import LoopDispatch

APPLICATION = "tools.loadtest.floor:application"
START_VERSION = 0

# match id -> its version, in this process
_versions: dict[int, int] = {}


def _group(match_id: int) -> str:
    return f"match.{match_id}"  # as games.delivery.match_group names it


def _state(version: int, client_id: str = "") -> str:
    payload = {"type": "state", "version": version, "view": {}, "events": []}
    if client_id:
        payload["client_id"] = client_id
    return json.dumps(payload, separators=(",", ":"))


class FloorConsumer(LoopDispatch, AsyncWebsocketConsumer):
    """No database here, and none of Channels' hops to its shared thread per message: the real
    consumer skips them too (``games.consumers.LoopDispatch``)."""

    async def connect(self):
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.group = _group(self.match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=_state(_versions.setdefault(self.match_id, START_VERSION)))

    async def websocket_disconnect(self, message):
        # As the real sockets' (realtime.sockets.CleanSocket): no close_old_connections, which
        # would reach for a database this server does not have.
        await self.channel_layer.group_discard(self.group, self.channel_name)
        raise StopConsumer()

    async def receive(self, text_data=None, bytes_data=None):
        message = json.loads(text_data or "{}")
        kind = message.get("type")
        if kind == "move":
            version = _versions[self.match_id] = _versions.get(self.match_id, START_VERSION) + 1
            await self.channel_layer.group_send(
                self.group, {"type": "floor.state", "version": version}
            )
        elif kind == "sync":
            await self.send(text_data=_state(_versions.get(self.match_id, START_VERSION)))
        elif kind == "ping":
            await self.send(text_data='{"type":"pong"}')

    async def floor_state(self, message):
        await self.send(text_data=_state(message["version"]))


application = ProtocolTypeRouter(
    {"websocket": URLRouter([path("ws/match/<int:match_id>/", FloorConsumer.as_asgi())])}
)
