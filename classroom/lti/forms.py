from django import forms
from django.utils.translation import gettext_lazy as _

from classroom.lti.models import origin_of


class RegistrationForm(forms.Form):
    """A platform's side of a registration, as its admin page shows it."""

    name = forms.CharField(label=_("Name (for you)"), max_length=255, required=False)
    issuer = forms.CharField(label=_("Issuer (platform ID)"), max_length=255)
    client_id = forms.CharField(label=_("Client ID"), max_length=255)
    deployment_ids = forms.CharField(
        label=_("Deployment IDs"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One a line."),
    )
    keyset_url = forms.URLField(label=_("Public keyset URL"), max_length=200, assume_scheme="https")
    auth_url = forms.URLField(
        label=_("Authentication request URL"), max_length=200, assume_scheme="https"
    )
    token_url = forms.URLField(label=_("Access token URL"), max_length=200, assume_scheme="https")
    frame_origins = forms.CharField(
        label=_("Addresses of the platform's pages"),
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        help_text=_(
            "Where the platform shows this tool inside its own pages, one a line (e.g. "
            "https://school.instructure.com). Left empty: the issuer's address. Canvas, Schoology "
            "and Blackboard sign as one issuer for every school: give the school's own address."
        ),
    )

    def clean_deployment_ids(self) -> list[str]:
        ids = [line.strip() for line in self.cleaned_data["deployment_ids"].splitlines()]
        ids = list(dict.fromkeys(i for i in ids if i))
        if not ids:
            raise forms.ValidationError(_("Give at least one deployment ID."))
        if any(len(i) > 255 for i in ids):
            raise forms.ValidationError(_("A deployment ID is at most 255 characters."))
        return ids

    def clean_issuer(self) -> str:
        return self.cleaned_data["issuer"].strip()

    def clean_client_id(self) -> str:
        return self.cleaned_data["client_id"].strip()

    def clean_frame_origins(self) -> list[str]:
        """Each line's origin (a pasted page address gives its origin); in order, once each."""
        origins = []
        for line in self.cleaned_data["frame_origins"].splitlines():
            if not line.strip():
                continue
            origin = origin_of(line)
            if origin is None:
                raise forms.ValidationError(
                    _("“%(line)s” is not a web address, such as https://school.instructure.com."),
                    params={"line": line.strip()},
                )
            origins.append(origin)
        return list(dict.fromkeys(origins))


class GradesForm(forms.Form):
    """A linked class's "Send the grades now" (grades_panel.html): a mastery figure too or not."""

    send_mastery = forms.BooleanField(required=False)
