"""Refusing a websocket so that the page can tell why.

A socket closed before its handshake completes is answered with HTTP 403 and nothing more: the
browser reports close code 1006 whatever the reason, and the pages, which stop reconnecting only
on 4401 (signed out) and 4403 (not allowed), retried every few seconds forever. So a refusal
accepts the socket, then closes it with its code.
"""

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403


async def refuse(consumer, code: int) -> None:
    await consumer.accept()
    await consumer.close(code=code)
