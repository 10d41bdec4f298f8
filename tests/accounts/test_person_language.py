"""Each person's language is their own choice, stored with them, and their pages, sockets and files
follow it, whatever the browser or a shared tablet's cookie says (docs/translations.md)."""

import datetime

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from classroom.models import ProgressReport
from config.asgi import application
from tests.classroom.sessions_helpers import a_class
from tests.factories import (
    make_attempts,
    make_class,
    make_session,
    make_student,
    make_teacher,
    session_cookie_for,
)

pytestmark = pytest.mark.django_db
User = get_user_model()
ENGLISH_BROWSER = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}


def _spanish(user, **fields):
    for name, value in {"language": "es", **fields}.items():
        setattr(user, name, value)
    user.save()
    return user


def test_a_teachers_pages_follow_their_stored_language_not_the_browser(client):
    teacher = _spanish(make_teacher())
    client.force_login(teacher)
    client.cookies["django_language"] = "en"  # the browser's last menu choice, on another day
    page = client.get(reverse("classroom:teacher_home"), **ENGLISH_BROWSER).content.decode()
    assert '<html lang="es"' in page
    assert "Mis clases" in page and "My classes" not in page


def test_nobody_signed_in_is_served_the_menus_choice_then_the_browsers(client):
    page = client.get(reverse("classroom:student_login"), **ENGLISH_BROWSER).content.decode()
    assert '<html lang="en"' in page
    client.cookies["django_language"] = "es"
    page = client.get(reverse("classroom:student_login"), **ENGLISH_BROWSER).content.decode()
    assert '<html lang="es"' in page


def test_a_child_chooses_their_language_from_the_menu_and_keeps_it_on_another_tablet(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    client.force_login(ana)
    home = reverse("classroom:student_home")
    response = client.post(reverse("set_language"), {"language": "es", "next": home})
    assert response.status_code == 302
    ana.refresh_from_db()
    assert ana.language == "es"

    from django.test import Client

    tablet = Client()  # another device: no cookie, an English browser
    tablet.force_login(ana)
    page = tablet.get(home, **ENGLISH_BROWSER).content.decode()
    assert '<html lang="es"' in page and "Mis juegos" in page


def test_a_shared_tablets_cookie_does_not_choose_the_next_childs_language(client):
    """Ana chose English on the class's tablet; Ben, who chose Spanish, signs in after her."""
    classroom = make_class()
    ben = _spanish(make_student(classroom, "Ben", secret="2468"))
    client.cookies["django_language"] = "en"
    client.force_login(ben)
    page = client.get(reverse("classroom:student_home"), **ENGLISH_BROWSER).content.decode()
    assert '<html lang="es"' in page


def test_a_child_who_never_chose_follows_the_device(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    client.force_login(ana)
    client.cookies["django_language"] = "es"
    page = client.get(reverse("classroom:student_home")).content.decode()
    assert '<html lang="es"' in page


def test_the_teacher_sets_a_childs_language_and_their_familys(client):
    teacher = make_teacher()
    classroom = make_class(teacher)
    ana = make_student(classroom, "Ana")
    client.force_login(teacher)
    url = reverse(
        "classroom:roster_student_language",
        kwargs={"classroom_id": classroom.pk, "student_id": ana.pk},
    )
    page = client.get(
        reverse(
            "classroom:roster_student", kwargs={"classroom_id": classroom.pk, "student_id": ana.pk}
        )
    ).content.decode()
    assert 'lang="fr" translate="no"' in page and "Français" in page

    response = client.post(url, {"language": "de", "family_language": "ar"})
    assert response.status_code == 302
    ana.refresh_from_db()
    assert (ana.language, ana.family_language) == ("de", "ar")
    # "": none chosen, the browser's (the child) and the teacher's (the family's summary).
    client.post(url, {"language": "", "family_language": ""})
    ana.refresh_from_db()
    assert (ana.language, ana.family_language) == ("", "")
    assert client.post(url, {"language": "xx", "family_language": ""}).status_code == 400


def test_another_teacher_cannot_set_a_childs_language(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    client.force_login(make_teacher(email="other@example.org"))
    url = reverse(
        "classroom:roster_student_language",
        kwargs={"classroom_id": classroom.pk, "student_id": ana.pk},
    )
    assert client.post(url, {"language": "es", "family_language": ""}).status_code == 404
    ana.refresh_from_db()
    assert ana.language == ""


def test_the_family_summary_is_in_the_familys_language_around_the_teachers_page(client):
    teacher = make_teacher()
    classroom = make_class(teacher)
    ana = make_student(classroom, "Ana")
    ana.family_language = "es"
    ana.save()
    day = timezone.now() - datetime.timedelta(days=1)
    make_attempts(ana, [(3, "+", 4, 7, 1200, day), (5, "+", 5, 10, 1500, day)])
    client.force_login(teacher)
    page = client.get(
        reverse("classroom:progress_student_summary", args=[classroom.pk, ana.pk]),
        **ENGLISH_BROWSER,
    ).content.decode()
    sheet = page[page.index("<article") : page.index("</article>")]
    assert 'lang="es"' in sheet and 'dir="ltr"' in sheet
    assert "Esta semana" in sheet and "This week" not in sheet
    local_day = timezone.localdate(day)
    from django.utils import formats, translation

    with translation.override("es"):
        assert formats.date_format(local_day, "DATE_FORMAT") in sheet  # "3 de noviembre de 2026"
    assert "My classes" in page[: page.index("<article")]  # the teacher's own page around it


def test_a_report_is_in_the_requesting_teachers_stored_language(client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    teacher = _spanish(make_teacher())
    classroom = make_class(teacher)
    client.force_login(teacher)
    client.post(
        reverse("classroom:progress_reports"),
        {"classroom": classroom.pk, "period": "7"},
        **ENGLISH_BROWSER,
    )
    assert ProgressReport.objects.get().language == "es"


def test_the_weekly_report_is_in_the_teachers_stored_language():
    from classroom.progress import services

    teacher = make_teacher()
    teacher.language = "de"
    teacher.save()
    classroom = make_class(teacher)
    today = timezone.localdate()
    last_wednesday = today - datetime.timedelta(days=today.weekday() + 5)
    when = datetime.datetime.combine(last_wednesday, datetime.time(10), tzinfo=datetime.UTC)
    make_attempts(make_student(classroom, "Ana"), [(2, "+", 3, 5, 1000, when)])
    (report,) = services.weekly_reports_request()
    assert report.language == "de"


@pytest.mark.django_db(transaction=True)
async def test_the_student_socket_speaks_the_childs_stored_language_over_the_browsers():
    classroom, (ana,) = await database_sync_to_async(a_class)(1)
    await database_sync_to_async(_spanish)(ana)
    await database_sync_to_async(make_session)(classroom, table_size=3)
    cookie = await database_sync_to_async(session_cookie_for)(ana)
    headers = [
        (b"origin", b"http://127.0.0.1:8000"),
        (b"cookie", f"{cookie}; django_language=en".encode()),
        (b"accept-language", b"en-GB,en;q=0.9"),
    ]
    ws = WebsocketCommunicator(application, "/ws/student/", headers=headers)
    connected, _code = await ws.connect()
    assert connected
    message = await ws.receive_json_from(timeout=5)
    while message["type"] != "sessions" or not message["sessions"]:
        message = await ws.receive_json_from(timeout=5)
    (item,) = message["sessions"]
    assert item["title"] == "¡Mía! · Canadá 47"
    await ws.disconnect()
