from django.urls import path

from classroom.roster import views

CLASS = "teacher/classes/<int:classroom_id>/"
STUDENT = CLASS + "students/<int:student_id>/"

urlpatterns = [
    path(CLASS, views.class_detail, name="roster_class"),
    path(CLASS + "edit/", views.class_edit, name="roster_class_edit"),
    path(CLASS + "delete/", views.class_delete, name="roster_class_delete"),
    path(CLASS + "cards.pdf", views.cards_pdf, name="roster_cards"),
    path(CLASS + "export/", views.class_export, name="roster_class_export"),
    path(CLASS + "export-tables/", views.class_tables_request, name="roster_class_tables"),
    path(CLASS + "students/new/", views.student_add, name="roster_student_add"),
    path(CLASS + "students/import/", views.student_import, name="roster_import"),
    path(CLASS + "students/import/done/", views.student_import_done, name="roster_import_done"),
    path(STUDENT, views.student_detail, name="roster_student"),
    path(STUDENT + "name/", views.student_rename, name="roster_student_rename"),
    path(STUDENT + "secret/", views.student_secret, name="roster_student_secret"),
    path(
        STUDENT + "accommodations/",
        views.student_accommodations,
        name="roster_student_accommodations",
    ),
    path(STUDENT + "language/", views.student_language, name="roster_student_language"),
    path(STUDENT + "delete/", views.student_delete, name="roster_student_delete"),
    path(STUDENT + "export/", views.student_export, name="roster_student_export"),
    # Printed on login cards (as a QR code): short, and outside /student/ which is the sign-in.
    path("card/", views.card_signin_page, name="roster_card"),
    path("card/<str:token>/", views.card_signin, name="roster_card_signin"),
]
