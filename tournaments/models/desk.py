"""The director's desk: each action a director takes on a result or an entry, typed, with its reason and actor.

A row is the record and the audit: it is never edited nor deleted, only marked reverted (who, when, why).
The actions on a match (a forfeit, a withdrawal mid-match, an adjusted result, a penalty of game points, a
drawn knockout decided) are re-applied by the one function that works out a match's result
(``tournaments.services.games.match_result_apply``), from the match's ``directives``: the active actions'
kinds and parameters, which ``tournaments.services.desk`` keeps in step with these rows. The actions on an
entry (a withdrawal from the event, a deduction from its standings total) are read by the standings.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from .events import Entry, Tournament
from .play import Match, Round

#: The longest reason a director gives.
DESK_REASON_MAX = 300


class DirectorAction(models.Model):
    class Kind(models.TextChoices):
        FORFEIT = "forfeit", "Forfeit"
        WITHDRAWAL = "withdrawal", "Withdrawal mid-match"
        ADJUSTED = "adjusted", "Adjusted result"
        PENALTY = "penalty", "Penalty of game points"
        DECISION = "decision", "Drawn knockout decided"
        WITHDRAWAL_EVENT = "withdrawal_event", "Withdrawal from the event"
        DEDUCTION = "deduction", "Deduction from the standings"
        CLOCK_REOPENED = "clock_reopened", "Round reopened after its clock was ended early"
        CLOCK_KEPT = "clock_kept", "Round kept as the clock's early end left it"

    #: The kinds that act on a match (the others act on an entry).
    MATCH_KINDS = ("forfeit", "withdrawal", "adjusted", "penalty", "decision")
    #: The match kinds a match has at most one of, active at a time (penalties add up).
    SINGLE_KINDS = ("forfeit", "withdrawal", "adjusted", "decision")
    #: The kinds that act on a round (its clock ended early by mistake: tournaments/services/clock.py).
    ROUND_KINDS = ("clock_reopened", "clock_kept")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="director_actions")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="director_actions", null=True,
                              blank=True)
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="director_actions", null=True,
                              blank=True)
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="director_actions", null=True,
                              blank=True)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    params = models.JSONField(default=dict, blank=True, help_text="The action's parameters, by kind (docs/desk.md).")
    reason = models.CharField(max_length=DESK_REASON_MAX)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    reverted_at = models.DateTimeField(null=True, blank=True)
    reverted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+")
    revert_reason = models.CharField(max_length=DESK_REASON_MAX, blank=True, default="")

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        indexes = [models.Index(fields=["tournament", "created_at"])]
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind__in=["forfeit", "withdrawal", "adjusted", "penalty", "decision"],
                             match__isnull=False, entry__isnull=True)
                           | Q(kind__in=["withdrawal_event", "deduction"], match__isnull=True, entry__isnull=False)
                           | Q(kind__in=["clock_reopened", "clock_kept"], match__isnull=True, entry__isnull=True,
                               round__isnull=False)),
                name="director_action_match_or_entry"),
            models.CheckConstraint(condition=~Q(reason=""), name="director_action_reason_given"),
        ]

    def __str__(self):
        return f"{self.kind} ({self.tournament})"

    @property
    def active(self) -> bool:
        return self.reverted_at is None
