from django.db import migrations


def labels_read_in_the_readers_language(apps, schema_editor):
    """Session tables were labelled in the starting teacher's language ("Mesa 2"): each becomes
    the message and its number, translated when read (games.models.shown_label)."""
    SessionTable = apps.get_model("classroom", "SessionTable")
    Match = apps.get_model("games", "Match")
    for match_id, number in SessionTable.objects.filter(match__isnull=False).values_list(
        "match_id", "number"
    ):
        Match.objects.filter(pk=match_id).update(
            label="Table %(number)s", label_values={"number": number}
        )


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0010_session_skill_figures"),
        ("games", "0006_match_label_values"),
    ]

    operations = [
        migrations.RunPython(labels_read_in_the_readers_language, migrations.RunPython.noop),
    ]
