"""What the public pages of an individual event show, from the selectors of ``tournaments`` (seats, clock,
standings, players): a constant number of queries a page, whatever the number of players.

Players are named, never their partnership's team (there is none): a side is "An Peeters & Jan Claes", its
seats N and S (N the seated scorer) or E and W. A table's code binds a phone to its match for entry at the
table: it is never shown here (only organizers' prints carry it, ``web.print_views``).
"""

from __future__ import annotations

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from tournaments import vocabulary
from tournaments.models import Game, Match, Round, Stage, Tournament
from tournaments.selectors.clock import NOT_STARTED, OVER, PAUSED, RUNNING, round_clock
from tournaments.selectors.players import entered_player, entered_players
from tournaments.selectors.seats import SIDE_SEATS, player_evening, round_seating, seat_lookup
from tournaments.selectors.standings import individual_ranking, player_standing, player_standings_for
from tournaments.selectors.tables import round_matches
from tournaments.services.lengths import STAGE_LENGTH_FIELDS, length_from

#: A seat in full, as a player is told where to sit.
SEAT_NAMES = {"N": pgettext_lazy("seat", "North"), "E": pgettext_lazy("seat", "East"),
              "S": pgettext_lazy("seat", "South"), "W": pgettext_lazy("seat", "West")}
FORMATS = {"tables": gettext_lazy("Tables of four, partners rotating"), "swiss": gettext_lazy("Individual Swiss")}
#: Names a wall page lists (four columns of twelve on a projector); the door's print has its own pages.
NAMES_PER_PAGE = 48
#: Players "where do I sit" lists at most; more found: type more letters.
SEAT_LIMIT = 20
#: A standings metric shown in a column of its own, not again among the tiebreaks.
OWN_COLUMNS = ("match_points", "matches_won", "games_won", "points_for")


def seat_name(letter: str) -> str:
    return str(SEAT_NAMES.get(letter, letter))


def partnership(players) -> str:
    """Two players as one side: "An Peeters & Jan Claes" (SeatRows, or the selectors' ``{"name"}`` dicts)."""
    return " & ".join(p["name"] if isinstance(p, dict) else p.player.name for p in players if p is not None)


# -- the tournament's rules in words ----------------------------------------------------------------------------


def match_length_words(tournament: Tournament, stage: Stage | None = None) -> str:
    """How long a match lasts, in words: best of N, N games each counted, or M minutes and the rule at time; a
    later ``stage``'s own length (its columns; stage 1's are the event's)."""
    values = tuple(getattr(stage, f) for f in STAGE_LENGTH_FIELDS) if stage is not None and stage.number > 1 else None
    length = length_from(values, tournament)
    if length.kind == Tournament.MatchLength.TIMED:
        minutes = ngettext("%(n)s minute a round", "%(n)s minutes a round", length.minutes or 0) % {
            "n": length.minutes}
        if length.at_time == Tournament.AtTime.STOP:
            return _("%(minutes)s; at the end of time the game in play stops after the deal being played and "
                     "counts as it stands") % {"minutes": minutes}
        return _("%(minutes)s; at the end of time the game in play is played out") % {"minutes": minutes}
    if length.kind == Tournament.MatchLength.GAMES:
        return ngettext("%(n)s game, counted", "%(n)s games, each counted", length.games or 0) % {
            "n": length.games}
    return ngettext("one game", "best of %(n)s", length.best_of) % {"n": length.best_of}


def sit_out_words(tournament: Tournament) -> str:
    rule = tournament.sit_out_score
    if rule == Tournament.SitOutScore.NOTHING:
        return _("A player who sits a round out scores nothing for it.")
    if rule == Tournament.SitOutScore.FIXED:
        fixed = tournament.sit_out_fixed or {}
        return _("A player who sits a round out scores %(mp)s match points, %(games)s games won and %(points)s "
                 "points.") % {"mp": fixed.get("match_points", 0), "games": fixed.get("games_won", 0),
                               "points": fixed.get("points_for", 0)}
    return _("A player who sits a round out scores the round's mean of match points, games won and points, each "
             "rounded half up.")


def withdrawal_words(tournament: Tournament) -> str:
    if tournament.withdrawal == Tournament.Withdrawal.RESERVE:
        return _("A player who withdraws during a cycle is replaced by a reserve.")
    return _("When a player withdraws during a cycle, the others at their table sit its remaining rounds out.")


def club_ranking_words(tournament: Tournament) -> str:
    n = tournament.club_best_n
    if n:
        return ngettext(
            "Clubs are ranked by their best player's percentage of matches won; clubs whose players have not "
            "played come after. Players without a club are left out.",
            "Clubs are ranked by the mean of their %(n)s best players' percentages of matches won; clubs with "
            "fewer than %(n)s players who played come after. Players without a club are left out.", n) % {"n": n}
    return _("Clubs are ranked by the matches their players won out of the matches they played, all their players "
             "pooled (rounds sat out do not count). Players without a club are left out.")


def ranking_order(tournament: Tournament) -> list[str]:
    """The metric names that rank the event, in order (its format's keys, then its tiebreak list)."""
    return individual_ranking(tournament)


def ranking_words(tournament: Tournament) -> str:
    names = [str(vocabulary.METRIC_LABELS[m][1]).lower() for m in ranking_order(tournament)
             if m in vocabulary.METRIC_LABELS]
    return _("Ranked by %(order)s.") % {"order": _(", then ").join(names)}


def individual_facts(tournament: Tournament) -> dict:
    """The rules of an individual event in words, for its overview and its prints."""
    return {"format": FORMATS.get(tournament.format, tournament.format),
            "match_length": match_length_words(tournament), "sit_out": sit_out_words(tournament),
            "withdrawal": withdrawal_words(tournament), "clubs": club_ranking_words(tournament),
            "ranking": ranking_words(tournament)}


# -- the round: its clock, its tables, its sit-outs -------------------------------------------------------------


def clock_text(seconds: int | None) -> str:
    """Seconds as a clock shows them: 25:04, 1:05:00."""
    if seconds is None:
        return ""
    hours, rest = divmod(max(0, int(seconds)), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def clock_view(rnd: Round, tournament: Tournament) -> dict | None:
    """The round's clock for a page (``selectors.clock.round_clock``), or None when the event keeps no time.

    ``ends_ms``: when a running clock ends, in milliseconds since the epoch. The page's script counts down to
    it from the server's time (learnt from the ``Date`` of its live updates), never from a ``remaining`` a
    cached rendering would have frozen; ``remaining`` is the text the page opens with.
    """
    rnd.tournament = tournament  # the clock reads the event's minutes: no query for it
    clock = round_clock(rnd)
    if clock["status"] == NOT_STARTED and clock["minutes"] is None:
        return None
    ends = clock["ends_at"]
    return {**clock, "round": rnd.number, "text": clock_text(clock["remaining"]),
            "ends_ms": int(ends.timestamp() * 1000) if ends is not None and clock["status"] == RUNNING else None,
            "at_time": tournament.at_time if tournament.match_length == Tournament.MatchLength.TIMED else "",
            "running": clock["status"] == RUNNING, "paused": clock["status"] == PAUSED,
            "over": clock["status"] == OVER}


def _seat_words() -> dict[str, tuple[str, str]]:
    """Each seat's letter and name in the page's language, worked out once for a page of hundreds of players."""
    return {s: (vocabulary.seat(s), seat_name(s)) for s in "NESW"}


def seated(row, words: dict[str, tuple[str, str]]) -> dict:
    """A player's place (a ``SeatRow``) as a page lists it: name, id, start number, club, table, seat in words."""
    letter, name = words.get(row.seat, ("", ""))
    return {"id": row.player.pk, "name": row.player.name, "number": row.number, "club": row.club,
            "table": row.table, "seat": row.seat, "seat_letter": letter, "seat_name": name}


def _side(seats: dict, side: str, words) -> list:
    return [seated(seats[s], words) for s in SIDE_SEATS[side] if seats.get(s) is not None]


def round_view(rnd: Round, tournament: Tournament) -> dict:
    """A round of an individual event: each table's players by side and seat, the game in play and the result;
    the players sitting out; how many tables are finished; the clock. Four queries whatever the players."""
    seating = round_seating(rnd)
    words = _seat_words()
    tables = []
    for m in round_matches(rnd):
        games = list(m.games.all())
        game = games[-1] if games and games[-1].status == Game.Status.PLAYING and not m.decided_by else None
        seats = seating["tables"].get(m.pk, {})
        ns, ew = _side(seats, "ns", words), _side(seats, "ew", words)
        tables.append({"match": m, "status": vocabulary.MATCH_STATUS.get(m.status, m.status), "game": game,
                       "decided": vocabulary.MATCH_DECIDED_BY.get(m.decided_by),
                       "ns": ns, "ew": ew, "ns_name": partnership(ns), "ew_name": partnership(ew),
                       "sides": [("ns", ns, m.games_won_ns, game.total_ns if game else None),
                                 ("ew", ew, m.games_won_ew, game.total_ew if game else None)]})
    return {"round": rnd, "individual": True, "status": vocabulary.ROUND_STATUS.get(rnd.status, rnd.status),
            "matches": tables, "byes": [], "sitting_out": [seated(r, words) for r in seating["sitting_out"]],
            # Links built from one reversed prefix: a round of 136 tables reverses one URL, not 136 (nor 544).
            "match_url": reverse("web:match", args=[tournament.slug, 0])[:-2],
            "player_url": reverse("web:players", args=[tournament.slug]),
            "finished": sum(1 for t in tables if t["match"].status == Match.Status.FINISHED), "total": len(tables),
            "clock": clock_view(rnd, tournament), "seats": seating["rows"]}


def name_pages(rows: list, per_page: int = NAMES_PER_PAGE) -> list[dict]:
    """The round's alphabetical list (``SeatRow``s) cut into pages, each with its number and first and last names."""
    words = _seat_words()
    listed = [seated(r, words) for r in rows]
    pages = [listed[i:i + per_page] for i in range(0, len(listed), per_page)]
    return [{"number": i + 1, "rows": page, "first": page[0]["name"], "last": page[-1]["name"]}
            for i, page in enumerate(pages)]


# -- where do I sit ----------------------------------------------------------------------------------------------


def seat_page(rnd: Round, tournament: Tournament, query: str) -> dict:
    """"Where do I sit" for ``query``: the players found with their table, seat, partner and opponents."""
    query = " ".join(query.split())[:60]
    found = seat_lookup(rnd, query, limit=SEAT_LIMIT) if query else {"answers": [], "count": 0, "more": False}
    return {"round": rnd, "q": query, **found, "clock": clock_view(rnd, tournament)}


# -- players ---------------------------------------------------------------------------------------------------------


def players(tournament: Tournament) -> list:
    return entered_players(tournament)


OUTCOMES = {"won": gettext_lazy("won"), "lost": gettext_lazy("lost"), "draw": gettext_lazy("draw")}


def player_page(tournament: Tournament, player_id: int) -> dict:
    """A player's evening: every round's table, seat, partner, opponents, games and points, result; the rank."""
    entry = entered_player(tournament, player_id)
    if entry is None:
        raise Http404
    rounds = []
    for row in player_evening(tournament, entry.player, published=True):
        if row["sitting_out"]:
            rounds.append(row)
            continue
        outcome = (OUTCOMES[row["result"]] if row["result"] else
                   vocabulary.MATCH_STATUS.get(row["status"], row["status"]))
        rounds.append({**row, "seat_name": seat_name(row["seat"]), "outcome": outcome,
                       "opponents_names": partnership(row["opponents"])})
    return {"entry": entry, "player": entry.player, "rounds": rounds,
            "standing": player_standing(tournament, player_id)}


# -- standings -------------------------------------------------------------------------------------------------------


#: The columns of a player's row after the player, in each format's order: what ranks first comes first, so that
#: on a phone it stays in sight. Their headings and the legend are in the template.
STANDINGS_ORDER = {"tables": ["points", "games", "played", "won", "drawn", "lost"],
                   "swiss": ["match_points", "played", "won", "drawn", "lost", "games", "points"]}


def _cell(row: dict, column: str) -> str:
    """A standings row's value in a column, as the table shows it ("12–3" for a pair)."""
    if column == "points":
        return f"{row['points_for']}–{row['points_against']}"
    if column == "games":
        return f"{row['games_won']}–{row['games_lost']}"
    return str(row[column])


def _metric(name: str) -> dict:
    short, label, help_text = vocabulary.METRIC_LABELS[name]
    return {"name": name, "short": short, "label": label, "help": help_text}


def standings(tournament: Tournament) -> dict:
    """The players' standings with their names, clubs and start numbers; the tiebreaks in words; the clubs."""
    data = player_standings_for(tournament)
    metrics = [m for m in data["metrics"] if m not in OWN_COLUMNS]
    ranks = [r["rank"] for r in data["rows"]]
    swiss = tournament.format == Tournament.Format.SWISS
    columns = STANDINGS_ORDER["swiss" if swiss else "tables"]
    first = "match_points" if swiss else "points"
    rows = [{**r, "shared": ranks.count(r["rank"]) > 1, "cells": [(_cell(r, c), c == first) for c in columns],
             "tiebreak_values": [r["tiebreaks"].get(m) for m in metrics]} for r in data["rows"]]
    club_ranks = [c["rank"] for c in data["clubs"]]
    best_n = tournament.club_best_n
    club_rows = [{**c, "shared": club_ranks.count(c["rank"]) > 1,
                  "complete": not best_n or c.get("players", 0) >= best_n} for c in data["clubs"]]
    from . import pages_stages

    # A multi-stage event's: the current stage's players, then those out after each earlier stage (pages.standings).
    groups = pages_stages.standings_groups(data["stages"], rows) if "stages" in data else [{"rows": rows}]
    return {"computed_at": data["computed_at"], "rows": rows, "groups": groups, "leaders": pages_stages.leaders(groups),
            "columns": columns,
            "player_url": reverse("web:players", args=[tournament.slug]),
            "metrics": [_metric(m) for m in metrics if m in vocabulary.METRIC_LABELS],
            "clubs": club_rows, "individual": True, "unconfirmed_any": any(r.get("unconfirmed") for r in rows), "swiss": tournament.format == Tournament.Format.SWISS,
            "ranking": ranking_words(tournament), "club_rule": club_ranking_words(tournament)}
