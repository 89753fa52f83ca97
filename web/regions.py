"""Live regions: the parts of a page that change with results, rendered alone for push and for polling.

A page embeds a region's first rendering; ``web.consumers`` pushes a new one to every open page when
``tournaments.live`` publishes a change to the region's group, and ``web.live_views`` answers the
polling fallback with an ETag. Everything here reads public tournaments only.
"""

from __future__ import annotations

import hashlib

from django.http import Http404
from django.template.loader import render_to_string
from django.utils import translation

from tournaments.models import Match, Round, Tournament

from . import pages

REGION_KINDS = ("match", "round", "standings", "wall")


def _public(tournament_id: int) -> Tournament:
    tournament = pages.tournaments_for(None).filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404
    return tournament


def region_group(kind: str, pk: int) -> str | None:
    """Return the channel-layer group a region listens to, or None when it is unknown or not public."""
    try:
        if kind == "match":
            match = Match.objects.filter(pk=pk, round__tournament__public=True).only("pk").first()
            return f"match-{match.pk}" if match else None
        if kind == "round":
            rnd = Round.objects.filter(pk=pk, tournament__public=True).only("tournament_id").first()
            return f"tournament-{rnd.tournament_id}" if rnd else None
        if kind in ("standings", "wall"):
            return f"tournament-{pk}" if Tournament.objects.filter(pk=pk, public=True).exists() else None
    except (TypeError, ValueError):
        return None
    return None


def etag_of(html: str, lang: str) -> str:
    """Return the strong ETag of a region's rendering in a language."""
    return '"%s"' % hashlib.sha256(f"{lang}\n{html}".encode()).hexdigest()[:32]


def _context(kind: str, pk: int, *, tournament=None, rnd=None, board=None) -> tuple[str, dict]:
    if kind == "match":
        if board is None:
            match = Match.objects.filter(pk=pk).select_related("round").first()
            if match is None:
                raise Http404
            board = pages.match_board(_public(match.round.tournament_id), pk)
        return "web/regions/match.html", {"board": board, "tournament": board["tournament"]}
    if kind == "round":
        if rnd is None:
            rnd = Round.objects.filter(pk=pk).first()
            if rnd is None:
                raise Http404
            tournament = _public(rnd.tournament_id)
        return "web/regions/round.html", {"tables": pages.round_tables(rnd),
                                          "tournament": tournament or rnd.tournament}
    if kind == "standings":
        tournament = tournament or _public(pk)
        return "web/regions/standings.html", {"standings": pages.standings(tournament), "tournament": tournament}
    if kind == "wall":
        tournament = tournament or _public(pk)
        rnd = pages.current_round(tournament)
        return "web/regions/wall.html", {"tournament": tournament, "standings": pages.standings(tournament),
                                         "tables": pages.round_tables(rnd) if rnd else None}
    raise Http404


def render_region(kind: str, pk: int, lang: str) -> str:
    """Return a region's inner HTML in language ``lang`` (Http404 when missing or not public)."""
    template, ctx = _context(kind, pk)
    with translation.override(lang):
        return render_to_string(template, ctx)


def region_html(kind: str, pk: int, lang: str, **loaded) -> dict:
    """Return a region's first rendering for its page: kind, pk, html and ETag (``loaded``: rows the view has)."""
    template, ctx = _context(kind, pk, **loaded)
    html = render_to_string(template, ctx)
    return {"kind": kind, "pk": pk, "html": html, "etag": etag_of(html, lang)}
