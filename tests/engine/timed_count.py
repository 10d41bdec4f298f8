"""Count to ten on a clock: tests/engine/count_to_ten.py with a timer option and, in one variant,
a calm table, for the tests of how the platform applies a child's accommodations to any game
(tests/games/test_accommodations.py). The clock is only declared: the tests read the options a
match is made with. Registered by those tests alone."""

from __future__ import annotations

from engine.core import Option, Variant, variants
from tests.engine.count_to_ten import CountToTen


def _turn_seconds() -> Option:
    return Option(
        "turn_seconds", 10, "int", "Seconds a turn may last.", minimum=2, maximum=40, timer=True
    )


class TimedCount(CountToTen):
    slug = "timed_count"
    title = "Count to ten on a clock"
    variants = variants(
        Variant("clocked", "On a clock", 2, 4, {"turn_seconds": _turn_seconds()}),
        Variant(
            "calm",
            "On a clock, or calm",
            2,
            4,
            {
                "turn_seconds": _turn_seconds(),
                "calm": Option("calm", False, "bool", "Each child counts in their own time."),
            },
        ),
    )


GAME = TimedCount()
