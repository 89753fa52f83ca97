"""Standings per stage, and the entrants of a stage (issue 27).

``Standing`` gains its ``stage`` (each stage has its own standings; a team has one row a stage), ``pool`` and
``pool_rank`` (a pools stage); every existing row belongs to its event's stage 1 (a data migration; backwards,
the rows of later stages go). ``StageEntrant`` holds a later stage's field (the qualifiers, their seeds and
where they came from, what they carry, who was placed by hand). ``Stage`` keeps what closing and starting
decided (``report``, ``draw``, ``draws_before``, ``log``). A tournament's ``format`` may be ``pools``.

On SQLite adding a column with a foreign key rebuilds the standing table, which drops its triggers: they are
dropped first and made again after, as 0018 does (0002's, 0005's, 0014's, through 0014's ``triggers_again``).
"""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def triggers_dropped(apps, schema_editor):
    importlib.import_module("tournaments.migrations.0018_round_stage_required").triggers_dropped(apps, schema_editor)


def triggers_again(apps, schema_editor):
    importlib.import_module("tournaments.migrations.0018_round_stage_required").triggers_again(apps, schema_editor)


def rows_to_stage_one(apps, schema_editor):
    """Every saved standings row belongs to its event's stage 1 (the only stage any event had)."""
    Standing = apps.get_model("tournaments", "Standing")
    Stage = apps.get_model("tournaments", "Stage")
    first = dict(Stage.objects.filter(number=1).values_list("tournament_id", "id"))
    for tournament_id in Standing.objects.values_list("tournament_id", flat=True).distinct():
        Standing.objects.filter(tournament_id=tournament_id).update(stage_id=first[tournament_id])
    _checks_now(schema_editor)


def _checks_now(schema_editor):
    """PostgreSQL: check the deferred foreign keys now, so that the table can be altered in this transaction."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        schema_editor.execute("SET CONSTRAINTS ALL DEFERRED")


def rows_of_later_stages_gone(apps, schema_editor):
    """Backwards: one row a team again, stage 1's (the later stages' rows go)."""
    Standing = apps.get_model("tournaments", "Standing")
    Standing.objects.exclude(stage__number=1).delete()
    _checks_now(schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0018_round_stage_required'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(triggers_dropped, triggers_again),
        migrations.CreateModel(
            name='StageEntrant',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seed', models.PositiveIntegerField(help_text='Seed in this stage, 1 first.')),
                ('pool', models.PositiveSmallIntegerField(blank=True, help_text='A pools stage: its pool, once drawn.', null=True)),
                ('how', models.CharField(blank=True, default='', help_text='top, pool_place, next_place, table_winner, all, or hand.', max_length=16)),
                ('place', models.PositiveIntegerField(blank=True, help_text='Its place in its pool, table or cut.', null=True)),
                ('from_pool', models.PositiveSmallIntegerField(blank=True, help_text='Its pool in the stage before.', null=True)),
                ('qualified_from_rank', models.PositiveIntegerField(blank=True, help_text='Its rank in the stage before.', null=True)),
                ('carried', models.JSONField(blank=True, default=dict, help_text='Carried over: match_points, games_won, games_lost, points_for, points_against.')),
                ('placed_by_hand', models.BooleanField(default=False)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'ordering': ['stage', 'seed'],
            },
        ),
        migrations.AlterModelOptions(
            name='standing',
            options={'ordering': ['tournament', 'stage', 'position']},
        ),
        migrations.RemoveConstraint(
            model_name='standing',
            name='standing_team_once',
        ),
        migrations.RemoveConstraint(
            model_name='standing',
            name='standing_player_once',
        ),
        migrations.AddField(
            model_name='stage',
            name='draw',
            field=models.JSONField(blank=True, default=dict, help_text='Starting: the pools or the bracket drawn, with the seed they came from.'),
        ),
        migrations.AddField(
            model_name='stage',
            name='draws_before',
            field=models.JSONField(blank=True, default=list, help_text='Earlier draws of this stage, kept when a reopened stage before it closed again.'),
        ),
        migrations.AddField(
            model_name='stage',
            name='log',
            field=models.JSONField(blank=True, default=list, help_text='Who closed, started, reopened the stage or placed an entrant, and when.'),
        ),
        migrations.AddField(
            model_name='stage',
            name='report',
            field=models.JSONField(blank=True, default=dict, help_text='Closing: the ties at each cut and how they were broken, the replacements.'),
        ),
        migrations.AddField(
            model_name='standing',
            name='pool',
            field=models.PositiveSmallIntegerField(blank=True, help_text="A pools stage: the row's pool.", null=True),
        ),
        migrations.AddField(
            model_name='standing',
            name='pool_rank',
            field=models.PositiveIntegerField(blank=True, help_text='A pools stage: the rank in its pool.', null=True),
        ),
        migrations.AddField(
            model_name='standing',
            name='stage',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='tournaments.stage'),
        ),
        migrations.RunPython(rows_to_stage_one, rows_of_later_stages_gone),
        migrations.AlterField(
            model_name='standing',
            name='stage',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='tournaments.stage'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='format',
            field=models.CharField(choices=[('swiss', 'Swiss'), ('round_robin', 'Round robin'), ('knockout', 'Knockout'), ('tables', 'Tables of four'), ('pools', 'Pools')], default='swiss', max_length=20),
        ),
        migrations.AddConstraint(
            model_name='standing',
            constraint=models.UniqueConstraint(fields=('stage', 'team'), name='standing_team_once_in_stage'),
        ),
        migrations.AddConstraint(
            model_name='standing',
            constraint=models.UniqueConstraint(fields=('stage', 'player'), name='standing_player_once_in_stage'),
        ),
        migrations.AddField(
            model_name='stageentrant',
            name='entry',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='stage_entrants', to='tournaments.entry'),
        ),
        migrations.AddField(
            model_name='stageentrant',
            name='placed_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='stageentrant',
            name='stage',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entrants', to='tournaments.stage'),
        ),
        migrations.AddConstraint(
            model_name='stageentrant',
            constraint=models.UniqueConstraint(fields=('stage', 'entry'), name='stage_entrant_once'),
        ),
        migrations.RunPython(triggers_again, triggers_dropped),
    ]
