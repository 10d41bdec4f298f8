from django.urls import path

from classroom.homework import views

urlpatterns = [
    path(
        "teacher/classes/<int:classroom_id>/homework/",
        views.homework_list,
        name="homework_list",
    ),
    path(
        "teacher/classes/<int:classroom_id>/homework/new/",
        views.homework_create,
        name="homework_create",
    ),
    path(
        "teacher/classes/<int:classroom_id>/homework/personal/",
        views.homework_personal_create,
        name="homework_personal_create",
    ),
    path("teacher/homework/<int:assignment_id>/", views.homework_detail, name="homework_detail"),
    path("teacher/homework/<int:assignment_id>/edit/", views.homework_edit, name="homework_edit"),
    path(
        "teacher/homework/<int:assignment_id>/delete/",
        views.homework_delete,
        name="homework_delete",
    ),
    path("me/homework/<int:assignment_id>/", views.homework_student, name="homework_student"),
    path("me/homework/<int:assignment_id>/play/", views.homework_play, name="homework_play"),
]
