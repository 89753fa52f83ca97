"""The admin's index page: the user's matches in progress first."""

from django.contrib import admin

from tournaments import access
from tournaments.models import Game, Match, Round


def _now_matches(request) -> list[Match]:
    """Return the matches in progress of the user's tournaments, each with its game in progress."""
    from django.db.models import Q

    # Playing, or waiting for its first game in a round still open (a volunteer enters it from paper).
    matches = Match.objects.filter(
        Q(status=Match.Status.PLAYING)
        | Q(status=Match.Status.SCHEDULED, ew__isnull=False) & ~Q(round__status=Round.Status.FINISHED)
    ).select_related("round__tournament", "ns", "ew")
    if not access.is_unscoped(request.user):
        matches = matches.filter(round__tournament__in=access.scorekept_tournaments(request.user).values("pk"))
    matches = list(matches.order_by("round__tournament__name", "round__number", "table")[:50])
    games = {g.match_id: g for g in Game.objects.filter(match__in=matches, status=Game.Status.PLAYING)}
    for match in matches:
        match.current_game = games.get(match.pk)
    return matches


class _NowIndex:
    """The admin index opens on a "now" panel: the matches in progress of the user's tournaments."""

    def __init__(self, site):
        self.site = site
        self.original = site.index

    def __call__(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "now_matches": _now_matches(request)}
        return self.original(request, extra_context)


admin.site.index_template = "admin/tournaments/index.html"
admin.site.index = _NowIndex(admin.site)
