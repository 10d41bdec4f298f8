"""Why each fact is in a personal plan is kept as data (``why``) and worded when read, in the
reader's language (classroom.practice.working_set.reason_text). Plans set before that hold the
words of the day, in English or Spanish (the languages they were made in): they are read back
into data where they can be, so that a Spanish child's teacher reads "mal una vez esta semana" for
a plan set in English. A reason this version cannot read back stays as words."""

import datetime
import re

from django.db import migrations

MONTHS = {
    name: number
    for names in (
        "jan feb mar apr may jun jul aug sep oct nov dec",
        "ene feb mar abr may jun jul ago sep oct nov dic",
    )
    for number, name in enumerate(names.split(), start=1)
}
DAY = r"(\d{1,2}) (\w{3})\w*\.? (\d{4})"


def _either(*texts):
    """A pattern matching any of ``texts``, as they were written (English, Spanish)."""
    return "(?:" + "|".join(re.escape(text) for text in texts) + ")"


# What each reason said, in English and in Spanish.
SINCE = ("not yet right and quick since", "desde entonces aún no bien y rápido")
NOT_FLUENT = (
    "answered, not yet right within 3 seconds",
    "respondido, aún no bien en menos de 3 segundos",
)
DUE = ("due for review: last right and quick on", "toca repasar: bien y rápido por última vez el")
NEXT_NEW = ("next new fact", "siguiente operación nueva")
CHOSEN = ("chosen by the teacher", "elegida por el maestro", "elegida por su docente")
PATTERNS = [
    (
        "slips",
        re.compile(
            rf"^{_either('wrong', 'mal')} (?:once|una vez|(\d+) (?:times?|veces)) "
            rf"{_either('this week', 'esta semana')}$"
        ),
    ),
    ("slipped_on", re.compile(rf"^{_either('wrong on', 'mal el')} {DAY}, {_either(*SINCE)}$")),
    ("not_fluent", re.compile(rf"^{_either(*NOT_FLUENT)}$")),
    ("due", re.compile(rf"^{_either(*DUE)} {DAY}$")),
    ("next_new", re.compile(rf"^{_either(*NEXT_NEW)} \(.+\)$")),
    ("chosen", re.compile(rf"^{_either(*CHOSEN)}$")),
]


def _day(found, start):
    day, month, year = found.group(start), found.group(start + 1), found.group(start + 2)
    number = MONTHS.get(month.lower())
    if number is None:
        return None
    try:
        return datetime.date(int(year), number, int(day)).isoformat()
    except ValueError:
        return None


def why_of(reason):
    """The ``why`` data of a reason stored as words, else None."""
    for code, pattern in PATTERNS:
        found = pattern.match(reason.strip())
        if found is None:
            continue
        if code == "slips":
            return {"code": code, "count": int(found.group(1) or 1)}
        if code in ("slipped_on", "due"):
            day = _day(found, 1)
            return {"code": code, "day": day} if day else None
        return {"code": code}
    return None


def reasons_to_data(apps, schema_editor):
    PersonalPlan = apps.get_model("classroom", "PersonalPlan")
    for plan in PersonalPlan.objects.all().iterator():
        changed = False
        for fact in plan.facts:
            if "why" in fact or "reason" not in fact:
                continue
            why = why_of(fact["reason"])
            if why is not None:
                fact["why"] = why
                del fact["reason"]
                changed = True
        if changed:
            plan.save(update_fields=["facts"])


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0027_homework_titles_as_data"),
    ]

    operations = [
        migrations.RunPython(reasons_to_data, migrations.RunPython.noop),
    ]
