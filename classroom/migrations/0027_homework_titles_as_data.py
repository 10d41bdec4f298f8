"""Homework titles the platform made are kept as data (a kind and its parameters) and worded when
read, in the reader's language (classroom.homework.titles); a title the teacher typed stays as
typed. The titles stored before as words are recognised where they can be, in English and in
Spanish (the languages they were made in): "Practise 5 + 9, 7 × 8" ("Practicar ...") and
"Personal practice" ("Práctica personal") on personal practice, "Practice squares" ("Cuadrados
para practicar") on the demo's puzzles. A title cut at the column's length, or with a fact this
version cannot read back, stays as typed. Their matches' labels ("Practise 5 + 9 · 1/3") become
messages translated when read, as the new ones are."""

import re

from django.db import migrations, models

TITLE_LENGTH = 120  # a title this long may have been cut: its last fact is not to be trusted
FACT = re.compile(r"^(\d{1,2}) ([+×]) (\d{1,2})$")
NUMBERS = {"add": range(11), "mul": range(1, 11)}
OPERATIONS = {"+": "add", "×": "mul"}
PRACTISE_PREFIXES = ("Practise ", "Practicar ")
PERSONAL_WORDS = {"Personal practice", "Práctica personal"}
SQUARES_WORDS = {"Practice squares", "Cuadrados para practicar"}
LABELS = {
    "practise_facts": "Practise %(facts)s · %(item)s/%(count)s",
    "personal_practice": "Personal practice · %(item)s/%(count)s",
    "practice_squares": "Practice squares · %(item)s/%(count)s",
}
ENGLISH = {"personal_practice": "Personal practice", "practice_squares": "Practice squares"}
SIGNS = {"add": "+", "mul": "×"}


def _facts(text):
    facts = []
    for part in text.split(", "):
        found = FACT.match(part)
        if found is None:
            return None
        operation, first, second = OPERATIONS[found[2]], int(found[1]), int(found[3])
        if first not in NUMBERS[operation] or second not in NUMBERS[operation]:
            return None
        facts.append([operation, first, second])
    return facts


def recognised(kind, title):
    """(title kind, params) of a stored title the platform made, else None."""
    if len(title) >= TITLE_LENGTH:
        return None
    if kind == "personal":
        if title in PERSONAL_WORDS:
            return "personal_practice", {}
        for prefix in PRACTISE_PREFIXES:
            if title.startswith(prefix) and (facts := _facts(title[len(prefix) :])):
                return "practise_facts", {"facts": facts}
    if kind == "puzzles" and title in SQUARES_WORDS:
        return "practice_squares", {}
    return None


def _facts_text(facts):
    return ", ".join(f"{first} {SIGNS[op]} {second}" for op, first, second in facts)


def titles_to_data(apps, schema_editor):
    Assignment = apps.get_model("classroom", "Assignment")
    AssignmentWork = apps.get_model("classroom", "AssignmentWork")
    Match = apps.get_model("games", "Match")
    for assignment in Assignment.objects.exclude(typed_title="").iterator():
        found = recognised(assignment.kind, assignment.typed_title)
        if found is None:
            continue
        assignment.title_kind, assignment.title_params = found
        assignment.typed_title = ""
        assignment.save(update_fields=["typed_title", "title_kind", "title_params"])
        values = {"count": len(assignment.items)}
        if assignment.title_kind == "practise_facts":
            values["facts"] = _facts_text(assignment.title_params["facts"])
        for work in AssignmentWork.objects.filter(assignment=assignment):
            Match.objects.filter(pk=work.match_id).update(
                label=LABELS[assignment.title_kind],
                label_values={**values, "item": work.item + 1},
            )


def titles_to_words(apps, schema_editor):
    """Back: the platform's titles as English words, typed."""
    Assignment = apps.get_model("classroom", "Assignment")
    AssignmentWork = apps.get_model("classroom", "AssignmentWork")
    Match = apps.get_model("games", "Match")
    for assignment in Assignment.objects.exclude(title_kind="").iterator():
        if assignment.title_kind == "practise_facts":
            words = "Practise " + _facts_text(assignment.title_params.get("facts", []))
        else:
            words = ENGLISH.get(assignment.title_kind, "Homework")
        assignment.typed_title = words[:TITLE_LENGTH]
        assignment.title_kind, assignment.title_params = "", {}
        assignment.save(update_fields=["typed_title", "title_kind", "title_params"])
        for work in AssignmentWork.objects.filter(assignment=assignment):
            label = f"{words} · {work.item + 1}/{len(assignment.items)}"
            Match.objects.filter(pk=work.match_id).update(label=label[:80], label_values={})


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0026_data_access_class_tables"),
        ("games", "0011_lock_match_unchanged"),
    ]

    operations = [
        migrations.RenameField(model_name="assignment", old_name="title", new_name="typed_title"),
        migrations.AlterField(
            model_name="assignment",
            name="typed_title",
            field=models.CharField(blank=True, max_length=120, verbose_name="title"),
        ),
        migrations.AddField(
            model_name="assignment",
            name="title_kind",
            field=models.CharField(blank=True, max_length=20),
        ),
        migrations.AddField(
            model_name="assignment",
            name="title_params",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(titles_to_data, titles_to_words),
    ]
