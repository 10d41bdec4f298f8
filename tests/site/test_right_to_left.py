"""Arabic, written right to left (issue 46; docs/translations.md, "Right to left" and "Digits"):
the page says its direction, arithmetic keeps its own inside right-to-left sentences, the school's
digits are shown, and a child's digits are read in either set wherever they type a number.

The browser half (the rendered order of an expression, the arrows, the scans) is
tests/browser/test_right_to_left.py; the style sheets' check
tests/site/test_direction_safe_styles.py.
"""

import json
import re

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.urls import reverse
from django.utils import translation

import engine
from accounts import bidi, digits
from classroom.homework import titles
from classroom.progress.wording import known_fact_text, wording
from config.asgi import application
from games import async_db
from games.models import Attempt
from games.services import submit_move
from tests.factories import (
    make_class,
    make_match,
    make_student,
    make_teacher,
    session_cookie_for,
)

pytestmark = pytest.mark.django_db

OPEN, CLOSE = "\u2066\u202d", "\u202c\u2069"


def html_tag(response) -> str:
    return re.search(r"<html[^>]*>", response.content.decode()).group(0)


# --- the page's direction -------------------------------------------------------------------


def test_an_arabic_page_is_written_right_to_left_and_the_others_left_to_right(client):
    assert html_tag(client.get("/", HTTP_ACCEPT_LANGUAGE="ar")) == '<html lang="ar" dir="rtl">'
    assert html_tag(client.get("/", HTTP_ACCEPT_LANGUAGE="es")) == '<html lang="es">'
    assert html_tag(client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == '<html lang="en">'


# --- arithmetic kept left to right -------------------------------------------------------------


def test_an_expression_is_held_left_to_right_only_in_a_right_to_left_language():
    with translation.override("ar"):
        assert known_fact_text("add", 3, 4) == f"{OPEN}3 + 4 = 7{CLOSE}"
        assert bidi.ltr("−3") == f"{OPEN}−3{CLOSE}"
        title = str(titles.practise_facts([("add", 5, 9), ("mul", 7, 8)]))
        assert f"{OPEN}5 + 9{CLOSE}" in title and f"{OPEN}7 × 8{CLOSE}" in title
    with translation.override("en"):
        assert known_fact_text("add", 3, 4) == "3 + 4 = 7"
        assert str(titles.practise_facts([("add", 5, 9)])) == "Practise 5 + 9"


def test_a_wrong_answer_is_worded_with_its_equation_held_whole():
    """Mathable Junior's wrong tile: "5 + 9 = 14" is one isolate, not "5 + 9" and then "= 14",
    which a right-to-left sentence would turn into "14 = 5 + 9"."""
    attempt = Attempt(
        game="mathable_junior", operands=[5, 9], operator="+", answer=13, expected=14, target=None
    )
    with translation.override("ar"):
        assert wording(attempt).right == f"{OPEN}5 + 9 = 14{CLOSE}"
    with translation.override("en"):
        assert wording(attempt).right == "5 + 9 = 14"


def test_a_csv_cell_is_plain_text():
    from classroom.progress.report_files import _cell

    with translation.override("ar"):
        worded = known_fact_text("mul", 6, 7)
    assert worded != "6 × 7 = 42"
    assert _cell(worded) == "6 × 7 = 42"
    assert bidi.plain(f"{OPEN}−3{CLOSE}") == "−3"


# --- the school's digits -----------------------------------------------------------------------


def test_a_school_that_chooses_eastern_arabic_digits_gets_them_on_its_arabic_pages(client):
    teacher = make_teacher()
    classroom = make_class(teacher)
    ana = make_student(classroom, "Ana")
    client.force_login(teacher)
    page = client.get(reverse("classroom:teacher_settings"), HTTP_ACCEPT_LANGUAGE="ar")
    assert 'value="arab"' in page.content.decode()
    response = client.post(
        reverse("classroom:teacher_settings"),
        {"time_zone": "UTC", "digits": digits.EASTERN_ARABIC},
        HTTP_ACCEPT_LANGUAGE="ar",
    )
    assert response.status_code == 302
    teacher.refresh_from_db()
    assert teacher.digits == digits.EASTERN_ARABIC
    # The teacher's pages and the children's, in Arabic: the digits, and the script that draws
    # every number in them.
    for user in (teacher, ana):
        client.force_login(user)
        home = client.get("/", HTTP_ACCEPT_LANGUAGE="ar", follow=True)
        assert 'data-digits="arab"' in html_tag(home)
        assert "js/numerals" in home.content.decode()
        # The same school's pages in Spanish keep Western digits.
        home = client.get("/", HTTP_ACCEPT_LANGUAGE="es", follow=True)
        assert "data-digits" not in html_tag(home)
        assert "js/numerals" not in home.content.decode()


def test_a_zone_changed_from_a_form_without_the_digits_keeps_the_schools_digits(client):
    teacher = make_teacher()
    teacher.digits = digits.EASTERN_ARABIC
    teacher.save()
    client.force_login(teacher)
    response = client.post(reverse("classroom:teacher_settings"), {"time_zone": "Europe/Madrid"})
    assert response.status_code == 302
    teacher.refresh_from_db()
    assert (teacher.time_zone, teacher.digits) == ("Europe/Madrid", digits.EASTERN_ARABIC)


def test_the_digits_filter_shows_the_schools_digits_in_arabic_only():
    from django.template import Context, Template

    template = Template("{% load numerals %}{{ n|digits }} {{ e|expression }}")
    context = Context({"n": 1234, "e": "3 + 4 = 7"})
    with translation.override("ar"), digits.override(digits.EASTERN_ARABIC):
        assert template.render(context) == '١٢٣٤ <bdo dir="ltr">٣ + ٤ = ٧</bdo>'
    with translation.override("en"), digits.override(digits.EASTERN_ARABIC):
        assert template.render(context) == '1234 <bdo dir="ltr">3 + 4 = 7</bdo>'
    with translation.override("ar"):
        assert template.render(context) == '1234 <bdo dir="ltr">3 + 4 = 7</bdo>'


# --- a child types either digit set ------------------------------------------------------------


@pytest.mark.parametrize("typed", ["٧", "7", " ٧ ", "۷"])
def test_a_typed_number_counts_in_either_digit_set(typed):
    assert digits.typed_number(typed) == 7
    assert digits.typed_number("−١٢") == -12
    assert digits.typed_number("seven") == "seven"
    assert digits.typed_number("1" * 40) == "1" * 40  # no game asks for such a number


def test_a_pin_and_a_class_code_typed_in_eastern_arabic_digits_sign_a_child_in(client):
    classroom = make_class(name="Class 2C")
    classroom.code = "AB3C4D"
    classroom.save()
    ana = make_student(classroom, "Ana", secret="7358")
    response = client.post(reverse("classroom:student_login"), {"code": "ab٣c٤d"})
    assert response["Location"] == reverse(
        "classroom:student_login_roster", kwargs={"code": "AB3C4D"}
    )
    url = reverse(
        "classroom:student_login_secret", kwargs={"code": classroom.code, "student_id": ana.pk}
    )
    response = client.post(url, {"secret": "٧٣٥٨"})
    assert response["Location"] == reverse("classroom:student_home")


def test_a_teacher_gives_a_pin_in_eastern_arabic_digits(client):
    classroom = make_class(name="Class 2C")
    ben = make_student(classroom, "Ben", secret="٢٤٦٨")
    assert ben.check_student_secret("2468")
    assert ben.check_student_secret("٢٤٦٨")


async def _send_score(path, cookie, value):
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"cookie", cookie.encode())]
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await ws.connect(timeout=5)
    assert connected, code
    try:
        assert (await ws.receive_json_from(timeout=5))["type"] == "state"
        await ws.send_json_to(
            {"type": "move", "move": {"type": "score", "value": value}, "client_id": "s1"}
        )
        while True:
            answer = await ws.receive_json_from(timeout=5)
            if answer.get("client_id") == "s1" or answer["type"] == "error":
                return answer
    finally:
        await ws.disconnect()
        await async_db.close_pool()


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
def test_an_answer_typed_in_eastern_arabic_digits_over_the_socket_counts():
    """Add or Multiply?'s round score, typed on an Arabic keyboard: "٧" is 7 at the boundary, so
    the child's right answer is recorded as right."""
    teacher = make_teacher()
    classroom = make_class(teacher)
    ana, ben, carla = (
        make_student(classroom, n, secret=s)
        for n, s in (("Ana", "1111"), ("Ben", "2222"), ("Carla", "3333"))
    )
    match = make_match(
        game="add_or_multiply",
        variant="standard",
        players=[ana, ben, carla],
        teacher=teacher,
        seed=5,
    )
    rules = engine.get_game("add_or_multiply")
    for seat, user in enumerate((ana, ben, carla)):
        match.refresh_from_db()
        move = rules.legal_moves(rules.load(match.state), seat)[0]
        submit_move(match_id=match.pk, user=user, move=move)
    match.refresh_from_db()
    score = rules.load(match.state).data["history"][-1]["scores"][0]
    typed = "".join("٠١٢٣٤٥٦٧٨٩"[int(d)] for d in str(score))
    answer = async_to_sync(_send_score)(f"/ws/match/{match.pk}/", session_cookie_for(ana), typed)
    assert answer["type"] == "state", answer
    attempt = Attempt.objects.get(match=match, user=ana)
    assert (attempt.answer, attempt.correct) == (score, True)
    assert json.dumps(attempt.answer) == str(score)


def test_a_pdf_text_carries_no_directional_mark():
    """The report's font has no glyph for the marks (they would print as boxes): a PDF's texts
    and table cells are written without them, the expression in its own order."""
    import io
    import subprocess

    from reportlab.platypus import SimpleDocTemplate

    from classroom import pdf_bidi
    from classroom.progress.report_files import _fonts, _table

    with translation.override("ar"):
        worded = known_fact_text("add", 5, 9)
        assert pdf_bidi.line(worded) == "5 + 9 = 14"
        _fonts()
        buffer = io.BytesIO()
        SimpleDocTemplate(buffer).build([_table([["skill", worded]], [100, 100], header=False)])
    text = subprocess.run(
        ["pdftotext", "-", "-"], input=buffer.getvalue(), capture_output=True, check=True
    ).stdout.decode()
    assert "5 + 9 = 14" in text
    assert not bidi.MARKS & set(text)
