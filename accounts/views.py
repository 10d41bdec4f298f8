from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import LoginView
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_http_methods
from django.views.i18n import set_language as django_set_language

from accounts import devices, languages, services, teacher_sign_in
from accounts.forms import TeacherLoginForm, TeacherSignUpForm
from accounts.models import Role
from accounts.pictures import PICTURES, picture_svg


def landing(request):
    if request.user.is_authenticated:
        return redirect("home")
    return render(request, "landing.html")


@require_GET
@cache_control(public=True, max_age=7 * 24 * 3600)
def picture(request, key):
    """A picture of the picture passwords, as the login cards print it (SVG)."""
    if key not in PICTURES:
        raise Http404
    return HttpResponse(picture_svg(key), content_type="image/svg+xml")


def set_language(request):
    """The language menu: Django's ``set_language`` (the cookie, for whoever uses this browser
    next), and for a signed-in person their stored choice, which their pages, sockets and files
    follow from then on, on every device."""
    response = django_set_language(request)
    chosen = request.POST.get("language", "")
    user = getattr(request, "user", None)
    if (
        request.method == "POST"
        and user is not None
        and user.is_authenticated
        and chosen in dict(settings.LANGUAGES)
    ):
        languages.user_language_set(user=user, language=chosen)
    return response


def home(request):
    """Sends each person to their own home."""
    if not request.user.is_authenticated:
        return redirect("landing")
    if request.user.role == Role.STUDENT:
        return redirect("classroom:student_home")
    return redirect("classroom:teacher_home")


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = TeacherSignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        teacher = services.teacher_create(
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
            display_name=form.cleaned_data["display_name"],
        )
        login(request, teacher, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome! Your teacher account is ready."))
        return redirect("classroom:teacher_home")
    return render(request, "accounts/signup.html", {"form": form})


class TeacherLoginView(LoginView):
    """E-mail and password under django-axes; the browser is remembered, so that nobody else's
    failures lock the teacher out of it (accounts/teacher_sign_in.py)."""

    template_name = "accounts/login.html"
    authentication_form = TeacherLoginForm
    redirect_authenticated_user = True

    def form_valid(self, form):
        response = super().form_valid(form)
        teacher_sign_in.signed_in(self.request, form.get_user())
        devices.remember(self.request, response, form.get_user().pk)
        return response

    def form_invalid(self, form):
        teacher_sign_in.failed_on_a_trusted_device(self.request, form.cleaned_data.get("username"))
        return super().form_invalid(form)
