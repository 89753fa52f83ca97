"""Each match's game points (the sum of its games' totals), kept by ``match_refresh_result``.

The standings read them from the matches instead of summing every game of the tournament. The
existing matches are filled in one UPDATE with a correlated subquery per side.
"""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery, Sum
from django.db.models.functions import Coalesce


def backfill(apps, schema_editor):
    Match = apps.get_model("tournaments", "Match")
    Game = apps.get_model("tournaments", "Game")
    games = Game.objects.using(schema_editor.connection.alias).filter(match=OuterRef("pk")).order_by()
    per_match = games.values("match")

    def total(side):
        return Coalesce(Subquery(per_match.annotate(s=Sum(f"total_{side}")).values("s")), 0)

    Match.objects.using(schema_editor.connection.alias).update(points_ns=total("ns"), points_ew=total("ew"))


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0003_forbiddenpair_standingssnapshot_taskrecord"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="points_ns",
            field=models.IntegerField(default=0, help_text="Game points of NS: the sum of its games' totals."),
        ),
        migrations.AddField(
            model_name="match",
            name="points_ew",
            field=models.IntegerField(default=0, help_text="Game points of EW: the sum of its games' totals."),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
