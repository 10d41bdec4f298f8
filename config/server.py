"""Daphne on uvloop: ``python -m config.server`` takes Daphne's own arguments (``daphne --help``).

Every server process of the site starts here (``make run``, the Docker image, the load test's
fleet, the browser tests). A server process spends most of its time in its event loop: each move
waits on PostgreSQL twice, on Redis and on a socket per seat. uvloop, the event loop on libuv,
runs those waits in C where asyncio's own loop runs them in Python (docs/capacity.md, "Daphne on
uvloop", has the load test's figures for both).

Daphne makes its event loop with ``asyncio.new_event_loop()`` when ``daphne.server`` is first
imported, so the loop's kind is chosen by the event loop policy set before that import, here.
``SERVER_EVENT_LOOP=asyncio`` keeps asyncio's own loop (to compare the two, or where uvloop is
not installed).
"""

from __future__ import annotations

import asyncio
import os

LOOPS = ("uvloop", "asyncio")


def choose_event_loop() -> str:
    """Set the event loop policy for the loop ``SERVER_EVENT_LOOP`` names (uvloop if unset) and
    return its name."""
    name = (os.environ.get("SERVER_EVENT_LOOP") or "uvloop").strip().lower()
    if name not in LOOPS:
        raise SystemExit(f"SERVER_EVENT_LOOP is one of {', '.join(LOOPS)}, not {name!r}")
    if name == "uvloop":
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return name


def main() -> None:
    choose_event_loop()
    from daphne.cli import CommandLineInterface  # makes its loop as it is imported

    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
