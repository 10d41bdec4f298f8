"""``python -m tools.school_morning --help``: a school's morning of sign-ins through Daphne
(docs/security.md, docs/capacity.md)."""

import sys

from tools import django_setup

django_setup()

from tools.school_morning.morning import main  # noqa: E402  (Django is set up first)

sys.exit(main())
