"""WCAG 2.2 3.3.4 Error Prevention (Data), issue 22: every action that deletes a teacher's data or
ends a lesson for the class asks first. The page that offers it links to a confirmation page
(never a form that deletes at once), the confirmation page changes nothing, and only its posted
form does the deed. The other writes are reversible (a secret or a name set again, a child
seated again) or are checked and shown first (a roster import): docs/accessibility.md, 3.3.4."""

import re

import pytest
from django.urls import reverse

from accounts.models import User
from classroom.homework.services import BotGamesSpec
from classroom.models import Assignment, Classroom, ClassSession
from tests.classroom.sessions_helpers import started_session
from tests.factories import make_assignment

pytestmark = pytest.mark.django_db


def forms_posting_to(page: str, url: str) -> int:
    return len(re.findall(rf'<form[^>]*method="post"[^>]*action="{re.escape(url)}"', page))


def forms_posting_to_themselves(page: str, url: str) -> int:
    """Forms a page posts to itself (no action, or its own address)."""
    forms = re.findall(r"<form[^>]*>", page)
    return sum(
        'method="post"' in form and ("action=" not in form or f'action="{url}"' in form)
        for form in forms
    )


@pytest.fixture
def lesson():
    classroom, (ana, _ben), session = started_session(2, table_size=2)
    homework = make_assignment(classroom, spec=BotGamesSpec("sum", "standard", 2, "easy", 2, {}))
    return classroom, ana, session, homework


def test_every_deletion_asks_first(client, lesson):
    classroom, ana, session, homework = lesson
    client.force_login(classroom.teacher)
    cases = [
        (
            reverse("classroom:roster_class", args=[classroom.pk]),
            reverse("classroom:roster_class_delete", args=[classroom.pk]),
            lambda: Classroom.objects.filter(pk=classroom.pk).exists(),
        ),
        (
            reverse("classroom:roster_student", args=[classroom.pk, ana.pk]),
            reverse("classroom:roster_student_delete", args=[classroom.pk, ana.pk]),
            lambda: User.objects.filter(pk=ana.pk).exists(),
        ),
        (
            reverse("classroom:homework_detail", args=[homework.pk]),
            reverse("classroom:homework_delete", args=[homework.pk]),
            lambda: Assignment.objects.filter(pk=homework.pk).exists(),
        ),
        (
            reverse("classroom:sessions_detail", args=[session.pk]),
            reverse("classroom:sessions_end", args=[session.pk]),
            lambda: ClassSession.objects.get(pk=session.pk).status != "ended",
        ),
    ]
    # The class goes last (with it, everything else).
    for offering, confirm, still_there in cases[1:] + cases[:1]:
        page = client.get(offering).content.decode()
        assert f'href="{confirm}"' in page, offering
        assert forms_posting_to(page, confirm) == 0, offering
        asked = client.get(confirm)
        assert asked.status_code == 200
        asking = asked.content.decode()
        assert forms_posting_to_themselves(asking, confirm) >= 1, confirm
        assert still_there(), confirm
        client.post(confirm)
        assert not still_there(), confirm
