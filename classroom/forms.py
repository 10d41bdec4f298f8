from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.pictures import PICTURES
from classroom.models import CLASS_CODE_LENGTH


class ClassCodeForm(forms.Form):
    code = forms.CharField(
        label=_("Class code"),
        max_length=CLASS_CODE_LENGTH + 4,  # room for a space or dash the child may type
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "autofocus": True,
                "class": "code-input",
            }
        ),
    )


class StudentSecretForm(forms.Form):
    """The secret as the page sends it: PIN digits, or picture keys joined by dashes."""

    secret = forms.CharField(max_length=64, strip=True)

    def __init__(self, *args, secret_kind: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.secret_kind = secret_kind
        if secret_kind == "pin":
            self.fields["secret"].label = _("Your PIN")
            self.fields["secret"].widget = forms.PasswordInput(
                attrs={"inputmode": "numeric", "autocomplete": "off", "autofocus": True}
            )
        else:
            self.fields["secret"].label = _("Your picture password")
            self.fields["secret"].widget = forms.HiddenInput()


class ClassroomCreateForm(forms.Form):
    name = forms.CharField(label=_("Class name"), max_length=80)


def picture_choices():
    return [(key, emoji, label) for key, (emoji, label) in PICTURES.items()]
