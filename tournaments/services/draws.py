"""Individual events: players entered alone, each round drawn to tables of four, redrawn, left.

The draw itself is pure (``tournaments.pairing.individual``): this module builds its inputs from the rows
(the entries in start-number order, never database ids; the players kept apart; the earlier rounds as start
numbers; a seed drawn here with ``secrets``), saves what comes back (the round, one match a table, one
``RoundSeat`` a player, a table code a match) and keeps the inputs and the result as a ``RoundDraw``, so
anyone can make the same draw again from them. Every write takes the tournament's lock, as pairing does.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.db.models import Max

from tournaments.live import publish_tournament_changed
from tournaments.models import Entry, KeptApart, Match, Player, Round, RoundDraw, RoundSeat, Tournament
from tournaments.pairing import individual
from tournaments.services.errors import Conflict, ServiceError
from tournaments.services.knockout import tournament_locked
from tournaments.services.table_codes import new_table_codes



def _refuse_team_event(tournament: Tournament) -> None:
    if not tournament.is_individual:
        raise ServiceError("entry_kind", "player", {"reason": "teams"})


def entry_add_player(*, tournament: Tournament, player: Player, start_number: int | None = None,
                     fixed_table: int | None = None, reserve: bool = False, user=None) -> Entry:
    """Enter a player in an individual event, with the next free start number unless one is given.

    A late entry (after the first round) joins at the next draw. Refuses (``Conflict``) a finished event,
    a player entered already or retired, and a start number taken.
    """
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        _refuse_team_event(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            raise Conflict("tournament_finished")
        if player.retired:
            raise ServiceError("player_retired", "player", {"player": player.name})
        existing = Entry.objects.filter(tournament=tournament, player=player).first()
        if existing is not None:
            code = "entry_withdrawn" if existing.withdrawn else "already_entered"
            raise Conflict(code, "player", {"team": player.name})
        if start_number is None:
            start_number = (Entry.objects.filter(tournament=tournament).aggregate(n=Max("start_number"))["n"] or 0) + 1
        elif start_number < 1:
            raise ServiceError("start_number", "start_number", {"value": start_number})
        elif Entry.objects.filter(tournament=tournament, start_number=start_number).exists():
            raise Conflict("start_number_taken", "start_number", {"number": start_number})
        if fixed_table is not None and fixed_table < 1:
            raise ServiceError("fixed_table", "fixed_table", {"value": fixed_table})
        return Entry.objects.create(tournament=tournament, player=player, start_number=start_number,
                                    fixed_table=fixed_table, reserve=reserve)


def entry_numbers_set(*, tournament: Tournament, numbers: dict[int, int], user=None) -> int:
    """Set start numbers (``{entry id: number}``) before the first draw; return how many changed.

    Numbers must stay distinct and positive; once a round is drawn they are the draw's inputs and stay.
    """
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        _refuse_team_event(tournament)
        if Round.objects.filter(tournament=tournament).exists():
            raise Conflict("tournament_started", None, {"reason": "start_numbers"})
        entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament)}
        wanted = {pk: e.start_number for pk, e in entries.items()}
        for pk, number in numbers.items():
            if pk not in entries:
                raise ServiceError("not_entered", "start_number", {"entry": pk})
            if not isinstance(number, int) or number < 1:
                raise ServiceError("start_number", "start_number", {"value": number})
            wanted[pk] = number
        taken = [n for n in wanted.values() if n is not None]
        if len(taken) != len(set(taken)):
            raise Conflict("start_number_taken", "start_number",
                           {"number": min(n for n in taken if taken.count(n) > 1)})
        changed = [e for pk, e in entries.items() if e.start_number != wanted[pk]]
        # Two steps through free numbers: the unique constraint holds after each statement.
        top = max([*taken, *(e.start_number or 0 for e in entries.values())], default=0)
        for offset, entry in enumerate(changed, start=1):
            entry.start_number = top + offset
        Entry.objects.bulk_update(changed, ["start_number"])
        for entry in changed:
            entry.start_number = wanted[entry.pk]
        Entry.objects.bulk_update(changed, ["start_number"])
    return len(changed)


def kept_apart_add(*, tournament: Tournament, player_a: Player, player_b: Player, reason: str = "",
                   user=None) -> KeptApart:
    """Keep two entered players from ever sharing a table in the event's draws."""
    if player_a.pk == player_b.pk:
        raise ServiceError("same_player", "player_b", {"reason": "kept_apart"})
    a, b = sorted((player_a.pk, player_b.pk))
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        _refuse_team_event(tournament)
        if Entry.objects.filter(tournament=tournament, player_id__in=(a, b)).count() != 2:
            raise ServiceError("not_entered", "player_b", {"reason": "kept_apart"})
        pair, created = KeptApart.objects.get_or_create(tournament=tournament, player_a_id=a, player_b_id=b,
                                                        defaults={"reason": (reason or "")[:200]})
        if not created:
            raise Conflict("already_kept_apart")
    return pair


def kept_apart_remove(*, pair: KeptApart, user=None) -> None:
    with transaction.atomic():
        tournament_locked(pair.tournament)
        KeptApart.objects.filter(pk=pair.pk).delete()


# -- the draw -------------------------------------------------------------------------------------------------

def _gone(match: Match) -> tuple[int, ...]:
    """The players of a finished individual match who did not play it out: absent (its active forfeit's ``players``)
    or gone mid-match (its active withdrawal's ``player``, when the withdrawal decided it): their partners sat the
    round out, scored as a sit-out (``ranking.individual.forfeit_sitting``)."""
    if match.status != Match.Status.FINISHED:
        return ()
    found: list[int] = []
    for directive in match.directives or []:
        if directive.get("kind") == "forfeit" and match.forfeit:
            found += directive.get("players", [])
        elif directive.get("kind") == "withdrawal" and match.decided_by == "withdrawal" and "player" in directive:
            found.append(directive["player"])
    return tuple(found)


def _partners_out(seats: dict[str, int], gone: set[int]) -> tuple[int, ...]:
    """The start numbers of a table's players who sat the round out there: the partners, still at the table, of the
    players ``gone`` (absent, or withdrawn mid-match)."""
    return tuple(sorted(p for pair in ((seats["N"], seats["S"]), (seats["E"], seats["W"])) if set(pair) & gone
                        for p in pair if p not in gone))


def _history(tournament: Tournament, number_of: dict[int, int], before: int, stage=None
             ) -> tuple[individual.PastRound, ...]:
    """The stage's rounds before ``before`` as the pure draw reads them: start numbers at each table, a table whose
    match was forfeited (the director's desk: players absent, the match not played) marked ``forfeit``: no meeting,
    as the team Swiss reads it (``rounds.swiss_states``, FIDE C.04); the partners of a player absent or gone
    mid-match, who sat the round out there (scored so), in its ``sat_out``: the sit-out rotation counts them."""
    rounds: dict[int, dict] = {}
    forfeited: set[tuple[int, int]] = set()
    gone: dict[tuple[int, int], set[int]] = {}  # (round, table): the players absent or who withdrew mid-match
    scope = {"round__stage": stage} if stage is not None else {"round__tournament": tournament}
    for seat in (RoundSeat.objects.filter(**scope, round__number__lt=before)
                 .select_related("round", "match").order_by("round__number", "match__table", "seat")):
        rounds.setdefault(seat.round.number, {"tables": {}, "out": []})
        if seat.match_id is None:
            rounds[seat.round.number]["out"].append(number_of[seat.player_id])
            continue
        where = (seat.round.number, seat.match.table)
        table = rounds[seat.round.number]["tables"].setdefault(seat.match.table, {})
        table[seat.seat] = number_of[seat.player_id]
        if seat.match.forfeit and seat.match.status == Match.Status.FINISHED:
            forfeited.add(where)
        if where not in gone:
            gone[where] = {number_of[p] for p in _gone(seat.match) if p in number_of}
    past = []
    for number in sorted(rounds):
        tables = tuple(individual.PastTable(table=t, ns=(s["N"], s["S"]), ew=(s["E"], s["W"]),
                                            forfeit=(number, t) in forfeited,
                                            sat_out=_partners_out(s, gone.get((number, t), set())))
                       for t, s in sorted(rounds[number]["tables"].items()) if len(s) == 4)
        past.append(individual.PastRound(number=number, tables=tables,
                                         sitting_out=tuple(sorted(rounds[number]["out"]))))
    return tuple(past)


def _scores(tournament: Tournament, number_of: dict[int, int], stage=None) -> tuple[tuple[int, int, int, int], ...]:
    """Swiss: each player's match points, games won and points for, ranked now from the results (the saved
    standings may be a moment behind: their recompute is queued); a later stage's from its own rounds."""
    from tournaments.ranking.individual import compute_individual_standings
    from tournaments.services.standings import points_settings
    from tournaments.services.standings_individual import individual_inputs

    pts = points_settings(tournament)
    if stage is not None and stage.number > 1:
        from tournaments.services.stage_standings import stage_field

        players, matches, sit_outs = individual_inputs(tournament, pts, stage=stage,
                                                       field=stage_field(stage, tournament))
    else:
        players, matches, sit_outs = individual_inputs(tournament, pts)
    rows = compute_individual_standings(players, matches, sit_outs, format=tournament.format, settings=pts)
    return tuple(sorted((number_of[r.player], r.match_points, r.games_won, r.points_for)
                        for r in rows if r.player in number_of))


def _cycle_start(tournament: Tournament, number: int, format: str | None = None) -> int | None:
    """The first round of ``number``'s ``tables`` cycle when ``number`` continues one (its second or third round)."""
    if (format or tournament.format) != Tournament.Format.TABLES or number % 3 == 1:
        return None
    return number - (number - 1) % 3


def draw_inputs(tournament: Tournament, number: int, seed: str, stage=None) -> tuple[individual.DrawInputs, dict]:
    """The pure draw's inputs for round ``number`` from the rows (what a ``RoundDraw`` keeps), and what the
    service changes in its result: ``{"left": [start numbers]}``, the players of the cycle who withdrew under
    the ``sit_out`` rule (their tables are not played; the others there sit out).

    A round that continues a ``tables`` cycle draws the cycle's players: a reserve who took a leaver's seat
    (``Entry.replaces``) is named to the draw (``reserves``) until they have sat there once, after which the
    earlier rounds show them; a player who left with no reserve is drawn still, and the service leaves their
    table out. Players who joined since (late entries) wait for the next cycle: they sit out.
    """
    entries = list(Entry.objects.filter(tournament=tournament).select_related("player"))
    number_of = {e.player_id: e.start_number for e in entries}
    by_number = {e.start_number: e for e in entries}
    history = _history(tournament, number_of, number, stage)
    format = stage.format if stage is not None else tournament.format
    if stage is not None and stage.number > 1:  # a later stage draws its own entrants (the qualifiers)
        field = set(stage.entrants.values_list("entry_id", flat=True))
        entries = [e for e in entries if e.pk in field]
    kept = tuple(sorted(tuple(sorted((number_of[a], number_of[b])))
                        for a, b in KeptApart.objects.filter(tournament=tournament).values_list("player_a",
                                                                                                  "player_b")
                        if a in number_of and b in number_of))
    drawn = sorted((e for e in entries if not e.withdrawn and not e.reserve), key=lambda e: e.start_number)
    changes: dict = {"left": [], "waiting": []}
    reserves: list[tuple[int, int]] = []
    first = _cycle_start(tournament, number, format)
    if first is not None:
        cycle = [r for r in history if first <= r.number < number]
        if cycle and cycle[0].number == first:
            by_pk = {e.pk: e for e in entries}
            seated_first = {n for t in cycle[0].tables for n in (*t.ns, *t.ew)}
            seated = {n for r in cycle for t in r.tables for n in (*t.ns, *t.ew)}
            replaced = {by_pk[e.replaces_id].start_number: e.start_number
                        for e in entries if e.replaces_id and not e.withdrawn}
            reserves = sorted((left, reserve) for left, reserve in replaced.items()
                              if left in seated_first and reserve not in seated)
            left = sorted(n for n in seated_first if by_number[n].withdrawn and n not in replaced)
            cycle_players = (seated_first - set(replaced)) | {r for n, r in replaced.items() if n in seated_first}
            cycle_players |= {n for n in cycle[0].sitting_out if not by_number[n].withdrawn}
            changes["left"] = left
            changes["waiting"] = sorted(e.start_number for e in drawn if e.start_number not in cycle_players)
            drawn = sorted((by_number[n] for n in cycle_players), key=lambda e: e.start_number)
    # Clubs by their first appearance in start-number order ("c1", "c2"...): the inputs name no database id.
    clubs: dict[int, str] = {}
    for e in sorted(entries, key=lambda e: e.start_number):
        if e.player.club_id is not None and e.player.club_id not in clubs:
            clubs[e.player.club_id] = f"c{len(clubs) + 1}"
    players = tuple(individual.DrawPlayer(number=e.start_number, club=clubs.get(e.player.club_id),
                                          fixed_table=e.fixed_table) for e in drawn)
    inputs = individual.DrawInputs(
        format=format, round_number=number, players=players, seed=seed, history=history,
        kept_apart=kept, reserves=tuple(reserves),
        scores=_scores(tournament, number_of, stage) if format == Tournament.Format.SWISS else ())
    return inputs, changes


def _draw(inputs: individual.DrawInputs) -> individual.DrawResult:
    try:
        return individual.draw(inputs)
    except individual.DrawError as exc:
        raise ServiceError(exc.code, "round", exc.params) from exc


def _save_draw(rnd: Round, inputs: individual.DrawInputs, result: individual.DrawResult, changes: dict,
               user) -> None:
    """Create the round's matches and seats from a draw's result (less the tables of players who left, whose
    others sit out, and with the players waiting for the next cycle sitting out), and keep the draw."""
    player_of = dict(Entry.objects.filter(tournament_id=rnd.tournament_id).values_list("start_number", "player_id"))
    left = set(changes.get("left", ()))
    played = [t for t in result.tables if not left & set(t.seats.values())]
    out = sorted({*result.sitting_out, *changes.get("waiting", ()),
                  *(n for t in result.tables if left & set(t.seats.values()) for n in t.seats.values())} - left)
    codes = new_table_codes(len(played))
    matches = Match.objects.bulk_create(
        [Match(round=rnd, table=t.table, table_code=code) for t, code in zip(played, codes)])
    seats = [RoundSeat(round=rnd, match=m, player_id=player_of[number], seat=seat)
             for m, t in zip(matches, played) for seat, number in sorted(t.seats.items())]
    seats += [RoundSeat(round=rnd, match=None, player_id=player_of[n], seat="") for n in out]
    RoundSeat.objects.bulk_create(seats, batch_size=2000)
    rnd.seed = inputs.seed
    rnd.save(update_fields=["seed"])
    kept = result.to_json()
    if left or changes.get("waiting"):
        kept["changes"] = {"left": sorted(left), "waiting": list(changes.get("waiting", ())), "sitting_out": out}
    RoundDraw.objects.create(round=rnd, seed=inputs.seed, version=inputs.version, inputs=inputs.to_json(),
                             result=kept, drawn_by=user if getattr(user, "pk", None) else None)


def round_draw_locked(tournament: Tournament, number: int, *, user=None, report=None, stage=None) -> Round:
    """Draw round ``number`` of a locked individual event's ``stage`` (``round_pair`` calls it in its transaction;
    without a stage, the running one: ``Round.save``)."""
    report = report or (lambda info: None)
    rounds = stage.rounds if stage is not None else tournament.rounds
    if number > rounds:
        raise ServiceError("tournament_over", None, {"reason": "rounds", "rounds": rounds})
    inputs, changes = draw_inputs(tournament, number, secrets.token_hex(8), stage)
    report({"stage": "drawing", "round": number, "players": len(inputs.players)})
    result = _draw(inputs)
    report({"stage": "saving", "round": number, "matches": len(result.tables)})
    rnd = Round.objects.create(tournament=tournament, stage=stage, number=number, seed=inputs.seed)
    _save_draw(rnd, inputs, result, changes, user)
    return rnd


def round_redraw(*, round: Round, user=None) -> Round:
    """Draw a round again with a new seed while none of its matches has a game; every draw stays kept.

    Refuses a team event's round (``entry_kind``: its pairing is no draw), an earlier round and a round begun.
    """
    with transaction.atomic():
        tournament = tournament_locked(round.tournament)
        if not tournament.is_individual:
            raise ServiceError("entry_kind", None, {"entry": tournament.entry})
        rnd = Round.objects.select_related("stage").get(pk=round.pk)
        if Round.objects.filter(stage_id=rnd.stage_id, number__gt=rnd.number).exists():
            raise Conflict("round_not_last", None, {"round": rnd.number})
        if rnd.stage.status == rnd.stage.Status.CLOSED:
            raise Conflict("stage_closed", None, {"stage": rnd.stage.number})
        if Match.objects.filter(round=rnd, games__isnull=False).exists():
            raise Conflict("round_started", None, {"round": rnd.number})
        inputs, changes = draw_inputs(tournament, rnd.number, secrets.token_hex(8), rnd.stage)
        result = _draw(inputs)
        RoundSeat.objects.filter(round=rnd).delete()
        Match.objects.filter(round=rnd).delete()
        _save_draw(rnd, inputs, result, changes, user)
        publish_tournament_changed(tournament.pk)
    return rnd


def round_draw_check(rnd: Round) -> dict:
    """Make the round's draw in use again from its kept inputs: ``{"seed", "version", "same": bool, "result"}``."""
    kept = rnd.draws.filter(seed=rnd.seed).order_by("-created_at", "-id").first()
    if kept is None:
        raise ServiceError("no_draw", "round", {"round": rnd.number})
    again = individual.draw(individual.DrawInputs.from_json(kept.inputs)).to_json()
    pure = {k: v for k, v in kept.result.items() if k != "changes"}
    return {"seed": kept.seed, "version": kept.version, "same": again == pure, "result": again}


def individual_withdraw(tournament: Tournament, entry: Entry) -> Entry | None:
    """What a player's withdrawal changes (in ``entry_withdraw``'s transaction); return the reserve seated.

    With the ``reserve`` rule, the first reserve (by start number) takes the leaver's seat in the rounds
    still to come of a ``tables`` cycle (``Entry.replaces``) and is drawn from then on. With ``sit_out`` (or
    no reserve left), the next rounds of the cycle leave the leaver's table without a match and its other
    three players sit out, each scoring the event's sit-out rule (``draw_inputs``). A match of the leaver
    not started yet in the current round stays: the organizer enters it as played or not.
    """
    if tournament.withdrawal != Tournament.Withdrawal.RESERVE:
        return None
    reserve = (Entry.objects.select_for_update().filter(tournament=tournament, reserve=True, withdrawn=False)
               .order_by("start_number").first())
    if reserve is None:
        return None
    reserve.reserve = False
    reserve.replaces = entry
    reserve.save(update_fields=["reserve", "replaces"])
    return reserve
