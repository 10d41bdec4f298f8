from django.urls import path

from classroom.lti import class_views, deep_linking_views, grade_views, register_views, views

app_name = "lti"

urlpatterns = [
    path("login/", views.oidc_login, name="login"),
    path("launch/", views.launch, name="launch"),
    path(".well-known/jwks.json", views.jwks, name="jwks"),
    path("deep-link/", deep_linking_views.deep_link_answer, name="deep_link_answer"),
    path(
        "classes/<int:classroom_id>/games/<slug:game>/<slug:variant>/",
        deep_linking_views.game_waiting,
        name="game_waiting",
    ),
    path(
        "practice/<int:assignment_id>/",
        deep_linking_views.practice_not_set,
        name="practice_not_set",
    ),
    path("registrations/", views.registration, name="registration"),
    path(
        "classes/<int:classroom_id>/sync-roster/",
        class_views.roster_sync,
        name="roster_sync",
    ),
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
    path("classes/<int:classroom_id>/send-grades/", grade_views.grades_send, name="grades_send"),
]
