"""The class page's list of who is stuck on what, since when, with the evidence (issue 14,
item 8)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.progress.struggling import class_struggling
from tests.factories import make_attempts, make_class, make_student

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2026, 3, 20, 12, 0, tzinfo=datetime.UTC)


def at(hours_ago):
    return NOW - datetime.timedelta(hours=hours_ago)


def right(hours_ago, a=3, b=4):
    return (a, "+", b, a + b, 1500, at(hours_ago))


def wrong(hours_ago, a=3, b=4):
    return (a, "+", b, a + b + 1, 1500, at(hours_ago))


@pytest.fixture
def classroom():
    classroom = make_class()
    ana, ben, carla, dan = (
        make_student(classroom, name, secret=f"{n}{n}{n}{n}")
        for n, name in enumerate(["Ana", "Ben", "Carla", "Dan"], start=1)
    )
    # Ana: three right in a row, then three wrong: stuck since the first of the wrong ones.
    make_attempts(ana, [right(50), right(40), right(30), wrong(20), wrong(10), wrong(5)])
    # Ben: 4 of his latest 10 right, never three right in a row.
    pattern = "RWRWWRWWRW"  # oldest first, 60 h to 15 h ago
    make_attempts(
        ben,
        [
            right(h) if p == "R" else wrong(h)
            for p, h in zip(pattern, range(60, 10, -5), strict=True)
        ],
    )
    # Carla: five wrong, then three right: out of it.
    make_attempts(carla, [wrong(h) for h in (60, 50, 40, 30, 25)] + [right(h) for h in (20, 10, 1)])
    # Dan: all wrong, but weeks ago.
    make_attempts(dan, [wrong(24 * 20 + h) for h in range(6)])
    # Ana is fine at subtraction.
    make_attempts(ana, [(9, "-", 4, 5, 1200, at(h)) for h in (9, 8, 7, 6, 5)])
    return classroom


def test_who_is_stuck_on_what_and_since_when(classroom):
    stuck = class_struggling(classroom=classroom, now=NOW)
    assert [(str(s.student), s.skill, s.right, s.answers, s.wrong_in_a_row) for s in stuck] == [
        ("Ana", "add.within10", 3, 6, 3),
        ("Ben", "add.within10", 4, 10, 1),
    ]
    ana, ben = stuck
    assert ana.since == at(20)
    assert ben.since == at(60)  # nothing three right in a row: the oldest answer looked at
    assert [(e.when, e.correct, e.worded.did) for e in ana.evidence[:2]] == [
        (at(5), False, "Claimed 3 + 4 for the 8"),
        (at(10), False, "Claimed 3 + 4 for the 8"),
    ]
    assert len(ben.evidence) == 5


def test_the_class_page_lists_them(client, classroom, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: NOW)
    client.force_login(classroom.teacher)
    html = client.get(reverse("classroom:progress_class", args=[classroom.pk])).content.decode()
    section = html[html.index('id="struggling-heading"') :]
    section = section[: section.index("</section>")]
    assert "<strong>Ana</strong>: Addition within 10" in section
    assert "3 of the latest 6 answers right" in section and "the last 3 wrong" in section
    assert "<strong>Ben</strong>" in section and "Carla" not in section and "Dan" not in section
    assert "Claimed 3 + 4 for the 8" in section


def test_past_the_first_few_the_page_names_the_others_in_one_line(client, classroom, monkeypatch):
    from classroom.progress import struggling

    monkeypatch.setattr(timezone, "now", lambda: NOW)
    monkeypatch.setattr(struggling, "SHOWN", 1)
    client.force_login(classroom.teacher)
    html = client.get(reverse("classroom:progress_class", args=[classroom.pk])).content.decode()
    section = html[html.index('id="struggling-heading"') :]
    section = section[: section.index("</section>")]
    assert section.count("<details>") == 1 and "<strong>Ana</strong>" in section
    assert "Also stuck: Ben (Addition within 10)" in section
