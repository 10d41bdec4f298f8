from django.urls import path

from classroom.sessions import views

urlpatterns = [
    path("teacher/classes/<int:classroom_id>/sessions/", views.sessions_list, name="sessions_list"),
    path(
        "teacher/classes/<int:classroom_id>/sessions/new/",
        views.sessions_create,
        name="sessions_create",
    ),
    path("teacher/sessions/<int:session_id>/", views.sessions_detail, name="sessions_detail"),
    path("teacher/sessions/<int:session_id>/live/", views.sessions_live, name="sessions_live"),
    path(
        "teacher/sessions/<int:session_id>/projector/",
        views.sessions_projector,
        name="sessions_projector",
    ),
    path(
        "teacher/sessions/<int:session_id>/projector/live/",
        views.sessions_projector_live,
        name="sessions_projector_live",
    ),
    path(
        "teacher/sessions/<int:session_id>/projector/settings/",
        views.sessions_projector_settings,
        name="sessions_projector_settings",
    ),
    path("teacher/sessions/<int:session_id>/deal/", views.sessions_deal, name="sessions_deal"),
    path("teacher/sessions/<int:session_id>/move/", views.sessions_move, name="sessions_move"),
    path(
        "teacher/sessions/<int:session_id>/move/<int:student_id>/",
        views.sessions_move_page,
        name="sessions_move_page",
    ),
    path(
        "teacher/sessions/<int:session_id>/unseat/", views.sessions_unseat, name="sessions_unseat"
    ),
    path("teacher/sessions/<int:session_id>/lock/", views.sessions_lock, name="sessions_lock"),
    path("teacher/sessions/<int:session_id>/pause/", views.sessions_pause, name="sessions_pause"),
    path(
        "teacher/sessions/<int:session_id>/add-time/",
        views.sessions_add_time,
        name="sessions_add_time",
    ),
    path("teacher/sessions/<int:session_id>/start/", views.sessions_start, name="sessions_start"),
    path(
        "teacher/sessions/<int:session_id>/seat-late/",
        views.sessions_seat_late,
        name="sessions_seat_late",
    ),
    path(
        "teacher/sessions/<int:session_id>/tables/<int:table_number>/stop/",
        views.sessions_stop_table,
        name="sessions_stop_table",
    ),
    path("teacher/sessions/<int:session_id>/end/", views.sessions_end, name="sessions_end"),
    path(
        "teacher/sessions/<int:session_id>/next-round/",
        views.sessions_next_round,
        name="sessions_next_round",
    ),
    # Students: under /me/ (``student/<code>/`` is the sign-in flow).
    path("me/sessions/<int:session_id>/", views.sessions_lobby, name="sessions_lobby"),
    path("me/sessions/<int:session_id>/join/", views.sessions_join, name="sessions_join"),
]
