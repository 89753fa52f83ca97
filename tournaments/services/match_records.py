"""A match row as the standings read it, and its records: shared by the event's standings
(``tournaments.services.standings``) and each stage's (``tournaments.services.stage_standings``)."""

from __future__ import annotations

from tournaments.models import Match
from tournaments.ranking import MatchRecord, PointsSettings

# A result waiting for the opponents' confirmation reads as unfinished when the tournament waits for it
# (``confirmation.waits``): its status column is then 'unconfirmed', and the result counts once confirmed. The
# query that reads these columns joins the match's tournament as ``t``.
MATCH_COLUMNS = "m.id, r.number, m.ns_id, m.ew_id, " \
                "CASE WHEN m.result_status IN ('entered', 'disputed') AND t.confirmation = 'opponents' " \
                "AND t.unconfirmed = 'wait' THEN 'unconfirmed' ELSE m.status END, " \
                "m.winner, m.games_won_ns, m.games_won_ew, m.points_ns, m.points_ew, m.forfeit"

FINISHED = Match.Status.FINISHED.value


class Records:
    """Turns match rows (``MATCH_COLUMNS``) into the ``MatchRecord`` of each side, at a tournament's points."""

    def __init__(self, pts: PointsSettings):
        win, draw = pts.points_win, pts.points_draw
        self.bye = pts.points_bye
        self.outcomes = {"ns": ("W", win, "L", 0), "ew": ("L", 0, "W", win), "draw": ("D", draw, "D", draw)}

    def __call__(self, row: tuple) -> tuple[MatchRecord, ...]:
        _, rnd, ns, ew, status, winner, gw_ns, gw_ew, p_ns, p_ew, forfeit = row
        if ew is None:
            return (MatchRecord(rnd, ns, None, "B", self.bye),)
        if forfeit and status == FINISHED:  # unplayed for both sides: no opponent (tournaments/ranking/metrics.py)
            win = self.outcomes["ns"][1]
            ns_won, ew_won = forfeit == "ew", forfeit == "ns"
            return (MatchRecord(rnd, ns, None, "+" if ns_won else "-", win if ns_won else 0, gw_ns, gw_ew, p_ns, p_ew),
                    MatchRecord(rnd, ew, None, "+" if ew_won else "-", win if ew_won else 0, gw_ew, gw_ns, p_ew, p_ns))
        if status != FINISHED or winner not in self.outcomes:
            return ()
        o_ns, mp_ns, o_ew, mp_ew = self.outcomes[winner]
        return (MatchRecord(rnd, ns, ew, o_ns, mp_ns, gw_ns, gw_ew, p_ns, p_ew),
                MatchRecord(rnd, ew, ns, o_ew, mp_ew, gw_ew, gw_ns, p_ew, p_ns))
