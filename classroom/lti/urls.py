from django.urls import path

from classroom.lti import register_views, views

app_name = "lti"

urlpatterns = [
    path("login/", views.oidc_login, name="login"),
    path("launch/", views.launch, name="launch"),
    path(".well-known/jwks.json", views.jwks, name="jwks"),
    path("registrations/", views.registration, name="registration"),
    path("register/", register_views.register, name="register"),
    path("register/<str:token>/", register_views.register_link, name="register_link"),
    path(
        "registrations/links/",
        register_views.registration_link_create,
        name="registration_link_create",
    ),
    path(
        "registrations/links/<int:link_id>/withdraw/",
        register_views.registration_link_withdraw,
        name="registration_link_withdraw",
    ),
]
