from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from accounts import views as account_views
from config.health import livez, readyz

urlpatterns = [
    path("", account_views.landing, name="landing"),
    path("home/", account_views.home, name="home"),
    path("livez", livez, name="livez"),
    path("readyz", readyz, name="readyz"),
    path("healthz", readyz, name="healthz"),  # the older name of readiness
    path("accounts/", include("accounts.urls")),
    path("", include("classroom.urls")),
    # LTI 1.3: launches from a school's learning platform (docs/lti.md)
    path("lti/", include("classroom.lti.urls")),
    path("", include("games.urls")),
    # The language menu: Django's set_language, and the signed-in person's stored choice.
    path("i18n/setlang/", account_views.set_language, name="set_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["games"]), name="javascript-catalog"),
    path("admin/", admin.site.urls),
]
