"""The database's triggers again, after 0008.

On SQLite, adding the ``retired`` columns rebuilt the player and team tables, and a rebuilt table
loses its triggers: an entered team moved to another club no longer recorded a standings change
(0005's ``tournaments_team_standings_update``). The triggers of 0002 and 0005 are dropped where they
are and created again, on both backends (on PostgreSQL they were intact: the same definitions).
"""

import importlib

from django.db import migrations

_TRIGGER_MIGRATIONS = ("0002_hand_finished_game_trigger", "0005_standings_changes")


def triggers_again(apps, schema_editor):
    for direction in ("backwards", "forwards"):
        for name in _TRIGGER_MIGRATIONS:
            module = importlib.import_module(f"tournaments.migrations.{name}")
            getattr(module, direction)(apps, schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0008_player_team_retired"),
    ]

    operations = [
        migrations.RunPython(triggers_again, migrations.RunPython.noop),
    ]
