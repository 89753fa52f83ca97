"""Tournaments, the teams entered in them, and the pairs they must not meet."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy

from .clubs import Club, Team


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
