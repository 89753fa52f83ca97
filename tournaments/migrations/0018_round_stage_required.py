"""Every round belongs to a stage, and round numbers count per stage: (stage, number) is unique, where
(tournament, number) was. Backwards refuses nothing for one-stage events (the only kind before 0016).

The standings' triggers are dropped and made again around the round table's rebuild on SQLite (as 0016).
"""

import importlib

import django.db.models.deletion
from django.db import migrations, models


def triggers_dropped(apps, schema_editor):
    """No trigger while SQLite rebuilds the round table (a trigger naming it fails while it is renamed)."""
    base = importlib.import_module("tournaments.migrations.0014_individual_events")
    base.backwards(apps, schema_editor)
    base.triggers_dropped(apps, schema_editor)


def triggers_again(apps, schema_editor):
    """Every standings trigger again (0002's, 0005's, 0014's), as 0014 left them: a rebuilt table loses its own."""
    importlib.import_module("tournaments.migrations.0014_individual_events").triggers_again(apps, schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0017_one_stage_per_event"),
    ]

    operations = [
        migrations.RunPython(triggers_dropped, triggers_again),
        migrations.AlterField(
            model_name="round",
            name="stage",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="round_set",
                                    to="tournaments.stage"),
        ),
        migrations.RemoveConstraint(
            model_name="round",
            name="round_number_unique",
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.UniqueConstraint(fields=("stage", "number"), name="round_number_unique_in_stage"),
        ),
        migrations.RunPython(triggers_again, triggers_dropped),
    ]
