"""``python -m tools.loadtest --help``: the load test of live play (docs/capacity.md)."""

import sys

from tools import django_setup

django_setup()

from tools.loadtest.cli import main  # noqa: E402  (Django is set up first)

sys.exit(main())
