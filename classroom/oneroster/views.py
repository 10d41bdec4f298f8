"""The OneRoster pages: a teacher imports their own classes from the district's zip (a preview
of every line first), and downloads a class's homework results as a OneRoster gradebook.

A teacher imports only the classes the zip says they teach (matched by their e-mail, or by an
earlier import): a district-wide import, other teachers' accounts included, is an operator's,
with ``python manage.py import_oneroster`` (docs/oneroster.md)."""

import base64

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from accounts.permissions import teacher_required
from classroom.access.services import data_access_record
from classroom.homework.selectors import classroom_assignments
from classroom.models import Classroom, DataAccess, Enrollment
from classroom.oneroster import gradebook as gradebook_selectors
from classroom.oneroster.forms import GradebookForm, OneRosterUploadForm
from classroom.oneroster.reading import needed_part
from classroom.oneroster.services import oneroster_import
from classroom.selectors import teacher_classroom

PENDING_KEY = "oneroster_pending"
RESULT_KEY = "oneroster_result"


@teacher_required
@require_http_methods(["GET", "POST"])
def import_page(request):
    """GET: the form. POST: a preview of the zip (nothing saved), or with ``confirm`` the
    import of the zip previewed (kept in the session meanwhile, reduced to what is read)."""
    plan = None
    if request.method == "POST" and request.POST.get("confirm"):
        pending = request.session.pop(PENDING_KEY, None)
        if pending is None:
            messages.error(request, _("Choose the zip again: the preview has expired."))
            return redirect("classroom:oneroster_import")
        outcome = oneroster_import(
            data=base64.b64decode(pending["data"]),
            teacher=request.user,
            secrets_choice=pending["secrets"],
        )
        if outcome.applied:
            request.session[RESULT_KEY] = {
                "created": [str(change) for change in outcome.plan.created],
                "updated": [str(change) for change in outcome.plan.updated],
                "dropped": [str(change) for change in outcome.plan.dropped],
                "refused": [str(refusal) for refusal in outcome.plan.refusals],
                "students": outcome.student_ids,
            }
            return redirect("classroom:oneroster_import_done")
        plan = outcome.plan
        form = OneRosterUploadForm()
    else:
        form = OneRosterUploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data["file"]
            plan = oneroster_import(data=data, teacher=request.user, dry_run=True).plan
            request.session.pop(PENDING_KEY, None)
            if plan.ok and plan.changes:
                request.session[PENDING_KEY] = {
                    "data": base64.b64encode(needed_part(data)).decode(),
                    "secrets": form.cleaned_data["secrets"],
                }
    return render(request, "classroom/oneroster/import.html", {"form": form, "plan": plan})


@teacher_required
@require_GET
def import_done(request):
    result = request.session.get(RESULT_KEY)
    if result is None:
        return redirect("classroom:oneroster_import")
    new = set(result["students"])
    classes = []
    for classroom in Classroom.objects.filter(teacher=request.user).order_by("name"):
        ids = sorted(
            Enrollment.objects.filter(classroom=classroom, student_id__in=new).values_list(
                "student_id", flat=True
            )
        )
        if ids:
            classes.append({"classroom": classroom, "student_ids": ids})
    return render(
        request, "classroom/oneroster/import_done.html", {"result": result, "classes": classes}
    )


@teacher_required
@require_GET
def gradebook_page(request, classroom_id):
    """The form; with ``download`` the zip of the homework chosen."""
    classroom = teacher_classroom(teacher=request.user, classroom_id=classroom_id)
    if classroom is None:
        raise Http404
    homework = [summary.assignment for summary in classroom_assignments(classroom=classroom)]
    form = GradebookForm(request.GET or None, homework=homework)
    class_sid = gradebook_selectors.class_sourced_id(classroom=classroom)
    book = None
    if class_sid and request.GET and form.is_valid():
        chosen = gradebook_selectors.class_homework(
            classroom=classroom,
            homework_id=form.cleaned_data["homework"],
            start=form.cleaned_data["start"],
            end=form.cleaned_data["end"],
        )
        book = gradebook_selectors.gradebook(classroom=classroom, assignments=chosen)
        if request.GET.get("download") and book.assignments:
            # Every child's results leave the site: recorded like the results page.
            data_access_record(
                viewer=request.user,
                classroom=classroom,
                kind=DataAccess.Kind.HOMEWORK_RESULTS,
                page=request.get_full_path(),
            )
            response = HttpResponse(
                gradebook_selectors.gradebook_zip(book), content_type="application/zip"
            )
            response["Content-Disposition"] = content_disposition_header(
                True, gradebook_selectors.gradebook_file_name(book)
            )
            return response
    return render(
        request,
        "classroom/oneroster/gradebook.html",
        {"classroom": classroom, "form": form, "class_sid": class_sid, "book": book},
    )
