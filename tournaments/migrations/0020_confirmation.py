"""Results confirmed by the opponents: the role ``director``, the tournament's confirmation settings, each match's
result status (with who entered it), the players' personal codes and the result's audit rows.

The standings triggers (0005) learn the new column: a result confirmed, disputed or settled records a
standings change, since a tournament that waits for confirmation counts only confirmed and final results. On
SQLite adding the match's and the tournament's columns rebuilds their tables: as 0014 does, every trigger is
dropped first and made again after (0014's ``triggers_again``, then the match's new one), and the same
backwards.
"""

import importlib

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _individual():
    """0014: the triggers of every migration before this one (``triggers_again``), and dropping them."""
    return importlib.import_module("tournaments.migrations.0014_individual_events")


def _match_update_trigger(schema_editor, columns) -> None:
    """Make the match's standings trigger on update again, watching ``columns``."""
    changes = importlib.import_module("tournaments.migrations.0005_standings_changes")
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute("DROP TRIGGER IF EXISTS tournaments_match_standings_update ON tournaments_match")
        schema_editor.execute(
            "CREATE TRIGGER tournaments_match_standings_update AFTER UPDATE ON tournaments_match FOR EACH ROW "
            f"WHEN ({changes._postgres_changed(columns)}) EXECUTE FUNCTION tournaments_standings_change_match()")
    elif vendor == "sqlite":
        schema_editor.execute("DROP TRIGGER IF EXISTS tournaments_match_standings_update")
        body = [changes._match_change("OLD"), changes._match_change("NEW") + " AND NEW.round_id IS NOT OLD.round_id"]
        schema_editor.execute(
            f"CREATE TRIGGER tournaments_match_standings_update AFTER UPDATE ON tournaments_match "
            f"WHEN {changes._sqlite_changed(columns)} BEGIN {'; '.join(body)}; END")


def triggers_dropped(apps, schema_editor):
    """No trigger while SQLite rebuilds the tables (as 0014 does): every earlier migration's, dropped."""
    _individual().backwards(apps, schema_editor)
    _individual().triggers_dropped(apps, schema_editor)


def triggers_before(apps, schema_editor):
    """The triggers as 0019 left them."""
    _individual().triggers_again(apps, schema_editor)


def forwards(apps, schema_editor):
    """Every earlier trigger again, the match's watching ``result_status`` too."""
    _individual().triggers_again(apps, schema_editor)
    _match_update_trigger(schema_editor, [*importlib.import_module(
        "tournaments.migrations.0005_standings_changes").MATCH_COLUMNS, "result_status"])


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0019_stage_standings'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(triggers_dropped, triggers_before),
        migrations.AddField(
            model_name='match',
            name='result_at',
            field=models.DateTimeField(blank=True, help_text='Since when the result has its status.', null=True),
        ),
        migrations.AddField(
            model_name='match',
            name='result_device',
            field=models.CharField(blank=True, default='', help_text='The phone that entered the result (its id).', max_length=40),
        ),
        migrations.AddField(
            model_name='match',
            name='result_mark',
            field=models.CharField(blank=True, default='', help_text="How the result was confirmed: paper (by a director), auto (after the event's minutes without a dispute).", max_length=8),
        ),
        migrations.AddField(
            model_name='match',
            name='result_reason',
            field=models.CharField(blank=True, default='', help_text="The dispute's reason, or the director's.", max_length=300),
        ),
        migrations.AddField(
            model_name='match',
            name='result_side',
            field=models.CharField(blank=True, default='', help_text='The side that entered the result; empty: neutral or unknown.', max_length=2),
        ),
        migrations.AddField(
            model_name='match',
            name='result_status',
            field=models.CharField(blank=True, choices=[('', 'Not finished'), ('entered', 'Entered'), ('confirmed', 'Confirmed'), ('disputed', 'Disputed'), ('final', 'Final')], default='', max_length=10),
        ),
        migrations.AddField(
            model_name='match',
            name='result_user',
            field=models.ForeignKey(blank=True, help_text='The account that entered the result.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='tournament',
            name='auto_confirm_minutes',
            field=models.PositiveSmallIntegerField(blank=True, help_text='Confirm a result automatically after this many minutes without a dispute (empty: never).', null=True, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(1440)]),
        ),
        migrations.AddField(
            model_name='tournament',
            name='confirmation',
            field=models.CharField(choices=[('off', 'Off: a finished match is final'), ('opponents', 'By the opponents')], default='off', help_text='Off: a finished match is final. Opponents: someone of the other side confirms it (or disputes it, and a director settles it).', max_length=10),
        ),
        migrations.AddField(
            model_name='tournament',
            name='directors',
            field=models.ManyToManyField(blank=True, help_text='Settle disputed results and change confirmed ones (organizers are directors too).', related_name='directed_tournaments', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='tournament',
            name='unconfirmed',
            field=models.CharField(choices=[('count', 'Count them in the standings (marked)'), ('wait', 'Wait for their confirmation')], default='count', help_text='Results not yet confirmed: counted in the standings (marked), or waited for (then the next round is not paired before them).', max_length=6),
        ),
        migrations.CreateModel(
            name='PersonalCode',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('code', models.CharField(max_length=12)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.player')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='personal_codes', to='tournaments.tournament')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('tournament', 'player'), name='personal_code_once_per_player'), models.UniqueConstraint(fields=('tournament', 'code'), name='personal_code_unique_in_tournament')],
            },
        ),
        migrations.CreateModel(
            name='ResultEvent',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('entered', 'Entered'), ('corrected', 'Corrected'), ('confirmed', 'Confirmed'), ('disputed', 'Disputed'), ('settled', 'Settled by a director'), ('paper', 'Confirmed on paper by a director'), ('auto', 'Confirmed automatically'), ('decided', 'Changed by a director'), ('reopened', 'Reopened')], max_length=10)),
                ('status', models.CharField(blank=True, default='', help_text="The result's status after it.", max_length=10)),
                ('side', models.CharField(blank=True, default='', max_length=2)),
                ('device', models.CharField(blank=True, default='', max_length=40)),
                ('address', models.GenericIPAddressField(blank=True, null=True)),
                ('reason', models.CharField(blank=True, default='', max_length=300)),
                ('result', models.JSONField(blank=True, default=dict, help_text='The result at that step: winner, games won and points of each side.')),
                ('at', models.DateTimeField(auto_now_add=True, db_index=True)),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='result_events', to='tournaments.match')),
                ('player', models.ForeignKey(blank=True, help_text='The player who named themselves (with their personal code or account).', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tournaments.player')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['match', 'at', 'id'],
                'indexes': [models.Index(fields=['match', 'at'], name='tournaments_match_i_89491e_idx')],
            },
        ),
        migrations.RunPython(forwards, triggers_dropped),
    ]
