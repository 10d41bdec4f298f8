import datetime

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from classroom.models import Classroom
from classroom.progress.selectors import Period

DEFAULT_DAYS = 30
LONGEST_PERIOD_DAYS = 366
DATES = "dates"


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)


class PeriodForm(forms.Form):
    """The period picker: the last 7, 30 or 90 days, or two dates."""

    period = forms.ChoiceField(
        label=_("Period"),
        choices=[
            ("7", _("Last 7 days")),
            ("30", _("Last 30 days")),
            ("90", _("Last 90 days")),
            (DATES, _("Between two dates")),
        ],
        initial=str(DEFAULT_DAYS),
        widget=forms.RadioSelect,
    )
    start = forms.DateField(label=_("From"), required=False, widget=DateInput())
    end = forms.DateField(label=_("To"), required=False, widget=DateInput())

    def clean(self):
        cleaned = super().clean()
        choice = cleaned.get("period")
        if choice is None:
            return cleaned
        if choice != DATES:
            cleaned["range"] = Period.last_days(int(choice))
            return cleaned
        start, end = cleaned.get("start"), cleaned.get("end")
        if start is None or end is None:
            raise forms.ValidationError(_("Give both dates, or pick one of the periods."))
        if start > end:
            raise forms.ValidationError(_("The first date must come before the second."))
        if (end - start).days + 1 > LONGEST_PERIOD_DAYS:
            raise forms.ValidationError(_("Pick a period of one year at most."))
        cleaned["range"] = Period(start, end)
        return cleaned

    def chosen_period(self) -> Period:
        """The valid period asked for, or the last 30 days."""
        if self.is_bound and self.is_valid():
            return self.cleaned_data["range"]
        return Period.last_days(DEFAULT_DAYS)


def last_week(today: datetime.date | None = None) -> Period:
    """Monday to Sunday of the week before this one."""
    today = today or timezone.localdate()
    monday = today - datetime.timedelta(days=today.weekday() + 7)
    return Period(monday, monday + datetime.timedelta(days=6))


class ReportRequestForm(PeriodForm):
    # A plain choice over the teacher's classes, read once: a ModelChoiceField's select queries
    # its choices again for each look (the required attribute checks the first one).
    classroom = forms.TypedChoiceField(label=_("Class"), coerce=int)

    field_order = ["classroom", "period", "start", "end"]

    def __init__(self, *args, teacher, **kwargs):
        super().__init__(*args, **kwargs)
        self.classrooms = {
            c.pk: c for c in Classroom.objects.filter(teacher=teacher).order_by("name", "pk")
        }
        self.fields["classroom"].choices = [(pk, c.name) for pk, c in self.classrooms.items()]

    def clean_classroom(self):
        return self.classrooms[self.cleaned_data["classroom"]]
