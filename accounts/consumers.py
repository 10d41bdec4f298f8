import json

from channels.generic.websocket import AsyncWebsocketConsumer

from realtime.sockets import CLOSE_UNAUTHENTICATED, CleanSocket, refuse

MAX_MESSAGE_BYTES = 4096


class PingConsumer(CleanSocket, AsyncWebsocketConsumer):
    """``/ws/ping/``: lets a page (and a test) see that its signed-in socket works end to end.
    Anonymous sockets are refused; anything but a ping gets an error message, never a crash."""

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await refuse(self, CLOSE_UNAUTHENTICATED)
            return
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None):
        if await self.refused_as_flood():
            return
        if text_data is None or len(text_data.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
            await self._error("too_large" if text_data else "malformed", "send small JSON text")
            return
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: "[[[[..." nested past the parser
            await self._error("malformed", "messages are JSON objects")
            return
        if isinstance(message, dict) and message.get("type") == "ping":
            await self.send(text_data=json.dumps({"type": "pong"}))
        else:
            await self._error("unknown_type", "this socket only answers ping")

    async def _error(self, code, message):
        await self.send(text_data=json.dumps({"type": "error", "code": code, "message": message}))
