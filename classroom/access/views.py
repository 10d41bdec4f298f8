"""A class's record of who looked at its children's data: a page, and the whole of it as CSV."""

import csv
import datetime
import itertools

from django.conf import settings
from django.http import StreamingHttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
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


class _Echo:
    def write(self, value):
        return value


@require_GET
@class_view
def class_access_log_csv(request, classroom):
    writer = csv.writer(_Echo())
    header = [_("When (UTC)"), _("Who"), _("What"), _("Student"), _("Page")]
    rows = (
        [
            row.at.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S"),
            row.viewer_name,
            row.get_kind_display(),
            row.student.display_name if row.student else _("The whole class"),
            row.page,
        ]
        for row in selectors.class_access_log(classroom=classroom).iterator()
    )
    response = StreamingHttpResponse(
        (writer.writerow(line) for line in itertools.chain([header], rows)),
        content_type="text/csv; charset=utf-8",
    )
    name = slugify(classroom.name) or f"class-{classroom.pk}"
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=f"access-{name}-{timezone.localdate():%Y-%m-%d}.csv"
    )
    response["Cache-Control"] = "no-store"
    return response
