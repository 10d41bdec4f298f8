from django.urls import path

from classroom.lti import views

app_name = "lti"

urlpatterns = [
    path("login/", views.oidc_login, name="login"),
    path("launch/", views.launch, name="launch"),
    path(".well-known/jwks.json", views.jwks, name="jwks"),
    path("registrations/", views.registration, name="registration"),
]
