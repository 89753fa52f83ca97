"""The tournament's points get their bounds and the hand's columns their names in words (no SQL for those);
a tournament's name is unique per club and start date (issue 25.5).

Tournaments already stored twice under one name, club and start date would stop the constraints being added:
``rename_duplicates`` first renames every such tournament but the oldest, "Name (2)", "Name (3)"… (its slug,
so its pages' addresses, stay as they were).
"""

import django.core.validators
import django.db.models.deletion
import django.db.models.functions.text
from django.conf import settings
from django.db import migrations, models


def rename_duplicates(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    seen: set[tuple] = set()
    for t in Tournament.objects.filter(starts_on__isnull=False).order_by("pk"):
        key = (t.name.casefold(), t.club_id, t.starts_on)
        if key not in seen:
            seen.add(key)
            continue
        n = 2
        while True:
            suffix = f" ({n})"
            name = t.name[:160 - len(suffix)] + suffix
            renamed = (name.casefold(), t.club_id, t.starts_on)
            if renamed not in seen and not Tournament.objects.filter(
                    name__iexact=name, club_id=t.club_id, starts_on=t.starts_on).exists():
                break
            n += 1
        seen.add(renamed)
        Tournament.objects.filter(pk=t.pk).update(name=name)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0011_hand_idempotency_fingerprint'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name='hand',
            name='all_tricks',
            field=models.BooleanField(default=False, verbose_name='all the tricks'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='blind',
            field=models.BooleanField(default=False, verbose_name='blind'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='bonus',
            field=models.JSONField(blank=True, null=True, verbose_name='turn-up bonus'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='created_at',
            field=models.DateTimeField(auto_now_add=True, verbose_name='entered at'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='dealer',
            field=models.CharField(choices=[('N', 'North'), ('E', 'East'), ('S', 'South'), ('W', 'West')], max_length=1, verbose_name='dealer'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='doublings',
            field=models.PositiveSmallIntegerField(default=0, verbose_name='doublings'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='entered_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='entered by'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='game',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='hands', to='tournaments.game', verbose_name='game'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='game_winner',
            field=models.CharField(blank=True, default='', max_length=4, verbose_name='game won by'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='idempotency_key',
            field=models.CharField(blank=True, max_length=200, null=True, verbose_name='retry key'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='labels',
            field=models.JSONField(blank=True, default=list, verbose_name='notes'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='multiplier',
            field=models.PositiveBigIntegerField(default=1, verbose_name='multiplier'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='number',
            field=models.PositiveSmallIntegerField(verbose_name='hand number'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='penalty_side',
            field=models.CharField(blank=True, choices=[('ns', 'NS (first team)'), ('ew', 'EW (second team)')], default='', max_length=2, verbose_name='penalty by'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='penalty_type',
            field=models.CharField(blank=True, default='', max_length=20, verbose_name='penalty'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='play',
            field=models.JSONField(blank=True, help_text='The full card play, if entered.', null=True, verbose_name='card play'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='points_ew',
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='points EW'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='points_ns',
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='points NS'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='score_ew',
            field=models.BigIntegerField(default=0, verbose_name='score EW'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='score_ns',
            field=models.BigIntegerField(default=0, verbose_name='score NS'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='sheet_score',
            field=models.JSONField(blank=True, help_text='The score read off the paper sheet, if sent.', null=True, verbose_name='score on the sheet'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='thrown_in',
            field=models.BooleanField(default=False, verbose_name='thrown in'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='total_ew',
            field=models.BigIntegerField(default=0, verbose_name='total EW'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='total_ns',
            field=models.BigIntegerField(default=0, verbose_name='total NS'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='tricks_ew',
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='tricks EW'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='tricks_ns',
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='tricks NS'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='trump',
            field=models.CharField(blank=True, default='', help_text='A suit letter or "none".', max_length=4, verbose_name='trump'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='turned_card',
            field=models.CharField(blank=True, default='', max_length=4, verbose_name='turned card'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='updated_at',
            field=models.DateTimeField(auto_now=True, verbose_name='changed at'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='all_tricks',
            field=models.BooleanField(default=False, verbose_name='all the tricks'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='blind',
            field=models.BooleanField(default=False, verbose_name='blind'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='bonus',
            field=models.JSONField(blank=True, null=True, verbose_name='turn-up bonus'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='created_at',
            field=models.DateTimeField(blank=True, editable=False, verbose_name='entered at'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='dealer',
            field=models.CharField(choices=[('N', 'North'), ('E', 'East'), ('S', 'South'), ('W', 'West')], max_length=1, verbose_name='dealer'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='doublings',
            field=models.PositiveSmallIntegerField(default=0, verbose_name='doublings'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='entered_by',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='entered by'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='game',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='tournaments.game', verbose_name='game'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='game_winner',
            field=models.CharField(blank=True, default='', max_length=4, verbose_name='game won by'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='idempotency_key',
            field=models.CharField(blank=True, max_length=200, null=True, verbose_name='retry key'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='labels',
            field=models.JSONField(blank=True, default=list, verbose_name='notes'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='multiplier',
            field=models.PositiveBigIntegerField(default=1, verbose_name='multiplier'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='number',
            field=models.PositiveSmallIntegerField(verbose_name='hand number'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='penalty_side',
            field=models.CharField(blank=True, choices=[('ns', 'NS (first team)'), ('ew', 'EW (second team)')], default='', max_length=2, verbose_name='penalty by'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='penalty_type',
            field=models.CharField(blank=True, default='', max_length=20, verbose_name='penalty'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='play',
            field=models.JSONField(blank=True, help_text='The full card play, if entered.', null=True, verbose_name='card play'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='points_ew',
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='points EW'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='points_ns',
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='points NS'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='score_ew',
            field=models.BigIntegerField(default=0, verbose_name='score EW'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='score_ns',
            field=models.BigIntegerField(default=0, verbose_name='score NS'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='sheet_score',
            field=models.JSONField(blank=True, help_text='The score read off the paper sheet, if sent.', null=True, verbose_name='score on the sheet'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='thrown_in',
            field=models.BooleanField(default=False, verbose_name='thrown in'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='total_ew',
            field=models.BigIntegerField(default=0, verbose_name='total EW'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='total_ns',
            field=models.BigIntegerField(default=0, verbose_name='total NS'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='tricks_ew',
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='tricks EW'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='tricks_ns',
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='tricks NS'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='trump',
            field=models.CharField(blank=True, default='', help_text='A suit letter or "none".', max_length=4, verbose_name='trump'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='turned_card',
            field=models.CharField(blank=True, default='', max_length=4, verbose_name='turned card'),
        ),
        migrations.AlterField(
            model_name='historicalhand',
            name='updated_at',
            field=models.DateTimeField(blank=True, editable=False, verbose_name='changed at'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='points_bye',
            field=models.PositiveSmallIntegerField(default=2, validators=[django.core.validators.MaxValueValidator(100)], verbose_name='points for a bye'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='points_draw',
            field=models.PositiveSmallIntegerField(default=1, validators=[django.core.validators.MaxValueValidator(100)], verbose_name='points for a draw'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='points_win',
            field=models.PositiveSmallIntegerField(default=2, validators=[django.core.validators.MaxValueValidator(100)], verbose_name='points for a win'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='separate_clubs_rounds',
            field=models.PositiveSmallIntegerField(default=0, help_text='Swiss: keep teams of the same club apart in this many first rounds.', validators=[django.core.validators.MaxValueValidator(99)]),
        ),
        migrations.RunPython(rename_duplicates, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.UniqueConstraint(django.db.models.functions.text.Lower('name'), models.F('club'), models.F('starts_on'), name='tournament_once_per_club_day'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.UniqueConstraint(django.db.models.functions.text.Lower('name'), models.F('starts_on'), condition=models.Q(('club__isnull', True)), name='tournament_once_per_day_without_club'),
        ),
    ]
