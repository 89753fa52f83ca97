"""What the workers write: the standings and their snapshot, the changes that await a recompute, task records."""

from django.conf import settings
from django.db import models
from django.db.models.functions import Now

from .clubs import Player, Team
from .events import Tournament


class Standing(models.Model):
    """One saved row of a tournament's standings, replaced whole by each recompute."""

    #: The values a recompute writes (a team's or a player's row alike); ``tiebreaks``, the JSON field, last.
    COMPUTED = ("rank", "position", "played", "won", "drawn", "lost", "match_points", "games_won", "games_lost",
                "points_for", "points_against", "forfeits_won", "forfeits_lost", "withdrawn", "tiebreaks")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    # The stage the row ranks in (each stage has its own standings; a one-stage event's are stage 1's).
    stage = models.ForeignKey("tournaments.Stage", on_delete=models.CASCADE, related_name="standings")
    pool = models.PositiveSmallIntegerField(null=True, blank=True, help_text="A pools stage: the row's pool.")
    pool_rank = models.PositiveIntegerField(null=True, blank=True, help_text="A pools stage: the rank in its pool.")
    # A team's row, or a player's in an individual event.
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+", null=True, blank=True)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", null=True, blank=True)
    rank = models.PositiveIntegerField()
    position = models.PositiveIntegerField(help_text="Order of the row (equal ranks share a rank).")
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    drawn = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    match_points = models.BigIntegerField(default=0)
    games_won = models.PositiveIntegerField(default=0)
    games_lost = models.PositiveIntegerField(default=0)
    points_for = models.BigIntegerField(default=0)  # 64-bit, as Match.points_ns
    points_against = models.BigIntegerField(default=0)
    forfeits_won = models.PositiveIntegerField(default=0, help_text="Matches won by forfeit (not played).")
    forfeits_lost = models.PositiveIntegerField(default=0, help_text="Matches lost by forfeit (not played).")
    withdrawn = models.BooleanField(default=False, help_text="The entry withdrew from the event.")
    tiebreaks = models.JSONField(default=dict)
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["tournament", "stage", "position"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "team"], name="standing_team_once_in_stage"),
            models.UniqueConstraint(fields=["stage", "player"], name="standing_player_once_in_stage"),
        ]


class StandingsSnapshot(models.Model):
    """When a tournament's saved standings were computed, with its club standings; one per tournament."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="standings_snapshot")
    computed_at = models.DateTimeField()
    duration_ms = models.PositiveIntegerField(default=0)
    metrics = models.JSONField(default=list)
    clubs = models.JSONField(default=list, help_text="Club standings: club, rank, teams, percentage.")
    generation = models.CharField(
        max_length=32, blank=True, default="",
        help_text="A random id written with every recompute: a worker that kept the inputs of the recompute "
                  "with this id may start the next one from them.")


class StandingsChange(models.Model):
    """A committed change that may move a tournament's standings, not yet seen by a recompute.

    Written by database triggers (migration 0005), so no path that changes the data (services,
    admin, a bulk update, plain SQL) can skip it: a match row whose teams or result changed gives
    its id; a round, an entry or an entered team's club gives no match (reload everything). The
    standings recompute deletes a tournament's rows and reads what they name. Plain columns, not
    foreign keys: the rows outlive what they name by a moment (a deleted match, a deleted round).
    """

    tournament_id = models.BigIntegerField(db_index=True)
    match_id = models.BigIntegerField(null=True, blank=True, help_text="Empty: reload the whole tournament.")
    # Set by the database (the triggers name no time): the periodic sweep recomputes a tournament
    # whose oldest change has waited too long (tournaments/services/sweep.py).
    created_at = models.DateTimeField(db_default=Now(), editable=False)


class TaskRecord(models.Model):
    """A worker job someone asked for (pairing a round): what the API reports at /api/v1/tasks/{id}/."""

    class Kind(models.TextChoices):
        ROUND_PAIR = "round_pair", "Pair a round"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"

    id = models.UUIDField(primary_key=True, editable=False, help_text="Also the Celery task id.")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="task_records")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    params = models.JSONField(default=dict, blank=True)
    result = models.JSONField(null=True, blank=True)
    error = models.JSONField(null=True, blank=True, help_text="code and detail when failed.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    # The lease of a running task: its worker pushes it forward while it works (a heartbeat);
    # past it, the worker is taken as lost and the task as failed (tournaments/services/sweep.py).
    started_at = models.DateTimeField(null=True, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True,
                                            help_text="A running task whose lease has passed was lost with its worker.")
    attempts = models.PositiveSmallIntegerField(default=0, help_text="How many times a worker started it.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["tournament", "kind", "status"])]
