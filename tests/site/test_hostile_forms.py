"""Hostile values in every form a teacher or a child can post: a clear answer, never a 500.

Each form's fields are read from the form the page itself renders, so a field added later is
fuzzed too."""

import re
from html import unescape
from urllib.parse import urljoin, urlsplit

import pytest
from django.urls import reverse

from tests.factories import make_class, make_session, make_student, make_teacher

pytestmark = pytest.mark.django_db

HOSTILE_VALUES = [
    "\x00",
    "Ana\x00Ben",
    '=HYPERLINK("http://x")',
    "+1+1",
    "-2",
    "@SUM(A1)",
    "\t\r\n",
    "x" * 100_000,
    "9" * 400,
    "-1",
    "1e309",
    "NaN",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "‮Ana",
    "🧮" * 50,
    "",
]
# What a form field can only be sent as raw bytes: invalid UTF-8 (a lone surrogate, encoded).
RAW_HOSTILE = ["%ED%A0%80", "%FF%FE", "%00"]


def post_forms(html: str, page_url: str) -> list[tuple[str, list[str]]]:
    """Each POST form of a page: where it posts, and its fields."""
    forms = []
    for attributes, body in re.findall(r"<form([^>]*)>(.*?)</form>", html, re.S | re.I):
        if not re.search(r'method="post"', attributes, re.I):
            continue
        action = re.search(r'action="([^"]*)"', attributes)
        names = re.findall(r'<(?:input|select|textarea|button)[^>]*\sname="([^"]+)"', body)
        names = sorted(set(names) - {"csrfmiddlewaretoken"})
        # Signing out or deleting would end the test's own access: those forms take no input.
        if names and not re.search(r"logout|delete", action.group(1) if action else ""):
            target = urljoin(page_url, unescape(action.group(1))) if action else page_url
            forms.append((target, names))
    return forms


def post_hostile(client, page_url):
    page = client.get(page_url)
    assert page.status_code == 200, page_url
    forms = post_forms(page.content.decode(), page_url)
    assert forms, f"no form on {page_url}"
    for url, names in forms:
        for value in HOSTILE_VALUES:
            for name in names:
                response = client.post(url, {name: value})
                assert response.status_code < 500, (url, name, value[:20])
            response = client.post(url, dict.fromkeys(names, value))
            assert response.status_code < 500, (url, "every field", value[:20])
        for raw in RAW_HOSTILE:
            body = "&".join(f"{name}={raw}" for name in names)
            response = client.post(url, body, content_type="application/x-www-form-urlencoded")
            assert response.status_code < 500, (url, raw)
    return forms


@pytest.fixture
def school():
    teacher = make_teacher()
    classroom = make_class(teacher)
    ben = make_student(classroom, "Ben", secret="2468")
    return teacher, classroom, ben


def test_the_sign_in_and_sign_up_forms(client, school, settings):
    settings.AXES_ENABLED = False  # this test is about input, not about throttling
    _teacher, classroom, ben = school
    for url in (
        reverse("accounts:login"),
        reverse("accounts:signup"),
        reverse("accounts:password_reset"),
        reverse("classroom:student_login"),
        reverse("classroom:student_login_secret", args=[classroom.code, ben.pk]),
    ):
        post_hostile(client, url)


@pytest.mark.timeout(300)
def test_the_teachers_forms(client, school):
    teacher, classroom, ben = school
    client.force_login(teacher)
    session = make_session(classroom)
    posted = set()
    for url in (
        reverse("classroom:teacher_home"),
        reverse("classroom:match_new") + f"?variant=mia:express&classroom={classroom.pk}",
        reverse("classroom:roster_class_edit", args=[classroom.pk]),
        reverse("classroom:roster_student_add", args=[classroom.pk]),
        reverse("classroom:roster_import", args=[classroom.pk]),
        reverse("classroom:roster_student", args=[classroom.pk, ben.pk]),
        reverse("classroom:sessions_create", args=[classroom.pk]),
        reverse("classroom:sessions_detail", args=[session.pk]),
        reverse("classroom:homework_create", args=[classroom.pk]),
        reverse("classroom:homework_personal_create", args=[classroom.pk]),
        reverse("classroom:progress_student", args=[classroom.pk, ben.pk]),
    ):
        posted |= {urlsplit(action).path for action, _names in post_hostile(client, url)}
    # still signed in, and every form the pages offer was posted to
    assert client.get(reverse("classroom:teacher_home")).status_code == 200
    for name, args in [
        ("classroom_create", []),
        ("match_new", []),
        ("roster_student_add", [classroom.pk]),
        ("roster_import", [classroom.pk]),
        ("roster_student_rename", [classroom.pk, ben.pk]),
        ("roster_student_secret", [classroom.pk, ben.pk]),
        ("sessions_create", [classroom.pk]),
        ("homework_create", [classroom.pk]),
        ("homework_personal_create", [classroom.pk]),
        ("practise_facts", [classroom.pk]),
    ]:
        assert reverse(f"classroom:{name}", args=args) in posted, name


HOSTILE_CLASS_LISTS = {
    "utf-8 with a BOM": ("\ufeffname,pin\nAna,1234\nNúñez,4321\n".encode(), ["Ana", "Núñez"]),
    "utf-16 with its BOM (Excel's 'Unicode text')": (
        "name\tpin\nAna\t1234\nNúñez\t4321\n".encode("utf-16"),
        ["Ana", "Núñez"],
    ),
    "formulas stay names, shown as written": (
        b"=cmd|' /C calc'!A0\n+SUM(1)\n-2+3\n@A1\n",
        ["=cmd|' /C calc'!A0", "+SUM(1)", "-2+3", "@A1"],
    ),
    "utf-16 without a BOM reads as NULs": ("Ana\nBen\n".encode("utf-16-le"), None),
    "a NUL in a name": (b"Ana\x00Ben\n", None),
    "latin-1": ("Núñez\n".encode("latin-1"), None),
    "binary": (bytes(range(256)) * 4, None),
    "huge": (b"Ana\n" * 100_000, None),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_CLASS_LISTS))
def test_a_hostile_class_list_is_previewed_or_refused_with_a_reason(client, school, case):
    from django.core.files.uploadedfile import SimpleUploadedFile

    teacher, classroom, _ben = school
    client.force_login(teacher)
    data, names = HOSTILE_CLASS_LISTS[case]
    url = reverse("classroom:roster_import", args=[classroom.pk])
    upload = SimpleUploadedFile("class.csv", data, content_type="text/csv")
    response = client.post(url, {"file": upload, "generate": "pin"})
    assert response.status_code == 200
    plan = response.context["plan"]
    if names is None:
        # refused as a whole, with a reason the page shows
        assert plan is None
        errors = response.context["form"].errors
        assert errors and any(errors.values())
        assert 'class="errorlist' in response.content.decode()
    else:
        assert [row.name for row in plan.rows] == names and plan.ok
