"""The roster pages: a class's hub, its students, their secrets and login cards, CSV import,
deleting and exporting. Every teacher page finds the class among the teacher's own (404 for any
other); every student among that class's."""

import copy
import json
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import languages
from accounts.models import accommodations_of
from accounts.permissions import teacher_required
from classroom.access.services import data_access_record, data_access_record_many
from classroom.accommodations import badges
from classroom.forms import ClassroomCreateForm, picture_choices
from classroom.lti import selectors as lti_selectors
from classroom.models import DataAccess, ProgressReport
from classroom.progress import services as progress_services
from classroom.roster import cards, selectors, services
from classroom.roster.class_table_rows import whole_history
from classroom.roster.forms import (
    AccommodationsForm,
    ImportForm,
    SecretForm,
    StudentAddForm,
    StudentLanguageForm,
    StudentNameForm,
)
from classroom.roster.importing import plan_import
from classroom.roster.student_secrets import generate_secret
from classroom.selectors import teacher_classroom
from config.local_network import device_base

IMPORT_RESULT_KEY = "roster_import_result"


def class_view(view):
    """A teacher's view of one of their classes: ``classroom`` replaces ``classroom_id``."""

    @teacher_required
    @wraps(view)
    def wrapped(request, classroom_id, *args, **kwargs):
        classroom = teacher_classroom(teacher=request.user, classroom_id=classroom_id)
        if classroom is None:
            raise Http404
        return view(request, classroom, *args, **kwargs)

    return wrapped


def student_view(view):
    """As ``class_view``, and ``student`` (of that class) replaces ``student_id``."""

    @class_view
    @wraps(view)
    def wrapped(request, classroom, student_id, *args, **kwargs):
        student = selectors.class_student(classroom=classroom, student_id=student_id)
        if student is None:
            raise Http404
        return view(request, classroom, student, *args, **kwargs)

    return wrapped


def _taken_names(classroom, but=None):
    return [s.display_name for s in selectors.class_students(classroom=classroom) if s != but]


# --- the class -----------------------------------------------------------------------------------


@require_GET
@class_view
def class_detail(request, classroom):
    students = selectors.class_students(classroom=classroom)
    lti = lti_selectors.class_panel(classroom=classroom)
    # Only a class linked to a platform's course has children who came by its launches.
    from_platform = lti_selectors.from_platform(students=students) if lti else set()
    rows = [
        {
            "student": student,
            "card_ready": selectors.card_is_current(student),
            "from_platform": student.pk in from_platform,
        }
        for student in students
    ]
    return render(
        request,
        "classroom/roster/class_detail.html",
        {
            "classroom": classroom,
            "rows": rows,
            "lti": lti,
        },
    )


@require_http_methods(["GET", "POST"])
@class_view
def class_edit(request, classroom):
    form = ClassroomCreateForm(request.POST or None, initial={"name": classroom.name})
    if request.method == "POST" and form.is_valid():
        services.classroom_rename(classroom=classroom, name=form.cleaned_data["name"])
        messages.success(request, _("The class is now called %(name)s.") % {"name": classroom})
        return redirect("classroom:roster_class", classroom_id=classroom.pk)
    return render(
        request, "classroom/roster/class_edit.html", {"classroom": classroom, "form": form}
    )


@require_http_methods(["GET", "POST"])
@class_view
def class_delete(request, classroom):
    if request.method == "POST":
        name = classroom.name
        services.classroom_delete(classroom=classroom)
        messages.success(request, _("The class %(name)s was deleted.") % {"name": name})
        return redirect("classroom:teacher_home")
    return render(
        request,
        "classroom/roster/class_delete.html",
        {"classroom": classroom, "deletion": selectors.classroom_deletion(classroom=classroom)},
    )


# --- adding students -----------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@class_view
def student_add(request, classroom):
    form = StudentAddForm(request.POST or None, taken_names=_taken_names(classroom))
    if request.method == "POST" and form.is_valid():
        student, _secret = services.student_add(
            classroom=classroom,
            display_name=form.cleaned_data["name"],
            secret=form.cleaned_data["parsed_secret"],
            generate=form.cleaned_data["kind"],
        )
        messages.success(request, _("%(name)s is in the class.") % {"name": student})
        page = reverse("classroom:roster_student", args=[classroom.pk, student.pk])
        return redirect(f"{page}?added=1")  # the page then offers "Add another student"
    return render(
        request,
        "classroom/roster/student_add.html",
        {"classroom": classroom, "form": form, "pictures": picture_choices()},
    )


@require_http_methods(["GET", "POST"])
@class_view
def student_import(request, classroom):
    """GET: the form. POST: a preview of every line (nothing saved), or with ``confirm`` the
    import of a list that checks out again, then the page of new students and their secrets."""
    form = ImportForm(request.POST or None, request.FILES or None)
    plan = None
    if request.method == "POST" and form.is_valid():
        plan = plan_import(text=form.cleaned_data["text"], existing_names=_taken_names(classroom))
        if plan.ok and request.POST.get("confirm"):
            created = services.student_import(
                classroom=classroom, plan=plan, generate=form.cleaned_data["generate"]
            )
            request.session[IMPORT_RESULT_KEY] = {
                "classroom_id": classroom.pk,
                "students": [student.pk for student, _secret in created],
            }
            return redirect("classroom:roster_import_done", classroom_id=classroom.pk)
        # The preview carries the list on, so the teacher can fix a line here and check again.
        form = ImportForm(
            initial={"text": form.cleaned_data["text"], "generate": form.cleaned_data["generate"]}
        )
    return render(
        request,
        "classroom/roster/import.html",
        {"classroom": classroom, "form": form, "plan": plan, "pictures": picture_choices()},
    )


@require_GET
@class_view
def student_import_done(request, classroom):
    result = request.session.get(IMPORT_RESULT_KEY) or {}
    if result.get("classroom_id") != classroom.pk:
        return redirect("classroom:roster_class", classroom_id=classroom.pk)
    wanted = set(result["students"])
    students = [s for s in selectors.class_students(classroom=classroom) if s.pk in wanted]
    rows = [{"student": s, "secret": selectors.card_secret(s)} for s in students]
    return render(
        request,
        "classroom/roster/import_done.html",
        {"classroom": classroom, "rows": rows, "student_ids": [s.pk for s in students]},
    )


# --- one student ---------------------------------------------------------------------------------


def _student_page(
    request,
    classroom,
    student,
    *,
    name_form=None,
    secret_form=None,
    accommodations_form=None,
    language_form=None,
    status=200,
):
    accommodations = accommodations_of(student)
    return render(
        request,
        "classroom/roster/student_detail.html",
        {
            "classroom": classroom,
            "student": student,
            "secret": selectors.card_secret(student),
            "pictures": picture_choices(),
            "name_form": name_form or StudentNameForm(initial={"name": student.display_name}),
            "secret_form": secret_form
            or SecretForm(initial={"kind": student.secret_kind or "picture"}),
            "accommodations_form": accommodations_form
            or AccommodationsForm(instance=accommodations),
            "accommodation_badges": badges(accommodations),
            "language_form": language_form
            or StudentLanguageForm(
                initial={"language": student.language, "family_language": student.family_language}
            ),
        },
        status=status,
    )


@require_GET
@student_view
def student_detail(request, classroom, student):
    return _student_page(request, classroom, student)


@require_POST
@student_view
def student_rename(request, classroom, student):
    form = StudentNameForm(request.POST, taken_names=_taken_names(classroom, but=student))
    if not form.is_valid():
        return _student_page(request, classroom, student, name_form=form, status=400)
    services.student_rename(student=student, display_name=form.cleaned_data["name"])
    messages.success(request, _("The name is saved."))
    return redirect("classroom:roster_student", classroom_id=classroom.pk, student_id=student.pk)


@require_POST
@student_view
def student_secret(request, classroom, student):
    """Sets or resets the picture password or PIN; the old one and the old card stop working."""
    form = SecretForm(request.POST)
    if not form.is_valid():
        return _student_page(request, classroom, student, secret_form=form, status=400)
    secret = form.cleaned_data["parsed_secret"] or generate_secret(form.cleaned_data["kind"])
    services.student_set_secret(student=student, secret=secret)
    messages.success(
        request,
        _("%(name)s has a new secret. Print a new card: the old one no longer works.")
        % {"name": student},
    )
    return redirect("classroom:roster_student", classroom_id=classroom.pk, student_id=student.pk)


@require_POST
@student_view
def student_accommodations(request, classroom, student):
    """The child's accommodations, set privately by their class's teacher."""
    # A copy: a refused form leaves the child's saved accommodations as the page shows them.
    form = AccommodationsForm(request.POST, instance=copy.copy(accommodations_of(student)))
    if not form.is_valid():
        return _student_page(request, classroom, student, accommodations_form=form, status=400)
    fields = {name: form.cleaned_data[name] for name in AccommodationsForm.Meta.fields}
    services.student_accommodations_set(student=student, **fields)
    messages.success(request, _("The accommodations of %(name)s are saved.") % {"name": student})
    return redirect("classroom:roster_student", classroom_id=classroom.pk, student_id=student.pk)


@require_POST
@student_view
def student_language(request, classroom, student):
    """The child's language and their family's, set by their class's teacher."""
    form = StudentLanguageForm(request.POST)
    if not form.is_valid():
        return _student_page(request, classroom, student, language_form=form, status=400)
    languages.user_language_set(user=student, language=form.cleaned_data["language"])
    languages.user_family_language_set(
        student=student, language=form.cleaned_data["family_language"]
    )
    messages.success(request, _("The languages of %(name)s are saved.") % {"name": student})
    return redirect("classroom:roster_student", classroom_id=classroom.pk, student_id=student.pk)


@require_http_methods(["GET", "POST"])
@student_view
def student_delete(request, classroom, student):
    deletion = selectors.student_deletion(student=student, classroom=classroom)
    if request.method == "POST":
        name = str(student)
        if deletion.other_teachers:
            # Another teacher's class keeps them: only this class lets them go.
            services.enrollment_remove(classroom=classroom, student=student)
            messages.success(request, _("%(name)s left the class.") % {"name": name})
        else:
            services.student_delete(student=student)
            messages.success(
                request, _("%(name)s and all their data were deleted.") % {"name": name}
            )
        return redirect("classroom:roster_class", classroom_id=classroom.pk)
    return render(
        request,
        "classroom/roster/student_delete.html",
        {"classroom": classroom, "student": student, "deletion": deletion},
    )


@require_GET
@student_view
def student_export(request, classroom, student):
    data_access_record(
        viewer=request.user,
        classroom=classroom,
        student=student,
        kind=DataAccess.Kind.STUDENT_EXPORT,
        page=request.get_full_path(),
    )
    data = selectors.student_export(student=student)
    return _json_download(data, slugify(student.display_name) or f"student-{student.pk}")


@require_GET
@class_view
def class_export(request, classroom):
    """The whole class's data, as the end of a school year calls for."""
    data_access_record(
        viewer=request.user,
        classroom=classroom,
        kind=DataAccess.Kind.CLASS_EXPORT,
        page=request.get_full_path(),
    )
    data = selectors.class_export(classroom=classroom)
    return _json_download(data, slugify(classroom.name) or f"class-{classroom.pk}")


@require_POST
@class_view
def class_tables_request(request, classroom):
    """Every child's answers and figures as a zip of CSV tables, for a program or a spreadsheet:
    Celery writes it into storage (a term holds some 200,000 answers, some 40 s of work) while
    the report's page says it is being prepared, then offers the download, recorded in the
    class's record of who looked (classroom.progress.views.report_download)."""
    report = progress_services.report_request(
        classroom=classroom,
        period=whole_history(classroom=classroom),
        requested_by=request.user,
        language=translation.get_language(),
        kind=ProgressReport.Kind.CLASS_TABLES,
    )
    return redirect("classroom:progress_report", report_id=report.pk)


def _json_download(data, name: str) -> HttpResponse:
    """``data`` as ``<name>-<today>.json``, to be saved rather than shown or kept in a cache."""
    response = HttpResponse(
        json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=1),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=f"{name}-{timezone.localdate():%Y-%m-%d}.json"
    )
    response["Cache-Control"] = "no-store"
    return response


# --- login cards ---------------------------------------------------------------------------------


@require_GET
@class_view
def cards_pdf(request, classroom):
    """The class's login cards; ``?student=<id>`` (repeatable) prints only those students'."""
    students = selectors.class_students(classroom=classroom)
    wanted = {value for value in request.GET.getlist("student") if value.isdigit()}
    if wanted:
        students = [s for s in students if str(s.pk) in wanted]
    data_access_record_many(
        viewer=request.user,
        classroom=classroom,
        students=students if wanted else [None],  # these children's cards, or the whole class's
        kind=DataAccess.Kind.LOGIN_CARDS,
        page=request.get_full_path(),
    )
    devices_reach = device_base(request, settings.LOCAL_NETWORK_ADDRESS)
    pdf = cards.cards_pdf(
        classroom=classroom,
        cards=[
            cards.Card(
                name=student.display_name,
                secret=selectors.card_secret(student),
                url=devices_reach
                + reverse("classroom:roster_card")
                + "#"
                + cards.card_token(student),
            )
            for student in students
        ],
        sign_in_url=devices_reach + reverse("classroom:student_login"),
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    filename = f"login-cards-{slugify(classroom.name) or classroom.code}.pdf"
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=False, filename=filename
    )
    response["Cache-Control"] = "no-store"  # the cards sign children in
    return response


@never_cache
@require_http_methods(["GET", "POST"])
def card_signin_page(request):
    """A login card's QR code opens ``/card/#<token>``: what follows "#" never leaves the
    browser, so the token reaches no access log (the server's, a proxy's). The page posts it
    here, and the student is signed in."""
    if request.method == "POST":
        return _card_signin(request, request.POST.get("token", ""))
    return render(request, "classroom/roster/card_signin.html")


@never_cache
@require_GET
def card_signin(request, token):
    """The URL of cards printed before the token moved after "#": they keep working."""
    return _card_signin(request, token)


def _card_signin(request, token: str):
    student = cards.student_for_card(token)
    if student is None:
        return render(request, "classroom/roster/card_invalid.html", status=404)
    login(request, student, backend="accounts.backends.StudentSecretBackend")
    return redirect("classroom:student_home")
