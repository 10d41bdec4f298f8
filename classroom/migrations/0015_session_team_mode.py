from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("classroom", "0014_session_calm_together")]

    operations = [
        migrations.AddField(
            model_name="classsession",
            name="team_mode",
            field=models.CharField(
                choices=[
                    ("none", "Each child for themselves"),
                    ("tables", "Each table is a team"),
                    ("class", "The whole class together against the bots"),
                ],
                default="none",
                max_length=8,
                verbose_name="teams",
            ),
        ),
    ]
