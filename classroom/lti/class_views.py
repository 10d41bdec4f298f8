"""A linked class's part of its page (templates/classroom/lti/class_panel.html): what its teacher
asks of the learning platform. Thin: the work is in ``roster``, run by Celery."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.permissions import teacher_required
from classroom.lti import roster, selectors
from classroom.lti.models import LtiRosterSync
from classroom.selectors import teacher_classroom


def _linked_course(request, classroom_id):
    classroom = teacher_classroom(teacher=request.user, classroom_id=classroom_id)
    course = selectors.linked_course(classroom=classroom) if classroom else None
    if course is None:
        raise Http404
    return course


def _back_to_class(course):
    return redirect(reverse("classroom:roster_class", args=[course.classroom_id]) + "#lti-heading")


@teacher_required
@require_POST
def roster_sync(request, classroom_id):
    """ "Sync the roster now": a run of the roster sync, queued for a worker."""
    course = _linked_course(request, classroom_id)
    run = roster.roster_sync_request(course=course, requested_by=request.user)
    run.refresh_from_db()  # run already when Celery runs in-process
    if run.status == LtiRosterSync.Status.DONE:
        messages.success(request, _("The roster now follows the learning platform's class list."))
    elif run.status == LtiRosterSync.Status.FAILED:
        messages.error(request, _("The roster could not be synced: the reason is below."))
    else:
        messages.info(
            request,
            _("The roster sync has started. Reload this page in a moment to see what it changed."),
        )
    return _back_to_class(course)
