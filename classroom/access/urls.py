from django.urls import path

from classroom.access import views

CLASS = "teacher/classes/<int:classroom_id>/"

urlpatterns = [
    path(CLASS + "access/", views.class_access_log, name="access_class_log"),
    path(CLASS + "access.csv", views.class_access_log_csv, name="access_class_log_csv"),
]
