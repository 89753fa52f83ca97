"""The tournament domain: clubs, players, teams, tournaments, rounds, matches, games, hands.

What must never happen is a database constraint, not only a Python check: two hands with the
same number in a game, a team twice in one round (``RoundSlot``), a team playing itself, and a
hand inserted into a finished game (a trigger, see migration 0002).
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower, Now
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords

SEAT_CHOICES = [("N", "North"), ("E", "East"), ("S", "South"), ("W", "West")]
SIDE_CHOICES = [("ns", "NS (first team)"), ("ew", "EW (second team)")]


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
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players")
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


#: The most points a win, a draw or a bye may be worth.
POINTS_MAX = 100


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", "Swiss"
        ROUND_ROBIN = "round_robin", "Round robin"
        KNOCKOUT = "knockout", "Knockout"

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=160)
    slug = models.SlugField(max_length=180, unique=True)
    club = models.ForeignKey(Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="tournaments")
    variant = models.CharField(max_length=40, help_text="Variant slug of the rules engine, e.g. belgian-manille.")
    format = models.CharField(max_length=20, choices=Format.choices, default=Format.SWISS)
    rounds = models.PositiveSmallIntegerField(default=5, validators=[MinValueValidator(1), MaxValueValidator(99)])
    best_of = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(15)],
        help_text="Games (boams, sets) per match; empty means the variant's default.",
    )
    options = models.JSONField(default=dict, blank=True, help_text="House options, validated by the variant.")
    public = models.BooleanField(default=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    organizers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="organized_tournaments")
    scorekeepers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="scorekept_tournaments")
    # Standings and pairing settings.
    tiebreaks = models.JSONField(
        default=list, blank=True,
        help_text="Ordered metric names for the standings; empty means the default order.",
    )
    # A loss is worth 0; ``clean`` keeps 0 <= draw <= win and bye <= win, each at most POINTS_MAX.
    points_win = models.PositiveSmallIntegerField(gettext_lazy("points for a win"), default=2,
                                                  validators=[MaxValueValidator(POINTS_MAX)])
    points_draw = models.PositiveSmallIntegerField(gettext_lazy("points for a draw"), default=1,
                                                   validators=[MaxValueValidator(POINTS_MAX)])
    points_bye = models.PositiveSmallIntegerField(gettext_lazy("points for a bye"), default=2,
                                                  validators=[MaxValueValidator(POINTS_MAX)])
    separate_clubs_rounds = models.PositiveSmallIntegerField(
        default=0, validators=[MaxValueValidator(99)],
        help_text="Swiss: keep teams of the same club apart in this many first rounds."
    )
    double_round_robin = models.BooleanField(default=False)
    starts_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "name"]
        constraints = [
            # One tournament of a name (any case) per club and start date; without a club, one per date. A
            # tournament without a start date is not held to it (NULLs are distinct). ``clean`` says it in words.
            models.UniqueConstraint(Lower("name"), F("club"), F("starts_on"), name="tournament_once_per_club_day"),
            models.UniqueConstraint(Lower("name"), F("starts_on"), condition=Q(club__isnull=True),
                                    name="tournament_once_per_day_without_club"),
        ]

    def __str__(self):
        return self.name

    def clean(self):
        """Refuse what makes no sense: an unknown variant, house options it does not accept, an unknown
        tiebreak, points out of order (a draw or a bye worth more than a win) and a second tournament of the
        same name, club and start date. The one check of every door: the admin's and the workspace's forms
        call it, the services (so the API) too (``tournament_check``). Errors carry a code and their field.
        """
        import scoring

        from tournaments import refusals
        from tournaments.ranking import resolve_metrics

        errors: dict[str, list[ValidationError]] = {}
        if self.variant not in scoring.VARIANTS:
            errors["variant"] = [ValidationError(
                gettext_lazy("Unknown variant %(variant)s; one of %(known)s."), code="unknown_variant",
                params={"variant": repr(self.variant), "known": ", ".join(sorted(scoring.VARIANTS))})]
        else:
            try:
                scoring.get_variant(self.variant).validate_options(self.options or {})
            except scoring.RuleViolation as exc:
                errors["options"] = [refusals.validation_error(v.code, v.params) for v in exc.violations]
        try:
            resolve_metrics(self.tiebreaks)
        except (TypeError, ValueError):
            from tournaments.ranking.standings import METRICS

            unknown = [str(n) for n in self.tiebreaks] if isinstance(self.tiebreaks, (list, tuple)) else []
            errors["tiebreaks"] = [refusals.validation_error("invalid_tiebreaks", {
                "unknown": [n for n in unknown if n not in METRICS] or [repr(self.tiebreaks)],
                "known": sorted(METRICS)})]
        win, draw, bye = self.points_win, self.points_draw, self.points_bye
        if isinstance(win, int) and isinstance(draw, int) and draw > win:
            errors["points_draw"] = [ValidationError(
                gettext_lazy("A draw cannot be worth more than a win (%(win)s points)."), code="draw_above_win",
                params={"win": win})]
        if isinstance(win, int) and isinstance(bye, int) and bye > win:
            errors["points_bye"] = [ValidationError(
                gettext_lazy("A bye cannot be worth more than a win (%(win)s points)."), code="bye_above_win",
                params={"win": win})]
        duplicate = self.duplicate()
        if duplicate is not None:
            errors["name"] = [ValidationError(
                gettext_lazy("There is a tournament called %(name)s on %(date)s already%(club)s; give this one "
                             "another name or date."), code="tournament_exists",
                params={"name": duplicate.name, "date": date_format(self.starts_on, "DATE_FORMAT"),
                        "club": f" ({duplicate.club})" if duplicate.club_id else ""})]
        if errors:
            raise ValidationError(errors)

    def duplicate(self) -> "Tournament | None":
        """Return another tournament with this one's name (any case), club and start date, if there is one."""
        if not self.name or self.starts_on is None:
            return None
        return (Tournament.objects.filter(name__iexact=self.name, club_id=self.club_id, starts_on=self.starts_on)
                .exclude(pk=self.pk).select_related("club").first())

    def validate_constraints(self, exclude=None):
        # The one-per-club-and-day constraints back up ``clean``, which names the other tournament on ``name``.
        super().validate_constraints(exclude={*(exclude or ()), "name"})

    @property
    def variant_obj(self):
        from scoring import get_variant

        return get_variant(self.variant)

    @property
    def effective_best_of(self) -> int:
        return self.best_of or self.variant_obj.best_of


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField(null=True, blank=True)
    withdrawn = models.BooleanField(default=False)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seed", "id"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "team"], name="entry_team_once_per_tournament"),
        ]

    def __str__(self):
        return f"{self.team} in {self.tournament}"

    def clean(self):
        """A form (the admin's) enters no team its club retired, as the services refuse (``team_retired``)."""
        if self.team_id is None:
            return
        before = (None if self._state.adding
                  else Entry.objects.filter(pk=self.pk).values_list("team_id", flat=True).first())
        if before != self.team_id and Team.objects.filter(pk=self.team_id, retired=True).exists():
            raise ValidationError({"team": gettext_lazy(
                "This team is retired by its club; its club manager can bring it back.")})


class Round(models.Model):
    class Status(models.TextChoices):
        PAIRED = "paired", "Paired"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PAIRED)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self):
        return f"{self.tournament} round {self.number}"


class Match(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    class Winner(models.TextChoices):
        NS = "ns", "NS"
        EW = "ew", "EW"
        DRAW = "draw", "Draw"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveSmallIntegerField()
    ns = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="matches_ns")
    ew = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="matches_ew", null=True, blank=True,
                           help_text="Empty for a bye.")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.SCHEDULED)
    winner = models.CharField(max_length=4, choices=Winner.choices, blank=True, default="")
    games_won_ns = models.PositiveSmallIntegerField(default=0)
    games_won_ew = models.PositiveSmallIntegerField(default=0)
    # 64-bit: stacked tie doublings (tie_doubling=stack) pass 2^31 by the 10th tie in a row.
    points_ns = models.BigIntegerField(default=0, help_text="Game points of NS: the sum of its games' totals.")
    points_ew = models.BigIntegerField(default=0, help_text="Game points of EW: the sum of its games' totals.")
    explanation = models.CharField(max_length=300, blank=True, help_text="Why the pairing chose this match.")
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
        ew = self.ew.name if self.ew_id else "bye"
        return f"R{self.round.number} T{self.table}: {self.ns.name} – {ew}" if self.round_id else "match"

    @property
    def is_bye(self) -> bool:
        return self.ew_id is None

    def save(self, *args, **kwargs):
        """Save the match and keep its ``RoundSlot`` rows (one per team) in step, atomically."""
        from django.db import transaction

        update_fields = kwargs.get("update_fields")
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
    # The rules engine's state after the game's hands, with how many it follows ("hands"), kept by the
    # hand services: the next hand is scored from it alone (``hand_data.state_after``). Null or behind
    # the hands (a row from before it was kept): the next hand folds the whole game, as a correction does.
    engine_state = models.JSONField(null=True, blank=True, editable=False)
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


class Standing(models.Model):
    """One saved row of a tournament's standings, replaced whole by each recompute."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
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
    tiebreaks = models.JSONField(default=dict)
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["tournament", "position"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "team"], name="standing_team_once"),
        ]


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
