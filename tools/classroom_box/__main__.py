"""``python -m tools.classroom_box --help``: a class on a small box, measured
(tools/classroom_box/__init__.py, docs/capacity.md)."""

import sys

from tools import django_setup
from tools.classroom_box import embedded_default

changed = embedded_default()
django_setup()

from tools.classroom_box.box import main  # noqa: E402  (Django is set up first)

sys.exit(main(notes=changed))
