from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import Role

User = get_user_model()


class TeacherSignUpForm(forms.Form):
    display_name = forms.CharField(label=_("Your name"), max_length=80)
    email = forms.EmailField(label=_("E-mail"))
    password1 = forms.CharField(
        label=_("Password"), widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )
    password2 = forms.CharField(
        label=_("Password again"),
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean_email(self):
        email = User.objects.normalize_email(self.cleaned_data["email"]).lower()
        if User.objects.filter(username=email).exists():
            raise forms.ValidationError(_("An account with this e-mail already exists."))
        return email

    def clean(self):
        cleaned = super().clean()
        p1, p2 = cleaned.get("password1"), cleaned.get("password2")
        if p1 and p2 and p1 != p2:
            self.add_error("password2", _("The two passwords differ."))
        elif p1:
            candidate = User(
                username=cleaned.get("email", ""),
                email=cleaned.get("email", ""),
                display_name=cleaned.get("display_name", ""),
            )
            try:
                password_validation.validate_password(p1, candidate)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return cleaned


class TeacherLoginForm(AuthenticationForm):
    """E-mail and password; only teachers sign in here (students use their class code)."""

    username = forms.EmailField(
        label=_("E-mail"),
        widget=forms.EmailInput(attrs={"autofocus": True, "autocomplete": "email"}),
    )

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _("That e-mail and password do not match a teacher account."),
    }

    def clean_username(self):
        return User.objects.normalize_email(self.cleaned_data["username"]).lower()

    def confirm_login_allowed(self, user):
        super().confirm_login_allowed(user)
        if user.role != Role.TEACHER:
            raise forms.ValidationError(self.error_messages["invalid_login"], code="invalid_login")
