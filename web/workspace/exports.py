"""The organizer's CSV exports of one tournament: its entries, every match's result, the standings.

A team event's rows name its teams; an individual event's its players, with their start numbers and seats (a
round sat out says so). Each file opens in a spreadsheet with its accents right (a BOM) and its headers in the
organizer's language.
"""

from __future__ import annotations

import csv

from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments import vocabulary
from tournaments.models import Entry, Tournament
from tournaments.selectors.entries import tournament_results
from tournaments.selectors.seats import SIDE_SEATS, player_seats, players_of_matches
from tournaments.selectors.standings import standings_for
from web import pages_stages, round_names

from .organize_common import organizer_view


def _csv_response(filename: str) -> tuple[HttpResponse, csv.writer]:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")  # a BOM, so spreadsheets read the names' accents right
    return response, csv.writer(response)


def _start_numbers(tournament: Tournament) -> dict[int, int | None]:
    return dict(Entry.objects.filter(tournament=tournament, player__isnull=False)
                .values_list("player_id", "start_number"))


def _yes(value: bool) -> str:
    return _("yes") if value else ""


@require_GET
@organizer_view
def export_entries(request, tournament):
    """The entries as CSV: a team event's teams with their seeds and players; an individual event's players by
    start number, with their club, fixed table, reserve, withdrawal and their seat in every round."""
    response, out = _csv_response(f"{tournament.slug}-entries.csv")
    entries = (Entry.objects.filter(tournament=tournament)
               .select_related("team__club", "team__player_1", "team__player_2", "player__club", "replaces__player"))
    withdrawn = [_("Withdrawn"), _("After round")]
    if not tournament.is_individual:
        out.writerow([_("Seed"), _("Team"), _("Club"), _("Player 1"), _("Player 2"), *withdrawn])
        for e in entries.order_by("seed", "team__name"):
            out.writerow([e.seed or "", e.team.name, e.team.club.name, e.team.player_1.name, e.team.player_2.name,
                          _yes(e.withdrawn), e.withdrawn_after_round if e.withdrawn else ""])
        return response
    # A column a round, stage by stage (round numbers count per stage): "Round 2", a later stage's "Stage 2, round 1".
    rounds = [(stage or 1, n) for stage, n in tournament.round_set.order_by("stage__number", "number")
              .values_list("stage__number", "number")]
    seats = player_seats(tournament)
    out.writerow([_("Start number"), _("Player"), _("Club"), _("Fixed table"), _("Reserve"), _("Replaces"),
                  *withdrawn, *(_("Round %(number)s") % {"number": n} if stage == 1
                                else _("Stage %(stage)s, round %(n)s") % {"stage": stage, "n": n}
                                for stage, n in rounds)])
    for e in entries.order_by("start_number", "id"):
        mine = seats.get(e.player_id, {})
        out.writerow([e.start_number or "", e.player.name, e.player.club.name if e.player.club_id else "",
                      e.fixed_table or "", _yes(e.reserve), e.replaces.player.name if e.replaces_id else "",
                      _yes(e.withdrawn), e.withdrawn_after_round if e.withdrawn else "",
                      *(_seat_cell(mine.get(n)) for n in rounds)])
    return response


def _seat_cell(seat: tuple[int | None, str] | None) -> str:
    """A player's place in a round: "Table 3, N", "sits out", or nothing (not in that round)."""
    if seat is None:
        return ""
    table, letter = seat
    if table is None:
        return _("sits out")
    return _("Table %(table)s, %(seat)s") % {"table": table, "seat": vocabulary.seat(letter)}


@require_GET
@organizer_view
def export_results(request, tournament):
    """Every match as a CSV row: round, table, both teams with their clubs (an individual event: each seat's player
    and start number), games and points won, the result."""
    response, out = _csv_response(f"{tournament.slug}-results.csv")
    if tournament.is_individual:
        return _individual_results(tournament, response, out)
    out.writerow([_("Round"), _("Table"), _("Team 1"), _("Club 1"), _("Team 2"), _("Club 2"),
                  _("Games 1"), _("Games 2"), _("Points 1"), _("Points 2"), _("Status"), _("Result"),
                  *_stage_headings()])
    matches = list(tournament_results(tournament=tournament))
    round_names.prime(m.round for m in matches)
    for m in matches:
        if m.is_bye:
            result = _("bye")
        elif m.winner == "draw":
            result = _("draw")
        elif m.winner:
            result = (m.ns if m.winner == "ns" else m.ew).name
        else:
            result = ""
        out.writerow([m.round.number, m.table, m.ns.name, m.ns.club.name, m.ew.name if m.ew else "",
                      m.ew.club.name if m.ew else "", m.games_won_ns, m.games_won_ew, m.points_ns, m.points_ew,
                      vocabulary.MATCH_STATUS.get(m.status, m.status), result, *_stage_cells(m)])
    return response


def _stage_headings() -> tuple[str, str]:
    return _("Stage"), _("Round name")


def _stage_cells(m) -> tuple[str, str]:
    """A match's stage (its number and format: "2 · Knockout") and its round's name ("Semi-finals", "Stage 2, round
    1"; the match for third place so named): the last columns, so that readers of the earlier ones are unchanged."""
    stage = m.round.stage
    where = f"{stage.number} · {pages_stages.format_name(stage.format)}" if stage is not None else "1"
    return where, round_names.round_name(m.round, m)


def _individual_results(tournament: Tournament, response: HttpResponse, out) -> HttpResponse:
    """An individual event's matches: the players of seats N, S (one side) and E, W (the other) with their start
    numbers, the games and points of each side, the winning partnership."""
    order = [seat for pair in SIDE_SEATS.values() for seat in pair]  # N, S, E, W
    sides = {side: vocabulary.side_name(side, short=True) for side in SIDE_SEATS}
    out.writerow([_("Round"), _("Table"),
                  *(h for seat in order for h in (vocabulary.seat(seat), _("%(seat)s no.") % {
                      "seat": vocabulary.seat(seat)})),
                  *(_("Games %(side)s") % {"side": sides[s]} for s in SIDE_SEATS),
                  *(_("Points %(side)s") % {"side": sides[s]} for s in SIDE_SEATS), _("Status"), _("Result"),
                  *_stage_headings()])
    matches = list(tournament_results(tournament=tournament))
    round_names.prime(m.round for m in matches)
    players, numbers = players_of_matches(matches), _start_numbers(tournament)
    for m in matches:
        seated = [p for side in SIDE_SEATS for p in players[m.pk][side]]
        cells = [c for p in seated for c in (p["name"], numbers.get(p["id"]) or "")]
        cells += [""] * (2 * len(order) - len(cells))
        if m.winner == "draw":
            result = _("draw")
        elif m.winner:
            result = " & ".join(p["name"] for p in players[m.pk][m.winner])
        else:
            result = ""
        out.writerow([m.round.number, m.table, *cells, m.games_won_ns, m.games_won_ew, m.points_ns, m.points_ew,
                      vocabulary.MATCH_STATUS.get(m.status, m.status), result, *_stage_cells(m)])
    return response


@require_GET
@organizer_view
def export_standings(request, tournament):
    """The standings as CSV: one row a team (an individual event: a player, with their start number) with every
    count and every tiebreak of the tournament."""
    data = standings_for(tournament)
    metrics = list(data["rows"][0]["tiebreaks"]) if data["rows"] else []
    response, out = _csv_response(f"{tournament.slug}-standings.csv")
    columns = {key: name for key, _short, name, _help in vocabulary.STANDINGS_COLUMNS}
    counts = [str(columns[key]) for key in ("played", "won", "drawn", "lost")]
    totals = [str(vocabulary.METRIC_LABELS[m][1])
              for m in ("match_points", "games_won", "games_lost", "points_for", "points_against")]
    who = [_("Start number"), _("Player"), _("Club")] if tournament.is_individual else [_("Team"), _("Club")]
    out.writerow([str(columns["rank"]), *who, *counts, *totals]
                 + [str(vocabulary.METRIC_LABELS[m][1]) if m in vocabulary.METRIC_LABELS else m for m in metrics])
    for r in data["rows"]:
        if tournament.is_individual:
            club = r["player_detail"]["club"]
            named = [r["start_number"] or "", r["player_detail"]["name"], club["name"] if club else ""]
        else:
            named = [r["team_detail"]["name"], r["team_detail"]["club"]["name"]]
        out.writerow([r["rank"], *named, r["played"], r["won"], r["drawn"], r["lost"], r["match_points"],
                      r["games_won"], r["games_lost"], r["points_for"], r["points_against"]]
                     + [r["tiebreaks"].get(m, "") for m in metrics])
    return response


@require_GET
@organizer_view
def export_ranking(request, tournament):
    """The event's ranking as CSV (a multi-stage event: by the stage reached, then that stage's rank): one row an
    entrant with its rank, the stage it reached and its rank there, and its counts in that stage. A one-stage event's
    ranking is its standings (stage 1)."""
    data = standings_for(tournament)
    response, out = _csv_response(f"{tournament.slug}-ranking.csv")
    columns = {key: name for key, _short, name, _help in vocabulary.STANDINGS_COLUMNS}
    counts = [str(columns[key]) for key in ("played", "won", "drawn", "lost")]
    totals = [str(vocabulary.METRIC_LABELS[m][1]) for m in ("match_points", "games_won", "points_for")]
    who = [_("Start number"), _("Player"), _("Club")] if tournament.is_individual else [_("Team"), _("Club")]
    out.writerow([str(columns["rank"]), *who, _("Stage reached"), _("Rank in that stage"), *counts, *totals])
    for r in data["rows"]:
        if tournament.is_individual:
            club = r["player_detail"]["club"]
            named = [r["start_number"] or "", r["player_detail"]["name"], club["name"] if club else ""]
        else:
            named = [r["team_detail"]["name"], r["team_detail"]["club"]["name"]]
        out.writerow([r["rank"], *named, r.get("stage", 1), r.get("stage_rank", r["rank"]), r["played"], r["won"],
                      r["drawn"], r["lost"], r["match_points"], r["games_won"], r["points_for"]])
    return response
