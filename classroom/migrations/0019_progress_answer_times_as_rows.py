"""Answer times are counted in rows, one per student, day (week, session), skill and bucket that
has answers (AnswerTimesDay, AnswerTimesWeek, SessionAnswerTimes), instead of a column per bucket
on SkillDay, SkillWeek and SessionSkillFigures: the rows are copied from the columns, then the
columns go. Undone, the columns come back and the rows are copied into them."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

BUCKETS = 112  # t00 to t111: the buckets of classroom.progress.models.TIME_BUCKET_EDGES_MS
# (table of the columns, table of the rows, the columns both have that say whose the row is)
COPIED = (
    ("classroom_skillday", "classroom_answertimesday",
     ("student_id", "day", "week", "skill", "operation")),
    ("classroom_skillweek", "classroom_answertimesweek",
     ("student_id", "week", "skill", "operation")),
    ("classroom_sessionskillfigures", "classroom_sessionanswertimes",
     ("session_id", "student_id", "skill")),
)  # fmt: skip
# The columns a row is found by, with bucket (the rows' unique constraint without bucket).
KEYS = {
    "classroom_skillday": ("student_id", "day", "skill"),
    "classroom_skillweek": ("student_id", "week", "skill"),
    "classroom_sessionskillfigures": ("session_id", "student_id", "skill"),
}


def _column(bucket: int) -> str:
    return f"t{bucket:02d}"


def columns_to_rows(apps, schema_editor):
    """A statement per table and bucket, each a scan of the table inserting its non-zero
    counts: the same SQL on both databases."""
    quote = schema_editor.quote_name
    for counts, times, whose in COPIED:
        names = ", ".join(quote(c) for c in whose)
        for bucket in range(BUCKETS):
            column = quote(_column(bucket))
            schema_editor.execute(
                f"INSERT INTO {quote(times)} ({names}, {quote('bucket')}, {quote('answers')}) "
                f"SELECT {names}, %s, {column} FROM {quote(counts)} WHERE {column} > 0",
                [bucket],
            )


class RemoveBucketColumns(migrations.operations.base.Operation):
    """Removes a model's 112 bucket columns as one operation: one statement a table on PostgreSQL
    (a change of the catalogue only), one a column on SQLite (a pass over the table each), and
    the model's state reloaded once. A RemoveField a column would reload it 112 times, and undone
    (AddField) remake an SQLite table 112 times: minutes where this takes seconds."""

    reversible = True

    def __init__(self, model_name):
        self.model_name = model_name

    def deconstruct(self):
        return self.__class__.__name__, [self.model_name], {}

    def state_forwards(self, app_label, state):
        model_state = state.models[app_label, self.model_name]
        for bucket in range(BUCKETS):
            model_state.fields.pop(_column(bucket))
        state.reload_model(app_label, self.model_name, delay=True)

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        model = from_state.apps.get_model(app_label, self.model_name)
        quote = schema_editor.quote_name
        drops = [f"DROP COLUMN {quote(_column(bucket))}" for bucket in range(BUCKETS)]
        if schema_editor.connection.vendor == "postgresql":
            drops = [", ".join(drops)]
        for drop in drops:
            schema_editor.execute(f"ALTER TABLE {quote(model._meta.db_table)} {drop}")

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        """The columns back as AddField made them (the same definition and check), with ALTER
        TABLE ADD COLUMN on both databases: a column with a constant default is added in place."""
        model = to_state.apps.get_model(app_label, self.model_name)
        quote = schema_editor.quote_name
        adds = []
        for bucket in range(BUCKETS):
            field = model._meta.get_field(_column(bucket))
            definition, params = schema_editor.column_sql(model, field, include_default=True)
            check = field.db_parameters(connection=schema_editor.connection)["check"]
            if check:
                definition += " " + schema_editor.sql_check_constraint % {"check": check}
            adds.append((f"ADD COLUMN {quote(field.column)} {definition}", params))
        if schema_editor.connection.vendor == "postgresql":
            adds = [(", ".join(sql for sql, _ in adds), [p for _, params in adds for p in params])]
        for add, params in adds:
            schema_editor.execute(f"ALTER TABLE {quote(model._meta.db_table)} {add}", params)

    def describe(self):
        return f"Remove the answer-time bucket columns of {self.model_name}"

    @property
    def migration_name_fragment(self):
        return f"remove_{self.model_name}_buckets"


def rows_to_columns(apps, schema_editor):
    quote = schema_editor.quote_name
    for counts, times, _whose in COPIED:
        same_row = " AND ".join(
            f"{quote(times)}.{quote(c)} = {quote(counts)}.{quote(c)}" for c in KEYS[counts]
        )
        for bucket in range(BUCKETS):
            schema_editor.execute(
                f"UPDATE {quote(counts)} SET {quote(_column(bucket))} = COALESCE(("
                f"SELECT {quote('answers')} FROM {quote(times)} "
                f"WHERE {same_row} AND {quote('bucket')} = %s), 0)",
                [bucket],
            )


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0018_progress_more_slip_kinds"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="AnswerTimesDay",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("week", models.DateField()),
                ("skill", models.CharField(max_length=32)),
                ("operation", models.CharField(max_length=8)),
                ("bucket", models.PositiveSmallIntegerField()),
                ("answers", models.PositiveIntegerField(db_default=0, default=0)),
                ("day", models.DateField()),
                ("student", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("student", "day", "skill", "bucket"), name="answertimesday_unique")],
            },
        ),
        migrations.CreateModel(
            name="AnswerTimesWeek",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("week", models.DateField()),
                ("skill", models.CharField(max_length=32)),
                ("operation", models.CharField(max_length=8)),
                ("bucket", models.PositiveSmallIntegerField()),
                ("answers", models.PositiveIntegerField(db_default=0, default=0)),
                ("student", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("student", "week", "skill", "bucket"), name="answertimesweek_unique")],
            },
        ),
        migrations.CreateModel(
            name="SessionAnswerTimes",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("skill", models.CharField(max_length=32)),
                ("bucket", models.PositiveSmallIntegerField()),
                ("answers", models.PositiveIntegerField(db_default=0, default=0)),
                ("session", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to="classroom.classsession")),
                ("student", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("session", "student", "skill", "bucket"), name="session_times_unique")],
            },
        ),
        migrations.RunPython(columns_to_rows, rows_to_columns),
        RemoveBucketColumns("skillday"),
        RemoveBucketColumns("skillweek"),
        RemoveBucketColumns("sessionskillfigures"),
    ]  # fmt: skip
