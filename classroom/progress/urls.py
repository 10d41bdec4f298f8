from django.urls import path

from classroom.progress import views

urlpatterns = [
    path(
        "teacher/classes/<int:classroom_id>/progress/",
        views.class_progress,
        name="progress_class",
    ),
    path(
        "teacher/classes/<int:classroom_id>/progress/facts/",
        views.class_facts,
        name="progress_class_facts",
    ),
    path(
        "teacher/classes/<int:classroom_id>/progress/activity/",
        views.class_activity,
        name="progress_class_activity",
    ),
    path(
        "teacher/classes/<int:classroom_id>/progress/<int:student_id>/",
        views.student_progress,
        name="progress_student",
    ),
    path(
        "teacher/classes/<int:classroom_id>/progress/<int:student_id>/summary/",
        views.student_summary,
        name="progress_student_summary",
    ),
    path("me/progress/", views.own_progress, name="own_progress"),
    path(
        "teacher/classes/<int:classroom_id>/progress/<int:student_id>/answers.csv",
        views.student_attempts_download,
        name="progress_student_attempts",
    ),
    path("teacher/reports/", views.reports, name="progress_reports"),
    path("teacher/reports/<int:report_id>/", views.report_detail, name="progress_report"),
    path(
        "teacher/reports/<int:report_id>/status/",
        views.report_status,
        name="progress_report_status",
    ),
    path(
        "teacher/reports/<int:report_id>/retry/",
        views.report_retry,
        name="progress_report_retry",
    ),
    path(
        "teacher/reports/<int:report_id>/<str:kind>/",
        views.report_download,
        name="progress_report_download",
    ),
]
