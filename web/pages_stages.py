"""The stages of an event as the public pages show them: the tabs, each stage's rounds, a knockout's bracket.

A constant number of queries a page: the stages in one, a stage's rounds in one, a knockout's matches (with
their teams) in one, whatever the size of the bracket (docs/stages.md, "Pages").
"""

from __future__ import annotations

from django.db.models import Count, Q
from django.http import Http404
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import vocabulary
from tournaments.models import Match, Round, Stage, Tournament
from tournaments.pairing.knockout import bracket_size

from .bracket_svg import BracketMatch, Side, bracket_svg

RULE_NAMES = {"top": gettext_lazy("The first N of the standings"),
              "pools": gettext_lazy("The first K of each pool and the best M of the next place"),
              "table_winners": gettext_lazy("The table winners"), "all": gettext_lazy("Everyone")}
STAGE_STATUS = {"pending": gettext_lazy("Not started"), "running": gettext_lazy("Running"),
                "closed": gettext_lazy("Closed")}


def format_name(fmt: str) -> str:
    if fmt == "pools":
        return _("Pools")
    return str(vocabulary.FORMAT_LABELS.get(fmt, fmt))


def stage_name(stage: Stage, count: int) -> str:
    """A stage's heading: "Pools", "Knockout"... and its number when the event has several of one format."""
    return _("Stage %(n)s: %(format)s") % {"n": stage.number, "format": format_name(stage.format)}


def stages_of(tournament: Tournament) -> list[dict]:
    """The event's stages in order, each with its name, status in words and its rounds played (one query)."""
    stages = list(Stage.objects.filter(tournament=tournament).annotate(
        paired=Count("round_set", filter=Q(round_set__published_at__isnull=False))).order_by("number"))
    return [{"stage": s, "number": s.number, "name": stage_name(s, len(stages)), "format": format_name(s.format),
             "status": STAGE_STATUS.get(s.status, s.status), "paired": s.paired,
             "rule": rule_words(s)} for s in stages]


def rule_words(stage: Stage) -> str:
    """The rule into the next stage in words ("" on the last stage)."""
    if stage.rule == "top":
        return _("The first %(n)s go on.") % {"n": stage.rule_count}
    if stage.rule == "pools":
        words = _("The first %(k)s of each pool go on") % {"k": stage.rule_per_pool}
        if stage.rule_best_next:
            words += ", " + _("with the best %(m)s of place %(place)s across the pools") % {
                "m": stage.rule_best_next, "place": stage.rule_per_pool + 1}
        return words + "."
    if stage.rule == "table_winners":
        return _("The table winners go on.")
    if stage.rule == "all":
        return _("Everyone goes on.")
    return ""


def stage_or_404(stages: list[dict], number: int) -> dict:
    found = next((s for s in stages if s["number"] == number), None)
    if found is None:
        raise Http404
    return found


def stage_rounds(stage: Stage) -> list[Round]:
    rounds = list(Round.objects.published().filter(stage=stage).order_by("number"))  # the public's rounds
    for rnd in rounds:
        rnd.stage = stage  # read once: their names and pools are the stage's
    return rounds


def pools_of(rnd: Round, tournament: Tournament) -> dict[int, int]:
    """A pools stage's round: each team's pool (``{team id: pool}``, one query); any other round: nothing read."""
    if tournament.is_individual or not rnd.stage_id or rnd.stage.format != Stage.Format.POOLS:
        return {}
    from tournaments.models import StageEntrant

    return dict(StageEntrant.objects.filter(stage_id=rnd.stage_id, pool__isnull=False)
                .values_list("entry__team_id", "pool"))


def how_words(entrant, previous: int) -> str:
    """How a qualifier came into its stage, in words with its place (``StageEntrant.how``)."""
    place, pool = entrant.place, entrant.from_pool
    if entrant.placed_by_hand or entrant.how == "hand":
        return _("Placed by the organizers")
    if entrant.how == "pool_place" and pool:
        return _("Place %(place)s in pool %(pool)s") % {"place": place, "pool": pool}
    if entrant.how == "next_place" and pool:
        return _("One of the best of place %(place)s across the pools (pool %(pool)s)") % {"place": place,
                                                                                          "pool": pool}
    if entrant.how == "table_winner":
        return _("Won a table of stage %(stage)s") % {"stage": previous}
    if entrant.qualified_from_rank:
        return _("Rank %(rank)s in stage %(stage)s") % {"rank": entrant.qualified_from_rank, "stage": previous}
    return _("From stage %(stage)s") % {"stage": previous}


def qualifiers(tournament: Tournament, stage: Stage, stages: list[dict]) -> list[dict] | None:
    """Who goes into a stage that has not started, once the stage before has closed: its ``StageEntrant`` rows by
    seed, each with its name and how it came in (one query); None while the stage before runs."""
    from tournaments.models import StageEntrant

    previous = next((s["stage"] for s in stages if s["number"] == stage.number - 1), None)
    if stage.status != Stage.Status.PENDING or previous is None or previous.status != Stage.Status.CLOSED:
        return None
    rows = (StageEntrant.objects.filter(stage=stage).select_related("entry__team__club", "entry__player__club")
            .order_by("seed"))
    return [{"seed": e.seed, "team": e.entry.team, "player": e.entry.player, "how": how_words(e, previous.number),
             "club": (e.entry.team or e.entry.player).club} for e in rows]


def _seeds(first_round: list[Match]) -> dict[int, int]:
    """Each team's seed as the bracket's first round recorded it (``Match.why``: knockout_seeds, knockout_bye)."""
    seeds = {}
    for m in first_round:
        for code, params in m.why or []:
            if code == "knockout_seeds":
                seeds[m.ns_id] = params.get("seed")
                if m.ew_id is not None:
                    seeds[m.ew_id] = params.get("other")
            elif code == "knockout_bye":
                seeds[m.ns_id] = params.get("seed")
    return seeds


def _is_third_place(m: Match) -> bool:
    return any(code == "knockout_third_place" for code, _params in (m.why or []))


def bracket_matches(tournament: Tournament, stage: Stage | None = None) -> tuple[int, list[BracketMatch]]:
    """A knockout's matches as the bracket draws them, and its size (0: not drawn yet). One query.

    ``stage``: the knockout stage of a multi-stage event; None: the tournament's own rounds (a one-stage
    knockout event).
    """
    matches = Match.objects.filter(round__tournament=tournament, round__published_at__isnull=False)
    if stage is not None:
        matches = matches.filter(round__stage=stage)
    matches = list(matches.select_related("round", "ns", "ew").order_by("round__number", "table"))
    first = [m for m in matches if m.round.number == 1]
    if not first:
        return 0, []
    size = bracket_size(2 * len(first))
    seeds = _seeds(first)
    slug = tournament.slug

    def side(team, games, decided):
        if team is None:
            return None
        return Side(team.name, seeds.get(team.pk), games if decided else None,
                    reverse("web:team", args=[slug, team.pk]))

    out = []
    for m in matches:
        decided = m.status == Match.Status.FINISHED or m.status == Match.Status.PLAYING
        out.append(BracketMatch(
            m.round.number, m.table, side(m.ns, m.games_won_ns, decided), side(m.ew, m.games_won_ew, decided),
            winner=m.winner if m.winner in ("ns", "ew") else "", bye=m.ew_id is None,
            third_place=_is_third_place(m), href=reverse("web:match", args=[slug, m.pk]),
            walkover=any(code == "walkover_opponent_withdrew" for code, *_ in (m.why or []))))
    return size, out


#: The wall draws at most this many rounds of a bracket (its last ones: 16 entrants, 8 matches a column), so
#: that a hall reads it; the tables' panel shows the earlier rounds' matches.
WALL_ROUNDS = 4


def bracket(tournament: Tournament, stage: Stage | None = None, *, element_id: str = "bracket",
            wall: bool = False, wrap: bool = False) -> dict | None:
    """The knockout's bracket as an SVG (marked safe), or None when it is not drawn yet; ``wrap``: long names on
    two lines rather than shortened (the print page's: paper has no tooltip)."""
    size, matches = bracket_matches(tournament, stage)
    if not size:
        return None
    title = _("%(event)s: the knockout") % {"event": tournament.name}
    rounds = size.bit_length() - 1
    from_round = max(1, rounds - WALL_ROUNDS + 1) if wall else 1
    svg = bracket_svg(size, matches, title=title, element_id=element_id, from_round=from_round, wrap=wrap)
    return {"size": size, "svg": mark_safe(svg), "matches": len(matches),  # noqa: S308 - escaped by bracket_svg
            # Said above the bracket, which a phone reads to its final only by scrolling sideways.
            "winner": _decided(matches, rounds, third_place=False),
            "third": _decided(matches, rounds, third_place=True)}


def _decided(matches: list[BracketMatch], rounds: int, *, third_place: bool) -> str:
    """The name of the final's winner (``third_place``: of the match for third place), "" while undecided."""
    for m in matches:
        if m.round == rounds and m.third_place == third_place and m.winner and (m.ns if m.winner == "ns" else m.ew):
            return (m.ns if m.winner == "ns" else m.ew).name
    return ""


def knockout_stage(tournament: Tournament, stages: list[dict]) -> Stage | None:
    """The stage whose bracket the wall and the event's page show: the running knockout stage, else the last one
    played (None: none)."""
    knockouts = [s["stage"] for s in stages if s["stage"].format == "knockout" and s["stage"].status != "pending"]
    running = [s for s in knockouts if s.status == "running"]
    return (running or knockouts[-1:] or [None])[0]


def awaiting_close(tournament: Tournament, stages: list[dict] | None = None) -> Stage | None:
    """A multi-stage event's last stage once every match of it is played and before its organizers close it (which
    finishes the event): the pages say so rather than "running". None otherwise; nothing read for a one-stage event
    whose row says so (``stage_count``) or one not running. ``stages``: ``stages_of``'s, when the page has them."""
    from .stage_progress import stage_played

    count = getattr(tournament, "stage_count", None)
    if tournament.status != Tournament.Status.RUNNING or (count is not None and count < 2):
        return None
    if stages is None:
        last = Stage.objects.filter(tournament=tournament).order_by("-number").first()
        several = last is not None and last.number > 1
    else:
        last, several = (stages[-1]["stage"] if stages else None), len(stages) > 1
    if not several or last.status != Stage.Status.RUNNING or not stage_played(tournament, last):
        return None
    return last


def mark_awaiting(stages: list[dict], awaiting: Stage | None) -> None:
    """The stage awaiting its closing (``awaiting_close``) says so in its tab and its facts: "All played"."""
    for s in stages:
        if awaiting is not None and s["stage"].pk == awaiting.pk:
            s["status"], s["awaiting"] = _("All played"), True


def has_stages_to_show(tournament: Tournament) -> bool:
    """Whether the event's pages show stages (several stages, or a knockout): known from the page's own row when
    it was read with ``stage_count`` (``pages.tournaments_for``), so a one-stage event's pages read nothing more."""
    count = getattr(tournament, "stage_count", None)
    if count is None:
        count = Stage.objects.filter(tournament=tournament).count()
    return count > 1 or tournament.format in ("knockout", "pools")


def wall_stage(tournament: Tournament) -> dict | None:
    """What the wall shows of the stages: the running knockout stage's bracket, or the running pools stage's pools
    (None: nothing more than before)."""
    if not has_stages_to_show(tournament):
        return None
    stages = stages_of(tournament)
    running = next((s for s in stages if s["stage"].status == "running"), None)
    if running is None:
        return None
    if running["stage"].format == "knockout":
        drawn = bracket(tournament, running["stage"], element_id="wall-bracket", wall=True)
        return {"kind": "bracket", "stage": running, "bracket": drawn} if drawn else None
    if running["stage"].format == "pools":
        return {"kind": "pools", "stage": running, "standings": stage_standings(tournament, running["stage"])}
    return None


def stage_standings(tournament: Tournament, stage: Stage) -> dict:
    """A stage's standings (``stage_standings_for``: four queries, whatever the number of pools): one table per
    pool for a pools stage (by rank in the pool), else one; the qualifiers marked once the stage has closed."""
    from tournaments.selectors.standings import stage_standings_for

    data = stage_standings_for(stage, tournament)
    rows = data["rows"]
    if stage.format == "pools":
        groups: dict[int, list[dict]] = {}
        for r in rows:
            groups.setdefault(r["pool"] or 0, []).append(r)
        tables = [{"pool": p, "rows": sorted(rs, key=lambda r: (r["pool_rank"] or 0))} for p, rs in sorted(groups.items())]
    else:
        tables = [{"pool": None, "rows": rows}] if rows else []
    return {"computed_at": data["computed_at"], "tables": tables, "count": len(rows),
            "qualified": sum(1 for r in rows if r["qualified"]), "closed": stage.status == "closed",
            "individual": tournament.is_individual}


def event_ranking(tournament: Tournament, stages: list[dict]) -> list[dict]:
    """The event's ranking (the stage reached, then that stage's rank) with each entrant's path: its rank (and
    pool) in every stage it played and whether it went on. Six queries, whatever the field."""
    from tournaments.models import StageEntrant, Standing
    from tournaments.selectors.standings import event_standings_for

    rows = event_standings_for(tournament)["rows"]
    who = "player_id" if tournament.is_individual else "team_id"
    steps: dict[int, list[dict]] = {}
    # In a pools stage the rank in its pool ("2 in pool 3"), not the rank across the pools.
    for number, entrant, rank, pool, pool_rank in (
            Standing.objects.filter(tournament=tournament).order_by("stage__number")
            .values_list("stage__number", who, "rank", "pool", "pool_rank")):
        steps.setdefault(entrant, []).append({"stage": number, "rank": pool_rank if pool and pool_rank else rank,
                                              "pool": pool})
    field = "entry__player_id" if tournament.is_individual else "entry__team_id"
    went = set(StageEntrant.objects.filter(stage__tournament=tournament).values_list("stage__number", field))
    names = {s["number"]: s["format"] for s in stages}
    out = []
    for r in rows:
        entrant = r["player"] if tournament.is_individual else r["team"]
        path = [{**step, "format": names.get(step["stage"], ""), "on": (step["stage"] + 1, entrant) in went}
                for step in steps.get(entrant, [])]
        out.append({**r, "entrant": entrant, "name": (r.get("player_detail") or r.get("team_detail"))["name"],
                    "path": path, "stage_name": names.get(r["stage"], "")})
    return out


def _round_label(stage: Stage, number: int) -> str:
    """A round's label in a stage's progress table: a knockout's as its bracket names it, else its number."""
    from . import round_names

    return round_names.round_name(Round(stage=stage, number=number)) if stage.format == Stage.Format.KNOCKOUT \
        else str(number)


def team_progress(tournament: Tournament, team_id: int) -> list[dict]:
    """A team's match points and rank after each round of a multi-stage event, stage by stage (round numbers
    count per stage, and so do the points and ranks): each stage the team played, with its name, its rounds'
    labels, the values and a chart of each. In a pools stage the rank is the team's in its pool. One query for
    the stages, then at most four a stage started (``stage_rows_by_round``)."""
    from tournaments.services.stage_standings import stage_rows_by_round
    from tournaments.services.standings import points_settings, tournament_metrics
    from tournaments.stages import StageError

    from .charts import Series, line_chart

    pts, metrics = points_settings(tournament), tournament_metrics(tournament)
    out = []
    for s in stages_of(tournament):
        stage = s["stage"]
        if stage.status == Stage.Status.PENDING:
            continue
        try:
            history = stage_rows_by_round(stage, tournament, pts, metrics)
        except StageError:  # rows the stage's rules cannot rank (a match of an entrant not in its field): no chart
            continue
        numbers = sorted(history)
        pools = stage.format == Stage.Format.POOLS
        points, ranks, size = [], [], 0
        for n in numbers:
            computed = history[n]
            row = next((r for r in computed.rows if r.team == team_id), None)
            points.append(row.match_points if row else None)
            if pools:
                pool = computed.pools.get(team_id)
                ranks.append(computed.pool_ranks.get(team_id) if row else None)
                size = sum(1 for p in computed.pools.values() if p == pool)
            else:
                ranks.append(row.rank if row else None)
                size = len(computed.rows)
        if all(p is None for p in points):
            continue  # a stage the team did not reach
        out.append({
            "stage": stage, "name": s["name"], "id": f"progress-{stage.number}",
            "labels": [_round_label(stage, n) for n in numbers], "points": points, "ranks": ranks,
            "rank_heading": _("Rank in the pool after each round") if pools else _("Rank after each round"),
            "points_chart": line_chart(numbers, [Series(str(vocabulary.METRIC_LABELS["match_points"][1]), points,
                                                        "a")]),
            "rank_chart": line_chart(numbers, [Series(_("Rank"), ranks, "b")], invert=True, floor=1, ceiling=size)})
    return out


def _shared(rows: list[dict]) -> list[dict]:
    ranks = [r["rank"] for r in rows]
    return [{**r, "shared": ranks.count(r["rank"]) > 1} for r in rows]


def standings_groups(stages: list[dict], rows: list[dict]) -> list[dict]:
    """A multi-stage event's standings as the public pages show them, one table a group (nothing read): first the
    entrants of the furthest stage reached (the current one), by pool in a pools stage (ranked in their pool), then
    those out after each earlier stage, by their rank in the event; each table's figures are its stage's only.
    ``stages``: ``event_standings_for``'s; ``rows``: its rows, in the event's order."""
    names = {s["number"]: stage_name(Stage(number=s["number"], format=s["format"]), len(stages)) for s in stages}
    formats = {s["number"]: s["format"] for s in stages}
    by_stage: dict[int, list[dict]] = {}
    for r in rows:
        by_stage.setdefault(r["stage"], []).append(r)
    groups = []
    for i, number in enumerate(sorted(by_stage, reverse=True)):
        members = by_stage[number]
        if i == 0 and formats.get(number) == Stage.Format.POOLS and all(r.get("pool") for r in members):
            pools: dict[int, list[dict]] = {}
            for r in members:
                pools.setdefault(r["pool"], []).append({**r, "rank": r.get("pool_rank") or r["rank"]})
            for pool, pool_rows in sorted(pools.items()):
                groups.append({"stage": number, "title": names.get(number, ""), "current": True,
                               "pool": _("Pool %(n)s") % {"n": pool},
                               "rows": _shared(sorted(pool_rows, key=lambda r: r["rank"]))})
        else:
            groups.append({"stage": number, "title": names.get(number, ""), "current": i == 0, "pool": "",
                           "knockout": formats.get(number) == Stage.Format.KNOCKOUT, "rows": _shared(members)})
    return groups


def _where(row, rounds: int) -> str:
    """How far a team has come in a knockout being played, in words (``KnockoutRow``): "In the quarter-finals",
    "Out in the round of 16", "Won the final"; a sentence a round, as the workspace's (round_words), for the
    article and the agreement in every language."""
    if row.third_place == "won":
        return _("Won the match for third place")
    if row.third_place == "lost":
        return _("Lost the match for third place")
    if row.reached > rounds:
        return _("Won the final")
    left = rounds - row.reached
    if left <= 3:
        if row.out:
            return (_("Lost the final"), _("Out in the semi-finals"), _("Out in the quarter-finals"),
                    _("Out in the round of 16"))[left]
        return (_("In the final"), _("In the semi-finals"), _("In the quarter-finals"), _("In the round of 16"))[left]
    return (_("Out in round %(n)s") if row.out else _("In round %(n)s")) % {"n": row.reached}


def knockout_places(tournament: Tournament, number: int) -> dict[int, dict]:
    """Where each team of knockout stage ``number`` stands in its bracket: ``{team id: {"seed", "where", "out"}}``
    (its seed as the bracket's first round recorded it; how far it has come in words, ``_where``; ``progress`` a
    key that orders them by it, then by seed), over the
    published rounds and their finished matches, as the standings count them (``knockout_standings``, the
    standings' own rule). One query; {} when the bracket is not drawn or its matches cannot be read as one."""
    from tournaments.stages import KnockoutMatch, StageError, knockout_standings

    stage = Q(round__stage__number=number) | (Q(round__stage__isnull=True) if number == 1 else Q(pk__in=[]))
    matches = list(Match.objects.filter(stage, round__tournament=tournament, round__published_at__isnull=False)
                   .select_related("round").only("round__number", "table", "ns", "ew", "status", "winner", "why")
                   .order_by("round__number", "table"))
    first = [m for m in matches if m.round.number == 1]
    if not first:
        return {}
    rounds = bracket_size(2 * len(first)).bit_length() - 1
    seeds = _seeds(first)
    entrants = sorted({t for m in first for t in (m.ns_id, m.ew_id) if t is not None},
                      key=lambda t: (seeds.get(t) or 10 ** 6, t))
    played = [KnockoutMatch(m.round.number, m.table, m.ns_id, m.ew_id,
                            m.winner if m.status == Match.Status.FINISHED and m.winner in ("ns", "ew") else "",
                            third_place=_is_third_place(m)) for m in matches]
    try:
        rows = knockout_standings(entrants, played, seed="order")
    except StageError:  # a match of a team not in the first round (replaced by hand): the figures, as before
        return {}
    third = {"won": 0, "lost": 1, "": 2}
    return {r.entrant: {"seed": seeds.get(r.entrant), "where": _where(r, rounds), "out": r.out,
                        "progress": (-r.reached, r.out, third[r.third_place], seeds.get(r.entrant) or 10 ** 6)}
            for r in rows}


def mark_knockout_in_play(tournament: Tournament, groups: list[dict], stages: list[dict] | None) -> None:
    """A knockout being played shows how far each team has come, not its figures (zeros until its first match is
    played, which read as if it had lost them all): the standings' current group, when it is a running knockout
    stage's (``stages``: ``event_standings_for``'s; None: a one-stage knockout event's own rows), gets ``bracket``
    (the stage's page) and each row its ``seed``, ``where`` and ``out`` (``knockout_places``: one query)."""
    if not groups or not groups[0]["rows"]:
        return
    current = groups[0]
    if stages is None:
        if tournament.format != Tournament.Format.KNOCKOUT or tournament.status != Tournament.Status.RUNNING:
            return
        number = 1
    else:
        number = current.get("stage")
        stage = next((s for s in stages if s["number"] == number), None)
        if not current.get("knockout") or stage is None or stage["status"] != Stage.Status.RUNNING:
            return
    places = knockout_places(tournament, number)
    if not places:
        return
    current["bracket"] = reverse("web:stage", args=[tournament.slug, number]) if stages is not None \
        else reverse("web:stages", args=[tournament.slug])
    for row in current["rows"]:
        row.update(places.get(row["team"], {"seed": None, "where": "", "out": False, "progress": (1, True, 3, 0)}))
    # Those as far by seed (the standings' order within them is the stage before's ranks: seeds read better here).
    current["rows"].sort(key=lambda r: r["progress"])


def leaders(groups: list[dict]) -> list[dict]:
    """The overview's leaders: the top five of the standings (a one-stage event's), of the current stage (a
    multi-stage event's), the top two of each pool in a pools stage."""
    current = [g for g in groups if g.get("current", True)]
    keep = 2 if len(current) > 1 else 5
    return [{**g, "rows": g["rows"][:keep]} for g in current if g["rows"]]
