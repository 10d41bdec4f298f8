from django.contrib import admin

from classroom.models import Classroom, Enrollment


class EnrollmentInline(admin.TabularInline):
    model = Enrollment
    raw_id_fields = ("student",)
    extra = 0


@admin.register(Classroom)
class ClassroomAdmin(admin.ModelAdmin):
    list_display = ("name", "code", "teacher", "created_at")
    search_fields = ("name", "code", "teacher__username")
    inlines = [EnrollmentInline]
