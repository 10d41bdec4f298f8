"""Homework matches made before this migration name the student as their creator; live play lets
a match's creator watch it, so they are handed to the teacher of the assignment's class, as new
ones are (classroom.homework.services.work_start)."""

from django.db import migrations
from django.db.models import OuterRef, Subquery


def homework_matches_to_teacher(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    AssignmentWork = apps.get_model("classroom", "AssignmentWork")
    works = AssignmentWork.objects.filter(match_id=OuterRef("pk"))
    Match.objects.filter(pk__in=AssignmentWork.objects.values("match_id")).update(
        created_by_id=Subquery(works.values("assignment__classroom__teacher_id")[:1])
    )


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0004_progress"),
        ("games", "0002_attempt_mistake"),
    ]

    operations = [
        # Going back leaves them with the teacher: who began each one is still in AssignmentWork.
        migrations.RunPython(homework_matches_to_teacher, migrations.RunPython.noop),
    ]
