"""``python -m tools.session_load --help``: a class session played through Daphne while a
teacher's screen is timed (docs/capacity.md)."""

import sys

from tools import django_setup

django_setup()

from tools.session_load.live import main  # noqa: E402  (Django is set up first)

sys.exit(main())
