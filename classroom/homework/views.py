"""Homework pages. Teachers reach only their own classes' assignments (404 otherwise); students
only the assignments of their classes, and only their own work in them."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.permissions import student_required, teacher_required
from classroom.access.services import data_access_record
from classroom.homework import selectors, services, titles
from classroom.homework.forms import (
    AssignmentForm,
    PersonalAssignmentForm,
    table_variants,
    variant_key,
)
from classroom.models import Assignment, DataAccess
from classroom.practice import plans as practice_plans
from classroom.practice import services as practice
from classroom.selectors import classroom_roster, teacher_classroom


def _own_classroom(request, classroom_id):
    classroom = teacher_classroom(teacher=request.user, classroom_id=classroom_id)
    if classroom is None:
        raise Http404
    return classroom


def _own_assignment(request, assignment_id):
    assignment = selectors.teacher_assignment(teacher=request.user, assignment_id=assignment_id)
    if assignment is None:
        raise Http404
    return assignment


def _players_range():
    """Seats each variant takes, for the page to hint at (its script reads them)."""
    return {
        variant_key(game, name): [variant.min_players, variant.max_players]
        for game, name, variant in table_variants()
    }


# --- teachers ------------------------------------------------------------------------------------


@teacher_required
def homework_list(request, classroom_id):
    classroom = _own_classroom(request, classroom_id)
    return render(
        request,
        "classroom/homework/list.html",
        {
            "classroom": classroom,
            "summaries": selectors.classroom_assignments(classroom=classroom),
        },
    )


@teacher_required
@require_http_methods(["GET", "POST"])
def homework_create(request, classroom_id):
    classroom = _own_classroom(request, classroom_id)
    form = AssignmentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        assignment = services.assignment_create(
            classroom=classroom,
            title=form.cleaned_data["title"],
            spec=form.cleaned_data["spec"],
            due_at=form.cleaned_data["due_at"],
        )
        messages.success(
            request,
            _("Homework “%(title)s” is set for %(class_name)s.")
            % {"title": assignment.title, "class_name": classroom.name},
        )
        return redirect("classroom:homework_detail", assignment_id=assignment.pk)
    return render(
        request,
        "classroom/homework/form.html",
        {
            "classroom": classroom,
            "form": form,
            "assignment": None,
            "players_range": _players_range(),
        },
    )


@teacher_required
@require_http_methods(["GET", "POST"])
def homework_personal_create(request, classroom_id):
    """Personal practice: each chosen child gets their own items toward their own facts, or
    toward the facts the teacher chose on a progress page ("Practise these facts" opens this page
    with them, and the children, in its address)."""
    classroom = _own_classroom(request, classroom_id)
    roster = [e.student for e in classroom_roster(classroom=classroom)]
    asked = {"facts": request.GET.getlist("facts"), "students": request.GET.getlist("students")}
    form = PersonalAssignmentForm(request.POST or None, roster=roster, initial=asked)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            assignment = practice.personal_assignment_create(
                classroom=classroom,
                title=data["title"],
                allowed=data["games"],
                count=data["count"] or practice.MAX_ITEMS,
                minutes=data["minutes"],
                bot_level=data["bot_level"],
                due_at=data["due_at"],
                student_ids=data["students"],
                facts=data["facts"],
            )
        except practice.PersonalError:
            form.add_error(None, _("This class has no students to give personal practice to."))
        else:
            messages.success(
                request,
                _("Personal practice “%(title)s” is set for %(class_name)s.")
                % {"title": assignment.title, "class_name": classroom.name},
            )
            return redirect("classroom:homework_detail", assignment_id=assignment.pk)
    return render(
        request,
        "classroom/homework/personal_form.html",
        {
            "classroom": classroom,
            "form": form,
            "assignment": None,
            "facts": titles.facts_text(form.chosen_facts()),
            "chosen_students": [s for s in roster if str(s.pk) in asked["students"]],
        },
    )


@teacher_required
def homework_detail(request, assignment_id):
    assignment = _own_assignment(request, assignment_id)
    personal = None
    if assignment.kind == Assignment.Kind.PERSONAL:
        personal = practice_plans.personal_report(assignment=assignment)
    # Every child's results: one row for the whole class (docs/privacy.md).
    data_access_record(
        viewer=request.user,
        classroom=assignment.classroom,
        kind=DataAccess.Kind.HOMEWORK_RESULTS,
        page=request.get_full_path(),
    )
    return render(
        request,
        "classroom/homework/detail.html",
        {
            "assignment": assignment,
            "classroom": assignment.classroom,
            "report": selectors.assignment_report(assignment=assignment),
            "overdue": selectors.is_overdue(assignment, finished=False),
            "personal": personal,
        },
    )


def _personal_edit(request, assignment):
    """Personal practice: its games, number of items or minutes and bots' level change until a
    child has begun (each child's items are dealt again); its title and due date at any time."""
    locked = services.assignment_started(assignment=assignment)
    form = PersonalAssignmentForm(request.POST or None, assignment=assignment, locked=locked)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            practice.personal_assignment_update(
                assignment=assignment,
                title=data["title"],
                due_at=data["due_at"],
                allowed=data["games"],
                count=data["count"] or practice.MAX_ITEMS,
                minutes=data["minutes"],
                bot_level=data["bot_level"],
            )
        except practice.PersonalLocked:
            # A child began between the page load and the save.
            messages.error(
                request,
                _("A child has begun this practice, so only its title and due date can change."),
            )
            return redirect("classroom:homework_edit", assignment_id=assignment.pk)
        messages.success(request, _("Homework saved."))
        return redirect("classroom:homework_detail", assignment_id=assignment.pk)
    return render(
        request,
        "classroom/homework/personal_form.html",
        {
            "classroom": assignment.classroom,
            "form": form,
            "assignment": assignment,
            "locked": locked,
        },
    )


@teacher_required
@require_http_methods(["GET", "POST"])
def homework_edit(request, assignment_id):
    assignment = _own_assignment(request, assignment_id)
    if assignment.kind == Assignment.Kind.PERSONAL:
        return _personal_edit(request, assignment)
    locked = services.assignment_started(assignment=assignment)
    form = AssignmentForm(request.POST or None, assignment=assignment, locked=locked)
    if request.method == "POST" and form.is_valid():
        try:
            services.assignment_update(
                assignment=assignment,
                title=form.cleaned_data["title"],
                due_at=form.cleaned_data["due_at"],
                spec=form.cleaned_data["spec"],
            )
        except services.AssignmentLocked:
            # A student began between the page load and the save.
            messages.error(
                request,
                _("A student has begun this homework, so only its title and due date can change."),
            )
            return redirect("classroom:homework_edit", assignment_id=assignment.pk)
        messages.success(request, _("Homework saved."))
        return redirect("classroom:homework_detail", assignment_id=assignment.pk)
    return render(
        request,
        "classroom/homework/form.html",
        {
            "classroom": assignment.classroom,
            "form": form,
            "assignment": assignment,
            "players_range": _players_range(),
        },
    )


@teacher_required
@require_http_methods(["GET", "POST"])
def homework_delete(request, assignment_id):
    assignment = _own_assignment(request, assignment_id)
    if request.method == "POST":
        classroom = assignment.classroom
        title = assignment.title
        services.assignment_delete(assignment=assignment)
        messages.success(request, _("Homework “%(title)s” was deleted.") % {"title": title})
        return redirect("classroom:homework_list", classroom_id=classroom.pk)
    return render(
        request,
        "classroom/homework/delete.html",
        {"assignment": assignment, "classroom": assignment.classroom},
    )


# --- students ------------------------------------------------------------------------------------


def _student_assignment(request, assignment_id):
    assignment = selectors.student_assignment(student=request.user, assignment_id=assignment_id)
    if assignment is None:
        raise Http404
    return assignment


@student_required
def homework_student(request, assignment_id):
    assignment = _student_assignment(request, assignment_id)
    items = selectors.student_items(assignment=assignment, student=request.user)
    progress = selectors.student_assignment_progress(
        assignment=assignment, student=request.user, items=items
    )
    return render(
        request,
        "classroom/homework/student.html",
        {
            "assignment": assignment,
            "items": items,
            "progress": progress,
            "started": any(item.state != selectors.ItemState.NOT_STARTED for item in items),
            "overdue": progress.overdue,
        },
    )


@student_required
@require_POST
def homework_play(request, assignment_id):
    """Open the next unfinished item (or the one asked for): its match is made on first use and
    resumed ever after."""
    assignment = _student_assignment(request, assignment_id)
    item = request.POST.get("item", "")
    if item:
        if not item.isdigit() or int(item) >= len(assignment.items):
            raise Http404
        work = services.work_start(assignment=assignment, student=request.user, item=int(item))
    else:
        work = services.work_next(assignment=assignment, student=request.user)
    if work is None:
        messages.success(request, _("You have finished this homework. Well done!"))
        return redirect("classroom:homework_student", assignment_id=assignment.pk)
    return redirect("games:play", match_id=work.match_id)
