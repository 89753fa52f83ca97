"""The CSV exports of an individual event (``organize.export_results`` / ``export_standings`` call them): a match a
row with its four players by seat, and a player a row of the standings with their start number and club."""

from __future__ import annotations

import csv

from django.utils.translation import gettext as _

from tournaments import vocabulary
from tournaments.models import Entry, Match, Standing, StandingsSnapshot, Tournament
from tournaments.selectors.seats import players_of_matches

from .entry_logic import pair_name


def results_rows(tournament: Tournament, out: csv.writer) -> None:
    """Every match by round and table: its code, the four players by seat, games and points of each side."""
    out.writerow([_("Round"), _("Table"), _("Table code"), vocabulary.seat("N"), vocabulary.seat("S"),
                  vocabulary.seat("E"), vocabulary.seat("W"), _("Games %(side)s") % {"side": vocabulary.side_name("ns")},
                  _("Games %(side)s") % {"side": vocabulary.side_name("ew")},
                  _("Points %(side)s") % {"side": vocabulary.side_name("ns")},
                  _("Points %(side)s") % {"side": vocabulary.side_name("ew")}, _("Status"), _("Result")])
    matches = list(Match.objects.filter(round__tournament=tournament).select_related("round")
                   .order_by("round__number", "table"))
    players = players_of_matches(matches)
    for m in matches:
        sides = players.get(m.pk, {"ns": [], "ew": []})
        names = {side: [p["name"] for p in sides.get(side, [])] + ["", ""] for side in ("ns", "ew")}
        result = (_("draw") if m.winner == "draw" else pair_name(names[m.winner][:2]) if m.winner else "")
        out.writerow([m.round.number, m.table, m.table_code, names["ns"][0], names["ns"][1], names["ew"][0],
                      names["ew"][1], m.games_won_ns, m.games_won_ew, m.points_ns, m.points_ew,
                      vocabulary.MATCH_STATUS.get(m.status, m.status), result])


def standings_rows(tournament: Tournament, out: csv.writer) -> None:
    """The saved standings, a player a row: rank, start number, name, club, every count and tiebreak."""
    snapshot = StandingsSnapshot.objects.filter(tournament=tournament).first()
    metrics = list(snapshot.metrics) if snapshot else []
    numbers = dict(Entry.objects.filter(tournament=tournament, player__isnull=False)
                   .values_list("player_id", "start_number"))
    columns = {key: name for key, _short, name, _help in vocabulary.STANDINGS_COLUMNS}
    counts = [str(columns[key]) for key in ("played", "won", "drawn", "lost")]
    totals = [str(vocabulary.METRIC_LABELS[m][1])
              for m in ("match_points", "games_won", "games_lost", "points_for", "points_against")]
    out.writerow([str(columns["rank"]), _("Start number"), _("Player"), _("Club"), *counts, *totals]
                 + [str(vocabulary.METRIC_LABELS[m][1]) if m in vocabulary.METRIC_LABELS else m for m in metrics])
    for s in (Standing.objects.filter(tournament=tournament, player__isnull=False).select_related("player__club")
              .order_by("position")):
        out.writerow([s.rank, numbers.get(s.player_id, ""), s.player.name,
                      s.player.club.name if s.player.club_id else "", s.played, s.won, s.drawn, s.lost,
                      s.match_points, s.games_won, s.games_lost, s.points_for, s.points_against]
                     + [(s.tiebreaks or {}).get(m, "") for m in metrics])
