"""The public site: one view a page, each reading through ``web.pages`` (and so the selectors of ``tournaments``)."""

import functools

from django.core.paginator import Paginator
from django.db.models import Case, IntegerField, Value, When
from django.http import Http404, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control, patch_vary_headers

from tournaments import versions, vocabulary
from tournaments.conditional import etag_listed, etag_named
from tournaments.query_text import search_text

from . import pages, pages_individual, pages_stages, regions
from .stage_lines import event_rounds, stage_lines

STATUS_ORDER = Case(When(status="running", then=Value(0)), When(status="draft", then=Value(1)),
                    default=Value(2), output_field=IntegerField())


def _live_page(request, template, ctx, keys=(), fill=None):
    """Render a page built around a live region with a strong ETag; 304 while it is unchanged.

    ``keys``: the version stamps (``tournaments.versions``) of what the page shows. With them the ETag
    is made of the stamps, so a 304 is answered before ``fill(ctx)`` builds the region (and the page).
    Without them (or the cache unavailable), the ETag is derived from the region's rendering.
    """
    t = ctx["tournament"]
    stamp = versions.stamps(*keys) if keys else None
    if stamp is not None:
        # The header (status, round, settings, "All played") is the tournament's: its stamp, among ``keys``, covers
        # it (a stage's save, a round's status moved by its last result: ``versions``).
        etag = _page_tag(request, f"v{stamp}")
        if not request.user.is_authenticated:
            versions.remember_slug(t.slug, t.pk)
        # Exactly this tag (not *): the page behind it may not exist, which only building it tells.
        if etag_named(request.headers.get("If-None-Match"), etag):
            return _live_headers(HttpResponseNotModified(), etag)
    # A visitor's region is the rendering kept for its polls (web.regions.kept_rendering), with the tag they are
    # answered with, so its first poll (or the catch-up fetch of its socket) is a 304, not the whole region again
    # swapped in under the reader's eyes. Read before rendering: a change in between makes that poll a 200.
    ctx["live_stamp"] = stamp if stamp is not None and not request.user.is_authenticated else None
    if fill is not None:
        fill(ctx)
    if stamp is not None:
        response = render(request, template, ctx)
        return _live_headers(response, _page_tag(request, f"v{stamp}"))  # with the CSRF cookie the page set
    # The page around the region shows the tournament's header (status, round, settings): they count too.
    awaiting = ctx.get("awaiting")
    header = (t.name, t.status, t.current_round, t.rounds, t.best_of, t.variant, t.options, t.club_id, t.starts_on,
              getattr(t, "stage_count", None), bool(awaiting() if callable(awaiting) else awaiting))
    tag = _page_tag(request, ctx["region"]["etag"], header)
    if etag_listed(request.headers.get("If-None-Match"), tag):
        return _live_headers(HttpResponseNotModified(), tag)
    response = render(request, template, ctx)
    return _live_headers(response, _page_tag(request, ctx["region"]["etag"], header))


def _page_tag(request, version: str, header=()) -> str:
    # The header names the signed-in user and its forms carry the CSRF secret (rotated at sign-in): a page
    # sent to another user, or to this browser before it signed in or out, is never answered 304. Taken again
    # after rendering: a first page sets the CSRF cookie its browser sends the next time.
    user = f"{request.user.pk}:{request.user.get_username()}" if request.user.is_authenticated else "0"
    user = f"{user}:{request.META.get('CSRF_COOKIE', '')}"
    page = f"{version}|{request.path}|{request.GET.urlencode()}|{user}|{header!r}"
    return regions.etag_of(page, request.LANGUAGE_CODE)


def _visitor_not_modified(request, slug: str, keys_of):
    """A visitor's conditional request for a live page answered 304 from the cache alone, or None.

    The slug's tournament was kept by an earlier page (``versions.slug_tournament_id``, in process memory
    after the first); it need not still be right: the ETag holds the tournament's stamp (``keys_of(id)``
    includes it), which any change of the tournament replaces, so a slug moved to another tournament, or a
    tournament made private, never matches an ETag sent before. Whether the tournament is public comes
    with the stamps (``versions.public_stamps``): one cache round trip in all.
    """
    if "If-None-Match" not in request.headers or request.user.is_authenticated:
        return None
    tournament_id = versions.slug_tournament_id(slug)
    if tournament_id is None:
        return None
    stamp, public = versions.public_stamps(tournament_id, *keys_of(tournament_id))
    if stamp is None or not public:
        return None
    etag = _page_tag(request, f"v{stamp}")
    if etag_named(request.headers["If-None-Match"], etag):
        return _live_headers(HttpResponseNotModified(), etag)
    return None


def _live_headers(response, etag):
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


def home(request):
    """Running, upcoming and finished tournaments, searchable by name, club, city or variant."""
    q = search_text(request.GET)
    status = request.GET.get("status", "")
    qs = pages.tournaments_for(request.user)
    if q:
        qs = pages.search(qs, q)
    if status in ("running", "draft", "finished"):
        qs = qs.filter(status=status)
    qs = qs.order_by(STATUS_ORDER, "-starts_on", "-created_at", "name")
    page = Paginator(qs, 20).get_page(request.GET.get("page"))
    return render(request, "web/home.html", {"page": page, "q": q, "status": status,
                                             "statuses": vocabulary.TOURNAMENT_STATUS})


def _tournament_context(request, slug, tab):
    tournament = pages.tournament_or_404(request.user, slug)
    # The header's "All played" (a multi-stage event's last stage played out, not closed): read when the page is
    # rendered (the template calls it, once), so a live page's 304 reads nothing more; nothing for one stage.
    awaiting = functools.cache(lambda: pages_stages.awaiting_close(tournament))
    return tournament, {"tournament": tournament, "tab": tab, "facts": pages.tournament_facts(tournament),
                        "awaiting": awaiting}


def tournament(request, slug):
    """The tournament: its settings in words, the current round at a glance, the top of the standings."""
    tournament, ctx = _tournament_context(request, slug, "overview")
    rnd = pages.current_round(tournament)
    ctx["current"] = pages.round_tables(rnd, tournament) if rnd else None
    ctx["standings"] = pages.standings(tournament)
    if (getattr(tournament, "stage_count", None) or 0) > 1:  # a line a stage in "About"; nothing read for one stage
        stages_list = pages_stages.stages_of(tournament)
        ctx["stage_lines"] = stage_lines(tournament, [s["stage"] for s in stages_list])
        ctx["awaiting"] = pages_stages.awaiting_close(tournament, stages_list)
    else:
        ctx["awaiting"] = None
        ctx["event_rounds"] = event_rounds(tournament)  # a round robin's from its teams (one query, for it alone)
    return render(request, "web/tournament.html", ctx)


def standings(request, slug):
    if (unchanged := _visitor_not_modified(request, slug, versions.standings_keys)) is not None:
        return unchanged
    tournament, ctx = _tournament_context(request, slug, "standings")

    def fill(ctx):
        ctx["region"] = regions.region_html("standings", tournament.pk, request.LANGUAGE_CODE, stamp=ctx["live_stamp"],
                                            tournament=tournament)

    return _live_page(request, "web/standings.html", ctx, versions.standings_keys(tournament.pk), fill)


def clubs(request, slug):
    tournament, ctx = _tournament_context(request, slug, "clubs")
    ctx["standings"] = pages.standings(tournament)
    return render(request, "web/clubs.html", ctx)


def rounds(request, slug, number=None, stage=1):
    """A round's tables (the current round by default), with links to the others; ``stage``: the stage whose
    round ``number`` it is (``/stages/<s>/rounds/<n>/``; ``/rounds/<n>/`` is stage 1's)."""
    if (unchanged := _visitor_not_modified(request, slug, versions.results_keys)) is not None:
        return unchanged
    tournament, ctx = _tournament_context(request, slug, "rounds")
    if not tournament.current_round:  # no round yet: nothing live
        if number:
            raise Http404
        ctx.update(rounds=[], round=None)
        return render(request, "web/rounds.html", ctx)

    def fill(ctx):
        all_rounds = pages.rounds_of(tournament)
        rnd = pages.round_or_404(tournament, number, stage) if number else all_rounds[-1]
        ctx.update(rounds=all_rounds, round=rnd,
                   region=regions.region_html("round", rnd.pk, request.LANGUAGE_CODE, stamp=ctx["live_stamp"], rnd=rnd,
                                                  tournament=tournament))

    return _live_page(request, "web/rounds.html", ctx, versions.results_keys(tournament.pk), fill)


def teams(request, slug):
    tournament, ctx = _tournament_context(request, slug, "teams")
    if tournament.is_individual:
        return redirect("web:players", slug)
    ctx["entries"] = pages.entries(tournament)
    return render(request, "web/teams.html", ctx)


def team(request, slug, team_id):
    tournament, ctx = _tournament_context(request, slug, "teams")
    ctx.update(pages.team_page(tournament, team_id))
    return render(request, "web/team.html", ctx)


def match(request, slug, match_id):
    def keys(tournament_id):
        return versions.scoreboard_keys(match_id, tournament_id)

    if (unchanged := _visitor_not_modified(request, slug, keys)) is not None:
        return unchanged
    tournament, ctx = _tournament_context(request, slug, "rounds")

    def fill(ctx):
        board = pages.match_board(tournament, match_id)
        ctx.update(board=board, region=regions.region_html("match", match_id, request.LANGUAGE_CODE,
                                                                      stamp=ctx["live_stamp"], board=board))
        if board["individual"]:  # the round's clock, polled slowly (a socket would hear every hand of the event)
            ctx["clock_region"] = regions.region_html("clock", board["match"].round_id, request.LANGUAGE_CODE,
                                                      rnd=board["match"].round, tournament=tournament)

    return _live_page(request, "web/match.html", ctx, keys(tournament.pk), fill)


def wall(request, slug):
    """The hall's projector: large type, the current round's tables and the standings in turn, kept live."""
    if (unchanged := _visitor_not_modified(request, slug, versions.wall_keys)) is not None:
        return unchanged
    tournament = pages.tournament_or_404(request.user, slug)
    seconds = request.GET.get("seconds", "")
    # isdigit() would let "²" through to int(), and int() refuses more than 4,300 digits: both a 500.
    seconds = int(seconds) if seconds.isascii() and seconds.isdigit() and len(seconds) <= 4 else 15
    ctx = {"tournament": tournament, "seconds": max(5, min(120, seconds))}
    # ?show=names: a second screen (by the door) that keeps to the names of an individual event's round.
    if tournament.is_individual and request.GET.get("show") in ("names", "tables", "standings"):
        ctx["only"] = request.GET["show"]

    def fill(ctx):
        ctx["region"] = regions.region_html("wall", tournament.pk, request.LANGUAGE_CODE, stamp=ctx["live_stamp"],
                                            tournament=tournament)

    return _live_page(request, "web/wall.html", ctx, versions.wall_keys(tournament.pk), fill)


def stages(request, slug, number=None):
    """The event's stages as tabs: a stage's rules, its rounds (one at a time) and, for a knockout, its bracket.

    Without a number: the running stage (else the last one started, else stage 1). A one-stage knockout event
    shows its bracket here too.
    """
    tournament, ctx = _tournament_context(request, slug, "stages")
    stages_list = pages_stages.stages_of(tournament)
    if number is None:
        started = [s for s in stages_list if s["stage"].status != "pending"]
        running = [s for s in started if s["stage"].status == "running"]
        current = (running or started[-1:] or stages_list[:1])[0]
    else:
        current = pages_stages.stage_or_404(stages_list, number)
    stage = current["stage"]
    rounds_list = pages_stages.stage_rounds(stage)
    ctx["awaiting"] = pages_stages.awaiting_close(tournament, stages_list)
    pages_stages.mark_awaiting(stages_list, ctx["awaiting"])
    ctx.update(stages=stages_list, current=current, rounds=rounds_list, multi=len(stages_list) > 1)
    if stage.format == "knockout":
        ctx["bracket"] = pages_stages.bracket(tournament, stage)
    if stage.status != "pending":
        ctx["standings"] = pages_stages.stage_standings(tournament, stage)
    else:  # who qualified, once the stage before has closed
        ctx["qualifiers"] = pages_stages.qualifiers(tournament, stage, stages_list)
    if stage.format != "knockout":
        wanted = request.GET.get("round", "")
        rnd = next((r for r in rounds_list if str(r.number) == wanted), rounds_list[-1] if rounds_list else None)
        ctx["round"] = rnd
        ctx["tables"] = pages.round_tables(rnd, tournament) if rnd else None
    return render(request, "web/stages.html", ctx)


def event_ranking(request, slug):
    """A multi-stage event's ranking: by the stage reached, then that stage's rank, each entrant's path."""
    tournament, ctx = _tournament_context(request, slug, "stages")
    stages_list = pages_stages.stages_of(tournament)
    if len(stages_list) < 2:
        raise Http404
    ctx["awaiting"] = pages_stages.awaiting_close(tournament, stages_list)
    pages_stages.mark_awaiting(stages_list, ctx["awaiting"])
    ctx.update(stages=stages_list, multi=True, ranking=pages_stages.event_ranking(tournament, stages_list),
               current=None)
    return render(request, "web/stages_ranking.html", ctx)


def variant(request, slug):
    return render(request, "web/variant.html", pages.variant_page(slug))


def variants(request):
    from scoring import VARIANTS

    return render(request, "web/variants.html", {"variants": VARIANTS.values()})



# -- individual events ---------------------------------------------------------------------------------------------


def _individual_context(request, slug, tab):
    tournament, ctx = _tournament_context(request, slug, tab)
    if not tournament.is_individual:
        raise Http404
    return tournament, ctx


def seat(request, slug, number=None, stage=1):
    """Where do I sit: a player types a few letters of their name (or their start number) and sees their table,
    seat, partner and opponents in the round (the current one at /t/<slug>/seat/). A GET form; the page's script
    asks for the results alone (``?partial=1``) as the player types."""
    tournament, ctx = _individual_context(request, slug, "seat")
    rnd = pages.round_or_404(tournament, number, stage) if number else pages.current_round(tournament)
    if rnd is None:
        ctx.update(round=None, q="", rounds=[])
        return render(request, "web/seat.html", ctx)
    ctx.update(pages_individual.seat_page(rnd, tournament, request.GET.get("q", "")), current=number is None)
    if request.GET.get("partial"):
        return render(request, "web/_seat_results.html", ctx)
    ctx["rounds"] = pages.rounds_of(tournament)
    ctx["clock_region"] = regions.region_html("clock", rnd.pk, request.LANGUAGE_CODE, rnd=rnd, tournament=tournament)
    return render(request, "web/seat.html", ctx)


def players(request, slug):
    """The players entered in an individual event, by start number, with their clubs."""
    tournament, ctx = _tournament_context(request, slug, "players")
    if not tournament.is_individual:
        return redirect("web:teams", slug)
    ctx["entries"] = pages_individual.players(tournament)
    return render(request, "web/players.html", ctx)


def player(request, slug, player_id):
    """A player's evening in an individual event: each round's table, seat, partner, opponents, scores, result."""
    tournament, ctx = _individual_context(request, slug, "players")
    ctx.update(pages_individual.player_page(tournament, player_id))
    return render(request, "web/player.html", ctx)
