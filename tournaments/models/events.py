"""Tournaments, their stages, and the teams or players entered in them (the pairs they must not meet: ``apart``).

A tournament has one entry list, slug and set of organizers, and one stage or more (``Stage``, numbered from
1). Every event has stage 1: the tournament's own ``format``, ``rounds`` and match length describe it
(``Tournament.save`` keeps the row in step), and they become read-only once a second stage exists
(``multi_stage``). Rounds belong to a stage and are numbered per stage. The logic between two stages is pure
(``tournaments.stages``, docs/stages.md).
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy

from .clubs import Club, Player, Team


#: The most points a win, a draw or a bye may be worth.
POINTS_MAX = 100

#: The tournament's fields that describe its stage 1 (mirrored on the row, read-only with a second stage).
STAGE_ONE_FIELDS = ("format", "rounds", "best_of", "match_length", "match_games", "minutes", "at_time")


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", "Swiss"
        ROUND_ROBIN = "round_robin", "Round robin"
        KNOCKOUT = "knockout", "Knockout"
        TABLES = "tables", "Tables of four"
        POOLS = "pools", "Pools"

    class EntryKind(models.TextChoices):
        TEAMS = "teams", "Teams"
        INDIVIDUAL = "individual", "Individual"

    class MatchLength(models.TextChoices):
        BEST_OF = "best_of", "Best of"
        GAMES = "games", "A number of games"
        TIMED = "timed", "Timed"

    class AtTime(models.TextChoices):
        FINISH = "finish", "Finish the game"
        STOP = "stop", "Stop after the deal"

    class SitOutScore(models.TextChoices):
        NOTHING = "nothing", "Nothing"
        MEAN = "mean", "The round's mean"
        FIXED = "fixed", "A fixed score"

    class Withdrawal(models.TextChoices):
        RESERVE = "reserve", "A reserve takes the seat"
        SIT_OUT = "sit_out", "The partners sit out"

    class Confirmation(models.TextChoices):
        OFF = "off", "Off: a finished match is final"
        OPPONENTS = "opponents", "By the opponents"

    class Unconfirmed(models.TextChoices):
        COUNT = "count", "Count them in the standings (marked)"
        WAIT = "wait", "Wait for their confirmation"
    class WithdrawalAward(models.TextChoices):
        REMAINING = "remaining", "The remaining games to the opponents"
        AS_STANDS = "as_stands", "The match as it stands"

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=160)
    slug = models.SlugField(max_length=180, unique=True)
    club = models.ForeignKey(Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="tournaments")
    variant = models.CharField(max_length=40, help_text="Variant slug of the rules engine, e.g. belgian-manille.")
    entry = models.CharField(max_length=12, choices=EntryKind.choices, default=EntryKind.TEAMS,
                             help_text="Teams (fixed pairs) or individual (players drawn to tables of four).")
    format = models.CharField(max_length=20, choices=Format.choices, default=Format.SWISS)
    rounds = models.PositiveSmallIntegerField(default=5, validators=[MinValueValidator(1), MaxValueValidator(99)])
    best_of = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(15)],
        help_text="Games (boams, sets) per match; empty means the variant's default.",
    )
    # The match length: best of N games (``best_of``, today's), exactly N games each counted (``games``), or
    # timed (``minutes`` a round, and at the clock's end the game in play is finished or stops after its deal).
    match_length = models.CharField(max_length=8, choices=MatchLength.choices, default=MatchLength.BEST_OF)
    match_games = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(15)],
        help_text="Games a match when its length is a number of games.")
    minutes = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(600)],
        help_text="Minutes a round when matches are timed.")
    at_time = models.CharField(max_length=8, choices=AtTime.choices, default=AtTime.FINISH,
                               help_text="Timed matches: at the clock's end, finish the game in play or stop after "
                                         "the deal in play.")
    # Individual events.
    sit_out_score = models.CharField(max_length=8, choices=SitOutScore.choices, default=SitOutScore.MEAN,
                                     help_text="What a player who sits a round out scores.")
    sit_out_fixed = models.JSONField(
        default=dict, blank=True,
        help_text='The fixed score of a sit-out: {"match_points": n, "games_won": n, "points_for": n}.')
    withdrawal = models.CharField(max_length=8, choices=Withdrawal.choices, default=Withdrawal.SIT_OUT,
                                  help_text="A player who withdraws mid-cycle: a reserve takes the seat, or the "
                                            "partner of each remaining round sits out.")
    # The director's desk (tournaments/services/desk.py).
    forfeit_points = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MaxValueValidator(1000)],
        help_text="A forfeit: the game points each game awarded to the side present is worth (empty: the game's "
                  "target).")
    withdrawal_award = models.CharField(
        max_length=10, choices=WithdrawalAward.choices, default=WithdrawalAward.REMAINING,
        help_text="A side that withdraws mid-match: the remaining games go to the opponents at the target, or the "
                  "match ends as it stands.")
    club_best_n = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(99)],
        help_text="Individual events: rank clubs by the mean of their N best players (empty: all players pooled).")
    options = models.JSONField(default=dict, blank=True, help_text="House options, validated by the variant.")
    public = models.BooleanField(default=True)
    # Issue 28 (``services.publication``; who sees an unpublished round: ``access.visible_rounds``).
    auto_publish = models.BooleanField(
        default=True, help_text="Publish each round as it is paired; off: an organizer publishes it on purpose "
                                "(until then only the organizers, directors and scorekeepers see it).")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    organizers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="organized_tournaments")
    scorekeepers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="scorekept_tournaments")
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="directed_tournaments",
                                       help_text="Settle disputed results and change confirmed ones (organizers "
                                                 "are directors too).")
    # Results confirmed by the opponents (docs/confirmation.md).
    confirmation = models.CharField(max_length=10, choices=Confirmation.choices, default=Confirmation.OFF,
                                    help_text="Off: a finished match is final. Opponents: someone of the other "
                                              "side confirms it (or disputes it, and a director settles it).")
    unconfirmed = models.CharField(max_length=6, choices=Unconfirmed.choices, default=Unconfirmed.COUNT,
                                   help_text="Results not yet confirmed: counted in the standings (marked), or "
                                             "waited for (then the next round is not paired before them).")
    auto_confirm_minutes = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(1440)],
        help_text="Confirm a result automatically after this many minutes without a dispute (empty: never).")
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
            resolve_metrics(self.tiebreaks, entry="individual" if self.is_individual else "teams")
        except (TypeError, ValueError) as exc:
            errors["tiebreaks"] = [self._tiebreaks_error(exc)]
        win, draw, bye = self.points_win, self.points_draw, self.points_bye
        if isinstance(win, int) and isinstance(draw, int) and draw > win:
            errors["points_draw"] = [ValidationError(
                gettext_lazy("A draw cannot be worth more than a win (%(win)s points)."), code="draw_above_win",
                params={"win": win})]
        if isinstance(win, int) and isinstance(bye, int) and bye > win:
            errors["points_bye"] = [ValidationError(
                gettext_lazy("A bye cannot be worth more than a win (%(win)s points)."), code="bye_above_win",
                params={"win": win})]
        errors.update(self._format_errors())
        duplicate = self.duplicate()
        if duplicate is not None:
            errors["name"] = [ValidationError(
                gettext_lazy("There is a tournament called %(name)s on %(date)s already%(club)s; give this one "
                             "another name or date."), code="tournament_exists",
                params={"name": duplicate.name, "date": date_format(self.starts_on, "DATE_FORMAT"),
                        "club": f" ({duplicate.club})" if duplicate.club_id else ""})]
        if errors:
            raise ValidationError(errors)

    def _tiebreaks_error(self, exc: Exception) -> ValidationError:
        """Why the tiebreak list is refused: metrics of team events only in an individual event, or unknown names."""
        from tournaments import refusals
        from tournaments.ranking.standings import METRICS

        if getattr(exc, "code", "") == "team_only_metrics":
            return refusals.validation_error("team_only_metrics", exc.params)
        unknown = [str(n) for n in self.tiebreaks] if isinstance(self.tiebreaks, (list, tuple)) else []
        return refusals.validation_error("invalid_tiebreaks", {
            "unknown": [n for n in unknown if n not in METRICS] or [repr(self.tiebreaks)], "known": sorted(METRICS)})

    def _format_errors(self) -> dict[str, list[ValidationError]]:
        """The entry kind, format and match length that go together (``clean``'s part for them)."""
        from tournaments import refusals

        errors: dict[str, list[ValidationError]] = {}
        individual_formats = {self.Format.TABLES, self.Format.SWISS}
        if self.entry == self.EntryKind.INDIVIDUAL and self.format not in individual_formats:
            errors["format"] = [refusals.validation_error("format_for_entry", {
                "format": self.format, "entry": self.entry, "known": sorted(individual_formats)})]
        elif self.entry != self.EntryKind.INDIVIDUAL and self.format == self.Format.TABLES:
            errors["format"] = [refusals.validation_error("format_for_entry", {
                "format": self.format, "entry": self.entry,
                "known": sorted({self.Format.SWISS, self.Format.ROUND_ROBIN, self.Format.KNOCKOUT,
                                 self.Format.POOLS})})]
        if self.match_length == self.MatchLength.GAMES and not self.match_games:
            errors["match_games"] = [refusals.validation_error("match_length_incomplete", {"field": "match_games"})]
        if self.match_length == self.MatchLength.TIMED and not self.minutes:
            errors["minutes"] = [refusals.validation_error("match_length_incomplete", {"field": "minutes"})]
        fixed = self.sit_out_fixed or {}
        keys = {"match_points", "games_won", "points_for"}
        if not isinstance(fixed, dict) or set(fixed) - keys or any(
                not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 10**6 for v in fixed.values()):
            errors["sit_out_fixed"] = [refusals.validation_error("sit_out_fixed_invalid", {"known": sorted(keys)})]
        return errors

    def duplicate(self) -> "Tournament | None":
        """Return another tournament with this one's name (any case), club and start date, if there is one."""
        if not self.name or self.starts_on is None:
            return None
        return (Tournament.objects.filter(name__iexact=self.name, club_id=self.club_id, starts_on=self.starts_on)
                .exclude(pk=self.pk).select_related("club").first())

    @classmethod
    def from_db(cls, db, field_names, values):
        instance = super().from_db(db, field_names, values)
        instance._status_loaded = instance.__dict__.get("status")
        return instance

    def save(self, *args, **kwargs):
        """Save, and keep stage 1 in step with the tournament's format, rounds and match length, and with its
        status (``Stage.follow``: pending while the tournament is a draft)."""
        adding = self._state.adding
        super().save(*args, **kwargs)
        fields = kwargs.get("update_fields")
        if adding or fields is None or set(fields) & set(STAGE_ONE_FIELDS):
            Stage.mirror(self)
        status, loaded = self.__dict__.get("status"), getattr(self, "_status_loaded", None)  # never a deferred load
        if not adding and (fields is None or "status" in fields) and None not in (status, loaded) and status != loaded:
            Stage.follow(self)
        self._status_loaded = status

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

    @property
    def is_individual(self) -> bool:
        return self.entry == self.EntryKind.INDIVIDUAL


class Stage(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", "Swiss"
        ROUND_ROBIN = "round_robin", "Round robin"
        KNOCKOUT = "knockout", "Knockout"
        POOLS = "pools", "Pools"
        TABLES = "tables", "Tables of four"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        CLOSED = "closed", "Closed"

    class Rule(models.TextChoices):
        TOP = "top", "The first N of the standings"
        POOLS = "pools", "The first K of each pool and the best M of the next place"
        TABLE_WINNERS = "table_winners", "The table winners"
        ALL = "all", "Everyone"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveSmallIntegerField()
    format = models.CharField(max_length=20, choices=Format.choices)
    rounds = models.PositiveSmallIntegerField(default=5, validators=[MinValueValidator(1), MaxValueValidator(99)])
    # The match length, as the tournament has it.
    best_of = models.PositiveSmallIntegerField(null=True, blank=True,
                                               validators=[MinValueValidator(1), MaxValueValidator(15)])
    match_length = models.CharField(max_length=8, choices=Tournament.MatchLength.choices,
                                    default=Tournament.MatchLength.BEST_OF)
    match_games = models.PositiveSmallIntegerField(null=True, blank=True,
                                                   validators=[MinValueValidator(1), MaxValueValidator(15)])
    minutes = models.PositiveSmallIntegerField(null=True, blank=True,
                                               validators=[MinValueValidator(1), MaxValueValidator(600)])
    at_time = models.CharField(max_length=8, choices=Tournament.AtTime.choices, default=Tournament.AtTime.FINISH)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    pools = models.PositiveSmallIntegerField(default=0, help_text="A pools stage: the number of pools.")
    third_place = models.BooleanField(default=False, help_text="A knockout: the semi-finals' losers play for third.")
    tiebreak_deals = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(16)],
        help_text="A knockout: a level match's tie-break game of this many deals (empty: a director decides).")
    # The qualification rule into the next stage (empty ``rule`` on the last stage).
    rule = models.CharField(max_length=16, choices=Rule.choices, blank=True, default="")
    rule_count = models.PositiveSmallIntegerField(default=0, help_text="top: the first N.")
    rule_per_pool = models.PositiveSmallIntegerField(default=0, help_text="pools: the first K of each pool.")
    rule_best_next = models.PositiveSmallIntegerField(
        default=0, help_text="pools: the best M of place K + 1 across the pools.")
    rule_carry = models.JSONField(default=list, blank=True,
                                  help_text='What the qualifiers carry: of "match_points", "games", "points".')
    seed = models.CharField(max_length=64, blank=True, default="", help_text="The published seed of its draws.")
    # What closing and starting decided (docs/stages.md): the cut's ties and replacements, the draw made.
    report = models.JSONField(default=dict, blank=True,
                              help_text="Closing: the ties at each cut and how they were broken, the replacements.")
    draw = models.JSONField(default=dict, blank=True,
                            help_text="Starting: the pools or the bracket drawn, with the seed they came from.")
    draws_before = models.JSONField(default=list, blank=True,
                                    help_text="Earlier draws of this stage, kept when a reopened stage before "
                                              "it closed again.")
    log = models.JSONField(default=list, blank=True,
                           help_text="Who closed, started, reopened the stage or placed an entrant, and when.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="stage_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="stage_number_positive"),
        ]

    def __str__(self):
        return f"{self.tournament} stage {self.number}"

    @property
    def qualification(self) -> dict | None:
        """The rule into the next stage as the API gives it (None on the last stage)."""
        if not self.rule:
            return None
        return {"kind": self.rule, "count": self.rule_count, "per_pool": self.rule_per_pool,
                "best_next": self.rule_best_next, "carry": list(self.rule_carry or [])}

    @classmethod
    def mirror(cls, tournament: Tournament) -> None:
        """Create or update the tournament's stage 1 from its own fields (its format, rounds and match length)."""
        values = {f: getattr(tournament, f) for f in STAGE_ONE_FIELDS}
        updated = cls.objects.filter(tournament=tournament, number=1).update(**values)
        if not updated:
            status = cls.Status.PENDING if tournament.status == Tournament.Status.DRAFT else cls.Status.RUNNING
            cls.objects.create(tournament=tournament, number=1, status=status, **values)

    @classmethod
    def follow(cls, tournament: Tournament) -> None:
        """Stage 1 follows the tournament's status: pending while it is a draft (nothing has started), running
        once it starts (its first round paired, or the organizer's move), pending again when it goes back to a
        draft before any round. Later stages start and close by the organizer's hand (docs/stages.md)."""
        first = cls.objects.filter(tournament=tournament, number=1)
        if tournament.status == Tournament.Status.DRAFT:
            first.filter(status=cls.Status.RUNNING, round_set__isnull=True).update(status=cls.Status.PENDING)
        else:
            first.filter(status=cls.Status.PENDING).update(status=cls.Status.RUNNING)


class StageEntrant(models.Model):
    """An entrant of a stage after the first (a qualifier, or placed by hand), or of a pools stage 1 (its pool).

    Stage 1's field is the event's active entries; a later stage's is its ``StageEntrant`` rows, written when
    the stage before closes (``stage_close``): the seed in the new stage, where it came from (its rank, pool,
    how it qualified), what it carries over (``carried``) and whether an organizer placed it by hand.
    """

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="entrants")
    entry = models.ForeignKey("Entry", on_delete=models.CASCADE, related_name="stage_entrants")
    seed = models.PositiveIntegerField(help_text="Seed in this stage, 1 first.")
    pool = models.PositiveSmallIntegerField(null=True, blank=True, help_text="A pools stage: its pool, once drawn.")
    how = models.CharField(max_length=16, blank=True, default="",
                           help_text="top, pool_place, next_place, table_winner, all, or hand.")
    place = models.PositiveIntegerField(null=True, blank=True, help_text="Its place in its pool, table or cut.")
    from_pool = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Its pool in the stage before.")
    qualified_from_rank = models.PositiveIntegerField(null=True, blank=True,
                                                      help_text="Its rank in the stage before.")
    carried = models.JSONField(default=dict, blank=True,
                               help_text="Carried over: match_points, games_won, games_lost, points_for, "
                                         "points_against.")
    placed_by_hand = models.BooleanField(default=False)
    placed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["stage", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "entry"], name="stage_entrant_once"),
        ]

    def __str__(self):
        return f"{self.entry} in {self.stage} (seed {self.seed})"


class Entry(models.Model):
    """A team entered in a team event, or a player in an individual event (exactly one of the two)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="entries", null=True, blank=True)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries", null=True, blank=True)
    seed = models.PositiveIntegerField(null=True, blank=True)
    start_number = models.PositiveIntegerField(
        null=True, blank=True, help_text="Individual events: the player's number in the draw (never a database id).")
    fixed_table = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Individual events: a player who cannot move is the seated scorer here.")
    reserve = models.BooleanField(default=False, help_text="Individual events: drawn only to take a leaver's seat.")
    replaces = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                                 help_text="Individual events: the player whose seat this reserve took mid-cycle.")
    withdrawn = models.BooleanField(default=False)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seed", "id"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "team"], name="entry_team_once_per_tournament"),
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_player_once_per_tournament"),
            models.UniqueConstraint(fields=["tournament", "start_number"], name="entry_start_number_once"),
            models.CheckConstraint(condition=Q(team__isnull=True) ^ Q(player__isnull=True),
                                   name="entry_team_or_player"),
        ]

    def __str__(self):
        return f"{self.team or self.player} in {self.tournament}"

    def clean(self):
        """A form (the admin's) enters no team its club retired, as the services refuse (``team_retired``), and no
        entry of the other kind (a team in an individual event, a player in a team event: ``entry_kind``)."""
        from tournaments import refusals

        tournament = self.tournament if self.tournament_id else None
        if tournament is not None and tournament.is_individual and self.team_id is not None:
            raise ValidationError({"team": refusals.validation_error("entry_kind", {"entry": tournament.entry})})
        if tournament is not None and not tournament.is_individual and self.player_id is not None:
            raise ValidationError({"player": refusals.validation_error("entry_kind", {"entry": tournament.entry})})
        if self.team_id is None:
            return
        before = (None if self._state.adding
                  else Entry.objects.filter(pk=self.pk).values_list("team_id", flat=True).first())
        if before != self.team_id and Team.objects.filter(pk=self.team_id, retired=True).exists():
            raise ValidationError({"team": gettext_lazy(
                "This team is retired by its club; its club manager can bring it back.")})
