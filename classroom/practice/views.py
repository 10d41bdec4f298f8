"""The "practise these facts" button of the progress pages (POST only): personal practice
homework toward the facts, or the facts kept for the child's table at the next session."""

from django.contrib import messages
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from accounts.permissions import teacher_required
from classroom.practice import services
from classroom.practice.forms import HOMEWORK, PractiseFactsForm, fact_value
from classroom.practice.plans import fact_text
from classroom.selectors import classroom_roster, teacher_classroom


def _back(request, classroom):
    """Back to the page the form was on (a path of this site), else the class's progress."""
    wanted = request.POST.get("next", "")
    if (
        wanted.startswith("/")
        and wanted.isprintable()
        and url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()})
    ):
        return HttpResponseRedirect(wanted)
    return redirect("classroom:progress_class", classroom_id=classroom.pk)


@teacher_required
@require_POST
def practise_facts(request, classroom_id):
    classroom = teacher_classroom(teacher=request.user, classroom_id=classroom_id)
    if classroom is None:
        raise Http404
    roster = list(classroom_roster(classroom=classroom).values_list("student_id", flat=True))
    form = PractiseFactsForm(request.POST, roster=roster)
    if not form.is_valid():
        messages.error(request, _("Choose at least one fact and a student of this class."))
        return _back(request, classroom)
    facts = form.cleaned_data["facts"]
    students = form.cleaned_data["students"]
    named = ", ".join(fact_text(*fact) for fact in facts)
    if form.cleaned_data["to"] == HOMEWORK:
        # The personal practice form, with these facts and children: the teacher chooses the
        # games, how many or how long, the bots and the due date, as for any practice.
        query = urlencode(
            {"facts": [fact_value(*fact) for fact in facts], "students": students or []},
            doseq=True,
        )
        url = reverse("classroom:homework_personal_create", args=[classroom.pk])
        return HttpResponseRedirect(f"{url}?{query}")
    kept = services.next_session_focus_set(
        classroom=classroom, student_ids=students or roster, facts=facts
    )
    messages.success(
        request,
        ngettext(
            "%(facts)s kept for %(count)s child's table at the next session.",
            "%(facts)s kept for %(count)s children's tables at the next session.",
            kept,
        )
        % {"facts": named, "count": kept},
    )
    return _back(request, classroom)
