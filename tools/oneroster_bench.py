"""``python -m tools.oneroster_bench``: how long ``import_oneroster`` takes for a district's bulk
zip of 5,100 users (5,000 children, 100 teachers) and 10,100 enrolments, then for the same zip a
second time (which changes nothing). Runs on a throwaway test database of the configured kind
(DATABASE_URL: PostgreSQL as in production, or SQLite). docs/oneroster.md gives the figures."""

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path

from tools import django_setup

django_setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_databases, teardown_databases  # noqa: E402

from tools.oneroster_zip import district  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.oneroster_bench", description=__doc__)
    parser.add_argument("--schools", type=int, default=5)
    args = parser.parse_args(argv)
    data = district(
        schools=args.schools, classes=20, students_per_class=100, classes_per_student=2
    ).build()
    # A database of its own: the test suite's may be in use by a run at the same time.
    if connection.vendor == "postgresql":
        connection.settings_dict.setdefault("TEST", {})["NAME"] = "test_oneroster_bench"
    old = setup_databases(verbosity=0, interactive=False)
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "district.zip"
            path.write_bytes(data)
            print(f"{connection.vendor}: a zip of {len(data) // 1024} KiB")
            for run in ("first import", "the same zip again"):
                out = io.StringIO()
                started = time.perf_counter()
                call_command("import_oneroster", str(path), stdout=out)
                elapsed = time.perf_counter() - started
                print(f"{run}: {elapsed:.1f} s")
                for line in out.getvalue().splitlines()[:3]:
                    print(f"  {line}")
    finally:
        teardown_databases(old, verbosity=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
