"""The accounts app's tables as its models define them. It replaces the app's first seven
migrations: a database that applied them runs nothing (docs/architecture.md, "Upgrading")."""

import accounts.models
import django.contrib.auth.models
import django.contrib.auth.validators
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('accounts', '0001_initial'),
        ('accounts', '0002_mask_stored_sign_in_secrets'),
        ('accounts', '0003_user_time_zone'),
        ('accounts', '0004_accommodations'),
        ('accounts', '0005_user_language'),
        ('accounts', '0006_user_digits'),
        ('accounts', '0007_user_languages_db_default'),
    ]

    dependencies = [
        ('auth', '0012_alter_user_first_name_max_length'),
    ]

    operations = [
        migrations.CreateModel(
            name='User',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('password', models.CharField(max_length=128, verbose_name='password')),
                ('last_login', models.DateTimeField(blank=True, null=True, verbose_name='last login')),
                ('is_superuser', models.BooleanField(default=False, help_text='Designates that this user has all permissions without explicitly assigning them.', verbose_name='superuser status')),
                ('username', models.CharField(error_messages={'unique': 'A user with that username already exists.'}, help_text='Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only.', max_length=150, unique=True, validators=[django.contrib.auth.validators.UnicodeUsernameValidator()], verbose_name='username')),
                ('first_name', models.CharField(blank=True, max_length=150, verbose_name='first name')),
                ('last_name', models.CharField(blank=True, max_length=150, verbose_name='last name')),
                ('email', models.EmailField(blank=True, max_length=254, verbose_name='email address')),
                ('is_staff', models.BooleanField(default=False, help_text='Designates whether the user can log into this admin site.', verbose_name='staff status')),
                ('is_active', models.BooleanField(default=True, help_text='Designates whether this user should be treated as active. Unselect this instead of deleting accounts.', verbose_name='active')),
                ('date_joined', models.DateTimeField(default=django.utils.timezone.now, verbose_name='date joined')),
                ('role', models.CharField(choices=[('teacher', 'Teacher'), ('student', 'Student')], default='teacher', max_length=16, verbose_name='role')),
                ('display_name', models.CharField(blank=True, max_length=80, verbose_name='name')),
                ('secret_kind', models.CharField(blank=True, choices=[('', 'Not set'), ('picture', 'Picture password'), ('pin', 'PIN')], default='', max_length=16, verbose_name='kind of secret')),
                ('secret_hash', models.CharField(blank=True, default='', max_length=256)),
                ('time_zone', models.CharField(blank=True, default='', max_length=64, validators=[accounts.models.validate_time_zone], verbose_name='time zone')),
                ('language', models.CharField(blank=True, db_default='', default='', max_length=8, validators=[accounts.models.validate_language], verbose_name='language')),
                ('family_language', models.CharField(blank=True, db_default='', default='', max_length=8, validators=[accounts.models.validate_language], verbose_name="family's language")),
                ('digits', models.CharField(choices=[('latn', 'Western digits: 0 1 2 3 4 5 6 7 8 9'), ('arab', 'Eastern Arabic digits: ٠ ١ ٢ ٣ ٤ ٥ ٦ ٧ ٨ ٩')], db_default='latn', default='latn', max_length=4, verbose_name='digits')),
                ('groups', models.ManyToManyField(blank=True, help_text='The groups this user belongs to. A user will get all permissions granted to each of their groups.', related_name='user_set', related_query_name='user', to='auth.group', verbose_name='groups')),
                ('user_permissions', models.ManyToManyField(blank=True, help_text='Specific permissions for this user.', related_name='user_set', related_query_name='user', to='auth.permission', verbose_name='user permissions')),
            ],
            managers=[
                ('objects', django.contrib.auth.models.UserManager()),
            ],
        ),
        migrations.CreateModel(
            name='Accommodations',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('time', models.CharField(choices=[('standard', 'Standard time'), ('x1.5', 'One and a half times the time'), ('x2', 'Twice the time'), ('none', 'No clock')], default='standard', max_length=8, verbose_name='time')),
                ('calm_table', models.BooleanField(default=False, help_text='Answers each card in their own time, without the race.', verbose_name='calm ¡Mía! table')),
                ('public_name', models.CharField(choices=[('full', 'Name'), ('initials', 'Initials only'), ('hidden', 'Not shown')], default='full', max_length=8, verbose_name='on the projector')),
                ('read_aloud', models.BooleanField(default=False, verbose_name='numbers read aloud')),
                ('dots', models.BooleanField(default=False, verbose_name='numbers also as dots and ten-frames')),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('student', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='accommodations', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'accommodations',
                'verbose_name_plural': 'accommodations',
            },
        ),
        migrations.AddConstraint(
            model_name='user',
            constraint=models.CheckConstraint(condition=models.Q(('role__in', ['teacher', 'student'])), name='user_role_valid'),
        ),
    ]
