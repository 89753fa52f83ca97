"""The confirmation of results by the opponents: each player's personal code, and every step of a result.

A player proves who they are at the table without an account by their **personal code** (one per player and
tournament, on their entry slip and the round's seat list); a table's code only binds a request to its match.
Every step of a match's result (entered, corrected, confirmed, disputed, settled, confirmed on paper or
automatically) is a ``ResultEvent`` row with its actor: an account, or a player by their code, and the
phone and address it came from (tournaments/services/confirmation.py writes them).
"""

from django.conf import settings
from django.db import models

from .clubs import Player
from .events import Tournament
from .play import Match


class PersonalCode(models.Model):
    """A player's personal code in a tournament: it proves, with their name, that they confirm a result."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="personal_codes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    code = models.CharField(max_length=12)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="personal_code_once_per_player"),
            models.UniqueConstraint(fields=["tournament", "code"], name="personal_code_unique_in_tournament"),
        ]

    def __str__(self):
        return f"{self.player} in {self.tournament}"


class ResultEvent(models.Model):
    """One step of a match's result, with who took it, from where and when (the director's view of a match)."""

    class Kind(models.TextChoices):
        ENTERED = "entered", "Entered"
        CORRECTED = "corrected", "Corrected"
        CONFIRMED = "confirmed", "Confirmed"
        DISPUTED = "disputed", "Disputed"
        SETTLED = "settled", "Settled by a director"
        PAPER = "paper", "Confirmed on paper by a director"
        AUTO = "auto", "Confirmed automatically"
        DECIDED = "decided", "Changed by a director"
        REOPENED = "reopened", "Reopened"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="result_events")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    status = models.CharField(max_length=10, blank=True, default="", help_text="The result's status after it.")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    player = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                               help_text="The player who named themselves (with their personal code or account).")
    side = models.CharField(max_length=2, blank=True, default="")
    device = models.CharField(max_length=40, blank=True, default="")
    address = models.GenericIPAddressField(null=True, blank=True)
    reason = models.CharField(max_length=300, blank=True, default="")
    result = models.JSONField(default=dict, blank=True,
                              help_text="The result at that step: winner, games won and points of each side.")
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["match", "at", "id"]
        indexes = [models.Index(fields=["match", "at"])]

    def __str__(self):
        return f"{self.match_id} {self.kind}"
