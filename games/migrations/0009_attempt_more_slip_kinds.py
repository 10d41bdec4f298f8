"""Wrong answers are named again with engine.mistakes' added kinds (table_related, off_by_two,
operand_intrusion, far_off): only the ones named "other" before can change. The classroom's
rollups are rebuilt after this (classroom 0015)."""

from django.db import migrations

from engine.mistakes import classify

CHUNK = 2000


def _name_again(apps, schema_editor):
    Attempt = apps.get_model("games", "Attempt")
    changed = []
    rows = Attempt.objects.filter(correct=False, mistake="other").order_by("pk")
    for attempt in rows.only("operator", "operands", "answer", "expected", "mistake").iterator(
        chunk_size=CHUNK
    ):
        operands = attempt.operands if isinstance(attempt.operands, list) else []
        numbers = [n for n in operands if isinstance(n, int) and not isinstance(n, bool)]
        mistake = classify(numbers, attempt.operator, attempt.answer, attempt.expected)
        if mistake != attempt.mistake:
            attempt.mistake = mistake
            changed.append(attempt)
        if len(changed) >= CHUNK:
            Attempt.objects.bulk_update(changed, ["mistake"])
            changed = []
    Attempt.objects.bulk_update(changed, ["mistake"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_match_waits_for_players"),
    ]

    operations = [
        migrations.RunPython(_name_again, migrations.RunPython.noop),
    ]
