"""The organizer's entries page: the teams entered with their seeds, adding teams (found or made), withdrawals,
removals before the first round, and the forbidden pairs."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.models import Club, Entry, ForbiddenPair, Player, Round, Team
from tournaments.query_text import search_text
from tournaments.selectors.entries import (
    club_active_players,
    team_search,
    tournament_entries,
    tournament_forbidden_pairs,
)
from tournaments.services.entries import (
    entry_create_with_team,
    entry_remove,
    entry_seeds_set,
    forbidden_pair_add,
    forbidden_pair_remove,
)
from tournaments.services.errors import ServiceError
from tournaments.services.rounds import entry_add_late, entry_withdraw

from . import organize_players
from .organize_common import organizer_view, refusal

#: Teams found by a search, a page.
SEARCH_PAGE = 10


def _back(tournament, anchor: str = "", **query):
    url = reverse("ws:entries", args=[tournament.slug])
    if query:
        url += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    return redirect(url + (f"#{anchor}" if anchor else ""))


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@require_GET
@organizer_view
def entries(request, tournament):
    """The entered teams (seeds editable), a search across clubs to enter more, a form to make a team, forbidden pairs."""
    if tournament.is_individual:
        return organize_players.players_page(request, tournament)
    club_id = _int(request.GET.get("club"))
    return _entries_page(request, tournament, club=Club.objects.filter(pk=club_id).first() if club_id else None)


def _entries_page(request, tournament, *, club=None, new_team=None, error=None, status=200):
    rows = list(tournament_entries(tournament=tournament))
    q = search_text(request.GET)
    found = Paginator(team_search(q=q, exclude_tournament=tournament), SEARCH_PAGE).get_page(
        request.GET.get("page")) if q else None
    started = Round.objects.filter(tournament=tournament).exists()
    return render(request, "web/workspace/organize/entries.html", {
        "tournament": tournament, "tab": "entries", "entries": rows,
        "active": [e for e in rows if not e.withdrawn], "withdrawn": [e for e in rows if e.withdrawn],
        "started": started, "q": q, "found": found, "clubs": Club.objects.order_by("name"), "club": club,
        "players": list(club_active_players(club_id=club.pk)) if club else [],
        "new_team": new_team or {}, "new_team_error": error,
        "pairs": list(tournament_forbidden_pairs(tournament=tournament)),
    }, status=status)


def _refused(request, exc: ServiceError) -> None:
    messages.error(request, refusal(exc.code, teams=getattr(exc, "teams", None), params=exc.params))


@require_POST
@organizer_view
def entry_add(request, tournament):
    """Enter a team found by the search (also after round 1 of a Swiss: a late entry)."""
    team = get_object_or_404(Team, pk=_int(request.POST.get("team")))
    try:
        entry_add_late(tournament=tournament, team=team, seed=_int(request.POST.get("seed")), user=request.user)
    except ServiceError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("%(team)s is entered.") % {"team": team.name})
    q = request.POST.get("q", "").strip()[:100]
    return _back(tournament, "add", **({"q": q} if q else {}))


@require_POST
@organizer_view
def entry_new_team(request, tournament):
    """Make a team of a club (players picked from the club or typed new) and enter it."""
    club = get_object_or_404(Club, pk=_int(request.POST.get("club")))
    players = []
    for n in (1, 2):
        picked = _int(request.POST.get(f"player_{n}"))
        players.append(get_object_or_404(Player, pk=picked) if picked
                       else request.POST.get(f"player_{n}_new", ""))
    try:
        entry = entry_create_with_team(tournament=tournament, club=club, name=request.POST.get("name", ""),
                                       player_1=players[0], player_2=players[1],
                                       seed=_int(request.POST.get("seed")), user=request.user)
    except ServiceError as exc:
        # The form again with what was typed, and the refusal next to it.
        return _entries_page(request, tournament, club=club, new_team=request.POST.dict(),
                             error=refusal(exc.code, params=exc.params), status=400)
    messages.success(request, _("%(team)s is made and entered.") % {"team": entry.team.name})
    return _back(tournament, "new-team", club=club.pk)


@require_POST
@organizer_view
def entry_seeds(request, tournament):
    """Save the seeds typed in the entries table (an empty box: unseeded)."""
    seeds = {}
    for entry_id in Entry.objects.filter(tournament=tournament).values_list("pk", flat=True):
        key = f"seed-{entry_id}"
        if key in request.POST:
            raw = request.POST[key].strip()
            seed = _int(raw) if raw else None
            if raw and (seed is None or seed < 1):
                messages.error(request, refusal("seed"))
                return _back(tournament, "entries")
            seeds[entry_id] = seed
    changed = entry_seeds_set(tournament=tournament, seeds=seeds, user=request.user)
    messages.success(request, _("Seeds saved (%(n)s changed).") % {"n": changed})
    return _back(tournament, "entries")


@require_POST
@organizer_view
def entry_withdraw_view(request, tournament, entry_id):
    """Withdraw a team: it is not paired again; an unstarted match of it becomes a bye."""
    entry = get_object_or_404(Entry.objects.select_related("team", "player", "tournament"), pk=entry_id,
                              tournament=tournament)
    try:
        entry_withdraw(entry=entry, user=request.user)
    except ServiceError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("%(team)s has withdrawn.") % {"team": (entry.team or entry.player).name})
        replaced = Entry.objects.filter(replaces=entry).select_related("player").first()
        if replaced is not None:
            messages.info(request, _("%(reserve)s takes %(player)s's seat for the rest of the cycle.") % {
                "reserve": replaced.player.name, "player": entry.player.name})
    if tournament.is_individual:
        return organize_players.back_to_list(request, tournament)
    return _back(tournament, "entries")


@require_POST
@organizer_view
def entry_remove_view(request, tournament, entry_id):
    """Take an entry off the list, while no round is paired."""
    entry = get_object_or_404(Entry.objects.select_related("team", "player", "tournament"), pk=entry_id,
                              tournament=tournament)
    try:
        entry_remove(entry=entry, user=request.user)
    except ServiceError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("%(team)s is no longer entered.") % {"team": (entry.team or entry.player).name})
    if tournament.is_individual:
        return organize_players.back_to_list(request, tournament)
    return _back(tournament, "entries")


@require_POST
@organizer_view
def forbidden_add(request, tournament):
    """Keep two entered teams apart in the Swiss pairings."""
    entered = Team.objects.filter(entries__tournament=tournament)
    team_a = get_object_or_404(entered, pk=_int(request.POST.get("team_a")))
    team_b = get_object_or_404(entered, pk=_int(request.POST.get("team_b")))
    try:
        forbidden_pair_add(tournament=tournament, team_a=team_a, team_b=team_b,
                           reason=request.POST.get("reason", "").strip(), user=request.user)
    except ServiceError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("%(a)s and %(b)s will not be paired against each other.") % {
            "a": team_a.name, "b": team_b.name})
    return _back(tournament, "forbidden")


@require_POST
@organizer_view
def forbidden_remove(request, tournament, pair_id):
    """Let two teams meet again."""
    pair = get_object_or_404(ForbiddenPair.objects.select_related("tournament"), pk=pair_id, tournament=tournament)
    forbidden_pair_remove(pair=pair, user=request.user)
    messages.success(request, _("The forbidden pair is removed."))
    return _back(tournament, "forbidden")
