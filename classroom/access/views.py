"""A class's record of who looked at its children's data: a page, and the whole of it as CSV."""

import csv
import io

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from classroom.access import selectors
from classroom.roster.views import class_view

SHOWN_ROWS = 500


@require_GET
@class_view
def class_access_log(request, classroom):
    rows = list(selectors.class_access_log(classroom=classroom, limit=SHOWN_ROWS + 1))
    return render(
        request,
        "classroom/access/class_log.html",
        {
            "classroom": classroom,
            "rows": rows[:SHOWN_ROWS],
            "more": len(rows) > SHOWN_ROWS,
            "retention_days": settings.RETENTION_DAYS["access_log"],
        },
    )


@require_GET
@class_view
def class_access_log_csv(request, classroom):
    # Written whole, in the request's language (a year of one class's rows is small).
    text = io.StringIO()
    csv.writer(text).writerows(selectors.class_access_log_table(classroom=classroom))
    response = HttpResponse(text.getvalue(), content_type="text/csv; charset=utf-8")
    name = slugify(classroom.name) or f"class-{classroom.pk}"
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=f"access-{name}-{timezone.localdate():%Y-%m-%d}.csv"
    )
    response["Cache-Control"] = "no-store"
    return response
