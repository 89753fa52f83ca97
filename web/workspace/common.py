"""What every workspace view needs: the object a signed-in user may work on, or a 404.

Who may do what is decided in ``tournaments.access`` (the API and the admin ask the same
functions); these helpers only turn "not yours" into a 404, so a scorekeeper of one tournament
cannot even learn that another tournament's objects exist.
"""

from django.http import Http404
from django.shortcuts import get_object_or_404

from tournaments import access
from tournaments.models import Club, Match, Tournament


def organized_tournament_or_404(user, slug: str) -> Tournament:
    """Return the tournament ``slug`` if ``user`` organizes it (or is unscoped staff), else raise 404."""
    tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
    if not access.is_organizer(user, tournament.pk):
        raise Http404
    return tournament


def scorekept_tournament_or_404(user, slug: str) -> Tournament:
    """Return the tournament ``slug`` if ``user`` organizes it or keeps its score, else raise 404."""
    tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
    if not access.can_keep_score(user, tournament.pk):
        raise Http404
    return tournament


def scorekept_match_or_404(user, slug: str, match_id: int) -> Match:
    """Return match ``match_id`` of tournament ``slug`` if ``user`` may enter its results, else raise 404."""
    tournament = scorekept_tournament_or_404(user, slug)
    return get_object_or_404(
        Match.objects.select_related("round__tournament", "round__stage", "ns__club", "ew__club"),
        pk=match_id, round__tournament=tournament)


def managed_club_or_404(user, club_id: int) -> Club:
    """Return club ``club_id`` if ``user`` manages it (or is unscoped staff), else raise 404."""
    club = get_object_or_404(Club, pk=club_id)
    if not access.is_club_manager(user, club.pk):
        raise Http404
    return club
