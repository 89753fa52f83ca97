"""What the organizer's views share: the sign-in and 404-unless-yours guard, and the services' refusals in words
(``tournaments.refusals``, with the teams of a pairing refusal by name)."""

from __future__ import annotations

import functools

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.urls import NoReverseMatch, reverse

from tournaments import refusals
from tournaments.models import Team

from .common import organized_tournament_or_404


def refusal(code: str, *, teams: list[int] | None = None, params: dict | None = None) -> str:
    """Return a service's refusal in the user's language (``tournaments.refusals``), the teams by name.

    ``teams``: the ids of the teams a ``pairing_impossible`` names, for a refusal recorded without their names.
    """
    params = dict(params or {})
    if code == "pairing_impossible" and "teams" not in params:
        names = dict(Team.objects.filter(pk__in=teams or []).values_list("pk", "name"))
        params["teams"] = [names.get(t, "?") for t in teams or []]
    return refusals.words(code, params)


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
