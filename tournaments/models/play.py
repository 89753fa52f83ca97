"""What is played: rounds, their matches (and the slots that keep a team once in a round), games and hands.

What must never happen is a database constraint, not only a Python check: two hands with the
same number in a game, a team twice in one round (``RoundSlot``), a team playing itself, and a
hand inserted into a finished game (a trigger, see migration 0002).
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords

from .clubs import Player, Team
from .events import Stage, Tournament


SEAT_CHOICES = [("N", "North"), ("E", "East"), ("S", "South"), ("W", "West")]
SIDE_CHOICES = [("ns", "NS (first team)"), ("ew", "EW (second team)")]


class RoundQuerySet(models.QuerySet):
    def published(self):
        """The rounds everyone who sees their tournament sees (``access.visible_rounds`` decides who sees the rest)."""
        return self.filter(published_at__isnull=False)


class Round(models.Model):
    class Status(models.TextChoices):
        PAIRED = "paired", "Paired"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    # The stage the round belongs to; ``number`` counts the stage's rounds (``save`` fills in the running stage).
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PAIRED)
    # Individual events: the seed of the draw in use (its inputs and every redraw are ``RoundDraw`` rows).
    seed = models.CharField(max_length=64, blank=True, default="")
    # The round clock, server state: not started (no start), running (ends at), paused (seconds left kept),
    # over (ends at in the past). Pages count down from the server's time.
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_ends_at = models.DateTimeField(null=True, blank=True)
    clock_paused_left = models.PositiveIntegerField(null=True, blank=True,
                                                    help_text="Seconds left while the clock is paused.")
    # Published (issue 28): from then on everyone who sees the tournament sees the round; before, its organizers,
    # directors and scorekeepers alone. Set as the round is made when the tournament publishes automatically
    # (``Tournament.auto_publish``, the default), else by ``round_publish``.
    published_at = models.DateTimeField(null=True, blank=True,
                                        help_text="When the round was published (empty: not yet, seen by the "
                                                  "organizers, directors and scorekeepers alone).")
    clock_cut_left = models.PositiveIntegerField(
        null=True, blank=True, help_text="Seconds the clock still had when it was ended early: until a director "
                                         "reopens the round with them or keeps it as it stood.")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "number"], name="round_number_unique_in_stage"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self):
        return f"{self.tournament} round {self.number}"

    def _join_running_stage(self, *, start: bool = False) -> None:
        """A round made without its stage belongs to the tournament's running stage (stage 1 when none runs);
        ``start``: a stage 1 still pending (a draft's) starts with its first round, as the pairing starts it."""
        if self.stage_id is None and self.tournament_id is not None:
            stages = Stage.objects.filter(tournament_id=self.tournament_id)
            self.stage = (stages.filter(status=Stage.Status.RUNNING).order_by("number").first()
                          or stages.filter(number=1).first())
            if start and self.stage is not None and self.stage.status == Stage.Status.PENDING:
                Stage.objects.filter(pk=self.stage.pk).update(status=Stage.Status.RUNNING)
                self.stage.status = Stage.Status.RUNNING

    def clean(self):
        # A form without the stage (the admin's) gets the running one, so its number is checked in that stage.
        self._join_running_stage()

    def validate_constraints(self, exclude=None):
        if self.stage_id is not None and exclude:
            exclude = set(exclude) - {"stage"}
        super().validate_constraints(exclude=exclude)

    @property
    def published(self) -> bool:
        return self.published_at is not None

    def save(self, *args, **kwargs):
        self._join_running_stage(start=True)
        if self._state.adding and self.published_at is None and self.tournament_id is not None:
            # Made by any path (the pairing, the draw, a knockout's next round, the admin): published at once
            # unless the tournament publishes on purpose.
            tournament = self._state.fields_cache.get("tournament")
            auto = (tournament.auto_publish if tournament is not None else Tournament.objects.filter(
                pk=self.tournament_id).values_list("auto_publish", flat=True).first())
            if auto:
                self.published_at = timezone.now()
        super().save(*args, **kwargs)


class Match(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    class Winner(models.TextChoices):
        NS = "ns", "NS"
        EW = "ew", "EW"
        DRAW = "draw", "Draw"

    class ResultStatus(models.TextChoices):
        NONE = "", "Not finished"
        ENTERED = "entered", "Entered"
        CONFIRMED = "confirmed", "Confirmed"
        DISPUTED = "disputed", "Disputed"
        FINAL = "final", "Final"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveSmallIntegerField()
    # Team events: the two teams (``ew`` empty for a bye). Individual events: both empty, the players are the
    # match's ``RoundSeat`` rows.
    ns = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="matches_ns", null=True, blank=True)
    ew = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="matches_ew", null=True, blank=True,
                           help_text="Empty for a bye.")
    table_code = models.CharField(max_length=12, blank=True, default="", db_index=True,
                                  help_text="Individual events: the code printed on the table's sheet that binds a "
                                            "phone to this match for entry at the table.")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.SCHEDULED)
    winner = models.CharField(max_length=4, choices=Winner.choices, blank=True, default="")
    games_won_ns = models.PositiveSmallIntegerField(default=0)
    games_won_ew = models.PositiveSmallIntegerField(default=0)
    # 64-bit: stacked tie doublings (tie_doubling=stack) pass 2^31 by the 10th tie in a row.
    points_ns = models.BigIntegerField(default=0, help_text="Game points of NS: the sum of its games' totals.")
    points_ew = models.BigIntegerField(default=0, help_text="Game points of EW: the sum of its games' totals.")
    why = models.JSONField(default=list, blank=True,
                           help_text="Why the pairing chose this match: reason codes with their params, written in the "
                                     "reader's language by tournaments.vocabulary.pairing_reasons.")
    explanation = models.CharField(max_length=300, blank=True,
                                   help_text="Why the pairing chose this match, in English: pairings made before "
                                             "their reasons were kept as codes (``why``).")
    # The confirmation of the result (Tournament.confirmation "opponents"; tournaments.services.confirmation):
    # its status, how it got there (a director "paper", "auto"matic), who entered it (their side when known, the
    # account, the phone) and since when it is in this status, with the dispute's or the director's reason.
    result_status = models.CharField(max_length=10, choices=ResultStatus.choices, blank=True, default="")
    result_mark = models.CharField(max_length=8, blank=True, default="",
                                   help_text="How the result was confirmed: paper (by a director), auto (after "
                                             "the event's minutes without a dispute).")
    result_side = models.CharField(max_length=2, blank=True, default="",
                                   help_text="The side that entered the result; empty: neutral or unknown.")
    result_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+", help_text="The account that entered the result.")
    result_device = models.CharField(max_length=40, blank=True, default="",
                                     help_text="The phone that entered the result (its id).")
    result_at = models.DateTimeField(null=True, blank=True, help_text="Since when the result has its status.")
    result_reason = models.CharField(max_length=300, blank=True, default="",
                                     help_text="The dispute's reason, or the director's.")
    # The director's desk: the active actions on the match's result (kind and parameters each, in the order
    # taken), kept in step with its ``DirectorAction`` rows by tournaments/services/desk.py and read by
    # ``match_result_apply``, which writes ``forfeit`` and ``decided_by`` with the rest of the result.
    directives = models.JSONField(default=list, blank=True,
                                  help_text="The director's active actions on the result (kept by the desk).")
    forfeit = models.CharField(max_length=4, blank=True, default="",
                               help_text="A forfeit: the side absent (ns, ew or both); empty when played.")
    decided_by = models.CharField(max_length=12, blank=True, default="",
                                  help_text="The director's action that decided the result (forfeit, withdrawal, "
                                            "adjusted, decision); empty when the games did.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round", "table"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="match_table_unique_in_round"),
            models.CheckConstraint(condition=~Q(ns=F("ew")), name="match_team_not_against_itself"),
            models.CheckConstraint(
                condition=Q(winner__in=["", "ns", "ew", "draw"]), name="match_winner_valid"
            ),
        ]

    def __str__(self):
        if not self.round_id:
            return "match"
        if self.ns_id is None:
            return f"R{self.round.number} T{self.table}"
        ew = self.ew.name if self.ew_id else "bye"
        return f"R{self.round.number} T{self.table}: {self.ns.name} – {ew}"

    @property
    def is_bye(self) -> bool:
        """A team event's match without a second team (an individual event has no byes)."""
        return self.ew_id is None and self.ns_id is not None

    def save(self, *args, **kwargs):
        """Save the match and keep its ``RoundSlot`` rows (one per team) in step, atomically."""
        from django.db import transaction

        update_fields = kwargs.get("update_fields")
        if self.ns_id is None and self.ew_id is None:  # an individual event's match: its seats are RoundSeat rows
            super().save(*args, **kwargs)
            return
        if update_fields is not None and not {"ns", "ew", "ns_id", "ew_id", "round", "round_id"} & set(update_fields):
            super().save(*args, **kwargs)
            return
        with transaction.atomic():
            super().save(*args, **kwargs)
            wanted = {("ns", self.ns_id)} | ({("ew", self.ew_id)} if self.ew_id else set())
            existing = {(s.side, s.team_id): s for s in self.slots.all()}
            stale = [s.pk for key, s in existing.items() if key not in wanted]
            if stale:
                RoundSlot.objects.filter(pk__in=stale).delete()
            RoundSlot.objects.bulk_create(
                [RoundSlot(round_id=self.round_id, match=self, side=side, team_id=team)
                 for side, team in sorted(wanted) if (side, team) not in existing]
            )


class RoundSlot(models.Model):
    """One team's place in a round: the constraint that keeps a team out of two matches of a round."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="slots")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="slots")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    side = models.CharField(max_length=2, choices=SIDE_CHOICES)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "team"], name="team_once_per_round"),
            models.UniqueConstraint(fields=["match", "side"], name="one_team_per_side"),
        ]


class RoundSeat(models.Model):
    """A player's place in a round of an individual event: a seat at a match, or sitting the round out.

    One row a player and round (a database constraint): nobody plays twice in a round, nor plays and sits out.
    N and S are the ``ns`` partnership (N the table's seated scorer), E and W the ``ew`` one.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", null=True, blank=True,
                              help_text="Empty: the player sits this round out.")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    seat = models.CharField(max_length=1, choices=SEAT_CHOICES, blank=True, default="")

    class Meta:
        ordering = ["round", "match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="player_once_per_round"),
            models.UniqueConstraint(fields=["match", "seat"], condition=Q(match__isnull=False),
                                    name="one_player_per_seat"),
            models.CheckConstraint(condition=Q(match__isnull=True, seat="") | Q(match__isnull=False,
                                                                               seat__in=["N", "E", "S", "W"]),
                                   name="seat_iff_match"),
        ]

    @property
    def side(self) -> str:
        return "ns" if self.seat in ("N", "S") else "ew" if self.seat else ""


class RoundDraw(models.Model):
    """One draw of an individual event's round, kept with everything needed to make it again.

    ``inputs`` is the pure draw's input (start numbers, constraints, the earlier rounds, the seed, the
    algorithm's version) and ``result`` what it drew; a redraw before the round is played adds a row, and
    the round's ``seed`` names the one in use.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="draws")
    seed = models.CharField(max_length=64)
    version = models.CharField(max_length=16)
    inputs = models.JSONField()
    result = models.JSONField()
    drawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "created_at", "id"]


class Game(models.Model):
    """One game of a match: a boam (Belgian), a set (Catalan), a game to the target elsewhere."""

    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    first_dealer = models.CharField(max_length=1, choices=SEAT_CHOICES)
    favourite = models.CharField(max_length=1, blank=True, default="", help_text="Classic Malilla favourite suit.")
    albur = models.CharField(max_length=2, choices=SIDE_CHOICES, blank=True, default="",
                             help_text="Mexican albur option: the side that won the albur.")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PLAYING)
    # 64-bit, as the hands' scores (see Match.points_ns).
    total_ns = models.BigIntegerField(default=0)
    total_ew = models.BigIntegerField(default=0)
    winner = models.CharField(max_length=4, choices=Match.Winner.choices, blank=True, default="")
    next_dealer = models.CharField(max_length=1, choices=SEAT_CHOICES, blank=True, default="")
    next_multiplier = models.PositiveBigIntegerField(default=1)
    tie_pending = models.BooleanField(default=False)
    ended_by_clock = models.BooleanField(
        default=False, help_text="A timed match's game stopped after the deal in play at the clock's end: won by the "
                                 "side ahead on points.")
    started_at = models.DateTimeField(null=True, blank=True,
                                      help_text="When the game started at the table (its first hand's time there, "
                                                "which the offline queue may send later); the round clock judges it.")
    # The rules engine's state after the game's hands, with how many it follows ("hands"), kept by the
    # hand services: the next hand is scored from it alone (``hand_data.state_after``). Null or behind
    # the hands (a row from before it was kept): the next hand folds the whole game, as a correction does.
    engine_state = models.JSONField(null=True, blank=True, editable=False)
    tiebreak_deals = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="A knockout's tie-break game (its match level after its length): its "
                                         "deals, then one at a time until a side is ahead.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique_in_match"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
            models.CheckConstraint(
                condition=Q(status="playing", winner="") | Q(status="finished") & ~Q(winner=""),
                name="game_winner_iff_finished",
            ),
        ]

    def __str__(self):
        return f"Game {self.number} of {self.match}"

    @property
    def totals(self) -> dict:
        return {"ns": self.total_ns, "ew": self.total_ew}

#: The longest reason for a correction: "corrected: " and it fit the history's change reason (100 characters).
CORRECTION_REASON_MAX = 80


class Hand(models.Model):
    """One deal of a game, as entered (summary or full play) and as the rules engine scored it."""

    # Verbose names in the volunteer's words: the admin's pages of a hand and of its history versions show them.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands", verbose_name=gettext_lazy("game"))
    number = models.PositiveSmallIntegerField(gettext_lazy("hand number"))
    # As entered.
    dealer = models.CharField(gettext_lazy("dealer"), max_length=1, choices=SEAT_CHOICES)
    trump = models.CharField(gettext_lazy("trump"), max_length=4, blank=True, default="",
                             help_text='A suit letter or "none".')
    turned_card = models.CharField(gettext_lazy("turned card"), max_length=4, blank=True, default="")
    blind = models.BooleanField(gettext_lazy("blind"), default=False)
    doublings = models.PositiveSmallIntegerField(gettext_lazy("doublings"), default=0)
    tricks_ns = models.PositiveSmallIntegerField(gettext_lazy("tricks NS"), null=True, blank=True)
    tricks_ew = models.PositiveSmallIntegerField(gettext_lazy("tricks EW"), null=True, blank=True)
    points_ns = models.PositiveSmallIntegerField(gettext_lazy("points NS"), null=True, blank=True)
    points_ew = models.PositiveSmallIntegerField(gettext_lazy("points EW"), null=True, blank=True)
    penalty_type = models.CharField(gettext_lazy("penalty"), max_length=20, blank=True, default="")
    penalty_side = models.CharField(gettext_lazy("penalty by"), max_length=2, choices=SIDE_CHOICES, blank=True,
                                    default="")
    thrown_in = models.BooleanField(gettext_lazy("thrown in"), default=False)
    sheet_score = models.JSONField(gettext_lazy("score on the sheet"), null=True, blank=True,
                                   help_text="The score read off the paper sheet, if sent.")
    play = models.JSONField(gettext_lazy("card play"), null=True, blank=True, help_text="The full card play, if entered.")
    # Computed by the rules engine; 64-bit (see Match.points_ns).
    multiplier = models.PositiveBigIntegerField(gettext_lazy("multiplier"), default=1)
    all_tricks = models.BooleanField(gettext_lazy("all the tricks"), default=False)
    score_ns = models.BigIntegerField(gettext_lazy("score NS"), default=0)
    score_ew = models.BigIntegerField(gettext_lazy("score EW"), default=0)
    bonus = models.JSONField(gettext_lazy("turn-up bonus"), null=True, blank=True)
    total_ns = models.BigIntegerField(gettext_lazy("total NS"), default=0)
    total_ew = models.BigIntegerField(gettext_lazy("total EW"), default=0)
    game_winner = models.CharField(gettext_lazy("game won by"), max_length=4, blank=True, default="")
    labels = models.JSONField(gettext_lazy("notes"), default=list, blank=True)
    # Bookkeeping.
    idempotency_key = models.CharField(gettext_lazy("retry key"), max_length=200, null=True, blank=True)
    # The request the key was first used for: sha256 (hex) of its canonical form, written with the hand
    # and never changed by a correction (tournaments.services.hands.request_fingerprint).
    idempotency_fingerprint = models.CharField(max_length=64, null=True, blank=True, editable=False)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=gettext_lazy("entered by"))
    created_at = models.DateTimeField(gettext_lazy("entered at"), auto_now_add=True)
    updated_at = models.DateTimeField(gettext_lazy("changed at"), auto_now=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="hand_number_unique_in_game"),
            models.UniqueConstraint(fields=["idempotency_key"], condition=Q(idempotency_key__isnull=False),
                                    name="hand_idempotency_key_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(condition=~Q(penalty_type="") | Q(penalty_side=""), name="hand_penalty_has_type"),
        ]

    def __str__(self):
        return f"Hand {self.number} of game {self.game.number}" if self.game_id else f"Hand {self.number}"

    @property
    def score(self) -> dict:
        return {"ns": self.score_ns, "ew": self.score_ew}

    @property
    def totals(self) -> dict:
        return {"ns": self.total_ns, "ew": self.total_ew}
