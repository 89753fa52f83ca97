"""The director's desk (docs/confirmation.md): the tables whose result waits for the opponents or is disputed, in
real time (the list polls itself every few seconds, and says so aloud on a new dispute), how long each has waited,
and a director's two actions, settle (final) and confirm on paper; and the players' personal codes to hand out
(their entry slips). For a tournament's directors: its organizers and the accounts on its directors' list."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from tournaments import access, refusals
from tournaments.models import Entry, Match, Tournament
from tournaments.selectors.confirmation import DISPUTED, desk_matches
from tournaments.services import confirmation
from tournaments.services.errors import ServiceError

from .. import round_names
from . import round_words

#: How often the desk's list asks for itself again (seconds).
POLL_SECONDS = 5


def _directed_or_404(user, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
    if not access.is_director(user, tournament.pk):
        raise Http404
    return tournament


def _context(tournament: Tournament) -> dict:
    rows = desk_matches(tournament)
    round_names.prime([r["match"].round for r in rows])  # a knockout's rounds named by its bracket: one query
    for r in rows:  # what the page's alert says of a dispute new since it looked: its round named as its row's
        r["alert"] = round_words.new_dispute(r["match"]) if r["status"] == DISPUTED else ""
    return {"tournament": tournament, "rows": rows, "disputes": sum(r["status"] == DISPUTED for r in rows),
            "poll": POLL_SECONDS, "confirming": confirmation.confirming(tournament)}


def _with_lock(request, ctx: dict) -> dict:
    """The context with the tablet's desk mode (``desk_lock``: the PIN is asked on every decision)."""
    from .desk_lock import lock_of

    return {**ctx, "desk_locked": lock_of(request) is not None}


@login_required
@never_cache
@require_GET
def desk(request, slug):
    """The desk's page."""
    return render(request, "web/workspace/desk/desk.html",
                  _with_lock(request, _context(_directed_or_404(request.user, slug))))


@login_required
@never_cache
@require_GET
def desk_rows(request, slug):
    """The desk's list alone, for the page's poll."""
    return render(request, "web/workspace/desk/_rows.html",
                  _with_lock(request, _context(_directed_or_404(request.user, slug))))


@login_required
@require_POST
def desk_decide(request, slug, match_id):
    """Settle a result (final) or confirm it on paper, with the director's reason."""
    from .desk_lock import pin_check

    tournament = _directed_or_404(request.user, slug)
    action, reason = request.POST.get("action", ""), request.POST.get("reason", "")
    refused = pin_check(request, request.POST.get("pin", ""))  # in desk mode, the PIN (else nothing asked)
    if refused:
        # The page again, not a redirect: the reason typed before the wrong PIN stays in its row's form.
        messages.error(request, refused)
        ctx = _with_lock(request, _context(tournament))
        return render(request, "web/workspace/desk/desk.html",
                      {**ctx, "kept": {"id": match_id, "reason": reason, "action": action}}, status=403)
    with confirmation.acting(address=request.META.get("REMOTE_ADDR")):
        try:
            if action == "paper":
                confirmation.result_confirm_on_paper(match_id=match_id, user=request.user, reason=reason,
                                                     tournament_id=tournament.pk)
            else:
                confirmation.result_settle(match_id=match_id, user=request.user, reason=reason,
                                           tournament_id=tournament.pk)
        except Match.DoesNotExist:
            raise Http404 from None
        except ServiceError as exc:
            messages.error(request, refusals.words(exc.code, exc.params))
        else:
            messages.success(request, _("The result is final.") if action != "paper"
                             else _("The result is confirmed on paper."))
    return redirect("ws:desk", tournament.slug)


@login_required
@require_GET
def desk_codes(request, slug):
    """Every entered player's personal code, as slips to cut and hand out (made for those without one)."""
    tournament = _directed_or_404(request.user, slug)
    if tournament.is_individual:
        players = [(e.player, e.start_number) for e in Entry.objects.filter(tournament=tournament, withdrawn=False)
                   .select_related("player").order_by("start_number", "player__name")]
    else:
        players = [(p, None) for e in Entry.objects.filter(tournament=tournament, withdrawn=False)
                   .select_related("team__player_1", "team__player_2").order_by("team__name")
                   for p in (e.team.player_1, e.team.player_2)]
    codes = confirmation.personal_codes(tournament, [p.pk for p, _n in players])
    slips = [{"player": p, "number": n, "code": codes[p.pk]} for p, n in players]
    return render(request, "web/workspace/desk/codes.html", {"tournament": tournament, "slips": slips})
