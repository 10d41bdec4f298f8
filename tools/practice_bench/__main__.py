"""``python -m tools.practice_bench [--small]``: personal practice against class-wide homework in
a simulated class (tools/practice_bench/__init__.py, docs/capacity.md)."""

import sys

from tools import django_setup

django_setup()

from tools.practice_bench.bench import main  # noqa: E402  (Django is set up first)

sys.exit(main())
