from functools import partial

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.languages import LanguageSelect, language_choices
from accounts.models import Accommodations, SecretKind
from classroom.roster.importing import (
    MAX_BYTES,
    NAME_MAX_LENGTH,
    decode_upload,
    name_key,
    normalise_name,
)
from classroom.roster.student_secrets import guess_kind, parse_secret

KIND_CHOICES = [(SecretKind.PICTURE, _("Picture password")), (SecretKind.PIN, _("PIN"))]


class SecretForm(forms.Form):
    """A picture password or PIN for a student: typed by the teacher, or generated.

    Each kind has its own field: ``secret`` holds picture names (the picker fills it), ``pin``
    the digits. With scripts the page shows only the chosen kind's field; without them both show
    and the server says clearly when what was typed does not fit the chosen kind."""

    kind = forms.ChoiceField(
        label=_("Signs in with"),
        choices=KIND_CHOICES,
        initial=SecretKind.PICTURE,
        widget=forms.RadioSelect,
    )
    secret = forms.CharField(
        label=_("The pictures"),
        required=False,
        max_length=120,
        help_text=_(
            "3 to 5 pictures: tap them below, or type their names separated by spaces. "
            "Leave it empty to get one made up for you."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    pin = forms.CharField(
        label=_("The PIN"),
        required=False,
        max_length=20,
        help_text=_("4 to 6 digits. Leave it empty to get one made up for you."),
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "inputmode": "numeric", "spellcheck": "false"}
        ),
    )

    def clean(self):
        cleaned = super().clean()
        cleaned["parsed_secret"] = None
        kind = cleaned.get("kind")
        pictures = (cleaned.get("secret") or "").strip()
        pin = (cleaned.get("pin") or "").strip()
        if kind == SecretKind.PICTURE:
            if guess_kind(pictures) == SecretKind.PIN and pictures:
                self.add_error(
                    "secret",
                    _(
                        "“%(typed)s” is digits, not pictures. To give a PIN, choose “PIN” "
                        "above; for a picture password, tap the pictures or type their names."
                    )
                    % {"typed": pictures},
                )
                return cleaned
            if pin and not pictures:
                self.add_error(
                    "pin",
                    _(
                        "You chose a picture password. To give this PIN, choose “PIN” above; "
                        "or leave the PIN empty."
                    ),
                )
                return cleaned
            text = pictures
        elif kind == SecretKind.PIN:
            # Forms made before the PIN had its own field sent it as "secret".
            text = pin or pictures
            if text and guess_kind(text) != SecretKind.PIN:
                self.add_error(
                    "pin" if pin else "secret",
                    _("A PIN is 4 to 6 digits. To give pictures, choose “Picture password” above."),
                )
                return cleaned
        else:
            return cleaned
        if text:
            try:
                cleaned["parsed_secret"] = parse_secret(kind, text)
            except ValidationError as error:
                self.add_error("pin" if kind == SecretKind.PIN and pin else "secret", error)
        return cleaned


class StudentNameForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=NAME_MAX_LENGTH,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args, taken_names=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.taken = {name_key(name) for name in taken_names}

    def clean_name(self):
        name = normalise_name(self.cleaned_data["name"])
        if not name:
            raise ValidationError(_("Write the student's name."))
        if name_key(name) in self.taken:
            # Children pick their name from a list: two alike could not tell which is theirs.
            raise ValidationError(
                _("%(name)s is already in this class. Add an initial to tell them apart.")
                % {"name": name}
            )
        return name


class StudentLanguageForm(forms.Form):
    """A child's language and their family's (docs/translations.md), each named in itself."""

    language = forms.ChoiceField(
        label=_("Language of their pages"),
        choices=language_choices,
        widget=LanguageSelect,
        required=False,
        help_text=_("Their own choice in the language menu changes it too."),
    )
    family_language = forms.ChoiceField(
        label=_("Language of their summary for the family"),
        choices=partial(language_choices, _("The same as your pages")),
        widget=LanguageSelect,
        required=False,
    )


class StudentAddForm(StudentNameForm, SecretForm):
    field_order = ["name", "kind", "secret", "pin"]


class ImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"), required=False)
    text = forms.CharField(
        label=_("Or paste the list"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )
    generate = forms.ChoiceField(
        label=_("Students without a secret in the list get"),
        choices=KIND_CHOICES,
        initial=SecretKind.PICTURE,
        widget=forms.RadioSelect,
    )

    def clean(self):
        cleaned = super().clean()
        upload = cleaned.get("file")
        if upload:
            try:
                cleaned["text"] = decode_upload(upload.read(MAX_BYTES + 1))
            except ValidationError as error:
                self.add_error("file", error)
                return cleaned
        if not (cleaned.get("text") or "").strip() and not self.errors:
            raise ValidationError(_("Choose a CSV file or paste the list."))
        return cleaned


class AccommodationsForm(forms.ModelForm):
    """A child's accommodations, as the teacher sets them on the child's page."""

    class Meta:
        model = Accommodations
        fields = ["time", "calm_table", "public_name", "read_aloud", "dots"]
        labels = {
            "time": _("Time in games with a clock"),
            "calm_table": _("Calm ¡Mía! table"),
            "public_name": _("On the projector and podium"),
            "read_aloud": _("Numbers read aloud"),
            "dots": _("Numbers also as dots and ten-frames"),
        }
        help_texts = {
            "time": _(
                "Every clock of the child's table runs this much longer, and the bots think as "
                "long. No clock: a calm table where the game has one."
            ),
            "calm_table": _(
                "The child answers each card in their own time, without the race; bots slow "
                "down. When dealing a session you can seat these children together."
            ),
            "public_name": _("The child's own screens and your pages always show the full name."),
        }
        widgets = {"time": forms.RadioSelect, "public_name": forms.RadioSelect}
