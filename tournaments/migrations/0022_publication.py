"""Rounds published on purpose (issue 28): the round's ``published_at`` and the event's ``auto_publish``.

Every event keeps today's behaviour: ``auto_publish`` is on by default, and every existing round is published
(``published_at`` its pairing's time), so no round disappears from anyone's view.

SQLite adding the columns rebuilds the tables, which drops their triggers: as 0020 and 0021 do, every trigger is
dropped first and made again after (0020's ``triggers_dropped`` and ``forwards``)."""

import importlib

from django.db import migrations, models
from django.db.models import F


def _confirmation():
    return importlib.import_module("tournaments.migrations.0020_confirmation")


def triggers_dropped(apps, schema_editor):
    _confirmation().triggers_dropped(apps, schema_editor)


def triggers_again(apps, schema_editor):
    """Every trigger as 0020 left it."""
    _confirmation().forwards(apps, schema_editor)


def publish_existing(apps, schema_editor):
    """Every round paired before publication existed was public from its pairing: published then."""
    Round = apps.get_model("tournaments", "Round")
    Round.objects.filter(published_at__isnull=True).update(published_at=F("created_at"))


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0021_director_actions'),
    ]

    operations = [
        migrations.RunPython(triggers_dropped, triggers_again),
        migrations.AddField(
            model_name='round',
            name='published_at',
            field=models.DateTimeField(blank=True, help_text='When the round was published (empty: not yet, seen by the organizers, directors and scorekeepers alone).', null=True),
        ),
        migrations.AddField(
            model_name='tournament',
            name='auto_publish',
            field=models.BooleanField(default=True, help_text='Publish each round as it is paired; off: an organizer publishes it on purpose (until then only the organizers, directors and scorekeepers see it).'),
        ),
        migrations.RunPython(publish_existing, migrations.RunPython.noop),
        migrations.RunPython(triggers_again, triggers_dropped),
    ]
