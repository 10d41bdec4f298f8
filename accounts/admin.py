from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class ClassroomUserAdmin(UserAdmin):
    list_display = ("username", "display_name", "role", "email", "is_active", "date_joined")
    list_filter = ("role", "is_active", "is_staff")
    search_fields = ("username", "display_name", "email")
    fieldsets = (
        *UserAdmin.fieldsets,
        ("Classroom", {"fields": ("role", "display_name", "secret_kind")}),
    )
