"""The entries page of an individual event: the players entered with their start numbers (searchable, a page of
fifty at a time, for the 500 of a championship), players entered from the clubs' lists or typed new, reserves
and fixed tables, the pairs kept apart, and a withdrawal said in words under the event's rule.

Every write is a service's: ``services.draws`` (a player entered, start numbers, kept-apart pairs),
``services.entries`` (a player typed new, a fixed table or a reserve flag changed, an entry removed before the
first draw) and ``services.rounds.entry_withdraw``.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.models import Club, Entry, KeptApart, Player, Round
from tournaments.query_text import refuse_null_characters, search_text
from tournaments.selectors.individual_entries import (
    free_reserves,
    kept_apart_pairs,
    player_entries,
    player_search,
)
from tournaments.services.draws import entry_add_player, entry_numbers_set, kept_apart_add, kept_apart_remove
from tournaments.services.entries import entry_create_with_player, entry_player_set
from tournaments.services.errors import ServiceError

from . import event_words
from .organize_common import organizer_view, refusal

#: Players a page of the entries list; players found by the search to enter.
PAGE, FOUND = 50, 10


def _int(value) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _back(tournament, anchor: str = "", **query):
    url = reverse("ws:entries", args=[tournament.slug])
    query = {k: v for k, v in query.items() if v not in (None, "")}
    return redirect(url + (f"?{urlencode(query)}" if query else "") + (f"#{anchor}" if anchor else ""))


def _kept(request) -> dict:
    """The list's search and page, kept across a form posted from it (sent back as hidden fields)."""
    return {"q": search_text(request.POST, "q"), "page": _int(request.POST.get("page")) or ""}


def back_to_list(request, tournament, anchor: str = "entries"):
    """Back to the entries list at the search and page the form was posted from."""
    return _back(tournament, anchor, **_kept(request))


def _refused(request, exc: ServiceError) -> None:
    messages.error(request, refusal(exc.code, params=exc.params))


def players_page(request, tournament, *, new_player=None, error=None, status=200):
    """The players entered and the forms to enter more (``organize_entries.entries`` for an individual event)."""
    q = search_text(request.GET)
    listed = Paginator(player_entries(tournament=tournament, q=q), PAGE).get_page(request.GET.get("page"))
    find = search_text(request.GET, "find")
    found = list(player_search(q=find, exclude_tournament=tournament)[:FOUND + 1]) if find else None
    counts = {key: Entry.objects.filter(tournament=tournament, player__isnull=False, **flt).count()
              for key, flt in (("active", {"withdrawn": False, "reserve": False}),
                               ("reserves", {"withdrawn": False, "reserve": True}), ("withdrawn", {"withdrawn": True}))}
    last = Round.objects.filter(tournament=tournament).order_by("-number").first()
    mid_cycle = bool(last and tournament.format == "tables" and last.number % 3 != 0)
    return render(request, "web/workspace/organize/players.html", {
        "tournament": tournament, "tab": "entries", "listed": listed, "q": q, "counts": counts,
        "drawn": last is not None, "last": last,
        "find": find, "found": found[:FOUND] if found is not None else None,
        "more_found": found is not None and len(found) > FOUND,
        "clubs": Club.objects.order_by("name"), "new_player": new_player or {}, "new_player_error": error,
        "pairs": kept_apart_pairs(tournament=tournament),
        "withdrawal_words": event_words.withdrawal_rule(
            tournament, reserves=free_reserves(tournament=tournament), mid_cycle=mid_cycle),
        "sit_out_words": event_words.sit_out_rule(tournament),
    }, status=status)


@require_POST
@organizer_view
def player_enter(request, tournament):
    """Enter a player found by the search (after the first draw: a late entry, drawn from the next draw on)."""
    player = get_object_or_404(Player, pk=_int(request.POST.get("player")))
    try:
        entry = entry_add_player(tournament=tournament, player=player, reserve=request.POST.get("reserve") == "1",
                                 user=request.user)
    except ServiceError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("%(player)s is entered with start number %(number)s.") % {
            "player": player.name, "number": entry.start_number})
    return _back(tournament, "add", find=search_text(request.POST, "find"))


@require_POST
@organizer_view
def player_new(request, tournament):
    """Enter a player typed by name, with a club or without (a new player, unless the club has one of that name)."""
    club_id = _int(request.POST.get("club"))
    club = get_object_or_404(Club, pk=club_id) if club_id else None
    table = request.POST.get("fixed_table", "").strip()
    try:
        fixed_table = _int(table) if table else None
        if table and fixed_table is None:
            raise ServiceError("fixed_table", "fixed_table", {"value": table})
        entry = entry_create_with_player(tournament=tournament, club=club,
                                         name=refuse_null_characters(request.POST.get("name", ""), "name"),
                                         fixed_table=fixed_table, reserve=request.POST.get("reserve") == "1",
                                         user=request.user)
    except ServiceError as exc:
        # The form again with what was typed, the refusal next to it.
        return players_page(request, tournament, new_player=request.POST.dict(),
                            error=refusal(exc.code, params=exc.params), status=400)
    messages.success(request, _("%(player)s is entered with start number %(number)s.") % {
        "player": entry.player.name, "number": entry.start_number})
    return _back(tournament, "new-player")


@require_POST
@organizer_view
def player_numbers(request, tournament):
    """Save the start numbers typed in the list's page (before the first draw: then they are the draw's inputs)."""
    numbers = {}
    for entry_id in Entry.objects.filter(tournament=tournament).values_list("pk", flat=True):
        raw = request.POST.get(f"number-{entry_id}")
        if raw is None:
            continue
        number = _int(raw)
        if number is None or number < 1:
            messages.error(request, refusal("start_number", params={"value": raw.strip()[:12]}))
            return _back(tournament, "entries", **_kept(request))
        numbers[entry_id] = number
    try:
        changed = entry_numbers_set(tournament=tournament, numbers=numbers, user=request.user)
    except ServiceError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("Start numbers saved (%(n)s changed).") % {"n": changed})
    return _back(tournament, "entries", **_kept(request))


@require_POST
@organizer_view
def player_set(request, tournament, entry_id):
    """Fix a player to a table (mobility) or not, and make them a reserve or not."""
    entry = get_object_or_404(Entry.objects.select_related("player", "tournament"), pk=entry_id,
                              tournament=tournament, player__isnull=False)
    table = request.POST.get("fixed_table", "").strip()
    try:
        fixed_table = _int(table) if table else None
        if table and fixed_table is None:
            raise ServiceError("fixed_table", "fixed_table", {"value": table})
        entry_player_set(entry=entry, fixed_table=fixed_table, reserve=request.POST.get("reserve") == "1",
                         user=request.user)
    except ServiceError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("%(player)s: saved.") % {"player": entry.player.name})
    return _back(tournament, f"entry-{entry.pk}", **_kept(request))


@require_POST
@organizer_view
def kept_apart_add_view(request, tournament):
    """Keep two entered players (given by start number) from ever sharing a table."""
    a, b = request.POST.get("a", ""), request.POST.get("b", "")
    numbers = {n: Entry.objects.filter(tournament=tournament, start_number=_int(n) or 0, player__isnull=False)
               .select_related("player").first() for n in (a, b)}
    missing = [n.strip()[:12] or "?" for n, e in numbers.items() if e is None]
    if missing:
        messages.error(request, _("No player has start number %(number)s.") % {"number": missing[0]})
        return _back(tournament, "kept-apart")
    try:
        kept_apart_add(tournament=tournament, player_a=numbers[a].player, player_b=numbers[b].player,
                       reason=refuse_null_characters(request.POST.get("reason", ""), "reason").strip(),
                       user=request.user)
    except ServiceError as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("%(a)s and %(b)s will never share a table.") % {
            "a": numbers[a].player.name, "b": numbers[b].player.name})
    return _back(tournament, "kept-apart")


@require_POST
@organizer_view
def kept_apart_remove_view(request, tournament, pair_id):
    """Let two players share a table again in later draws."""
    pair = get_object_or_404(KeptApart.objects.select_related("tournament", "player_a", "player_b"), pk=pair_id,
                             tournament=tournament)
    kept_apart_remove(pair=pair, user=request.user)
    messages.success(request, _("%(a)s and %(b)s may share a table again.") % {
        "a": pair.player_a.name, "b": pair.player_b.name})
    return _back(tournament, "kept-apart")
