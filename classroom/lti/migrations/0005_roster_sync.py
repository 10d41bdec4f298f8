import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def imported_names(apps, schema_editor):
    """A person linked before names were kept: their name here is taken as the platform's (it is
    what their first launch set, unless their teacher renamed them since, which cannot be told)."""
    LtiPerson = apps.get_model("classroom_lti", "LtiPerson")
    for person in LtiPerson.objects.select_related("user").filter(imported_name=""):
        person.imported_name = person.user.display_name
        person.save(update_fields=["imported_name"])


class Migration(migrations.Migration):
    dependencies = [
        ("classroom_lti", "0004_frame_origins"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="lticourse",
            name="memberships_url",
            field=models.URLField(blank=True, default="", max_length=1000),
        ),
        migrations.AddField(
            model_name="ltiperson",
            name="imported_name",
            field=models.CharField(blank=True, default="", max_length=160),
        ),
        migrations.RunPython(imported_names, migrations.RunPython.noop),
        migrations.CreateModel(
            name="LtiRosterSync",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "trigger",
                    models.CharField(
                        choices=[("teacher", "the teacher"), ("schedule", "the schedule")],
                        max_length=10,
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("queued", "waiting"),
                            ("running", "reading the class list"),
                            ("done", "done"),
                            ("failed", "failed"),
                        ],
                        default="queued",
                        max_length=10,
                    ),
                ),
                ("added", models.JSONField(default=list)),
                ("renamed", models.JSONField(default=list)),
                ("dropped", models.JSONField(default=list)),
                ("notes", models.JSONField(default=list)),
                ("members", models.PositiveIntegerField(default=0)),
                (
                    "failure",
                    models.CharField(
                        blank=True,
                        choices=[
                            ("no_service", "the platform has not offered the course's class list"),
                            (
                                "inactive",
                                "the platform's registration or deployment is switched off here",
                            ),
                            ("unreachable", "the platform could not be reached"),
                            ("token_refused", "the platform refused this tool's access"),
                            ("refused", "the platform refused to give the class list"),
                            ("platform_error", "the platform answered with an error"),
                            ("unreadable", "the platform's answer could not be read"),
                            ("tool_error", "something went wrong on this site"),
                        ],
                        max_length=16,
                    ),
                ),
                ("error", models.TextField(blank=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                (
                    "course",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="roster_syncs",
                        to="classroom_lti.lticourse",
                    ),
                ),
                (
                    "requested_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={"ordering": ["-created_at", "-pk"]},
        ),
    ]
