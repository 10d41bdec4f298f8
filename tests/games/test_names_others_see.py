"""The names a play page gives the other seats (issue 44, "A child's name where the teacher hid
it"): a table-mate and a spectator read each child by the name others see (accounts.public_names),
on a teacher's own table as at a lesson's; the reader's own seat keeps their name."""

import json
import re

import pytest
from django.urls import reverse

from accounts.models import Accommodations
from tests.factories import make_class, make_match, make_student, make_teacher

pytestmark = pytest.mark.django_db


def seats_on(client, user, url) -> dict[int, str]:
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    found = re.search(
        r'<script id="play-config" type="application/json">(.*?)</script>', html, re.S
    )
    assert found, "the play page embeds its config"
    return {seat["seat"]: seat["name"] for seat in json.loads(found.group(1))["seats"]}


def test_a_teachers_own_table_names_each_child_to_the_others_by_their_setting(client):
    teacher = make_teacher()
    classroom = make_class(teacher)
    ana = make_student(classroom, "Ana Ruiz")
    eva = make_student(classroom, "Eva Lind", secret="1111")
    ben = make_student(classroom, "Ben Soto", secret="2222")
    Accommodations.objects.create(student=ana, public_name="initials")
    Accommodations.objects.create(student=eva, public_name="hidden")
    match = make_match(
        game="add_up", variant="no_jokers", players=[ana, eva, ben], bots=["easy"], teacher=teacher
    )
    play, watch = reverse("games:play", args=[match.pk]), reverse("games:watch", args=[match.pk])
    others = {0: "A. R.", 1: "Player 2", 2: "Ben Soto", 3: "Bot 1"}
    assert seats_on(client, ben, play) == others
    assert seats_on(client, teacher, watch) == others
    assert seats_on(client, teacher, play) == others  # the spectator's page as well
    # Each child's own seat keeps their name.
    assert seats_on(client, ana, play) == {**others, 0: "Ana Ruiz"}
    assert seats_on(client, eva, play) == {**others, 1: "Eva Lind"}
