"""The classroom app's tables as its models define them. It replaces the app's first twenty-nine
migrations: a database that applied them runs nothing (docs/architecture.md, "Upgrading")."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('classroom', '0001_initial'),
        ('classroom', '0002_sessions_homework_reports'),
        ('classroom', '0003_roster'),
        ('classroom', '0004_progress'),
        ('classroom', '0005_homework_matches_created_by_teacher'),
        ('classroom', '0006_report_queued_at'),
        ('classroom', '0007_progress_slip_kinds_finer_times'),
        ('classroom', '0008_session_lobby_locked'),
        ('classroom', '0009_session_paused_at'),
        ('classroom', '0010_session_skill_figures'),
        ('classroom', '0011_session_table_labels'),
        ('classroom', '0012_mathable_free_placements_are_no_answers'),
        ('classroom', '0013_data_access'),
        ('classroom', '0014_session_calm_together'),
        ('classroom', '0015_session_team_mode'),
        ('classroom', '0016_session_next_round'),
        ('classroom', '0017_projector_names'),
        ('classroom', '0018_progress_more_slip_kinds'),
        ('classroom', '0019_progress_answer_times_as_rows'),
        ('classroom', '0020_personal_practice'),
        ('classroom', '0021_session_seat_by_level'),
        ('classroom', '0022_day_indexes'),
        ('classroom', '0023_data_access_class_pages'),
        ('classroom', '0024_report_compiled_for'),
        ('classroom', '0025_oneroster_links'),
        ('classroom', '0026_data_access_class_tables'),
        ('classroom', '0027_homework_titles_as_data'),
        ('classroom', '0028_plan_reasons_as_data'),
        ('classroom', '0029_class_tables_exports'),
    ]

    dependencies = [
        ('accounts', '0001_squashed_0007_user_languages_db_default'),
        ('games', '0001_squashed_0011_lock_match_unchanged'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='LoginCard',
            fields=[
                ('student', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='login_card', serialize=False, to=settings.AUTH_USER_MODEL)),
                ('sealed_secret', models.TextField()),
                ('secret_tag', models.CharField(max_length=32)),
                ('updated_at', models.DateTimeField(auto_now=True)),
            ],
        ),
        migrations.CreateModel(
            name='Classroom',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=80, verbose_name='name')),
                ('code', models.CharField(max_length=6, unique=True, verbose_name='class code')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('teacher', models.ForeignKey(limit_choices_to={'role': 'teacher'}, on_delete=django.db.models.deletion.CASCADE, related_name='classrooms', to=settings.AUTH_USER_MODEL, verbose_name='teacher')),
            ],
            options={
                'verbose_name': 'class',
                'verbose_name_plural': 'classes',
                'ordering': ['name'],
            },
        ),
        migrations.CreateModel(
            name='Assignment',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('typed_title', models.CharField(blank=True, max_length=120, verbose_name='title')),
                ('title_kind', models.CharField(blank=True, max_length=20)),
                ('title_params', models.JSONField(blank=True, default=dict)),
                ('kind', models.CharField(choices=[('puzzles', 'Solo puzzles'), ('bot_games', 'Games against bots'), ('personal', 'Personal practice')], max_length=12, verbose_name='kind')),
                ('game', models.CharField(max_length=32, verbose_name='game')),
                ('variant', models.CharField(max_length=32, verbose_name='variant')),
                ('options', models.JSONField(blank=True, default=dict)),
                ('difficulty', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='difficulty')),
                ('players', models.PositiveSmallIntegerField(default=1, verbose_name='players')),
                ('bot_level', models.CharField(blank=True, max_length=12, verbose_name="bots' level")),
                ('items', models.JSONField(default=list)),
                ('due_at', models.DateTimeField(verbose_name='due')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('classroom', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='assignments', to='classroom.classroom')),
            ],
            options={
                'ordering': ['due_at', 'id'],
            },
        ),
        migrations.CreateModel(
            name='ClassSession',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game', models.CharField(max_length=32, verbose_name='game')),
                ('variant', models.CharField(max_length=32, verbose_name='variant')),
                ('options', models.JSONField(blank=True, default=dict)),
                ('table_size', models.PositiveSmallIntegerField(verbose_name='players per table')),
                ('bot_level', models.CharField(default='easy', max_length=12, verbose_name="bots' level")),
                ('status', models.CharField(choices=[('lobby', 'Lobby open'), ('playing', 'Playing'), ('ended', 'Ended')], default='lobby', max_length=10)),
                ('lobby_locked', models.BooleanField(default=False)),
                ('calm_together', models.BooleanField(default=False)),
                ('seat_by_level', models.BooleanField(default=False)),
                ('team_mode', models.CharField(choices=[('none', 'Each child for themselves'), ('tables', 'Each table is a team'), ('class', 'The whole class together against the bots')], default='none', max_length=8, verbose_name='teams')),
                ('paused_at', models.DateTimeField(blank=True, null=True)),
                ('projector_names', models.CharField(choices=[('full', 'Full names'), ('first', 'First names only'), ('initials', 'Initials only')], default='first', max_length=10, verbose_name='names on the projector')),
                ('projector_top', models.PositiveSmallIntegerField(default=10, verbose_name="places on the projector's leaderboard")),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('started_at', models.DateTimeField(blank=True, null=True)),
                ('ended_at', models.DateTimeField(blank=True, null=True)),
                ('classroom', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='sessions', to='classroom.classroom')),
                ('next_round', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='previous_round', to='classroom.classsession')),
            ],
            options={
                'verbose_name': 'class session',
                'ordering': ['-created_at'],
            },
        ),
        migrations.CreateModel(
            name='SessionTable',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('match', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='session_table', to='games.match')),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tables', to='classroom.classsession')),
            ],
            options={
                'ordering': ['session', 'number'],
            },
        ),
        migrations.CreateModel(
            name='SessionPlace',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seat', models.PositiveSmallIntegerField()),
                ('student', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='session_places', to=settings.AUTH_USER_MODEL)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='places', to='classroom.sessiontable')),
            ],
            options={
                'ordering': ['table', 'seat'],
            },
        ),
        migrations.CreateModel(
            name='SkillDay',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('week', models.DateField()),
                ('skill', models.CharField(max_length=32)),
                ('operation', models.CharField(max_length=8)),
                ('attempts', models.PositiveIntegerField(db_default=0, default=0)),
                ('correct', models.PositiveIntegerField(db_default=0, default=0)),
                ('elapsed_ms_sum', models.BigIntegerField(db_default=0, default=0)),
                ('off_by_one', models.PositiveIntegerField(db_default=0, default=0)),
                ('off_by_ten', models.PositiveIntegerField(db_default=0, default=0)),
                ('wrong_operation', models.PositiveIntegerField(db_default=0, default=0)),
                ('regrouping', models.PositiveIntegerField(db_default=0, default=0)),
                ('table_neighbour', models.PositiveIntegerField(db_default=0, default=0)),
                ('operand_misread', models.PositiveIntegerField(db_default=0, default=0)),
                ('reversed_digits', models.PositiveIntegerField(db_default=0, default=0)),
                ('table_related', models.PositiveIntegerField(db_default=0, default=0)),
                ('off_by_two', models.PositiveIntegerField(db_default=0, default=0)),
                ('operand_intrusion', models.PositiveIntegerField(db_default=0, default=0)),
                ('far_off', models.PositiveIntegerField(db_default=0, default=0)),
                ('other_mistake', models.PositiveIntegerField(db_default=0, default=0)),
                ('day', models.DateField()),
                ('student', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.CreateModel(
            name='SkillWeek',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('week', models.DateField()),
                ('skill', models.CharField(max_length=32)),
                ('operation', models.CharField(max_length=8)),
                ('attempts', models.PositiveIntegerField(db_default=0, default=0)),
                ('correct', models.PositiveIntegerField(db_default=0, default=0)),
                ('elapsed_ms_sum', models.BigIntegerField(db_default=0, default=0)),
                ('off_by_one', models.PositiveIntegerField(db_default=0, default=0)),
                ('off_by_ten', models.PositiveIntegerField(db_default=0, default=0)),
                ('wrong_operation', models.PositiveIntegerField(db_default=0, default=0)),
                ('regrouping', models.PositiveIntegerField(db_default=0, default=0)),
                ('table_neighbour', models.PositiveIntegerField(db_default=0, default=0)),
                ('operand_misread', models.PositiveIntegerField(db_default=0, default=0)),
                ('reversed_digits', models.PositiveIntegerField(db_default=0, default=0)),
                ('table_related', models.PositiveIntegerField(db_default=0, default=0)),
                ('off_by_two', models.PositiveIntegerField(db_default=0, default=0)),
                ('operand_intrusion', models.PositiveIntegerField(db_default=0, default=0)),
                ('far_off', models.PositiveIntegerField(db_default=0, default=0)),
                ('other_mistake', models.PositiveIntegerField(db_default=0, default=0)),
                ('student', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.CreateModel(
            name='AnswerTimesDay',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('week', models.DateField()),
                ('skill', models.CharField(max_length=32)),
                ('operation', models.CharField(max_length=8)),
                ('bucket', models.PositiveSmallIntegerField()),
                ('answers', models.PositiveIntegerField(db_default=0, default=0)),
                ('day', models.DateField()),
                ('student', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'indexes': [models.Index(fields=['day'], name='answertimesday_day')],
                'constraints': [models.UniqueConstraint(fields=('student', 'day', 'skill', 'bucket'), name='answertimesday_unique')],
            },
        ),
        migrations.CreateModel(
            name='AnswerTimesWeek',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('week', models.DateField()),
                ('skill', models.CharField(max_length=32)),
                ('operation', models.CharField(max_length=8)),
                ('bucket', models.PositiveSmallIntegerField()),
                ('answers', models.PositiveIntegerField(db_default=0, default=0)),
                ('student', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('student', 'week', 'skill', 'bucket'), name='answertimesweek_unique')],
            },
        ),
        migrations.CreateModel(
            name='AssignmentWork',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('item', models.PositiveSmallIntegerField()),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('assignment', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='works', to='classroom.assignment')),
                ('match', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='assignment_work', to='games.match')),
                ('student', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='assignment_works', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('assignment', 'student', 'item'), name='work_unique_item')],
            },
        ),
        migrations.CreateModel(
            name='DataAccess',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('at', models.DateTimeField(db_index=True)),
                ('viewer_name', models.CharField(max_length=150)),
                ('kind', models.CharField(choices=[('progress_page', 'Progress page'), ('answers_csv', 'Answers (CSV)'), ('report_csv', 'Progress report (CSV)'), ('report_pdf', 'Progress report (PDF)'), ('login_cards', 'Login cards (PDF)'), ('student_export', "Student's data (JSON)"), ('class_export', "Class's data (JSON)"), ('class_tables', "Class's answers and figures (CSV zip)"), ('class_progress', 'Class progress page'), ('class_activity', "Class's games and time"), ('homework_results', 'Homework results'), ('live_monitor', 'Live monitor')], max_length=20)),
                ('page', models.CharField(max_length=300)),
                ('classroom', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='data_accesses', to='classroom.classroom')),
                ('student', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='data_accesses_about', to=settings.AUTH_USER_MODEL)),
                ('viewer', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='data_accesses_made', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-at', '-id'],
                'indexes': [models.Index(fields=['classroom', '-at'], name='data_access_class_time')],
            },
        ),
        migrations.CreateModel(
            name='Enrollment',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('joined_at', models.DateTimeField(auto_now_add=True)),
                ('classroom', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='enrollments', to='classroom.classroom')),
                ('student', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='enrollments', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('classroom', 'student'), name='enrollment_unique')],
            },
        ),
        migrations.CreateModel(
            name='FactMissDay',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('week', models.DateField()),
                ('fact', models.CharField(max_length=24)),
                ('operation', models.CharField(max_length=8)),
                ('misses', models.PositiveIntegerField(db_default=0, default=0)),
                ('day', models.DateField()),
                ('student', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'indexes': [models.Index(fields=['day'], name='factmissday_day')],
                'constraints': [models.UniqueConstraint(fields=('student', 'day', 'fact'), name='factmissday_unique')],
            },
        ),
        migrations.CreateModel(
            name='FactMissWeek',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('week', models.DateField()),
                ('fact', models.CharField(max_length=24)),
                ('operation', models.CharField(max_length=8)),
                ('misses', models.PositiveIntegerField(db_default=0, default=0)),
                ('student', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('student', 'week', 'fact'), name='factmissweek_unique')],
            },
        ),
        migrations.CreateModel(
            name='NextSessionFocus',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('facts', models.JSONField(default=list)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('used_at', models.DateTimeField(blank=True, null=True)),
                ('classroom', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='classroom.classroom')),
                ('student', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('used_in', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='classroom.classsession')),
            ],
            options={
                'indexes': [models.Index(fields=['classroom', 'used_at'], name='next_focus_pending')],
            },
        ),
        migrations.CreateModel(
            name='OneRosterLink',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('class', 'Class'), ('teacher', 'Teacher'), ('student', 'Student'), ('enrollment', 'Enrollment')], max_length=12)),
                ('sourced_id', models.CharField(max_length=255)),
                ('imported_name', models.CharField(blank=True, default='', max_length=160)),
                ('imported_at', models.DateTimeField(auto_now=True)),
                ('classroom', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='oneroster_links', to='classroom.classroom')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='oneroster_links', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('kind', 'sourced_id'), name='oneroster_link_unique')],
            },
        ),
        migrations.CreateModel(
            name='PersonalPlan',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('facts', models.JSONField(default=list)),
                ('items', models.JSONField(default=list)),
                ('assignment', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='plans', to='classroom.assignment')),
                ('student', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='personal_plans', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('assignment', 'student'), name='plan_unique_student')],
            },
        ),
        migrations.CreateModel(
            name='ProgressReport',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('report', 'Progress report'), ('class_tables', "Every child's answers and figures (CSV tables, zip)")], default='report', max_length=16)),
                ('period_start', models.DateField(verbose_name='from')),
                ('period_end', models.DateField(verbose_name='to')),
                ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Being compiled'), ('done', 'Ready'), ('failed', 'Failed')], default='queued', max_length=10)),
                ('weekly', models.BooleanField(default=False)),
                ('language', models.CharField(default='en', max_length=8)),
                ('csv_file', models.FileField(blank=True, upload_to='reports/')),
                ('pdf_file', models.FileField(blank=True, upload_to='reports/')),
                ('zip_file', models.FileField(blank=True, upload_to='reports/')),
                ('error', models.TextField(blank=True)),
                ('tries', models.PositiveSmallIntegerField(default=0)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('queued_at', models.DateTimeField(blank=True, null=True)),
                ('started_at', models.DateTimeField(blank=True, null=True)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('compiled_for', models.CharField(blank=True, default='', max_length=64)),
                ('classroom', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='reports', to='classroom.classroom')),
                ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-created_at'],
                'constraints': [models.UniqueConstraint(condition=models.Q(('weekly', True)), fields=('classroom', 'period_start', 'period_end'), name='report_one_weekly_per_period')],
            },
        ),
        migrations.CreateModel(
            name='SessionAnswerTimes',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('skill', models.CharField(max_length=32)),
                ('bucket', models.PositiveSmallIntegerField()),
                ('answers', models.PositiveIntegerField(db_default=0, default=0)),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='classroom.classsession')),
                ('student', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('session', 'student', 'skill', 'bucket'), name='session_times_unique')],
            },
        ),
        migrations.CreateModel(
            name='SessionPresence',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('joined_at', models.DateTimeField(auto_now_add=True)),
                ('last_seen_at', models.DateTimeField(auto_now=True)),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='presences', to='classroom.classsession')),
                ('student', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='session_presences', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('session', 'student'), name='presence_unique')],
            },
        ),
        migrations.CreateModel(
            name='SessionSkillFigures',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('skill', models.CharField(max_length=32)),
                ('attempts', models.PositiveIntegerField(db_default=0, default=0)),
                ('correct', models.PositiveIntegerField(db_default=0, default=0)),
                ('wrong_in_a_row', models.PositiveIntegerField(db_default=0, default=0)),
                ('elapsed_ms_sum', models.BigIntegerField(db_default=0, default=0)),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='skill_figures', to='classroom.classsession')),
                ('student', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('session', 'student', 'skill'), name='session_figures_unique')],
            },
        ),
        migrations.AddConstraint(
            model_name='sessiontable',
            constraint=models.UniqueConstraint(fields=('session', 'number'), name='table_unique_number'),
        ),
        migrations.AddConstraint(
            model_name='sessionplace',
            constraint=models.UniqueConstraint(fields=('table', 'seat'), name='place_unique_seat'),
        ),
        migrations.AddConstraint(
            model_name='skillday',
            constraint=models.UniqueConstraint(fields=('student', 'day', 'skill'), name='skillday_unique'),
        ),
        migrations.AddConstraint(
            model_name='skillweek',
            constraint=models.UniqueConstraint(fields=('student', 'week', 'skill'), name='skillweek_unique'),
        ),
    ]
