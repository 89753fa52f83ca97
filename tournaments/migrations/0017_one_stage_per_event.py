"""Every event of today becomes a one-stage event: stage 1 mirrors its format, rounds and match length, runs,
and holds all its rounds (their numbers stay as they are: they count stage 1's rounds). Backwards: the
rounds leave their stage and the stages go (0016 backwards drops the table)."""

from django.db import migrations

#: The tournament's fields that describe its stage 1 (``tournaments.models.STAGE_ONE_FIELDS`` today).
STAGE_ONE_FIELDS = ("format", "rounds", "best_of", "match_length", "match_games", "minutes", "at_time")


def one_stage_each(apps, schema_editor):
    Tournament, Stage, Round = (apps.get_model("tournaments", name) for name in ("Tournament", "Stage", "Round"))
    for values in Tournament.objects.values("id", *STAGE_ONE_FIELDS).iterator(chunk_size=1000):
        tournament_id = values.pop("id")
        stage = Stage.objects.create(tournament_id=tournament_id, number=1, status="running", **values)
        Round.objects.filter(tournament_id=tournament_id).update(stage=stage)


def no_stages(apps, schema_editor):
    Stage, Round = apps.get_model("tournaments", "Stage"), apps.get_model("tournaments", "Round")
    Round.objects.update(stage=None)
    Stage.objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0016_stages"),
    ]

    operations = [
        migrations.RunPython(one_stage_each, no_stages),
    ]
