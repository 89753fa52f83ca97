"""A hand with its game, match, round, tournament, teams and players: one statement written once per process.

A hand's event (``services.event_payloads``) needs all of them. The push channel builds it when the hand's
change commits, in the request that stored the hand: the queryset with eleven tables (``select_related``)
cost that request about 10 ms, half of it Django compiling the statement, half PostgreSQL planning it. Here
the statement's text is made once from the models' metadata (``tournaments.services.rows``) and runs on the
cursor that binds on the server, so PostgreSQL prepares it after a connection ran it five times: about 1 ms.
The instances are the ORM's own (``Columns.build``), joined as ``select_related`` joins them.
"""

from __future__ import annotations

import functools

from tournaments.models import Game, Hand, Match, Player, Round, Team, Tournament
from tournaments.services.rows import Columns, cursor, qn

_HAND, _GAME, _MATCH = Columns(Hand, "h"), Columns(Game, "g"), Columns(Match, "m")
_ROUND, _TOURNAMENT = Columns(Round, "r"), Columns(Tournament, "t")
_NS, _EW = Columns(Team, "tn"), Columns(Team, "te")
_PLAYERS = [Columns(Player, alias) for alias in ("pn1", "pn2", "pe1", "pe2")]
_PARTS = [_HAND, _GAME, _MATCH, _ROUND, _TOURNAMENT, _NS, _EW, *_PLAYERS]


def _column(model, name: str) -> str:
    return qn(model._meta.get_field(name).column)


@functools.cache
def _sql() -> str:
    def table(model) -> str:
        return qn(model._meta.db_table)

    pk = qn("id")
    players = [("pn1", "tn", "player_1"), ("pn2", "tn", "player_2"), ("pe1", "te", "player_1"),
               ("pe2", "te", "player_2")]
    return (
        f"SELECT {', '.join(part.select() for part in _PARTS)} FROM {table(Hand)} h "
        f"JOIN {table(Game)} g ON g.{pk} = h.{_column(Hand, 'game')} "
        f"JOIN {table(Match)} m ON m.{pk} = g.{_column(Game, 'match')} "
        f"JOIN {table(Round)} r ON r.{pk} = m.{_column(Match, 'round')} "
        f"JOIN {table(Tournament)} t ON t.{pk} = r.{_column(Round, 'tournament')} "
        f"LEFT JOIN {table(Team)} tn ON tn.{pk} = m.{_column(Match, 'ns')} "
        f"LEFT JOIN {table(Team)} te ON te.{pk} = m.{_column(Match, 'ew')} "
        + "".join(f"LEFT JOIN {table(Player)} {alias} ON {alias}.{pk} = {team}.{_column(Team, field)} "
                  for alias, team, field in players)
        + f"WHERE h.{pk} = %s")


def hand_with_match(hand_id: int) -> Hand | None:
    """The hand, its game, match, round and tournament, the match's teams and their players, or None."""
    with cursor() as c:
        c.execute(_sql(), [hand_id])
        row = c.fetchone()
    if row is None:
        return None
    built, start = [], 0
    for part in _PARTS:
        built.append(part.build(row, start))
        start += part.width
    hand, game, match, rnd, tournament, ns, ew, *players = built
    Hand.game.field.set_cached_value(hand, game)
    Game.match.field.set_cached_value(game, match)
    Match.round.field.set_cached_value(match, rnd)
    Round.tournament.field.set_cached_value(rnd, tournament)
    Match.ns.field.set_cached_value(match, ns)
    Match.ew.field.set_cached_value(match, ew)
    for team, (first, second) in ((ns, players[:2]), (ew, players[2:])):
        if team is not None:
            Team.player_1.field.set_cached_value(team, first)
            Team.player_2.field.set_cached_value(team, second)
    return hand
