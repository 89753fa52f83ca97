"""What the organizer's views share: the sign-in and 404-unless-yours guards (an organizer's, a director's), and the services' refusals in words
(``tournaments.refusals``, with the teams of a pairing refusal by name)."""

from __future__ import annotations

import functools

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import NoReverseMatch, reverse

from tournaments import access, refusals
from tournaments.models import Round, Team, Tournament

from web import round_names
from web.templatetags.web_rounds import round_name
from web.templatetags.ws_rounds import stage_query

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


def director_view(view):
    """Sign-in first, then the tournament ``slug`` if the user directs it (``access.can_direct``, the one check of
    every door: its organizers, its directors and staff; else 404), passed as ``tournament``."""

    @functools.wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), login_url())
        tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
        # A director who does not organize the event sees no organizer's tab (dashboard, entries, stages: 404s).
        request.ws_organizes = access.is_organizer(request.user, tournament.pk)
        if not request.ws_organizes and not access.can_direct(request.user, tournament.pk):
            raise Http404
        return view(request, tournament, *args, **kwargs)

    return wrapper


def round_of(request, tournament, number: int, rounds=None) -> Round:
    """Round ``number`` of the stage ``?stage=`` names in the URL (a form's too), stage 1's without it: round numbers
    count per stage (a 404 for a stage or round that is not there)."""
    stage = request.GET.get("stage", "1")
    if not stage.isdigit():
        raise Http404
    rounds = Round.objects.all() if rounds is None else rounds
    return get_object_or_404(rounds.select_related("stage"), tournament=tournament, stage__number=int(stage),
                             number=number)


def round_url(name: str, tournament, rnd: Round, fragment: str = "") -> str:
    """A workspace URL of the round (``ws:round``, ``ws:round-clock``...), its stage in the query for a later stage."""
    return reverse(name, args=[tournament.slug, rnd.number]) + stage_query(rnd) + fragment


def round_picker(tournament, current: Round) -> list[dict]:
    """The event's rounds for the round page's picker, stage by stage: each one's name ("Stage 2, round 1" in a
    later stage), link, whether it is the page's and whether it is published (marked if not)."""
    rounds = list(Round.objects.filter(tournament=tournament).select_related("stage").order_by("stage__number",
                                                                                                 "number"))
    round_names.prime(rounds)  # a knockout's names read its bracket's size once, not once a round
    return [{"number": r.number, "name": round_name(r), "url": round_url("ws:round", tournament, r),
             "current": r.pk == current.pk, "published": r.published_at is not None} for r in rounds]
