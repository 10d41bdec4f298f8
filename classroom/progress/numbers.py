"""How a share of right answers and a time are shown, the same on every page, report and monitor.

A teacher computes 23 right out of 40 as 57.5%, and rounds that to 58%: halves are rounded up, not
to the even neighbour as Python's ``round`` does (57). And a share of one or two answers says
nothing of a child: 1 of 1 is not "100%". Below ``MIN_ANSWERS_TO_JUDGE`` answers a share is shown
as "too few answers", and counts as no figure in charts, flags and rankings.
"""

from __future__ import annotations

MIN_ANSWERS_TO_JUDGE = 5


def percent(right: int, answers: int) -> int | None:
    """``right`` of ``answers`` as a whole percentage, halves rounded up; None without answers.
    Integer arithmetic, so 23 of 40 is 58 exactly (0.575 * 100 is 57.49999... in floats)."""
    if not answers:
        return None
    return (200 * right + answers) // (2 * answers)


def too_few(answers: int) -> bool:
    """Some answers, but too few to judge a child by."""
    return 0 < answers < MIN_ANSWERS_TO_JUDGE


def judged_percent(right: int, answers: int) -> int | None:
    """The percentage to show or chart: None without answers or with too few."""
    return None if too_few(answers) else percent(right, answers)


def tenths_of_a_second(ms: int) -> float:
    """Milliseconds as seconds to one decimal, halves rounded up (2,250 ms is 2.3 s)."""
    return ((ms + 50) // 100) / 10
