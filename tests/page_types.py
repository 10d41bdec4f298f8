"""Every page type a visitor, a teacher, a child, a family and the projector see, with the data
that fills them, and the files a teacher downloads: for the checks that walk them all in every
language (tests/site/test_page_texts_marked.py in-process, tests/browser/
test_every_page_in_every_language.py in Chromium). Every game has a table still playing and one
played to its end.

``every_page_type()`` runs with Django set up and a database to write: in a test, or as a browser
test site's set-up (``print(json.dumps(every_page_type()))``)."""

from __future__ import annotations

import datetime

GAMES = {
    "mia": ("express", {"pass_timeout_seconds": 120}),
    "sum": ("standard", {}),
    "add_up": ("standard", {}),
    "mathable_junior": ("front", {}),
    "add_or_multiply": ("standard", {}),
}


def every_page_type() -> dict:
    """Fills the database; returns the people (their ids and session cookies), the pages as
    ``[who, path, kind]`` (kind: "page", "play" or "projector") and the downloads as
    ``[who, path, kind]`` (kind: "pdf" or "csv"; a report's files and the class's export are asked
    for in the language of the check)."""
    from django.urls import reverse
    from django.utils import timezone

    from classroom.demo import seed_demo
    from classroom.homework.services import BotGamesSpec, work_start
    from classroom.models import ProgressReport
    from classroom.practice.services import personal_assignment_create
    from classroom.progress import services as progress_services
    from classroom.progress.selectors import Period
    from classroom.roster.class_table_rows import whole_history
    from classroom.sessions.services import session_deal, session_join, session_start
    from tests.factories import (
        finish_match_by_bots,
        make_assignment,
        make_match,
        make_session,
        session_cookie_for,
    )

    classroom = seed_demo()
    teacher = classroom.teacher
    students = [e.student for e in classroom.enrollments.select_related("student").order_by("id")]
    ana, ben, carla = students[:3]
    pin_student = next(s for s in students if s.secret_kind == "pin")
    lobby = make_session(classroom, game="add_up", variant="standard", table_size=3)
    for student in students[1:4]:
        session_join(session=lobby, student=student)
    session_deal(session=lobby)
    playing = make_session(classroom, game="mia", variant="express", table_size=3)
    for student in [ana, *students[4:6]]:
        session_join(session=playing, student=student)
    session_start(session=playing)
    tables, finished = {}, {}
    for seed, (game, (variant, options)) in enumerate(GAMES.items(), start=1):
        players = [ana, ben, carla] if game == "add_or_multiply" else [ana, ben]
        bots = ["easy"] if game == "mia" else []
        tables[game] = make_match(
            game=game,
            variant=variant,
            players=players,
            bots=bots,
            teacher=teacher,
            options=options,
            seed=seed,
        )
        finished[game] = make_match(
            game=game, variant=variant, players=players, bots=bots, teacher=teacher, seed=seed
        )
        finish_match_by_bots(finished[game], level="strong")
    solo = make_match(game="mia", variant="solo3", players=[ana], teacher=teacher, seed=6)
    homework = make_assignment(
        classroom, spec=BotGamesSpec("sum", "standard", 2, "adaptive", 2, {})
    )
    work_start(assignment=homework, student=ana, item=0)
    personal = personal_assignment_create(
        classroom=classroom,
        allowed=["mia:puzzles", "add_or_multiply"],
        count=2,
        due_at=timezone.now() + datetime.timedelta(days=3),
        title="Our facts",
    )
    today = timezone.localdate()
    report = progress_services.report_request(
        classroom=classroom,
        period=Period(today - datetime.timedelta(days=29), today),
        requested_by=teacher,
        language="en",
    )
    # The whole-class export, written as Celery writes it, for its page and its download.
    export = progress_services.report_request(
        classroom=classroom,
        period=whole_history(classroom=classroom),
        requested_by=teacher,
        language="en",
        kind=ProgressReport.Kind.CLASS_TABLES,
    )
    progress_services.report_compile(report_id=export.pk)
    c, s = classroom.pk, ana.pk
    pages = [
        ("visitor", reverse("landing")),
        ("visitor", reverse("accounts:login")),
        ("visitor", reverse("accounts:signup")),
        ("visitor", reverse("accounts:password_reset")),
        ("visitor", reverse("classroom:student_login")),
        ("visitor", reverse("classroom:student_login_roster", args=[classroom.code])),
        ("visitor", reverse("classroom:student_login_secret", args=[classroom.code, ana.pk])),
        (
            "visitor",
            reverse("classroom:student_login_secret", args=[classroom.code, pin_student.pk]),
        ),
        ("visitor", reverse("classroom:roster_card")),
        ("teacher", reverse("classroom:teacher_home")),
        ("teacher", reverse("classroom:teacher_settings")),
        ("teacher", reverse("accounts:password_change")),
        ("teacher", reverse("classroom:match_new")),
        ("teacher", reverse("classroom:match_new") + f"?variant=mia:canada47&classroom={c}"),
        ("teacher", reverse("classroom:roster_class", args=[c])),
        ("teacher", reverse("classroom:roster_class_edit", args=[c])),
        ("teacher", reverse("classroom:roster_class_delete", args=[c])),
        ("teacher", reverse("classroom:roster_student_add", args=[c])),
        ("teacher", reverse("classroom:roster_student", args=[c, s]) + "?added=1"),
        ("teacher", reverse("classroom:roster_student_delete", args=[c, s])),
        ("teacher", reverse("classroom:roster_import", args=[c])),
        ("teacher", reverse("classroom:sessions_list", args=[c])),
        ("teacher", reverse("classroom:sessions_create", args=[c])),
        ("teacher", reverse("classroom:sessions_detail", args=[lobby.pk])),
        ("teacher", reverse("classroom:sessions_move_page", args=[lobby.pk, ben.pk])),
        ("teacher", reverse("classroom:sessions_detail", args=[playing.pk])),
        ("teacher", reverse("classroom:sessions_end", args=[playing.pk])),
        ("teacher", reverse("classroom:homework_list", args=[c])),
        ("teacher", reverse("classroom:homework_create", args=[c])),
        ("teacher", reverse("classroom:homework_detail", args=[homework.pk])),
        ("teacher", reverse("classroom:homework_edit", args=[homework.pk])),
        ("teacher", reverse("classroom:homework_personal_create", args=[c])),
        ("teacher", reverse("classroom:homework_detail", args=[personal.pk])),
        ("teacher", reverse("classroom:progress_class", args=[c])),
        ("teacher", reverse("classroom:progress_class_facts", args=[c])),
        ("teacher", reverse("classroom:progress_class_activity", args=[c])),
        ("teacher", reverse("classroom:progress_student", args=[c, s])),
        ("teacher", reverse("classroom:progress_reports")),
        ("teacher", reverse("classroom:progress_report", args=[report.pk])),
        ("teacher", reverse("classroom:progress_report", args=[export.pk])),
        ("teacher", reverse("classroom:access_class_log", args=[c])),
        ("teacher", reverse("classroom:oneroster_import")),
        ("teacher", reverse("classroom:oneroster_gradebook", args=[c])),
        ("family", reverse("classroom:progress_student_summary", args=[c, s])),
        ("student", reverse("classroom:student_home")),
        ("student", reverse("classroom:own_progress")),
        ("student", reverse("classroom:sessions_lobby", args=[lobby.pk])),
        ("student", reverse("classroom:homework_student", args=[homework.pk])),
        ("student", reverse("classroom:homework_student", args=[personal.pk])),
    ]
    pages = [[who, path, "page"] for who, path in pages]
    pages.append(
        ["teacher", reverse("classroom:sessions_projector", args=[playing.pk]), "projector"]
    )
    pages += [["student", reverse("games:play", args=[m.pk]), "play"] for m in tables.values()]
    pages += [["student", reverse("games:play", args=[m.pk]), "play"] for m in finished.values()]
    pages.append(["student", reverse("games:play", args=[solo.pk]), "play"])
    pages.append(["teacher", reverse("games:watch", args=[tables["mia"].pk]), "play"])
    downloads = [
        ["teacher", reverse("classroom:roster_cards", args=[c]), "pdf"],
        ["teacher", reverse("classroom:progress_student_attempts", args=[c, s]), "csv"],
        ["teacher", reverse("classroom:access_class_log_csv", args=[c]), "csv"],
    ]
    return {
        "teacher": session_cookie_for(teacher),
        "student": session_cookie_for(ana),
        # The family's summary is the teacher's page, its sheet in the family's language (Ana's
        # record: ``ids["child"]``).
        "family": session_cookie_for(teacher),
        "ids": {
            "teacher": teacher.pk,
            "student": ana.pk,
            "family": teacher.pk,
            "child": ana.pk,
            "classroom": c,
        },
        "pages": pages,
        "downloads": downloads,
    }
