"""Live regions: the parts of a page that change with results, rendered alone for push and for polling.

A page embeds a region's first rendering; ``web.consumers`` pushes a new one to every open page when
``tournaments.live`` publishes a change to the region's group, and ``web.live_views`` answers the
polling fallback with an ETag. Who may see a region is who may see its tournament
(``tournaments.access``): anyone for a public one, its organizers and scorekeepers for a private one.
"""

from __future__ import annotations

import hashlib

from django.http import Http404
from django.template.loader import render_to_string
from django.utils import translation

from tournaments.access import visible_tournaments
from tournaments.live import match_group, standings_group, tournament_group
from tournaments.models import Match, Round, Tournament

from . import pages, pages_individual

#: ``clock``: a round's clock alone (an individual event's match and "where do I sit" pages poll it slowly; the
#: round's page and the wall show it in their own region).
REGION_KINDS = ("match", "round", "standings", "wall", "clock")


def _visible(tournament_id: int, user) -> Tournament:
    """Return the tournament when ``user`` may see it (anonymous: public only), else raise Http404."""
    tournament = pages.tournaments_for(user).filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404
    return tournament


def region_group(kind: str, pk: int, user=None) -> str | None:
    """Return the channel-layer group a region listens to, or None when it is unknown or hidden from ``user``."""
    visible = visible_tournaments(user)
    try:
        if kind == "match":
            match = Match.objects.filter(pk=pk, round__tournament__in=visible).only("pk").first()
            return match_group(match.pk) if match else None
        if kind in ("round", "clock"):
            rnd = Round.objects.filter(pk=pk, tournament__in=visible).only("tournament_id").first()
            return tournament_group(rnd.tournament_id) if rnd else None
        if kind in ("standings", "wall"):
            if not visible.filter(pk=pk).exists():
                return None
            # The standings change with a recompute only; the wall also shows the tables, so every hand.
            return standings_group(pk) if kind == "standings" else tournament_group(pk)
    except (TypeError, ValueError):
        return None
    return None


def etag_of(html: str, lang: str) -> str:
    """Return the strong ETag of a region's rendering in a language."""
    return '"%s"' % hashlib.sha256(f"{lang}\n{html}".encode()).hexdigest()[:32]


def stamped_etag(kind: str, pk: int, lang: str, stamp: str) -> str:
    """Return the ETag of a public region under its version stamps: the one a visitor's poll is answered with."""
    return etag_of(f"v{stamp}|{kind}|{pk}", lang)


def _context(kind: str, pk: int, *, user=None, tournament=None, rnd=None, board=None) -> tuple[str, dict]:
    if kind == "match":
        if board is None:
            match = Match.objects.filter(pk=pk).select_related("round").first()
            if match is None:
                raise Http404
            board = pages.match_board(_visible(match.round.tournament_id, user), pk)
        return "web/regions/match.html", {"board": board, "tournament": board["tournament"]}
    if kind in ("round", "clock"):
        if rnd is None:
            rnd = Round.objects.filter(pk=pk).first()
            if rnd is None:
                raise Http404
            tournament = _visible(rnd.tournament_id, user)
        tournament = tournament or rnd.tournament
        if kind == "clock":
            if not tournament.is_individual:
                raise Http404
            return "web/regions/clock.html", {"clock": pages_individual.clock_view(rnd, tournament),
                                              "tournament": tournament}
        return "web/regions/round.html", {"tables": pages.round_tables(rnd, tournament), "tournament": tournament}
    if kind == "standings":
        tournament = tournament or _visible(pk, user)
        return "web/regions/standings.html", {"standings": pages.standings(tournament), "tournament": tournament}
    if kind == "wall":
        tournament = tournament or _visible(pk, user)
        rnd = pages.current_round(tournament)
        tables = pages.round_tables(rnd, tournament) if rnd else None
        return "web/regions/wall.html", {
            "tournament": tournament, "standings": pages.standings(tournament), "tables": tables,
            "name_pages": pages_individual.name_pages(tables["seats"]) if tables and tournament.is_individual else None}
    raise Http404


def render_region(kind: str, pk: int, lang: str, user=None) -> str:
    """Return a region's inner HTML in language ``lang`` (Http404 when missing or hidden from ``user``).

    The rendering is the same for everyone who may see it; ``user`` only decides whether they may.
    """
    template, ctx = _context(kind, pk, user=user)
    with translation.override(lang):
        return render_to_string(template, ctx)


def region_html(kind: str, pk: int, lang: str, **loaded) -> dict:
    """Return a region's first rendering for its page: kind, pk, html and ETag (``loaded``: rows the view has)."""
    template, ctx = _context(kind, pk, **loaded)
    html = render_to_string(template, ctx)
    return {"kind": kind, "pk": pk, "html": html, "etag": etag_of(html, lang)}
