from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from classroom.oneroster.planning import SecretChoice

# A teacher's own classes from the district's export; a whole district goes through the command.
MAX_PAGE_BYTES = 5_000_000

SECRET_CHOICES = [
    (SecretChoice.BY_GRADE, _("Pictures up to grade 2, a PIN from grade 3")),
    (SecretChoice.PICTURES, _("Picture passwords")),
    (SecretChoice.PIN, _("PINs")),
]


class OneRosterUploadForm(forms.Form):
    file = forms.FileField(label=_("OneRoster zip"))
    secrets = forms.ChoiceField(
        label=_("New students sign in with"),
        choices=SECRET_CHOICES,
        initial=SecretChoice.BY_GRADE,
        widget=forms.RadioSelect,
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_PAGE_BYTES:
            raise ValidationError(
                _("The zip is too big for this page: a district's IT imports it with the command.")
            )
        return upload.read()


class GradebookForm(forms.Form):
    homework = forms.TypedChoiceField(
        label=_("Homework"), coerce=int, required=False, empty_value=None
    )
    start = forms.DateField(
        label=_("Or all homework due from"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    end = forms.DateField(
        label=_("to"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args, homework=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["homework"].choices = [("", _("All homework in the dates below"))] + [
            (assignment.pk, assignment.title) for assignment in homework
        ]

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end and start > end:
            raise ValidationError(_("The first date is after the second."))
        return cleaned
