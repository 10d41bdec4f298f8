from django.contrib import messages
from django.contrib.auth import authenticate, login
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.permissions import student_required, teacher_required
from classroom import selectors, services
from classroom.forms import ClassCodeForm, ClassroomCreateForm, StudentSecretForm, picture_choices


@teacher_required
def teacher_home(request):
    return render(
        request,
        "classroom/teacher_home.html",
        {
            "classrooms": selectors.teacher_classrooms(teacher=request.user),
            "form": ClassroomCreateForm(),
        },
    )


@teacher_required
@require_POST
def classroom_create(request):
    form = ClassroomCreateForm(request.POST)
    if form.is_valid():
        classroom = services.classroom_create(teacher=request.user, name=form.cleaned_data["name"])
        messages.success(
            request,
            _("Class %(name)s is ready. Its class code is %(code)s.")
            % {"name": classroom.name, "code": classroom.code},
        )
    else:
        messages.error(request, _("Give the class a name."))
    return redirect("classroom:teacher_home")


@student_required
def student_home(request):
    return render(
        request,
        "classroom/student_home.html",
        {"classrooms": selectors.student_classrooms(student=request.user)},
    )


@require_http_methods(["GET", "POST"])
def student_login_code(request):
    """Step 1 of 3: the class code from the board."""
    form = ClassCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        classroom = selectors.classroom_by_code(code=form.cleaned_data["code"])
        if classroom is not None:
            return redirect("classroom:student_login_roster", code=classroom.code)
        form.add_error("code", _("No class has that code. Check it with your teacher."))
    return render(request, "classroom/student_login_code.html", {"form": form})


def student_login_roster(request, code):
    """Step 2 of 3: pick your name."""
    classroom = selectors.classroom_by_code(code=code)
    if classroom is None:
        raise Http404
    return render(
        request,
        "classroom/student_login_roster.html",
        {"classroom": classroom, "roster": selectors.classroom_roster(classroom=classroom)},
    )


@require_http_methods(["GET", "POST"])
def student_login_secret(request, code, student_id):
    """Step 3 of 3: the picture password or PIN."""
    classroom = selectors.classroom_by_code(code=code)
    if classroom is None:
        raise Http404
    enrollment = get_object_or_404(
        selectors.classroom_roster(classroom=classroom), student_id=student_id
    )
    student = enrollment.student
    if not student.secret_kind:
        return render(
            request,
            "classroom/student_login_no_secret.html",
            {"classroom": classroom, "student": student},
        )
    form = StudentSecretForm(request.POST or None, secret_kind=student.secret_kind)
    if request.method == "POST" and form.is_valid():
        user = authenticate(
            request, username=student.username, student_secret=form.cleaned_data["secret"]
        )
        if user is not None:
            login(request, user)
            return redirect("classroom:student_home")
        form.add_error(
            None,
            _("That PIN is not right. Try again.")
            if student.secret_kind == "pin"
            else _("Those pictures are not right. Try again."),
        )
    return render(
        request,
        "classroom/student_login_secret.html",
        {
            "classroom": classroom,
            "student": student,
            "form": form,
            "pictures": picture_choices(),
        },
    )
