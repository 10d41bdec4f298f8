from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0016_session_next_round"),
    ]

    operations = [
        migrations.AddField(
            model_name="classsession",
            name="projector_names",
            field=models.CharField(
                choices=[
                    ("full", "Full names"),
                    ("first", "First names only"),
                    ("initials", "Initials only"),
                ],
                default="first",
                max_length=10,
                verbose_name="names on the projector",
            ),
        ),
        migrations.AddField(
            model_name="classsession",
            name="projector_top",
            field=models.PositiveSmallIntegerField(
                default=10, verbose_name="places on the projector's leaderboard"
            ),
        ),
    ]
