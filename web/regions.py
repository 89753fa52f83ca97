"""Live regions: the parts of a page that change with results, rendered alone for push and for polling.

A page embeds a region's first rendering; ``web.consumers`` pushes a new one to every open page when
``tournaments.live`` publishes a change to the region's group, and ``web.live_views`` answers the
polling fallback with an ETag. Who may see a region is who may see its tournament
(``tournaments.access``): anyone for a public one, its organizers and scorekeepers for a private one. A round not
yet published is in no region, for anyone: the regions are shared (issue 28).
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.http import Http404
from django.template.loader import render_to_string
from django.utils import translation

from tournaments import versions
from tournaments.access import visible_tournaments
from tournaments.live import match_group, standings_group, tournament_group
from tournaments.models import Match, Round, Tournament
from tournaments.selectors.matches import match_for_scoreboard

from . import pages, pages_individual, pages_stages

logger = logging.getLogger(__name__)

#: ``clock``: a round's clock alone (an individual event's match and "where do I sit" pages poll it slowly; the
#: round's page and the wall show it in their own region).
REGION_KINDS = ("match", "round", "standings", "wall", "clock")
#: The regions that show a whole tournament (every table, every player): they change with every hand of every
#: table, so they are rendered again at most once every ``LIVE_WIDE_SECONDS`` (``kept_rendering``, and the
#: consumers' own bound), never once per hand. A match's region changes with its own table's hands only.
WIDE_KINDS = ("round", "standings", "wall", "clock")
RENDER_SECONDS = 60  # a rendering kept in the cache: any change replaces a stamp, so a kept one is never believed stale
LOCK_SECONDS = 10  # a process that took the right to render and died: another renders after this


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
            match = (Match.objects.filter(pk=pk, round__tournament__in=visible, round__published_at__isnull=False)
                     .only("pk").first())
            return match_group(match.pk) if match else None
        if kind in ("round", "clock"):
            rnd = Round.objects.published().filter(pk=pk, tournament__in=visible).only("tournament_id").first()
            return tournament_group(rnd.tournament_id) if rnd else None
        if kind in ("standings", "wall"):
            if not visible.filter(pk=pk).exists():
                return None
            # The standings change with a recompute only; the wall also shows the tables, so every hand.
            return standings_group(pk) if kind == "standings" else tournament_group(pk)
    except (TypeError, ValueError):
        return None
    return None


def region_keys(kind: str, pk: int) -> tuple[int, tuple[str, ...]] | None:
    """The tournament of a region and the version stamps of what it shows (None: no such region)."""
    if kind == "match":
        tournament_id = versions.match_tournament_id(pk)
        return None if tournament_id is None else (tournament_id, versions.scoreboard_keys(pk, tournament_id))
    if kind in ("round", "clock"):
        tournament_id = versions.round_tournament_id(pk)
        return None if tournament_id is None else (tournament_id, versions.results_keys(tournament_id))
    if kind == "standings":
        return pk, versions.standings_keys(pk)
    return pk, versions.wall_keys(pk)  # the wall: the tables and the standings


def etag_of(html: str, lang: str) -> str:
    """Return the strong ETag of a region's rendering in a language."""
    return '"%s"' % hashlib.sha256(f"{lang}\n{html}".encode()).hexdigest()[:32]


def stamped_etag(kind: str, pk: int, lang: str, stamp: str) -> str:
    """Return the ETag of a public region under its version stamps: the one a visitor's poll is answered with."""
    return etag_of(f"v{stamp}|{kind}|{pk}", lang)


def _context(kind: str, pk: int, *, user=None, tournament=None, rnd=None, board=None) -> tuple[str, dict]:
    if kind == "match":
        if board is None:
            # One read of the match with its tournament (rendered once a change for every viewer: a championship's
            # 136 tables change nine times a second); who may see it asked of the database only when not public.
            try:
                match = match_for_scoreboard(match_id=pk)
            except (Match.DoesNotExist, TypeError, ValueError):
                raise Http404 from None
            if match.round.published_at is None:
                raise Http404  # a round not yet published is on no public page (issue 28)
            if not match.round.tournament.public or user is not None and user.is_authenticated:
                _visible(match.round.tournament_id, user)
            board = pages.board_of(match)
        return "web/regions/match.html", {"board": board, "tournament": board["tournament"]}
    if kind in ("round", "clock"):
        if rnd is None:
            rnd = Round.objects.published().filter(pk=pk).select_related("stage").first()  # its name: its stage's
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
            "stage_panel": pages_stages.wall_stage(tournament),
            "name_pages": pages_individual.name_pages(tables["seats"]) if tables and tournament.is_individual else None}
    raise Http404


def render_region(kind: str, pk: int, lang: str, user=None, **loaded) -> str:
    """Return a region's inner HTML in language ``lang`` (Http404 when missing or hidden from ``user``).

    The rendering is the same for everyone who may see it; ``user`` only decides whether they may. ``loaded``:
    rows a page's view has read already (``_context``'s keywords).
    """
    template, ctx = _context(kind, pk, user=user, **loaded)
    with translation.override(lang):
        return render_to_string(template, ctx)


#: A wide region's renderings take at most this share of a core per language: one that takes 100 ms is rendered again
#: at most every 2 s (a championship's wall), one that takes 5 ms every ``LIVE_WIDE_SECONDS`` (a club's round).
WIDE_SHARE = 0.05


def wide_seconds(took: float = 0.0) -> float:
    """The least time between two renderings of a wide region whose last rendering took ``took`` seconds (0: the
    bound is off, ``LIVE_WIDE_SECONDS`` 0, every change rendered)."""
    least = float(getattr(settings, "LIVE_WIDE_SECONDS", 1.0))
    return max(least, took / WIDE_SHARE) if least > 0 else 0.0


def _cached(key: str):
    try:
        return cache.get(key)
    except Exception:  # noqa: BLE001 - the cache away: render, as without one
        logger.warning("live region rendering not read from the cache", exc_info=True)
        return None


def _keep(key: str, value) -> None:
    try:
        cache.set(key, value, RENDER_SECONDS)
    except Exception:  # noqa: BLE001
        logger.warning("live region rendering not kept in the cache", exc_info=True)


def _may_render(key: str) -> bool:
    """Take the right to render a wide region now (one process at a time); True when the cache cannot say."""
    try:
        return bool(cache.add(key, 1, LOCK_SECONDS))
    except Exception:  # noqa: BLE001
        return True


def _render_done(key: str) -> None:
    try:
        cache.delete(key)
    except Exception:  # noqa: BLE001 - it times out after LOCK_SECONDS
        pass


def _packed(html: str) -> bytes:
    return gzip.compress(html.encode(), compresslevel=6)


def unpacked(packed: bytes) -> str:
    """The HTML of a kept rendering (``kept_rendering`` keeps it compressed)."""
    return gzip.decompress(packed).decode()


def kept_rendering(kind: str, pk: int, lang: str, stamp: str, user=None, **loaded) -> tuple[bytes, str]:
    """A visitor's rendering of a public region under its version stamps ``stamp``: ``(its HTML gzipped, the stamps
    it shows)``.

    Kept in the cache (Redis in production: every web process shares it), rendered once per change for all the
    pollers and page loads of every process, and compressed once: a browser's poll is answered with these bytes
    (``unpacked`` gives the HTML). A match's region is rendered for each stamp it is asked under. A wide region
    (``WIDE_KINDS``: 136 tables of a championship, 544 players' standings, 30 to 100 ms to render and 130 to
    460 KB) changes with every hand of every table: it is rendered again at most once every
    ``LIVE_WIDE_SECONDS`` (1 s), or 20 times as long as its last rendering took when that is longer (``WIDE_SHARE``:
    a 544-player wall), and while another process renders it the one before is served. The answer then
    shows the stamps it was rendered under (an older change), never later than the bound; the next poll after
    it gets the new one, as its ETag (made of the stamps shown) differs.
    """
    if kind not in WIDE_KINDS:
        key = "live:r2:" + hashlib.sha256(f"{kind}|{pk}|{lang}|{stamp}".encode()).hexdigest()[:40]
        packed = _cached(key)
        if packed is None:
            packed = _packed(render_region(kind, pk, lang, user, **loaded))
            _keep(key, packed)
        return packed, stamp
    key = f"live:w2:{kind}:{pk}:{lang}"  # "2": compressed, unlike the keys of before
    latest = _cached(key)  # (stamps, rendered at, gzipped html, seconds the rendering took)
    now = time.time()
    if latest is not None:
        shown, at, packed, took = latest
        if shown == stamp or now - at < wide_seconds(took) or not _may_render(key + ":lock"):
            return packed, shown
        try:
            packed = _render_wide(key, kind, pk, lang, stamp, user, now, loaded)
        finally:
            _render_done(key + ":lock")
        return packed, stamp
    return _render_wide(key, kind, pk, lang, stamp, user, now, loaded), stamp


def _render_wide(key: str, kind: str, pk: int, lang: str, stamp: str, user, now: float, loaded: dict) -> bytes:
    began = time.perf_counter()
    packed = _packed(render_region(kind, pk, lang, user, **loaded))
    _keep(key, (stamp, now, packed, time.perf_counter() - began))
    return packed


def region_html(kind: str, pk: int, lang: str, *, stamp: str | None = None, **loaded) -> dict:
    """Return a region's first rendering for its page: kind, pk, html and ETag (``loaded``: rows the view has).

    ``stamp``: a visitor's page of a public tournament, under these version stamps: the region is the kept
    rendering the visitor's polls get (``kept_rendering``, made from ``loaded`` when none is kept), with the
    ETag they are answered with.
    """
    if stamp is not None:
        packed, shown = kept_rendering(kind, pk, lang, stamp, **loaded)
        html = unpacked(packed)
        return {"kind": kind, "pk": pk, "html": html, "etag": stamped_etag(kind, pk, lang, shown)}
    template, ctx = _context(kind, pk, **loaded)
    html = render_to_string(template, ctx)
    return {"kind": kind, "pk": pk, "html": html, "etag": etag_of(html, lang)}


def visitor_rendering(kind: str, pk: int, lang: str) -> tuple[str, str] | None:
    """A match region's rendering for a visitor after its latest change, shared with the pollers and the page
    loads of every process (``kept_rendering``): ``(html, ETag)``; None when the region is not public or the
    cache cannot say (the caller renders it itself)."""
    found = region_keys(kind, pk)
    if found is None:
        return None
    stamp, public = versions.public_stamps(found[0], *found[1])
    if stamp is None or not public:
        return None
    packed, shown = kept_rendering(kind, pk, lang, stamp)
    return unpacked(packed), stamped_etag(kind, pk, lang, shown)
