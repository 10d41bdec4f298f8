"""Printable login cards: a PDF with a card per student, and the QR code's URL that signs in."""

import re
import subprocess
from urllib.parse import urlsplit

import pytest
import segno
from django.core import signing
from django.urls import reverse
from django.utils import translation

from classroom.roster import services
from classroom.roster.cards import (
    CARD_SALT,
    CARD_WIDTH,
    PADDING,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    QR_BORDER,
    card_origin,
    card_token,
    qr_box,
)
from classroom.roster.student_secrets import Secret, secret_tag
from tests.factories import make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db
# The token after "#": a browser never sends it, so it reaches no access log.
URL_RE = re.compile(r"https?://\S+/card/#\S+")


@pytest.fixture
def classroom():
    return make_class(make_teacher(), name="Class 1A")


@pytest.fixture
def students(classroom):
    ana, _ = services.student_add(
        classroom=classroom, display_name="Ana", secret=Secret("picture", "cat-sun-star")
    )
    ben, _ = services.student_add(
        classroom=classroom, display_name="Ben", secret=Secret("pin", "2468")
    )
    # A secret set outside the roster: the card cannot print it, but still signs her in.
    carla = make_student(classroom, name="Carla", kind="pin", secret="9753")
    return ana, ben, carla


@pytest.fixture
def teacher_client(client, classroom):
    client.force_login(classroom.teacher)
    return client


def cards_url(classroom):
    return reverse("classroom:roster_cards", kwargs={"classroom_id": classroom.pk})


def pdf_text(pdf: bytes, tmp_path) -> str:
    path = tmp_path / "cards.pdf"
    path.write_bytes(pdf)
    # -raw keeps the drawing order: card after card.
    return subprocess.run(
        ["pdftotext", "-raw", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


def render_page(pdf: bytes, tmp_path, dpi: int) -> tuple[int, int, bytes]:
    """Page 1 as 8-bit grey pixels (pdftoppm's PGM): width, height, pixels."""
    (tmp_path / "cards.pdf").write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-gray", "-r", str(dpi), "-f", "1", "-l", "1", "-singlefile",
         str(tmp_path / "cards.pdf"), str(tmp_path / "page")],
        check=True,
    )  # fmt: skip
    data = (tmp_path / "page.pgm").read_bytes()
    _magic, width, height, maxval, pixels = re.match(
        rb"(P5)\s+(\d+)\s+(\d+)\s+(\d+)\s(.*)", data, re.S
    ).groups()
    assert int(maxval) == 255
    return int(width), int(height), pixels


def test_a_card_per_student_with_name_class_code_and_secret(
    teacher_client, classroom, students, tmp_path
):
    response = teacher_client.get(cards_url(classroom))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Cache-Control"] == "no-store"
    text = pdf_text(response.content, tmp_path)
    cards = text.split(f"Class code: {classroom.code}")[1:]
    assert len(cards) == 3
    ana, ben, carla = cards
    assert "Ana" in ana and all(word in ana for word in ("cat", "sun", "star"))
    assert "Ben" in ben and "2 4 6 8" in ben
    assert "Carla" in carla and "Ask your teacher for your secret." in carla
    assert "9753" not in text
    assert len(URL_RE.findall(text)) == 3


def test_cards_fill_as_many_pages_as_needed(teacher_client, classroom, tmp_path):
    for n in range(9):
        services.student_add(classroom=classroom, display_name=f"Kid {n}", generate="pin")
    pdf = teacher_client.get(cards_url(classroom)).content
    text = pdf_text(pdf, tmp_path)
    assert text.count("\f") == 2  # 8 cards a page: two pages
    assert text.count(f"Class code: {classroom.code}") == 9


def test_cards_of_chosen_students_only(teacher_client, classroom, students, tmp_path):
    _ana, ben, _carla = students
    pdf = teacher_client.get(cards_url(classroom), {"student": [ben.pk]}).content
    # Line by line: a card's sign-in link is random text, which may hold "Ana" by chance.
    lines = pdf_text(pdf, tmp_path).splitlines()
    assert "Ben" in lines and "Ana" not in lines and "Carla" not in lines


def test_the_url_printed_on_each_card_signs_that_student_in(
    teacher_client, client, classroom, students, tmp_path
):
    pdf = teacher_client.get(cards_url(classroom)).content
    urls = URL_RE.findall(pdf_text(pdf, tmp_path))
    for url, student in zip(urls, students, strict=True):
        client.logout()
        # The page at the card's address posts the token that follows "#" (card-signin.js).
        page = client.get(urlsplit(url).path)
        assert page.status_code == 200 and 'name="token"' in page.content.decode()
        response = client.post(urlsplit(url).path, {"token": urlsplit(url).fragment})
        assert response.status_code == 302
        assert response["Location"] == reverse("classroom:student_home")
        assert client.session["_auth_user_id"] == str(student.pk)
        home = client.get(reverse("classroom:student_home"))
        assert home.context["user"] == student


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_qr_code_encodes_the_printed_url(
    teacher_client, classroom, students, tmp_path, language
):
    """No QR decoder is at hand, so the test reads the code's modules off the rendered page and
    compares them with the QR code of the URL printed on the card, module by module (right to
    left, the cards and their codes are mirrored: ``qr_box`` says where)."""
    teacher_client.post(reverse("set_language"), {"language": language})
    pdf = teacher_client.get(cards_url(classroom)).content
    urls = URL_RE.findall(pdf_text(pdf, tmp_path))
    dpi = 300
    width, _height, pixels = render_page(pdf, tmp_path, dpi)
    scale = dpi / 72
    for index, url in enumerate(urls):
        expected = [
            [bool(m) for m in row]
            for row in segno.make(url, error="m", micro=False).matrix_iter(border=QR_BORDER)
        ]
        with translation.override(language):
            x, y, side = qr_box(index)
        module = side / len(expected)
        seen = [
            [
                pixels[
                    int((PAGE_HEIGHT - (y + side - (r + 0.5) * module)) * scale) * width
                    + int((x + (c + 0.5) * module) * scale)
                ]
                < 128
                for c in range(len(expected))
            ]
            for r in range(len(expected))
        ]
        assert seen == expected, f"card {index}: the QR code is not the URL's"


def test_cards_in_spanish(client, classroom, students, tmp_path):
    client.force_login(classroom.teacher)
    client.post(reverse("set_language"), {"language": "es"})
    text = pdf_text(client.get(cards_url(classroom)).content, tmp_path)
    assert f"Código de la clase: {classroom.code}" in text
    assert all(word in text for word in ("gato", "sol", "estrella", "Tu PIN"))


def test_cards_in_arabic_read_from_the_right(teacher_client, classroom, students, tmp_path):
    """An Arabic card as its reader sees it: the first card top right, each line from the right
    (the class code's label first, the name against the right edge), the QR code on the left,
    the PIN in the order it is typed, the letters joined."""
    from tests.classroom.test_progress_reports import pdf_words
    from tests.classroom.test_report_pdf_right_to_left import reads

    teacher_client.post(reverse("set_language"), {"language": "ar"})
    (tmp_path / "cards.pdf").write_bytes(teacher_client.get(cards_url(classroom)).content)
    words = pdf_words(str(tmp_path / "cards.pdf"))[0]
    with translation.override("ar"):
        label = (translation.gettext("Class code: %(code)s") % {"code": classroom.code}).split()
        boxes = [(card_origin(index), qr_box(index)) for index in range(2)]
    (ana_x, ana_y), (qr_x, _qr_y, qr_side) = boxes[0]
    ana = next(w for w in words if w[0] == "Ana")
    # The first card on the right half of the page, its name against its right edge.
    assert ana_x > PAGE_WIDTH / 2 - 1 and ana[3] == pytest.approx(ana_x + CARD_WIDTH - PADDING)
    assert qr_x + qr_side < ana[1]  # the QR code left of the text
    # Row by row from the right: the second card (Ben's) left of the first.
    assert boxes[1][0][0] < ana_x and boxes[1][0][1] == ana_y
    # "رمز الصف: CODE": the label's first word rightmost, the code last, on the left; the
    # letters in their joined forms.
    code = next(w for w in words if w[0] == classroom.code and w[1] > ana_x)
    middle = (code[2] + code[4]) / 2
    code_line = sorted(
        (w for w in words if w[2] < middle < w[4] and w[1] > ana_x), key=lambda w: w[1]
    )
    texts = [w[0] for w in code_line]
    assert texts[0] == classroom.code and len(texts) == len(label)
    assert reads(texts[-1], label[0]) and reads(texts[1], label[1])
    assert all("\ufb50" <= c <= "\ufeff" for c in texts[-1])
    # Ben's PIN, 2468, as it is typed.
    ben_x = boxes[1][0][0]
    digits = sorted(
        (
            w
            for w in words
            if w[0] in "2468" and len(w[0]) == 1 and ben_x < w[1] < ben_x + CARD_WIDTH
        ),
        key=lambda w: w[1],
    )
    assert "".join(w[0] for w in digits) == "2468"


# --- the token -----------------------------------------------------------------------------------


def signin(client, token):
    return client.get(reverse("classroom:roster_card_signin", args=[token]))


def test_a_reset_secret_retires_the_old_card(client, classroom, students):
    _ana, ben, _carla = students
    old = card_token(ben)
    services.student_set_secret(student=ben, secret=Secret("pin", "2468"))  # even the same PIN
    response = signin(client, old)
    assert response.status_code == 404
    assert "This card does not work any more" in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert signin(client, card_token(ben)).status_code == 302


def test_a_deleted_student_card_no_longer_works(client, classroom, students):
    ana = students[0]
    token = card_token(ana)
    services.student_delete(student=ana)
    assert signin(client, token).status_code == 404


def test_an_inactive_student_card_no_longer_works(client, classroom, students):
    ana = students[0]
    ana.is_active = False
    ana.save()
    assert signin(client, card_token(ana)).status_code == 404


@pytest.mark.parametrize(
    "forge",
    [
        lambda student: "garbage",
        lambda student: card_token(student)[:-2] + "xx",
        lambda student: signing.Signer(salt="other").sign(
            f"{student.pk}.{secret_tag(student.secret_hash)}"
        ),
        lambda student: signing.Signer(salt=CARD_SALT).sign(f"{student.pk}.0000"),
        lambda student: signing.Signer(salt=CARD_SALT).sign("x.y"),
    ],
)
def test_a_forged_or_mangled_token_gets_a_friendly_page(client, classroom, students, forge):
    response = signin(client, forge(students[1]))
    assert response.status_code == 404
    assert "Sign in with your class code" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_teacher_cannot_be_signed_in_by_a_card(client, classroom):
    teacher = classroom.teacher
    token = signing.Signer(salt=CARD_SALT).sign(f"{teacher.pk}.{secret_tag(teacher.secret_hash)}")
    assert signin(client, token).status_code == 404


def test_the_token_reveals_nothing_of_the_secret_hash(classroom, students):
    ben = students[1]
    token = card_token(ben)
    hash_parts = ben.secret_hash.split("$")
    assert not any(part in token for part in hash_parts if len(part) >= 6)


def test_a_card_draws_the_pictures_the_sign_in_page_shows(
    teacher_client, classroom, students, monkeypatch
):
    from accounts import pictures
    from classroom.roster import cards

    drawn = []

    def spying(key, side=100):
        drawn.append(key)
        return pictures.picture_drawing(key, side)

    monkeypatch.setattr(cards, "picture_drawing", spying)
    assert teacher_client.get(cards_url(classroom)).status_code == 200
    assert drawn == ["cat", "sun", "star"]  # Ana's, in her order
