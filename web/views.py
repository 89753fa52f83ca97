"""The public site: one view a page, each reading through ``web.pages`` (and so the selectors of ``tournaments``)."""

from django.core.paginator import Paginator
from django.db.models import Case, IntegerField, Value, When
from django.http import HttpResponseNotModified
from django.shortcuts import render
from django.utils.cache import patch_cache_control, patch_vary_headers

from . import pages, regions

STATUS_ORDER = Case(When(status="running", then=Value(0)), When(status="draft", then=Value(1)),
                    default=Value(2), output_field=IntegerField())


def _live_page(request, template, ctx):
    """Render a page built around a live region with an ETag derived from the region; 304 while it is unchanged."""
    region = ctx["region"]
    # The header names the signed-in user and its forms carry the CSRF secret (rotated at sign-in): a page sent
    # to another user, or to this browser before it signed in or out, is never answered 304.
    user = f"{request.user.pk}:{request.user.get_username()}" if request.user.is_authenticated else "0"
    user = f"{user}:{request.META.get('CSRF_COOKIE', '')}"
    t = ctx["tournament"]
    # The page around the region shows the tournament's header (status, round, settings): they count too.
    header = (t.name, t.status, t.current_round, t.rounds, t.best_of, t.variant, t.options, t.club_id, t.starts_on)
    etag = regions.etag_of(f"{region['etag']}|{request.path}|{request.GET.urlencode()}|{user}|{header!r}",
                           request.LANGUAGE_CODE)
    if regions.etag_matches(request, etag):
        response = HttpResponseNotModified()
    else:
        response = render(request, template, ctx)
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


def home(request):
    """Running, upcoming and finished tournaments, searchable by name, club, city or variant."""
    q = request.GET.get("q", "").strip()[:100]
    status = request.GET.get("status", "")
    qs = pages.tournaments_for(request.user)
    if q:
        qs = pages.search(qs, q)
    if status in ("running", "draft", "finished"):
        qs = qs.filter(status=status)
    qs = qs.order_by(STATUS_ORDER, "-starts_on", "-created_at", "name")
    page = Paginator(qs, 20).get_page(request.GET.get("page"))
    return render(request, "web/home.html", {"page": page, "q": q, "status": status,
                                             "statuses": pages.labels.TOURNAMENT_STATUS})


def _tournament_context(request, slug, tab):
    tournament = pages.tournament_or_404(request.user, slug)
    return tournament, {"tournament": tournament, "tab": tab, "facts": pages.tournament_facts(tournament)}


def tournament(request, slug):
    """The tournament: its settings in words, the current round at a glance, the top of the standings."""
    tournament, ctx = _tournament_context(request, slug, "overview")
    rnd = pages.current_round(tournament)
    ctx["current"] = pages.round_tables(rnd) if rnd else None
    ctx["standings"] = pages.standings(tournament)
    return render(request, "web/tournament.html", ctx)


def standings(request, slug):
    tournament, ctx = _tournament_context(request, slug, "standings")
    ctx["region"] = regions.region_html("standings", tournament.pk, request.LANGUAGE_CODE, tournament=tournament)
    return _live_page(request, "web/standings.html", ctx)


def clubs(request, slug):
    tournament, ctx = _tournament_context(request, slug, "clubs")
    ctx["standings"] = pages.standings(tournament)
    return render(request, "web/clubs.html", ctx)


def rounds(request, slug, number=None):
    """A round's tables (the current round by default), with links to the others."""
    tournament, ctx = _tournament_context(request, slug, "rounds")
    all_rounds = pages.rounds_of(tournament)
    rnd = pages.round_or_404(tournament, number) if number else (all_rounds[-1] if all_rounds else None)
    ctx["rounds"] = all_rounds
    ctx["round"] = rnd
    if rnd:
        ctx["region"] = regions.region_html("round", rnd.pk, request.LANGUAGE_CODE, rnd=rnd)
        return _live_page(request, "web/rounds.html", ctx)
    return render(request, "web/rounds.html", ctx)


def teams(request, slug):
    tournament, ctx = _tournament_context(request, slug, "teams")
    ctx["entries"] = pages.entries(tournament)
    return render(request, "web/teams.html", ctx)


def team(request, slug, team_id):
    tournament, ctx = _tournament_context(request, slug, "teams")
    ctx.update(pages.team_page(tournament, team_id))
    return render(request, "web/team.html", ctx)


def match(request, slug, match_id):
    tournament, ctx = _tournament_context(request, slug, "rounds")
    board = pages.match_board(tournament, match_id)
    ctx["board"] = board
    ctx["region"] = regions.region_html("match", match_id, request.LANGUAGE_CODE, board=board)
    return _live_page(request, "web/match.html", ctx)


def wall(request, slug):
    """The hall's projector: large type, the current round's tables and the standings in turn, kept live."""
    tournament = pages.tournament_or_404(request.user, slug)
    seconds = request.GET.get("seconds", "")
    ctx = {"tournament": tournament,
           "region": regions.region_html("wall", tournament.pk, request.LANGUAGE_CODE, tournament=tournament),
           "seconds": max(5, min(120, int(seconds))) if seconds.isdigit() else 15}
    return _live_page(request, "web/wall.html", ctx)


def variant(request, slug):
    return render(request, "web/variant.html", pages.variant_page(slug))


def variants(request):
    from scoring import VARIANTS

    return render(request, "web/variants.html", {"variants": VARIANTS.values()})

