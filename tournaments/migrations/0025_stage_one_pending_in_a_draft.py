"""Stage 1 of a draft tournament is pending (``Stage.follow``): 0017 gave every event of before a running stage 1,
drafts included. A draft's stage 1 without a round goes back to pending; backwards, running again."""

from django.db import migrations


def pending_in_drafts(apps, schema_editor):
    Stage = apps.get_model("tournaments", "Stage")
    Stage.objects.filter(number=1, status="running", tournament__status="draft",
                         round_set__isnull=True).update(status="pending")


def running_again(apps, schema_editor):
    Stage = apps.get_model("tournaments", "Stage")
    Stage.objects.filter(number=1, status="pending").update(status="running")


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0024_clock_reopen"),
    ]

    operations = [
        migrations.RunPython(pending_in_drafts, running_again),
    ]
