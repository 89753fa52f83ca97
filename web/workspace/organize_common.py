"""What the organizer's views share: the sign-in and 404-unless-yours guard, the services' refusals in words."""

from __future__ import annotations

import functools

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import Team

from .common import organized_tournament_or_404

#: Each refusal code of the services (and the pairing task) in plain words.
REFUSALS = {
    "pairing_impossible": gettext_lazy("These teams cannot be paired without a rematch or a forbidden pair: "
                                       "%(teams)s. Remove a forbidden pair or pair this round by hand."),
    "pairing_in_progress": gettext_lazy("A pairing of this tournament is already under way: wait for it to end."),
    "round_unfinished": gettext_lazy("The last round still has unfinished matches: enter their results first."),
    "too_few_teams": gettext_lazy("A round needs at least two active teams: enter more teams first."),
    "tournament_over": gettext_lazy("Every round of the tournament has been paired already."),
    "round_number": gettext_lazy("Another round was paired meanwhile: reload the page."),
    "queue_unavailable": gettext_lazy("The task queue is unavailable; try again when it is back."),
    "error": gettext_lazy("The pairing failed because of an internal error; try again. "
                          "The details are in the server log."),
    "not_found": gettext_lazy("The tournament no longer exists."),
    "worker_lost": gettext_lazy("The worker pairing this round stopped answering; pair the round again."),
    "not_started": gettext_lazy("No worker took up the pairing in time; check that a worker runs, then try again."),
    "late_entry_closed": gettext_lazy("A round robin or a knockout takes no new teams once a round is paired."),
    "already_entered": gettext_lazy("This team is entered already."),
    "entry_withdrawn": gettext_lazy("This team has withdrawn from the tournament; it cannot be entered again."),
    "tournament_finished": gettext_lazy("The tournament is finished."),
    "team_retired": gettext_lazy("This team is retired by its club; its club manager can bring it back."),
    "already_withdrawn": gettext_lazy("This team has withdrawn already."),
    "tournament_started": gettext_lazy("A round is paired already: a team can no longer be removed, only withdrawn."),
    "round_started": gettext_lazy("This round has started: its pairings can no longer change."),
    "same_team": gettext_lazy("A team cannot play itself: choose two different teams."),
    "rematch": gettext_lazy("These two teams have met already or may not meet (a forbidden pair)."),
    "not_entered": gettext_lazy("That team is not an active entry of this tournament."),
    "seed": gettext_lazy("A seed is a whole number from 1."),
    "name_missing": gettext_lazy("The team and its players need names."),
    "name_too_long": gettext_lazy("A name has at most 120 characters."),
    "player_retired": gettext_lazy("That player is retired: pick an active player."),
    "team_exists": gettext_lazy("This club has a team with that name already."),
    "same_player": gettext_lazy("A team's two players must be two different people."),
    "player_missing": gettext_lazy("A team needs two players: pick them or type their names."),
    "player_other_club": gettext_lazy("Pick the players from the team's own club."),
    "already_forbidden": gettext_lazy("These two teams are kept apart already."),
}


def refusal(code: str, *, teams: list[int] | None = None) -> str:
    """Return a service's refusal ``code`` in the user's language (with the teams' names where it names teams)."""
    text = REFUSALS.get(code)
    if text is None:
        return _("The request was refused (%(code)s).") % {"code": code}
    if code == "pairing_impossible":
        names = dict(Team.objects.filter(pk__in=teams or []).values_list("pk", "name"))
        return str(text) % {"teams": ", ".join(names.get(t, "?") for t in teams or [])}
    return str(text)


def login_url() -> str:
    """The workspace's sign-in page (the site's LOGIN_URL while it is not there)."""
    try:
        return reverse("ws:login")
    except NoReverseMatch:
        return reverse(settings.LOGIN_URL) if ":" in settings.LOGIN_URL else settings.LOGIN_URL


def organizer_view(view):
    """Sign-in first, then the tournament ``slug`` if the user organizes it (else 404), passed as ``tournament``."""

    @functools.wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), login_url())
        tournament = organized_tournament_or_404(request.user, slug)
        return view(request, tournament, *args, **kwargs)

    return wrapper
