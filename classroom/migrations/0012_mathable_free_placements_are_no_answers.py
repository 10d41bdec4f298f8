"""Mathable Junior free placements are no answers (issue 22, docs/rules/mathable_junior.md,
"Attempts"): a tile put on a square where no line of two tiles lies has no sum or difference to
get right. The engine stored one as a wrong attempt until then, in two shapes: on the front side
with no operands (operator "mixed"), on the back side with the equation the tile could have
completed elsewhere and no answer. Those attempts are deleted, and the figures made from them
counted again: the rollups of the students concerned and the figures of the sessions their
matches were played in. The move records keep their events: they are the match's history."""

from django.db import migrations
from django.db.models import Q


def _free_placements(Attempt):
    return Attempt.objects.filter(game="mathable_junior").filter(
        Q(operands=[]) | Q(answer__isnull=True)
    )


def delete_free_placement_answers(apps, schema_editor):
    # The recounts of the time (answer times in columns, until 0019; the slips of 0007's
    # columns), as 0007 does; a database without such attempts runs nothing (a new site, the
    # tests).
    from classroom.migrations._columns_rollup import KINDS_0007, figures_rebuild, rollups_rebuild

    Attempt = apps.get_model("games", "Attempt")
    SessionTable = apps.get_model("classroom", "SessionTable")
    free = _free_placements(Attempt)
    student_ids = sorted(set(free.filter(user__isnull=False).values_list("user_id", flat=True)))
    match_ids = set(free.values_list("match_id", flat=True))
    if not match_ids:
        return
    session_ids = sorted(
        set(
            SessionTable.objects.filter(match_id__in=match_ids).values_list("session_id", flat=True)
        )
    )
    free.delete()
    rollups_rebuild(apps, kinds=KINDS_0007, student_ids=student_ids)
    for session_id in session_ids:
        figures_rebuild(apps, session_id=session_id)


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0011_session_table_labels"),
        ("games", "0006_match_label_values"),
        # The recount counts days in each student's time zone.
        ("accounts", "0003_user_time_zone"),
    ]

    operations = [
        # Deleted answers cannot come back: undoing this migration leaves them deleted.
        migrations.RunPython(delete_free_placement_answers, migrations.RunPython.noop),
    ]
