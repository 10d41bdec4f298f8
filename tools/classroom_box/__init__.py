"""The classroom box (``python -m tools.classroom_box``; docs/capacity.md, "The classroom box"):
a school without a good connection runs the class on one small box. This tool makes that box on
this machine and measures a class in it:

    python -m tools.classroom_box                  # a class of 30, 30 moves/s, 60 s
    python -m tools.classroom_box --classes 3      # three classes at once, each as above
    python -m tools.classroom_box --students 6 --rate 3 --duration 5 --arrival 2

The embedded default (``make run``: SQLite, the in-memory channel layer, one Daphne process)
runs inside a cgroup of a quarter of one core and 1 GB (``--cpu-quota``, ``--memory``;
tools/classroom_box/cgroup.py, v1 or v2, needs root), on a migrated SQLite file (DATABASE_URL's,
or one of its own), with each class made as tools.school_morning makes a school's. From outside
the box: the children sign in through the pages as on a school's morning and join their class's
session, each teacher signs in and presses Start, then the class plays ADD UP through its match
sockets at ``--rate`` moves a second (tools.loadtest's players) with the teacher's monitor and the
projector open and refreshing (tools.session_load's screens). It prints the sign-in times, the
teacher's pages, move-to-socket and move-to-monitor latency, the live parts' fetch times, what was
lost, the server's CPU and the box's memory peak, then stops the server and removes the cgroup
(on Ctrl-C or a failure too).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile


def embedded_default() -> list[str]:
    """The environment of the embedded default, set before Django is: the in-memory channel
    layer (REDIS_URL and CHANNEL_LAYER_REDIS_URLS dropped) and, without DATABASE_URL, a SQLite
    file of this run's own (removed at exit). Returns what it changed, for the report."""
    said = []
    for name in ("REDIS_URL", "CHANNEL_LAYER_REDIS_URLS"):
        if os.environ.pop(name, None):
            said.append(f"{name} ignored: the box runs the in-memory channel layer")
    if not os.environ.get("DATABASE_URL"):
        folder = tempfile.mkdtemp(prefix="classroom-box-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/box.sqlite3"
        said.append(f"database: a SQLite file of its own, {folder}/box.sqlite3")
    return said
