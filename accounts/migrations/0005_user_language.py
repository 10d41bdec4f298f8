from django.db import migrations, models

import accounts.models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_accommodations"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="language",
            field=models.CharField(
                blank=True,
                default="",
                max_length=8,
                validators=[accounts.models.validate_language],
                verbose_name="language",
            ),
        ),
        migrations.AddField(
            model_name="user",
            name="family_language",
            field=models.CharField(
                blank=True,
                default="",
                max_length=8,
                validators=[accounts.models.validate_language],
                verbose_name="family's language",
            ),
        ),
    ]
