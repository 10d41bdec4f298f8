from django.urls import include, path

from classroom import views

app_name = "classroom"

urlpatterns = [
    path("teacher/", views.teacher_home, name="teacher_home"),
    path("teacher/settings/", views.teacher_settings, name="teacher_settings"),
    path("teacher/classes/new/", views.classroom_create, name="classroom_create"),
    path("teacher/matches/new/", views.match_new, name="match_new"),
    path("me/", views.student_home, name="student_home"),
    path("student/", views.student_login_code, name="student_login"),
    path("student/<str:code>/", views.student_login_roster, name="student_login_roster"),
    path(
        "student/<str:code>/<int:student_id>/",
        views.student_login_secret,
        name="student_login_secret",
    ),
    # Each part of the teaching layer keeps its own URLs (classroom/<part>/urls.py).
    path("", include("classroom.roster.urls")),
    path("", include("classroom.sessions.urls")),
    path("", include("classroom.homework.urls")),
    path("", include("classroom.practice.urls")),
    path("", include("classroom.progress.urls")),
    path("", include("classroom.access.urls")),
    path("", include("classroom.oneroster.urls")),
]
