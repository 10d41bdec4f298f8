"""The issue's scenario in headless Chromium, end to end through the real pages and sockets: a
teacher creates a class, imports students from a CSV file, opens a ¡Mía! Canada 47 session; three
students, already signed in, see it appear on their home page and join; the teacher starts, the
students land at their table and play while the teacher's live monitor counts their answers; the
teacher ends the session, requests a progress report and downloads its PDF, whose pages this test
renders (pdftoppm) and reads (pdftotext).

The site runs in a real Daphne process (``daphne_site``), embedded: Celery tasks run eagerly, so
the report compiles at once.
"""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import student_signs_in_with_pin
from tests.browser.test_live_play import play_mia_turn

pytestmark = pytest.mark.browser

TEACHER_EMAIL = "rivera@example.org"
TEACHER_PASSWORD = "a-long-teacher-password-42"
STUDENTS = [("Ana", "1111"), ("Ben", "2222"), ("Carla", "3333")]
PLAY_SECONDS = 90

SETUP = f"""
from accounts.services import teacher_create
teacher_create(email={TEACHER_EMAIL!r}, password={TEACHER_PASSWORD!r}, display_name="Ms Rivera")
"""


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("class-session", setup=SETUP) as site:
        yield site


def new_page(browser):
    context = browser.new_context(
        viewport={"width": 1100, "height": 900}, locale="en", accept_downloads=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def teacher_creates_a_class_from_a_csv_file(page, server) -> str:
    page.goto(server.url + "/accounts/login/")
    page.get_by_label("E-mail").fill(TEACHER_EMAIL)
    page.get_by_label("Password").fill(TEACHER_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(r"/teacher/$"))
    page.get_by_label("Class name").fill("Class 5B")
    page.get_by_role("button", name="Create class").click()
    expect(page.get_by_role("heading", name="Class 5B", level=1)).to_be_visible()
    page.get_by_role("link", name="Import a list (CSV)").click()
    csv = "name,pin\n" + "".join(f"{name},{pin}\n" for name, pin in STUDENTS)
    page.get_by_label("CSV file").set_input_files(
        {"name": "class-5b.csv", "mimeType": "text/csv", "buffer": csv.encode()}
    )
    page.get_by_role("button", name="Check the list").click()
    page.get_by_role("button", name="Import 3 students").click()
    for name, _pin in STUDENTS:
        expect(page.get_by_role("rowheader", name=name)).to_be_visible()
    return page.locator(".class-nav .class-code").first.inner_text().strip()


def student_signs_in(page, server, code, name, pin):
    student_signs_in_with_pin(page, server.url, code, name, pin)
    expect(page.get_by_role("heading", name="Game sessions")).to_be_visible()
    # The student socket is up before the teacher opens the session: it must arrive by push.
    expect(page.locator("[data-student-sessions][data-connected]")).to_have_count(1)
    expect(page.get_by_role("button", name=re.compile("^Join"))).to_have_count(0)


def teacher_opens_a_canada47_lobby(page) -> str:
    page.get_by_role("navigation", name="This class").get_by_role(
        "link", name="Game sessions"
    ).click()
    page.get_by_role("link", name="New game session").click()
    page.get_by_label("Game and variant").select_option("mia:canada47")
    options = page.locator('fieldset[data-variant="mia:canada47"]')
    expect(options).to_be_visible()
    expect(page.locator('fieldset[data-variant="mia:solo3"]')).to_be_hidden()
    options.get_by_label("Points to reach").fill("20")
    options.get_by_label("Seconds before a new card is flipped when nobody solves").fill("5")
    page.get_by_label("Players per table").fill("3")
    page.get_by_role("button", name="Open the lobby").click()
    expect(page.get_by_text("The lobby is open")).to_be_visible()
    expect(page.locator("[data-live-region][data-connected]")).to_have_count(1)
    return re.search(r"/teacher/sessions/(\d+)/", page.url).group(1)


def monitor_attempts(page) -> int:
    return sum(
        int(n)
        for n in page.locator("[data-monitor] tr[data-student]").evaluate_all(
            "(rows) => rows.map((row) => row.dataset.attempts)"
        )
    )


def test_a_class_session_from_csv_import_to_the_pdf_report(browser, server, tmp_path):
    teacher = new_page(browser)
    code = teacher_creates_a_class_from_a_csv_file(teacher, server)
    students = []
    try:
        for name, pin in STUDENTS:
            page = new_page(browser)
            students.append(page)
            student_signs_in(page, server, code, name, pin)

        session_id = teacher_opens_a_canada47_lobby(teacher)

        # Signed-in students see the session at once, without a reload, and join the lobby.
        for page in students:
            page.evaluate("window.notReloaded = true")
            join = page.get_by_role("button", name=re.compile("^Join"))
            expect(join).to_be_visible()
            assert page.evaluate("window.notReloaded === true")
            expect(page.get_by_role("status")).to_contain_text("tap Join to play")
            join.click()
            expect(page.get_by_text("You are in! Wait for your teacher")).to_be_visible()
        # The teacher's page shows who came, live.
        expect(teacher.get_by_role("heading", name="3 students in the lobby")).to_be_visible()
        for name, _pin in STUDENTS:
            expect(teacher.locator("[data-present]")).to_contain_text(name)

        teacher.get_by_role("button", name="Start the game").click()
        expect(teacher.get_by_text("The game has started")).to_be_visible()
        match_ids = {
            match_id
            for (match_id,) in server.rows(
                "select match_id from classroom_sessiontable where session_id = ?",
                int(session_id),
            )
        }
        assert len(match_ids) == 1  # three students, tables of three: one table, no bots
        (match_id,) = match_ids
        for page in students:  # pushed to their table by the student socket
            expect(page).to_have_url(re.compile(rf"/play/{match_id}/$"))
            expect(page.locator("#play-status")).to_have_text("")
        assert monitor_attempts(teacher) == 0

        # They play; the monitor counts their answers as they come, without a reload.
        teacher.evaluate("window.notReloaded = true")
        deadline = time.monotonic() + PLAY_SECONDS
        while monitor_attempts(teacher) < 3:
            assert time.monotonic() < deadline, "the monitor did not count the students' answers"
            moved = [play_mia_turn(page) for page in students]
            if "over" in moved:
                break
            if not any(m in ("claimed", "passed") for m in moved):
                students[0].wait_for_timeout(150)
        expect(teacher.locator("[data-monitor] tr[data-student]")).to_have_count(3)
        teacher.wait_for_timeout(1000)  # the last answers' snapshot
        counted = monitor_attempts(teacher)
        stored = server.rows(
            "select count(*) from games_attempt where match_id = ? and user_id is not null",
            match_id,
        )[0][0]
        assert counted == stored > 0
        assert teacher.evaluate("window.notReloaded === true")
        assert int(teacher.locator("[data-live-region]").get_attribute("data-refreshed")) > 0

        end = teacher.get_by_role("link", name="End the session…")
        if end.count():
            end.click()  # ending asks first, and says what stops
            expect(teacher.get_by_text("1 table is still playing")).to_be_visible()
            teacher.get_by_role("button", name="Yes, end the session").click()
            expect(teacher.get_by_text("The session has ended.")).to_be_visible()
        else:  # the table's game ended first, and with it the session
            expect(teacher.get_by_role("heading", name="This session has ended")).to_be_visible()
        assert server.rows("select status from games_match where id = ?", match_id)[0][0] in {
            "abandoned",
            "finished",
        }

        # The report of the week: requested, compiled, downloaded, rendered and read.
        teacher.goto(server.url + "/teacher/")
        teacher.get_by_role("link", name="Progress reports").click()
        teacher.locator("select[name=classroom]").select_option(label="Class 5B")
        choose_the_last_seven_days(teacher)
        teacher.get_by_role("button", name="Compile the report").click()
        download_link = teacher.get_by_role("link", name="Download the PDF")
        expect(download_link).to_be_visible(timeout=60_000)
        with teacher.expect_download() as info:
            download_link.click()
        pdf = tmp_path / "report.pdf"
        info.value.save_as(pdf)
        check_the_report(pdf, tmp_path)
    finally:
        for page in [teacher, *students]:
            page.context.close()


def choose_the_last_seven_days(page):
    period = page.locator("select[name=period]")
    if period.count():
        period.select_option("7")
    else:
        page.locator('input[name=period][value="7"]').check()


def check_the_report(pdf: Path, folder: Path):
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    pages = int(re.search(r"^Pages:\s+(\d+)", info.stdout, re.M).group(1))
    assert pages == 1 + len(STUDENTS)  # the class summary, then a page per student
    subprocess.run(["pdftoppm", "-png", "-r", "40", str(pdf), str(folder / "page")], check=True)
    images = sorted(folder.glob("page-*.png"))
    assert len(images) == pages
    for image in images:
        data = image.read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 2000
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    for name, _pin in STUDENTS:
        assert name in text
    assert "Class 5B" in text
    page_texts = text.split("\f")
    others = {name: {o for o, _pin in STUDENTS if o != name} for name, _pin in STUDENTS}
    for name, _pin in STUDENTS:  # each student has a page of their own
        assert any(
            name in page and not any(other in page for other in others[name])
            for page in page_texts[1:]
        ), name
