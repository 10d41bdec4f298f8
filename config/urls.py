from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views
from config.health import healthz

urlpatterns = [
    path("", account_views.landing, name="landing"),
    path("home/", account_views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("", include("classroom.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
