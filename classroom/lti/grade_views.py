"""A linked class's "Send the grades now" (templates/classroom/lti/grades_panel.html). Thin: the
work is in ``grades``, run by Celery."""

from functools import partial

from django.contrib import messages
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.permissions import teacher_required
from classroom.lti import grades, tasks
from classroom.lti.forms import GradesForm
from classroom.lti.models import LtiCourse, LtiGradeRun
from classroom.selectors import teacher_classroom


@teacher_required
@require_POST
def grades_send(request, classroom_id):
    """The teacher's choice (a mastery figure too or not) saved, and a run of the class's grades
    queued for a worker."""
    classroom = teacher_classroom(teacher=request.user, classroom_id=classroom_id)
    course = LtiCourse.objects.filter(classroom=classroom).first() if classroom else None
    if course is None:
        raise Http404
    form = GradesForm(request.POST)
    form.is_valid()  # a box ticked or not: always valid
    grades.grades_choice_save(
        course=course,
        send_mastery=form.cleaned_data["send_mastery"],
        language=translation.get_language(),
    )
    run, created = grades.run_request(course=course, trigger=LtiGradeRun.Trigger.TEACHER)
    if run is None:
        messages.error(request, _("The learning platform has not offered this course's gradebook."))
    else:
        if created:
            transaction.on_commit(partial(tasks.send_grades.delay, run.pk))
        messages.info(
            request,
            _("The grades are on their way to the learning platform: below, what was sent."),
        )
    return redirect(reverse("classroom:roster_class", args=[course.classroom_id]) + "#lti-grades")
