"""The charts of a Progress (figures.Progress), for the pages: inline SVG plus the words that
name and describe each chart."""

from __future__ import annotations

import math

from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from classroom.progress import charts
from classroom.progress.figures import Progress
from classroom.progress.wording import operation_label, percent_text, seconds_text


def percent_ticks() -> list[tuple[int, str]]:
    """The percentage axis, worded when drawn (in the reader's language)."""
    return [(v, percent_text(v)) for v in (0, 25, 50, 75, 100)]


MOST_TICKS = 5  # gridlines after zero on the axes of counts and times, at most


def nice_scale(largest: float, minimum: float) -> tuple[float, int]:
    """A round step (1, 2 or 5 times a power of ten, at least ``minimum``) and how many steps
    reach ``largest``: axes read 0, 50, 100, 150, 200, 250 rather than 0, 53, 106..."""
    largest = max(largest, minimum)
    power = 10 ** math.floor(math.log10(largest / MOST_TICKS))
    for factor in (1, 2, 5, 10):
        step = max(factor * power, minimum)
        count = math.ceil(largest / step - 1e-9)
        if count <= MOST_TICKS:
            return step, max(count, 1)
    return largest, 1  # unreachable: ten times the power always fits


def _tick_seconds(value: float) -> str:
    whole = float(value).is_integer()
    return _("%(seconds)s s") % {"seconds": number_format(value, 0 if whole else 1)}


def period_text(progress: Progress) -> str:
    return dates_text(progress.period)


def dates_text(period) -> str:
    return _("%(start)s to %(end)s") % {
        "start": date_format(period.start, "DATE_FORMAT"),
        "end": date_format(period.end, "DATE_FORMAT"),
    }


def week_label(week) -> str:
    """A week on a chart's axis by its Monday: "2 Nov", in Spanish "2 nov" (the format is the
    translator's: Django's "M" capitalises the month, which Spanish does not)."""
    return date_format(
        week, pgettext("the Monday of a week on a chart, a Django date format", "j M")
    )


def progress_charts(progress: Progress, prefix: str, widths: dict[str, int] | None = None) -> dict:
    """The four charts of a progress page, keyed by name. ``widths``, by name, in the SVG's units:
    narrower than the pages' for the PDF, which sets two charts side by side."""
    widths = widths or {}

    def sized(name):
        return {"width": widths[name]} if name in widths else {}

    period = period_text(progress)
    skills = progress.skills
    accuracy_bars = [
        charts.Bar(s.label, s.figures.accuracy_percent, s.figures.accuracy_text) for s in skills
    ]
    time_values = [s.figures.median_seconds for s in skills]
    time_step, time_count = nice_scale(
        max([v for v in time_values if v is not None], default=0), minimum=0.5
    )
    time_ticks = [(time_step * n, _tick_seconds(time_step * n)) for n in range(time_count + 1)]
    time_bars = [
        charts.Bar(s.label, v, seconds_text(v)) for s, v in zip(skills, time_values, strict=True)
    ]
    mistakes = progress.total.mistake_rows()
    mistake_step, mistake_count = nice_scale(max((m.count for m in mistakes), default=0), 1)
    mistake_ticks = [
        (mistake_step * n, str(int(mistake_step * n))) for n in range(mistake_count + 1)
    ]
    weeks = progress.weeks
    series = [
        charts.Series(
            _("All operations"),
            [w.figures.accuracy_percent for w in weeks],
            emphasis=True,
        )
    ]
    for operation in progress.operations:
        series.append(
            charts.Series(
                operation_label(operation),
                [
                    w.by_operation[operation].accuracy_percent
                    if operation in w.by_operation
                    else None
                    for w in weeks
                ],
            )
        )

    def listed(items):
        return "; ".join(items) if items else _("no answers in this period")

    return {
        "accuracy": charts.bar_chart(
            chart_id=f"{prefix}-accuracy",
            title=_("Accuracy by skill"),
            desc=_("Share of right answers per operation and number range, %(period)s: %(list)s")
            % {
                "period": period,
                "list": listed(f"{b.label} {b.text}" for b in accuracy_bars),
            },
            bars=accuracy_bars,
            max_value=100,
            ticks=percent_ticks(),
            **sized("accuracy"),
        ),
        "time": charts.bar_chart(
            chart_id=f"{prefix}-time",
            title=_("Median answer time by skill"),
            desc=_("Median seconds to answer per operation and number range, %(period)s: %(list)s")
            % {"period": period, "list": listed(f"{b.label} {b.text}" for b in time_bars)},
            bars=time_bars,
            max_value=time_step * time_count,
            ticks=time_ticks,
            colour=charts.PALETTE[2],
            **sized("time"),
        ),
        "trend": charts.line_chart(
            chart_id=f"{prefix}-trend",
            title=_("Accuracy week by week"),
            desc=_("Share of right answers per week, %(period)s: %(list)s")
            % {
                "period": period,
                "list": listed(f"{week_label(w.week)} {w.figures.accuracy_text}" for w in weeks),
            },
            x_labels=[week_label(w.week) for w in weeks],
            series=series,
            max_value=100,
            ticks=percent_ticks(),
            **sized("trend"),
        ),
        "mistakes": charts.bar_chart(
            chart_id=f"{prefix}-mistakes",
            title=_("Kinds of slips"),
            desc=_("Wrong answers by kind of slip, %(period)s: %(list)s")
            % {"period": period, "list": listed(f"{m.label} {m.count}" for m in mistakes)},
            bars=[charts.Bar(str(m.label), m.count, str(m.count)) for m in mistakes],
            max_value=mistake_step * mistake_count,
            ticks=mistake_ticks,
            colour=charts.PALETTE[1],
            **sized("mistakes"),
        ),
    }
