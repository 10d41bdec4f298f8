from django.urls import path

from classroom.practice import views

urlpatterns = [
    path(
        "teacher/classes/<int:classroom_id>/practise/",
        views.practise_facts,
        name="practise_facts",
    ),
]
