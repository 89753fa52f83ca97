"""Clubs, their players and the teams of two they form."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    city = models.CharField(max_length=120, blank=True)
    managers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="managed_clubs")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class Player(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players", null=True, blank=True,
                             help_text="Empty for a player of no club (individual events accept them).")
    name = models.CharField(max_length=120)
    licence = models.CharField(
        "federation licence", max_length=40, blank=True, null=True, unique=True,
        help_text="Optional federation licence number; unique when given.",
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="player"
    )
    retired = models.BooleanField(
        default=False, help_text="Left the club: kept for the history, no longer offered for new teams.")

    class Meta:
        ordering = ["name"]
        indexes = [models.Index(fields=["club", "name"])]

    def __str__(self):
        return self.name


class Team(models.Model):
    """A fixed pair of players; a team can enter many tournaments."""

    name = models.CharField(max_length=120)
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="teams")
    player_1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    retired = models.BooleanField(
        default=False, help_text="No longer playing: kept for the history, no longer offered for new entries.")

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=~Q(player_1=F("player_2")), name="team_two_distinct_players"),
            models.UniqueConstraint(fields=["club", "name"], name="team_name_unique_in_club"),
        ]

    def __str__(self):
        return self.name

    @property
    def players(self):
        return [self.player_1, self.player_2]
