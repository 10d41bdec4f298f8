"""Attempts say which number is the problem's: ``target`` (the card a child aims at in ¡Mía! and
SUM, where the child's claim is that their cards make it, so ``answer`` held it already). Every
stored attempt's skill is then read off the problem (operands, true result, target), no longer
off the child's answer (3 + 4 typed as 12 was counted in "addition within 20"), and its slip is
named again with the kinds of engine.mistakes. The classroom's rollups are rebuilt after this
(classroom 0007)."""

from django.db import migrations, models

from engine.core import skill_tag
from engine.mistakes import classify

TARGET_GAMES = ("mia", "sum")
CHUNK = 2000


def _problem_and_slip(apps, schema_editor):
    Attempt = apps.get_model("games", "Attempt")
    changed = []
    rows = Attempt.objects.order_by("pk").only(
        "game",
        "operator",
        "operands",
        "answer",
        "expected",
        "correct",
        "skill",
        "operation",
        "mistake",
        "target",
    )
    for attempt in rows.iterator(chunk_size=CHUNK):
        operands = attempt.operands if isinstance(attempt.operands, list) else []
        numbers = [n for n in operands if isinstance(n, int) and not isinstance(n, bool)]
        target = attempt.answer if attempt.game in TARGET_GAMES else None
        problem = [*numbers, *(v for v in (attempt.expected, target) if v is not None)]
        try:
            skill = skill_tag(attempt.operator, problem)
        except KeyError:  # an operator no game writes: leave the row as it is
            continue
        mistake = (
            ""
            if attempt.correct
            else classify(numbers, attempt.operator, attempt.answer, attempt.expected)
        )
        if (skill, mistake, target) != (attempt.skill, attempt.mistake, attempt.target):
            attempt.skill, attempt.operation = skill, skill.split(".", 1)[0]
            attempt.mistake, attempt.target = mistake, target
            changed.append(attempt)
        if len(changed) >= CHUNK:
            Attempt.objects.bulk_update(changed, ["skill", "operation", "mistake", "target"])
            changed = []
    Attempt.objects.bulk_update(changed, ["skill", "operation", "mistake", "target"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_attempt_mistake"),
    ]

    operations = [
        migrations.AddField(
            model_name="attempt",
            name="target",
            field=models.IntegerField(blank=True, null=True),
        ),
        migrations.RunPython(_problem_and_slip, migrations.RunPython.noop),
    ]
