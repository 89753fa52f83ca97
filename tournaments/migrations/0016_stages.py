"""Stages (issue 27): the ``Stage`` table and ``Round.stage``, empty for now (0017 fills it, 0018 requires it).

On SQLite adding the column rebuilds the round table, which drops the standings' triggers: they are
dropped first and made again last (as 0014 does), on both backends (the same definitions).
"""

import importlib

import django.core.validators
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
        ('tournaments', '0015_volunteers_keep_players_apart'),
    ]

    operations = [
        migrations.RunPython(triggers_dropped, triggers_again),
        migrations.CreateModel(
            name='Stage',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('format', models.CharField(choices=[('swiss', 'Swiss'), ('round_robin', 'Round robin'), ('knockout', 'Knockout'), ('pools', 'Pools'), ('tables', 'Tables of four')], max_length=20)),
                ('rounds', models.PositiveSmallIntegerField(default=5, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(99)])),
                ('best_of', models.PositiveSmallIntegerField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(15)])),
                ('match_length', models.CharField(choices=[('best_of', 'Best of'), ('games', 'A number of games'), ('timed', 'Timed')], default='best_of', max_length=8)),
                ('match_games', models.PositiveSmallIntegerField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(15)])),
                ('minutes', models.PositiveSmallIntegerField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(600)])),
                ('at_time', models.CharField(choices=[('finish', 'Finish the game'), ('stop', 'Stop after the deal')], default='finish', max_length=8)),
                ('status', models.CharField(choices=[('pending', 'Pending'), ('running', 'Running'), ('closed', 'Closed')], default='pending', max_length=8)),
                ('pools', models.PositiveSmallIntegerField(default=0, help_text='A pools stage: the number of pools.')),
                ('rule', models.CharField(blank=True, choices=[('top', 'The first N of the standings'), ('pools', 'The first K of each pool and the best M of the next place'), ('table_winners', 'The table winners'), ('all', 'Everyone')], default='', max_length=16)),
                ('rule_count', models.PositiveSmallIntegerField(default=0, help_text='top: the first N.')),
                ('rule_per_pool', models.PositiveSmallIntegerField(default=0, help_text='pools: the first K of each pool.')),
                ('rule_best_next', models.PositiveSmallIntegerField(default=0, help_text='pools: the best M of place K + 1 across the pools.')),
                ('rule_carry', models.JSONField(blank=True, default=list, help_text='What the qualifiers carry: of "match_points", "games", "points".')),
                ('seed', models.CharField(blank=True, default='', help_text='The published seed of its draws.', max_length=64)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'ordering': ['tournament', 'number'],
            },
        ),
        migrations.AddField(
            model_name='stage',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='stages', to='tournaments.tournament'),
        ),
        migrations.AddField(
            model_name='round',
            name='stage',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='round_set', to='tournaments.stage'),
        ),
        migrations.AddConstraint(
            model_name='stage',
            constraint=models.UniqueConstraint(fields=('tournament', 'number'), name='stage_number_unique'),
        ),
        migrations.AddConstraint(
            model_name='stage',
            constraint=models.CheckConstraint(condition=models.Q(('number__gte', 1)), name='stage_number_positive'),
        ),
        migrations.RunPython(triggers_again, triggers_dropped),
    ]
