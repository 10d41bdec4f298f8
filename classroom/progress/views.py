"""Teacher pages of the analytics and the progress reports. A teacher reaches only their own
classes and reports (404 otherwise); students never reach them (403)."""

from django.http import FileResponse, Http404, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import languages
from accounts.permissions import student_required, teacher_required
from classroom.access.services import data_access_record
from classroom.models import Classroom, DataAccess, ProgressReport
from classroom.practice import forms as practise_forms
from classroom.practice.selectors import student_working_set
from classroom.progress import activity, mastery, own, report_files, selectors, services, struggling
from classroom.progress.display import dates_text, period_text, progress_charts
from classroom.progress.forms import PeriodForm, ReportRequestForm
from classroom.selectors import classroom_roster

RECENT_REPORTS = 5
LISTED_REPORTS = 50
PENDING = {ProgressReport.Status.QUEUED, ProgressReport.Status.RUNNING}


def _own_classroom(request, classroom_id) -> Classroom:
    return get_object_or_404(Classroom, pk=classroom_id, teacher=request.user)


def _period_form(request) -> PeriodForm:
    return PeriodForm(request.GET if "period" in request.GET else None)


@teacher_required
@require_GET
def class_progress(request, classroom_id):
    classroom = _own_classroom(request, classroom_id)
    form = _period_form(request)
    progress = selectors.class_progress(classroom=classroom, period=form.chosen_period())
    _class_page_seen(request, classroom, DataAccess.Kind.CLASS_PROGRESS)
    stuck = struggling.class_struggling(
        classroom=classroom, students=[entry.student for entry in progress.students]
    )
    return render(
        request,
        "classroom/progress/class.html",
        {
            "classroom": classroom,
            "form": form,
            "progress": progress,
            "period_text": period_text(progress),
            "charts": progress_charts(progress, "class"),
            "query": request.GET.urlencode(),
            "reports": list(
                classroom.reports.filter(kind=ProgressReport.Kind.REPORT)[:RECENT_REPORTS]
            ),
            "struggling": stuck[: struggling.SHOWN],
            "struggling_more": stuck[struggling.SHOWN :],
            "struggling_days": struggling.LOOK_BACK_DAYS,
            "passing": struggling.class_passing(
                classroom=classroom, students=[entry.student for entry in progress.students]
            ),
        },
    )


@teacher_required
@require_GET
def class_facts(request, classroom_id):
    classroom = _own_classroom(request, classroom_id)
    form = _period_form(request)
    period = form.chosen_period()
    start, end = period.bounds()
    roster = list(classroom_roster(classroom=classroom).select_related("student"))
    student_ids = [entry.student_id for entry in roster]
    grids = mastery.class_fact_grids(student_ids=student_ids, start=start, end=end)
    return render(
        request,
        "classroom/progress/class_facts.html",
        {
            "classroom": classroom,
            "form": form,
            "period_text": dates_text(period),
            "grids": grids,
            "query": request.GET.urlencode(),
            # "Practise these facts": the weakest facts, for the children the teacher ticks.
            "grid_facts": practise_forms.weak_grid_facts(grids),
            "practise_choose": roster,
        },
    )


@teacher_required
@require_GET
def class_activity(request, classroom_id):
    classroom = _own_classroom(request, classroom_id)
    form = _period_form(request)
    period = form.chosen_period()
    start, end = period.bounds()
    students = [entry.student for entry in classroom_roster(classroom=classroom)]
    _class_page_seen(request, classroom, DataAccess.Kind.CLASS_ACTIVITY)
    return render(
        request,
        "classroom/progress/class_activity.html",
        {
            "classroom": classroom,
            "form": form,
            "period_text": dates_text(period),
            "activity": activity.activity(students=students, start=start, end=end),
            "query": request.GET.urlencode(),
        },
    )


def _class_page_seen(request, classroom: Classroom, kind: DataAccess.Kind) -> None:
    """A page with every child's figures: one row for the whole class (docs/privacy.md). The
    class's fact grids are not one: they add the class's answers up, no child's are told apart."""
    data_access_record(
        viewer=request.user, classroom=classroom, kind=kind, page=request.get_full_path()
    )


def _one_childs_progress(request, classroom_id, student_id, *, with_accommodations=False):
    """The teacher's own class's child, their progress over the chosen period, and the look
    recorded (docs/privacy.md): what the student's page and the summary both start from."""
    classroom = _own_classroom(request, classroom_id)
    enrollment = get_object_or_404(
        classroom_roster(classroom=classroom, with_accommodations=with_accommodations),
        student_id=student_id,
    )
    form = _period_form(request)
    period = form.chosen_period()
    progress = selectors.student_progress(student=enrollment.student, period=period)
    data_access_record(
        viewer=request.user,
        classroom=classroom,
        student=enrollment.student,
        kind=DataAccess.Kind.PROGRESS_PAGE,
        page=request.get_full_path(),
    )
    return classroom, enrollment, form, period, progress


@teacher_required
@require_GET
def student_progress(request, classroom_id, student_id):
    classroom, enrollment, form, period, progress = _one_childs_progress(
        request, classroom_id, student_id, with_accommodations=True
    )
    start, end = period.bounds()
    working_set = student_working_set(student_id=enrollment.student.pk)
    return render(
        request,
        "classroom/progress/student.html",
        {
            "classroom": classroom,
            "student": enrollment.student,
            "form": form,
            "progress": progress,
            "period_text": period_text(progress),
            "charts": progress_charts(progress, "student"),
            "query": request.GET.urlencode(),
            "skill_levels": True,
            "activity": activity.activity(students=[enrollment.student], start=start, end=end),
            "working_set": working_set,
            # "Practise these facts": the working set's, and the grids' weakest.
            "working_set_facts": practise_forms.working_set_facts(working_set),
            "grid_facts": practise_forms.weak_grid_facts(progress.fact_grids),
            "practise_students": [enrollment.student.pk],
        },
    )


@teacher_required
@require_GET
def student_summary(request, classroom_id, student_id):
    """One page on one child, to print or send home: the teacher's own class's child only. The
    sheet is in the family's language (the child's record, set by the teacher), the page around
    it in the teacher's."""
    classroom = _own_classroom(request, classroom_id)
    student = get_object_or_404(
        classroom_roster(classroom=classroom), student_id=student_id
    ).student
    sheet_language = languages.family_language(student) or translation.get_language()
    with translation.override(sheet_language):
        # Worded as they are read: the skills, levels and the period in the family's words.
        _classroom, _enrollment, _form, _period, progress = _one_childs_progress(
            request, classroom_id, student_id
        )
        sheet = {
            "progress": progress,
            "period_text": period_text(progress),
            "own": own.own_progress(student=student),
        }
    return render(
        request,
        "classroom/progress/summary.html",
        {
            "classroom": classroom,
            "student": student,
            **sheet,
            "sheet_language": languages.language_info(sheet_language),
            "query": request.GET.urlencode(),
        },
    )


@student_required
@require_GET
def own_progress(request):
    """A child's own page: their stars, the facts they learned this week and their best day."""
    return render(
        request,
        "classroom/progress/own.html",
        {"own": own.own_progress(student=request.user)},
    )


@teacher_required
@require_GET
def student_attempts_download(request, classroom_id, student_id):
    classroom = _own_classroom(request, classroom_id)
    enrollment = get_object_or_404(classroom_roster(classroom=classroom), student_id=student_id)
    student = enrollment.student
    data_access_record(
        viewer=request.user,
        classroom=classroom,
        student=student,
        kind=DataAccess.Kind.ANSWERS_CSV,
        page=request.get_full_path(),
    )
    lines = report_files.student_attempts_csv(selectors.student_attempts(student=student))
    response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
    name = slugify(str(student)) or "student"
    response["Content-Disposition"] = (
        f'attachment; filename="answers-{name}-{timezone.localdate():%Y%m%d}.csv"'
    )
    return response


@teacher_required
@require_http_methods(["GET", "POST"])
def reports(request):
    if request.method == "POST":
        form = ReportRequestForm(request.POST, teacher=request.user)
        if form.is_valid():
            report = services.report_request(
                classroom=form.cleaned_data["classroom"],
                period=form.cleaned_data["range"],
                requested_by=request.user,
                language=get_language(),
            )
            return redirect("classroom:progress_report", report_id=report.pk)
    else:
        # A dashboard links here with its class and period filled in.
        form = ReportRequestForm(teacher=request.user, initial=_prefill(request))
    listed = (
        ProgressReport.objects.filter(classroom__teacher=request.user)
        .select_related("classroom")
        .order_by("-created_at", "-pk")[:LISTED_REPORTS]
    )
    return render(request, "classroom/progress/reports.html", {"form": form, "reports": listed})


def _prefill(request) -> dict:
    return {
        key: request.GET[key]
        for key in ("classroom", "period", "start", "end")
        if key in request.GET
    }


def _own_report(request, report_id) -> ProgressReport:
    return get_object_or_404(
        ProgressReport.objects.select_related("classroom"),
        pk=report_id,
        classroom__teacher=request.user,
    )


@teacher_required
@require_GET
def report_detail(request, report_id):
    report = _own_report(request, report_id)
    return render(
        request,
        "classroom/progress/report.html",
        {
            "report": report,
            "pending": report.status in PENDING,
            "tables": report.kind == ProgressReport.Kind.CLASS_TABLES,
        },
    )


@teacher_required
@require_GET
def report_status(request, report_id):
    """What the status page polls."""
    report = _own_report(request, report_id)
    return JsonResponse(
        {
            "status": report.status,
            "label": str(report.status_label),
            "pending": report.status in PENDING,
        }
    )


@teacher_required
@require_POST
def report_retry(request, report_id):
    services.report_retry(report=_own_report(request, report_id))
    return redirect("classroom:progress_report", report_id=report_id)


# A download's file, what it is recorded as, and its content type.
DOWNLOADS = {
    "csv": ("csv_file", DataAccess.Kind.REPORT_CSV, "text/csv; charset=utf-8"),
    "pdf": ("pdf_file", DataAccess.Kind.REPORT_PDF, "application/pdf"),
    "zip": ("zip_file", DataAccess.Kind.CLASS_TABLES, "application/zip"),
}


@teacher_required
@require_GET
def report_download(request, report_id, kind):
    report = _own_report(request, report_id)
    field, access, content_type = DOWNLOADS.get(kind, (None, None, None))
    stored = getattr(report, field) if field else None
    if not stored or report.status != ProgressReport.Status.DONE:
        raise Http404
    try:
        handle = stored.open("rb")
    except FileNotFoundError:
        raise Http404 from None
    data_access_record(
        viewer=request.user, classroom=report.classroom, kind=access, page=request.get_full_path()
    )
    name = slugify(report.classroom.name) or "class"
    if report.kind == ProgressReport.Kind.CLASS_TABLES:
        filename = f"{name}-{report.period_end:%Y-%m-%d}.zip"
    else:
        filename = f"progress-{name}-{report.period_start:%Y%m%d}-{report.period_end:%Y%m%d}.{kind}"
    response = FileResponse(
        handle, as_attachment=True, filename=filename, content_type=content_type
    )
    response["Cache-Control"] = "no-store"  # children's data: to be saved, not kept by a cache
    return response
