"""Personal practice (issue 25): each child gets their own items toward their own facts; the
teacher sees, per child, the facts in focus, what was practised and what moved."""

import datetime
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

import engine
from classroom.models import Assignment, AssignmentWork, PersonalPlan
from classroom.practice import services as practice
from classroom.practice.working_set import table_facts
from games.models import Match, MoveRecord
from tests.factories import make_attempts, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db

SUM = engine.get_game("sum")
MIA = engine.get_game("mia")


def at(day: datetime.date, hour=10) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time(hour), timezone.get_current_timezone())


YESTERDAY = timezone.localdate() - datetime.timedelta(days=1)


@pytest.fixture
def classroom():
    return make_class(make_teacher(name="Ms Rivera"), name="Class 3B")


def facts_of(plan):
    return [(f["operation"], f["first"], f["second"]) for f in plan.facts]


def post_personal(client, classroom, **data):
    due = (timezone.localtime() + datetime.timedelta(days=7)).strftime("%Y-%m-%dT%H:%M")
    body = {
        "title": "Our facts",
        "due_at": due,
        "games": ["mia", "sum"],
        "count": 3,
        "bot_level": "easy",
        **data,
    }
    return client.post(reverse("classroom:homework_personal_create", args=[classroom.pk]), body)


def assign(classroom, allowed, count, **extra):
    """Personal practice set through the service, due in three days."""
    due = timezone.now() + datetime.timedelta(days=3)
    return practice.personal_assignment_create(
        classroom=classroom, allowed=allowed, count=count, due_at=due, **extra
    )


def play(client, student, assignment, item):
    client.force_login(student)
    response = client.post(
        reverse("classroom:homework_play", args=[assignment.pk]), {"item": str(item)}
    )
    return response


def test_a_class_of_30_gets_each_child_their_own_items_dealt_toward_their_facts(client, classroom):
    students = [make_student(classroom, f"Child {n:02}", kind="", secret=None) for n in range(30)]
    ana, ben = students[0], students[1]
    # Ana slipped on 3 x 3 yesterday, Ben on 3 + 4: their working sets differ.
    make_attempts(ana, [(3, "x", 3, 6, 2500, at(YESTERDAY))])
    make_attempts(ben, [(3, "+", 4, 8, 2500, at(YESTERDAY))])
    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:homework_personal_create", args=[classroom.pk]))
    assert page.status_code == 200
    # Only games that can deal toward table facts are offered: ADD-UP deals differences only.
    assert 'value="sum"' in page.content.decode()
    assert 'value="add_up"' not in page.content.decode()
    response = post_personal(client, classroom)
    assignment = Assignment.objects.get(kind=Assignment.Kind.PERSONAL)
    assert response.status_code == 302
    assert response.url == reverse("classroom:homework_detail", args=[assignment.pk])
    plans = {plan.student_id: plan for plan in PersonalPlan.objects.filter(assignment=assignment)}
    assert set(plans) == {s.pk for s in students}
    assert facts_of(plans[ana.pk])[0] == ("mul", 3, 3)
    assert facts_of(plans[ben.pk])[0] == ("add", 3, 4)
    assert plans[ana.pk].facts[0]["kind"] == "learning"
    assert plans[ana.pk].facts[0]["why"] == {"code": "slips", "count": 1}
    # A child without answers gets the set's new facts, among those the allowed games can deal:
    # no ¡Mía! or SUM card makes 0 + 0, so a new child's practice would otherwise be plain.
    newcomer = plans[students[2].pk]
    assert [f["kind"] for f in newcomer.facts] == ["new", "new"]
    assert all(
        any(
            engine.get_game(g).focus.dealable(v, [f])
            for g, v in (("mia", "express"), ("sum", "standard"))
        )
        for f in facts_of(newcomer)
    ), facts_of(newcomer)
    # Each game's facts from her own: SUM's (3 x 3 and her next products) and ¡Mía!'s (her next
    # sums: no ¡Mía! card makes a product), so both games have her facts to deal.
    ana_facts = facts_of(plans[ana.pk])
    assert len([f for f in ana_facts if f[0] == "mul"]) == 3
    sums = [f for f in ana_facts if f[0] == "add"]
    assert sums and MIA.focus.dealable("express", sums) == set(sums)
    assert {item["game"] for item in plans[ana.pk].items} == {"sum", "mia"}
    assert all(len(plan.items) == 3 for plan in plans.values())

    # Ana opens her SUM item: a match dealt toward her facts.
    sum_item = next(i for i, entry in enumerate(plans[ana.pk].items) if entry["game"] == "sum")
    response = play(client, ana, assignment, sum_item)
    work = AssignmentWork.objects.get(assignment=assignment, student=ana)
    assert response.url == reverse("games:play", args=[work.match_id])
    match = Match.objects.get(pk=work.match_id)
    assert match.game == "sum"
    expected = SUM.focus.facts("standard", facts_of(plans[ana.pk]))
    assert ("mul", 3, 3) in expected and match.focus == [list(f) for f in expected]
    assert match.seats.filter(user=ana).exists() and match.seats.count() == 2
    # Ben's item 0 is his own match, toward his facts (his addition facts in its game).
    play(client, ben, assignment, 0)
    ben_match = AssignmentWork.objects.get(assignment=assignment, student=ben).match
    game = engine.get_game(ben_match.game)
    cut = game.focus.facts(
        ben_match.variant, [f for f in facts_of(plans[ben.pk]) if f[0] in game.focus.operations]
    )
    assert ben_match.focus == [list(f) for f in cut]
    assert ["add", 3, 4] in ben_match.focus
    assert ben_match.focus != match.focus

    # The child's page lists their own items, with their games.
    page = client.get(reverse("classroom:homework_student", args=[assignment.pk]))
    assert page.status_code == 200
    assert page.context["items"][0].match_id == ben_match.pk
    assert [item.title for item in page.context["items"]] == [
        practice_title(entry) for entry in plans[ben.pk].items
    ]


def practice_title(entry):
    from classroom.practice.plans import item_title

    return item_title(entry)


def test_the_teachers_page_reads_the_class_in_the_same_queries_for_3_or_30_children(
    client, classroom
):
    students = [make_student(classroom, f"Child {n:02}", kind="", secret=None) for n in range(30)]
    for student in students[:5]:
        make_attempts(student, [(6, "x", 7, 41, 2500, at(YESTERDAY))])
    due = timezone.now() + datetime.timedelta(days=3)
    made = []
    # Setting it reads the children's working sets in one query, whatever their number.
    for title, ids in (("Few", [s.pk for s in students[:3]]), ("All", None)):
        with CaptureQueriesContext(connection) as queries:
            made.append(
                practice.personal_assignment_create(
                    classroom=classroom,
                    title=title,
                    allowed=["sum"],
                    count=2,
                    due_at=due,
                    student_ids=ids,
                )
            )
        made.append(len(queries))
    few, few_queries, all_, all_queries = made
    assert few_queries == all_queries
    client.force_login(classroom.teacher)
    counts = []
    for assignment in (few, all_):
        with CaptureQueriesContext(connection) as queries:
            page = client.get(reverse("classroom:homework_detail", args=[assignment.pk]))
        assert page.status_code == 200
        counts.append(len(queries))
    assert len(page.context["personal"]) == 30
    assert counts[0] == counts[1]


def test_a_child_cannot_open_another_childs_items(client, classroom):
    ana = make_student(classroom, "Ana", secret="1111")
    ben = make_student(classroom, "Ben", secret="2222")
    assignment = assign(classroom, ["sum", "mia"], 2, student_ids=[ana.pk], title="Ana's facts")
    client.force_login(ben)
    assert (
        client.get(reverse("classroom:homework_student", args=[assignment.pk])).status_code == 404
    )
    response = client.post(reverse("classroom:homework_play", args=[assignment.pk]), {"item": "0"})
    assert response.status_code == 404
    assert not AssignmentWork.objects.filter(assignment=assignment).exists()
    # Nor is it on Ben's home page; it is on Ana's.
    assert "Ana&#x27;s facts" not in client.get(reverse("classroom:student_home")).content.decode()
    client.force_login(ana)
    assert "Ana&#x27;s facts" in client.get(reverse("classroom:student_home")).content.decode()
    response = client.post(reverse("classroom:homework_play", args=[assignment.pk]), {"item": "1"})
    assert response.status_code == 302
    assert AssignmentWork.objects.get(assignment=assignment).student == ana


def _ana_practised_three_threes(client, classroom):
    """Ana (wrong on 3 x 3 yesterday) and Ben get personal practice; since, Ana answers 3 x 3
    right and quick twice. The teacher's page of it, with Ana and Ben."""
    ana = make_student(classroom, "Ana", kind="", secret=None)
    ben = make_student(classroom, "Ben", kind="", secret=None)
    make_attempts(ana, [(3, "x", 3, 6, 2500, at(YESTERDAY))])
    assignment = assign(classroom, ["sum"], 1, title="Facts")
    later = timezone.now() + datetime.timedelta(seconds=1)
    make_attempts(ana, [(3, "x", 3, 9, 1400, later), (3, "x", 3, 9, 1600, later)])
    client.force_login(classroom.teacher)
    return client.get(reverse("classroom:homework_detail", args=[assignment.pk])), ana, ben


def test_an_items_deal_is_focused_on_every_fact_of_the_childs_set_its_game_can_show(
    client, classroom
):
    """A set for several games, merged, holds a few facts for each game, so more than a dozen
    with three games. The engine kept the first 12 facts of a focus and dropped the rest, the
    set's reviews and new facts last among them, so Add or Multiply? never dealt them."""
    ana = make_student(classroom, "Ana", kind="", secret=None)
    draw = random.Random(7)
    history = []
    for days_ago in range(2, 16):
        when = at(timezone.localdate() - datetime.timedelta(days=days_ago))
        for _answer in range(12):
            sign = draw.choice("+x")
            a, b = draw.randint(1, 10), draw.randint(1, 10)
            value = a + b if sign == "+" else a * b
            right = draw.random() < 0.7
            history.append((a, sign, b, value if right else value + 1, 1500, when))
    make_attempts(ana, history)
    assignment = assign(classroom, ["add_or_multiply", "sum", "mia:puzzles"], 6, title="Ours")
    [plan] = PersonalPlan.objects.filter(assignment=assignment)
    game = engine.get_game("add_or_multiply")
    shown = [f for f in facts_of(plan) if game.focus.shows("to_ten", f)]
    assert len(shown) > 12, "the scripted history should give a set of more than 12 facts"
    item = next(i for i, e in enumerate(plan.items) if e["game"] == "add_or_multiply")
    play(client, ana, assignment, item)
    match = AssignmentWork.objects.get(assignment=assignment, student=ana, item=item).match
    assert match.focus == [list(f) for f in shown]


def test_the_teacher_sees_per_child_what_was_practised_and_what_moved(client, classroom):
    page, ana, ben = _ana_practised_three_threes(client, classroom)
    rows = {row.student.pk: row for row in page.context["personal"]}
    three_threes = rows[ana.pk].facts[0]
    assert three_threes.fact == "3 × 3"
    assert (three_threes.answers, three_threes.right, three_threes.median_seconds) == (2, 2, "1.5")
    assert three_threes.then == "being learned"
    assert three_threes.now == "due for review in 1 day"
    html = page.content.decode()
    assert "being learned → due for review in 1 day" in html
    assert "2 of 2 answers right, median 1.5 s" in html
    # Ben was given new facts and has not practised them.
    assert all(f.answers == 0 and not f.moved for f in rows[ben.pk].facts)
    assert "not practised yet" in html


def test_why_each_fact_was_chosen_reads_in_the_language_of_whoever_reads_the_page(
    client, classroom
):
    """The reasons were stored as text in the language of the request that set the practice: a
    teacher who set it in English and read it in Spanish (or a colleague reading it) saw
    "wrong once this week" among Spanish words. They are stored as data and worded on reading."""
    page, ana, _ben = _ana_practised_three_threes(client, classroom)
    assignment = page.context["assignment"]
    english = page.content.decode()
    assert "wrong once this week" in english
    assert "next new fact (" in english
    spanish = client.get(
        reverse("classroom:homework_detail", args=[assignment.pk]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert "mal una vez esta semana" in spanish
    assert "wrong once this week" not in spanish
    assert "next new fact" not in spanish
    assert "siguiente operación nueva (" in spanish
    # A plan set before the reasons were kept as data shows the words it kept.
    plan = PersonalPlan.objects.get(assignment=assignment, student=ana)
    plan.facts = [{**plan.facts[0], "reason": "wrong twice last week"}]
    del plan.facts[0]["why"]
    plan.save()
    again = client.get(reverse("classroom:homework_detail", args=[assignment.pk]))
    assert "wrong twice last week" in again.content.decode()


def test_the_teacher_reads_why_a_mastered_fact_and_a_fact_placed_by_its_turnaround_are_due(
    client, classroom
):
    """Every way a fact comes into a child's set has its reason on the assignment's page: a
    mastered fact back for its monthly review, and one being learned that its turnaround, right
    and quick, moved to review (docs/progress.md, "A fact and its turnaround")."""
    ana = make_student(classroom, "Ana", kind="", secret=None)
    first = timezone.localdate() - datetime.timedelta(days=34)

    def on(days):
        return at(first + datetime.timedelta(days=days))

    make_attempts(
        ana,
        [(6, "+", 7, 13, 1500, on(0)), (6, "+", 7, 13, 1500, on(1))]
        + [(6, "+", 7, 13, 1400 + n, on(4)) for n in range(3)]
        + [(3, "+", 4, 8, 2500, on(0)), (4, "+", 3, 7, 1500, on(1))],
    )
    assignment = assign(classroom, ["add_or_multiply"], 1, title="Facts")
    client.force_login(classroom.teacher)
    html = client.get(reverse("classroom:homework_detail", args=[assignment.pk])).content.decode()
    assert "mastered, due for its monthly review: last right and quick on" in html
    assert "due for review: right and quick as" in html
    assert "4 + 3" in html


def test_each_childs_facts_fold_under_a_line_saying_how_many_were_practised_and_moved(
    client, classroom
):
    """On a phone, six children's tables of 12 to 16 facts made a page of 12,000 px: each
    child's table folds under their name and one line of figures (facts, practised,
    moved), open on demand."""
    page, ana, ben = _ana_practised_three_threes(client, classroom)
    rows = {row.student.pk: row for row in page.context["personal"]}
    assert (rows[ana.pk].practised, rows[ana.pk].moved) == (1, 1)
    assert (rows[ben.pk].practised, rows[ben.pk].moved) == (0, 0)
    html = page.content.decode()
    ana_fold = html.split(f'<details class="personal-child" data-student="{ana.pk}">')[1]
    summary, table = ana_fold.split("</summary>", 1)
    facts = len(rows[ana.pk].facts)
    assert f"{facts} facts, 1 practised, 1 moved" in " ".join(summary.split())
    assert 'class="data-table personal-facts"' in table.split("</details>")[0]
    # Folded: no child's table is open when the page loads.
    assert '<details class="personal-child" data-student' in html
    assert 'class="personal-child" open' not in html


# --- "practise these facts" on the progress pages -----------------------------------------------


def practise(client, classroom, facts, to, students=(), next_url=""):
    """The progress page's "Practise these facts"; as homework, the teacher then sets it on the
    personal practice form it opens, keeping what the form offers (``set_as_offered``)."""
    response = client.post(
        reverse("classroom:practise_facts", args=[classroom.pk]),
        {"facts": facts, "to": to, "students": [str(pk) for pk in students], "next": next_url},
    )
    if to == "homework":
        return set_as_offered(client, response)
    return response


def set_as_offered(client, redirect, **changes):
    """Opens the personal practice form the redirect leads to and sends it as it is filled in
    (the facts and children it was opened with, every offered game, three items), with
    ``changes``."""
    form = client.get(redirect.url).context["form"]
    data = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if value is None or field.disabled:
            continue
        if name == "due_at":
            value = value.strftime("%Y-%m-%dT%H:%M")
        data[name] = value
    data.update(changes)
    data = {name: value for name, value in data.items() if value is not None}
    return client.post(redirect.url, data)


def test_practise_on_a_students_page_sets_personal_homework_with_exactly_those_facts(
    client, classroom
):
    ana = make_student(classroom, "Ana", kind="", secret=None)
    make_student(classroom, "Ben", kind="", secret=None)
    make_attempts(ana, [(2, "x", 3, 5, 2500, at(YESTERDAY))])
    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:progress_student", args=[classroom.pk, ana.pk]))
    html = page.content.decode()
    assert 'data-practise-form="working-set"' in html
    assert 'value="mul:2:3" checked' in html
    response = practise(client, classroom, ["mul:2:3", "add:3:4"], "homework", [ana.pk])
    assignment = Assignment.objects.get(kind=Assignment.Kind.PERSONAL)
    assert response.url == reverse("classroom:homework_detail", args=[assignment.pk])
    [plan] = PersonalPlan.objects.filter(assignment=assignment)
    assert plan.student == ana
    assert facts_of(plan) == [("mul", 2, 3), ("add", 3, 4)]
    assert [f["kind"] for f in plan.facts] == ["learning", "new"]
    # Ana's first item is dealt toward those facts as its game can show them.
    play(client, ana, assignment, 0)
    match = AssignmentWork.objects.get(assignment=assignment, student=ana).match
    game = engine.get_game(match.game)
    cut = game.focus.facts(
        match.variant, [f for f in facts_of(plan) if f[0] in game.focus.operations]
    )
    assert cut and match.focus == [list(f) for f in cut]


def test_practise_a_fact_only_some_games_can_deal_gives_items_of_those_games_only(
    client, classroom
):
    """7 x 8 through "practise these facts": the child's items are shared among the games by how
    many of the teacher's facts each can deal, so none is a game that cannot deal 7 x 8 (no ¡Mía!
    card makes a product, SUM's centre card is 1 to 9)."""
    ana = make_student(classroom, "Ana", kind="", secret=None)
    client.force_login(classroom.teacher)
    practise(client, classroom, ["mul:7:8"], "homework", [ana.pk])
    [plan] = PersonalPlan.objects.filter(assignment__kind=Assignment.Kind.PERSONAL)
    assert plan.items
    for item in plan.items:
        focus = engine.get_game(item["game"]).focus
        assert focus.dealable(item["variant"], [("mul", 7, 8)]), item
    assert not {"mia", "sum"} & {item["game"] for item in plan.items}


def test_practise_with_the_most_facts_names_the_homework_within_its_title(client, classroom):
    """Twelve facts named in the homework's title: it is worded from its facts when read (no
    column to overflow), and every fact is kept."""
    ana = make_student(classroom, "Ana", kind="", secret=None)
    client.force_login(classroom.teacher)
    facts = [f"mul:{a}:{b}" for a, b in ((10, 10), (9, 10), (10, 9), (8, 10), (10, 8), (7, 10))]
    facts += [f"add:{a}:{b}" for a, b in ((10, 10), (9, 10), (10, 9), (8, 10), (10, 8), (7, 10))]
    response = practise(client, classroom, facts, "homework", [ana.pk])
    assignment = Assignment.objects.get(kind=Assignment.Kind.PERSONAL)
    assert response.status_code == 302
    assert 0 < len(assignment.title) <= 120 and assignment.title.startswith("Practise 10 × 10")
    assert len(facts_of(assignment.plans.get())) == 12


def test_practise_from_the_struggling_list_keeps_facts_for_the_next_session(client, classroom):
    from classroom.models import NextSessionFocus
    from classroom.sessions.services import session_join, session_start
    from tests.factories import make_session

    students = [make_student(classroom, name, kind="", secret=None) for name in "ABCD"]
    ana = students[0]
    now = timezone.now()
    make_attempts(
        ana, [(3, "+", 4, 8, 2500, now - datetime.timedelta(minutes=m)) for m in (1, 2, 3)]
    )
    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:progress_class", args=[classroom.pk]))
    html = page.content.decode()
    assert 'name="facts" value="add:3:4" checked' in html
    url = reverse("classroom:progress_class", args=[classroom.pk])
    response = practise(client, classroom, ["add:3:4"], "session", [ana.pk], next_url=url)
    assert response.url == url
    [kept] = NextSessionFocus.objects.all()
    assert (kept.student, kept.facts, kept.used_at) == (ana, [["add", 3, 4]], None)

    session = make_session(classroom, game="mia", variant="canada47", table_size=2)
    for student in students:
        session_join(session=session, student=student)
    lobby = client.get(reverse("classroom:sessions_detail", args=[session.pk]))
    assert 'data-focus-waiting="dealt"' in lobby.content.decode()
    session_start(session=session)
    ana_match = Match.objects.get(session_table__session=session, seats__user=ana)
    assert ana_match.focus == [["add", 3, 4]]
    others = Match.objects.filter(session_table__session=session).exclude(pk=ana_match.pk)
    assert others.exists() and all(m.focus == [] for m in others)
    kept.refresh_from_db()
    assert kept.used_in == session and kept.used_at is not None


def test_practise_from_the_class_fact_grids_for_chosen_children_or_the_class(client, classroom):
    from classroom.models import NextSessionFocus
    from classroom.sessions.services import session_join, session_start
    from tests.factories import make_session

    ana = make_student(classroom, "Ana", kind="", secret=None)
    ben = make_student(classroom, "Ben", kind="", secret=None)
    make_attempts(ana, [(7, "x", 8, 54, 2500)] * 4 + [(7, "x", 8, 56, 2500)])
    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:progress_class_facts", args=[classroom.pk]))
    html = page.content.decode()
    assert 'data-practise-form="grids"' in html
    assert 'name="facts" value="mul:7:8" checked' in html
    assert f'name="students" value="{ben.pk}"' in html
    practise(client, classroom, ["mul:7:8", "mul:2:3"], "session", [ben.pk])
    assert list(NextSessionFocus.objects.values_list("student", flat=True)) == [ben.pk]
    # With no child ticked, homework for the whole class.
    practise(client, classroom, ["mul:7:8"], "homework")
    assignment = Assignment.objects.get(kind=Assignment.Kind.PERSONAL)
    assert set(assignment.plans.values_list("student", flat=True)) == {ana.pk, ben.pk}
    # A game that cannot be focused deals plainly, the teacher is told, and the facts wait.
    session = make_session(classroom, game="add_or_multiply", variant="standard", table_size=3)
    session_join(session=session, student=ben)
    lobby = client.get(reverse("classroom:sessions_detail", args=[session.pk]))
    assert 'data-focus-waiting="plain"' in lobby.content.decode()
    session_start(session=session)
    assert Match.objects.get(session_table__session=session).focus == []
    assert NextSessionFocus.objects.get().used_at is None


def test_practise_refuses_another_teachers_class_and_a_get(client, classroom):
    ana = make_student(classroom, "Ana", kind="", secret=None)
    other = make_teacher(name="Mr Other")
    client.force_login(other)
    assert practise(client, classroom, ["add:3:4"], "session", [ana.pk]).status_code == 404
    client.force_login(classroom.teacher)
    url = reverse("classroom:practise_facts", args=[classroom.pk])
    assert client.get(url).status_code == 405
    # Back only to a page of this site.
    response = practise(client, classroom, ["add:3:4"], "session", [ana.pk], "https://evil.test/")
    assert response.url == reverse("classroom:progress_class", args=[classroom.pk])


def test_a_puzzle_item_is_the_puzzle_makers_focused_puzzle(client, classroom):
    ana = make_student(classroom, "Ana", kind="", secret=None)
    make_attempts(ana, [(3, "+", 4, 8, 2500, at(YESTERDAY))])
    assignment = assign(classroom, ["mia:puzzles"], 1, seed=7, title="Squares")
    plan = PersonalPlan.objects.get(assignment=assignment)
    entry = plan.items[0]
    assert (entry["game"], entry["size"]) == ("mia", 3)
    play(client, ana, assignment, 0)
    match = AssignmentWork.objects.get(assignment=assignment).match
    deal = MIA.puzzles.generate(
        3,
        practice.PUZZLE_DIFFICULTY,
        entry["seed"],
        focus=list(MIA.focus.facts("solo3", facts_of(plan))),
    )
    assert (match.variant, match.seed, match.seats.count()) == ("solo3", deal.seed, 1)
    assert ["add", 3, 4] in match.focus
    assert match.focus == [list(f) for f in deal.focus]
    # The child's page names the item a puzzle, and so does the teacher's.
    page = client.get(reverse("classroom:homework_student", args=[assignment.pk]))
    assert page.context["items"][0].title == "¡Mía! puzzle"
    assert page.context["items"][0].max_stars == MIA.puzzles.max_stars


def test_a_puzzle_among_other_games_is_focused_on_the_childs_facts_a_puzzle_can_show(
    client, classroom
):
    """Ana's three facts wrong twice this week are ones no ¡Mía! square can show (7 x 8, 0 + 5,
    10 + 3); 6 + 7, wrong the day before, it can. With Add or Multiply? allowed too, her plan
    holds both games' facts and her puzzle is focused on 6 + 7 (it was dealt with no focus)."""
    ana = make_student(classroom, "Ana", kind="", secret=None)
    make_attempts(
        ana,
        [
            *[(7, "x", 8, 54, 2500, at(YESTERDAY)), (0, "+", 5, 6, 2500, at(YESTERDAY))] * 2,
            *[(10, "+", 3, 12, 2500, at(YESTERDAY))] * 2,
            (6, "+", 7, 12, 2500, at(YESTERDAY - datetime.timedelta(days=1))),
        ],
    )
    assignment = assign(classroom, ["add_or_multiply", "mia:puzzles"], 5, seed=7, title="Our facts")
    plan = PersonalPlan.objects.get(assignment=assignment)
    assert set(facts_of(plan)[:3]) == {("mul", 7, 8), ("add", 0, 5), ("add", 10, 3)}
    assert facts_of(plan)[3] == ("add", 6, 7)
    reasons = {(f["operation"], f["first"], f["second"]): f["why"] for f in plan.facts}
    assert reasons["add", 6, 7] == {"code": "slips", "count": 1}
    puzzle_item = next(i for i, entry in enumerate(plan.items) if entry["size"] == 3)
    play(client, ana, assignment, puzzle_item)
    match = AssignmentWork.objects.get(assignment=assignment).match
    assert match.variant == "solo3"
    assert ["add", 6, 7] in match.focus


def test_a_childs_items_go_to_the_games_with_the_most_facts_left_to_teach_them(classroom):
    """Ben knows every sum a ¡Mía! square can show (right and quick on three due days, the next
    review a week away) but no times table: his four items are Add or Multiply? games, not puzzles
    of sums he knows. Cai has answered nothing: her items go to both games, the more to Add or
    Multiply?, which can teach her every table fact where a square shows 63 sums."""
    ben = make_student(classroom, "Ben", kind="", secret=None)
    cai = make_student(classroom, "Cai", kind="", secret=None)
    today = timezone.localdate()
    square_sums = sorted(MIA.focus.dealable("solo3", table_facts()))
    assert len(square_sums) == 63
    make_attempts(
        ben,
        [
            (a, "+", b, a + b, 1500, at(today - datetime.timedelta(days=back)))
            for back in (5, 4, 1)
            for _op, a, b in square_sums
        ],
    )
    assignment = assign(classroom, ["mia:puzzles", "add_or_multiply"], 4, seed=7, title="Our facts")
    plans = {plan.student_id: plan for plan in PersonalPlan.objects.filter(assignment=assignment)}
    assert [item["game"] for item in plans[ben.pk].items] == ["add_or_multiply"] * 4
    assert not [f for f in facts_of(plans[ben.pk]) if f in square_sums]
    cai_games = [item["game"] for item in plans[cai.pk].items]
    assert 1 <= cai_games.count("mia") < cai_games.count("add_or_multiply")


def test_the_teacher_lists_edits_and_reads_personal_practice_in_spanish(client, classroom):
    ana = make_student(classroom, "Ana", kind="", secret=None)
    make_student(classroom, "Ben", kind="", secret=None)
    client.force_login(classroom.teacher)
    post_personal(client, classroom, students=[str(ana.pk)], title="Mine")
    assignment = Assignment.objects.get(kind=Assignment.Kind.PERSONAL)
    listing = client.get(reverse("classroom:homework_list", args=[classroom.pk]))
    [summary] = listing.context["summaries"]
    assert summary.students == 1
    assert summary.description.startswith("Personal practice: 3 items for each child")
    edit = reverse("classroom:homework_edit", args=[assignment.pk])
    assert client.get(edit).status_code == 200
    due = (timezone.localtime() + datetime.timedelta(days=9)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(
        edit,
        {
            "title": "Renamed",
            "due_at": due,
            "games": ["mia", "sum"],
            "count": "9",
            "bot_level": "easy",
        },
    )
    assert response.status_code == 302
    assignment.refresh_from_db()
    assert (assignment.title, len(assignment.items)) == ("Renamed", 9)
    assert len(assignment.plans.get().items) == 9
    page = client.get(
        reverse("classroom:homework_detail", args=[assignment.pk]), HTTP_ACCEPT_LANGUAGE="es"
    )
    html = page.content.decode()
    assert "Práctica personal" in html
    assert "nueva, aún sin responder" in html


def test_personal_practice_is_set_only_by_the_class_teacher_for_their_own_students(
    client, classroom
):
    ana = make_student(classroom, "Ana", kind="", secret=None)
    elsewhere = make_class(make_teacher(name="Mr Other"), name="Class 4A")
    stranger = make_student(elsewhere, "Zoe", kind="", secret=None)
    client.force_login(elsewhere.teacher)
    url = reverse("classroom:homework_personal_create", args=[classroom.pk])
    assert client.get(url).status_code == 404
    assert post_personal(client, classroom, students=[str(ana.pk)]).status_code == 404
    client.force_login(classroom.teacher)
    refused = post_personal(client, classroom, students=[str(stranger.pk)])
    assert refused.status_code == 200 and refused.context["form"].errors.get("students")
    assert not Assignment.objects.filter(kind=Assignment.Kind.PERSONAL).exists()


def test_personal_practice_offers_add_or_multiply_against_two_bots_who_play_the_childs_facts(
    client, classroom, settings
):
    """Add or Multiply?'s deal is fixed, but its bots carry a focus (docs/rules/add_or_multiply.md,
    "Bots in focused practice"): personal practice offers it, and a child's item is a match of the
    child and two bots, with the child's facts, whose bots play those numbers on her. It is the
    variant "numbers to 10", so a fact past 6 x 6 (7 x 8) is asked too."""
    from games.services import match_wake

    settings.GAMES_BOT_DELAY_SCALE = 0.01
    ana = make_student(classroom, "Ana", kind="", secret=None)
    make_student(classroom, "Ben", kind="", secret=None)
    make_attempts(ana, [(7, "x", 8, 54, 2500, at(YESTERDAY))])
    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:homework_personal_create", args=[classroom.pk]))
    html = page.content.decode()
    assert 'value="add_or_multiply"' in html
    assert "Add or Multiply? · Numbers to 10 against 2 bots" in html
    spanish = client.get(
        reverse("classroom:homework_personal_create", args=[classroom.pk]),
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert "¿Sumar o multiplicar? · Números hasta el 10 contra 2 bots" in spanish.content.decode()
    # How the games are shared among a child's items, in both languages.
    assert "Each child gets more of the games with more facts left to teach them." in html
    assert "le tocan más los juegos con los que le quedan más operaciones por aprender" in (
        spanish.content.decode()
    )
    response = post_personal(client, classroom, games=["add_or_multiply"], students=[str(ana.pk)])
    assert response.status_code == 302
    assignment = Assignment.objects.get(kind=Assignment.Kind.PERSONAL)
    plan = PersonalPlan.objects.get(assignment=assignment)
    assert facts_of(plan)[0] == ("mul", 7, 8)
    assert {item["game"] for item in plan.items} == {"add_or_multiply"}

    play(client, ana, assignment, 0)
    match = AssignmentWork.objects.get(assignment=assignment, student=ana).match
    assert (match.game, match.variant) == ("add_or_multiply", "to_ten")
    seats = list(match.seats.order_by("index").values_list("user", "bot_level"))
    assert seats == [(ana.pk, ""), (None, "easy"), (None, "easy")]
    game = engine.get_game("add_or_multiply")
    cut = game.focus.facts("to_ten", facts_of(plan))
    assert ["mul", 7, 8] in match.focus and match.focus == [list(f) for f in cut]
    # Her two bots choose, and each plays on her one number of one of her facts (the one at the
    # place the match's seed gives: docs/rules/add_or_multiply.md).
    for _ in range(5):
        match.refresh_from_db()
        match_wake(match_id=match.pk, at_ms=match.wake_at_ms)
    match.refresh_from_db()
    state = game.load(match.state)
    assert game.active(state) == {0}
    given = sorted(state.data["choices"][seat]["give"]["0"] for seat in (1, 2))
    assert given in [sorted(fact[1:]) for fact in match.focus]


# --- sized in minutes of play --------------------------------------------------------------------


def _moves(match, start, gaps_s):
    """Moves recorded in ``match`` from ``start``, ``gaps_s`` seconds apart."""
    when, version = start, MoveRecord.objects.filter(match=match).count()
    for gap in [0, *gaps_s]:
        when += datetime.timedelta(seconds=gap)
        version += 1
        MoveRecord.objects.create(
            match=match, version=version, actor="player", seat=0, received_at=when, now_ms=0
        )


def test_practice_in_minutes_gives_each_child_items_until_they_have_played_that_long(
    client, classroom
):
    """The issue's "a number of games or puzzles, or minutes": a teacher who gives 15 minutes
    gives each child as many items as the practice holds, and a child is done once they have
    played 15 minutes, a slower child after fewer items. A pause between two moves counts for a
    minute at most: the game left open over lunch is not play."""
    ana = make_student(classroom, "Ana", kind="", secret=None)
    make_student(classroom, "Ben", kind="", secret=None)
    make_attempts(ana, [(3, "x", 3, 6, 2500, at(YESTERDAY))])
    client.force_login(classroom.teacher)
    response = post_personal(client, classroom, count="", minutes="15")
    assert response.status_code == 302
    assignment = Assignment.objects.get(kind=Assignment.Kind.PERSONAL)
    assert assignment.options["minutes"] == 15
    assert {len(plan.items) for plan in assignment.plans.all()} == {practice.MAX_ITEMS}
    listing = client.get(reverse("classroom:homework_list", args=[classroom.pk]))
    assert "15 minutes of play for each child" in listing.content.decode()
    # The edit form shows the minutes (free to change until a child begins).
    edit = client.get(reverse("classroom:homework_edit", args=[assignment.pk]))
    minutes_field = edit.context["form"]["minutes"]
    assert (minutes_field.value(), minutes_field.field.disabled) == (15, False)
    assert edit.context["form"]["count"].value() is None

    play(client, ana, assignment, 0)
    match = AssignmentWork.objects.get(assignment=assignment, student=ana).match
    start = timezone.now() - datetime.timedelta(hours=3)
    # 13 minutes of moves 30 s apart, then two hours away (one minute counts): 14 minutes.
    _moves(match, start, [30] * 26 + [7200])
    home = client.get(reverse("classroom:student_home")).content.decode()
    assert "14 of 15 minutes played" in home
    spanish = client.get(reverse("classroom:student_home"), HTTP_ACCEPT_LANGUAGE="es")
    assert "14 de 15 minutos jugados" in spanish.content.decode()
    assert "15 minutos de juegos o retos elegidos para ti" in spanish.content.decode()
    page = client.get(reverse("classroom:homework_student", args=[assignment.pk]))
    assert not page.context["progress"].finished
    client.force_login(classroom.teacher)
    detail = client.get(reverse("classroom:homework_detail", args=[assignment.pk]))
    assert "14 of 15 min" in detail.content.decode()
    assert detail.context["report"].finished == 0

    last = MoveRecord.objects.filter(match=match).order_by("-version").first()
    _moves(match, last.received_at, [45, 20])
    detail = client.get(reverse("classroom:homework_detail", args=[assignment.pk]))
    assert detail.context["report"].finished == 1
    listing = client.get(reverse("classroom:homework_list", args=[classroom.pk]))
    [summary] = listing.context["summaries"]
    assert (summary.finished, summary.not_started) == (1, 1)
    client.force_login(ana)
    page = client.get(reverse("classroom:homework_student", args=[assignment.pk]))
    assert "You have finished this homework" in page.content.decode()
    home = client.get(reverse("classroom:student_home"))
    assert [e.assignment for e in home.context["homework_finished"]] == [assignment]


def test_practice_needs_a_number_of_items_or_minutes_within_bounds(client, classroom):
    make_student(classroom, "Ana", kind="", secret=None)
    client.force_login(classroom.teacher)
    for data in ({"count": "", "minutes": ""}, {"count": "", "minutes": "3"}):
        response = post_personal(client, classroom, **data)
        assert response.status_code == 200
        assert response.context["form"].errors
    assert not Assignment.objects.exists()
    with pytest.raises(practice.PersonalError):
        assign(classroom, ["sum"], 3, minutes=90, title="Too long")
