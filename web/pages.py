"""What each public page shows, built from the selectors of ``tournaments``: a constant number of queries a page.

Views and the live regions (``web.regions``) both call these, so a page and its live update are the same data.
"""

from __future__ import annotations

from django.db.models import Count, IntegerField, Max, OuterRef, Q, Subquery
from django.http import Http404
from django.utils.translation import gettext as _

import scoring
from tournaments import access
from tournaments.access import visible_tournaments
from tournaments.models import Entry, Game, Match, Round, Stage, Tournament
from tournaments.selectors.confirmation import WAITING, marks_unconfirmed, unconfirmed_matches
from tournaments.selectors.matches import match_for_scoreboard, scoreboard_of
from tournaments.selectors.seats import SIDE_SEATS, match_players
from tournaments.selectors.standings import standings_by_round, standings_for
from tournaments.services.standings import tournament_metrics
from tournaments import vocabulary

from . import pages_individual, pages_stages, round_names
from .charts import Series, line_chart


def tournaments_for(user):
    """Return the tournaments the visitor may see, with their club, current round number and number of stages
    (the header shows the stages' tab when there are several)."""
    stage_count = (Stage.objects.filter(tournament=OuterRef("pk")).order_by().values("tournament")
                   .annotate(n=Count("pk")).values("n"))
    return (visible_tournaments(user).select_related("club")
            .annotate(current_round=Max("round_set__number", filter=Q(round_set__published_at__isnull=False)),
                      stage_count=Subquery(stage_count, output_field=IntegerField())))


def tournament_or_404(user, slug: str) -> Tournament:
    """Return a tournament the visitor may see by its slug; 404 for a private or unknown one."""
    tournament = tournaments_for(user).filter(slug=slug).first()
    if tournament is None:
        raise Http404
    return tournament


def search(queryset, q: str):
    """Filter tournaments by words found in the name, the club, the city or the variant's name.

    A variant is found by its slug, its English name or its name in the visitor's language ("manillen").
    """
    for word in q.split()[:6]:
        variants = [slug for slug, v in scoring.VARIANTS.items()
                    if any(word.lower() in name.lower() for name in (slug, v.name, vocabulary.variant_name(v)))]
        queryset = queryset.filter(Q(name__icontains=word) | Q(club__name__icontains=word)
                                   | Q(club__city__icontains=word) | Q(variant__in=variants))
    return queryset


def tournament_facts(tournament: Tournament) -> dict:
    """Return the tournament's settings in words: variant, format, rounds, best of, house options."""
    variant = tournament.variant_obj
    individual = pages_individual.individual_facts(tournament) if tournament.is_individual else None
    return {
        "variant": variant,
        "format": individual["format"] if individual else pages_stages.format_name(tournament.format),
        "status": vocabulary.TOURNAMENT_STATUS.get(tournament.status, tournament.status),
        "best_of": tournament.effective_best_of,
        "options": vocabulary.house_options(variant, tournament.options),
        "points": (tournament.points_win, tournament.points_draw, tournament.points_bye),
        "metrics": metric_columns(pages_individual.ranking_order(tournament) if individual
                                  else tournament_metrics(tournament)),
        "individual": individual,
    }


def round_facts(tournament: Tournament, rnd: Round) -> dict:
    """The tournament's facts with the round's own format and match length: its stage's (``lengths.length_of``)."""
    from tournaments.services.lengths import length_of

    facts = {**tournament_facts(tournament), "best_of": length_of(rnd).best_of}
    if not tournament.is_individual and rnd.stage_id:
        facts["format"] = pages_stages.format_name(rnd.stage.format)
    return facts


def metric_columns(names: list[str]) -> list[dict]:
    return [{"name": n, "short": vocabulary.METRIC_LABELS[n][0], "label": vocabulary.METRIC_LABELS[n][1],
             "help": vocabulary.METRIC_LABELS[n][2]} for n in names if n in vocabulary.METRIC_LABELS]


#: Tiebreaks the standings table shows in columns of its own: match points, the matches won ("W", the same
#: count: at the table, byes not counted) and the games won (in "Games"); not shown a second time.
OWN_COLUMNS = ("match_points", "matches_won", "games_won")


def standings(tournament: Tournament) -> dict:
    """Return the standings with each team's name and club, the metrics in words, the club standings (an
    individual event's: its players', ``pages_individual.standings``)."""
    if tournament.is_individual:
        return pages_individual.standings(tournament)
    data = standings_for(tournament)
    metrics = [m for m in (data["rows"][0]["tiebreaks"] if data["rows"] else {}) if m not in OWN_COLUMNS]
    ranks = [r["rank"] for r in data["rows"]]
    rows = [{**r, "shared": ranks.count(r["rank"]) > 1, "tiebreak_values": [r["tiebreaks"].get(m) for m in metrics]}
            for r in data["rows"]]
    club_ranks = [c["rank"] for c in data["clubs"]]
    club_rows = [{**c, "shared": club_ranks.count(c["rank"]) > 1} for c in data["clubs"]]
    # A multi-stage event's rows are split: the current stage's (by pool), then those out after each earlier stage.
    groups = pages_stages.standings_groups(data["stages"], rows) if "stages" in data else [{"rows": rows}]
    pages_stages.mark_knockout_in_play(tournament, groups, data.get("stages"))  # how far, not zeros
    return {"computed_at": data["computed_at"], "rows": rows, "groups": groups, "columns": standings_columns(),
            "metrics": metric_columns(metrics), "clubs": club_rows, "staged": "stages" in data,
            "leaders": pages_stages.leaders(groups), "unconfirmed_any": any(r.get("unconfirmed") for r in rows)}


def mark_unconfirmed(view: dict, rnd: Round, tournament: Tournament) -> dict:
    """A round's tables with ``unconfirmed`` on each that the standings count before its confirmation, and
    ``unconfirmed_any`` for the legend (one query; none marked when the tournament waits or asks for none)."""
    waiting = set(unconfirmed_matches(tournament, rnd.pk))
    for row in view["matches"]:
        row["unconfirmed"] = row["match"].pk in waiting
    view["unconfirmed_any"] = bool(waiting)
    return view


def standings_columns() -> list[dict]:
    """Return the standings table's own columns (rank to game points) in words, for its headings and legend."""
    return [{"name": name, "short": short, "label": label, "help": help_text}
            for name, short, label, help_text in vocabulary.STANDINGS_COLUMNS]


# The public pages show the published rounds alone, to everyone (their renderings and ETags are shared): a round
# not yet published is the workspace's (issue 28; ``tournaments.access`` decides who sees it there).


def rounds_of(tournament: Tournament) -> list[Round]:
    """The event's published rounds, stage by stage (round numbers count per stage), each with its stage."""
    rounds = list(Round.objects.published().filter(tournament=tournament).select_related("stage").order_by(
        "stage__number", "number"))
    round_names.prime(rounds)  # a knockout's rounds are named as its bracket names them: one query, when any
    return rounds


def round_tables(rnd: Round, tournament: Tournament | None = None) -> dict:
    """Return a round's tables: teams (with clubs), result in games, status; the bye; how many are finished.

    An individual event's round (``pages_individual.round_view``): its players by seat, sit-outs and clock.
    """
    tournament = tournament or rnd.tournament
    if tournament.is_individual:
        return mark_unconfirmed(pages_individual.round_view(rnd, tournament), rnd, tournament)
    matches = list(Match.objects.filter(round=rnd).select_related("ns__club", "ew__club").order_by("table"))
    played = [m for m in matches if not m.is_bye]
    pools = pages_stages.pools_of(rnd, tournament)
    # The game being played at each table, so that every hand shows on the round's page and the wall.
    playing = {g.match_id: g for g in Game.objects.filter(match__round=rnd, status=Game.Status.PLAYING)
               .only("match_id", "number", "total_ns", "total_ew")}
    return mark_unconfirmed({
        "round": rnd,
        "status": vocabulary.ROUND_STATUS.get(rnd.status, rnd.status),
        # A match the director decided shows how (a forfeit, a withdrawal...) and no game in play.
        "matches": [{"match": m, "status": vocabulary.MATCH_STATUS.get(m.status, m.status),
                     "pool": pools.get(m.ns_id), "game": None if m.decided_by else playing.get(m.pk),
                     "third_place": round_names.is_third_place(m),
                     "decided": vocabulary.MATCH_DECIDED_BY.get(m.decided_by)} for m in played],
        "byes": [m for m in matches if m.is_bye],
        "finished": sum(1 for m in played if m.status == Match.Status.FINISHED),
        "total": len(played),
    }, rnd, tournament)


def round_or_404(tournament: Tournament, number: int, stage: int = 1, user=None) -> Round:
    """Round ``number`` of stage ``stage`` (round numbers count per stage: ``/rounds/<n>/`` is stage 1's), if
    published; with ``user`` (a printed page, never a shared one) a round not yet published too when they see it
    (``access.sees_unpublished``: to print its sheets first)."""
    rounds = Round.objects.filter(tournament=tournament, stage__number=stage, number=number).select_related("stage")
    if user is None or not access.sees_unpublished(user, tournament.pk):
        rounds = rounds.published()
    rnd = rounds.first()
    if rnd is None:
        raise Http404
    round_names.prime([rnd])
    return rnd


def current_round(tournament: Tournament) -> Round | None:
    """The round being played: the last one paired (of the latest stage that has rounds)."""
    rnd = (Round.objects.published().filter(tournament=tournament).select_related("stage")
           .order_by("-stage__number", "-number").first())
    round_names.prime([rnd])
    return rnd


def _seat_team(seat: str, sides: dict) -> str:
    """Who sits at ``seat``: their team, or in an individual event the player."""
    side = sides["ns"] if seat in ("N", "S") else sides["ew"]
    if side and side["individual"]:
        return next((p["name"] for p in side["players"] if p["seat"] == seat), side["name"])
    return side["name"] if side else ""


def board_sides(match: Match) -> dict:
    """The two sides of a match as its scoreboard names them: a team (its name, players and club), or in an
    individual event a partnership ("An Peeters & Jan Claes", each player with their seat)."""
    if match.ns_id is None:
        players = match_players(match)
        return {side: {"name": pages_individual.partnership(players[side]), "club": "", "individual": True,
                       "players": [{**p, "seat": seat, "seat_name": pages_individual.seat_name(seat)}
                                   for p, seat in zip(players[side], SIDE_SEATS[side])]}
                for side in ("ns", "ew")}
    return {side: None if team is None else {"name": team.name, "club": team.club.name, "individual": False,
                                             "players": [{"id": p.pk, "name": p.name}
                                                         for p in (team.player_1, team.player_2)]}
            for side, team in (("ns", match.ns), ("ew", match.ew))}


def match_board(tournament: Tournament, match_id: int, user=None) -> dict:
    """Return the live scoreboard of a match of ``tournament``: teams and players, games, hands, the next deal (of a
    published round; with ``user``, a printed sheet's, of a round not yet published too when they see it)."""
    try:
        match = match_for_scoreboard(match_id=match_id)
    except Match.DoesNotExist:
        raise Http404 from None
    if match.round.tournament_id != tournament.pk:
        raise Http404
    if match.round.published_at is None and (user is None or not access.sees_unpublished(user, tournament.pk)):
        raise Http404  # a round not yet published: not on the public pages (issue 28)
    round_names.prime([match.round])  # its round's name: a knockout's as its bracket names it
    return board_of(match)


def board_of(match: Match) -> dict:
    """Return the scoreboard of a match loaded with its players, in words."""
    board = scoreboard_of(match)
    sides = board_sides(match)
    variant = match.round.tournament.variant_obj
    # The game's target under the event's options: none in a game of a fixed number of deals (no guide line).
    target = variant.rules(match.round.tournament.options or {}).target
    games = []
    for game in board["games"]:
        hands = []
        for h in game["hands"]:
            calls = []
            if h.get("blind"):
                calls.append(_("blind"))
            if h.get("doublings"):
                calls.append(_("doubled") if h["doublings"] == 1 else _("doubled ×%(n)s") % {"n": h["doublings"]})
            if h.get("thrown_in"):
                calls.append(_("thrown in"))
            if h.get("penalty"):
                calls.append(_("penalty: %(name)s (%(team)s)") % {
                    "name": vocabulary.PENALTY_LABELS.get(h["penalty"]["type"], h["penalty"]["type"]),
                    "team": sides[h["penalty"]["side"]]["name"]})
            calls += [str(vocabulary.LABEL_WORDS.get(lb, lb)) for lb in h.get("labels") or []]
            trump = h.get("trump")
            bonus = h.get("bonus") or {}
            hands.append({
                **h,
                "dealer_team": _seat_team(h["dealer"], sides),
                "dealer_seat": vocabulary.seat(h["dealer"]),
                "trump_symbol": (vocabulary.suit_symbol(variant, trump)
                                 if trump and trump != "none" and vocabulary.deck_kind(variant) == "french" else ""),
                "trump_name": vocabulary.suit_name(variant, trump or ""),
                "turned_name": vocabulary.card_name(variant, h.get("turned_card") or ""),
                "calls": calls,
                "bonus_ns": bonus.get("ns") if isinstance(bonus, dict) else None,
                "bonus_ew": bonus.get("ew") if isinstance(bonus, dict) else None,
            })
        games.append({**game, "hands": hands, "chart": line_chart(
            [0] + [h["number"] for h in hands],
            [Series(sides["ns"]["name"], [0] + [h["totals"]["ns"] for h in hands], "ns"),
             Series(sides["ew"]["name"] if sides["ew"] else "", [0] + [h["totals"]["ew"] for h in hands], "ew")],
            guide=target)})
    return {**board, "match": match, "tournament": match.round.tournament, "variant": variant, "games": games,
            "sides": sides, "individual": match.ns_id is None,
            "length": (pages_individual.match_length_words(match.round.tournament, match.round.stage)
                       if match.ns_id is None else ""),
            "target": target, "status_label": vocabulary.MATCH_STATUS.get(board["status"], board["status"]),
            "next_dealer_team": _seat_team(board["next_dealer"], sides) if board["next_dealer"] else "",
            "next_dealer_seat": vocabulary.seat(board["next_dealer"]) if board["next_dealer"] else "",
            "wins_needed": board["best_of"] // 2 + 1,
            # Where the opponents' confirmation stands (shown only where the tournament asks for it).
            "confirmation": board["result_status"] if match.round.tournament.confirmation == "opponents" else None,
            # The standings count it before the opponents confirm it (marked, with the legend).
            "counts_unconfirmed": board["result_status"] in WAITING and marks_unconfirmed(match.round.tournament),
            **_decided(match, sides)}


def _decided(match: Match, sides: dict) -> dict:
    """How the director decided the match (a forfeit, a withdrawal...) and who was absent, in words (empty: the
    games did)."""
    if not match.decided_by:
        return {"decided": "", "absent": ""}
    absent = [sides[side]["name"] for side in ("ns", "ew") if match.forfeit in (side, "both") and sides.get(side)]
    return {"decided": vocabulary.MATCH_DECIDED_BY.get(match.decided_by, match.decided_by),
            "absent": ", ".join(absent)}


def team_page(tournament: Tournament, team_id: int) -> dict:
    """Return a team's page: players, club, every match of the tournament with its result, its progress chart."""
    entry = (Entry.objects.filter(tournament=tournament, team_id=team_id)
             .select_related("team__club", "team__player_1", "team__player_2").first())
    if entry is None:
        raise Http404
    team = entry.team
    matches = list(Match.objects.filter(Q(ns=team) | Q(ew=team), round__tournament=tournament,
                                        round__published_at__isnull=False)
                   .select_related("round__stage", "ns", "ew").order_by("round__stage__number", "round__number"))
    round_names.prime([m.round for m in matches])
    rows = []
    for m in matches:
        side = "ns" if m.ns_id == team.pk else "ew"
        opponent = m.ew if side == "ns" else m.ns
        won, lost = (m.games_won_ns, m.games_won_ew) if side == "ns" else (m.games_won_ew, m.games_won_ns)
        if m.is_bye:
            outcome = _("bye")
        elif m.status != Match.Status.FINISHED:
            outcome = vocabulary.MATCH_STATUS.get(m.status, m.status)
        elif m.winner == "draw":
            outcome = _("draw")
        else:
            outcome = _("won") if m.winner == side else _("lost")
        rows.append({"match": m, "opponent": opponent, "won": won, "lost": lost, "outcome": outcome})
    stage_count = getattr(tournament, "stage_count", None)  # read with the page's tournament (tournaments_for)
    if stage_count is None:
        stage_count = Stage.objects.filter(tournament=tournament).count()
    if stage_count > 1:
        # Round numbers, points and ranks count per stage: a chart and a table a stage (pages_stages.team_progress).
        return {"entry": entry, "team": team, "matches": rows, "rounds": [],
                "progress": pages_stages.team_progress(tournament, team.pk)}
    history = standings_by_round(tournament)
    numbers = sorted(history)
    points, ranks = [], []
    for n in numbers:
        row = next((r for r in history[n] if r.team == team.pk), None)
        points.append(row.match_points if row else None)
        ranks.append(row.rank if row else None)
    teams_count = len(history[numbers[-1]]) if numbers else 0
    return {
        "entry": entry, "team": team, "matches": rows, "rounds": numbers, "points": points, "ranks": ranks,
        "points_chart": line_chart(numbers, [Series(str(vocabulary.METRIC_LABELS["match_points"][1]), points, "a")])
        if numbers else None,
        "rank_chart": line_chart(numbers, [Series(_("Rank"), ranks, "b")], invert=True, floor=1,
                                 ceiling=teams_count) if numbers else None,
        "teams_count": teams_count,
    }


def entries(tournament: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=tournament)
                .select_related("team__club", "team__player_1", "team__player_2").order_by("team__name"))


def variant_page(slug: str) -> dict:
    variant = scoring.VARIANTS.get(slug)
    if variant is None:
        raise Http404
    kind = vocabulary.deck_kind(variant)
    return {
        "variant": variant,
        "deck": _("Spanish deck") if kind == "spanish" else _("French deck"),
        "suits": [{"code": s, "name": vocabulary.suit_name(variant, s), "symbol": vocabulary.suit_symbol(variant, s)}
                  for s in variant.suits],
        "ranks": [{"rank": r, "points": variant.rank_points.get(r, 0)} for r in variant.ranks],
        "cards": len(variant.cards),
        "direction": vocabulary.DIRECTION.get(variant.direction, variant.direction),
        "rules": vocabulary.variant_rules(variant),
        "options": [{"name": vocabulary.OPTION_LABELS.get(n, n), "default": vocabulary.option_value(n, spec.default),
                     "help": vocabulary.OPTION_HELP.get(n, spec.help)} for n, spec in variant.options.items()],
        "checks": vocabulary.CHECKS,
    }


GAME_PLAYING = Game.Status.PLAYING
