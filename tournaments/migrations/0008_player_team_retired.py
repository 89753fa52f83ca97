"""Players and teams can be retired: kept for the history, no longer offered for new teams and entries."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0007_task_lease_wide_columns"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="retired",
            field=models.BooleanField(
                default=False, help_text="Left the club: kept for the history, no longer offered for new teams."),
        ),
        migrations.AddField(
            model_name="team",
            name="retired",
            field=models.BooleanField(
                default=False, help_text="No longer playing: kept for the history, no longer offered for new entries."),
        ),
    ]
