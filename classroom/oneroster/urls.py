from django.urls import path

from classroom.oneroster import views

urlpatterns = [
    path("teacher/oneroster/", views.import_page, name="oneroster_import"),
    path("teacher/oneroster/done/", views.import_done, name="oneroster_import_done"),
    path(
        "teacher/classes/<int:classroom_id>/oneroster/gradebook/",
        views.gradebook_page,
        name="oneroster_gradebook",
    ),
]
