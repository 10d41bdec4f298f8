"""Development tools: the load test of live play (``python -m tools.loadtest``), the live session
benchmark (``python -m tools.session_load``), a class on a small box (``python -m
tools.classroom_box``), the benchmark of personal practice in a simulated class (``python -m
tools.practice_bench``) and the signed-in sessions the load tools share with the tests.

Not part of the product: nothing in config, accounts, classroom, games or engine imports this
package (an import-linter contract), and what it needs beyond the product (``websockets``,
``psutil``) comes with the ``dev`` extra.
"""

from __future__ import annotations

import os


def django_setup() -> None:
    """Django set up for a tool run as a script (``python -m tools.<name>``), on the settings the
    environment names (``config.settings`` by default: DATABASE_URL, REDIS_URL as for the site)."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
