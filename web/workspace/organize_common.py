"""What the organizer's views share: the sign-in and 404-unless-yours guard, and the services' refusals in words
(``tournaments.vocabulary``'s ``refusal``, re-exported for the views)."""

from __future__ import annotations

import functools

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.urls import NoReverseMatch, reverse

from tournaments.vocabulary import REFUSALS, refusal  # noqa: F401 (re-exported for the views)

from .common import organized_tournament_or_404


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
