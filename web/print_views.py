"""Printable pages: standings and round pairings on A4, a score sheet per table with a QR code, each also as a PDF.

The PDF views render the same templates as the print pages through WeasyPrint. Its assets come from the
static files on disk (``_local_fetcher``): a PDF never waits on the network.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from tournaments import access, vocabulary
from tournaments.models import Match, Round
from tournaments.selectors.seats import (
    cycle_format,
    cycle_round,
    cycle_tables,
    folded,
    round_seating,
)

from . import pages, pages_individual, pages_stages, round_names

#: A game played to a target gets a row for every this many points of it (a Belgian game to 101: 21 rows;
#: the demo's longest ran to 17 hands), and never fewer than MIN_ROWS; a game of a fixed number of rounds
#: gets exactly its deals. Each game has its own grid, kept whole on a page; a match's games continue on
#: the next page when they do not fit one (print.css).
POINTS_PER_ROW = 5
MIN_ROWS = 12


def rows_per_game(target: int | None, deals: int | None, tiebreak_deals: int | None = None) -> int:
    """The hand rows a game needs on paper: its deals when it has a fixed number of them (a game of rounds of
    four: its rounds' deals), with a block of tie-break deals when a level game plays them, else room for a
    long game to its target."""
    if target is None and deals:
        return deals + (tiebreak_deals or 0)
    return max(MIN_ROWS, -(-(target or 0) // POINTS_PER_ROW))


# -- standings and rounds -----------------------------------------------------------------------------------


def _standings_context(request, slug: str) -> dict:
    tournament = pages.tournament_or_404(request.user, slug)
    return {"tournament": tournament, "facts": pages.tournament_facts(tournament),
            "standings": pages.standings(tournament),
            "pdf_url": reverse("web:standings-pdf", args=[slug]),
            "back_url": _reverse("web:standings", slug)}


def bracket_print(request, slug, number):
    """A knockout stage's bracket on A4 (scaled to the page's width; landscape for a bracket of 32 or more)."""
    tournament = pages.tournament_or_404(request.user, slug)
    stages = pages_stages.stages_of(tournament)
    stage = pages_stages.stage_or_404(stages, number)
    if stage["stage"].format != "knockout":
        raise Http404
    drawn = pages_stages.bracket(tournament, stage["stage"], element_id="bracket-print", wrap=True)
    # The stage's own format and match length, not stage 1's (the tournament's).
    facts = pages.round_facts(tournament, Round(tournament=tournament, stage=stage["stage"], number=1))
    return render(request, "web/print/bracket.html", {
        "tournament": tournament, "facts": facts, "stage": stage, "bracket": drawn,
        "heading": stage["name"] if len(stages) > 1 else _("Bracket"),
        "back_url": _reverse("web:stage", slug, number)})


def standings_print(request, slug):
    """The standings on A4: every team with its results and tiebreaks, then the clubs."""
    return render(request, "web/print/standings.html", _standings_context(request, slug))


def standings_pdf(request, slug):
    """The standings as a PDF download."""
    ctx = _standings_context(request, slug)
    return _pdf(request, "web/print/standings.html", ctx, f"{slug}-standings.pdf")


def _round_context(request, slug: str, number: int, stage: int) -> dict:
    """Round ``number`` of stage ``stage`` (``/rounds/<n>/print/`` is stage 1's, as the round pages)."""
    tournament = pages.tournament_or_404(request.user, slug)
    rnd = pages.round_or_404(tournament, number, stage, user=request.user)  # organizers print it before publishing
    return {"tournament": tournament, "facts": pages.round_facts(tournament, rnd),
            "tables": pages.round_tables(rnd, tournament),
            "pdf_url": round_names.round_url(slug, rnd, "pdf"),
            "sheets_url": round_names.round_url(slug, rnd, "sheets"),
            "seats_url": round_names.round_url(slug, rnd, "seats-print") if tournament.is_individual else "",
            "back_url": round_names.round_url(slug, rnd)}


def _file_name(slug: str, rnd, what: str = "") -> str:
    """A round's PDF's name: ``slug-round-2``, a later stage's ``slug-stage-2-round-1``, then ``-what``."""
    stage = round_names.stage_number(rnd)
    return "-".join([slug, *([f"stage-{stage}"] if stage > 1 else []), f"round-{rnd.number}", *filter(None, [what])])


def round_print(request, slug, number, stage=1):
    """A round's pairings on A4: table, teams and clubs, result so far; the bye."""
    return render(request, "web/print/round.html", _round_context(request, slug, number, stage))


def round_pdf(request, slug, number, stage=1):
    """A round's pairings as a PDF download."""
    ctx = _round_context(request, slug, number, stage)
    return _pdf(request, "web/print/round.html", ctx, _file_name(slug, ctx["tables"]["round"]) + ".pdf")


# -- score sheets ---------------------------------------------------------------------------------------------


def _sheet_matches(rnd) -> list[Match]:
    """Return the round's played tables (no byes) with teams, clubs and players, in one query."""
    return list(Match.objects.filter(round=rnd, ew__isnull=False)
                .select_related("ns__club", "ns__player_1", "ns__player_2",
                                "ew__club", "ew__player_1", "ew__player_2")
                .order_by("table"))


def _game_facts(tournament, rnd) -> dict:
    """Return what every sheet of the round says about the game: variant, best of (its stage's), target, grid."""
    from tournaments.services.lengths import length_of

    variant = tournament.variant_obj
    rules = variant.rules(tournament.options or {})  # the house options resolved: a fixed number of deals
    target, deals, tiebreak = rules.target, rules.deals, rules.tiebreak_deals
    # A game of rounds of four deals (Classic Malilla) says its rounds; any other fixed number says its deals.
    rounds = rules.options.get("rounds") if target is None and "rounds" in variant.options else None
    best_of = length_of(rnd).best_of
    grids = list(range(1, best_of + 1))
    rows = range(1, rows_per_game(target, deals, tiebreak) + 1)
    return {"variant": variant, "best_of": best_of, "target": target, "rounds": rounds, "deals": deals,
            "tiebreak_deals": tiebreak,
            "wins_needed": best_of // 2 + 1, "grids": grids, "rows": rows, "games": range(1, best_of + 1),
            "turned": variant.trump_mode == "turned"}


def _sheet(request, tournament, match: Match, show_codes: bool = False, personal: dict | None = None) -> dict:
    """A team match's sheet: its table code for the event's organizers and scorekeepers (``show_codes``), each
    player's personal code for its directors (``personal``, see ``_personal_codes``)."""
    url = request.build_absolute_uri(reverse("web:match", args=[tournament.slug, match.pk]))
    personal = personal or {}
    sides = [(*vocabulary.SIDES[key], team, [personal.get(p.pk, "") for p in (team.player_1, team.player_2) if p])
             for key, team in (("ns", match.ns), ("ew", match.ew))]
    return {"match": match, "url": url, "qr": _qr_svg(url), "sides": sides,
            "code": match.table_code if show_codes else ""}


def _team_sheets(request, tournament, matches: list[Match]) -> dict:
    """The sheets of a team event's matches and what they print: codes only for those who may see them."""
    show_codes = access.can_keep_score(request.user, tournament.pk)
    personal = _personal_codes(request, tournament, [p.pk for m in matches for t in (m.ns, m.ew) if t is not None
                                                     for p in (t.player_1, t.player_2) if p is not None])
    return {"sheets": [_sheet(request, tournament, m, show_codes, personal) for m in matches],
            "show_codes": show_codes, "show_personal": bool(personal),
            "door_url": request.build_absolute_uri(reverse("ws:table-code", args=[tournament.slug]))}


def _qr_svg(url: str) -> str:
    import segno  # here: only the sheets need it

    # Inline SVG, no file to serve; error level M survives a coffee stain on the printed sheet.
    return segno.make(url, error="m", micro=False).svg_inline(scale=3, border=2)


def _sheets_context(request, slug: str, number: int, stage: int) -> dict:
    tournament = pages.tournament_or_404(request.user, slug)
    rnd = pages.round_or_404(tournament, number, stage, user=request.user)  # organizers print it before publishing
    if tournament.is_individual:
        return _individual_sheets_context(request, tournament, rnd)
    return {"tournament": tournament, "round": rnd, "game": _game_facts(tournament, rnd),
            **_team_sheets(request, tournament, _sheet_matches(rnd)),
            "pdf_url": round_names.round_url(slug, rnd, "sheets-pdf"),
            "back_url": round_names.round_url(slug, rnd)}


def round_sheets(request, slug, number, stage=1):
    """A score sheet for every table of a round, one per A4 page."""
    ctx = _sheets_context(request, slug, number, stage)
    return render(request, ctx.get("template", "web/print/sheets.html"), ctx)


def round_sheets_pdf(request, slug, number, stage=1):
    """The score sheets of a round as one PDF download, a page per table."""
    ctx = _sheets_context(request, slug, number, stage)
    return _pdf(request, ctx.get("template", "web/print/sheets.html"), ctx,
                _file_name(slug, ctx["round"], "sheets") + ".pdf")


def _match_sheet_context(request, slug: str, match_id: int) -> dict:
    tournament = pages.tournament_or_404(request.user, slug)
    board = pages.match_board(tournament, match_id, request.user)
    match = board["match"]
    if match.is_bye:
        raise Http404  # a bye is not played: no sheet
    if tournament.is_individual:
        ctx = _individual_sheets_context(request, tournament, match.round, only=match.pk)
        return {**ctx, "table": match.table, "pdf_url": _reverse("web:match-sheet-pdf", slug, match_id),
                "back_url": _reverse("web:match", slug, match_id)}
    return {"table": match.table, "tournament": tournament, "round": match.round,
            "game": _game_facts(tournament, match.round),
            **_team_sheets(request, tournament, [match]),
            "pdf_url": _reverse("web:match-sheet-pdf", slug, match_id),
            "back_url": _reverse("web:match", slug, match_id)}


def match_sheet(request, slug, match_id):
    """The score sheet of one table."""
    ctx = _match_sheet_context(request, slug, match_id)
    return render(request, ctx.get("template", "web/print/sheets.html"), ctx)


def match_sheet_pdf(request, slug, match_id):
    """The score sheet of one table as a PDF download."""
    ctx = _match_sheet_context(request, slug, match_id)
    return _pdf(request, ctx.get("template", "web/print/sheets.html"), ctx,
                _file_name(slug, ctx["round"], f"table-{ctx['table']}") + ".pdf")


# -- individual events: the door's list, the sheets of a table of four ------------------------------------------------

#: Hand rows a round of a cycle gets on its table's sheet (three rounds on one A4 page), and a round alone.
CYCLE_ROWS = 11
ROUND_ROWS = 34
CYCLE_LETTERS = "ABCD"


def _personal_codes(request, tournament, players) -> dict[int, str]:
    """The players' personal codes (``{player id: code}``, made for those without one) when the tournament's results
    wait for the opponents' confirmation and the visitor directs it (its organizers, its directors, staff);
    nothing for anyone else: a code proves who confirms a result, so it is never on a page others can print."""
    from tournaments.services.confirmation import confirming, personal_codes

    if not confirming(tournament) or not access.is_director(request.user, tournament.pk):
        return {}
    return personal_codes(tournament, players)


def _letter(name: str) -> str:
    first = folded(name)[:1].upper()
    return first if first.isalpha() else "#"


def _seats_context(request, slug: str, number: int, stage: int) -> dict:
    tournament = pages.tournament_or_404(request.user, slug)
    if not tournament.is_individual:
        raise Http404
    rnd = pages.round_or_404(tournament, number, stage, user=request.user)  # organizers print it before publishing
    seating = round_seating(rnd)
    codes = _personal_codes(request, tournament, [row.player.pk for row in seating["rows"]])
    groups: list[dict] = []
    for row in seating["rows"]:
        letter = _letter(row.player.name)
        if not groups or groups[-1]["letter"] != letter:
            groups.append({"letter": letter, "rows": []})
        groups[-1]["rows"].append((row, codes.get(row.player.pk, "")))
    url = request.build_absolute_uri(reverse("web:seat", args=[slug]))
    return {"tournament": tournament, "facts": pages.tournament_facts(tournament), "round": rnd, "groups": groups,
            "players": len(seating["rows"]), "seat_url": url, "qr": _qr_svg(url), "show_personal": bool(codes),
            "pdf_url": round_names.round_url(slug, rnd, "seats-pdf"),
            "back_url": round_names.round_url(slug, rnd, "seat")}


def seats_print(request, slug, number, stage=1):
    """The door's list of an individual event's round: every player in alphabetical order with table and seat, A4."""
    return render(request, "web/print/seats.html", _seats_context(request, slug, number, stage))


def seats_pdf(request, slug, number, stage=1):
    """The door's list as a PDF download."""
    ctx = _seats_context(request, slug, number, stage)
    return _pdf(request, "web/print/seats.html", ctx, _file_name(slug, ctx["round"], "seats") + ".pdf")


def _cycle_sheet(request, tournament, rnd, table, show_codes: bool, personal: dict[int, str]) -> dict:
    """One table's sheet: its four players lettered A-D (A seated, N, keeping the score), then each round of the
    cycle: the partnerships with their seats (A+B v C+D, A+C v B+D, A+D v B+C), its table code, its grid."""
    url = request.build_absolute_uri(reverse("web:match", args=[tournament.slug, table.match_id]))
    letter_of = {p.player.pk: CYCLE_LETTERS[i] for i, p in enumerate(table.players) if p is not None}
    rounds = []
    for r in table.rounds:
        def side(seats, r=r):
            return [{"letter": letter_of.get(p.player.pk, "?"), "seat": seat, "row": p}
                    for seat in seats if (p := r.seats.get(seat)) is not None]
        ns, ew = side("NS"), side("EW")
        rounds.append({"number": r.number, "current": r.number == rnd.number, "drawn": r.drawn,
                       "code": r.table_code if show_codes else "", "ns": ns, "ew": ew,
                       "ns_letters": "+".join(p["letter"] for p in ns), "ew_letters": "+".join(p["letter"] for p in ew)})
    return {"table": table, "url": url, "qr": _qr_svg(url), "rounds": rounds, "first": rounds[0]["number"],
            "last": rounds[-1]["number"],
            "players": [{"letter": CYCLE_LETTERS[i], "row": p,
                         "code": personal.get(p.player.pk, "") if p is not None else ""}
                        for i, p in enumerate(table.players)]}


def _individual_sheets_context(request, tournament, rnd, only: int | None = None) -> dict:
    """The sheets of an individual event's round: one a table with its whole cycle. A table's code binds a phone to
    its match: printed for the event's organizers and scorekeepers only, a box to fill in for anyone else."""
    show_codes = access.can_keep_score(request.user, tournament.pk)
    tables = [t for t in cycle_tables(rnd, tournament) if only is None or t.match_id == only]
    rows = CYCLE_ROWS if cycle_format(tournament, rnd.stage) == "tables" else ROUND_ROWS  # the round's stage's
    personal = _personal_codes(request, tournament, [p.player.pk for t in tables for p in t.players if p is not None])
    return {"template": "web/print/sheets_individual.html", "tournament": tournament, "round": rnd,
            "facts": pages.tournament_facts(tournament),
            "length": pages_individual.match_length_words(tournament, rnd.stage), "show_codes": show_codes,
            # A later stage's sheet says its stage: its rounds count from 1 again, as stage 1's did.
            "stage_name": pages_stages.stage_name(rnd.stage, 0) if round_names.stage_number(rnd) > 1 else "",
            "cycle": cycle_round(tournament, rnd.number, rnd.stage), "rows": range(1, rows + 1),
            "sheets": [_cycle_sheet(request, tournament, rnd, t, show_codes, personal) for t in tables],
            "show_personal": bool(personal),
            "pdf_url": round_names.round_url(tournament.slug, rnd, "sheets-pdf"),
            "back_url": round_names.round_url(tournament.slug, rnd)}


def _reverse(name: str, *args) -> str:
    return reverse(name, args=args)


# -- PDF -----------------------------------------------------------------------------------------------------


def _pdf(request, template: str, ctx: dict, filename: str) -> HttpResponse:
    """Render a print template to a PDF attachment; 503 when WeasyPrint cannot load (no pango)."""
    try:
        import weasyprint  # here: the rest of the site runs without pango
    except (ImportError, OSError):
        return HttpResponse(
            format_html("<!DOCTYPE html><title>{title}</title><h1>{title}</h1><p>{text}</p>",
                        title=_("PDF unavailable"),
                        text=_("This server cannot make PDF files at the moment. "
                               "Use the print page and your browser's “Save as PDF” instead.")),
            status=503, content_type="text/html; charset=utf-8")
    html = render_to_string(template, {**ctx, "pdf": True}, request=request)
    base_url = request.build_absolute_uri("/")
    document = weasyprint.HTML(string=html, base_url=base_url, url_fetcher=_local_fetcher(base_url))
    response = HttpResponse(document.write_pdf(), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _local_fetcher(base_url: str):
    """Return a WeasyPrint URL fetcher that serves the static files from disk, data: URLs, and nothing else."""
    static_prefix = urlsplit(base_url)._replace(path="").geturl() + _static_path()

    def local(url: str) -> bytes:
        body = _static_file(urlsplit(url).path[len(_static_path()):]) if url.startswith(static_prefix) else None
        if body is None:
            raise ValueError(f"not fetched for a PDF: {url}")
        return body

    try:
        from weasyprint.urls import URLFetcher, URLFetcherResponse
    except ImportError:  # WeasyPrint before the URLFetcher class: a function answering a dict
        from weasyprint.urls import default_url_fetcher

        def fetch(url, *args, **kwargs):
            if url.startswith("data:"):
                return default_url_fetcher(url, *args, **kwargs)
            return {"string": local(url), "mime_type": _mime(url), "redirected_url": url}

        return fetch

    class LocalFetcher(URLFetcher):
        def fetch(self, url, headers=None):
            if url.startswith("data:"):
                return super().fetch(url, headers)
            return URLFetcherResponse(url, local(url), {"Content-Type": _mime(url)})

    return LocalFetcher(allowed_protocols=("data",))


def _static_file(name: str) -> bytes | None:
    """Return a static file's bytes: from the apps' static folders (development) or the collected files."""
    path = finders.find(name)
    if path:
        with open(path, "rb") as f:
            return f.read()
    if staticfiles_storage.exists(name):
        with staticfiles_storage.open(name) as f:
            return f.read()
    return None


def _static_path() -> str:
    path = urlsplit(settings.STATIC_URL).path
    return path if path.startswith("/") else "/" + path


def _mime(name: str) -> str:
    import mimetypes

    return mimetypes.guess_type(urlsplit(name).path)[0] or "application/octet-stream"
