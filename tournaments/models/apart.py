"""The pairs a tournament's draw must never put together: two players at one table, two teams face to face."""

from django.db import models
from django.db.models import F, Q

from .clubs import Player, Team
from .events import Tournament


class KeptApart(models.Model):
    """Two players of an individual event who must never share a table (a hard rule of the draw)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="kept_apart")
    player_a = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "kept apart"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player_a", "player_b"], name="kept_apart_once"),
            models.CheckConstraint(condition=Q(player_a__lt=F("player_b")), name="kept_apart_ordered"),
        ]

    def clean(self):
        """Put the pair in the order the database keeps it (smaller player id first), whichever way it was typed."""
        if self.player_a_id and self.player_b_id and self.player_a_id > self.player_b_id:
            self.player_a_id, self.player_b_id = self.player_b_id, self.player_a_id


class ForbiddenPair(models.Model):
    """Two teams the organizer never wants paired against each other (a hard rule of the Swiss pairing)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="forbidden_pairs")
    team_a = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    team_b = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "team_a", "team_b"], name="forbidden_pair_once"),
            models.CheckConstraint(condition=Q(team_a__lt=F("team_b")), name="forbidden_pair_ordered"),
        ]

    def clean(self):
        """Put the pair in the order the database keeps it (smaller team id first), whichever way it was typed."""
        if self.team_a_id and self.team_b_id and self.team_a_id > self.team_b_id:
            self.team_a_id, self.team_b_id = self.team_b_id, self.team_a_id
