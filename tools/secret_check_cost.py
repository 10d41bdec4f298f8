"""CPU per check of a child's secret, keyed hash against the PBKDF2 it replaced (docs/security.md).

    python -m tools.secret_check_cost [--checks 2000]

Prints milliseconds of process CPU per check, right and wrong PINs alike; no database needed."""

from __future__ import annotations

import argparse
import time

from tools import django_setup


def cpu_ms_per_check(check, checks: int) -> float:
    started = time.process_time()
    for n in range(checks):
        check(f"pin:{n % 10000:04d}")
    return (time.process_time() - started) * 1000 / checks


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checks", type=int, default=2000)
    args = parser.parse_args(argv)
    django_setup()
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    from accounts.secret_hashing import check_secret_hash, make_secret_hash

    keyed = make_secret_hash("pin:2468")
    keyed_ms = cpu_ms_per_check(lambda guess: check_secret_hash(guess, keyed), args.checks)
    pbkdf2 = PBKDF2PasswordHasher()
    stretched = pbkdf2.encode("pin:2468", pbkdf2.salt())
    pbkdf2_ms = cpu_ms_per_check(lambda guess: pbkdf2.verify(guess, stretched), 4)
    print(f"keyed hash ({keyed.split('$')[0]}): {keyed_ms:.4f} ms CPU per check")
    print(f"PBKDF2 ({pbkdf2.iterations} iterations): {pbkdf2_ms:.1f} ms CPU per check")


if __name__ == "__main__":
    main()
