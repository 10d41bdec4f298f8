"""The games app's tables, and on PostgreSQL ``games_lock_match_unchanged``, the function behind a
move decided on the match as its server process last wrote it (games/services/sql.py calls it).
SQLite, the embedded set-up's database, reads every match under its lock and needs none. It
replaces the app's first eleven migrations: a database that applied them runs nothing
(docs/architecture.md, "Upgrading")."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

# Locks the match's row and checks that it is the row version the caller knew (its xmin, which
# every UPDATE of the row changes); raises CHANGED_SQLSTATE if not, which aborts the rest of the
# message the check opens. Returns the transaction's id as xmin will show it on the rows it
# writes (the low 32 bits of the 64-bit id).
CREATE = """
CREATE OR REPLACE FUNCTION games_lock_match_unchanged(match_id bigint, seen text)
RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM games_match WHERE id = match_id AND xmin::text = seen FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'match % changed since it was read', match_id USING ERRCODE = 'GM409';
    END IF;
    RETURN (pg_current_xact_id()::text::bigint & 4294967295)::text;
END
$$;
"""
DROP = "DROP FUNCTION IF EXISTS games_lock_match_unchanged(bigint, text);"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('games', '0001_initial'),
        ('games', '0002_attempt_mistake'),
        ('games', '0003_attempt_target_problem_range'),
        ('games', '0004_attempt_latest_per_skill_index'),
        ('games', '0005_match_clock'),
        ('games', '0006_match_label_values'),
        ('games', '0007_match_pace_factor'),
        ('games', '0008_match_waits_for_players'),
        ('games', '0009_attempt_more_slip_kinds'),
        ('games', '0010_match_focus'),
        ('games', '0011_lock_match_unchanged'),
    ]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Match',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game', models.CharField(max_length=32)),
                ('variant', models.CharField(max_length=32)),
                ('options', models.JSONField(default=dict)),
                ('seed', models.BigIntegerField()),
                ('state', models.JSONField()),
                ('version', models.PositiveIntegerField(default=0)),
                ('status', models.CharField(choices=[('playing', 'Playing'), ('finished', 'Finished'), ('abandoned', 'Stopped')], default='playing', max_length=12)),
                ('outcome', models.JSONField(blank=True, null=True)),
                ('label', models.CharField(blank=True, max_length=80)),
                ('label_values', models.JSONField(blank=True, default=dict)),
                ('bot_plan', models.JSONField(blank=True, default=dict)),
                ('wake_at_ms', models.BigIntegerField(blank=True, db_index=True, null=True)),
                ('clock_offset_ms', models.BigIntegerField(default=0)),
                ('paused_at_ms', models.BigIntegerField(blank=True, null=True)),
                ('pace_factor', models.FloatField(default=1.0)),
                ('waits_for_players', models.BooleanField(default=False)),
                ('players_connected', models.PositiveIntegerField(default=0)),
                ('focus', models.JSONField(blank=True, default=list)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='matches_created', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name_plural': 'matches',
                'ordering': ['-created_at'],
            },
        ),
        migrations.CreateModel(
            name='MoveRecord',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('version', models.PositiveIntegerField()),
                ('actor', models.CharField(choices=[('player', 'Player'), ('bot', 'Bot'), ('timer', 'Timer')], max_length=8)),
                ('seat', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('move', models.JSONField(blank=True, null=True)),
                ('events', models.JSONField(default=list)),
                ('client_id', models.CharField(blank=True, max_length=64)),
                ('received_at', models.DateTimeField()),
                ('now_ms', models.BigIntegerField()),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='moves', to='games.match')),
            ],
            options={
                'ordering': ['match', 'version'],
            },
        ),
        migrations.CreateModel(
            name='Attempt',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seat', models.PositiveSmallIntegerField()),
                ('game', models.CharField(max_length=32)),
                ('operator', models.CharField(max_length=8)),
                ('operation', models.CharField(max_length=8)),
                ('skill', models.CharField(max_length=32)),
                ('operands', models.JSONField()),
                ('answer', models.IntegerField(blank=True, null=True)),
                ('expected', models.IntegerField(blank=True, null=True)),
                ('target', models.IntegerField(blank=True, null=True)),
                ('correct', models.BooleanField()),
                ('elapsed_ms', models.PositiveIntegerField()),
                ('mistake', models.CharField(blank=True, max_length=20)),
                ('detail', models.JSONField(blank=True, default=dict)),
                ('created_at', models.DateTimeField()),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='attempts', to=settings.AUTH_USER_MODEL)),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='attempts', to='games.match')),
                ('move', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='attempts', to='games.moverecord')),
            ],
            options={
                'ordering': ['created_at', 'id'],
            },
        ),
        migrations.CreateModel(
            name='Seat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('index', models.PositiveSmallIntegerField()),
                ('bot_level', models.CharField(blank=True, max_length=12)),
                ('name', models.CharField(max_length=80)),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seats', to='games.match')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='seats', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['match', 'index'],
            },
        ),
        migrations.AddConstraint(
            model_name='moverecord',
            constraint=models.UniqueConstraint(fields=('match', 'version'), name='move_unique_version'),
        ),
        migrations.AddConstraint(
            model_name='moverecord',
            constraint=models.UniqueConstraint(condition=models.Q(('client_id', ''), _negated=True), fields=('match', 'seat', 'client_id'), name='move_unique_client_id'),
        ),
        migrations.AddIndex(
            model_name='attempt',
            index=models.Index(fields=['user', 'created_at'], name='attempt_user_time'),
        ),
        migrations.AddIndex(
            model_name='attempt',
            index=models.Index(fields=['user', 'skill', '-created_at'], name='attempt_user_skill_latest'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.UniqueConstraint(fields=('match', 'index'), name='seat_unique_index'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.UniqueConstraint(condition=models.Q(('user__isnull', False)), fields=('match', 'user'), name='seat_one_per_user'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('user__isnull', False), ('bot_level', '')), models.Q(('user__isnull', True), models.Q(('bot_level', ''), _negated=True)), _connector='OR'), name='seat_user_xor_bot'),
        ),
        migrations.RunPython(create, drop),
    ]
