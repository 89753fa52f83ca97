"""Task leases, a time on standings changes, and 64-bit scores.

* ``TaskRecord``: ``started_at``, ``lease_expires_at`` (pushed forward by the worker's heartbeat;
  past it the task was lost with its worker) and ``attempts``.
* ``StandingsChange.created_at``, set by the database (the triggers of 0005 name no time), so the
  periodic sweep can find a change that has waited too long for its recompute.
* Multipliers, scores, totals and points in 64-bit columns: with ``tie_doubling=stack`` the 10th tie
  in a row needs a multiplier of 2^31, which a 32-bit column refused.

Changing a column's type: PostgreSQL refuses it for a column named in a trigger's WHEN (the match
trigger of 0005), and SQLite rebuilds the table, which drops its triggers. So the triggers of 0002
and 0005 are dropped first and created again last, on both backends.
"""

import importlib

import django.db.models.functions.datetime
from django.db import migrations, models

_TRIGGER_MIGRATIONS = ("0002_hand_finished_game_trigger", "0005_standings_changes")


def _triggers(direction: str):
    def run(apps, schema_editor):
        for name in _TRIGGER_MIGRATIONS:
            module = importlib.import_module(f"tournaments.migrations.{name}")
            getattr(module, direction)(apps, schema_editor)
    return run


def _wide(model_name: str, name: str, field) -> migrations.AlterField:
    return migrations.AlterField(model_name=model_name, name=name, field=field)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0006_volunteers_group"),
    ]

    operations = [
        migrations.RunPython(_triggers("backwards"), _triggers("forwards")),
        migrations.AddField(
            model_name="standingschange",
            name="created_at",
            field=models.DateTimeField(db_default=django.db.models.functions.datetime.Now(), editable=False),
        ),
        migrations.AddField(
            model_name="taskrecord",
            name="attempts",
            field=models.PositiveSmallIntegerField(default=0, help_text="How many times a worker started it."),
        ),
        migrations.AddField(
            model_name="taskrecord",
            name="lease_expires_at",
            field=models.DateTimeField(
                blank=True, null=True, help_text="A running task whose lease has passed was lost with its worker."),
        ),
        migrations.AddField(
            model_name="taskrecord",
            name="started_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        _wide("game", "next_multiplier", models.PositiveBigIntegerField(default=1)),
        _wide("game", "total_ew", models.BigIntegerField(default=0)),
        _wide("game", "total_ns", models.BigIntegerField(default=0)),
        _wide("hand", "multiplier", models.PositiveBigIntegerField(default=1)),
        _wide("hand", "score_ew", models.BigIntegerField(default=0)),
        _wide("hand", "score_ns", models.BigIntegerField(default=0)),
        _wide("hand", "total_ew", models.BigIntegerField(default=0)),
        _wide("hand", "total_ns", models.BigIntegerField(default=0)),
        _wide("historicalhand", "multiplier", models.PositiveBigIntegerField(default=1)),
        _wide("historicalhand", "score_ew", models.BigIntegerField(default=0)),
        _wide("historicalhand", "score_ns", models.BigIntegerField(default=0)),
        _wide("historicalhand", "total_ew", models.BigIntegerField(default=0)),
        _wide("historicalhand", "total_ns", models.BigIntegerField(default=0)),
        _wide("match", "points_ew",
              models.BigIntegerField(default=0, help_text="Game points of EW: the sum of its games' totals.")),
        _wide("match", "points_ns",
              models.BigIntegerField(default=0, help_text="Game points of NS: the sum of its games' totals.")),
        _wide("standing", "match_points", models.BigIntegerField(default=0)),
        _wide("standing", "points_against", models.BigIntegerField(default=0)),
        _wide("standing", "points_for", models.BigIntegerField(default=0)),
        migrations.RunPython(_triggers("forwards"), _triggers("backwards")),
    ]
